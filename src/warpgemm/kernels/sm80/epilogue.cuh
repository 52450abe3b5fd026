// warpgemm/kernels/sm80/epilogue.cuh -- a warp's accumulators -> shared memory (as the output type
// TC) -> C in global memory, in 16-byte stores, masked at the matrix edges (hgemm rung 02 on; the
// s32 sums of igemm rung 01 as int32).
#pragma once

#include "arch/sm80.cuh"
#include "sm80/mma.cuh"

namespace wg {
namespace sm80 {

// Each warp stages its WM x WN tile of C in its own region of shared memory, row-major, rows of
// WN*sizeof(TC) bytes = CPR 16-byte chunks. Chunk c of row r sits at chunk c ^ ((r % 8) * Q),
// Q = sizeof(TC) / 2 (the chunks one quad of lanes writes per mma tile):
//   writes: for one mma tile, lanes (g, t) write rows g = 0..7 of one (16-bit TC) or two (fp32,
//           int32) chunks; the XOR spreads the 8 rows over 8 bank groups: no conflict.
//   reads:  8 lanes read 8 consecutive chunks of one row, permuted: no conflict.
template <typename TC, int WM, int WN>
struct CStage {
    static constexpr int ROW_BYTES = WN * static_cast<int>(sizeof(TC));
    static constexpr int CPR = ROW_BYTES / 16;
    static constexpr int Q = static_cast<int>(sizeof(TC)) / 2;
    static constexpr int BYTES = WM * ROW_BYTES;
    static_assert(WN % 64 == 0, "the C staging tile needs WN to be a multiple of 64 (rows of at "
                                "least 128 bytes) to be free of bank conflicts");

    static __device__ __forceinline__ int offset(int r, int byte_col) {
        return r * ROW_BYTES + ((((byte_col >> 4) ^ ((r & 7) * Q))) << 4) + (byte_col & 15);
    }
};

// Write the warp's accumulators into its staging region, converted to TC.
template <typename TC, int WM, int WN, int MT, int NT>
__device__ __forceinline__ void stage_acc(unsigned char* stage, const float (&acc)[MT][NT][4], int lane) {
    using S = CStage<TC, WM, WN>;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = 16 * i + 8 * h + g;
                const int byte_col = (8 * j + 2 * t) * static_cast<int>(sizeof(TC));
                unsigned char* p = stage + S::offset(r, byte_col);
                if constexpr (same_type<TC, float>::value) {
                    *reinterpret_cast<float2*>(p) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                } else {
                    *reinterpret_cast<uint32_t*>(p) = pack2<TC>(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                }
            }
}

// The same for fp16 accumulators, which already are f16x2 pairs.
template <typename TC, int WM, int WN, int MT, int NT>
__device__ __forceinline__ void stage_acc(unsigned char* stage, const uint32_t (&acc)[MT][NT][2], int lane) {
    static_assert(same_type<TC, half_t>::value, "fp16 accumulators are written as fp16");
    using S = CStage<TC, WM, WN>;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                *reinterpret_cast<uint32_t*>(stage + S::offset(16 * i + 8 * h + g, (8 * j + 2 * t) * 2)) =
                    acc[i][j][h];
}

// The same for s32 sums (int8 inputs), written as they are.
template <typename TC, int WM, int WN, int MT, int NT>
__device__ __forceinline__ void stage_acc(unsigned char* stage, const int32_t (&acc)[MT][NT][4], int lane) {
    static_assert(same_type<TC, int32_t>::value, "s32 sums are written as int32");
    using S = CStage<TC, WM, WN>;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                *reinterpret_cast<int2*>(stage + S::offset(16 * i + 8 * h + g, (8 * j + 2 * t) * 4)) =
                    make_int2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
}

// Add bias[col] (N values of T, read once per column a lane holds) to the fp32 accumulators of a
// warp tile whose first column of C is col0: tile (i, j) holds columns col0 + 8j + 2t and + 1
// in d[0], d[2] and d[1], d[3]. Columns past N add nothing (and read nothing).
template <typename T, int MT, int NT>
__device__ __forceinline__ void add_bias(float (&acc)[MT][NT][4], const T* bias, int col0, int N, int lane) {
    const int t = lane & 3;
#pragma unroll
    for (int j = 0; j < NT; ++j) {
        const int col = col0 + 8 * j + 2 * t;
        const float b0 = col < N ? to_float(bias[col]) : 0.0f;
        const float b1 = col + 1 < N ? to_float(bias[col + 1]) : 0.0f;
#pragma unroll
        for (int i = 0; i < MT; ++i) {
            acc[i][j][0] += b0;
            acc[i][j][1] += b1;
            acc[i][j][2] += b0;
            acc[i][j][3] += b1;
        }
    }
}

// Whether 16-byte stores into C (M,N):(ldc,1) are aligned: a 16-byte aligned base and rows a
// multiple of 16 bytes apart. Uniform across the grid.
template <typename TC>
__device__ __forceinline__ bool c_rows_16B_aligned(const TC* C, int ldc) {
    return (static_cast<int64_t>(ldc) * static_cast<int64_t>(sizeof(TC))) % 16 == 0 &&
           reinterpret_cast<uint64_t>(C) % 16 == 0;
}

// Copy the warp's staged tile to C(row0.., col0..): 16 bytes per lane per store, rows and columns
// outside the M x N matrix skipped; element stores where a 16-byte store would be misaligned or
// would cross the N edge.
template <typename TC, int WM, int WN>
__device__ __forceinline__ void store_staged(TC* C, int ldc, int M, int N, int row0, int col0,
                                             const unsigned char* stage, int lane, bool vec_ok) {
    using S = CStage<TC, WM, WN>;
    constexpr int VEC = 16 / static_cast<int>(sizeof(TC));
#pragma unroll 4
    for (int c = lane; c < WM * S::CPR; c += 32) {
        const int r = c / S::CPR;
        const int cc = c % S::CPR;
        const int row = row0 + r;
        const int col = col0 + cc * VEC;
        if (row >= M) continue;
        const uint4 v = *reinterpret_cast<const uint4*>(stage + S::offset(r, cc * 16));
        TC* dst = C + static_cast<int64_t>(row) * ldc + col;
        if (vec_ok && col + VEC <= N) {
            *reinterpret_cast<uint4*>(dst) = v;
        } else {
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                if (col + e >= N) break;
                if constexpr (sizeof(TC) == 4) {
                    reinterpret_cast<uint32_t*>(dst)[e] = w[e];
                } else {
                    reinterpret_cast<uint16_t*>(dst)[e] = static_cast<uint16_t>(w[e / 2] >> (16 * (e % 2)));
                }
            }
        }
    }
}

// The whole epilogue of a warp: its accumulators (fp32, fp16 or s32) to C through shared memory.
// The caller has made sure no warp still reads the operand tiles that `smem` overlaps.
template <typename TC, int WM, int WN, typename Acc>
__device__ __forceinline__ void store_warp_tile(TC* C, int ldc, int M, int N, int row0, int col0,
                                                const Acc& acc, unsigned char* smem, int warp, int lane) {
    unsigned char* stage = smem + warp * CStage<TC, WM, WN>::BYTES;
    stage_acc<TC, WM, WN>(stage, acc, lane);
    __syncwarp();
    store_staged<TC, WM, WN>(C, ldc, M, N, row0, col0, stage, lane, c_rows_16B_aligned(C, ldc));
}

}  // namespace sm80
}  // namespace wg
