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

// Thread 0 sets up the ring (and prefetches C's tensor map, if `tma_c`), then the block, or with
// CLUSTER > 1 the cluster, synchronises: no block may multicast into another before it is set up.
template <typename Mainloop, int CLUSTER>
__device__ __forceinline__ void set_up_ring(const TmaDescriptor* tma_a, const TmaDescriptor* tma_b,
                                            const TmaDescriptor* tma_c) {
    if (threadIdx.x == 0) {
        Mainloop::init(tma_a, tma_b);
        if (tma_c != nullptr) prefetch_tensormap(tma_c);
    }
    if constexpr (CLUSTER > 1) {
        cluster_arrive();
        cluster_wait();
    } else {
        __syncthreads();
    }
}

// With CLUSTER > 1, before a block exits: its partners may still multicast into it until they are
// done (rung 05 on).
template <int CLUSTER>
__device__ __forceinline__ void leave_cluster() {
    if constexpr (CLUSTER > 1) {
        cluster_arrive();
        cluster_wait();
    }
}

// The producer's thread: one unit's k-tiles through A's own map, or, with an AEdge
// (WarpSpecializedMainloop), A's ragged last tile-row through its own.
template <typename Mainloop>
__device__ __forceinline__ void produce_unit(typename Mainloop::RingCursor& cursor, const TmaDescriptor* tma_a,
                                             const TmaDescriptor* tma_b, const Work& w, NoEdge) {
    Mainloop::produce(cursor, tma_a, tma_b, w.m0, w.n0, w.k_begin, w.k_end);
}

template <typename Mainloop>
__device__ __forceinline__ void produce_unit(typename Mainloop::RingCursor& cursor, const TmaDescriptor* tma_a,
                                             const TmaDescriptor* tma_b, const Work& w, const AEdge& edge) {
    Mainloop::produce(cursor, tma_a, tma_b, w.m0, w.n0, w.k_begin, w.k_end, edge);
}

// The roles of every schedule: once the grids before are waited for, the producer warpgroup
// (warpgroup 0) gives registers up and its one thread loads every unit's k-tiles in the
// scheduler's order; the consumer warpgroups take registers and run `consumers(consumer, cursor,
// k_tiles)` (consumer = 0 .. CONSUMERS - 1), on a ring cursor of their own from the first stage.
template <typename Mainloop, typename Tiles, typename Consumers, typename Edge = NoEdge>
__device__ __forceinline__ void split_roles(const Tiles& tiles, const TmaDescriptor* tma_a,
                                            const TmaDescriptor* tma_b, int K, Consumers consumers,
                                            const Edge& edge = {}) {
    // setmaxnreg moves registers between the block's warpgroups and cannot add any: together they
    // may ask for what the block was launched with (65536 / threads a thread, in steps of 8), or
    // the consumers' setmaxnreg.inc waits for ever.
    constexpr int THREADS = 128 * (1 + Mainloop::CONSUMERS);
    static_assert(128 * Mainloop::PRODUCER_REGS + 128 * Mainloop::CONSUMERS * Mainloop::CONSUMER_REGS <=
                      THREADS * (65536 / THREADS / 8 * 8),
                  "setmaxnreg: the warpgroups ask for more registers than the block was launched with");
    const int k_tiles = (K + Mainloop::BLOCK_K - 1) / Mainloop::BLOCK_K;
    const int warpgroup = warp_uniform(static_cast<int>(threadIdx.x) / 128);
    await_prerequisite_grids();
    typename Mainloop::RingCursor cursor;
    if (warpgroup == 0) {
        setmaxnreg_dec<Mainloop::PRODUCER_REGS>();
        if (threadIdx.x == 0) {
            for (int u = tiles.first(); u < tiles.total; u = tiles.next(u)) {
                produce_unit<Mainloop>(cursor, tma_a, tma_b, tiles.work(u, k_tiles), edge);
            }
        }
        __syncwarp();
    } else {
        setmaxnreg_inc<Mainloop::CONSUMER_REGS>();
        consumers(warpgroup - 1, cursor, k_tiles);
    }
}

