// warpgemm/kernels/sm90/mainloop_producer_widening.cuh -- the packed 4-bit main loop of int4/07: the
// producer warpgroup's idle warps widen B, so the consumers only widen A into registers and
// multiply.
//
// int4/06 (sm90/mainloop_register_a_widening.cuh) has each consumer warpgroup widen half of B
// into a shared 8-bit tile while its wgmma run, and both meet at a 256-thread barrier every
// k-tile: a k-tile's B is not whole until both halves are written. So the two consumers run in
// lockstep and their tensor-pipe drains (each waits for its wgmma before the next k-tile's,
// since their A registers were written while those ran: C7513) fall at the same moment. ncu at
// 8192^3 (128 x 256 tiles, H100): the tensor pipe 67.5% busy, the shared-memory pipe 76%; the
// int8 kernel keeps its tensor pipe 84.6% busy.
//
// Here B's widening moves to warps 1-3 of the producer warpgroup, which otherwise only wait
// (warp 0's one thread issues the TMA loads). They widen each k-tile's B into a ring of B_SLOTS
// 8-bit tiles of its own, with full and empty mbarriers: full[s] counts the 96 widening threads
// (each fences its stores for the async proxy, then arrives), empty[s] the 8 consumer warps
// (each arrives once its wgmma that read slot s are done). A packed stage is released by the 8
// consumer warps (A in registers) and the 3 widening warps (B in registers): 11 arrivals. The
// consumers no longer meet each other at all: each waits for its own wgmma, for B's slot and for
// A's stage, so one consumer's drain can fall while the other's wgmma run.
//
// Per consumer and k-tile kt (A widened into register set kt % 2 in the turn before): wait for
// k-tile kt - 1's wgmma and release its B slot; wait for B's slot of kt; issue kt's four
// register-A wgmma; widen k-tile kt + 1's A into set 1 - kt % 2 behind them (int4/06's
// RegisterAFragment, same k order as B's WideningCopy), and release its packed stage.
//
// Registers. The consumers keep the accumulators (BN / 2) and A's two sets (32) and no longer
// the widening's words. ptxas allocates each setmaxnreg region up to its count, so the consumers'
// 224 hold 128 x 256 tiles (int4/06, at 168 for the widening too, stops at 192 columns), and the
// producer warpgroup keeps the 56 the block has left (launched with 168 a thread: setmaxnreg
// moves registers between warpgroups and cannot add any). A widening warp loads BATCH = 4
// passes' packed words (16 registers) before it stores any: three shared-memory round trips a
// k-tile at BN = 256 (11 passes a warp), not one a pass.
//
// Shared memory: [ ring: STAGES x (A | B) packed | the ring's barriers, then B's | B_SLOTS
// 8-bit B tiles ], every tile 1024-byte aligned.
#pragma once

#include "sm90/mainloop_register_a_widening.cuh"

