// warpgemm/kernels/sm90/warp_specialized_roles.cuh -- the body of a warp-specialised kernel (hopper
// rungs 03-06): warpgroup 0 produces, the others consume, both walking the block's tiles in the
// scheduler's order, and the consumers hand each tile's accumulators to the epilogue: straight
// from registers to C (DirectEpilogue, rungs 03-05) or through shared memory and a TMA store
// (TmaStoreEpilogue, rung 06).
//
// An epilogue has `store(acc, consumer, m0, n0)`, called by every thread of consumer warpgroup
// `consumer` once per tile, and `finish(consumer)`, called once after the last tile.
#pragma once

#include "arch/sm90.cuh"
#include "sm90/mainloop_warp_specialized.cuh"

namespace wg {
namespace sm90 {

// `Tiles` is GridTile, PersistentTiles or PersistentClusterTiles (sm90/tile_scheduler.cuh). Call
// after the ring is set up and the block (or cluster) has synchronised.
template <typename Mainloop, typename Tiles, typename Epilogue>
__device__ __forceinline__ void warp_specialized_roles(const Tiles& tiles, const TmaDescriptor* tma_a,
                                                       const TmaDescriptor* tma_b, int K, Epilogue& epilogue) {
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
            epilogue.store(acc, warpgroup - 1, m0, n0);
        }
        epilogue.finish(warpgroup - 1);
    }
}

}  // namespace sm90
}  // namespace wg
