// warpgemm/kernels/sm90/epilogue_direct.cuh -- a warpgroup's 64 x BN accumulators (+ bias) straight
// from registers to C in global memory, masked at the matrix edges (hopper rungs 01-05; rung 06
// goes through shared memory and a TMA store instead), or to C^T for a swap-AB kernel (decode
// rung 02).
//
// Thread (warp w, lane 4g + t) holds d[4j + 2h + e] = C(16w + g + 8h, 8j + 2t + e) of the
// warpgroup's tile: two adjacent columns per row, stored as one 2-element vector where C's rows
// allow it (ldc even and C aligned), else one element at a time.
#pragma once

#include "arch/sm90.cuh"
#include "sm80/mma.cuh"
#include "sm90/tile_scheduler.cuh"

namespace wg {
namespace sm90 {

// One sum in C's type: fp32 sums rounded once, s32 sums (8-bit wgmma) stored exactly.
template <typename TC, typename Acc>
__device__ __forceinline__ TC to_output(Acc v) {
    if constexpr (same_type<Acc, int32_t>::value) {
        static_assert(same_type<TC, int32_t>::value, "s32 sums are stored as int32");
        return v;
    } else {
        return sm80::from_float<TC>(v);
    }
}

// A warpgroup's 64 x (4 * J) fragment of C to global memory, masked at the edges: value(i, row, col)
// gives fragment element i, which belongs at C(row, col), in the type it is stored from (fp32
// or s32). Pairs of adjacent columns go as one vector where C's rows allow it.
// J0 .. J0 + JN - 1 select a band of the fragment's 8-column groups (default: all of them).
template <typename TC, int ACC, typename Value, int J0 = 0, int JN = ACC / 4>
__device__ __forceinline__ void store_fragment(TC* C, int ldc, int M, int N, int row0, int col0, Value value) {
    const int lane = threadIdx.x & 31;
    const int warp = (threadIdx.x >> 5) & 3;
    const int g = lane >> 2;
    const int t = lane & 3;
    const bool pairs = (ldc % 2 == 0) && (reinterpret_cast<uint64_t>(C) % (2 * sizeof(TC)) == 0);
#pragma unroll
    for (int j = J0; j < J0 + JN; ++j) {
        const int col = col0 + 8 * j + 2 * t;
        if (col >= N) continue;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 16 * warp + g + 8 * h;
            if (row >= M) continue;
            const auto v0 = value(4 * j + 2 * h, row, col);
            const auto v1 = value(4 * j + 2 * h + 1, row, col + 1);
            TC* p = C + static_cast<int64_t>(row) * ldc + col;
            if (pairs && col + 1 < N) {
                if constexpr (same_type<TC, float>::value) *reinterpret_cast<float2*>(p) = make_float2(v0, v1);
                else if constexpr (same_type<TC, int32_t>::value) *reinterpret_cast<int2*>(p) = make_int2(v0, v1);
                else *reinterpret_cast<uint32_t*>(p) = sm80::pack2<TC>(v0, v1);
            } else {
                p[0] = to_output<TC>(v0);
                if (col + 1 < N) p[1] = to_output<TC>(v1);
            }
        }
    }
}

// The sums (+ the bias, one value of T per column, fp32 sums only).
template <typename TC, typename T, typename Acc, int ACC>
__device__ __forceinline__ void store_direct(TC* C, int ldc, int M, int N, int row0, int col0,
                                             const Acc (&d)[ACC], const T* bias) {
    if constexpr (same_type<Acc, int32_t>::value) {  // integer GEMM takes no bias here
        store_fragment<TC, ACC>(C, ldc, M, N, row0, col0, [&](int i, int, int) { return d[i]; });
    } else {
        store_fragment<TC, ACC>(C, ldc, M, N, row0, col0, [&](int i, int, int col) {
            return bias != nullptr && col < N ? d[i] + sm80::to_float(bias[col]) : d[i];
        });
    }
}

// The epilogue of warp_specialized_roles (sm90/warp_specialized_roles.cuh) that stores with
// store_direct: consumer warpgroup w holds rows 64 w .. 64 w + 63 of the tile.
template <typename TC, typename T>
struct DirectEpilogue {
    TC* C;
    int ldc, M, N;
    const T* bias;

