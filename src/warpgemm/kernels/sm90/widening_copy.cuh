// warpgemm/kernels/sm90/widening_copy.cuh -- packed 4-bit operand tiles as TMA lands them, and their
// widening to the K-major 8-bit tiles that the s8 / u8 wgmma reads (int4/05).
//
// The packed tile. One k-tile of 128 values of k is 64 bytes of each packed row (two values a
// byte, warpgemm.int4's packing). TMA lands ROWS rows of it as they lie, without a swizzle: byte
// j of row r at 64 r + j, the tile (ROWS,64):(64,1) in bytes. The box is (64 bytes, ROWS rows);
// bytes past K (a tail, or a ragged last k-tile) and rows past M or N arrive as zeros, and a zero
// nibble widens to a zero byte.
//
// The target tile. One 128-byte row per mn, holding the row's 128 widened values under the
// 128-byte swizzle (sm90/smem_operand.cuh, SwizzledOperand<int8_t, MN, 128, true>): the 16-byte
// chunk q of row r sits at chunk q ^ (r % 8) of the row.
//
// The copy. Thread t of a warpgroup takes, in each pass of 32 rows, row 32 p + t / 4 and its
// 16-byte chunk c = t % 4 (32 values), widens its 4 words (common/nibble_widen.cuh) into 32 bytes
// and stores them as target chunks 2c (the low nibbles of words 0..3: values 0, 2, 4, 6 of each)
// and 2c + 1 (their high nibbles). So position (byte) P of a target row holds value
//     k(P) = 32 c + 8 j + 2 b + h   for P = 32 c + 16 h + 4 j + b   (c < 4, h < 2, j < 4, b < 4),
// the map (4,4,2,4):(2,8,1,32) from positions to values. A and B go through this same copy, so
// the wgmma's sum over the 128 positions is the sum over the 128 values of k. (The order also
// puts the 8 values the register-A fragment of int4/06 needs at a lane's positions 4t..4t+3 and
// 16+4t..16+4t+3 in one packed word: sm90/mainloop_register_a_widening.cuh.)
//
// Bank conflicts (tests/test_int4_matmul.py checks both on warpgemm.layout's bank model): a
// 16-byte access is served 8 lanes at a time, and lanes 8i .. 8i + 7 take two adjacent rows 2m,
// 2m + 1 and their four chunks each:
//   * loads: rows 2m and 2m + 1 are one aligned 128-byte line, read whole. (This is why the packed
//     tile needs no swizzle: the reads are row-contiguous; the 64-byte swizzle would serve them
//     as well and buys nothing here.)
//   * stores: chunk 2c of row r goes to 2c ^ (r % 8): even chunks for the even row, odd ones for
//     the odd row, 8 different 16-byte columns; the same for chunks 2c + 1.
#pragma once

#include "arch/sm70.cuh"
#include "arch/sm90.cuh"
#include "common/nibble_widen.cuh"
#include "sm90/smem_operand.cuh"

namespace wg {
namespace sm90 {

// ROWS packed rows of one k-tile (128 values, 64 bytes a row), (ROWS,64):(64,1) bytes: the stage
// operand of the widening pipeline (sm90/stages.cuh calls load()).
template <int ROWS>
struct PackedTile {
    static constexpr int VALUES = 128;            // values of k a row (a k-tile)
    static constexpr int ROW_BYTES = VALUES / 2;  // the TMA box's inner size
    static constexpr int BYTES = ROWS * ROW_BYTES;
    static_assert(ROWS % 32 == 0, "the widening copy takes 32 rows a pass: the tile's rows (BM / 2 per consumer "
                                  "for A, BN / 2 for B) must be a multiple of 32");
    static_assert(ROWS <= 256, "a TMA box has at most 256 rows: BM, BN <= 256");

