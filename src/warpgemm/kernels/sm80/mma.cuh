// warpgemm/kernels/sm80/mma.cuh -- a warp's tile of mma.sync m16n8k16 (m16n8k32 for int8): the
// atom for each element type, the operand fragments of one k step, the accumulator tile, and the
// orders in which a warp issues its MT x NT mma (row by row, hgemm rung 02; zig-zag, rung 06's
// idea).
#pragma once

#include "arch/sm80.cuh"
#include "common/util.cuh"

namespace wg {
namespace sm80 {

// Two fp32 values -> one b32 of two 16-bit floats of type TC (`lo` in the low half).
template <typename TC>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
    static_assert(is_16bit_float<TC>, "pack2 makes two 16-bit floats");
    if constexpr (same_type<TC, half_t>::value) return cvt_f16x2(lo, hi);
    else return cvt_bf16x2(lo, hi);
}

// One element of T (half_t, bf16_t or float) as a float, and a float rounded to nearest as T.
__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(half_t x) { return cvt_f32_f16(x.bits); }
__device__ __forceinline__ float to_float(bf16_t x) { return __uint_as_float(static_cast<uint32_t>(x.bits) << 16); }

template <typename T>
__device__ __forceinline__ T from_float(float x) {
    static_assert(is_16bit_float<T> || same_type<T, float>::value, "from_float makes half_t, bf16_t or float");
    if constexpr (same_type<T, float>::value) return x;
    else if constexpr (same_type<T, half_t>::value) return T{cvt_f16_f32(x)};
    else return T{cvt_bf16_f32(x)};
}

// The m16n8k16 atom for inputs T (half_t or bf16_t) and one tile's accumulators Acc: float[4]
// (fp32) or uint32_t[2] (f16x2 pairs; fp16 inputs only).
template <typename T, typename Acc>
struct Mma16x8x16 {
    static_assert(sizeof(T) == 0, "no m16n8k16 mma for these types: T is half_t or bf16_t, the "
                                  "accumulator float[4] (or uint32_t[2] f16x2 pairs with half_t)");
};
template <> struct Mma16x8x16<half_t, float[4]> : SM80_16x8x16_F32F16F16F32_TN {};
template <> struct Mma16x8x16<bf16_t, float[4]> : SM80_16x8x16_F32BF16BF16F32_TN {};
template <> struct Mma16x8x16<half_t, uint32_t[2]> : SM80_16x8x16_F16F16F16F16_TN {};

// The m16n8 atom of one k step: m16n8k16 for 16-bit inputs, m16n8k32 with s32 sums for int8. The
// operand fragments are the same four and two b32 registers either way (32 bytes of k a row).
template <typename T, typename Acc>
struct MmaStep : Mma16x8x16<T, Acc> {};
template <> struct MmaStep<int8_t, int32_t[4]> : SM80_16x8x32_S32S8S8S32_TN {};

// The operand fragments of one k step of a warp tile: MT m16 tiles of A, NT n8 tiles of B.
template <int MT, int NT>
struct Fragments {
    uint32_t a[MT][4];
    uint32_t b[NT][2];
};

// fp32 accumulators: float[MT][NT][4]; fp16 accumulators: uint32_t[MT][NT][2] (f16x2 pairs).
template <bool F16_ACC, int MT, int NT>
using AccTile = typename pick<F16_ACC, uint32_t[MT][NT][2], float[MT][NT][4]>::type;

// The accumulator tile for inputs T: s32 sums int32_t[MT][NT][4] for int8, else AccTile.
template <typename T, bool F16_ACC, int MT, int NT>
using AccTileOf = typename pick<same_type<T, int8_t>::value, int32_t[MT][NT][4], AccTile<F16_ACC, MT, NT>>::type;

// Zero a tile of fp32 accumulators (R per mma tile: 4 for mma.sync m16n8, 8 for a wmma fragment).
template <int MT, int NT, int R>
__device__ __forceinline__ void zero(float (&acc)[MT][NT][R]) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < R; ++r) acc[i][j][r] = 0.0f;
}

template <int MT, int NT>
__device__ __forceinline__ void zero(int32_t (&acc)[MT][NT][4]) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0;
}

template <int MT, int NT>
__device__ __forceinline__ void zero(uint32_t (&acc)[MT][NT][2]) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) acc[i][j][0] = acc[i][j][1] = 0u;
}

// The MT x NT mma of one k step, row by row (i outer, j inner), left to right.
template <typename T, typename Acc, int MT, int NT>
__device__ __forceinline__ void mma_rows(Acc (&acc)[MT][NT], const Fragments<MT, NT>& f) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) MmaStep<T, Acc>::fma(acc[i][j], f.a[i], f.b[j]);
}

// Row i of the MT x NT mma of one k step in zig-zag order ("right left right left"): even rows
// left to right, odd rows right to left. Consecutive mma then share an operand at every turn
// (the B fragment at the end of a row is the first one of the next), which the register reuse
// cache can serve instead of the register file.
template <typename T, typename Acc, int MT, int NT>
__device__ __forceinline__ void mma_row_zigzag(Acc (&acc)[MT][NT], int i, const uint32_t (&a)[4],
                                               const uint32_t (&b)[NT][2]) {
#pragma unroll
    for (int jj = 0; jj < NT; ++jj) {
        const int j = (i & 1) ? NT - 1 - jj : jj;
        MmaStep<T, Acc>::fma(acc[i][j], a, b[j]);
    }
}

}  // namespace sm80
}  // namespace wg
