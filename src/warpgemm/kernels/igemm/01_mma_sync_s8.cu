// igemm/01_mma_sync_s8.cu -- rung 01: int8 x int8 -> int32 on mma.sync m16n8k32, any layout, on
// every GPU from sm_80 (sm_90 included).
//
// What this rung adds: the mma.sync pipeline of hgemm/07_tuned, run on 8-bit elements.
//   * The atom is SM80_16x8x32_S32S8S8S32_TN: a k step is k32 instead of k16, its s32 sums are
//     exact, and they are written to C as int32 (no bias, no rounding).
//   * Its fragments are the 16-bit ones in bytes: each A and B register holds 4 consecutive k of one
//     row, so a K-major shared tile is read with ldmatrix.x4 exactly as a 16-bit K-major tile is (a
//     16-byte ldmatrix row is 16 values of k). In CuTe terms, A (T32,V16) -> (M16,K32) is
//     ((4,8),(4,2,2)):((64,1),(16,8,256)) and B (T32,V8) -> (N8,K32) is ((4,8),(4,2)):((32,1),(8,128)):
//     lane (g, t) = (lane / 4, lane % 4) holds k 4t..4t+3 of row g (and g + 8, and k + 16).
//   * The shared tiles are rows of BK = 128 bytes (128 k) under the 128-byte swizzle
//     (Swizzle<3,4,3> on bytes, the same bytes hgemm's Swizzle<3,3,3> moves), four k32 steps per
//     k-tile. A tile of k is twice hgemm's k per byte copied.
//   * ldmatrix has no .trans for 8-bit elements, so an MN-major operand (a column-major A, a
//     row-major B) is turned K-major inside the kernel, never by a separate copy: cp.async lands its
//     tile as it lies (16 mn of one k a chunk) in 16-row regions, each in the 2 KB its K-major rows
//     will take, and during k-tile kt every warp turns its regions of k-tile kt+1 around in place:
//     16 four-byte loads, 4 x 4 byte blocks turned with prmt, 4 sixteen-byte stores per lane, only
//     __syncwarp between the reads and the writes, both free of bank conflicts
//     (sm80/transposing_copy.cuh, sm80/smem_layout.cuh's MnMajorLanding8). The ring waits for
//     one k-tile more than in the K-major case.
//
// Everything else is hgemm/07: fragment double buffering across k steps and k-tiles, zig-zag mma
// order, the refill spread over the k steps, unchecked copies for interior k-tiles, zig-zag panels
// of blocks, C through shared memory in 16-byte stores. The K tail, any M and N edge, are
// zero-filled to the byte by cp.async.
//
// Requires 16-byte aligned operands with leading dimensions that are multiples of 16 elements (the
// catalogue says so; the API copies other operands first), sums within int32 (K <= 131071 for
// full-range operands). Tile constraints are static_asserts in the shared pieces, repeated by the
// catalogue's `valid`: BK = 128; BM, BN multiples of 64; WN a multiple of 64 and WM of 16; 256 or
// 512 threads when an operand is MN-major, STAGES of 3 to 5.
//
// The main loop is sm80/mainloop_fragment_double_buffer.cuh (T = int8_t).
#include "common/block_order.cuh"
#include "sm80/mainloop_fragment_double_buffer.cuh"

// C (int32) = A * B (int8), exact while the sums fit int32. Launch with a 1-D grid of one block
// per BM x BN tile of C, 32 * (BM/WM) * (BN/WN) threads and max(STAGES * (BM + BN) * BK,
// 4 * BM * BN) bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
igemm_mma_sync_s8(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
                  int lda, int ldb, int ldc) {
    static_assert(wg::same_type<T, wg::int8_t>::value && wg::same_type<TC, wg::int32_t>::value,
                  "igemm_mma_sync_s8 multiplies int8 into int32");
    static_assert(BK == 128, "BK must be 128: rows of 128 bytes, which the in-place transposing copy of an "
                             "MN-major operand needs (four k32 steps per k-tile)");
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::double_buffered_tile<false, true, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
