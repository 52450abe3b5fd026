// warpgemm/kernels/sm80/swap_ab_splitk.cuh -- the split-K small-M kernel's body: C = A @ W^T for
// M <= 64 tokens, streaming the weight W once, with mma.sync fed straight from global memory.
// decode/01_swap_ab_splitk instantiates it for fp16 / bf16 (m16n8k16, fp32 sums, the bias
// added); igemm/08_scaled_swap_ab_splitk for int8 (m16n8k32, s32 sums, the W8A8 scales). The
// atom (GemvAtom) and the epilogue are what differ; the loads, the split and the reduction are
// this one body.
//
// With M = 1..64 rows of A (tokens) and N x K = 4096 x 4096 or more of W, a GEMM is a pass over W:
// 2*M operations per weight element, far below the tensor cores' rate per byte. What sets the
// time is how fast the GPU reads W, so the kernel is shaped for that:
//   * Swap AB. The mma's M side (16 rows) takes 16 rows of W, its N side (8) takes 8 tokens:
//     C^T = W @ A^T, one m16n8 mma per 16 rows of W, 8 tokens and one k step. A block owns ROWS =
//     16 * ROW_GROUPS rows of W (columns of C), so that ceil(N / ROWS) blocks cover every SM.
//   * Fragments straight from global memory. The sum over k does not care in which order the k
//     come, only that A and B agree. So a lane (g, t) = (lane / 4, lane % 4) reads 16 contiguous
//     bytes of a CHUNK-wide k chunk (k = ELEMS t .. ELEMS t + ELEMS - 1, ELEMS = 16 / sizeof(T))
//     of W rows g and g+8 and of token g, as four b32 x, y, z, w, and hands them to two mma as if
//     they were the lane's k of two k steps:
//       mma 0: a = {w[g].x, w[g+8].x, w[g].y, w[g+8].y}, b = {x[g].x, x[g].y}
//       mma 1: a = {w[g].z, w[g+8].z, w[g].w, w[g+8].w}, b = {x[g].z, x[g].w}
//     m16n8k16 (16-bit) and m16n8k32 (int8) take their fragments in the same four and two b32
//     registers (rows g and g+8, the lane's first and second 4 bytes of k), so one reading serves
//     both: 16-bit k 8t..8t+7 play k {2t, 2t+1, 2t+8, 2t+9} of two k16 steps, int8 k 16t..16t+15
//     play k {4t..4t+3, 4t+16..4t+19} of two k32 steps. Every load is one 16-byte vector, no
//     shared memory and no ldmatrix on the way in, and W is read with the L1-bypassing read-only
//     load; with L2_256B, that load also asks L2 for the whole 256-byte block, which the next k
//     chunks of the row (other warps') will want.
//   * Split K in the block, and across KSPLIT blocks. The WARPS * KSPLIT warps that share a
//     group of rows take the k chunks in turn (chunk c goes to warp c % (WARPS * KSPLIT)), each
//     with UNROLL chunks of W in flight. A block adds its warps' partial sums through shared
//     memory in warp order. With KSPLIT > 1 (for a small N, so that there are blocks for every
//     SM) each block writes its sums to the workspace and bumps the rows' counter; the block
//     that finds it was last adds the KSPLIT sums in split order and resets the counter. Either
//     way the result is the same, bit for bit, on every run.
//   * The walk staggered over STAGGER bands. Run in step, every block of the grid reads the same
//     few columns of W at once (its rows 8 KB apart at K = 4096), and then the read speed
//     depends on where the weight's pages lie: at 16 x 4096 x 4096 bf16 on an H100, one copy of
//     a weight read in 15.2-15.5 us and others, same values, in 14.4 us. With STAGGER > 1, block x
//     starts at band x % STAGGER of the k chunks and wraps around, so the grid reads STAGGER
//     columns at a time: every placement then reads as fast, and 1-3% faster than the mean of
//     the unstaggered ones up to 8 tokens (docs/results/decode_stagger_h100.json). At 16 tokens
//     it measured slower (14.9 us against 14.4-15.5), and the H100's rules do not use it there.
//     Only the order of the sum over k changes; it is the same on every run.
//     (A load of 64 bytes of each of 8 rows: one of 64 * SEGS bytes of each of 8 / SEGS rows, the
//     mma's tokens standing for (token, piece) pairs, was built and measured no faster; see
//     docs/decode.md, "The read floor".)
//   * The epilogue's per-element inputs (bias, scales) are loaded before the partial sums are
//     added, so their latency passes under the reduction; then each sum is finished in fp32 and
//     rounded once to C's type.
//   * On sm_90 the host launches it as a programmatic dependent launch: the grid may start while
//     the kernel before it finishes (its last blocks, its memory flush). Every lane waits
//     (griddepcontrol.wait) before its first load, since A may be that kernel's output and C its
//     input; then the block lets the next grid launch. (Prefetching W's first chunks into L2
//     before the wait, which is allowed, measured slower: 13.1 us against 12.4 us at 1 x 4096 x
//     4096 bf16 on an H100.)
//
// Requires sm_80+, A row-major (M, K) and B = W^T with W (N, K) row-major, both 16-byte aligned
// with leading dimensions a multiple of ELEMS elements (the host copies other inputs first), and
// M <= 8 * TOKEN_TILES. Correct for any N and K: rows of W past N and tokens past M read as zeros
// and are not stored; the last, partial k chunk is read element by element.
#pragma once

