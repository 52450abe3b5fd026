// warpgemm/kernels/sm80/block_tile.cuh -- how a block of warps tiles its BM x BN tile of C for
// mma.sync m16n8k16 (or m16n8k32 for 8-bit inputs), and where each thread of it stands (the
// prologue every hgemm rung shares).
#pragma once

#include "common/util.cuh"

namespace wg {
namespace sm80 {

__host__ __device__ constexpr int threads_for(int BM, int BN, int WM, int WN) {
    return 32 * (BM / WM) * (BN / WN);
}

// A block computes BM x BN of C with (BM/WM) x (BN/WN) warps, warp w at row w / WARPS_N and
// column w % WARPS_N of the warp grid; a warp's WM x WN tile is MT x NT mma tiles of m16n8, and
// a k-tile of BK is KSTEPS mma steps of MMA_K (16 for 16-bit inputs, 32 for 8-bit ones).
template <int BM, int BN, int BK, int WM, int WN, int MMA_K = 16>
struct BlockShape {
    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile WM x WN must divide the block tile BM x BN");
    static_assert(WM % 16 == 0, "WM must be a multiple of 16 (the m of one mma.m16n8k16)");
    static_assert(WN % 16 == 0, "WN must be a multiple of 16 (B fragments are read in pairs of n8 tiles)");
    static_assert(BK % MMA_K == 0, "BK must be a multiple of the k of one mma: 16 (m16n8k16, 16-bit inputs) "
                                   "or 32 (m16n8k32, 8-bit inputs)");
    static constexpr int WARPS_M = BM / WM;
    static constexpr int WARPS_N = BN / WN;
    static constexpr int THREADS = threads_for(BM, BN, WM, WN);
    static_assert(THREADS <= 1024, "at most 1024 threads per block: use a larger warp tile");
    static constexpr int MT = WM / 16;
    static constexpr int NT = WN / 8;
    static constexpr int KSTEPS = BK / MMA_K;
};

// Where this thread stands in a block that computes tile (tile_m, tile_n) of C: its lane and
// warp, the warp's first row and column inside the block tile, the block tile's first row and
// column of C, and the number of k-tiles of BK.
template <int BM, int BN, int BK, int WM, int WN>
struct BlockTile {
    int tid, lane, warp;
    int warp_m0, warp_n0;  // the warp's WM x WN tile within the block tile
    int m0, n0;            // the block tile within C
    int k_tiles;

    __device__ __forceinline__ BlockTile(int tile_m, int tile_n, int K) {
        using Shape = BlockShape<BM, BN, BK, WM, WN>;
        tid = threadIdx.x;
        lane = tid & 31;
        warp = tid >> 5;
        warp_m0 = (warp / Shape::WARPS_N) * WM;
        warp_n0 = (warp % Shape::WARPS_N) * WN;
        m0 = tile_m * BM;
        n0 = tile_n * BN;
        k_tiles = (K + BK - 1) / BK;
    }
};

}  // namespace sm80
}  // namespace wg
