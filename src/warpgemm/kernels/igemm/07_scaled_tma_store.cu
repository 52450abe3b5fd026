// igemm/07_scaled_tma_store.cu -- W8A8 with the scaled epilogue stored through shared memory and
// TMA, overlapped with the next tile's main loop.
//
// Rung 03 scales the s32 sums and stores them straight from registers: each thread writes 4-byte
// pairs over 16 rows, while the tensor cores wait for the next tile. Here the scaled values go
// the way hopper/06 stores fp16/bf16: rounded once to C's type, written to a 64 x 128-byte slab
// in shared memory (stmatrix for 16-bit C), handed to the TMA, and the warpgroup goes on to the
// next tile's wgmma while the TMA writes C (sm90/epilogue_tma_store.cuh, ScaledTmaStoreEpilogue).
// The column scales and bias are staged in shared memory when the tile starts, as in rung 03.
//
// Shared memory: the ring (rounded up to 1024 bytes), BUFFERS staging slabs of 8 KB per
// consumer, then each consumer's BN column scales and BN bias values. Four stages of
// 128 x 256 x 128 int8 (192 KB) leave room for one staging buffer a consumer; three stages for two.
//
// Requires sm_90a; A row-major, B column-major; scales and bias fp32. Where C cannot take a TMA
// store (`c_tma` = 0), the warpgroups copy the staged slabs to C themselves
// (sm90/epilogue_tma_store.cuh, copy_slab).
#include "arch/sm90.cuh"
#include "sm90/epilogue_tma_store.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as igemm/03_scaled_epilogue, with C's tensor map (boxes of 64 rows x 128 bytes, the
// 128-byte swizzle) first after B's and the flag `c_tma` after the bias, and
// round_up(STAGES * ((BM + BN) * BK + 16), 1024) + (BM / 64) * (BUFFERS * 8192 + 2 * BN * 4) bytes
// of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int IN_FLIGHT, int BUFFERS>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_scaled_tma_store(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                       const __grid_constant__ wg::TmaDescriptor tma_c, TC* __restrict__ C, int M, int N, int K,
                       int ldc, const float* __restrict__ scale_a, int scale_a_step, const float* __restrict__ scale_b,
                       int scale_b_step, const float* __restrict__ bias, int c_tma, float* __restrict__ workspace,
                       int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value, "int8 in");
    static_assert(!same_type<TC, int32_t>::value, "the scaled product is stored as fp16, bf16 or fp32");
    static_assert(A_ROW && !B_ROW, "8-bit wgmma reads K-major operands: A row-major and B column-major");
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, 1, IN_FLIGHT>;
    using Epilogue = sm90::ScaledTmaStoreEpilogue<TC, BN, BUFFERS>;
    constexpr int STAGING_OFFSET = (Mainloop::SMEM_BYTES + 1023) / 1024 * 1024;
    constexpr int COLUMNS_OFFSET = STAGING_OFFSET + Mainloop::CONSUMERS * Epilogue::BYTES_PER_CONSUMER;
    static_assert(COLUMNS_OFFSET + Mainloop::CONSUMERS * 2 * BN * 4 <= 227 * 1024,
                  "the stages, the staging slabs and the column values do not fit in 227 KB: lower STAGES, "
                  "BUFFERS or BN");

    if (threadIdx.x == 0) {
        Mainloop::init(&tma_a, &tma_b);
        if (c_tma) prefetch_tensormap(&tma_c);
    }
    __syncthreads();

    const uint32_t smem = smem_u32(dynamic_smem());
    Epilogue epilogue{{C, ldc, M, N, {scale_a, scale_a_step, scale_b, scale_b_step, bias}, smem + COLUMNS_OFFSET},
                      &tma_c,
                      smem + STAGING_OFFSET,
                      c_tma != 0};
    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K, epilogue, workspace, counters, splits);
}
