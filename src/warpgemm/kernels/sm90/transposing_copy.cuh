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

    // What thread `tid` (0..127) of the warpgroup that owns rows [row0, row0 + 64) of the source
    // tile reads and writes, as offsets from the tiles' starts. Word j's offset is
    //   from + 128 k + 16 (chunk ^ (k % 8)),  k = 16 kb + (j ^ f),  from = (mn / 128) SLAB + mn % 16,
    // where 128 (j ^ f) and 16 (chunk ^ ((j ^ f) % 8)) fill bits 7-10 and 4-6, which `from` and
    // 2048 kb leave clear: the offset is load ^ load_key(j), load_key(j) = 128 j + 16 (j % 8) and
    // load = from + 2048 kb + (144 f ^ 16 chunk). Row i's store, 128 r + 16 (kb ^ (r % 8)) with
    // r = 4 m4 + i, is store ^ 144 i the same way. So a main loop works out two words a lane once,
    // before its first k-tile, and each load and store of a copy costs one xor with an immediate
    // (worked out afresh in every copy, they cost two instructions a load).
    static __host__ __device__ constexpr uint32_t load_key(int j) { return 128 * j + 16 * (j & 7); }
    static __host__ __device__ constexpr uint32_t store_key(int i) { return 144 * i; }

    struct Lane {
        uint32_t load;             // word j's offset in pass 0: load ^ load_key(j); pass p adds p * 128 rows
        uint32_t store;            // row i's offset in pass 0: store ^ store_key(i); pass p adds a target slab
        bool swap_blocks;          // bit 2 of f: the 4 x 4 blocks arrive pairwise exchanged
        SecondStageSelectors sel;  // bit 1 of f: the rows within a block, taken back by the transpose

        Lane() = default;
        __device__ __forceinline__ Lane(int row0, int tid) {
            const int warp = tid >> 5;
            const int lane = tid & 31;
            const int kb = 4 * (warp >> 1) + (lane & 3);
            const int m4 = 8 * (warp & 1) + (lane >> 2);
            const int f = 2 * (lane & 3);
            const int mn = row0 + 4 * m4;
            const int chunk = (mn % 128) >> 4;
            load = (mn / 128) * Source::SLAB_BYTES + (mn & 15) + 2048 * kb + ((144 * f) ^ (16 * chunk));
            store = 512 * m4 + 16 * (kb ^ (4 * (m4 & 1)));
            swap_blocks = (f & 4) != 0;
            sel = second_stage_selectors(f & 2);
        }
        __device__ __forceinline__ uint32_t load_offset(int j) const { return load ^ load_key(j); }
        __device__ __forceinline__ uint32_t store_offset(int i) const { return store ^ store_key(i); }
    };
    static_assert(Source::SLAB_BYTES % 2048 == 0 && Target::SLAB_BYTES >= 16 * 512,
                  "Lane's offsets are a lane word xor a key: the source's slabs must leave bits 4-10 to the k row's "
                  "part, and a target slab must hold the 64 rows' 512-byte pairs");

    // A Lane's offsets, all of them: 20 registers a thread where a Lane takes 2, and no xor a load
    // (igemm 04 and 05, which have the registers; rung 09 copies three tiles a k-tile and keeps
    // their Lanes).
    struct Offsets {
        uint32_t load[16], store[4];
        bool swap_blocks;
        SecondStageSelectors sel;

        __device__ __forceinline__ explicit Offsets(const Lane& lane)
            : swap_blocks(lane.swap_blocks), sel(lane.sel) {
            // Opaque to the compiler, which would otherwise keep the Lane and redo the xors a k-tile.
#pragma unroll
            for (int j = 0; j < 16; ++j) {
                load[j] = lane.load ^ load_key(j);
                asm volatile("" : "+r"(load[j]));
            }
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                store[i] = lane.store ^ store_key(i);
                asm volatile("" : "+r"(store[i]));
            }
        }
        __device__ __forceinline__ uint32_t load_offset(int j) const { return load[j]; }
        __device__ __forceinline__ uint32_t store_offset(int i) const { return store[i]; }
    };

    // The thread's share of rows [row0, row0 + 64) of the source tile at `src`, K-major, into the
    // (64, BK) tile at `dst` (`at`: Lane(row0, tid), or its Offsets). The caller synchronises the
    // warpgroup around it (the rows are read and written by all of its threads) and fences the
    // writes for wgmma (fence.proxy.async).
    template <typename At>
    static __device__ __forceinline__ void copy(uint32_t src, uint32_t dst, const At& at) {
#pragma unroll
        for (int p = 0; p < PASSES; ++p) {
            uint32_t w[16];
#pragma unroll
            for (int j = 0; j < 16; ++j) w[j] = ld_shared_u32(src + (at.load_offset(j) + p * 128 * 128));
            // w[j] holds k-row j ^ f of the block: swap the blocks back (bit 2 of f); the rows
            // within a block (bit 1) go back in the transpose's selectors.
            if (at.swap_blocks) {
#pragma unroll
                for (int j = 0; j < 16; ++j)
                    if (!(j & 4)) {
                        const uint32_t t = w[j];
                        w[j] = w[j | 4];
                        w[j | 4] = t;
                    }
            }
            uint32_t rows[4][4];  // rows[i][g]: row out_row + i, k 16 kb + 4 g .. + 3
            transpose4x16_bytes(w, rows, at.sel);
#pragma unroll
            for (int i = 0; i < 4; ++i)
                st_shared_v4_u32(dst + (at.store_offset(i) + p * Target::SLAB_BYTES), rows[i][0], rows[i][1],
                                 rows[i][2], rows[i][3]);
        }
    }
};

}  // namespace sm90
}  // namespace wg
