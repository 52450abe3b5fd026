// sgemm/02_smem_sliced_k.cu -- rung 02: stage slices of A and B in shared memory.
//
// What this rung adds over rung 01 (each product read from global memory):
//   * The K dimension is cut into slices of BK. For each slice the block's BM * BN threads first
//     copy the BM x BK slice of A and the BK x BN slice of B into shared memory, one element per
//     thread per pass, then every thread runs BK products out of shared memory. Each element
//     fetched from global memory is now used BN times (A) or BM times (B) by the block.
//   * Copies walk the direction the operand is contiguous in (k for row-major A, m for column-
//     major A, n for row-major B, k for column-major B), so each warp reads whole segments.
//   * Each row of the shared tiles is padded by one float: As is (BM,BK):(BK+1,1) and Bs is
//     (BK,BN):(BN+1,1). When a copy writes down a column (column-major A or B), consecutive
//     threads then land in consecutive banks instead of all in one.
// Out-of-range elements (ragged M, N tiles and the K tail) are stored as zeros and the final
// store is masked; every thread reaches every barrier. It requires no alignment.
//
// Per product a thread still reads two floats, now from shared memory: rung 03 makes each
// thread compute several outputs so that a value read once feeds several FFMAs.
#include "common/types.cuh"

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK>
__global__ void __launch_bounds__(BM * BN)
sgemm_smem_sliced_k(const float* __restrict__ A, const float* __restrict__ B,
                    float* __restrict__ C, int M, int N, int K, int lda, int ldb, int ldc) {
    constexpr int THREADS = BM * BN;
    static_assert(BM > 0 && BN > 0 && BK > 0, "tile sizes must be positive");
    static_assert(THREADS <= 1024, "a block has BM * BN threads, at most 1024");
    static_assert(THREADS % 32 == 0, "BM * BN must be a multiple of 32 threads (whole warps)");
    static_assert((BM * (BK + 1) + BK * (BN + 1)) * 4 <= 48 * 1024,
                  "the two shared slices must fit in 48 KB of static shared memory");

    __shared__ float As[BM][BK + 1];  // (BM,BK):(BK+1,1)
    __shared__ float Bs[BK][BN + 1];  // (BK,BN):(BN+1,1)

    const int tid = threadIdx.x;
    const int ty = tid / BN, tx = tid % BN;  // this thread's element of the C tile
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
        // A slice, (BM,BK) at (m0, k0); consecutive threads take consecutive contiguous elements.
        for (int i = tid; i < BM * BK; i += THREADS) {
            const int m = A_ROW ? i / BK : i % BM;
            const int k = A_ROW ? i % BK : i / BM;
            const int gm = m0 + m, gk = k0 + k;
            const wg::int64_t at = A_ROW ? static_cast<wg::int64_t>(gm) * lda + gk
                                         : static_cast<wg::int64_t>(gk) * lda + gm;
            As[m][k] = (gm < M && gk < K) ? A[at] : 0.f;
        }
        // B slice, (BK,BN) at (k0, n0).
        for (int i = tid; i < BK * BN; i += THREADS) {
            const int n = B_ROW ? i % BN : i / BK;
            const int k = B_ROW ? i / BN : i % BK;
            const int gn = n0 + n, gk = k0 + k;
            const wg::int64_t at = B_ROW ? static_cast<wg::int64_t>(gk) * ldb + gn
                                         : static_cast<wg::int64_t>(gn) * ldb + gk;
            Bs[k][n] = (gn < N && gk < K) ? B[at] : 0.f;
        }
        __syncthreads();

        // A warp shares one or two rows ty (broadcast reads of As) and reads consecutive
        // columns of Bs (one per bank).
#pragma unroll
        for (int k = 0; k < BK; ++k) acc = __fmaf_rn(As[ty][k], Bs[k][tx], acc);
        __syncthreads();  // the slice is consumed before the next one overwrites it
    }

    const int m = m0 + ty, n = n0 + tx;
    if (m < M && n < N) C[static_cast<wg::int64_t>(m) * ldc + n] = acc;
}
