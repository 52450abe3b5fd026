// warpgemm/kernels/sm90/mainloop_warp_specialized.cuh -- the main loop split into two roles
// (hopper rung 03 on): a producer warpgroup whose one thread issues every TMA load, and
// CONSUMERS warpgroups that only wait, multiply and hand stages back.
//
//   producer:  for each k-tile: wait empty[s], announce the bytes on full[s], load A and B.
//   consumer:  for each k-tile: wait full[s], issue its wgmma, wait until at most IN_FLIGHT
//              k-tiles' wgmma are still running, arrive on empty[] of the stage they finished.
//
// With IN_FLIGHT = 1 the tensor cores start the next k-tile's wgmma while the last one's finish:
// a consumer never waits for its own wgmma to drain between k-tiles, only for the stage's data.
// (IN_FLIGHT = 0 waits for each k-tile's wgmma before issuing the next.)
//
// Neither side waits for the other except through the ring (sm90/pipeline.cuh), so the loads of
// the next STAGES k-tiles are always in flight while the consumers multiply. The producer needs
// few registers and the consumers many: setmaxnreg moves them (40 for the producer, 232 for
// two consumer warpgroups: 128 * 40 + 256 * 232 = 64512 of the SM's 65536).
//
// The functions take the ring cursors by reference and handle one tile of C, so that a
// persistent kernel (rung 04) calls them once per tile and the ring runs on across tiles.
//
// With CLUSTER > 1 (rung 05) the blocks of a cluster compute vertically adjacent tiles and share
// the B tile: each producer loads its A and a 1/CLUSTER part of B multicast to every block, so a
// block's stage is written by every producer of the cluster. A stage may then be refilled only
// when the consumers of every block are done with it: each consumer warp arrives on the empty
// barrier of every block (CLUSTER * 4 * CONSUMERS arrivals a phase). With CLUSTER = 4 (rung 06)
// a block reads a quarter of each B tile from L2 instead of half: 24 KB a 128 x 256 x 64 k-tile
// against 32 KB. With SHARE_A the cluster lies the other way: its blocks compute horizontally
// adjacent tiles (the same m0) and share the A tile, each loading a 1/CLUSTER part of it
// (decode/02's SHARE_W, where A is the weight).
#pragma once

#include "arch/sm90.cuh"
#include "common/util.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/stages.cuh"
#include "sm90/warpgroup_mma.cuh"

