// warpgemm/kernels/sm90/mainloop_warp_specialized.cuh -- the main loop split into two roles
// (hopper rung 03 on): a producer warpgroup whose one thread issues every TMA load, and
// CONSUMERS warpgroups that only wait, multiply and hand stages back.
//
//   producer:  for each k-tile: wait empty[s], announce the bytes on full[s], load A and B.
//   consumer:  for each k-tile: wait full[s], wgmma, wait for them, arrive on empty[s].
//
// Neither side waits for the other except through the ring (sm90/pipeline.cuh), so the loads of
// the next STAGES k-tiles are always in flight while the consumers multiply. The producer needs
// few registers and the consumers many: setmaxnreg moves them (40 for the producer, 232 for
// two consumer warpgroups: 128 * 40 + 256 * 232 = 64512 of the SM's 65536).
//
// The functions take the ring cursors by reference and handle one tile of C, so that a
// persistent kernel (rung 04) calls them once per tile and the ring runs on across tiles.
#pragma once

#include "arch/sm90.cuh"
#include "common/util.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/stages.cuh"
#include "sm90/warpgroup_mma.cuh"

namespace wg {
namespace sm90 {

template <typename T, int BM, int BN, int BK, int STAGES, bool A_ROW, bool B_ROW>
struct WarpSpecializedMainloop {
    using Mma = WarpgroupMma<T, BM, BN, BK, A_ROW, B_ROW>;
    using Smem = Stages<Mma, STAGES>;
    using Acc = typename Mma::Acc;
    static constexpr int CONSUMERS = BM / 64;  // consumer warpgroups, 64 rows of C each
    static constexpr int THREADS = 128 * (1 + CONSUMERS);
    static constexpr int PRODUCER_REGS = 40;
    static constexpr int CONSUMER_REGS = CONSUMERS == 1 ? 256 : 232;
    static constexpr int SMEM_BYTES = Smem::SMEM_BYTES;
    static_assert(CONSUMERS == 1 || CONSUMERS == 2, "one or two consumer warpgroups: BM = 64 or 128");
    static_assert(128 * PRODUCER_REGS + 128 * CONSUMERS * CONSUMER_REGS <= 65536,
                  "the warpgroups' registers exceed the SM's 65536");

    // Thread 0, before the roles split: set up the ring; then the caller synchronises the block.
    static __device__ __forceinline__ void init(const TmaDescriptor* tma_a, const TmaDescriptor* tma_b) {
        prefetch_tensormap(tma_a);
        prefetch_tensormap(tma_b);
        Smem::ring().init(4 * CONSUMERS);  // one arrival per consumer warp
        fence_mbarrier_init();
    }

    // The producer's one thread: the k_tiles k-tiles of the tile at (m0, n0).
    static __device__ __forceinline__ void produce(Cursor<STAGES>& load, const TmaDescriptor* tma_a,
                                                   const TmaDescriptor* tma_b, int m0, int n0, int k_tiles) {
        for (int kt = 0; kt < k_tiles; ++kt) Smem::load(load, tma_a, tma_b, m0, n0, kt * BK);
    }

    // A consumer warpgroup (`consumer` = 0 .. CONSUMERS - 1): its 64 rows of the tile into `acc`.
    static __device__ __forceinline__ void consume(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                   int k_tiles) {
        const Ring<STAGES> ring = Smem::ring();
#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(use);
            Mma::k_tile(acc, Smem::a(use.stage), Smem::b(use.stage), 64 * consumer, kt > 0);
            wgmma_wait_group<0>();
            if ((threadIdx.x & 31) == 0) ring.consumer_release(use.stage);
            use.advance();
        }
    }
};

}  // namespace sm90
}  // namespace wg
