// int4/04_mma_m16n8k64.cu -- packed int4 x packed int4 -> int32 on mma.sync m16n8k64, the largest
// 4-bit form: one instruction multiplies a 16 x 64 block of A by a 64 x 8 block of B.
//
// Adds over rung 03: the whole 16 x 64 ldmatrix block of A is one fragment (a[0..3]) and a pair
// of its B registers (k 0..31 and 32..63 of one n8 tile) is one B fragment, so a k64 step is
// MT x NT instructions instead of 2 MT x NT: half the instructions for the same work (on sm_80,
// the full rate of the 4-bit tensor cores). kernel="auto" runs this rung for int4 from sm_80.
//
// Requires sm_80 (sm_90 and later: every 4-bit mma is emulated by ptxas: correct, slow).
// Operands: A (M, K) row-major and W = B^T (N, K), both packed along K (warpgemm.int4), 16-byte
// aligned with rows a multiple of 16 bytes apart (the host copies other operands). Signed (s4x2_t)
// or unsigned (u4x2_t) operands: both the same.
//
// The block, its pipeline and its epilogue are the 4-bit rungs' shared ones
// (sm80/packed4_gemm.cuh): (BM/WM) x (BN/WN) warps, each a WM x WN tile of C in m16n8 tiles,
// Sw<3,4,3> K-major tiles, s32 sums to C through shared memory. Per k64 step a warp reads MT
// blocks of A and NT/2 of W with ldmatrix.x4, and this file issues:
//   A block i:   r = m16n8k64's a[0..3] for m16 tile i
//   W block jj:  {r[0], r[2]} = b[0..1] of n8 tile 2jj,  {r[1], r[3]} = b[0..1] of n8 tile 2jj + 1
//
// Launch: grid (ceil(N / BN), ceil(M / BM)), packed4_threads(BM, BN, WM, WN) threads,
// max(STAGES * (BM + BN) * BK / 2, 2 KB per warp) bytes of dynamic shared memory.
#include "arch/sm80.cuh"
#include "sm80/packed4_gemm.cuh"

namespace wg {

// One k64 step: one m16n8k64 product per m16 x n8 tile.
template <typename Mma>
struct M16n8k64Step {
    template <int MT, int NT>
    __device__ __forceinline__ void operator()(int32_t (&acc)[MT][NT][4], const uint32_t (&a)[MT][4],
                                               const uint32_t (&b)[NT / 2][4]) const {
#pragma unroll
        for (int i = 0; i < MT; ++i)
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                const uint32_t bj[2] = {b[j / 2][j % 2], b[j / 2][2 + j % 2]};
                Mma::fma(acc[i][j], a[i], bj);
            }
    }
};

}  // namespace wg

template <bool A_ROW, bool B_ROW, typename T4, typename TC, int BM, int BN, int BK, int WM, int WN, int STAGES>
__global__ void __launch_bounds__(wg::sm80::packed4_threads(BM, BN, WM, WN))
int4_mma_m16n8k64(const T4* A, const T4* B, TC* C, int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace wg;
    using Mma = typename pick<same_type<T4, s4x2_t>::value, SM80_16x8x64_S32S4S4S32_TN,
                              SM80_16x8x64_S32U4U4S32_TN>::type;
    sm80::packed4_mma_gemm<A_ROW, B_ROW, T4, TC, BM, BN, BK, WM, WN, STAGES>(A, B, C, M, N, K, lda, ldb, ldc,
                                                                            M16n8k64Step<Mma>{});
}
