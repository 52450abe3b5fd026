// warpgemm/kernels/sm90/warp_specialized_roles.cuh -- the body of a warp-specialised kernel (hopper
// rungs 03-06): warpgroup 0 produces, the others consume, both walking the block's tiles in the
// scheduler's order, and the consumers hand each tile's accumulators to the epilogue: straight
// from registers to C (DirectEpilogue, rungs 03-05) or through shared memory and a TMA store
// (TmaStoreEpilogue, rung 06).
//
// An epilogue has `prepare(consumer, work)`, called by every thread of consumer warpgroup
// `consumer` when a unit of work starts (to fetch what its store reads while the main loop
// runs); `store(acc, consumer, work)`, called by the same threads once the unit's sums are in
// `acc` (a unit is sm90/tile_scheduler.cuh's Work: a tile, or a K range of one for
// SplitKReduction, sm90/split_k_reduction.cuh); and `finish(consumer)`, called once after the
// last.
//
// An epilogue with HOLDS = true (HeldTmaStoreEpilogue) stores a unit while the next one
// multiplies. Its `hold(acc, consumer, work, held)` converts the unit's sums into `held`, a
// `Held<ACC>` in registers, and says whether they wait there (false: the unit is already done,
// as a split tile's non-last unit is). Then, while the next unit's wgmma run, `store_held(held,
// consumer, part)` stores one part a k-tile (Mainloop::consume's `beside`), and
// `store_held_from(held, consumer, part)` stores what is left once that unit's loop ends (a
// unit of fewer k-tiles than parts) or after the last unit. The tensor cores then idle only while
// the warpgroups convert, not while they stage and store.
#pragma once

#include "arch/sm90.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/tile_scheduler.cuh"

namespace wg {
namespace sm90 {

//
// Programmatic dependent launch. The host may launch these kernels with the programmatic-stream-
// serialization attribute, so that a grid starts while the one before it in the stream finishes
// (its last blocks, its memory flush). Until griddepcontrol.wait returns, a block may read and
// write nothing that grid may touch: the operands may be its output, C and the workspace its
// input. So every thread waits first, after only the shared-memory set-up (the ring's barriers);
// then the block lets the next grid launch, whose blocks take SMs as this grid's blocks leave
// them. Without the attribute the wait returns at once. (Prefetching the first k-tiles into L2
// before the wait, which is allowed, measured slower on an H100: W8A8 decode at 1 x 4096 x 4096
// took 13.0 us with it and 10.8 us without.)
__device__ __forceinline__ void await_prerequisite_grids() {
    griddepcontrol_wait();
    griddepcontrol_launch_dependents();
}

// Whether an epilogue stores each unit while the next one multiplies (its HOLDS, if it has one).
template <typename Epilogue, typename = void>
struct holds_sums {
    static constexpr bool value = false;
};
template <typename Epilogue>
struct holds_sums<Epilogue, decltype(void(Epilogue::HOLDS))> {
    static constexpr bool value = Epilogue::HOLDS;
};

// The held sums' type of an epilogue that holds them (an empty stand-in for one that does not), for
// wrappers such as SplitKReduction that hold through their epilogue.
template <typename Epilogue, bool = holds_sums<Epilogue>::value>
struct held_sums_of {
    template <int ACC>
    struct type {};
};
template <typename Epilogue>
struct held_sums_of<Epilogue, true> {
    template <int ACC>
    using type = typename Epilogue::template Held<ACC>;
};

// `Tiles` is GridTile, PersistentTiles or PersistentClusterTiles (sm90/tile_scheduler.cuh). Call
// after the ring is set up and the block (or cluster) has synchronised.
template <typename Mainloop, typename Tiles, typename Epilogue>
__device__ __forceinline__ void warp_specialized_roles(const Tiles& tiles, const TmaDescriptor* tma_a,
                                                       const TmaDescriptor* tma_b, int K, Epilogue& epilogue) {
    // setmaxnreg moves registers between the block's warpgroups and cannot add any: together they
    // may ask for what the block was launched with (65536 / threads a thread, in steps of 8), or
    // the consumers' setmaxnreg.inc waits for ever.
    constexpr int THREADS = 128 * (1 + Mainloop::CONSUMERS);
    static_assert(128 * Mainloop::PRODUCER_REGS + 128 * Mainloop::CONSUMERS * Mainloop::CONSUMER_REGS <=
                      THREADS * (65536 / THREADS / 8 * 8),
                  "setmaxnreg: the warpgroups ask for more registers than the block was launched with");
    const int k_tiles = (K + Mainloop::BLOCK_K - 1) / Mainloop::BLOCK_K;
    const int warpgroup = threadIdx.x / 128;
    await_prerequisite_grids();
    typename Mainloop::RingCursor cursor;
    if (warpgroup == 0) {
        setmaxnreg_dec<Mainloop::PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            for (int u = tiles.first(); u < tiles.total; u = tiles.next(u)) {
                const Work w = tiles.work(u, k_tiles);
                Mainloop::produce(cursor, tma_a, tma_b, w.m0, w.n0, w.k_begin, w.k_end);
            }
        }
        __syncwarp();
    } else {
        setmaxnreg_inc<Mainloop::CONSUMER_REGS>();
        typename Mainloop::Acc acc[Mainloop::Mma::ACC];
        const int consumer = warpgroup - 1;
        if constexpr (holds_sums<Epilogue>::value) {
            typename Epilogue::template Held<Mainloop::Mma::ACC> held;  // the last unit's sums, until stored
            bool holding = false;
            for (int u = tiles.first(); u < tiles.total; u = tiles.next(u)) {
                const Work w = tiles.work(u, k_tiles);
                epilogue.prepare(consumer, w);
                Mainloop::consume(cursor, acc, consumer, w.k_end - w.k_begin, [&](int kt) {
                    if (holding) epilogue.store_held(held, consumer, kt);
                });
                if (holding) epilogue.store_held_from(held, consumer, w.k_end - w.k_begin);
                holding = epilogue.hold(acc, consumer, w, held);
            }
            if (holding) epilogue.store_held_from(held, consumer, 0);
        } else {
            for (int u = tiles.first(); u < tiles.total; u = tiles.next(u)) {
                const Work w = tiles.work(u, k_tiles);
                epilogue.prepare(warpgroup - 1, w);
                Mainloop::consume(cursor, acc, warpgroup - 1, w.k_end - w.k_begin);
                epilogue.store(acc, warpgroup - 1, w);
            }
        }
        epilogue.finish(warpgroup - 1);
    }
}

}  // namespace sm90
}  // namespace wg
