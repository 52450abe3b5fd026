// hgemm/06_fragment_double_buffer.cu -- rung 06: fragment double buffering across k16 steps,
// and a zig-zag mma order.
//
// What this rung adds over rung 05:
//   * Fragments of the next k16 step are loaded while the mma of this one run, so a warp never
//     waits for shared memory right before an mma. B has two sets of registers (the next step's
//     fill one while this step's mma read the other); A has one, and row i's A fragment is
//     refilled right after row i's mma are issued (it is not needed again this step), which
//     saves 16 registers per thread at a 64x64 warp tile.
//     Across k-tiles too: on the last k16 step of k-tile kt the warp waits for k-tile kt+1 to
//     land (cp.async.wait_group + __syncthreads) and loads that tile's first fragments before it
//     issues the last mma of kt. The barrier thus sits where the tensor cores still have a whole
//     k16 step of work queued, instead of in front of an empty pipe.
//   * The zig-zag ("right left right left") mma order: row i of the MT x NT mma tiles
//     runs j = 0..NT-1 when i is even and j = NT-1..0 when i is odd. Consecutive mma then share
//     an operand at every turn (the B fragment at the end of a row is the first one of the next),
//     which the register reuse cache can serve instead of the register file.
//   * The refill of the freed stage is spread over the k16 steps of a k-tile (all but the last),
//     so that its cp.async interleave with the mma instead of arriving in one burst.
//
// Everything else is rung 05: swizzled shared tiles, a STAGES-deep cp.async ring, block swizzle,
// and C through shared memory. The stage tiles are addressed as 32-bit shared-window byte
// addresses, so that each ldmatrix costs one addition. The body also takes the accumulator type
// and INTERIOR_LOOP (rung 07's unchecked loop for interior k-tiles, off here), so that rung 07
// and the fp16-accumulate variant (hgemm/08) are this same loop.
//
// Requires what rung 05 requires, plus BK >= 32 (two k16 steps or more per k-tile: the commit of
// k-tile kt+STAGES-1 must precede the wait for k-tile kt+1).
//
// The main loop is sm80/mainloop_fragment_double_buffer.cuh; the zig-zag order is
// mma_row_zigzag in sm80/mma.cuh.
#include "common/block_order.cuh"
#include "sm80/mainloop_fragment_double_buffer.cuh"

// C = A * B with double-buffered fragments. Launch as rung 04.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_fragment_double_buffer(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M,
                             int N, int K, int lda, int ldb, int ldc) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::double_buffered_tile<false, false, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
