// igemm/05_swap_ab_row_major_b.cu -- int8 with a row-major B: rung 04's copy, reached by swapping
// the operands.
//
// A row-major B (K x N, n contiguous) is MN-major: 8-bit wgmma cannot read it as B, and B is
// shared by both consumer warpgroups, so copying it would take both of them and twice the
// target space. But C^T = B^T A^T: as wgmma's A operand, B^T (N x K) is MN-major, which rung
// 04's consumers copy K-major, 64 rows each; and A^T as wgmma's B operand is K-major, since A
// is row-major. So this kernel is rung 04 on the swapped problem: tiles of C^T, BM rows of N by
// BN of M, written back transposed into C's columns (sm90/epilogue_direct.cuh,
// store_direct_transposed: 8 lanes write 32 contiguous bytes of a row of C).
//
// Requires sm_90a; A row-major ((M,K):(lda,1)), B row-major ((K,N):(ldb,1)); 16-byte aligned bases
// and leading dimensions a multiple of 16 elements. Any M, N, K; exact while sums fit int32.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_transposing.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as igemm/04_transposing_copy with M and N exchanged: tiles of C^T, units counted over
// ceil(N / BM) * ceil(M / BN) tiles. tma_bt maps B^T (N x K, MN-major) in (128, BK) boxes,
// tma_at maps A^T (K x M, K-major) in (128, BN) boxes.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_swap_ab_row_major_b(const __grid_constant__ wg::TmaDescriptor tma_bt,
                          const __grid_constant__ wg::TmaDescriptor tma_at, TC* __restrict__ C, int M, int N, int K,
                          int ldc, float* __restrict__ workspace, int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value && same_type<TC, int32_t>::value, "int8 in, int32 out");
    static_assert(A_ROW && B_ROW, "this rung swaps a row-major A and a row-major B");
    using Mainloop = sm90::TransposingMainloop<T, BM, BN, BK, STAGES>;
    if (threadIdx.x == 0) Mainloop::init(&tma_bt, &tma_at);
    __syncthreads();

    // Tiles of C^T: N rows by M columns.
    sm90::persistent_split_k<Mainloop, GROUP>(&tma_bt, &tma_at, N, M, K,
                                              sm90::TransposedDirectEpilogue<TC, T>{C, ldc, N, M, nullptr},
                                              workspace, counters, splits);
}
