// decode/01_swap_ab_splitk.cu -- the small-M (decode) kernel: C = A @ W^T for M <= 64 tokens,
// streaming the weight W once at HBM bandwidth.
//
// With M = 1..64 rows of A (tokens) and N x K = 4096 x 4096 or more of W, a GEMM is a pass over W:
// 2*M FLOP per weight element, far below the tensor cores' rate per byte. What sets the time is
// how fast the GPU reads W, so the kernel is shaped for that:
//   * Swap AB. The mma's M side (16 rows) takes 16 rows of W, its N side (8) takes 8 tokens:
//     C^T = W @ A^T, one m16n8k16 per 16 rows of W, 8 tokens and 16 of K. A block owns ROWS =
//     16 * ROW_GROUPS rows of W (columns of C), so that ceil(N / ROWS) blocks cover every SM.
//   * Fragments straight from global memory. The sum over k does not care in which order the k
//     come, only that A and B agree. So a lane (g, t) = (lane / 4, lane % 4) reads 16 contiguous
//     bytes, k = 8t..8t+7 of a 32-wide k chunk, of W rows g and g+8 and of token g, and hands
//     them to two mma as if they were k = {2t, 2t+1, 2t+8, 2t+9} of two k16 steps:
//       mma 0: a = {w[g].x, w[g+8].x, w[g].y, w[g+8].y}, b = {x[g].x, x[g].y}
//       mma 1: a = {w[g].z, w[g+8].z, w[g].w, w[g+8].w}, b = {x[g].z, x[g].w}
//     Every load is one 16-byte vector, no shared memory and no ldmatrix on the way in, and W is
//     read with the L1-bypassing read-only load; with L2_256B, that load also asks L2 for the
//     whole 256-byte block, which the next k chunks of the row (other warps') will want.
//   * Split K in the block, and across KSPLIT blocks. The WARPS * KSPLIT warps that share a
//     group of rows take the k chunks in turn (chunk c goes to warp c % (WARPS * KSPLIT)), each
//     with UNROLL chunks of W in flight. A block adds its warps' partial sums through shared
//     memory in warp order. With KSPLIT > 1 (for a small N, so that there are blocks for every
//     SM) each block writes its sums to the workspace and bumps the rows' counter; the block
//     that finds it was last adds the KSPLIT sums in split order and resets the counter. Either
//     way the result is the same, bit for bit, on every run.
//   * The epilogue adds the optional bias in fp32 and rounds once to TC.
//   * On sm_90 the host launches it as a programmatic dependent launch: the grid may start while
//     the kernel before it finishes (its last blocks, its memory flush). Every lane waits
//     (griddepcontrol.wait) before its first load, since A may be that kernel's output and C its
//     input; then the block lets the next grid launch. (Prefetching W's first chunks into L2
//     before the wait, which is allowed, measured slower: 13.1 us against 12.4 us at 1 x 4096 x
//     4096 on an H100.)
//
// Requires sm_80+ (mma.sync m16n8k16), A row-major (M, K) and B = W^T with W (N, K) row-major,
// both 16-byte aligned with leading dimensions a multiple of 8 elements (the host copies other
// inputs first), and M <= 8 * TOKEN_TILES. Correct for any N and K: rows of W past N and tokens
// past M read as zeros and are not stored; the last, partial k chunk is read element by element.
#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "sm80/mma.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "arch/sm90.cuh"
#endif

