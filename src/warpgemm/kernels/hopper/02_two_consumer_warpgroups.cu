// hopper/02_two_consumer_warpgroups.cu -- rung 01's loop with a 128-row tile: two warpgroups, each
// computing 64 x BN of it with m64nBNk16 (BN = 128 or 256).
//
// A 64 x 128 tile reads 64 + 128 rows of operands for 64 x 128 outputs; a 128 x 256 tile reads
// 384 rows for 4x the outputs: 2.7x the math per byte of shared memory and of L2 traffic. The
// accumulators of a 64 x 256 wgmma tile are 128 fp32 registers per thread; two warpgroups split
// the 128 x 256 tile along M so that neither needs more (one warpgroup holding 256 would spill,
// and ptxas would serialise the wgmma).
//
// The loop is rung 01's (sm90/mainloop_tma_wgmma.cuh): thread 0 of warpgroup 0 still issues the
// loads between its own wgmma.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_tma_wgmma.cuh"

// Launch with (ceil(N / BN), ceil(M / BM)) blocks of 256 threads and
// STAGES * (BM + BN) * BK * sizeof(T) + 16 * STAGES bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES>
__global__ void __launch_bounds__(256)
hopper_two_consumer_warpgroups(const __grid_constant__ wg::TmaDescriptor tma_a,
                               const __grid_constant__ wg::TmaDescriptor tma_b, TC* __restrict__ C, int M, int N,
                               int K, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    static_assert(BM == 128, "rung 02 is two warpgroups of 64 rows: BM = 128");
    static_assert(BN == 128 || BN == 256, "rung 02 takes BN = 128 or 256 (128 fp32 accumulators per thread at most)");
    using Mainloop = sm90::SingleRoleMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW>;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    float acc[BN / 2];
    Mainloop::run(acc, &tma_a, &tma_b, m0, n0, K);
    sm90::store_direct(C, ldc, M, N, m0 + 64 * (threadIdx.x / 128), n0, acc, bias);
}