namespace wg {
namespace sm90 {

// The cursors a thread of int4/07 walks k-tile by k-tile: the packed ring's and the B ring's.
template <int STAGES, int B_SLOTS>
struct WideningCursors {
    Cursor<STAGES> ring;
    Cursor<B_SLOTS> b;
};

template <typename T, int BM, int BN, int BK, int STAGES, int B_SLOTS>
struct ProducerWideningMainloop : PackedPipeline<T, BM, BN, BK, STAGES> {
    using Base = PackedPipeline<T, BM, BN, BK, STAGES>;
    using typename Base::Acc;
    using typename Base::Smem;
    using typename Base::TargetB;
    using typename Base::Wide;
    using RingCursor = WideningCursors<STAGES, B_SLOTS>;
    // s4: every value widened to 16 times itself, as in int4/06 (SUM_SHIFT for the epilogue).
    static constexpr bool HIGH = Base::SIGNED;
    static constexpr int SUM_SHIFT = HIGH ? 8 : 0;
    using Copy = WideningCopy<Base::SIGNED, HIGH>;
    using Fragment = RegisterAFragment<Base::SIGNED, HIGH>;
    using Atom = GmmaRegisterA<Wide, BN>;
    static constexpr int ACC = BN / 2;
    static constexpr int K_STEPS = Fragment::K_STEPS;
    static constexpr int CONSUMERS = Base::CONSUMERS;
    static constexpr int WIDENING_WARPS = 3;  // warps 1-3 of the producer warpgroup
    static constexpr int PASSES = BN / 8;     // a warp widens 8 rows of B a pass
    static constexpr int BATCH = 4;           // passes loaded before any is stored
    static constexpr int PRODUCER_REGS = 56;   // a widening warp's 16 packed words and their widening
    static constexpr int CONSUMER_REGS = 224;  // ptxas allocates the consumers up to this: BN = 256 needs over 216
    static constexpr bool PRODUCER_WARPS_WORK = true;  // sm90/warp_specialized_roles.cuh calls widen_b
    static constexpr int B_BARRIERS_AT = STAGES * Smem::STAGE_BYTES + Ring<STAGES>::BARRIER_BYTES;
    static constexpr int TARGETS_AT = Base::TARGETS_AT;
    static constexpr int SMEM_BYTES = TARGETS_AT + B_SLOTS * TargetB::BYTES;
    static_assert(BK / Atom::K == K_STEPS, "a k-tile is 128 values: four k32 steps, one packed 16-byte chunk each");
    static_assert(B_SLOTS >= 2, "B_SLOTS >= 2: the widening warps fill one B tile while the consumers read another");
    static_assert(Ring<STAGES>::BARRIER_BYTES + 2 * 8 * B_SLOTS <= 1024,
                  "the ring's barriers and B's must fit in the 1024-byte gap below the B tiles: lower STAGES or B_SLOTS");
    static_assert(SMEM_BYTES <= 227 * 1024, "the packed stages plus B_SLOTS 8-bit B tiles exceed 227 KB of shared "
                                            "memory: lower STAGES, B_SLOTS or BN");
    // The block holds what it was launched with (65536 / THREADS, rounded down to 8: 168 a thread) and
    // setmaxnreg only moves registers between its warpgroups: asking for more hangs the inc.
    static constexpr int LAUNCH_REGS = 65536 / Base::THREADS / 8 * 8;
    static_assert(128 * PRODUCER_REGS + 128 * CONSUMERS * CONSUMER_REGS <= Base::THREADS * LAUNCH_REGS,
                  "setmaxnreg: the warpgroups ask for more registers than the block was launched with");

    static __device__ __forceinline__ uint32_t b_full(int slot) { return Smem::base() + B_BARRIERS_AT + 8 * slot; }
    static __device__ __forceinline__ uint32_t b_empty(int slot) {
        return Smem::base() + B_BARRIERS_AT + 8 * (B_SLOTS + slot);
    }
    static __device__ __forceinline__ uint32_t target_b(int slot) {
        return Smem::base() + TARGETS_AT + slot * TargetB::BYTES;
    }

    // Thread 0, before the roles split; then the caller synchronises the block.
    static __device__ __forceinline__ void init(const TmaDescriptor* tma_a, const TmaDescriptor* tma_b) {
        prefetch_tensormap(tma_a);
        prefetch_tensormap(tma_b);
        Smem::ring().init(4 * CONSUMERS + WIDENING_WARPS);  // each consumer warp and widening warp
#pragma unroll
        for (int s = 0; s < B_SLOTS; ++s) {
            mbarrier_init(b_full(s), 32 * WIDENING_WARPS);  // every widening thread, after its fence
            mbarrier_init(b_empty(s), 4 * CONSUMERS);       // every consumer warp, after its wgmma
        }
        fence_mbarrier_init();
    }

    // The producer's one thread (warp 0): the TMA loads of k-tiles k_begin .. k_end - 1.
    static __device__ __forceinline__ void produce(RingCursor& c, const TmaDescriptor* tma_a,
                                                   const TmaDescriptor* tma_b, int m0, int n0, int k_begin,
                                                   int k_end) {
        Base::produce(c.ring, tma_a, tma_b, m0, n0, k_begin, k_end);
    }

