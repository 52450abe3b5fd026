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
#include "common/scaling.cuh"
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
    __device__ __forceinline__ void prepare(int, const Work&) {}
    __device__ __forceinline__ void finish(int) {}
};

// DirectEpilogue for s32 sums that are 2^SHIFT times the true ones (int4/06's s4, widened to 16
// times the values): each sum shifted back exactly (an arithmetic shift; the sums are multiples
// of 2^SHIFT) before the store. SHIFT = 0 is DirectEpilogue.
template <int SHIFT>
struct ShiftedS32Epilogue {
    int32_t* C;
    int ldc, M, N;

    template <int ACC>
    __device__ __forceinline__ void store(const int32_t (&d)[ACC], int consumer, const Work& w) {
        store_fragment<int32_t, ACC>(C, ldc, M, N, w.m0 + 64 * consumer, w.n0,
                                     [&](int i, int, int) { return d[i] >> SHIFT; });
    }
    __device__ __forceinline__ void prepare(int, const Work&) {}
    __device__ __forceinline__ void finish(int) {}
};

// The scaled epilogue of igemm rung 03. The per-column values of a tile (BN scales and BN bias
// values) are copied into shared memory with cp.async when the tile starts (prepare), so their
// latency hides behind the main loop; the epilogue reads them from there. Read from global memory
// at each element instead, each load waited behind the stores to C before it (the compiler may
// not move a load above a store that might alias it): 1.40x the plain kernel's time at 4096^3,
// 1.15x with the loads batched per 64 columns.
//
// `columns` is the shared-memory address of 2 * BN floats per consumer warpgroup (scale_b, then
// the bias), past the main loop's.
template <typename TC, int BN>
struct ScaledDirectEpilogue {
    static constexpr int FIRST_BARRIER = 7;  // 7, 8 (the split reduction uses 3, 4; the transposing copy 5, 6)

    TC* C;
    int ldc, M, N;
    Scaling s;
    uint32_t columns;

    __device__ __forceinline__ uint32_t scale_b_at(int consumer) const { return columns + consumer * 2 * BN * 4; }
    __device__ __forceinline__ uint32_t bias_at(int consumer) const { return scale_b_at(consumer) + BN * 4; }

    // Every thread of consumer warpgroup `consumer`, when its tile `w` starts: copy the tile's
    // column values (zeros past N and for a null bias), after every thread has read the last
    // tile's.
    __device__ __forceinline__ void prepare(int consumer, const Work& w) {
        cp_async_wait<0>();  // a split unit that stopped early left its copies unawaited
        named_barrier_sync(FIRST_BARRIER + consumer, 128);
        const int tid = threadIdx.x & 127;
#pragma unroll
        for (int i = tid; i < BN; i += 128) {
            const int col = w.n0 + i;
            const bool in = col < N;
            SM80_CP_ASYNC_CACHEALWAYS_ZFILL_4B::copy_to(scale_b_at(consumer) + 4 * i,
                                                        s.scale_b + (in ? col * s.scale_b_step : 0), in ? 4 : 0);
            SM80_CP_ASYNC_CACHEALWAYS_ZFILL_4B::copy_to(bias_at(consumer) + 4 * i,
                                                        s.bias != nullptr && in ? s.bias + col : s.scale_b,
                                                        s.bias != nullptr && in ? 4 : 0);
        }
        cp_async_commit();
    }

    // This thread's two row scales (fragment elements i with (i / 2) % 2 = h are in row
    // row0 + 16w + g + 8h), once the tile's column values have landed for every thread.
    __device__ __forceinline__ void row_scales(int consumer, int row0, float (&sa)[2]) const {
        const int first = row0 + 16 * ((threadIdx.x >> 5) & 3) + ((threadIdx.x & 31) >> 2);
#pragma unroll
        for (int h = 0; h < 2; ++h)
            sa[h] = first + 8 * h < M ? __ldg(s.scale_a + (first + 8 * h) * s.scale_a_step) : 0.0f;
        cp_async_wait<0>();
        named_barrier_sync(FIRST_BARRIER + consumer, 128);  // every thread's copies have landed
    }

    template <int ACC>
    __device__ __forceinline__ void store(const int32_t (&d)[ACC], int consumer, const Work& w) {
        static_assert(ACC / 4 * 8 == BN, "the fragment holds BN columns");
        const int row0 = w.m0 + 64 * consumer;
        float sa[2];
        row_scales(consumer, row0, sa);
        const uint32_t sb = scale_b_at(consumer), bb = bias_at(consumer);
        store_fragment<TC, ACC>(C, ldc, M, N, row0, w.n0, [&](int i, int, int col) {
            const int at = 4 * (col - w.n0);
            return static_cast<float>(d[i]) * sa[(i >> 1) & 1] * ld_volatile_shared_f32(sb + at) +
                   ld_volatile_shared_f32(bb + at);
        });
    }
    __device__ __forceinline__ void finish(int) {}
};

