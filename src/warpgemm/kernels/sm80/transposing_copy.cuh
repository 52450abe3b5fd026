// warpgemm/kernels/sm80/transposing_copy.cuh -- an MN-major 8-bit operand tile, landed by cp.async as
// it lies in global memory, turned K-major in place in shared memory, where ldmatrix (which has no
// 8-bit transpose) reads m16n8k32 fragments from it (igemm rung 01).
//
// The tile lands in MnMajorLanding8<MN, 128> (sm80/smem_layout.cuh): region rho (16 mn by 128 k,
// 2 KB) fills the same 16 lines as rows 16 rho .. 16 rho + 15 of the K-major tile
// SwizzledSmem<true, MN, 128, 1>. One warp turns one region around: it reads all 2 KB into
// registers, waits for its own lanes (__syncwarp), and writes them back K-major over the same
// bytes. No other warp touches those bytes, so the block needs no barrier for it.
//
// Lane l of the warp (m4 = l / 8, kb = l % 8) owns a 4 (mn) x 16 (k) block of the region:
//   mn = 16 rho + 4 m4 + i, i < 4        k = 16 kb + j, j < 16
// It reads 16 words (4 mn each, one per k), turns each 4 x 4 block of bytes around with 8 prmt
// (common/byte_transpose.cuh), and writes 4 rows of 16 bytes (16 k each). Both sides are free of
// bank conflicts (tests/test_igemm.py checks it on warpgemm.layout's bank model):
//   * reads: all 32 lanes read k % 16 = j; the landing layout puts k-row k of a region at chunk
//     (k % 8) ^ (k / 16 % 8) ^ 4 (rho % 2), so the 8 kb take 8 chunk positions and the 4 m4 the
//     4 words of each: 32 banks.
//   * writes: the 8 lanes of a 16-byte store phase share m4, so one row, and write its 8 chunks
//     (chunk kb ^ (row % 8)): one 128-byte line.
#pragma once

#include "arch/sm70.cuh"
#include "common/byte_transpose.cuh"
#include "sm80/smem_layout.cuh"

namespace wg {
namespace sm80 {

// Whether every byte (mn, k) of the first two regions lies in region mn / 16's 2 KB in both
// layouts (the layouts repeat every two regions).
template <class Landing, class Target>
__host__ __device__ constexpr bool regions_line_up() {
    for (int mn = 0; mn < 32; ++mn)
        for (int k = 0; k < 128; ++k)
            if (Landing::offset(mn, k) / 2048 != mn / 16 || Target::offset(mn, k) / 2048 != mn / 16) return false;
    return true;
}

template <int MN, int BK, int WARPS>
struct TransposeInPlace8 {
    using Landing = MnMajorLanding8<MN, BK>;     // as cp.async lands it
    using Target = SwizzledSmem<true, MN, BK, 1>;  // as ldmatrix reads it
    static constexpr int REGIONS = MN / 16;
    static_assert(regions_line_up<Landing, Target>(), "a 16-row region takes the same 2 KB in both layouts");

    // Warp `warp` of WARPS turns regions warp, warp + WARPS, ... of the tile at shared-window byte
    // address `tile` (1024-byte aligned) around. The caller has made the landed tile visible to
    // every warp (cp.async.wait_group and a barrier) and publishes the result with a barrier.
    static __device__ __forceinline__ void run(uint32_t tile, int warp, int lane) {
        const int m4 = lane >> 3;
        const int kb = lane & 7;
#pragma unroll
        for (int r0 = 0; r0 < REGIONS; r0 += WARPS) {
            const int rho = r0 + warp;
            if (REGIONS % WARPS != 0 && rho >= REGIONS) break;  // the same for the whole warp
            const uint32_t region = tile + 2048u * rho;
            // Word j of the lane: k-row 16 kb + j at line 2 kb + j / 8, chunk (j % 8) ^ kb ^ 4 (rho % 2),
            // byte 4 m4. The lane's chunk bits (4-6) are set once; each j flips them by j % 8.
            const uint32_t from = region + 256u * kb + 16u * (kb ^ (4 * (rho & 1))) + 4u * m4;
            uint32_t w[16];
#pragma unroll
            for (int j = 0; j < 16; ++j) w[j] = ld_shared_u32((from ^ (16u * (j & 7))) + 128u * (j >> 3));
            __syncwarp();  // every lane has read the region before any lane writes over it
            uint32_t rows[4][4];  // rows[i][g]: row 4 m4 + i of the region, k 16 kb + 4 g .. + 3
            transpose4x16_bytes(w, rows);
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int r = 4 * m4 + i;  // row 16 rho + r of the tile: r % 8 is the row's swizzle
                st_shared_v4_u32(region + 128u * r + 16u * (kb ^ (r & 7)), rows[i][0], rows[i][1], rows[i][2],
                                 rows[i][3]);
            }
        }
    }
};

}  // namespace sm80
}  // namespace wg