    // Rows mn0 .. mn0 + ROWS - 1, values k0 .. k0 + 127 (k0 even) of the packed operand whose map
    // `map` has (64 bytes, ROWS) boxes, into `dst`, the bytes completed on `bar`.
    static __device__ __forceinline__ void load(const TmaDescriptor* map, uint32_t bar, uint32_t dst, int mn0,
                                                int k0) {
        SM90_TMA_LOAD_2D::copy(map, bar, dst, k0 / 2, mn0);
    }
};

// One warpgroup's share of a k-tile: rows of packed tiles widened into K-major 8-bit target tiles.
// HIGH (s4 only): each value as 16 times itself, the nibble at the top of its byte
// (widen_nibbles_high: three operations a word instead of seven; the sums come out 256 times
// too large and the kernel shifts them back).
template <bool SIGNED, bool HIGH = false>
struct WideningCopy {
    static_assert(SIGNED || !HIGH, "the high-nibble widening is for s4: u4 values times 16 overflow u8 sums sooner "
                                   "and u4 widens in three operations anyway");
    using Row = PackedTile<32>;
    static constexpr int TARGET_ROW_BYTES = 128;
    static_assert(2 * Row::ROW_BYTES == TARGET_ROW_BYTES, "a packed row of a k-tile widens to one 128-byte row");

    // The 4 words thread `tid` (0..127) reads in pass p of the packed rows starting at `src`.
    static __device__ __forceinline__ void load(uint32_t src, int p, int tid, uint32_t (&w)[4]) {
        const float4 v = ld_volatile_shared_v4_f32(src + (32 * p + (tid >> 2)) * Row::ROW_BYTES + 16 * (tid & 3));
        w[0] = __float_as_uint(v.x), w[1] = __float_as_uint(v.y);
        w[2] = __float_as_uint(v.z), w[3] = __float_as_uint(v.w);
    }

    // Those words widened into row 32 p + tid / 4 of the target tile at `dst` (1024-byte aligned, so
    // that row % 8 is the swizzle's row), chunks 2c and 2c + 1 for c = tid % 4.
    static __device__ __forceinline__ void store(uint32_t dst, int p, int tid, const uint32_t (&w)[4]) {
        const int r = 32 * p + (tid >> 2);
        const int c = tid & 3;
        uint32_t b[8];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if constexpr (HIGH) widen_nibbles_high(w[j], b[2 * j], b[2 * j + 1]);
            else widen_nibbles<SIGNED>(w[j], b[2 * j], b[2 * j + 1]);
        }
        const uint32_t row = dst + r * TARGET_ROW_BYTES;
        st_shared_v4_u32(row + (((2 * c) ^ (r & 7)) << 4), b[0], b[2], b[4], b[6]);      // low nibbles
        st_shared_v4_u32(row + (((2 * c + 1) ^ (r & 7)) << 4), b[1], b[3], b[5], b[7]);  // high nibbles
    }

    // Thread `tid` of the warpgroup: ROWS_A packed rows at src_a into the target tile at dst_a, and
    // ROWS_B at src_b into dst_b, every load issued before the first store. The caller
    // synchronises around it and fences the stores for wgmma (fence.proxy.async).
    template <int ROWS_A, int ROWS_B>
    static __device__ __forceinline__ void copy(uint32_t src_a, uint32_t dst_a, uint32_t src_b, uint32_t dst_b,
                                                int tid) {
        constexpr int PA = ROWS_A / 32, PB = ROWS_B / 32;
        static_assert(ROWS_A % 32 == 0 && ROWS_B % 32 == 0, "32 rows a pass: ROWS_A and ROWS_B multiples of 32");
        uint32_t w[PA + PB][4];
#pragma unroll
        for (int p = 0; p < PA; ++p) load(src_a, p, tid, w[p]);
#pragma unroll
        for (int p = 0; p < PB; ++p) load(src_b, p, tid, w[PA + p]);
#pragma unroll
        for (int p = 0; p < PA; ++p) store(dst_a, p, tid, w[p]);
#pragma unroll
        for (int p = 0; p < PB; ++p) store(dst_b, p, tid, w[PA + p]);
    }

    // The same for ROWS rows of one operand with each pass's loads issued one pass ahead of its
    // stores, not all first: 8 registers of packed words instead of ROWS / 8 (int4/06, whose
    // accumulators and A fragments leave no room for more).
    template <int ROWS>
    static __device__ __forceinline__ void copy_one_ahead(uint32_t src, uint32_t dst, int tid) {
        static_assert(ROWS % 32 == 0, "32 rows a pass: ROWS a multiple of 32");
        uint32_t w[2][4];
        load(src, 0, tid, w[0]);
#pragma unroll
        for (int p = 0; p < ROWS / 32; ++p) {
            if (p + 1 < ROWS / 32) load(src, p + 1, tid, w[(p + 1) & 1]);
            store(dst, p, tid, w[p & 1]);
        }
    }
};

}  // namespace sm90
}  // namespace wg
