// sgemm/03_thread_tile_8x8.cu -- rung 03: each thread computes a TM x TN (8 x 8) tile of C.
//
// What this rung adds over rung 02 (one output per thread):
//   * Register blocking. The block's (BM/TM) x (BN/TN) threads each own a contiguous TM x TN
//     tile of the block's BM x BN tile of C, kept in registers. Per k a thread reads TM values
//     of A and TN values of B from shared memory and does TM * TN FFMAs: 64 FFMAs for 16 reads,
//     where rung 02 did 1 for 2. A block of 256 threads covers 128 x 128 outputs.
//   * 16-byte global loads. Slices move as float4 chunks along the direction each operand is
//     contiguous in global memory (k for row-major A, m for column-major A, n for row-major B,
//     k for column-major B), staged through registers (wg::StagedTile); chunks reaching past
//     the matrix are zero-filled element by element.
//
// Shared memory keeps each slice the way it runs in global memory, so every chunk is one
// 16-byte store: As is (BM,BK):(BK,1) for row-major A and (BM,BK):(1,BM) for column-major A;
// Bs is (BN,BK):(1,BN) for row-major B and (BN,BK):(BK,1) for column-major B. The price is paid
// when reading: thread tiles of TM contiguous rows put neighbouring lanes 8 floats apart, so a
// warp's vector reads of an mn-major slice collide in the banks, and a k-contiguous slice is
// read a float per row. Rung 04 changes the shared layout and the thread tile to fix both.
//
// Requires A and B base pointers 16-byte aligned and lda, ldb multiples of 4 floats (the host
// copies other inputs first). Correct for any M, N, K >= 1; C stores are masked, and 16-byte
// only where a run-time check shows C's rows are aligned.
#include "common/tile_io.cuh"
#include "common/ffma_tile.cuh"

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_thread_tile(const float* __restrict__ A, const float* __restrict__ B,
                  float* __restrict__ C, int M, int N, int K, int lda, int ldb, int ldc) {
    constexpr int TY = BM / TM, TX = BN / TN, THREADS = TY * TX;
    static_assert(BM % TM == 0 && BN % TN == 0, "BM must be a multiple of TM and BN of TN");
    static_assert(THREADS % 32 == 0 && THREADS <= 1024,
                  "(BM/TM) * (BN/TN) threads must be whole warps, at most 1024");
    static_assert(BM % 16 == 0 && BN % 16 == 0 && BK % 8 == 0,
                  "slices move in 16-byte chunks: BM, BN multiples of 16 and BK of 8");

    constexpr bool A_KC = A_ROW;   // A is k-contiguous when row-major
    constexpr bool B_KC = !B_ROW;  // B^T is k-contiguous when B is column-major
    using SmemA = wg::SmemTileAsGlobal<A_KC, BM, BK>;
    using SmemB = wg::SmemTileAsGlobal<B_KC, BN, BK>;
    static_assert((SmemA::floats + SmemB::floats) * 4 <= 48 * 1024,
                  "the shared slices must fit in 48 KB of static shared memory");
    __shared__ __align__(16) float As[SmemA::floats];
    __shared__ __align__(16) float Bs[SmemB::floats];

    const int tid = threadIdx.x;
    const int ty = tid / TX, tx = tid % TX;  // this thread's tile: rows ty*TM.., columns tx*TN..
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    wg::StagedTile<A_KC, BM, BK, THREADS> a_slice(tid);
    wg::StagedTile<B_KC, BN, BK, THREADS> b_slice(tid);
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        a_slice.load(A, lda, M, K, m0, k0);
        b_slice.load(B, ldb, N, K, n0, k0);
        a_slice.template store<SmemA>(As);
        b_slice.template store<SmemB>(Bs);
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[SmemA::offset(ty * TM + i, k)];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[SmemB::offset(tx * TN + j, k)];
            wg::outer_product_accumulate(acc, a, b);
        }
        __syncthreads();  // the slice is consumed before the next one overwrites it
    }

    wg::store_c_block<0, 0, TM, TN>(C, ldc, M, N, m0 + ty * TM, n0 + tx * TN, acc,
                                    wg::c_rows_float4_aligned(C, ldc));
}
