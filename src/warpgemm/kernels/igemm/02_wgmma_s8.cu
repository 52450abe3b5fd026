// igemm/02_wgmma_s8.cu -- int8 x int8 -> int32 on Hopper: the hopper ladder's persistent,
// warp-specialised pipeline (hopper/04_persistent) instantiated for the s8 wgmma atom.
//
// Nothing here is new code: the pipeline's headers take the element type and the MMA atom as
// template parameters. With T = int8_t,
//   * the operand tiles are 128-byte rows of 128 k (SwizzledOperand<int8_t, ...>), TMA boxes of
//     (128, rows) bytes under the 128-byte swizzle, the same Swizzle<3,4,3> on byte addresses;
//   * Gmma<int8_t, BN> is wgmma.mma_async.m64nBNk32.s32.s8.s8: k32 steps, s32 accumulators, in
//     the same fragment places as the fp32 ones (thread (warp w, lane 4g + t) holds
//     C(16w + g + 8h, 8j + 2t + e));
//   * the epilogue stores the s32 sums as they are (sm90/epilogue_direct.cuh, to_output), and a
//     K split of the last wave adds its parts as integers, in split order
//     (sm90/split_k_reduction.cuh): the result is exact.
// Exact while no partial sum leaves int32: |a|, |b| <= 128 gives |sum| <= 16384 K, so any
// K <= 131071 is safe for full-range operands.
//
// 8-bit wgmma reads both operands K-major from shared memory (there is no transpose bit for
// 8-bit types): A row-major and B column-major (the Linear layout, B = W^T). Requires sm_90a,
// 16-byte aligned bases and leading dimensions a multiple of 16 elements.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as hopper/04_persistent: min(units, SMs) blocks of 128 * (1 + BM / 64) threads and
// STAGES * (BM + BN) * BK + 16 * STAGES bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int IN_FLIGHT>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_wgmma_s8(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
               TC* __restrict__ C, int M, int N, int K, int ldc, float* __restrict__ workspace,
               int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value && same_type<TC, int32_t>::value, "int8 in, int32 out");
    static_assert(A_ROW && !B_ROW, "8-bit wgmma reads K-major operands: A row-major and B column-major");
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, 1, IN_FLIGHT>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K,
                                              sm90::DirectEpilogue<TC, T>{C, ldc, M, N, nullptr}, workspace,
                                              counters, splits);
}