    template <typename Acc, int ACC>
    __device__ __forceinline__ void store(const Acc (&d)[ACC], int consumer, const Work& w) {
        store_direct(C, ldc, M, N, w.m0 + 64 * consumer, w.n0, d, bias);
    }
    __device__ __forceinline__ void finish(int) {}
};

// The scaled int8 epilogue (W8A8, igemm rung 03): C = s32 sum * scale_a[row] * scale_b[col] +
// bias[col], in fp32, rounded once to TC. A scale given as one value has step 0, one per row of
// A (per token) or per column of B (per channel) step 1; the bias may be null.
//
// The per-column values are read BAND groups of 8 columns at a time, all loads of a band issued
// before its first store: read at each element instead, every load waited out its latency behind
// the stores to C before it (the compiler cannot move a load of scale_b above a store that might
// alias it), and the epilogue took 0.4x of the plain kernel's time again at 4096^3.
template <typename TC>
struct ScaledDirectEpilogue {
    static constexpr int BAND = 8;  // 8-column groups whose scales and bias are in registers at once

    TC* C;
    int ldc, M, N;
    const float* scale_a;
    int scale_a_step;
    const float* scale_b;
    int scale_b_step;
    const float* bias;

    template <int ACC>
    __device__ __forceinline__ void store(const int32_t (&d)[ACC], int consumer, const Work& w) {
        static_assert((ACC / 4) % BAND == 0, "the tile's 8-column groups come in bands of BAND");
        const int row0 = w.m0 + 64 * consumer;
        const int first = row0 + 16 * ((threadIdx.x >> 5) & 3) + ((threadIdx.x & 31) >> 2);
        const int t = threadIdx.x & 3;
        float sa[2];  // this thread's two rows (fragment elements i with (i / 2) % 2 = h are row first + 8 h)
#pragma unroll
        for (int h = 0; h < 2; ++h) sa[h] = first + 8 * h < M ? __ldg(scale_a + (first + 8 * h) * scale_a_step) : 0.0f;
        store_band<0>(d, row0, w.n0, t, sa);
    }
    __device__ __forceinline__ void finish(int) {}

  private:
    template <int J0, int ACC>
    __device__ __forceinline__ void store_band(const int32_t (&d)[ACC], int row0, int col0, int t,
                                               const float (&sa)[2]) {
        float sb[BAND][2], bb[BAND][2];  // columns col0 + 8 (J0 + j) + 2 t + e
#pragma unroll
        for (int j = 0; j < BAND; ++j) {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int col = col0 + 8 * (J0 + j) + 2 * t + e;
                sb[j][e] = col < N ? __ldg(scale_b + col * scale_b_step) : 0.0f;
                bb[j][e] = (bias != nullptr && col < N) ? __ldg(bias + col) : 0.0f;
            }
        }
        auto value = [&](int i, int, int) {
            const int j = i / 4 - J0, e = i & 1;
            return static_cast<float>(d[i]) * sa[(i >> 1) & 1] * sb[j][e] + bb[j][e];
        };
        store_fragment<TC, ACC, decltype(value), J0, BAND>(C, ldc, M, N, row0, col0, value);
        if constexpr (J0 + BAND < ACC / 4) store_band<J0 + BAND>(d, row0, col0, t, sa);
    }
};

