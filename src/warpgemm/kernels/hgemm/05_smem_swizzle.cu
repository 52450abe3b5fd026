// hgemm/05_smem_swizzle.cu -- rung 05: an XOR-swizzled shared-memory layout (Swizzle<3,3,3>),
// so that no ldmatrix or cp.async access has a bank conflict.
//
// What this rung adds over rung 04: only the layout of the operand tiles in shared memory.
// ldmatrix reads, per phase, eight 16-byte rows of one 8x8 matrix. In rung 04's unpadded tiles
// those rows are 64 bytes apart (k-contiguous, BK = 32): rows 0, 2, 4, 6 share the same four
// banks, a 4-way conflict; or 256 or 512 bytes apart (mn-contiguous): all eight share them, an
// 8-way conflict. Each conflict replays the access, and shared-memory bandwidth is what feeds the
// tensor cores.
//
// Swizzle<3,3,3> (wg::sm80::SwizzledSmem) views a tile as 128-byte lines of eight 16-byte
// chunks and stores chunk c of line l at chunk c ^ (l % 8):
//   k-contiguous (row-major A, column-major B):  Sw<3,3,3> o (MN,BK):(BK,1)
//   mn-contiguous (column-major A, row-major B): Sw<3,3,3> o ((64,MN/64),BK):((1,64*BK),64)
// (the mn-contiguous tile is cut into panels 64 elements wide so that a k row of a panel is one
// line). The eight rows of any ldmatrix phase then sit in eight different chunk positions, i.e.
// all 32 banks once; so do the eight 16-byte chunks of a line written by cp.async. Unlike
// padding, the swizzle costs no shared memory and keeps every 16-byte chunk whole and aligned.
// The epilogue's staging tile was already conflict-free (an XOR of 16-byte chunks by row).
//
// Requires what rung 04 requires, plus BK = 32 or 64 and, for an mn-contiguous operand, BM or
// BN a multiple of 64.
//
// The swizzled layout is SwizzledSmem in sm80/smem_layout.cuh; the main loop is rung 04's,
// sm80/mainloop_cp_async.cuh.
#include "common/block_order.cuh"
#include "sm80/mainloop_cp_async.cuh"

// C = A * B: rung 04's pipeline over swizzled shared tiles. Launch as rung 04.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_smem_swizzle(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                   int K, int lda, int ldb, int ldc) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::cp_async_pipeline_tile<wg::sm80::SwizzledSmem, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN,
                                      STAGES>(A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
