// warpgemm/kernels/sm90/mainloop_tma_wgmma.cuh -- the main loop of hopper rungs 01 and 02: every
// warpgroup computes, and one thread also issues the TMA loads, STAGES k-tiles ahead, through
// the full/empty ring (sm90/pipeline.cuh).
//
// Per k-tile: wait for the stage (full), issue its BK / 16 wgmma, wait for them, hand the stage
// back (empty, one arrival per warp), and thread 0 refills it with the k-tile STAGES ahead. The
// loads run behind the math; the wgmma of one k-tile do not overlap the next (rung 03 separates
// the roles so that the producer never waits inside a consumer warp).
#pragma once

#include "arch/sm90.cuh"
#include "common/util.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/stages.cuh"
#include "sm90/warpgroup_mma.cuh"

namespace wg {
namespace sm90 {

template <typename T, int BM, int BN, int BK, int STAGES, bool A_ROW, bool B_ROW>
struct SingleRoleMainloop {
    using Mma = WarpgroupMma<T, BM, BN, BK, A_ROW, B_ROW>;
    using Smem = Stages<Mma, STAGES>;
    using Acc = typename Mma::Acc;
    static constexpr int WARPGROUPS = BM / 64;
    static constexpr int SMEM_BYTES = Smem::SMEM_BYTES;

    // C(m0 .. m0 + BM, n0 .. n0 + BN) of A (M, K) and B (K, N), into this warpgroup's rows of the
    // tile (rows 64 * warpgroup ..) in `acc`. All 128 * WARPGROUPS threads call it.
    static __device__ __forceinline__ void run(Acc (&acc)[Mma::ACC], const TmaDescriptor* tma_a,
                                               const TmaDescriptor* tma_b, int m0, int n0, int K) {
        const Ring<STAGES> ring = Smem::ring();
        const int tid = threadIdx.x;
        const int k_tiles = (K + BK - 1) / BK;

        if (tid == 0) {
            prefetch_tensormap(tma_a);
            prefetch_tensormap(tma_b);
            ring.init(4 * WARPGROUPS);  // one arrival per consumer warp
            fence_mbarrier_init();
        }
        __syncthreads();

        Cursor<STAGES> load, use;
        if (tid == 0) {
            for (int kt = 0; kt < imin(STAGES, k_tiles); ++kt) Smem::load(load, tma_a, tma_b, m0, n0, kt * BK);
        }
        __syncwarp();

#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        for (int kt = 0; kt < k_tiles; ++kt) {
            ring.consumer_wait(use);
            Mma::k_tile(acc, Smem::a(use.stage), Smem::b(use.stage), 64 * (tid / 128), kt > 0);
            wgmma_wait_group<0>();
            if ((tid & 31) == 0) ring.consumer_release(use.stage);
            use.advance();
            if (tid == 0 && kt + STAGES < k_tiles) Smem::load(load, tma_a, tma_b, m0, n0, (kt + STAGES) * BK);
            __syncwarp();
        }
    }
};

}  // namespace sm90
}  // namespace wg
