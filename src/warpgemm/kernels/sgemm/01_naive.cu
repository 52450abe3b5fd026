// sgemm/01_naive.cu -- rung 01: one thread per element of C, straight from global memory.
//
// The starting point of the ladder. A block of BM * BN threads covers a BM x BN tile of C; thread
// (r, c) = (tid / BN, tid % BN) of the block computes C[m][n] = sum_k A[m][k] * B[k][n] with a
// loop over k that reads A and B from global memory (through the caches) for every product.
// Consecutive threads take consecutive columns n, so a warp's reads of a row-major B and its
// writes of C are coalesced; its reads of A hit a few addresses and are broadcast.
//
// Every product reads two floats for one FFMA: the kernel is bound by memory traffic, which is
// what rung 02 attacks. It requires nothing: any alignment, any layout, any M, N, K >= 1 (a
// thread whose element lies outside C does nothing; there is no barrier to skip).
#include "common/types.cuh"

template <bool A_ROW, bool B_ROW, int BM, int BN>
__global__ void __launch_bounds__(BM * BN)
sgemm_naive(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
            int M, int N, int K, int lda, int ldb, int ldc) {
    static_assert(BM > 0 && BN > 0 && BM * BN <= 1024,
                  "a block has BM * BN threads, which must be between 1 and 1024");
    static_assert((BM * BN) % 32 == 0, "BM * BN must be a multiple of 32 threads (whole warps)");

    const int m = blockIdx.y * BM + static_cast<int>(threadIdx.x) / BN;
    const int n = blockIdx.x * BN + static_cast<int>(threadIdx.x) % BN;
    if (m < M && n < N) {
        // Row m of A: (M,K):(lda,1) or (M,K):(1,lda); column n of B: (K,N):(ldb,1) or (1,ldb).
        const float* a = A + (A_ROW ? static_cast<wg::int64_t>(m) * lda : m);
        const float* b = B + (B_ROW ? n : static_cast<wg::int64_t>(n) * ldb);
        const wg::int64_t a_step = A_ROW ? 1 : lda;  // from A[m][k] to A[m][k+1]
        const wg::int64_t b_step = B_ROW ? ldb : 1;  // from B[k][n] to B[k+1][n]
        float acc = 0.f;
        for (int k = 0; k < K; ++k) {
            acc = __fmaf_rn(*a, *b, acc);
            a += a_step;
            b += b_step;
        }
        C[static_cast<wg::int64_t>(m) * ldc + n] = acc;
    }
}
