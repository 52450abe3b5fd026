// igemm/03_scaled_epilogue.cu -- W8A8: rung 02's s8 wgmma pipeline with a scaling epilogue.
//
// Quantised inference stores weights as int8 with one scale per output channel (column of
// B = W^T) and quantises each token's activations (row of A) with its own scale. The product it
// wants is (A @ B) * scale_a[:, None] * scale_b[None, :] + bias, in bf16 or fp16. Here the s32
// sums of rung 02 never leave the registers as integers: the epilogue converts each to fp32,
// multiplies by its row's and column's scales, adds the bias and rounds once to TC
// (sm90/epilogue_direct.cuh, ScaledDirectEpilogue: the tile's column scales and bias are
// copied into shared memory when it starts, behind the main loop). A tile split over K adds its s32 parts
// exactly first (sm90/split_k_reduction.cuh), so the scaling sees the whole sum.
//
// Requires sm_90a; A row-major, B column-major (8-bit wgmma reads K-major operands); scales and
// bias fp32 (the host converts them).
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as igemm/02_wgmma_s8, with 2 * (BM / 64) * BN * 4 more bytes of dynamic shared memory
// (each consumer's column scales and bias). scale_a holds M values (scale_a_step 1) or one (step 0), scale_b
// N values or one; bias N values or null.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int IN_FLIGHT>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_scaled_epilogue(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                      TC* __restrict__ C, int M, int N, int K, int ldc, const float* __restrict__ scale_a,
                      int scale_a_step, const float* __restrict__ scale_b, int scale_b_step,
                      const float* __restrict__ bias, float* __restrict__ workspace, int* __restrict__ counters,
                      int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value, "int8 in");
    static_assert(A_ROW && !B_ROW, "8-bit wgmma reads K-major operands: A row-major and B column-major");
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, 1, IN_FLIGHT>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    // The tile's column scales and bias go to shared memory past the main loop's (16-byte aligned).
    const uint32_t columns = smem_u32(dynamic_smem()) + Mainloop::SMEM_BYTES;
    const sm90::ScaledDirectEpilogue<TC, BN> epilogue{
        C, ldc, M, N, {scale_a, scale_a_step, scale_b, scale_b_step, bias}, columns};
    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K, epilogue, workspace, counters, splits);
}
