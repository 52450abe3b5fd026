// igemm/09_transposing_both.cu -- int8 with A column-major and B row-major: both operands copied
// K-major in shared memory by the kernel.
//
// 8-bit wgmma reads K-major operands only. Rung 04 copies a column-major A K-major in the kernel,
// and rung 05 reaches a row-major B by swapping the operands; with A column-major and B row-major
// no swap helps (C^T = B^T A^T has both operands MN-major again). So here the consumers copy
// both (sm90/mainloop_transposing.cuh with COPY_B): each its own 64 rows of A, as in rung 04, and
// half of B's rows into one B target tile both read, meeting in a 256-thread barrier before and
// after the copies. TMA lands both tiles MN-major; the persistent schedule, the last wave's K
// split and the direct s32 store are rung 04's.
//
// The price is shared memory: per k-tile of a 128 x BN tile, TMA writes both tiles, the copies
// read and write them again, and wgmma reads A once and B twice. Before this rung the library
// copied both operands in global memory first (two torch transposes, then rung 02): on an H100
// that ran at 409 TOPS at 4096^3 and 673 TOPS at 8192^3.
//
// Requires sm_90a; A column-major ((M,K):(1,lda)), B row-major ((K,N):(ldb,1)); 16-byte aligned
// bases and leading dimensions a multiple of 16 elements. Any M, N, K; exact while sums fit
// int32.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_transposing.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as igemm/04_transposing_copy (BM = 128: 384 threads) with
// STAGES * (BM + BN) * BK + 1024 + 4 * 64 * BK + 2 * BN * BK bytes of dynamic shared memory: the
// ring, its barriers, two A target tiles per consumer and two B target tiles. tma_a maps A
// MN-major in (128, BK) boxes, tma_b maps B MN-major in (128, BK) boxes.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_transposing_both(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                       TC* __restrict__ C, int M, int N, int K, int ldc, float* __restrict__ workspace,
                       int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value && same_type<TC, int32_t>::value, "int8 in, int32 out");
    static_assert(!A_ROW && B_ROW, "this rung copies a column-major A and a row-major B");
    using Mainloop = sm90::TransposingMainloop<T, BM, BN, BK, STAGES, true>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K,
                                              sm90::DirectEpilogue<TC, T>{C, ldc, M, N, nullptr}, workspace,
                                              counters, splits);
}
