// int4/02_mma_m8n8k32.cu -- packed int4 x packed int4 -> int32 on mma.sync m8n8k32, the first
// 4-bit mma form (sm_75): one instruction multiplies an 8 x 32 block of A by a 32 x 8 block of B.
//
// Adds over rung 01: fragments with a documented layout, read by ldmatrix from a swizzled tile.
// A 16-byte row segment of a K-major 4-bit tile is 32 values of k, so ldmatrix hands lane
// (g, t) row g, k 8t..8t+7: exactly a[0] of m8n8k32, and on W's rows its b[0]. The tile no
// longer needs padding (wmma.load takes a base and a stride; ldmatrix takes any 8 row
// addresses), and the Sw<3,4,3> swizzle keeps both the copies and the reads free of bank
// conflicts.
//
// Requires sm_75 (sm_80 and later: cp.async feeds the tiles; sm_90 and later: the mma is
// emulated by ptxas). Operands: as int4/04 (A (M, K) and W = B^T (N, K) packed along K,
// 16-byte aligned rows, both s4 or both u4).
//
// The block, its pipeline and its epilogue are the 4-bit rungs' shared ones
// (sm80/packed4_gemm.cuh); this file is the instructions of a k64 step. Per k64 step a warp reads MT blocks of A and NT/2 of W with
// ldmatrix.x4 (sm80/packed4_warp.cuh) and issues two k32 halves h = 0, 1 of m8 x n8 products:
//   A block i:   r[2h] = a[0] of rows 16i..16i+7,  r[2h + 1] = a[0] of rows 16i+8..16i+15
//   W block jj:  r[2h] = b[0] of n8 tile 2jj,      r[2h + 1] = b[0] of n8 tile 2jj + 1
// and the m8 tile of rows 16i + 8e keeps its sums in d[2e..2e+1] of m16n8 tile (i, j), the
// accumulator layout of rungs 03-04 (one epilogue for all three).
//
// Launch: grid (ceil(N / BN), ceil(M / BM)), packed4_threads(BM, BN, WM, WN) threads,
// max(STAGES * (BM + BN) * BK / 2, 2 KB per warp) bytes of dynamic shared memory.
#include "arch/sm75.cuh"
#include "sm80/packed4_gemm.cuh"

namespace wg {

// One k64 step: two k32 halves h of m8n8k32 products; the m8 tile of rows 16i + 8e sums into
// d[2e..2e+1].
template <typename Mma>
struct M8n8k32Step {
    template <int MT, int NT>
    __device__ __forceinline__ void operator()(int32_t (&acc)[MT][NT][4], const uint32_t (&a)[MT][4],
                                               const uint32_t (&b)[NT / 2][4]) const {
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int e = 0; e < 2; ++e)
#pragma unroll
                    for (int j = 0; j < NT; ++j) {
                        const uint32_t ai[1] = {a[i][2 * h + e]};
                        const uint32_t bj[1] = {b[j / 2][2 * h + j % 2]};
                        int32_t d[2] = {acc[i][j][2 * e], acc[i][j][2 * e + 1]};
                        Mma::fma(d, ai, bj);
                        acc[i][j][2 * e] = d[0];
                        acc[i][j][2 * e + 1] = d[1];
                    }
    }
};

}  // namespace wg

template <bool A_ROW, bool B_ROW, typename T4, typename TC, int BM, int BN, int BK, int WM, int WN, int STAGES>
__global__ void __launch_bounds__(wg::sm80::packed4_threads(BM, BN, WM, WN))
int4_mma_m8n8k32(const T4* A, const T4* B, TC* C, int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace wg;
    using Mma = typename pick<same_type<T4, s4x2_t>::value, SM80_8x8x32_S32S4S4S32_TN,
                              SM80_8x8x32_S32U4U4S32_TN>::type;
    sm80::packed4_mma_gemm<A_ROW, B_ROW, T4, TC, BM, BN, BK, WM, WN, STAGES>(A, B, C, M, N, K, lda, ldb, ldc,
                                                                            M8n8k32Step<Mma>{});
}