namespace wg {
namespace decode {

// Four b32 of two 16-bit values each: the k = 8t..8t+7 of one row, zero where k >= k_end.
template <typename T>
__device__ __forceinline__ uint4 load_tail(const T* row, int k0, int k_end, bool valid) {
    uint32_t w[4] = {0u, 0u, 0u, 0u};
    if (valid) {
#pragma unroll
        for (int e = 0; e < 8; ++e)
            if (k0 + e < k_end) w[e / 2] |= static_cast<uint32_t>(row[k0 + e].bits) << (16 * (e % 2));
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// The two mma of one 32-wide k chunk for one group of 16 W rows and one tile of 8 tokens.
template <typename T>
__device__ __forceinline__ void mma_chunk(float (&acc)[4], const uint4& w_lo, const uint4& w_hi,
                                          const uint4& x) {
    using Mma = sm80::Mma16x8x16<T, float[4]>;
    const uint32_t a0[4] = {w_lo.x, w_hi.x, w_lo.y, w_hi.y};
    const uint32_t b0[2] = {x.x, x.y};
    Mma::fma(acc, a0, b0);
    const uint32_t a1[4] = {w_lo.z, w_hi.z, w_lo.w, w_hi.w};
    const uint32_t b1[2] = {x.z, x.w};
    Mma::fma(acc, a1, b1);
}

}  // namespace decode
}  // namespace wg

// C (M, N) = A (M, K) @ B (K, N) (+ bias), B = W^T. Launch with (ceil(N / (16 * ROW_GROUPS)),
// KSPLIT) blocks of 32 * WARPS threads and 4 * 32 * WARPS * ROW_GROUPS * TOKEN_TILES * 4 bytes of
// dynamic shared memory (the partial sums). `bias` (N values of T) may be null. With KSPLIT > 1,
// `workspace` holds KSPLIT * gridDim.x * 128 * ROW_GROUPS * TOKEN_TILES floats and `counters`
// gridDim.x ints, zero before the launch and zero again after it.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int TOKEN_TILES, int ROW_GROUPS, int WARPS,
          int UNROLL, int KSPLIT, int L2_256B>
__global__ void __launch_bounds__(32 * WARPS)
decode_swap_ab_splitk(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                      int K, int lda, int ldb, int ldc, const T* __restrict__ bias, float* workspace,
                      int* counters) {
    using namespace wg;
    static_assert(A_ROW && !B_ROW, "the decode kernel reads A row-major (tokens, K) and B = W^T, W (N, K) "
                                   "row-major, both k-contiguous");
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    static_assert(1 <= TOKEN_TILES && TOKEN_TILES <= 8, "TOKEN_TILES tiles of 8 tokens: M <= 64");
    static_assert(1 <= ROW_GROUPS && ROW_GROUPS <= 4, "ROW_GROUPS groups of 16 rows of W per block: 1 to 4");
    static_assert(1 <= WARPS && WARPS <= 16, "WARPS warps split K: 1 to 16");
    static_assert(1 <= UNROLL && UNROLL <= 8, "UNROLL k chunks in flight per warp: 1 to 8");
    static_assert(UNROLL * ROW_GROUPS <= 8, "UNROLL * ROW_GROUPS <= 8: each k chunk of a row group in "
                                            "flight holds 8 registers of W");
    static_assert(1 <= KSPLIT && KSPLIT <= 16, "KSPLIT blocks split K: 1 to 16");
    constexpr int ROWS = 16 * ROW_GROUPS;
    constexpr int CHUNK = 32;  // k per chunk: 4 lanes x 8 elements

    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int split_warp = blockIdx.y * WARPS + warp;  // this warp's place among the K splitters
    constexpr int SPLITTERS = WARPS * KSPLIT;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int n0 = blockIdx.x * ROWS;

    // This lane's rows of W (g and g+8 of each group) and tokens (g of each tile), at k = 8t.
    const T* w_row[ROW_GROUPS][2];
    bool w_ok[ROW_GROUPS][2];
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int n = n0 + 16 * r + 8 * h + g;
            w_ok[r][h] = n < N;
            w_row[r][h] = B + static_cast<int64_t>(w_ok[r][h] ? n : 0) * ldb + 8 * t;
        }
    const T* x_row[TOKEN_TILES];
    bool x_ok[TOKEN_TILES];
#pragma unroll
    for (int i = 0; i < TOKEN_TILES; ++i) {
        const int m = 8 * i + g;
        x_ok[i] = m < M;
        x_row[i] = A + static_cast<int64_t>(x_ok[i] ? m : 0) * lda + 8 * t;
    }

    const int full_chunks = K / CHUNK;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // Programmatic dependent launch: wait for the grid before this one, then let the next launch.
    griddepcontrol_wait();
    griddepcontrol_launch_dependents();
#endif

    float acc[ROW_GROUPS][TOKEN_TILES][4];
    sm80::zero(acc);

