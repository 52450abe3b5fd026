// hgemm/02_mma_ldmatrix.cu -- rung 02: mma.sync m16n8k16 fed by ldmatrix, C staged through shared memory.
//
// What this rung adds over rung 01 (wmma):
//   * The math is the PTX mma.sync.m16n8k16 (fp32 accumulators) instead of wmma. Its fragment
//     layout is documented (arch/sm80.cuh), which lets a warp own a larger tile and lets the
//     epilogue address the accumulators directly.
//   * Fragments come from shared memory through ldmatrix.x4: one instruction gives a warp a whole
//     16x16 A fragment, or the B fragments of two n8 tiles. An operand tile that runs along k
//     (row-major A, column-major B) is read as it is; one that runs along m or n (column-major A,
//     row-major B) is read with ldmatrix .trans, which transposes 8x8 blocks on the way. The
//     classic form of this kernel reads a column-major B, whose shared tile is B^T: n rows of k,
//     the k-contiguous case.
//   * The classic mma.sync HGEMM tiling: a 256x128 block tile, 8 warps as 4 x 2, each a 64x64 warp tile of
//     4 x 8 mma tiles (128 fp32 accumulators per thread), BK = 32.
//   * C goes out through shared memory: each warp writes its accumulators there as TC, then
//     copies whole 16-byte rows of them to global memory (sm80/epilogue.cuh, CStage).
//
// The shared tiles are unpadded and keep the global layout, (BM,BK):(BK,1) or (BM,BK):(1,BM)
// (likewise for B^T), so ldmatrix phases hit the same banks several times (rung 05 fixes that),
// and loads still go through registers with no overlap between copying and computing (rung 04
// fixes that). Blocks run in plain grid order (rung 03 changes that).
//
// Requires sm_80+, 16-byte aligned A and B with leading dimensions a multiple of 8 elements (the
// host copies other inputs first). Correct for any M, N, K >= 1.
//
// The main loop is sm80/mainloop_register_staged.cuh; the ldmatrix fragment loads are
// sm80/warp_reader.cuh, the mma tile sm80/mma.cuh, the epilogue sm80/epilogue.cuh.
#include "common/block_order.cuh"
#include "sm80/mainloop_register_staged.cuh"

// C = A * B with mma.sync m16n8k16 and ldmatrix. Launch with the default grid
// (ceil(N/BN), ceil(M/BM)), 32 * (BM/WM) * (BN/WN) threads and the catalogue's dynamic shared
// memory, max((BM + BN) * BK * 2, BM * BN * sizeof(TC)) bytes.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_mma_ldmatrix(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                   int K, int lda, int ldb, int ldc) {
    int tile_m, tile_n;
    wg::grid_tile(tile_m, tile_n);
    wg::sm80::mma_ldmatrix_tile<A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN>(A, B, C, M, N, K, lda, ldb, ldc,
                                                                         tile_m, tile_n);
}
