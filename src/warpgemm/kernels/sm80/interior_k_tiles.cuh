// warpgemm/kernels/sm80/interior_k_tiles.cuh -- the idea of hgemm/07_tuned's main loop: k-tiles
// that lie wholly inside A and B are copied without bounds checks.
//
// In a checked loop every cp.async chunk works out how many of its 16 bytes exist (a clamp, a
// compare and a select per chunk, every k-tile). A block whose C tile lies wholly inside C can
// run the k-tiles whose prefetch (STAGES-1 k-tiles ahead) is a whole k-tile of A and B in a loop
// of its own, where a chunk is one address and one cp.async (TileCopy::cp_async_interior); the
// last STAGES-1 k-tiles, and every k-tile of an edge block, take the checked loop.
#pragma once

namespace wg {
namespace sm80 {

// Run k_tile(kt, interior) for every k-tile kt of a block whose tile of C starts at (m0, n0):
// with INTERIOR_LOOP, interior is true (a compile-time constant in each of the two loops) for the
// k-tiles whose prefetch lies wholly inside A and B; without, it is always false.
template <bool INTERIOR_LOOP, int BM, int BN, int BK, int STAGES, class KTile>
__device__ __forceinline__ void for_each_k_tile(KTile& k_tile, int M, int N, int K, int m0, int n0,
                                                int k_tiles) {
    int kt = 0;
    if constexpr (INTERIOR_LOOP) {
        const bool inside = m0 + BM <= M && n0 + BN <= N;
        const int interior_end = inside ? K / BK - (STAGES - 1) : 0;
        for (; kt < interior_end; ++kt) k_tile(kt, true);
    }
    for (; kt < k_tiles; ++kt) k_tile(kt, false);
}

}  // namespace sm80
}  // namespace wg