// The swap-AB store: the accumulators are a tile of D = C^T (D's rows are C's columns, the
// weight's rows; D's columns are C's rows, the tokens), so D(r, c) goes to C[c * ldc + r] and the
// bias is one value per row of D (fp32 sums only; s32 sums are stored as they are). `rows` x
// `cols` is D's shape (N x M of C). Lanes g = 0..7 of a store write 8 consecutive elements of one
// row of C (32 bytes for s32): C is small next to the weight at decode sizes (M <= 64 rows), and
// a whole sector at any size.
template <typename TC, typename T, typename Acc, int ACC>
__device__ __forceinline__ void store_direct_transposed(TC* C, int ldc, int rows, int cols, int row0, int col0,
                                                        const Acc (&d)[ACC], const T* bias) {
    const int lane = threadIdx.x & 31;
    const int warp = (threadIdx.x >> 5) & 3;
    const int g = lane >> 2;
    const int t = lane & 3;
    Acc b[2] = {Acc(0), Acc(0)};
    if constexpr (!same_type<Acc, int32_t>::value) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 16 * warp + g + 8 * h;
            if (bias != nullptr && row < rows) b[h] = sm80::to_float(bias[row]);
        }
    }
#pragma unroll
    for (int j = 0; j < ACC / 4; ++j) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int col = col0 + 8 * j + 2 * t + e;
            if (col >= cols) continue;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + 16 * warp + g + 8 * h;
                if (row < rows) C[static_cast<int64_t>(col) * ldc + row] = to_output<TC>(d[4 * j + 2 * h + e] + b[h]);
            }
        }
    }
}

// DirectEpilogue for a swap-AB kernel: the tile is one of C^T, M x N here being C's N x M.
template <typename TC, typename T>
struct TransposedDirectEpilogue {
    TC* C;
    int ldc, M, N;
    const T* bias;

    template <typename Acc, int ACC>
    __device__ __forceinline__ void store(const Acc (&d)[ACC], int consumer, const Work& w) {
        store_direct_transposed(C, ldc, M, N, w.m0 + 64 * consumer, w.n0, d, bias);
    }
    __device__ __forceinline__ void finish(int) {}
};

// The scaled store of a swap-AB int8 kernel (W8A8 decode, igemm rung 06): the tile is one of
// D = C^T, whose rows are the weight's (C's columns: scale_b and the bias per row of D) and whose
// columns are the tokens (C's rows: scale_a per column of D). D(r, c) = s32 sum * scale_b[r] *
// scale_a[c] + bias[r], in fp32, rounded once to TC and stored at C[c * ldc + r]. The scales
// come as in ScaledDirectEpilogue (step 0: one value, 1: one per row or column).
template <typename TC>
struct ScaledTransposedEpilogue {
    TC* C;
    int ldc, rows, cols;  // D's shape: N x M of C
    const float* scale_a;
    int scale_a_step;
    const float* scale_b;
    int scale_b_step;
    const float* bias;

    template <int ACC>
    __device__ __forceinline__ void store(const int32_t (&d)[ACC], int consumer, const Work& w) {
        const int lane = threadIdx.x & 31;
        const int g = lane >> 2;
        const int t = lane & 3;
        const int row0 = w.m0 + 64 * consumer + 16 * ((threadIdx.x >> 5) & 3) + g;
        float sb[2], bb[2];  // rows row0 and row0 + 8
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = row0 + 8 * h;
            sb[h] = row < rows ? __ldg(scale_b + row * scale_b_step) : 0.0f;
            bb[h] = (bias != nullptr && row < rows) ? __ldg(bias + row) : 0.0f;
        }
        float sa[ACC / 4][2];  // columns w.n0 + 8 j + 2 t + e: at most 16 (BN <= 64)
#pragma unroll
        for (int j = 0; j < ACC / 4; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int col = w.n0 + 8 * j + 2 * t + e;
                sa[j][e] = col < cols ? __ldg(scale_a + col * scale_a_step) : 0.0f;
            }
#pragma unroll
        for (int j = 0; j < ACC / 4; ++j) {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int col = w.n0 + 8 * j + 2 * t + e;
                if (col >= cols) continue;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int row = row0 + 8 * h;
                    if (row < rows) {
                        const float x = static_cast<float>(d[4 * j + 2 * h + e]) * sa[j][e] * sb[h] + bb[h];
                        C[static_cast<int64_t>(col) * ldc + row] = sm80::from_float<TC>(x);
                    }
                }
            }
        }
    }
    __device__ __forceinline__ void finish(int) {}
};

}  // namespace sm90
}  // namespace wg