#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "sm80/mma.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "arch/sm90.cuh"
#endif

namespace wg {
namespace sm80 {

// The split-K GEMV's atom for inputs T: the sums' type Acc, ELEMS elements in a lane's 16 bytes,
// CHUNK = 4 * ELEMS k in a k chunk (four lanes a row), and the two mma steps of one chunk.
template <typename T>
struct GemvAtom {
    static_assert(is_16bit_float<T> || same_type<T, int8_t>::value, "T must be half_t, bf16_t or int8_t");
    static constexpr bool INT8 = same_type<T, int8_t>::value;
    using Acc = typename pick<INT8, int32_t, float>::type;  // s32 sums for int8, fp32 for 16-bit floats
    static constexpr int ELEMS = 16 / static_cast<int>(sizeof(T));
    static constexpr int CHUNK = 4 * ELEMS;

    // The two mma of one k chunk for one group of 16 W rows and one tile of 8 tokens.
    static __device__ __forceinline__ void chunk(Acc (&acc)[4], const uint4& w_lo, const uint4& w_hi,
                                                 const uint4& x) {
        using Step = MmaStep<T, Acc[4]>;
        const uint32_t a0[4] = {w_lo.x, w_hi.x, w_lo.y, w_hi.y};
        const uint32_t b0[2] = {x.x, x.y};
        Step::fma(acc, a0, b0);
        const uint32_t a1[4] = {w_lo.z, w_hi.z, w_lo.w, w_hi.w};
        const uint32_t b1[2] = {x.z, x.w};
        Step::fma(acc, a1, b1);
    }
};

template <typename Acc>
__device__ __forceinline__ Acc ld_partial(const Acc* p) {
    if constexpr (same_type<Acc, int32_t>::value) return ld_global_cg_s32(p);
    else return ld_global_cg_f32(p);
}

// The body. `epilogue` finishes C(m, n) from the sum over k (Acc) in two calls: load(m, n) gives
// what it reads besides the sum (its Values), before the partial sums are added up;
// store(m, n, sum, values) writes C(m, n). Launch with (ceil(N / (16 * ROW_GROUPS)), KSPLIT)
// blocks of 32 * WARPS threads and 4 * 32 * WARPS * ROW_GROUPS * TOKEN_TILES * 4 bytes of dynamic
// shared memory (the partial sums). With KSPLIT > 1, `workspace` holds KSPLIT * gridDim.x * 128 *
// ROW_GROUPS * TOKEN_TILES sums and `counters` gridDim.x ints, zero before the launch and zero
// again after it.
template <typename T, int TOKEN_TILES, int ROW_GROUPS, int WARPS, int UNROLL, int KSPLIT, int L2_256B,
          typename Epilogue, int STAGGER = 1>
__device__ __forceinline__ void swap_ab_splitk(const T* __restrict__ A, const T* __restrict__ B, int M, int N, int K,
                                               int lda, int ldb, const Epilogue& epilogue,
                                               typename GemvAtom<T>::Acc* workspace, int* counters) {
    using Atom = GemvAtom<T>;
    using Acc = typename Atom::Acc;
    static_assert(1 <= TOKEN_TILES && TOKEN_TILES <= 8, "TOKEN_TILES tiles of 8 tokens: M <= 64");
    static_assert(1 <= ROW_GROUPS && ROW_GROUPS <= 4, "ROW_GROUPS groups of 16 rows of W per block: 1 to 4");
    static_assert(1 <= WARPS && WARPS <= 16, "WARPS warps split K: 1 to 16");
    static_assert(1 <= UNROLL && UNROLL <= 8, "UNROLL k chunks in flight per warp: 1 to 8");
    static_assert(UNROLL * ROW_GROUPS <= 8, "UNROLL * ROW_GROUPS <= 8: each k chunk of a row group in "
                                            "flight holds 8 registers of W");
    static_assert(1 <= KSPLIT && KSPLIT <= 16, "KSPLIT blocks split K: 1 to 16");
    static_assert(STAGGER >= 1, "STAGGER: bands the blocks' walks over k start in, 1 (none) or more");
    constexpr int ROWS = 16 * ROW_GROUPS;
    constexpr int CHUNK = Atom::CHUNK;
    constexpr int ELEMS = Atom::ELEMS;

    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int split_warp = blockIdx.y * WARPS + warp;  // this warp's place among the K splitters
    constexpr int SPLITTERS = WARPS * KSPLIT;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int n0 = blockIdx.x * ROWS;

    // This lane's rows of W (g and g+8 of each group) and tokens (g of each tile), at k = ELEMS t.
    const T* w_row[ROW_GROUPS][2];
    bool w_ok[ROW_GROUPS][2];
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int n = n0 + 16 * r + 8 * h + g;
            w_ok[r][h] = n < N;
            w_row[r][h] = B + static_cast<int64_t>(w_ok[r][h] ? n : 0) * ldb + ELEMS * t;
        }
    const T* x_row[TOKEN_TILES];
    bool x_ok[TOKEN_TILES];
#pragma unroll
    for (int i = 0; i < TOKEN_TILES; ++i) {
        const int m = 8 * i + g;
        x_ok[i] = m < M;
        x_row[i] = A + static_cast<int64_t>(x_ok[i] ? m : 0) * lda + ELEMS * t;
    }

