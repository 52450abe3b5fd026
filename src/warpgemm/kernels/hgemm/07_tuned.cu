// hgemm/07_tuned.cu -- rung 07: rung 06 with every tile, warp and stage choice left to a tuner,
// and a main loop for interior k-tiles with the bounds checks compiled out.
//
// What this rung adds over rung 06:
//   * No fixed shape. The block tile BM x BN x BK, the warp tile WM x WN (and with them the warp
//     grid BM/WM x BN/WN and the thread count), the pipeline depth STAGES and the block-swizzle
//     panel SWIZZLE are all template parameters, and the catalogue lists the space of legal
//     combinations. The autotuner times them per problem shape and remembers the fastest,
//     because no one choice wins everywhere:
//       - large squares want big tiles (256x128 or 128x256, eight 64x64 warps): the most mma
//         per byte of shared memory read, one block per SM;
//       - skinny or small problems want small tiles (64 or 128 wide, four warps) so that there
//         are enough blocks to fill every SM, two blocks per SM where shared memory allows;
//       - BK = 64 halves the barriers per k, at twice the shared memory per stage; more stages
//         hide more latency but take shared memory from a second resident block;
//       - the swizzle panel should be about sqrt(SMs * BM / BN) tiles wide for the L2 footprint
//         of one wave to be smallest; SWIZZLE = 1 is plain row order.
//   * Interior k-tiles without bounds. In rung 06 every cp.async chunk works out how many of its
//     16 bytes exist (a clamp, a compare and a select per chunk, every k-tile), so the main loop
//     issues about 3.5 instructions per mma: with two warps per scheduler that, and not the
//     tensor cores, sets the pace (ncu: "wait" and "math pipe throttle" stalls, tensor pipe 62%
//     busy). Here a block whose C tile lies wholly inside C runs the k-tiles whose prefetch is a
//     whole k-tile in a loop of their own, where a chunk is one address and one cp.async; the
//     last STAGES-1 k-tiles and every k-tile of an edge block take rung 06's checked loop. The
//     result is the same; the interior loop issues about 1.8 instructions per mma.
//
// Requires what rung 06 requires. The constraints are static_asserts in the shared pieces, and
// the catalogue's `valid` predicate repeats them for the tuner: BM % WM == 0 and BN % WN == 0,
// WM of 16, 32 or a multiple of 64, WN a multiple of 64, BK = 32 or 64, BM and BN multiples of 64,
// a thread count that is a multiple of 64 and divides the tile copies evenly, at most 1024
// threads.
//
// The interior loop is sm80/interior_k_tiles.cuh (with TileCopy::cp_async_interior in
// sm80/tile_copy.cuh); the rest is rung 06's main loop, sm80/mainloop_fragment_double_buffer.cuh.
#include "common/block_order.cuh"
#include "sm80/mainloop_fragment_double_buffer.cuh"

// C = A * B (+ bias, N values of T, or null), rung 06's kernel with every choice a parameter.
// Launch with rung 03's 1-D grid, 32 * (BM/WM) * (BN/WN) threads and
// max(STAGES * (BM + BN) * BK * 2, BM * BN * sizeof(TC)) bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_tuned(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
            int lda, int ldb, int ldc, const T* __restrict__ bias) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::double_buffered_tile<false, true, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n, bias);
}
