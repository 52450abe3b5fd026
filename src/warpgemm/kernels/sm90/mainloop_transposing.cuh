// warpgemm/kernels/sm90/mainloop_transposing.cuh -- the warp-specialised main loop for 8-bit
// operands that arrive MN-major (igemm rungs 04, 05 and 09): TMA lands them as they lie in global
// memory, and the consumer warpgroups copy them K-major (sm90/transposing_copy.cuh) before wgmma
// reads them.
//
// The producer and the ring are sm90/mainloop_warp_specialized.cuh's, unchanged. A consumer, for
// each k-tile:
//   1. waits for the stage (full[s]) and for the warps that read the target tiles it is about to
//      overwrite to be done with them (a barrier: their wgmma of two k-tiles ago read them);
//   2. copies its rows of the stage's A tile into target tile kt % 2, K-major (and, with COPY_B,
//      its half of the B tile's rows into B's target tile kt % 2), and fences the writes for the
//      async proxy (fence.proxy.async: wgmma reads shared memory through it);
//   3. after a second barrier (every row written), issues the k-tile's wgmma from the target
//      tiles (B from the stage unless COPY_B), and waits for the previous k-tile's wgmma.
// So the copy of k-tile kt runs while the tensor cores work on k-tile kt - 1. Two target tiles a
// consumer (64 x BK bytes each) follow the ring's barriers in shared memory.
//
// A is copied by its own consumer (64 rows each), so rungs 04 and 05 meet in per-consumer
// barriers, release a stage once the wgmma that read its B is done, and need B K-major (a
// column-major B, or the tokens' rows when the operands are swapped).
//
// COPY_B (rung 09, A column-major and B row-major: no swap makes either K-major) copies B too.
// B's tile is read by both consumers, so each copies half of its rows into one shared target
// tile (two of them, BN x BK each, after A's), and both meet in one 256-thread barrier at steps 1
// and 3. Nothing reads the stage after step 3's barrier, so it is handed back there, a k-tile
// sooner than rung 04's. BK = 128 (one 128-byte row a k-tile): a 64-row band of B's target tile
// is then laid out as a (64, BK) tile, which the copy writes.
#pragma once

#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/transposing_copy.cuh"

namespace wg {
namespace sm90 {

template <typename T, int BM, int BN, int BK, int STAGES, bool COPY_B = false>
struct TransposingMainloop : WarpSpecializedMainloop<T, BM, BN, BK, STAGES, false, COPY_B, 1, 1> {
    using Base = WarpSpecializedMainloop<T, BM, BN, BK, STAGES, false, COPY_B, 1, 1>;
    using typename Base::Acc;
    using typename Base::Mma;
    using typename Base::Smem;
    using Copy = TransposingCopy8<BM, BK>;
    using CopyB = TransposingCopy8<BN, BK>;
    using TargetB = SwizzledOperand<int8_t, BN, BK, true>;  // B's rows K-major, as wgmma reads them
    using Atom = Gmma<T, BN, 0, 0>;  // both operands K-major in shared memory
    static constexpr int CONSUMERS = Base::CONSUMERS;
    static constexpr int TARGETS_AT = STAGES * Smem::STAGE_BYTES + 1024;  // after the ring's barriers
    static constexpr int TARGETS_B_AT = TARGETS_AT + 2 * CONSUMERS * Copy::Target::BYTES;
    static constexpr int SMEM_BYTES = TARGETS_B_AT + (COPY_B ? 2 * TargetB::BYTES : 0);
    static constexpr int FIRST_BARRIER = 5;  // 5, 6 (the split reduction uses 3, 4; the TMA store 1, 2)
    static constexpr int B_BANDS = BN / 64 / CONSUMERS;  // 64-row bands of B each consumer copies
    static_assert(same_type<T, int8_t>::value, "the transposing copy moves 8-bit elements: 16-bit operands "
                                               "are read MN-major by wgmma itself");
    static_assert(BM == 128, "BM = 128: two consumer warpgroups, each copying its 64 rows of A");
    static_assert(!COPY_B || (BK == 128 && BN % 128 == 0),
                  "copying B: BK = 128 (a 64-row band of B's target is then a (64, BK) tile) and BN a "
                  "multiple of 128 (each consumer copies whole 64-row bands)");
    // The copies' targets take WarpgroupMma's check of its own operands (B's is checked there).
    static_assert(Mma::template offsets_add<typename Copy::Target>(64) && Mma::template offsets_add<TargetB>(64),
                  "an operand's offset must be its row part plus its k part, in 16-byte units, for the k-tile's "
                  "desc_advance to reach each wgmma's descriptor");
    static_assert(Ring<STAGES>::BARRIER_BYTES <= 1024, "the ring's barriers must fit below the target tiles");
    static_assert(SMEM_BYTES <= 227 * 1024, "stages plus target tiles exceed 227 KB of shared memory: lower "
                                            "STAGES or BN");

    // Target tile `slot` (0 or 1) of consumer `consumer`.
    static __device__ __forceinline__ uint32_t target(int consumer, int slot) {
        return Smem::base() + TARGETS_AT + (2 * consumer + slot) * Copy::Target::BYTES;
    }