    const int full_chunks = K / CHUNK;
    // STAGGER > 1: block x starts its walk over the k chunks at band x % STAGGER of STAGGER and
    // wraps around, so that the grid's loads spread over STAGGER columns of W at any moment.
    const StaggeredWalk chunk_at(STAGGER > 1 ? static_cast<int>(blockIdx.x % STAGGER) : 0, STAGGER, full_chunks);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // Programmatic dependent launch: wait for the grid before this one, then let the next launch.
    griddepcontrol_wait();
    griddepcontrol_launch_dependents();
#endif

    Acc acc[ROW_GROUPS][TOKEN_TILES][4];
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int i = 0; i < TOKEN_TILES; ++i)
#pragma unroll
            for (int v = 0; v < 4; ++v) acc[r][i][v] = Acc(0);

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
                                     ? (L2_256B ? ld_global_nc_na_l2_256_v4(w_row[r][h] + chunk_at(c) * CHUNK)
                                                : ld_global_nc_na_v4(w_row[r][h] + chunk_at(c) * CHUNK))
                                     : zero4;
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int c = c0 + u * SPLITTERS;
            if (c >= full_chunks) break;
#pragma unroll
            for (int i = 0; i < TOKEN_TILES; ++i) {
                const uint4 x = x_ok[i] ? ld_global_nc_v4(x_row[i] + chunk_at(c) * CHUNK) : zero4;
#pragma unroll
                for (int r = 0; r < ROW_GROUPS; ++r) Atom::chunk(acc[r][i], w[u][r][0], w[u][r][1], x);
            }
        }
    }
    if (K % CHUNK && split_warp == full_chunks % SPLITTERS) {  // the last, partial chunk, by elements
        const int k0 = full_chunks * CHUNK;
        const int count = K - k0 - ELEMS * t;  // this lane's elements left in the row
#pragma unroll
        for (int i = 0; i < TOKEN_TILES; ++i) {
            const uint4 x = load_partial_chunk(x_row[i] + k0, count, x_ok[i]);
#pragma unroll
            for (int r = 0; r < ROW_GROUPS; ++r) {
                const uint4 lo = load_partial_chunk(w_row[r][0] + k0, count, w_ok[r][0]);
                const uint4 hi = load_partial_chunk(w_row[r][1] + k0, count, w_ok[r][1]);
                Atom::chunk(acc[r][i], lo, hi, x);
            }
        }
    }

    // Sum j of a lane is C^T at (row 16r + g + 8 (v >= 2), token 8i + 2t + (v & 1)) for
    // j = (r * TOKEN_TILES + i) * 4 + v; warp w finishes sums j = w, w + WARPS, ...
    constexpr int VALS = ROW_GROUPS * TOKEN_TILES * 4;  // sums per lane
    constexpr int MINE = (VALS + WARPS - 1) / WARPS;    // sums this lane finishes, at most
    auto element = [&](int j, int& m, int& n) {
        const int v = j & 3;
        m = 8 * ((j >> 2) % TOKEN_TILES) + 2 * t + (v & 1);
        n = n0 + 16 * ((j >> 2) / TOKEN_TILES) + 8 * (v >> 1) + g;
        return j < VALS && n < N && m < M;
    };

    // Add the warps' partial sums in warp order, the same bits on every run: every warp puts its
    // sums in shared memory, then each sum is added up over the warps, 0 first, by one warp.
    Acc* const partial = reinterpret_cast<Acc*>(dynamic_smem());  // (32, VALS, WARPS):(1, 32, 32 * VALS)
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int i = 0; i < TOKEN_TILES; ++i)
#pragma unroll
            for (int v = 0; v < 4; ++v) partial[(warp * VALS + (r * TOKEN_TILES + i) * 4 + v) * 32 + lane] = acc[r][i][v];

    // What the epilogue reads besides the sums, on its way while they are added up.
    typename Epilogue::Values values[MINE];
