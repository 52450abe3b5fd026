// hgemm/03_block_swizzle.cu -- rung 03: a block swizzle, so that blocks running together share
// A and B tiles in L2.
//
// What this rung adds over rung 02: only the order in which blocks visit the tiles of C. With
// the default grid, block (x, y) computes tile (y, x) and the hardware starts blocks x-fastest,
// so one wave of blocks (one per SM) covers a strip of C one or two tile-rows high and very wide:
// it needs every column of B, and when B does not fit in L2 (8192^3: 128 MB of fp16) the
// next strip reads B from HBM again.
//
// A z-order with a stride fixes this: C's tile columns are cut into panels SWIZZLE tiles
// wide; blocks go across a panel, then down it, then on to the next panel, odd panels bottom-up
// (wg::zigzag_panel_tile). A wave then covers a patch about SWIZZLE tiles wide and
// (SMs / SWIZZLE) tiles high, and reads SWIZZLE * BN columns of B and (SMs / SWIZZLE) * BM rows of
// A instead of all of B. The classic form spreads the panels over gridDim.z; here the grid is
// 1-D (one block per tile) and the kernel computes the same order, so a last panel narrower
// than SWIZZLE leaves no block idle.
//
// Requires what rung 02 requires; the grid is (ceil(M/BM) * ceil(N/BN), 1, 1).
//
// The block order is zigzag_panel_tile in common/block_order.cuh; the main loop is rung
// 02's, sm80/mainloop_register_staged.cuh.
#include "common/block_order.cuh"
#include "sm80/mainloop_register_staged.cuh"

// C = A * B: rung 02's block computation in swizzled block order. Launch with a 1-D grid of
// ceil(M/BM) * ceil(N/BN) blocks, 32 * (BM/WM) * (BN/WN) threads and rung 02's shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_block_swizzle(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                    int K, int lda, int ldb, int ldc) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::mma_ldmatrix_tile<A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN>(A, B, C, M, N, K, lda, ldb, ldc,
                                                                         tile_m, tile_n);
}