    // B's target tile `slot` (0 or 1), shared by the consumers (COPY_B).
    static __device__ __forceinline__ uint32_t target_b(int slot) {
        return Smem::base() + TARGETS_B_AT + slot * TargetB::BYTES;
    }

    static __device__ __forceinline__ void consume(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                   int k_tiles) {
        if constexpr (COPY_B) consume_both(use, acc, consumer, k_tiles);
        else consume_a(use, acc, consumer, k_tiles);
    }

  private:
    // Rungs 04 and 05: A copied, B read from the stage.
    static __device__ __forceinline__ void consume_a(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                     int k_tiles) {
        const Ring<STAGES> ring = Smem::ring();
        const int barrier = FIRST_BARRIER + consumer;
        const int tid = threadIdx.x & 127;
#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        int running = -1;  // the stage whose wgmma may still be running
        const typename Copy::Offsets lane(typename Copy::Lane(64 * consumer, tid));  // the copy's offsets, once
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(use);
            const uint32_t a = target(consumer, kt & 1);
            named_barrier_sync(barrier, 128);  // every warp is past its wait for k-tile kt - 2's wgmma
            Copy::copy(Smem::a(use.stage), a, lane);
            fence_proxy_async_shared();
            named_barrier_sync(barrier, 128);  // all 64 rows written
            const uint64_t a0 = Copy::Target::desc(a, 0, 0), b0 = Mma::OperandB::desc(Smem::b(use.stage), 0, 0);
            wgmma_fence_operand(acc);
            wgmma_fence();
#pragma unroll
            for (int s = 0; s < Mma::K_STEPS; ++s)  // each k-step's descriptors one add from the first
                Atom::fma(acc, desc_advance(a0, Copy::Target::offset(0, s * Atom::K)),
                          desc_advance(b0, Mma::OperandB::offset(0, s * Atom::K)), (kt > 0 || s > 0) ? 1u : 0u);
            wgmma_commit_group();
            wgmma_fence_operand(acc);
            wgmma_wait_group<1>();
            if (running >= 0) release(ring, running);  // k-tile kt - 1's wgmma is done
            running = use.stage;
            use.advance();
        }
        wgmma_wait_group<0>();
        if (running >= 0) release(ring, running);
    }

    // Rung 09: A and B copied; the stage is handed back as soon as both are.
    static __device__ __forceinline__ void consume_both(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                        int k_tiles) {
        const Ring<STAGES> ring = Smem::ring();
        const int tid = threadIdx.x & 127;
#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        // The copies' offsets, once: all of A's (20 registers), and B's bands as Lanes (two words
        // each, one xor a load; as Offsets too they would not fit beside the sums).
        const typename Copy::Offsets lane_a(typename Copy::Lane(64 * consumer, tid));
        typename CopyB::Lane lane_b[B_BANDS];
#pragma unroll
        for (int band = 0; band < B_BANDS; ++band)
            lane_b[band] = typename CopyB::Lane(64 * (B_BANDS * consumer + band), tid);
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(use);
            const int slot = warp_uniform(kt & 1);  // the descriptors on the uniform datapath
            const uint32_t a = target(consumer, slot);
            const uint32_t b = target_b(slot);
            // Every warp of both consumers is past its wait for k-tile kt - 2's wgmma, the last
            // reader of target slot kt % 2.
            named_barrier_sync(FIRST_BARRIER, 128 * CONSUMERS);
            Copy::copy(Smem::a(use.stage), a, lane_a);
#pragma unroll
            for (int band = 0; band < B_BANDS; ++band)
                CopyB::copy(Smem::b(use.stage), b + 64 * (B_BANDS * consumer + band) * 128, lane_b[band]);
            fence_proxy_async_shared();
            named_barrier_sync(FIRST_BARRIER, 128 * CONSUMERS);  // every row of A and B written
            release(ring, use.stage);                            // and the stage read: hand it back
            const uint64_t a0 = Copy::Target::desc(a, 0, 0), b0 = TargetB::desc(b, 0, 0);
            wgmma_fence_operand(acc);
            wgmma_fence();
#pragma unroll
            for (int s = 0; s < Mma::K_STEPS; ++s)  // each k-step's descriptors one add from the first
                Atom::fma(acc, desc_advance(a0, Copy::Target::offset(0, s * Atom::K)),
                          desc_advance(b0, TargetB::offset(0, s * Atom::K)), (kt > 0 || s > 0) ? 1u : 0u);
            wgmma_commit_group();
            wgmma_fence_operand(acc);
            wgmma_wait_group<1>();  // k-tile kt - 1's wgmma is done: its target slot is free
            use.advance();
        }
        wgmma_wait_group<0>();
    }

    static __device__ __forceinline__ void release(const Ring<STAGES>& ring, int stage) {
        if ((threadIdx.x & 31) == 0) ring.consumer_release(stage);
    }
};

}  // namespace sm90
}  // namespace wg
