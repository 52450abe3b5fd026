// sgemm/05_double_buffer.cu -- rung 05: two shared buffers, so the next slice loads while this
// one is computed.
//
// What this rung adds over rung 04 (load, barrier, compute, barrier, for every slice):
//   * Two shared buffers per operand, As[2] and Bs[2], each (MN,BK):(1,MN+4) as in rung 04.
//     Slice t is computed from buffer t % 2 while slice t + 1 travels into buffer (t + 1) % 2.
//   * The global loads of slice t + 1 are issued into registers before the FFMAs of slice t,
//     and stored to shared memory after them: the loads' latency hides behind BK k-steps of
//     arithmetic instead of stalling the block.
//   * One barrier per slice. After computing slice t a thread writes only the other buffer,
//     which every thread finished reading before the previous barrier; the barrier that follows
//     publishes slice t + 1. The first slice is loaded before the loop.
//
// Requires A and B base pointers 16-byte aligned and lda, ldb multiples of 4 floats (the host
// copies other inputs first). Correct for any M, N, K >= 1: chunks past the matrix are
// zero-filled, C stores are masked (16-byte only where C's rows are aligned).
#include "common/tile_io.cuh"
#include "common/ffma_tile.cuh"

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), wg::ffma_min_blocks((BM / TM) * (BN / TN)))
sgemm_double_buffer(const float* __restrict__ A, const float* __restrict__ B,
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
    const int k_tiles = (K + BK - 1) / BK;

    wg::StagedTile<A_KC, BM, BK, THREADS> a_slice(tid);
    wg::StagedTile<B_KC, BN, BK, THREADS> b_slice(tid);
    float acc[TM][TN] = {};

    // Prologue: slice 0 into buffer 0.
    a_slice.load(A, lda, M, K, m0, 0);
    b_slice.load(B, ldb, N, K, n0, 0);
    a_slice.template store<SmemA>(As[0]);
    b_slice.template store<SmemB>(Bs[0]);
    __syncthreads();

    for (int t = 0; t < k_tiles; ++t) {
        const int cur = t & 1;
        const bool has_next = t + 1 < k_tiles;
        if (has_next) {  // in flight during the FFMAs below
            a_slice.load(A, lda, M, K, m0, (t + 1) * BK);
            b_slice.load(B, ldb, N, K, n0, (t + 1) * BK);
        }
        wg::accumulate_slice<SmemA, SmemB>(acc, As[cur], Bs[cur], thread.ty, thread.tx);
        if (has_next) {
            a_slice.template store<SmemA>(As[cur ^ 1]);
            b_slice.template store<SmemB>(Bs[cur ^ 1]);
        }
        __syncthreads();
    }

    wg::store_split_tile<BM, BN>(C, ldc, M, N, m0, n0, thread.ty, thread.tx, acc);
}