    // Producer warp `warp` (1..3), every lane: widen B of `k_tiles` k-tiles, stage after stage,
    // into B's ring. Pass p (8 rows) goes to warp 1 + p % 3. A warp loads BATCH passes' packed
    // words before it widens and stores them.
    static __device__ __forceinline__ void widen_b(RingCursor& c, int k_tiles, int warp) {
        constexpr int MAX_PASSES = (PASSES + WIDENING_WARPS - 1) / WIDENING_WARPS;
        const Ring<STAGES> ring = Smem::ring();
        const int lane = threadIdx.x & 31;
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(c.ring);
            const uint32_t src = Smem::b(c.ring.stage), dst = target_b(c.b.stage);
#pragma unroll
            for (int j0 = 0; j0 < MAX_PASSES; j0 += BATCH) {
                uint32_t w[BATCH][4];
                // Rows 8p .. 8p + 7 of pass p: lane takes row 8p + lane / 4, packed chunk lane % 4
                // (WideningCopy's pass, on 8 rows: 8 rows are 1024 target bytes, so the swizzle's
                // row is the same).
#pragma unroll
                for (int j = 0; j < BATCH; ++j) {
                    const int p = warp - 1 + WIDENING_WARPS * (j0 + j);
                    if (j0 + j < MAX_PASSES && p < PASSES)
                        Copy::load(src + 8 * p * PackedTile<BN>::ROW_BYTES, 0, lane, w[j]);
                }
                if (j0 + BATCH >= MAX_PASSES) {  // B's packed bytes are all in registers
                    __syncwarp();
                    if (lane == 0) ring.consumer_release(c.ring.stage);
                }
                if (j0 == 0) mbarrier_wait(b_empty(c.b.stage), c.b.phase ^ 1u);  // its wgmma of B_SLOTS k-tiles ago
#pragma unroll
                for (int j = 0; j < BATCH; ++j) {
                    const int p = warp - 1 + WIDENING_WARPS * (j0 + j);
                    if (j0 + j < MAX_PASSES && p < PASSES) Copy::store(dst + 8 * p * TargetB::ROW_BYTES, 0, lane, w[j]);
                }
            }
            fence_proxy_async_shared();  // the stores, for the wgmma
            mbarrier_arrive(b_full(c.b.stage));
            c.ring.advance();
            c.b.advance();
        }
    }

    // K-tile kt of a consumer, whose A is in register set SLOT = kt % 2: wait for B's slot, issue
    // the k-tile's wgmma, widen k-tile kt + 1's A into set 1 - SLOT behind them; then wait for
    // the wgmma (the next k-tile's A registers were written while they ran) and release B's slot.
    template <int SLOT>
    static __device__ __forceinline__ void k_tile(RingCursor& c, Acc (&acc)[ACC], uint32_t (&a)[2][K_STEPS][4],
                                                  int consumer, int kt, int k_tiles) {
        mbarrier_wait(b_full(c.b.stage), c.b.phase);
        wgmma_fence_operand(acc);
        // A's registers are final before the fence (as in int4/06: else ptxas fences on its own, C7519).
#pragma unroll
        for (int s = 0; s < K_STEPS; ++s)
#pragma unroll
            for (int i = 0; i < 4; ++i) asm volatile("" : "+r"(a[SLOT][s][i]));
        wgmma_fence();
#pragma unroll
        for (int s = 0; s < K_STEPS; ++s)
            Atom::fma(acc, a[SLOT][s], Base::Mma::OperandB::desc(target_b(c.b.stage), 0, s * Atom::K),
                      (kt > 0 || s > 0) ? 1u : 0u);
        wgmma_commit_group();
        wgmma_fence_operand(acc);
        if (kt + 1 < k_tiles) widen_a<SLOT ^ 1>(c, a, consumer);
        wgmma_wait_group<0>();
        wgmma_fence_operand(acc);
        __syncwarp();
        if ((threadIdx.x & 31) == 0) mbarrier_arrive(b_empty(c.b.stage));
        c.b.advance();
    }

    // The next packed stage's A rows of this thread into register set SLOT; then release the stage.
    template <int SLOT>
    static __device__ __forceinline__ void widen_a(RingCursor& c, uint32_t (&a)[2][K_STEPS][4], int consumer) {
        const Ring<STAGES> ring = Smem::ring();
        ring.consumer_wait(c.ring);
        Fragment::widen(Smem::a(c.ring.stage), consumer, a[SLOT]);
        __syncwarp();
        if ((threadIdx.x & 31) == 0) ring.consumer_release(c.ring.stage);
        c.ring.advance();
    }

    // Consumer warpgroup `consumer`: its 64 rows of the tile over `k_tiles` k-tiles (at least
    // one), into `acc`.
    static __device__ __forceinline__ void consume(RingCursor& c, Acc (&acc)[ACC], int consumer, int k_tiles) {
        uint32_t a[2][K_STEPS][4];
        widen_a<0>(c, a, consumer);
        for (int kt = 0; kt < k_tiles; kt += 2) {
            k_tile<0>(c, acc, a, consumer, kt, k_tiles);
            if (kt + 1 < k_tiles) k_tile<1>(c, acc, a, consumer, kt + 1, k_tiles);
        }
    }
};

}  // namespace sm90
}  // namespace wg
