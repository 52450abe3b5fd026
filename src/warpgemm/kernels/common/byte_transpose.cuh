// warpgemm/kernels/common/byte_transpose.cuh -- a 4 x 4 block of bytes turned around in registers
// with eight byte permutes (prmt): how 8-bit MN-major operands become K-major in shared memory
// (sm80/transposing_copy.cuh, sm90/transposing_copy.cuh).
#pragma once

#include "common/types.cuh"

namespace wg {

// The second stage's byte selectors (transpose4x4_bytes, below). Where a block's rows arrive in the order e ^ 2 (x[0] and x[2],
// x[1] and x[3] exchanged: `rows_swapped`), the first stage pairs them the other way round (its t0,
// t2 and t1, t3 exchanged), and 0x1054 / 0x3276 in place of 0x5410 / 0x7632 take the pairs back.
// A thread whose rows arrive permuted pays nothing for it: the selectors sit in registers, where a
// swap back would take eight selects a block. With the plain selectors (constants) the permutes
// take them as immediates.
struct SecondStageSelectors {
    uint32_t lo, hi;
};

__device__ __forceinline__ SecondStageSelectors second_stage_selectors(bool rows_swapped) {
    return rows_swapped ? SecondStageSelectors{0x1054u, 0x3276u} : SecondStageSelectors{0x5410u, 0x7632u};
}

// 4 words of 4 bytes, x[e] = bytes (row e, columns 0..3), to y[i] = bytes (column i, rows 0..3),
// the lowest row in the lowest byte: for x[e] = 4 mn at k = e, y[i] = 4 k of mn = i.
__device__ __forceinline__ void transpose4x4_bytes(const uint32_t* x, uint32_t* y,
                                                   SecondStageSelectors sel = second_stage_selectors(false)) {
    const uint32_t t0 = __byte_perm(x[0], x[1], 0x5140), t1 = __byte_perm(x[0], x[1], 0x7362);
    const uint32_t t2 = __byte_perm(x[2], x[3], 0x5140), t3 = __byte_perm(x[2], x[3], 0x7362);
    y[0] = __byte_perm(t0, t2, sel.lo);
    y[1] = __byte_perm(t0, t2, sel.hi);
    y[2] = __byte_perm(t1, t3, sel.lo);
    y[3] = __byte_perm(t1, t3, sel.hi);
}

// Four 4 x 4 blocks side by side along k: w[4g + e] = 4 mn at k = 4g + e, to rows[i][g] = k 4g .. 4g + 3
// of mn = i. Each rows[i] is then 16 consecutive k of one row, one 16-byte store. (Each block's rows
// in the order e ^ 2 where `sel` says so.)
__device__ __forceinline__ void transpose4x16_bytes(const uint32_t (&w)[16], uint32_t (&rows)[4][4],
                                                    SecondStageSelectors sel = second_stage_selectors(false)) {
#pragma unroll
    for (int g = 0; g < 4; ++g) {
        uint32_t y[4];
        transpose4x4_bytes(&w[4 * g], y, sel);
#pragma unroll
        for (int i = 0; i < 4; ++i) rows[i][g] = y[i];
    }
}

}  // namespace wg
