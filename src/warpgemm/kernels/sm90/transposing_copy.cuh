// warpgemm/kernels/sm90/transposing_copy.cuh -- an MN-major 8-bit operand tile, as TMA lands it,
// copied K-major in shared memory, where 8-bit wgmma can read it (igemm rungs 04 and 05).
//
// wgmma reads 8-bit operands K-major only, and ldmatrix has no .trans for 8-bit elements. So a
// column-major A (or, swapped, a row-major B) lands MN-major, (MN, BK) under the 128-byte swizzle
// (sm90/smem_operand.cuh: one 128-byte row per k, holding 128 values of mn), and each consumer
// warpgroup copies its own 64 rows of it into a K-major (64, BK) tile of the same swizzle, one
// 128-byte row per mn. The bytes turn around in registers, 4 x 4 at a time, with prmt.
//
// Thread tid of the warpgroup (warp w, lane l) owns a 4 (mn) x 16 (k) block of each 128 k:
//   mn = row0 + 4 m4 + i, i < 4,   m4 = 8 (w % 2) + l / 4   (16 groups of 4 rows: 64 rows)
//   k  = 128 p + 16 kb + j, j < 16, kb = 4 (w / 2) + l % 4   (8 groups of 16 k: 128 k a pass)
// It reads 16 words (4 mn each, one per k), transposes each 4 x 4 byte block with 8 prmt, and
// writes 4 rows of 16 bytes (16 k each). Both sides are free of bank conflicts by this count
// (tests/test_igemm.py checks it on warpgemm.layout's bank model for every warp and access):
//   * writes: the 8 lanes of a 16-byte store phase hold 4 kb and two m4 (rows 4 apart): the
//     swizzled chunk kb ^ (mn % 8) takes 8 different values.
//   * reads: the 4 values of l % 4 in a warp read 4 different k rows of the same 2 chunks of mn.
//     In plain k order the 4 rows would share k % 8, so the swizzle would put them in the same
//     banks (4-way conflict). Instead the lane reads its 16 rows in the order j = i ^ f,
//     f = 2 (l % 4): the 4 rows of one load differ in k % 8 by f, and the swizzle spreads their
//     chunk pairs over all 32 banks. Bit 2 of f exchanges whole 4 x 4 blocks, which one round of
//     selects puts back; bit 1 exchanges rows within each block, which the transpose's second
//     stage takes back in its byte selectors at no cost (common/byte_transpose.cuh).
#pragma once

#include "arch/sm70.cuh"
#include "common/byte_transpose.cuh"
#include "sm90/smem_operand.cuh"

namespace wg {
namespace sm90 {

template <int MN, int BK>
struct TransposingCopy8 {
    using Source = SwizzledOperand<int8_t, MN, BK, false>;  // as TMA lands it: one 128-byte row per k
    using Target = SwizzledOperand<int8_t, 64, BK, true>;   // one warpgroup's rows, as wgmma reads them
    static constexpr int PASSES = BK / 128;
    static_assert(BK % 128 == 0, "the transposing copy moves 128 k per pass: BK must be a multiple of 128");
    static_assert(MN % 64 == 0, "each consumer warpgroup copies 64 rows: the MN-major tile's MN must be a "
                                "multiple of 64");

    // Thread `tid` (0..127) of the warpgroup that owns rows [row0, row0 + 64) of the source tile
    // at `src`: its share of those rows, K-major, into the (64, BK) tile at `dst`. The caller
    // synchronises the warpgroup around it (the rows are read and written by all of its threads)
    // and fences the writes for wgmma (fence.proxy.async).
    static __device__ __forceinline__ void copy(uint32_t src, uint32_t dst, int row0, int tid) {
        const int warp = tid >> 5;
        const int lane = tid & 31;
        const int kb = 4 * (warp >> 1) + (lane & 3);
        const int m4 = 8 * (warp & 1) + (lane >> 2);
        const int f = 2 * (lane & 3);
        const int mn = row0 + 4 * m4;
        const uint32_t from = src + (mn / 128) * Source::SLAB_BYTES + (mn & 15);
        const int chunk = (mn % 128) >> 4;
        const int out_row = 4 * m4;
        const SecondStageSelectors sel = second_stage_selectors(f & 2);
#pragma unroll
        for (int p = 0; p < PASSES; ++p) {
            uint32_t w[16];
#pragma unroll
            for (int j = 0; j < 16; ++j) {
                const int k = 128 * p + 16 * kb + (j ^ f);  // k % 8 = (j % 8) ^ f
                w[j] = ld_shared_u32(from + k * 128 + ((chunk ^ (k & 7)) << 4));
            }
            // w[j] holds k-row j ^ f of the block: swap the blocks back (bit 2 of f); the rows
            // within a block (bit 1) go back in the transpose's selectors.
            if (f & 4) {
#pragma unroll
                for (int j = 0; j < 16; ++j)
                    if (!(j & 4)) {
                        const uint32_t t = w[j];
                        w[j] = w[j | 4];
                        w[j | 4] = t;
                    }
            }
            uint32_t rows[4][4];  // rows[i][g]: row out_row + i, k 16 kb + 4 g .. + 3
            transpose4x16_bytes(w, rows, sel);
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int r = out_row + i;
                st_shared_v4_u32(dst + p * Target::SLAB_BYTES + r * 128 + ((kb ^ (r & 7)) << 4), rows[i][0],
                                 rows[i][1], rows[i][2], rows[i][3]);
            }
        }
    }
};

}  // namespace sm90
}  // namespace wg
