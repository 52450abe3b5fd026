// sgemm/04_bank_conflict_free.cu -- rung 04: A transposed (k-major) in shared memory, split
// thread tiles, and fragment reads free of bank conflicts.
//
// What this rung adds over rung 03 (shared slices laid out as in global memory):
//   * Both slices are stored mn-major, each k-row padded by 4 floats: As is (BM,BK):(1,BM+4)
//     and Bs is (BN,BK):(1,BN+4) whatever the global layouts. A k-contiguous operand (row-major
//     A, column-major B) is transposed on the way in: each 16-byte chunk read along k becomes 4
//     scalar stores, one per k-row, and the padding shifts consecutive k-rows by 4 banks so that
//     a warp's stores hit 32 distinct banks (wg::SmemTileMnMajor). An mn-contiguous operand
//     still goes in as 16-byte stores.
//   * The split thread tile (wg::SplitThreadGrid). A thread's 8 x 8 tile of C is 2 x 2 blocks of
//     4 x 4, BM/2 rows and BN/2 columns apart, so its A and B fragments at one k are two float4
//     each; warps are 4 x 8 patches of the thread grid, so each float4 read of the warp touches
//     4 (A) or 8 (B) distinct 16-byte runs: one wavefront, no conflicts, the rest broadcast.
//     Per k-step a thread issues 4 shared loads and 64 FFMAs.
//
// Requires A and B base pointers 16-byte aligned and lda, ldb multiples of 4 floats (the host
// copies other inputs first). Correct for any M, N, K >= 1: chunks past the matrix are
// zero-filled, C stores are masked (16-byte only where C's rows are aligned).
//
// Each slice is still loaded, stored, synchronised and computed in turn, two barriers per
// slice: rung 05 overlaps the loads of the next slice with the FFMAs of this one.
#include "common/tile_io.cuh"
#include "common/ffma_tile.cuh"

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), wg::ffma_min_blocks((BM / TM) * (BN / TN)))
sgemm_bank_conflict_free(const float* __restrict__ A, const float* __restrict__ B,
                         float* __restrict__ C, int M, int N, int K, int lda, int ldb, int ldc) {
    using Block = wg::SplitTileBlock<BM, BN, TM, TN>;
    constexpr int TY = Block::TY, TX = Block::TX, THREADS = Block::THREADS;
    static_assert(BM % 16 == 0 && BN % 16 == 0 && BK % 8 == 0,
                  "slices move in 16-byte chunks: BM, BN multiples of 16 and BK of 8");

    constexpr bool A_KC = A_ROW;   // A is k-contiguous when row-major
    constexpr bool B_KC = !B_ROW;  // B^T is k-contiguous when B is column-major
    using SmemA = wg::SmemTileMnMajor<BM, BK>;  // (BM,BK):(1,BM+4)
    using SmemB = wg::SmemTileMnMajor<BN, BK>;  // (BN,BK):(1,BN+4)
    static_assert((SmemA::floats + SmemB::floats) * 4 <= 48 * 1024,
                  "the shared slices must fit in 48 KB of static shared memory");
    __shared__ __align__(16) float As[SmemA::floats];
    __shared__ __align__(16) float Bs[SmemB::floats];

    const int tid = threadIdx.x;
    const wg::SplitThreadGrid<TY, TX> thread(tid);
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    wg::StagedTile<A_KC, BM, BK, THREADS> a_slice(tid);
    wg::StagedTile<B_KC, BN, BK, THREADS> b_slice(tid);
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        a_slice.load(A, lda, M, K, m0, k0);
        b_slice.load(B, ldb, N, K, n0, k0);
        a_slice.template store<SmemA>(As);  // transposes a k-contiguous A
        b_slice.template store<SmemB>(Bs);
        __syncthreads();
        wg::accumulate_slice<SmemA, SmemB>(acc, As, Bs, thread.ty, thread.tx);
        __syncthreads();  // the slice is consumed before the next one overwrites it
    }

    wg::store_split_tile<BM, BN>(C, ldc, M, N, m0, n0, thread.ty, thread.tx, acc);
}
