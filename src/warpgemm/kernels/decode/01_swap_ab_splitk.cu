// decode/01_swap_ab_splitk.cu -- the small-M (decode) kernel: C = A @ W^T for M <= 64 tokens,
// streaming the weight W once at HBM bandwidth.
//
// At decode sizes a GEMM is a pass over W, so the kernel is shaped for the read, not the math:
//   * swap AB: 16 rows of W on the mma's M side, 8 tokens on its N side, so that a block's rows
//     of W, not its tokens, fill the tile, and ceil(N / ROWS) blocks cover every SM;
//   * fragments straight from global memory: each lane reads 16 contiguous bytes of k of two W
//     rows and one token and hands them to two m16n8k16 mma as if they were the lane's k (the sum
//     over k does not care in which order they come), with no shared memory and no ldmatrix;
//   * K split over a block's warps, and over KSPLIT blocks where N is small, added up in a fixed
//     order (no atomics in the sums): the same bits on every run;
//   * the bias added in fp32, one rounding to C's type;
//   * with STAGGER > 1, each block's walk over k starts at one of STAGGER bands, so that the grid
//     does not read the same columns of W all at once;
//   * on sm_90, a programmatic dependent launch (waits for the grid before it, then lets the next
//     one launch).
// sm80/swap_ab_splitk.cuh holds the body and explains each step; igemm/08 instantiates the same
// body for int8.
//
// Requires sm_80+ (mma.sync m16n8k16), A row-major (M, K) and B = W^T with W (N, K) row-major,
// both 16-byte aligned with leading dimensions a multiple of 8 elements (the host copies other
// inputs first), and M <= 8 * TOKEN_TILES. Correct for any N and K.
#include "sm80/swap_ab_splitk.cuh"

// C (M, N) = A (M, K) @ B (K, N) (+ bias), B = W^T. Launch with (ceil(N / (16 * ROW_GROUPS)),
// KSPLIT) blocks of 32 * WARPS threads and 4 * 32 * WARPS * ROW_GROUPS * TOKEN_TILES * 4 bytes of
// dynamic shared memory (the partial sums). `bias` (N values of T) may be null. With KSPLIT > 1,
// `workspace` holds KSPLIT * gridDim.x * 128 * ROW_GROUPS * TOKEN_TILES floats and `counters`
// gridDim.x ints, zero before the launch and zero again after it.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int TOKEN_TILES, int ROW_GROUPS, int WARPS,
          int UNROLL, int KSPLIT, int L2_256B, int STAGGER>
__global__ void __launch_bounds__(32 * WARPS)
decode_swap_ab_splitk(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                      int K, int lda, int ldb, int ldc, const T* __restrict__ bias, float* workspace,
                      int* counters) {
    using namespace wg;
    static_assert(LinearDecodeOperands<A_ROW, B_ROW, T, TC>::ok, "the operands (common/util.cuh)");
    const sm80::BiasStore<TC, T> epilogue{C, ldc, bias};
    sm80::swap_ab_splitk<T, TOKEN_TILES, ROW_GROUPS, WARPS, UNROLL, KSPLIT, L2_256B, sm80::BiasStore<TC, T>, STAGGER>(
        A, B, M, N, K, lda, ldb, epilogue, workspace, counters);
}
