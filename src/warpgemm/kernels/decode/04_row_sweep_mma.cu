// decode/04_row_sweep_mma.cu -- rung 03's sweep over W for 2 to 16 tokens: the rows staged in
// shared memory and multiplied on the tensor cores.
//
// Rung 03 reads W in the order the fastest pure read does (the grid reads a contiguous stretch of
// rows at every step, each row read by a whole block, 512 contiguous bytes a warp), and at one
// token it reads 4096 x 4096 bf16 in 12.9 us on an H100, 0.6 us from the read floor. But it
// multiplies in fp32 FMA, and each 16-byte vector of W costs 8 FMA a token plus a reduction over
// the block a token: at 2 to 8 tokens it is bound by instructions (14.4 / 18.1 / 26.4 us at 2 / 4
// / 8 tokens, against 13.7 us for rung 01's walk; docs/decode.md, "Rung 04"). This rung keeps the
// order and moves the arithmetic to mma.sync:
//   * the grid is as many blocks as fit at once (G); block b owns rows b + G j, 8 a pass (the
//     mma's N side: m16n8k16 with the tokens on its M side, 16 of them, rows 8-15 zero up to 8
//     tokens);
//   * warp w of the block owns 256 elements of every row in k-step s: lane l copies the row's
//     16-byte chunk s THREADS + 32 w + l with cp.async, so a warp still reads 512 contiguous
//     bytes a row and the block whole rows (K <= 8 THREADS KSTEPS);
//   * a warp's 8 rows x 256 elements are one stage of a ring of STAGES slots of its own in shared
//     memory ((8, 256):(256, 1) with Swizzle<3,3,5>: the copies and ldmatrix both conflict-free),
//     so each warp keeps STAGES - 1 stages in flight without waiting for the others;
//   * ldmatrix gives each lane rows g, k 2t..2t+1 and 2t+8..2t+9 of a 16-element step, which is
//     the mma's B fragment; the tokens' A fragments for the warp's k range are loaded once, before
//     the first pass, and kept in registers (32 a k-step for 8 tokens, 64 for 16);
//   * per 16-byte vector of W a lane issues one cp.async, a quarter of an ldmatrix and half an mma,
//     whatever the token count;
//   * the block adds its warps' 16 x 8 sums in warp order once a pass (one barrier, two buffers),
//     adds the bias in fp32 and rounds once to C's type. The same bits on every run;
//   * on sm_90, a programmatic dependent launch, as rungs 01 and 03.
//
// Requires sm_80+, A row-major (M, K) and B = W^T with W (N, K) row-major, both 16-byte aligned
// with leading dimensions a multiple of 8 elements (the host copies other inputs first), M <=
// TOKENS and K <= 8 THREADS KSTEPS. Correct for any N and K within that: rows past N and bytes
// past K are zero-filled by cp.async (nothing read) and never stored.
#include "sm80/row_sweep_mma.cuh"

// C (M, N) = A (M, K) @ B (K, N) (+ bias), B = W^T. Launch with at most as many blocks of THREADS
// threads as fit at once (a grid of G blocks covers any N: block b takes rows b + G j) and
// (THREADS / 32) * (STAGES * 4096 + 2 * TOKENS * 32) bytes of dynamic shared memory. `bias` (N
// values of T) may be null. sm80/row_sweep_mma.cuh holds the body.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int TOKENS, int THREADS, int KSTEPS, int STAGES>
__global__ void __launch_bounds__(THREADS, 1)
decode_row_sweep_mma(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
                     int lda, int ldb, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    static_assert(LinearDecodeOperands<A_ROW, B_ROW, T, TC>::ok, "the operands (common/util.cuh)");
    static_assert(TOKENS == 8 || TOKENS == 16, "TOKENS: 8 or 16, the token rows of the mma (g, and g + 8)");
    static_assert(THREADS % 32 == 0 && THREADS >= 8 * TOKENS && THREADS <= 512,
                  "THREADS: whole warps, at least 8 * TOKENS (a thread a sum of the pass) and at most 512");
    static_assert(KSTEPS >= 1 && KSTEPS * TOKENS <= 16,
                  "KSTEPS * TOKENS <= 16: the tokens' fragments (32 registers a k-step for 8 tokens) stay in "
                  "registers");
    static_assert(STAGES >= 2, "STAGES >= 2: a stage in flight while one is multiplied");
    static_assert((THREADS / 32) * (STAGES * row_sweep_mma::SLOT_BYTES + 2 * TOKENS * 8 * 4) <= 227 * 1024,
                  "the warps' rings and the block's sums exceed 227 KB of shared memory: fewer STAGES or THREADS");
    row_sweep_mma::sweep<T, TC, TOKENS, THREADS, KSTEPS, STAGES>(A, B, C, M, N, K, lda, ldb, ldc, bias);
}