// The swap-AB store: the accumulators are a tile of D = C^T (D's rows are C's columns, the
// weight's rows; D's columns are C's rows, the tokens), so D(r, c) goes to C[c * ldc + r].
// value(i, r, c) gives fragment element i, which belongs at D(r, c), in fp32 (rounded once to TC)
// or s32 (stored as it is). `rows` x `cols` is D's shape (N x M of C). Lanes g = 0..7 of a store
// write 8 consecutive elements of one row of C (32 bytes for s32): C is small next to the weight
// at decode sizes (M <= 64 rows), and a whole sector at any size.
template <typename TC, int ACC, typename Value>
__device__ __forceinline__ void store_fragment_transposed(TC* C, int ldc, int rows, int cols, int row0, int col0,
                                                          Value value) {
    const int lane = threadIdx.x & 31;
    const int warp = (threadIdx.x >> 5) & 3;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int j = 0; j < ACC / 4; ++j) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const int col = col0 + 8 * j + 2 * t + e;
            if (col >= cols) continue;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + 16 * warp + g + 8 * h;
                if (row < rows) C[static_cast<int64_t>(col) * ldc + row] = to_output<TC>(value(4 * j + 2 * h + e, row, col));
            }
        }
    }
}

// The sums (+ the bias, one value of T per row of D, fp32 sums only) transposed into C.
template <typename TC, typename T, typename Acc, int ACC>
__device__ __forceinline__ void store_direct_transposed(TC* C, int ldc, int rows, int cols, int row0, int col0,
                                                        const Acc (&d)[ACC], const T* bias) {
    Acc b[2] = {Acc(0), Acc(0)};  // this thread's two rows of D: row0 + 16 warp + g + 8 h
    if constexpr (!same_type<Acc, int32_t>::value) {
        const int first = row0 + 16 * ((threadIdx.x >> 5) & 3) + ((threadIdx.x & 31) >> 2);
#pragma unroll
        for (int h = 0; h < 2; ++h)
            if (bias != nullptr && first + 8 * h < rows) b[h] = sm80::to_float(bias[first + 8 * h]);
    }
    store_fragment_transposed<TC, ACC>(C, ldc, rows, cols, row0, col0,
                                       [&](int i, int, int) { return d[i] + b[(i >> 1) & 1]; });
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
    __device__ __forceinline__ void prepare(int, const Work&) {}
    __device__ __forceinline__ void finish(int) {}
};

// The scaled store of a swap-AB int8 kernel (W8A8 decode, igemm rung 06): the tile is one of
// D = C^T, whose rows are the weight's (C's columns: scale_b and the bias per row of D) and whose
// columns are the tokens (C's rows: scale_a per column of D). D(r, c) = s32 sum * scale_b[r] *
// scale_a[c] + bias[r], in fp32, rounded once to TC and stored at C[c * ldc + r]. The scales
// come as in ScaledDirectEpilogue (step 0: one value, 1: one per row or column).
//
// A thread's scales and bias (2 rows of D, 2 * COLS / 8 columns) are loaded into registers by
// prepare(), when the unit starts, so their global-memory latency passes under the main loop: at
// decode sizes the main loop is one short read of the weight, and loads issued after it would
// hold the tile's store back by a memory round trip.
template <typename TC, int COLS>
struct ScaledTransposedEpilogue {
    static_assert(COLS % 8 == 0 && COLS <= 64, "COLS (the tile's columns, BN) is a multiple of 8, at most 64");
    TC* C;
    int ldc, rows, cols;  // D's shape: N x M of C
    Scaling s;
    float sb[2], bb[2];      // rows first and first + 8 (fragment elements i with (i / 2) % 2 = h)
    float sa[COLS / 8][2];   // columns n0 + 8 j + 2 t + e

    __device__ __forceinline__ void prepare(int consumer, const Work& w) {
        const int first = w.m0 + 64 * consumer + 16 * ((threadIdx.x >> 5) & 3) + ((threadIdx.x & 31) >> 2);
        const int t = threadIdx.x & 3;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = first + 8 * h;
            sb[h] = row < rows ? __ldg(s.scale_b + row * s.scale_b_step) : 0.0f;
            bb[h] = (s.bias != nullptr && row < rows) ? __ldg(s.bias + row) : 0.0f;
        }
#pragma unroll
        for (int j = 0; j < COLS / 8; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int col = w.n0 + 8 * j + 2 * t + e;
                sa[j][e] = col < cols ? __ldg(s.scale_a + col * s.scale_a_step) : 0.0f;
            }
    }

    template <int ACC>
    __device__ __forceinline__ void store(const int32_t (&d)[ACC], int consumer, const Work& w) {
        static_assert(ACC / 4 * 8 == COLS, "the fragment holds COLS columns");
        store_fragment_transposed<TC, ACC>(C, ldc, rows, cols, w.m0 + 64 * consumer, w.n0, [&](int i, int, int) {
            const int h = (i >> 1) & 1;
            return static_cast<float>(d[i]) * sa[i / 4][i & 1] * sb[h] + bb[h];
        });
    }
    __device__ __forceinline__ void finish(int) {}
};

}  // namespace sm90
}  // namespace wg
