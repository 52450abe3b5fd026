// hgemm/04_cp_async_pipeline.cu -- rung 04: a STAGES-deep cp.async pipeline.
//
// What this rung adds over rung 03: global -> shared copies that run behind the math.
//   * cp.async.cg moves each 16-byte chunk from global memory straight into shared memory,
//     without a register round trip and without stalling the thread that issued it. Chunks
//     outside the matrix are zero-filled by the copy itself (src-size 0..16 bytes).
//   * Shared memory holds STAGES (2 to 5) k-tiles of A and B in a ring. The copies of k-tile
//     kt + STAGES - 1 are issued before k-tile kt is computed; each k-tile's copies are one
//     cp.async group, and cp.async.wait_group<STAGES - 2> waits only for the oldest tile still
//     needed. A group is committed for every k-tile, empty past the end of K, so the count of
//     groups in flight, and with it the wait, is the same on every iteration: a K of fewer
//     k-tiles than stages needs no special case.
//   * One __syncthreads per k-tile both publishes the tile that just landed and tells every
//     thread that the stage consumed in the previous iteration is free to be refilled.
// With STAGES - 1 tiles in flight the latency of global memory hides behind the mma of the
// tiles already present; only the first STAGES - 1 tiles are waited for in full.
//
// The shared tiles are still rung 02's plain layout; the body takes the layout as a template so
// rung 05 can swap in the swizzled one.
//
// Requires what rung 02 requires; the grid is rung 03's 1-D swizzled grid.
//
// The cp.async ring is sm80/mainloop_cp_async.cuh (run here on plain stage tiles).
#include "common/block_order.cuh"
#include "sm80/mainloop_cp_async.cuh"

// C = A * B with a STAGES-deep cp.async pipeline. Launch with rung 03's 1-D grid,
// 32 * (BM/WM) * (BN/WN) threads and max(STAGES * (BM + BN) * BK * 2, BM * BN * sizeof(TC)) bytes
// of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_cp_async_pipeline(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M,
                        int N, int K, int lda, int ldb, int ldc) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::cp_async_pipeline_tile<wg::sm80::PlainSmem, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
