// warpgemm/kernels/sm80/row_sweep.cuh -- the row sweep's body (decode/03_row_sweep): C = A @ W^T for
// up to 8 tokens, the grid reading W from its first row to its last, a row a block, in fp32 FMA.
// decode/03_row_sweep.cu says why; its launch comment says how to launch it.
#pragma once

#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "sm80/mma.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "arch/sm90.cuh"
#endif

namespace wg {
namespace row_sweep {

// Two 16-bit floats of type T packed in a b32 (element 2i in the low half), widened to fp32 by
// sm80::to_float.
template <typename T>
__device__ __forceinline__ void widen2(uint32_t v, float& lo, float& hi) {
    lo = sm80::to_float(T{static_cast<uint16_t>(v & 0xffffu)});
    hi = sm80::to_float(T{static_cast<uint16_t>(v >> 16)});
}

// sum += the dot product of two 16-byte vectors of 8 elements of T, in fp32.
template <typename T>
__device__ __forceinline__ void dot8(float& sum, const uint4& w, const float (&x)[8]) {
    const uint32_t words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float lo, hi;
        widen2<T>(words[i], lo, hi);
        sum = fmaf(lo, x[2 * i], sum);
        sum = fmaf(hi, x[2 * i + 1], sum);
    }
}

template <typename T>
__device__ __forceinline__ void widen8(const uint4& v, float (&f)[8]) {
    const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) widen2<T>(words[i], f[2 * i], f[2 * i + 1]);
}

// The body: block b of the grid's G takes rows b + G j of W, ROWS a pass, its threads a row's
// 16-byte vectors in turn; each row's sum over the block in a fixed order; C(m, row) = sum + bias.
template <typename T, typename TC, int TOKENS, int THREADS, int ROWS, int UNROLL, int L2_256B>
__device__ __forceinline__ void sweep(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M,
                                      int N, int K, int lda, int ldb, int ldc, const T* __restrict__ bias) {
    constexpr int WARPS = THREADS / 32;
    constexpr int SUMS = ROWS * TOKENS;
    __shared__ float partial[WARPS][SUMS];  // (SUMS, WARPS):(1, SUMS), one sum per warp

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int G = gridDim.x;
    const int vectors = K / 8;  // whole 16-byte vectors a row; the rest, K % 8 elements, one by one
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    griddepcontrol_wait();
    griddepcontrol_launch_dependents();
#endif

    // A pass: this block's ROWS rows base + G j, j < ROWS.
    for (int base = blockIdx.x; base < N; base += G * ROWS) {
        float sum[ROWS][TOKENS];
#pragma unroll
        for (int j = 0; j < ROWS; ++j)
#pragma unroll
            for (int m = 0; m < TOKENS; ++m) sum[j][m] = 0.0f;

#pragma unroll
        for (int j0 = 0; j0 < ROWS; j0 += UNROLL) {
            for (int v = threadIdx.x; v < vectors; v += THREADS) {
                uint4 w[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; ++u) {
                    const int row = base + G * (j0 + u);
                    const T* p = B + static_cast<long long>(row < N ? row : 0) * ldb + 8 * v;
                    w[u] = row < N ? (L2_256B ? ld_global_nc_na_l2_256_v4(p) : ld_global_nc_na_v4(p))
                                   : make_uint4(0u, 0u, 0u, 0u);
                }
#pragma unroll
                for (int m = 0; m < TOKENS; ++m) {
                    if (m >= M) continue;  // uniform: the launch's token count
                    float x[8];
                    widen8<T>(ld_global_nc_v4(A + static_cast<long long>(m) * lda + 8 * v), x);
#pragma unroll
                    for (int u = 0; u < UNROLL; ++u) dot8<T>(sum[j0 + u][m], w[u], x);
                }
            }
        }
        if (K % 8 && threadIdx.x == vectors % THREADS) {  // the last, partial vector of each row
#pragma unroll
            for (int j = 0; j < ROWS; ++j) {
                const int row = base + G * j;
                if (row >= N) continue;
#pragma unroll
                for (int m = 0; m < TOKENS; ++m) {
                    if (m >= M) continue;
                    for (int k = 8 * vectors; k < K; ++k)
                        sum[j][m] = fmaf(sm80::to_float(B[static_cast<long long>(row) * ldb + k]),
                                         sm80::to_float(A[static_cast<long long>(m) * lda + k]), sum[j][m]);
                }
            }
        }

        // Each sum over the block: the warp's lanes by shuffles, then the warps in order.
#pragma unroll
        for (int j = 0; j < ROWS; ++j)
#pragma unroll
            for (int m = 0; m < TOKENS; ++m) {
                float s = sum[j][m];
#pragma unroll
                for (int d = 16; d >= 1; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
                if (lane == 0) partial[warp][j * TOKENS + m] = s;
            }
        __syncthreads();
        for (int q = threadIdx.x; q < SUMS; q += THREADS) {
            const int j = q / TOKENS, m = q % TOKENS;
            const int row = base + G * j;
            if (row < N && m < M) {
                float s = 0.0f;
                for (int w = 0; w < WARPS; ++w) s += partial[w][q];
                if (bias != nullptr) s += sm80::to_float(bias[row]);
                C[static_cast<long long>(m) * ldc + row] = sm80::from_float<TC>(s);
            }
        }
        __syncthreads();  // partial is written again by the next pass
    }
}

}  // namespace row_sweep
}  // namespace wg

