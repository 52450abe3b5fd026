// warpgemm/kernels/sm90/warp_specialized_roles.cuh -- the body of a warp-specialised kernel (hopper
// rungs 03-05): warpgroup 0 produces, the others consume, both walking the block's tiles in the
// scheduler's order, and the consumers store each tile's C straight from registers.
#pragma once

#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"

namespace wg {
namespace sm90 {

// `Tiles` is GridTile, PersistentTiles or PersistentClusterTiles (sm90/tile_scheduler.cuh). Call
// after the ring is set up and the block (or cluster) has synchronised.
template <typename Mainloop, typename Tiles, typename T, typename TC>
__device__ __forceinline__ void warp_specialized_roles(const Tiles& tiles, const TmaDescriptor* tma_a,
                                                 const TmaDescriptor* tma_b, TC* C, int M, int N, int K, int ldc,
                                                 const T* bias) {
    const int k_tiles = (K + Mainloop::BLOCK_K - 1) / Mainloop::BLOCK_K;
    const int warpgroup = threadIdx.x / 128;
    typename Mainloop::RingCursor cursor;
    int m0, n0;
    if (warpgroup == 0) {
        setmaxnreg_dec<Mainloop::PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            for (int t = tiles.first(); t < tiles.total; t = tiles.next(t)) {
                tiles.origin(t, m0, n0);
                Mainloop::produce(cursor, tma_a, tma_b, m0, n0, k_tiles);
            }
        }
        __syncwarp();
    } else {
        setmaxnreg_inc<Mainloop::CONSUMER_REGS>();
        typename Mainloop::Acc acc[Mainloop::Mma::ACC];
        for (int t = tiles.first(); t < tiles.total; t = tiles.next(t)) {
            tiles.origin(t, m0, n0);
            Mainloop::consume(cursor, acc, warpgroup - 1, k_tiles);
            store_direct(C, ldc, M, N, m0 + 64 * (warpgroup - 1), n0, acc, bias);
        }
    }
}

}  // namespace sm90
}  // namespace wg
