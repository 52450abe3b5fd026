// warpgemm/kernels/common/ffma_tile.cuh -- the register side of the FFMA SGEMM ladder: which
// part of C a thread owns, how it reads its operand fragments from shared memory, and the outer
// product that accumulates them. Used by sgemm/04..07; rung 04's header explains the idea.
#pragma once

#include "common/tile_io.cuh"

namespace wg {

// The minimum blocks per SM that the FFMA kernels ask of __launch_bounds__: as many as keep each
// thread at or under 128 registers of the 64K-register file (2 blocks of 256 threads). An 8 x 8
// thread tile with its fragments and staged chunks fits in that without spilling, and two
// resident blocks let one block's FFMAs cover the other's barrier.
__host__ __device__ constexpr int ffma_min_blocks(int threads) {
    return threads >= 512 ? 1 : 512 / threads;
}

// The block of the split-thread-tile rungs (04-07): a (BM/TM) x (BN/TN) grid of threads, each
// owning a TM x TN tile of C split 2 x 2. Naming a member instantiates it, which checks the shape.
template <int BM, int BN, int TM, int TN>
struct SplitTileBlock {
    static_assert(BM % TM == 0 && BN % TN == 0, "BM must be a multiple of TM and BN of TN");
    static constexpr int TY = BM / TM, TX = BN / TN, THREADS = TY * TX;
    static_assert(THREADS % 32 == 0 && THREADS <= 1024,
                  "(BM/TM) * (BN/TN) threads must be whole warps, at most 1024");
    static_assert(TM % 4 == 0 && TN % 4 == 0,
                  "TM and TN must be multiples of 4: each half of a split fragment is a float2 "
                  "or float4 run");
};

// acc[i][j] += a[i] * b[j]: TM * TN independent FFMAs, the whole arithmetic of one k-step.
template <int TM, int TN>
__device__ __forceinline__ void outer_product_accumulate(float (&acc)[TM][TN], const float (&a)[TM],
                                                         const float (&b)[TN]) {
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = __fmaf_rn(a[i], b[j], acc[i][j]);
}

// N consecutive floats of shared memory into registers, with the widest aligned vector loads
// (src must be aligned to 16 bytes when N % 4 == 0, to 8 bytes when N % 2 == 0).
template <int N>
__device__ __forceinline__ void load_smem_run(float* dst, const float* src) {
    if constexpr (N % 4 == 0) {
#pragma unroll
        for (int i = 0; i < N; i += 4) {
            const float4 v = *reinterpret_cast<const float4*>(src + i);
            dst[i + 0] = v.x; dst[i + 1] = v.y; dst[i + 2] = v.z; dst[i + 3] = v.w;
        }
    } else if constexpr (N % 2 == 0) {
#pragma unroll
        for (int i = 0; i < N; i += 2) {
            const float2 v = *reinterpret_cast<const float2*>(src + i);
            dst[i + 0] = v.x; dst[i + 1] = v.y;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) dst[i] = src[i];
    }
}

// ---------------------------------------------------------------------------------------------
// The split thread tile
// ---------------------------------------------------------------------------------------------
//
// A block's (BM/TM) x (BN/TN) threads each own a TM x TN tile of the block's BM x BN tile of C.
// The tile is split into 2 x 2 blocks of (TM/2) x (TN/2); thread (ty, tx) owns
//     rows  ty*TM/2 + [0, TM/2)   and   BM/2 + ty*TM/2 + [0, TM/2)
//     cols  tx*TN/2 + [0, TN/2)   and   BN/2 + tx*TN/2 + [0, TN/2)
// so that at one k its A fragment is two float4 runs (TM = 8) of an mn-major shared tile, BM/2
// floats apart, and likewise for B. Each warp is a 4 x 8 patch of the thread grid (ty = 4 rows,
// tx = 8 columns): per float4 read, the warp's 32 lanes touch only 4 distinct A runs (64 bytes)
// and 8 distinct B runs (128 contiguous bytes), each a single conflict-free wavefront whose
// repeated addresses are broadcast.

template <int TY, int TX>
struct SplitThreadGrid {
    static_assert(TY % 4 == 0 && TX % 8 == 0,
                  "the thread grid (BM/TM) x (BN/TN) must tile into 4 x 8 warps: "
                  "BM/TM a multiple of 4 and BN/TN a multiple of 8");
    int ty, tx;
    __device__ __forceinline__ explicit SplitThreadGrid(int tid) {
        constexpr int WARPS_X = TX / 8;
        const int warp = tid / 32, lane = tid % 32;
        ty = (warp / WARPS_X) * 4 + lane / 8;
        tx = (warp % WARPS_X) * 8 + lane % 8;
    }
};

// The T values of a thread's split fragment at k, from the mn-major shared tile s (layout Smem):
// f[0, T/2) = s(t*T/2 + [0, T/2), k) and f[T/2, T) = s(TILE/2 + t*T/2 + [0, T/2), k).
template <int T, class Smem>
__device__ __forceinline__ void load_split_fragment(float (&f)[T], const float* s, int t, int k) {
    static_assert(Smem::mn_stride == 1 && Smem::k_stride % 4 == 0,
                  "split fragments are read as vectors along mn: the shared tile must be mn-major "
                  "with k-rows a multiple of 4 floats apart");
    static_assert(T % 2 == 0 && Smem::tile_mn % (2 * T) == 0,
                  "TM and TN must be even and divide BM/2 and BN/2");
    constexpr int HALF = T / 2;
    load_smem_run<HALF>(f, s + Smem::offset(t * HALF, k));
    load_smem_run<HALF>(f + HALF, s + Smem::offset(Smem::tile_mn / 2 + t * HALF, k));
}

// k-steps [K_BEGIN, K_END) of one shared slice: per k, read the split fragments of thread
// (ty, tx) and do TM * TN FFMAs.
template <int K_BEGIN, int K_END, class SmemA, class SmemB, int TM, int TN>
__device__ __forceinline__ void accumulate_steps(float (&acc)[TM][TN], const float* As,
                                                 const float* Bs, int ty, int tx) {
#pragma unroll
    for (int k = K_BEGIN; k < K_END; ++k) {
        float a[TM], b[TN];
        load_split_fragment<TM, SmemA>(a, As, ty, k);
        load_split_fragment<TN, SmemB>(b, Bs, tx, k);
        outer_product_accumulate(acc, a, b);
    }
}

// All BK k-steps of one shared slice.
template <class SmemA, class SmemB, int TM, int TN>
__device__ __forceinline__ void accumulate_slice(float (&acc)[TM][TN], const float* As,
                                                 const float* Bs, int ty, int tx) {
    accumulate_steps<0, SmemA::bk, SmemA, SmemB>(acc, As, Bs, ty, tx);
}

// Store the split tile of thread (ty, tx) into C, the block's tile being at (m0, n0).
template <int BM, int BN, int TM, int TN>
__device__ __forceinline__ void store_split_tile(float* __restrict__ C, int ldc, int M, int N,
                                                 int m0, int n0, int ty, int tx,
                                                 const float (&acc)[TM][TN]) {
    constexpr int HM = TM / 2, HN = TN / 2;
    const bool float4_ok = c_rows_float4_aligned(C, ldc);
    const int row = m0 + ty * HM, col = n0 + tx * HN;
    store_c_block<0, 0, HM, HN>(C, ldc, M, N, row, col, acc, float4_ok);
    store_c_block<0, HN, HM, HN>(C, ldc, M, N, row, col + BN / 2, acc, float4_ok);
    store_c_block<HM, 0, HM, HN>(C, ldc, M, N, row + BM / 2, col, acc, float4_ok);
    store_c_block<HM, HN, HM, HN>(C, ldc, M, N, row + BM / 2, col + BN / 2, acc, float4_ok);
}

}  // namespace wg
