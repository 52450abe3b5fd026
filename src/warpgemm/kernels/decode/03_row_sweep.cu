// decode/03_row_sweep.cu -- the small-M kernel for a few tokens that reads W the way the fastest
// pure read does: the grid sweeps W from its first row to its last.
//
// Rung 01 gives each block 16 rows of W and walks them over k, so that at any moment the grid reads
// a few columns of every row. A kernel that only reads W (scripts/read_floor.py) reads it fastest
// when at every step the whole grid reads one contiguous stretch of it: at 1 x 4096 x 4096 bf16
// on an H100, 12.3 us against 13.4 us for rung 01's walk alone (docs/decode.md, "The read
// floor"). This rung is that sweep with the arithmetic added:
//   * the grid is as many blocks as fit on the GPU at once, G (a persistent grid). Block b owns
//     rows b, b + G, b + 2G, ... of W, so that in step j the grid reads rows jG .. jG + G - 1, a
//     contiguous stretch of W, with UNROLL steps in flight;
//   * a row is read by the whole block: thread t takes its 16-byte vectors t, t + THREADS, ... (at
//     K = 4096 bf16, 512 vectors: one a thread of a 512-thread block), through the L1-bypassing
//     read-only load, with the 256-byte L2 fetch when L2_256B;
//   * no tensor cores: each thread multiplies its 8 elements of the row by the same 8 of each of
//     at most TOKENS tokens in fp32 FMA (at most 64 FMA per 16 bytes of W, within the FMA pipe's
//     rate at HBM speed for TOKENS <= 8);
//   * each row's sum is added up over the block in a fixed order, ROWS rows at a time: shuffles
//     within a warp, then the warps in order through shared memory. The same bits on every run;
//   * the bias is added in fp32 before the one rounding to C's type;
//   * on sm_90, a programmatic dependent launch, as rung 01 (wait for the grid before, then let
//     the next one launch).
//
// Requires sm_80+, A row-major (M, K) and B = W^T with W (N, K) row-major, both 16-byte aligned
// with leading dimensions a multiple of 8 elements (the host copies other inputs first), and
// M <= TOKENS. Correct for any N and K: a row's last, partial vector is read element by element.
#include "sm80/row_sweep.cuh"

// C (M, N) = A (M, K) @ B (K, N) (+ bias), B = W^T. Registers are held so that BLOCKS blocks fit on
// a SM (4 x 512 threads: 32 a thread). Launch with at most as many blocks of THREADS threads as fit
// at once (a grid of G blocks covers any N: block b takes rows b + G j), no dynamic shared memory.
// `bias` (N values of T) may be null. sm80/row_sweep.cuh holds the body.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int TOKENS, int THREADS, int ROWS, int UNROLL,
          int L2_256B, int BLOCKS>
__global__ void __launch_bounds__(THREADS, BLOCKS)
decode_row_sweep(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
                 int lda, int ldb, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    static_assert(LinearDecodeOperands<A_ROW, B_ROW, T, TC>::ok, "the operands (common/util.cuh)");
    static_assert(TOKENS == 1 || TOKENS == 2 || TOKENS == 4 || TOKENS == 8, "TOKENS: 1, 2, 4 or 8 tokens a launch");
    static_assert(THREADS % 32 == 0 && THREADS >= 64 && THREADS <= 1024, "THREADS: whole warps, 64 to 1024");
    static_assert(UNROLL >= 1 && ROWS % UNROLL == 0, "ROWS must be a multiple of UNROLL, the rows read at once");
    static_assert(ROWS * TOKENS <= 64, "ROWS * TOKENS <= 64: a thread's sums stay in registers");
    static_assert(BLOCKS >= 1 && BLOCKS * THREADS <= 2048, "BLOCKS * THREADS <= 2048 threads a SM");
    row_sweep::sweep<T, TC, TOKENS, THREADS, ROWS, UNROLL, L2_256B>(A, B, C, M, N, K, lda, ldb, ldc, bias);
}