namespace wg {
namespace sm90 {

// The block size of the kernels launched with 128 * (1 + BM / 64) threads (their host spec's
// `threads`): a producer warpgroup and BM / 64 consumer warpgroups of 64 rows. A 256-row tile has
// two consumers of 128 rows (WarpSpecializedMainloop), so such a launch would bring two
// warpgroups more than the kernel uses, and the block would never finish: refused here. (Hopper
// rung 06 sizes its launch by its consumers and takes 256-row tiles.)
// The last, ragged tile-row of a K-major A, loaded with a map whose boxes stop at the tensor's
// edge (`rows` of BM, a multiple of 8), so that no box crosses it: tiles from row `m0` on take
// `map`, and their stages expect (BM - rows) rows of A fewer bytes. A stage's rows past `rows`
// keep whatever it held before; they feed only rows of C past M (row i of C reads only row i of
// A), which the epilogue never stores, and sums a split adds only into those rows. Default: no
// edge map (every tile-row full-height).
struct AEdge {
    const TmaDescriptor* map = nullptr;
    int m0 = 0x7fffffff;
    int rows = 0;
};

// No edge map: every tile-row loads full-height boxes of A's own map, which TMA fills with zeros
// past M (the schedules' default; their producer then calls the plain `produce`).
struct NoEdge {};

template <int BM>
struct SixtyFourRowConsumers {
    static_assert(BM == 64 || BM == 128, "BM = 64 or 128: one or two consumer warpgroups of 64 rows, as the launch's "
                                         "128 * (1 + BM / 64) threads assume (256-row tiles are hopper rung 06's)");
    static constexpr int THREADS = 128 * (1 + BM / 64);
};

// What a consumer does beside its wgmma when there is nothing to do (WarpSpecializedMainloop::consume).
struct NothingBeside {
    __device__ __forceinline__ void operator()(int) const {}
};

// With PING_PONG (hopper rung 07) the two consumer warpgroups take alternate tiles of BM rows
// each (64, or 128 as two row blocks), one k-tile stage at a time: a stage is read by one
// warpgroup, so one arrival per warp of that warpgroup (per cluster block) hands it back.
template <typename T, int BM, int BN, int BK, int STAGES, bool A_ROW, bool B_ROW, int CLUSTER = 1,
          int IN_FLIGHT = 1, int STAGGER = 1, bool PING_PONG = false, bool SHARE_A = false>
struct WarpSpecializedMainloop {
    static constexpr int CONSUMERS = PING_PONG ? 2 : BM == 64 ? 1 : 2;  // consumer warpgroups
    static constexpr int WG_ROWS = PING_PONG ? BM : BM / CONSUMERS;  // rows of C each: 64, or 128 at BM = 256
    static constexpr int READERS = PING_PONG ? 1 : CONSUMERS;          // warpgroups that read a stage
    using Mma = WarpgroupMma<T, BM, BN, BK, A_ROW, B_ROW, WG_ROWS>;
    using Smem = Stages<Mma, STAGES>;
    using Acc = typename Mma::Acc;
    using RingCursor = Cursor<STAGES>;
    static constexpr int BLOCK_M = BM;
    static constexpr int BLOCK_N = BN;
    static constexpr int BLOCK_K = BK;
    static constexpr int THREADS = 128 * (1 + CONSUMERS);
    static constexpr int PRODUCER_REGS = 40;
    static constexpr int CONSUMER_REGS = CONSUMERS == 1 ? 256 : 232;
    static constexpr int SMEM_BYTES = Smem::SMEM_BYTES;
    static_assert(BM == 64 || BM == 128 || BM == 256,
                  "BM = 64 (one consumer warpgroup), 128 or 256 (two, of 64 or 128 rows each)");
    static_assert(!PING_PONG || BM == 64 || BM == 128, "ping-pong: each warpgroup's tile is BM = 64 or 128 rows");
    static_assert(WG_ROWS * BN <= 64 * 256, "a consumer warpgroup's WG_ROWS x BN sums are WG_ROWS * BN / 128 registers a "
                                            "thread, at most 128: BN <= 128 at BM = 256");
    static_assert(CLUSTER == 1 || CLUSTER == 2 || CLUSTER == 4, "clusters of 1, 2 or 4 blocks along M (CLUSTER x 1: tiles "
                                                                "of one column, sharing B)");
    static_assert(IN_FLIGHT == 0 || IN_FLIGHT == 1, "IN_FLIGHT: k-tiles of wgmma left running while the next is "
                                                    "issued (0 or 1)");
    static_assert(IN_FLIGHT < STAGES, "a stage in use by running wgmma cannot be refilled: IN_FLIGHT < STAGES");
    static_assert(STAGGER >= 1, "STAGGER >= 1 bands of the k range (1: the plain walk)");
    static_assert(!SHARE_A || CLUSTER > 1, "SHARE_A shares A between the blocks of a cluster: CLUSTER > 1");
    // The blocks of a cluster load each k-tile of the shared tile together, so they walk k alike:
    // CLUSTER tile-rows share a band (they share B), or one tile-row is the cluster's (SHARE_A).
    static constexpr int BAND_ROWS = SHARE_A ? BM : CLUSTER * BM;

    // Thread 0, before the roles split: set up the ring; then the caller synchronises the block
    // (with CLUSTER > 1, the cluster: no block may multicast into another before it is set up).
    static __device__ __forceinline__ void init(const TmaDescriptor* tma_a, const TmaDescriptor* tma_b) {
        prefetch_tensormap(tma_a);
        prefetch_tensormap(tma_b);
        Smem::ring().init(4 * READERS * CLUSTER);  // one arrival per reading warp of the cluster
        fence_mbarrier_init();
    }

    // The producer's one thread: k-tiles k_begin .. k_end - 1 of the tile at (m0, n0). With
    // STAGGER > 1 the tile row m0 / BM starts at band (m0 / BM) % STAGGER of STAGGER of its k range
    // and wraps around: at any moment the grid reads STAGGER columns of A, not one (decode/02,
    // where every tile streams rows of one weight from HBM: in step, all of them read the same
    // columns, and the speed then depends on where the weight's pages lie). In a cluster the band
    // is the cluster's, (m0 / (CLUSTER * BM)) % STAGGER, since its blocks load each k-tile of the
    // shared B together. The consumers take the stages in the order they arrive; only the order
    // of the sum over k changes. STAGGER = 1 keeps the plain loop, so the rungs that do not
    // stagger compile to the same machine code.
    static __device__ __forceinline__ void produce(Cursor<STAGES>& load, const TmaDescriptor* tma_a,
                                                   const TmaDescriptor* tma_b, int m0, int n0, int k_begin,
                                                   int k_end) {
        if constexpr (STAGGER == 1) {
            for (int kt = k_begin; kt < k_end; ++kt) load_k_tile(load, tma_a, tma_b, m0, n0, kt * BK);
        } else {
            const int k_tiles = k_end - k_begin;
            const StaggeredWalk walk((m0 / BAND_ROWS) % STAGGER, STAGGER, k_tiles);
            for (int i = 0; i < k_tiles; ++i) load_k_tile(load, tma_a, tma_b, m0, n0, (k_begin + walk(i)) * BK);
        }
    }