// `Tiles` is GridTile, PersistentTiles or PersistentClusterTiles (sm90/tile_scheduler.cuh). Call
// after set_up_ring. Both consumer warpgroups work on each unit.
template <typename Mainloop, typename Tiles, typename Epilogue, typename Edge = NoEdge>
__device__ __forceinline__ void warp_specialized_roles(const Tiles& tiles, const TmaDescriptor* tma_a,
                                                       const TmaDescriptor* tma_b, int K, Epilogue& epilogue,
                                                       const Edge& edge = {}) {
    split_roles<Mainloop>(tiles, tma_a, tma_b, K, [&](int consumer, typename Mainloop::RingCursor& cursor,
                                                      int k_tiles) {
        typename Mainloop::Acc acc[Mainloop::Mma::ACC];
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
                epilogue.prepare(consumer, w);
                Mainloop::consume(cursor, acc, consumer, w.k_end - w.k_begin);
                epilogue.store(acc, consumer, w);
            }
        }
        epilogue.finish(consumer);
    }, edge);
}

// The ping-pong schedule (hopper rung 07): the producer loads the block's units in order, as
// above, and consumer warpgroup c takes units c, c + 2, c + 4, ... of that order, each a whole
// tile of its own (Mainloop's PING_PONG), stepping its ring cursor past the other's k-tiles. The
// two take turns: a warpgroup starts a unit only once the other has issued the last k-tile of the
// unit before (named barrier TURN + c, which the other arrives on). Then each one's epilogue runs
// while the other multiplies, and the turns also keep the parity waits sound: a warpgroup
// that skipped ahead waits on a stage's full barrier only once the other has seen every earlier
// phase of it, never two or more phases early, where the parity of a phase would match an older
// one. The epilogue stores each warpgroup's own tile (TmaStoreEpilogue's OWN_TILES).
constexpr int PING_PONG_TURN_BARRIER = 9;  // 9, 10 (the epilogue uses 1, 2; the split reduction 3, 4; 5-8 others)
template <typename Mainloop, typename Tiles, typename Epilogue>
__device__ __forceinline__ void ping_pong_roles(const Tiles& tiles, const TmaDescriptor* tma_a,
                                                const TmaDescriptor* tma_b, int K, Epilogue& epilogue) {
    static_assert(Mainloop::CONSUMERS == 2 && Mainloop::READERS == 1,
                  "ping-pong takes a mainloop whose two consumers read a stage each (PING_PONG)");
    split_roles<Mainloop>(tiles, tma_a, tma_b, K, [&](int consumer, typename Mainloop::RingCursor& cursor,
                                                      int k_tiles) {
        typename Mainloop::Acc acc[Mainloop::Mma::ACC];
        int turn = 0;  // whose unit this is: 0, 1, 0, 1, ... along the block's order
        for (int u = tiles.first(); u < tiles.total; u = tiles.next(u), turn ^= 1) {
            const Work w = tiles.work(u, k_tiles);
            const int n = w.k_end - w.k_begin;
            if (turn != consumer) {
                cursor.skip(n);
                continue;
            }
            if (u != tiles.first()) named_barrier_sync(PING_PONG_TURN_BARRIER + consumer, 256);
            const bool handing_on = tiles.next(u) < tiles.total;  // the other has a unit after this one
            epilogue.prepare(consumer, w);
            Mainloop::consume(cursor, acc, consumer, n, [&](int kt) {
                if (kt == n - 1 && handing_on) named_barrier_arrive(PING_PONG_TURN_BARRIER + 1 - consumer, 256);
            });
            epilogue.store(acc, consumer, w);
        }
        epilogue.finish(consumer);
    });
}

}  // namespace sm90
}  // namespace wg
