// sgemm/06_k16_double_buffer.cu -- rung 06: k-slices of 16, the next slice moved in two halves.
//
// What this rung adds over rung 05 (double-buffered shared slices of BK = 8):
//   * BK = 16 by default: twice the FFMAs per slice for the same barrier, the same trip through
//     the loop and the same global-load bookkeeping. Two buffers of both slices take 33 KB of
//     shared memory.
//   * The next slice travels in two halves. A's chunks are loaded before the first BK/2 k-steps
//     and stored to the idle buffer after them; B's are loaded then and stored after the last
//     k-step. Each load still has BK/2 k-steps (512 FFMAs per thread at the defaults) to
//     arrive, but only one operand's chunks occupy registers at a time: with twice the chunks
//     of rung 05 in flight, the 8 x 8 tile stays within 128 registers without spilling, which
//     keeps two blocks (16 warps) on each SM.
//   * No branch in the loop: the last iteration "loads" the slice past K, which reads nothing
//     (every chunk is out of range and zero-filled) and stores zeros into the idle buffer.
// The barrier discipline is rung 05's: one __syncthreads per slice; the idle buffer is written
// only after the barrier that ended the slice which last read it.
//
// Requires A and B base pointers 16-byte aligned and lda, ldb multiples of 4 floats (the host
// copies other inputs first). Correct for any M, N, K >= 1: chunks past the matrix are
// zero-filled, C stores are masked (16-byte only where C's rows are aligned).
#include "common/tile_io.cuh"
#include "common/ffma_tile.cuh"

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), wg::ffma_min_blocks((BM / TM) * (BN / TN)))
sgemm_k16_double_buffer(const float* __restrict__ A, const float* __restrict__ B,
                        float* __restrict__ C, int M, int N, int K, int lda, int ldb, int ldc) {
    using Block = wg::SplitTileBlock<BM, BN, TM, TN>;
    constexpr int TY = Block::TY, TX = Block::TX, THREADS = Block::THREADS;
    static_assert(BM % 16 == 0 && BN % 16 == 0 && BK % 8 == 0,
                  "slices move in 16-byte chunks: BM, BN multiples of 16 and BK of 8");

    constexpr bool A_KC = A_ROW;   // A is k-contiguous when row-major
    constexpr bool B_KC = !B_ROW;  // B^T is k-contiguous when B is column-major
    using SmemA = wg::SmemTileMnMajor<BM, BK>;  // (BM,BK):(1,BM+4)
    using SmemB = wg::SmemTileMnMajor<BN, BK>;  // (BN,BK):(1,BN+4)
    static_assert(2 * (SmemA::floats + SmemB::floats) * 4 <= 48 * 1024,
                  "two buffers of both slices must fit in 48 KB of static shared memory");
    __shared__ __align__(16) float As[2][SmemA::floats];
    __shared__ __align__(16) float Bs[2][SmemB::floats];

    const int tid = threadIdx.x;
    const wg::SplitThreadGrid<TY, TX> thread(tid);
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    wg::StagedTile<A_KC, BM, BK, THREADS> a_slice(tid);
    wg::StagedTile<B_KC, BN, BK, THREADS> b_slice(tid);
    float acc[TM][TN] = {};

    // Prologue: slice 0 into buffer 0.
    a_slice.load(A, lda, M, K, m0, 0);
    b_slice.load(B, ldb, N, K, n0, 0);
    a_slice.template store<SmemA>(As[0]);
    b_slice.template store<SmemB>(Bs[0]);
    __syncthreads();

    int cur = 0;  // buffer holding the slice being computed
    for (int k0 = 0; k0 < K; k0 += BK, cur ^= 1) {
        // Slice k0 + BK moves in two halves: A's chunks are loaded before the first half of the
        // k-steps and stored after it, B's are loaded then and stored after the second half.
        // Past the last slice every chunk lies beyond K: nothing is read and zeros are stored
        // into the idle buffer, so the loop needs no branch.
        a_slice.load(A, lda, M, K, m0, k0 + BK);
        wg::accumulate_steps<0, BK / 2, SmemA, SmemB>(acc, As[cur], Bs[cur], thread.ty, thread.tx);
        a_slice.template store<SmemA>(As[cur ^ 1]);
        b_slice.load(B, ldb, N, K, n0, k0 + BK);
        wg::accumulate_steps<BK / 2, BK, SmemA, SmemB>(acc, As[cur], Bs[cur], thread.ty, thread.tx);
        b_slice.template store<SmemB>(Bs[cur ^ 1]);
        __syncthreads();
    }

    wg::store_split_tile<BM, BN>(C, ldc, M, N, m0, n0, thread.ty, thread.tx, acc);
}