    // The same, with A's ragged last tile-row (`edge`) loaded through its own map: a K-major A on
    // the plain walk (STAGGER = 1); otherwise every tile-row loads full-height boxes of `tma_a`.
    static __device__ __forceinline__ void produce(Cursor<STAGES>& load, const TmaDescriptor* tma_a,
                                                   const TmaDescriptor* tma_b, int m0, int n0, int k_begin,
                                                   int k_end, AEdge edge) {
        static_assert(!SHARE_A, "A's edge map is for blocks that load their own A tile, or share B: not SHARE_A");
        if constexpr (!A_ROW || STAGGER != 1) {  // the edge map is for a K-major A on the plain walk
            produce(load, tma_a, tma_b, m0, n0, k_begin, k_end);
            return;
        }
        const bool at_edge = m0 >= edge.m0;
        const TmaDescriptor* map_a = at_edge ? edge.map : tma_a;
        const uint32_t bytes = at_edge ? Smem::STAGE_BYTES - Mma::OperandA::SLABS * (BM - edge.rows) * Mma::OperandA::ROW_BYTES
                                       : Smem::STAGE_BYTES;
        for (int kt = k_begin; kt < k_end; ++kt) load_k_tile(load, map_a, tma_b, m0, n0, kt * BK, bytes);
    }

    // A consumer warpgroup (`consumer` = 0 .. CONSUMERS - 1): its WG_ROWS rows of the tile, summed over
    // `k_tiles` k-tiles (at least one), into `acc`. `beside(kt)` runs once a k-tile, after its
    // wgmma are issued and before they are awaited: work for the warpgroup's threads that keeps
    // off `acc` and runs while the tensor cores multiply (the last tile's stores, rung 06's
    // HOLD = 1). Every thread of the warpgroup calls it, with the same kt.
    template <typename Beside = NothingBeside>
    static __device__ __forceinline__ void consume(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                   int k_tiles, Beside beside = {}) {
        const Ring<STAGES> ring = Smem::ring();
#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        int running = -1;  // the stage whose wgmma may still be running (IN_FLIGHT = 1)
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(use);
            const int stage = warp_uniform(use.stage);  // descriptors on the uniform datapath
            Mma::k_tile(acc, Smem::a(stage), Smem::b(stage), PING_PONG ? 0 : WG_ROWS * consumer, kt > 0);
            beside(kt);
            wgmma_wait_group<IN_FLIGHT>();
            if constexpr (IN_FLIGHT == 0) {
                release(ring, use.stage);
            } else {
                if (running >= 0) release(ring, running);  // the k-tile before this one is done
                running = use.stage;
            }
            use.advance();
        }
        if constexpr (IN_FLIGHT > 0) {
            wgmma_wait_group<0>();
            if (running >= 0) release(ring, running);
        }
    }

  private:
    // One k-tile of the tile at (m0, n0) from k0: the block's own loads, or its part of the
    // cluster's shared tile (B, or A with SHARE_A) and its own other operand. `bytes` is what the
    // stage's full barrier expects: less than a stage for A's ragged last tile-row through its
    // own map (the AEdge produce, which SHARE_A does not take).
    static __device__ __forceinline__ void load_k_tile(Cursor<STAGES>& load, const TmaDescriptor* tma_a,
                                                       const TmaDescriptor* tma_b, int m0, int n0, int k0,
                                                       uint32_t bytes = Smem::STAGE_BYTES) {
        if constexpr (CLUSTER == 1) Smem::load(load, tma_a, tma_b, m0, n0, k0, bytes);
        else if constexpr (SHARE_A) Smem::template load_multicast_a<CLUSTER>(load, tma_a, tma_b, m0, n0, k0, cluster_ctarank());
        else Smem::template load_multicast_b<CLUSTER>(load, tma_a, tma_b, m0, n0, k0, cluster_ctarank(), bytes);
    }

    static __device__ __forceinline__ void release(const Ring<STAGES>& ring, int stage) {
        if ((threadIdx.x & 31) == 0) {
            if constexpr (CLUSTER == 1) ring.consumer_release(stage);
            else ring.consumer_release_cluster(stage, CLUSTER);
        }
    }
};

}  // namespace sm90
}  // namespace wg
