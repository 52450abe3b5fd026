// warpgemm/kernels/sm90/mainloop_transposing.cuh -- the warp-specialised main loop for an 8-bit A
// that arrives MN-major (igemm rungs 04 and 05): TMA lands it as it lies in global memory, and
// each consumer warpgroup copies its 64 rows K-major (sm90/transposing_copy.cuh) before wgmma
// reads them.
//
// The producer and the ring are sm90/mainloop_warp_specialized.cuh's, unchanged. A consumer, for
// each k-tile:
//   1. waits for the stage (full[s]) and for its own warps to be done with the target tile it is
//      about to overwrite (a warpgroup barrier: their wgmma of two k-tiles ago read it);
//   2. copies its rows of the stage's A tile into target tile kt % 2, K-major, and fences the
//      writes for the async proxy (fence.proxy.async: wgmma reads shared memory through it);
//   3. after a second warpgroup barrier (every row written), issues the k-tile's wgmma from the
//      target tile and the stage's B tile, and waits for the previous k-tile's wgmma, whose stage
//      it then releases.
// So the copy of k-tile kt runs while the tensor cores work on k-tile kt - 1. Two target tiles a
// consumer (64 x BK bytes each) follow the ring's barriers in shared memory.
//
// A is the only operand copied: BM = 128 rows of it, two consumer warpgroups of 64 rows. B must
// be K-major (column-major B, or the tokens' rows when the operands are swapped).
#pragma once

#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/transposing_copy.cuh"

namespace wg {
namespace sm90 {

template <typename T, int BM, int BN, int BK, int STAGES>
struct TransposingMainloop : WarpSpecializedMainloop<T, BM, BN, BK, STAGES, false, false, 1, 1> {
    using Base = WarpSpecializedMainloop<T, BM, BN, BK, STAGES, false, false, 1, 1>;
    using typename Base::Acc;
    using typename Base::Mma;
    using typename Base::Smem;
    using Copy = TransposingCopy8<BM, BK>;
    using Atom = Gmma<T, BN, 0, 0>;  // both operands K-major in shared memory
    static constexpr int CONSUMERS = Base::CONSUMERS;
    static constexpr int TARGETS_AT = STAGES * Smem::STAGE_BYTES + 1024;  // after the ring's barriers
    static constexpr int SMEM_BYTES = TARGETS_AT + 2 * CONSUMERS * Copy::Target::BYTES;
    static constexpr int FIRST_BARRIER = 5;  // 5, 6 (the split reduction uses 3, 4; the TMA store 1, 2)
    static_assert(same_type<T, int8_t>::value, "the transposing copy moves 8-bit elements: 16-bit operands "
                                               "are read MN-major by wgmma itself");
    static_assert(BM == 128, "BM = 128: two consumer warpgroups, each copying its 64 rows of A");
    static_assert(Ring<STAGES>::BARRIER_BYTES <= 1024, "the ring's barriers must fit below the target tiles");
    static_assert(SMEM_BYTES <= 227 * 1024, "stages plus target tiles exceed 227 KB of shared memory: lower "
                                            "STAGES or BN");

    // Target tile `slot` (0 or 1) of consumer `consumer`.
    static __device__ __forceinline__ uint32_t target(int consumer, int slot) {
        return Smem::base() + TARGETS_AT + (2 * consumer + slot) * Copy::Target::BYTES;
    }

    static __device__ __forceinline__ void consume(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                   int k_tiles) {
        const Ring<STAGES> ring = Smem::ring();
        const int barrier = FIRST_BARRIER + consumer;
        const int tid = threadIdx.x & 127;
#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        int running = -1;  // the stage whose wgmma may still be running
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(use);
            const uint32_t a = target(consumer, kt & 1);
            named_barrier_sync(barrier, 128);  // every warp is past its wait for k-tile kt - 2's wgmma
            Copy::copy(Smem::a(use.stage), a, 64 * consumer, tid);
            fence_proxy_async_shared();
            named_barrier_sync(barrier, 128);  // all 64 rows written
            wgmma_fence_operand(acc);
            wgmma_fence();
#pragma unroll
            for (int s = 0; s < Mma::K_STEPS; ++s)
                Atom::fma(acc, Copy::Target::desc(a, 0, s * Atom::K), Mma::OperandB::desc(Smem::b(use.stage), 0, s * Atom::K),
                          (kt > 0 || s > 0) ? 1u : 0u);
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

  private:
    static __device__ __forceinline__ void release(const Ring<STAGES>& ring, int stage) {
        if ((threadIdx.x & 31) == 0) ring.consumer_release(stage);
    }
};

}  // namespace sm90
}  // namespace wg