    const uint4 zero4 = make_uint4(0u, 0u, 0u, 0u);
    for (int c0 = split_warp; c0 < full_chunks; c0 += SPLITTERS * UNROLL) {
        uint4 w[UNROLL][ROW_GROUPS][2];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int c = c0 + u * SPLITTERS;
#pragma unroll
            for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
                for (int h = 0; h < 2; ++h)
                    w[u][r][h] = (c < full_chunks && w_ok[r][h])
                                     ? (L2_256B ? ld_global_nc_na_l2_256_v4(w_row[r][h] + c * CHUNK)
                                                : ld_global_nc_na_v4(w_row[r][h] + c * CHUNK))
                                     : zero4;
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int c = c0 + u * SPLITTERS;
            if (c >= full_chunks) break;
#pragma unroll
            for (int i = 0; i < TOKEN_TILES; ++i) {
                const uint4 x = x_ok[i] ? ld_global_nc_v4(x_row[i] + c * CHUNK) : zero4;
#pragma unroll
                for (int r = 0; r < ROW_GROUPS; ++r) decode::mma_chunk<T>(acc[r][i], w[u][r][0], w[u][r][1], x);
            }
        }
    }
    if (K % CHUNK && split_warp == full_chunks % SPLITTERS) {  // the last, partial chunk, by elements
        const int k0 = full_chunks * CHUNK;
#pragma unroll
        for (int i = 0; i < TOKEN_TILES; ++i) {
            const uint4 x = decode::load_tail(x_row[i] + k0, 0, K - k0 - 8 * t, x_ok[i]);
#pragma unroll
            for (int r = 0; r < ROW_GROUPS; ++r) {
                const uint4 lo = decode::load_tail(w_row[r][0] + k0, 0, K - k0 - 8 * t, w_ok[r][0]);
                const uint4 hi = decode::load_tail(w_row[r][1] + k0, 0, K - k0 - 8 * t, w_ok[r][1]);
                decode::mma_chunk<T>(acc[r][i], lo, hi, x);
            }
        }
    }

    // Add the warps' partial sums in warp order, the same bits on every run: every warp puts its
    // sums in shared memory, then each sum is added up over the warps, 0 first, by one warp.
    constexpr int VALS = ROW_GROUPS * TOKEN_TILES * 4;  // sums per lane
    float* const partial = reinterpret_cast<float*>(dynamic_smem());  // (32, VALS, WARPS):(1, 32, 32 * VALS)
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int i = 0; i < TOKEN_TILES; ++i)
#pragma unroll
            for (int v = 0; v < 4; ++v) partial[(warp * VALS + (r * TOKEN_TILES + i) * 4 + v) * 32 + lane] = acc[r][i][v];
    __syncthreads();

    if constexpr (KSPLIT > 1) {
        // This block's sums to the workspace, then the rows' counter: the last of the KSPLIT
        // blocks goes on to add them all up.
        float* const mine = workspace + (static_cast<int64_t>(blockIdx.y) * gridDim.x + blockIdx.x) * (VALS * 32);
        for (int j = warp; j < VALS; j += WARPS) {
            float s = 0.0f;
            for (int w = 0; w < WARPS; ++w) s += partial[(w * VALS + j) * 32 + lane];
            mine[j * 32 + lane] = s;
        }
        __threadfence();
        __syncthreads();
        __shared__ int last;
        if (threadIdx.x == 0) last = atomicAdd(counters + blockIdx.x, 1) == KSPLIT - 1;
        __syncthreads();
        if (!last) return;
        __threadfence();
    }

    // Sum j of a lane is C^T at (row 16r + g + 8 (v >= 2), token 8i + 2t + (v & 1)) for
    // j = (r * TOKEN_TILES + i) * 4 + v.
    for (int j = warp; j < VALS; j += WARPS) {
        float s = 0.0f;
        if constexpr (KSPLIT > 1) {
            for (int q = 0; q < KSPLIT; ++q)
                s += ld_global_cg_f32(workspace + (static_cast<int64_t>(q) * gridDim.x + blockIdx.x) * (VALS * 32) +
                                      j * 32 + lane);
        } else {
            for (int w = 0; w < WARPS; ++w) s += partial[(w * VALS + j) * 32 + lane];
        }
        const int v = j & 3;
        const int i = (j >> 2) % TOKEN_TILES;
        const int r = (j >> 2) / TOKEN_TILES;
        const int n = n0 + 16 * r + 8 * (v >> 1) + g;
        const int m = 8 * i + 2 * t + (v & 1);
        if (n < N && m < M) {
            if (bias != nullptr) s += sm80::to_float(bias[n]);
            C[static_cast<int64_t>(m) * ldc + n] = sm80::from_float<TC>(s);
        }
    }
    if constexpr (KSPLIT > 1) {
        if (threadIdx.x == 0) counters[blockIdx.x] = 0;  // ready for the next launch
    }
}