#pragma unroll
    for (int q = 0; q < MINE; ++q) {
        int m, n;
        if (element(warp + q * WARPS, m, n)) values[q] = epilogue.load(m, n);
    }
    __syncthreads();

    if constexpr (KSPLIT > 1) {
        // This block's sums to the workspace, then the rows' counter: the last of the KSPLIT
        // blocks goes on to add them all up.
        Acc* const mine = workspace + (static_cast<int64_t>(blockIdx.y) * gridDim.x + blockIdx.x) * (VALS * 32);
        for (int j = warp; j < VALS; j += WARPS) {
            Acc s = Acc(0);
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

#pragma unroll
    for (int q = 0; q < MINE; ++q) {
        const int j = warp + q * WARPS;
        int m, n;
        if (j >= VALS) break;
        Acc s = Acc(0);
        if constexpr (KSPLIT > 1) {
            for (int p = 0; p < KSPLIT; ++p)
                s += ld_partial(workspace + (static_cast<int64_t>(p) * gridDim.x + blockIdx.x) * (VALS * 32) +
                                j * 32 + lane);
        } else {
            for (int w = 0; w < WARPS; ++w) s += partial[(w * VALS + j) * 32 + lane];
        }
        if (element(j, m, n)) epilogue.store(m, n, s, values[q]);
    }
    if constexpr (KSPLIT > 1) {
        if (threadIdx.x == 0) counters[blockIdx.x] = 0;  // ready for the next launch
    }
}

// decode/01's epilogue: C(m, n) = sum + bias[n] in fp32 (no bias: the sum), rounded once to TC.
template <typename TC, typename T>
struct BiasStore {
    struct Values {
        float bias;
    };
    TC* C;
    int ldc;
    const T* bias;  // N values, or null

    __device__ __forceinline__ Values load(int, int n) const {
        return {bias != nullptr ? to_float(bias[n]) : 0.0f};
    }
    __device__ __forceinline__ void store(int m, int n, float s, const Values& v) const {
        if (bias != nullptr) s += v.bias;
        C[static_cast<int64_t>(m) * ldc + n] = from_float<TC>(s);
    }
};

}  // namespace sm80
}  // namespace wg
