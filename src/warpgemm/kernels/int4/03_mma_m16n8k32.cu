// int4/03_mma_m16n8k32.cu -- packed int4 x packed int4 -> int32 on mma.sync m16n8k32: one
// instruction multiplies a 16 x 32 block of A by a 32 x 8 block of B.
//
// Adds over rung 02: the m16 tile. Two rows of 8 x 32 A fragments, a[0] = (g, 8t..) and
// a[1] = (g + 8, 8t..), go into one instruction, which reuses each B register for 16 rows of C:
// half the B operand traffic into the tensor core of rung 02, the same ldmatrix reads.
//
// Requires sm_80 (sm_90 and later: emulated by ptxas). Operands: as int4/04 (A (M, K) and
// W = B^T (N, K) packed along K, 16-byte aligned rows, both s4 or both u4).
//
// The block, its pipeline and its epilogue are the 4-bit rungs' shared ones
// (sm80/packed4_gemm.cuh); this file is the instructions of a k64 step. Per k64 step a warp reads MT blocks of A and NT/2 of W with
// ldmatrix.x4 (sm80/packed4_warp.cuh) and issues two k32 halves h = 0, 1:
//   A block i:   {r[2h], r[2h + 1]} = a[0..1] of m16 tile i
//   W block jj:  r[2h] = b[0] of n8 tile 2jj,  r[2h + 1] = b[0] of n8 tile 2jj + 1
//
// Launch: grid (ceil(N / BN), ceil(M / BM)), packed4_threads(BM, BN, WM, WN) threads,
// max(STAGES * (BM + BN) * BK / 2, 2 KB per warp) bytes of dynamic shared memory.
#include "arch/sm80.cuh"
#include "sm80/packed4_gemm.cuh"

namespace wg {

// One k64 step: two k32 halves h of m16n8k32 products.
template <typename Mma>
struct M16n8k32Step {
    template <int MT, int NT>
    __device__ __forceinline__ void operator()(int32_t (&acc)[MT][NT][4], const uint32_t (&a)[MT][4],
                                               const uint32_t (&b)[NT / 2][4]) const {
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int i = 0; i < MT; ++i)
#pragma unroll
                for (int j = 0; j < NT; ++j) {
                    const uint32_t ai[2] = {a[i][2 * h], a[i][2 * h + 1]};
                    const uint32_t bj[1] = {b[j / 2][2 * h + j % 2]};
                    Mma::fma(acc[i][j], ai, bj);
                }
    }
};

}  // namespace wg

template <bool A_ROW, bool B_ROW, typename T4, typename TC, int BM, int BN, int BK, int WM, int WN, int STAGES>
__global__ void __launch_bounds__(wg::sm80::packed4_threads(BM, BN, WM, WN))
int4_mma_m16n8k32(const T4* A, const T4* B, TC* C, int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace wg;
    using Mma = typename pick<same_type<T4, s4x2_t>::value, SM80_16x8x32_S32S4S4S32_TN,
                              SM80_16x8x32_S32U4U4S32_TN>::type;
    sm80::packed4_mma_gemm<A_ROW, B_ROW, T4, TC, BM, BN, BK, WM, WN, STAGES>(A, B, C, M, N, K, lda, ldb, ldc,
                                                                            M16n8k32Step<Mma>{});
}
