// decode/03_row_sweep.cu -- the small-M kernel for a few tokens that reads W the way the fastest
// pure read does: the grid sweeps W from its first row to its last.
//
// Rung 01 gives each block 16 rows of W and walks them over k, so that at any moment the grid reads
// a few columns of every row. A kernel that only reads W (scripts/read_floor.py) reads it fastest
// when at every step the whole grid reads one contiguous stretch of it: at 1 x 4096 x 4096 bf16
// on an H100, 12.3 us against 13.4 us for rung 01's walk alone (docs/decode.md, "The read
// floor"). This rung is that sweep with the arithmetic added:
//   * the grid is as many blocks as fit on the GPU at once, G (a persistent grid). Block b owns
//     rows b, b + G, b + 2G, ... of W, so that in step j the grid reads rows jG .. jG + G - 1, a
//     contiguous stretch of W, with UNROLL steps in flight;
//   * a row is read by the whole block: thread t takes its 16-byte vectors t, t + THREADS, ... (at
//     K = 4096 bf16, 512 vectors: one a thread of a 512-thread block), through the L1-bypassing
//     read-only load, with the 256-byte L2 fetch when L2_256B;
//   * no tensor cores: each thread multiplies its 8 elements of the row by the same 8 of each of
//     at most TOKENS tokens in fp32 FMA (at most 64 FMA per 16 bytes of W, within the FMA pipe's
//     rate at HBM speed for TOKENS <= 8);
//   * each row's sum is added up over the block in a fixed order, ROWS rows at a time: shuffles
//     within a warp, then the warps in order through shared memory. The same bits on every run;
//   * the bias is added in fp32 before the one rounding to C's type;
//   * on sm_90, a programmatic dependent launch, as rung 01 (wait for the grid before, then let
//     the next one launch).
//
// Requires sm_80+, A row-major (M, K) and B = W^T with W (N, K) row-major, both 16-byte aligned
// with leading dimensions a multiple of 8 elements (the host copies other inputs first), and
// M <= TOKENS. Correct for any N and K: a row's last, partial vector is read element by element.
#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "sm80/mma.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "arch/sm90.cuh"
#endif

namespace wg {
namespace row_sweep {

// Two 16-bit floats packed in a b32 (element 2i in the low half), widened to fp32.
__device__ __forceinline__ void widen2(bf16_t, uint32_t v, float& lo, float& hi) {
    lo = __uint_as_float(v << 16);
    hi = __uint_as_float(v & 0xffff0000u);
}
__device__ __forceinline__ void widen2(half_t, uint32_t v, float& lo, float& hi) {
    lo = cvt_f32_f16(static_cast<uint16_t>(v & 0xffffu));
    hi = cvt_f32_f16(static_cast<uint16_t>(v >> 16));
}

// sum += the dot product of two 16-byte vectors of 8 elements of T, in fp32.
template <typename T>
__device__ __forceinline__ void dot8(float& sum, const uint4& w, const float (&x)[8]) {
    const uint32_t words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        float lo, hi;
        widen2(T{}, words[i], lo, hi);
        sum = fmaf(lo, x[2 * i], sum);
        sum = fmaf(hi, x[2 * i + 1], sum);
    }
}

template <typename T>
__device__ __forceinline__ void widen8(const uint4& v, float (&f)[8]) {
    const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) widen2(T{}, words[i], f[2 * i], f[2 * i + 1]);
}

}  // namespace row_sweep
}  // namespace wg

// C (M, N) = A (M, K) @ B (K, N) (+ bias), B = W^T. Registers are held so that BLOCKS blocks fit on
// a SM (4 x 512 threads: 32 a thread). Launch with at most as many blocks of THREADS threads as fit at once (a grid of G blocks covers any N: block b takes rows b + G j), no dynamic
// shared memory. `bias` (N values of T) may be null.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int TOKENS, int THREADS, int ROWS, int UNROLL,
          int L2_256B, int BLOCKS>
__global__ void __launch_bounds__(THREADS, BLOCKS)
decode_row_sweep(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
                 int lda, int ldb, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    static_assert(A_ROW && !B_ROW, "the decode kernel reads A row-major (tokens, K) and B = W^T, W (N, K) "
                                   "row-major, both k-contiguous");
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    static_assert(TOKENS == 1 || TOKENS == 2 || TOKENS == 4 || TOKENS == 8, "TOKENS: 1, 2, 4 or 8 tokens a launch");
    static_assert(THREADS % 32 == 0 && THREADS >= 64 && THREADS <= 1024, "THREADS: whole warps, 64 to 1024");
    static_assert(UNROLL >= 1 && ROWS % UNROLL == 0, "ROWS must be a multiple of UNROLL, the rows read at once");
    static_assert(ROWS * TOKENS <= 64, "ROWS * TOKENS <= 64: a thread's sums stay in registers");
    static_assert(BLOCKS >= 1 && BLOCKS * THREADS <= 2048, "BLOCKS * THREADS <= 2048 threads a SM");
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
                    row_sweep::widen8<T>(ld_global_nc_v4(A + static_cast<long long>(m) * lda + 8 * v), x);
#pragma unroll
                    for (int u = 0; u < UNROLL; ++u) row_sweep::dot8<T>(sum[j0 + u][m], w[u], x);
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
