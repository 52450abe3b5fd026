// warpgemm/kernels/sm80/s32_tile_store.cuh -- a warp's s32 sums -> shared memory -> C (int32,
// row-major), in 16-byte stores masked at the matrix edges (the int4 kernels, int4/01..04). The
// warp stages ROWS rows of its tile at a time, in its own region of the block's shared memory.
// Arch-neutral: compiles for sm_75 and later.
#pragma once

#include "common/util.cuh"

namespace wg {
namespace sm80 {

// ROWS x WN s32 values, rows of WN * 4 bytes = CPR 16-byte chunks. SWIZZLED: chunk c of row r
// sits at chunk c ^ (2 (r % 8) mod CPR): the mma.sync accumulators' writes (lanes (g, t) write
// rows g = 0..7, 8 bytes at column 8j + 2t) then fall in 16 different chunks, the two wavefronts
// 256 bytes need. Plain (for wmma.store, which takes a base and a stride): rows as they are.
template <int ROWS, int WN, bool SWIZZLED>
struct S32Stage {
    static constexpr int ROW_BYTES = 4 * WN;
    static constexpr int CPR = WN / 4;
    static constexpr int BYTES = ROWS * ROW_BYTES;
    static_assert(CPR >= 2 && (CPR & (CPR - 1)) == 0, "the s32 staging tile needs WN = 8, 16, 32, 64 or 128");

    static __device__ __forceinline__ int offset(int r, int byte_col) {
        const int sw = SWIZZLED ? (2 * (r & 7)) & (CPR - 1) : 0;
        return r * ROW_BYTES + ((((byte_col >> 4) ^ sw)) << 4) + (byte_col & 15);
    }
};

// Whether 16-byte stores into C (M,N):(ldc,1) are aligned: a 16-byte aligned base and rows a
// multiple of 4 values apart. Uniform across the grid.
__device__ __forceinline__ bool s32_rows_16B_aligned(const int32_t* C, int ldc) {
    return ldc % 4 == 0 && reinterpret_cast<uint64_t>(C) % 16 == 0;
}

// Copy the warp's staged rows to C(row0.., col0..): 16 bytes a lane a store, rows and columns
// outside the M x N matrix skipped, single values where a 16-byte store would be misaligned or
// would cross the N edge.
template <class Stage>
__device__ __forceinline__ void store_staged_s32(int32_t* C, int ldc, int M, int N, int row0, int col0,
                                                 const uint8_t* stage, int lane, bool vec_ok) {
    constexpr int ROWS = Stage::BYTES / Stage::ROW_BYTES;
#pragma unroll 4
    for (int c = lane; c < ROWS * Stage::CPR; c += 32) {
        const int r = c / Stage::CPR;
        const int cc = c % Stage::CPR;
        const int row = row0 + r;
        const int col = col0 + 4 * cc;
        if (row >= M || col >= N) continue;
        const uint4 v = *reinterpret_cast<const uint4*>(stage + Stage::offset(r, 16 * cc));
        int32_t* dst = C + static_cast<int64_t>(row) * ldc + col;
        if (vec_ok && col + 4 <= N) {
            *reinterpret_cast<uint4*>(dst) = v;
        } else {
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (col + e < N) dst[e] = static_cast<int32_t>(w[e]);
        }
    }
}

// A warp's mma.sync accumulators to C: MT x NT tiles of m16n8, tile (i, j) at rows 16i.., columns
// 8j.. of the warp's tile (whose first element is C(row0, col0)), d[2h + e] = (g + 8h, 2t + e).
// Staged 16 rows at a time (16 * 32 * NT bytes of `stage`, the warp's own region).
template <int MT, int NT>
__device__ __forceinline__ void store_acc_16x8(int32_t* C, int ldc, int M, int N, int row0, int col0,
                                               const int32_t (&acc)[MT][NT][4], uint8_t* stage, int lane) {
    using S = S32Stage<16, 8 * NT, true>;
    const int g = lane >> 2;
    const int t = lane & 3;
    const bool vec_ok = s32_rows_16B_aligned(C, ldc);
#pragma unroll
    for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                *reinterpret_cast<int2*>(stage + S::offset(8 * h + g, 4 * (8 * j + 2 * t))) =
                    make_int2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
        __syncwarp();
        store_staged_s32<S>(C, ldc, M, N, row0 + 16 * i, col0, stage, lane, vec_ok);
        __syncwarp();
    }
}

}  // namespace sm80
}  // namespace wg
