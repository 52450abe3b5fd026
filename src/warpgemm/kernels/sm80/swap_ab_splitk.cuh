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
//   * Pieces of rows (SEGS > 1). A load of the scheme above reads 64 bytes of each of 8 rows. With
//     SEGS = 2, 4 or 8 it reads 64 * SEGS contiguous bytes of each of 8 / SEGS rows instead: lane
//     (g, t) takes piece g % SEGS of row g / SEGS, and the mma's 8 tokens become TILE_TOKENS = 8 /
//     SEGS tokens by SEGS pieces (token g / SEGS over piece g % SEGS), so that its products of a row
//     piece with the same piece of a token are the wanted ones and the others are discarded. A
//     warp then owns 16 / SEGS rows (the block's 16 in SEGS sets), and adds the SEGS parts of each
//     sum with log2(SEGS) shuffles before the warps' sums meet in shared memory. It wastes mma
//     work, which decode has to spare, for a read pattern measured closer to a plain sweep of
//     memory (scripts/read_floor.py).
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

    static __device__ __forceinline__ uint32_t bits(T v) {
        if constexpr (INT8) return static_cast<uint8_t>(v);
        else return v.bits;
    }

    // A lane's 16 bytes of a row from element `row[0]` on, zero at and past element `count` (or
    // everywhere where !valid): the last, partial chunk, read element by element.
    static __device__ __forceinline__ uint4 load_tail(const T* row, int count, bool valid) {
        constexpr int BITS = 8 * static_cast<int>(sizeof(T));
        constexpr int PER_WORD = 32 / BITS;
        uint32_t w[4] = {0u, 0u, 0u, 0u};
        if (valid) {
#pragma unroll
            for (int e = 0; e < ELEMS; ++e)
                if (e < count) w[e / PER_WORD] |= bits(row[e]) << (BITS * (e % PER_WORD));
        }
        return make_uint4(w[0], w[1], w[2], w[3]);
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
// blocks of 32 * WARPS threads and 4 * 128 * WARPS * ROW_GROUPS * TOKEN_TILES / SEGS bytes of
// dynamic shared memory (the partial sums). With KSPLIT > 1, `workspace` holds KSPLIT * gridDim.x * 128 *
// ROW_GROUPS * TOKEN_TILES sums and `counters` gridDim.x ints, zero before the launch and zero
// again after it.
template <typename T, int TOKEN_TILES, int ROW_GROUPS, int WARPS, int UNROLL, int KSPLIT, int L2_256B,
          typename Epilogue, int STAGGER = 1, int SEGS = 1>
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
    static_assert(SEGS == 1 || SEGS == 2 || SEGS == 4 || SEGS == 8, "SEGS: 1, 2, 4 or 8 pieces of a row a load");
    static_assert(WARPS % SEGS == 0, "WARPS must be a multiple of SEGS: the warps take the SEGS row sets in turn");
    static_assert(TOKEN_TILES * SEGS <= 8, "TOKEN_TILES * SEGS <= 8: with SEGS pieces a load, a tile of the mma "
                                           "holds 8 / SEGS tokens, and the accumulators TOKEN_TILES * SEGS tiles");
    constexpr int ROWS = 16 * ROW_GROUPS;
    constexpr int CHUNK = Atom::CHUNK;
    constexpr int ELEMS = Atom::ELEMS;
    constexpr int TILES = TOKEN_TILES * SEGS;  // tiles of the mma's N side,
    constexpr int TILE_TOKENS = 8 / SEGS;      // each this many tokens by SEGS pieces of k
    constexpr int SET_ROWS = 16 / SEGS;        // rows of W in a row set: a load's 8 / SEGS, twice
    constexpr int WIDE = CHUNK * SEGS;         // k of one chunk: SEGS pieces of CHUNK

    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int rowset = warp % SEGS;                            // this warp's row set
    const int split_warp = (blockIdx.y * WARPS + warp) / SEGS;  // its place among the set's K splitters
    constexpr int SPLITTERS = WARPS * KSPLIT / SEGS;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int piece = g % SEGS;  // this lane's piece of each chunk
    const int prow = g / SEGS;   // and its row among a load's 8 / SEGS (its token among a tile's)
    const int n0 = blockIdx.x * ROWS;

    // This lane's rows of W (prow and prow + 8 / SEGS of its warp's row set in each group) and
    // tokens (prow of each tile), at k = CHUNK piece + ELEMS t of each chunk.
    const T* w_row[ROW_GROUPS][2];
    bool w_ok[ROW_GROUPS][2];
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int n = n0 + 16 * r + SET_ROWS * rowset + TILE_TOKENS * h + prow;
            w_ok[r][h] = n < N;
            w_row[r][h] = B + static_cast<int64_t>(w_ok[r][h] ? n : 0) * ldb + CHUNK * piece + ELEMS * t;
        }
    const T* x_row[TILES];
    bool x_ok[TILES];
#pragma unroll
    for (int i = 0; i < TILES; ++i) {
        const int m = TILE_TOKENS * i + prow;
        x_ok[i] = m < M;
        x_row[i] = A + static_cast<int64_t>(x_ok[i] ? m : 0) * lda + CHUNK * piece + ELEMS * t;
    }

    const int full_chunks = K / WIDE;
    // STAGGER > 1: block x starts its walk over the k chunks at band x % STAGGER of STAGGER and
    // wraps around, so that the grid's loads spread over STAGGER columns of W at any moment.
    const StaggeredWalk chunk_at(STAGGER > 1 ? static_cast<int>(blockIdx.x % STAGGER) : 0, STAGGER, full_chunks);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // Programmatic dependent launch: wait for the grid before this one, then let the next launch.
    griddepcontrol_wait();
    griddepcontrol_launch_dependents();
#endif

    Acc acc[ROW_GROUPS][TILES][4];
#pragma unroll
    for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
        for (int i = 0; i < TILES; ++i)
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
                                     ? (L2_256B ? ld_global_nc_na_l2_256_v4(w_row[r][h] + chunk_at(c) * WIDE)
                                                : ld_global_nc_na_v4(w_row[r][h] + chunk_at(c) * WIDE))
                                     : zero4;
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            const int c = c0 + u * SPLITTERS;
            if (c >= full_chunks) break;
#pragma unroll
            for (int i = 0; i < TILES; ++i) {
                if (SEGS > 1 && TILE_TOKENS * i >= M) continue;  // the tiles past M: no tokens
                const uint4 x = x_ok[i] ? ld_global_nc_v4(x_row[i] + chunk_at(c) * WIDE) : zero4;
#pragma unroll
                for (int r = 0; r < ROW_GROUPS; ++r) Atom::chunk(acc[r][i], w[u][r][0], w[u][r][1], x);
            }
        }
    }
    if (K % WIDE && split_warp == full_chunks % SPLITTERS) {  // the last, partial chunk, by elements
        const int k0 = full_chunks * WIDE;
        const int count = K - k0 - CHUNK * piece - ELEMS * t;  // this lane's elements left in the row
#pragma unroll
        for (int i = 0; i < TILES; ++i) {
            if (SEGS > 1 && TILE_TOKENS * i >= M) continue;
            const uint4 x = Atom::load_tail(x_row[i] + k0, count, x_ok[i]);
#pragma unroll
            for (int r = 0; r < ROW_GROUPS; ++r) {
                const uint4 lo = Atom::load_tail(w_row[r][0] + k0, count, w_ok[r][0]);
                const uint4 hi = Atom::load_tail(w_row[r][1] + k0, count, w_ok[r][1]);
                Atom::chunk(acc[r][i], lo, hi, x);
            }
        }
    }

    // The block's outputs, each C(m, n) summed over its warps (and its pieces), in a fixed order.
    // SEGS = 1: sum j of lane (g, t) is C^T at (row 16r + g + 8 (v >= 2), token 8i + 2t + (v & 1)) for
    // j = (r * TILES + i) * 4 + v, and output o = 32 j + lane adds sum j of that lane over the warps;
    // warp w finishes j = w, w + WARPS, ... of its own lane.
    // SEGS > 1: sum v of lane (g, t) in tile i is the mma's row g + 8 (v >= 2), column col = 2t +
    // (v & 1): W row 16r + SET_ROWS rowset + TILE_TOKENS (v >= 2) + g / SEGS over piece g % SEGS of
    // each chunk, times token TILE_TOKENS i + col / SEGS over piece col % SEGS. Where the pieces are
    // one (col = g mod SEGS, so v & 1 = g & 1), it is a part of that row's product with that token;
    // the rest is discarded. Each warp adds its SEGS parts with shuffles, and output
    // o = ((r * TILES + i) * 16 + row) * TILE_TOKENS + token adds the WARPS / SEGS warps of the row's set.
    constexpr int VALS = ROW_GROUPS * TILES * 4;          // sums per lane
    constexpr int OUTS = ROW_GROUPS * TOKEN_TILES * 128;  // outputs per block: 32 * VALS / SEGS
    constexpr int MINE = (OUTS + 32 * WARPS - 1) / (32 * WARPS);  // outputs this thread finishes, at most
    auto output = [&](int q) { return static_cast<int>(threadIdx.x) + q * 32 * WARPS; };
    auto element = [&](int q, int& m, int& n) {
        if constexpr (SEGS == 1) {
            const int j = warp + q * WARPS;
            const int v = j & 3;
            m = 8 * ((j >> 2) % TOKEN_TILES) + 2 * t + (v & 1);
            n = n0 + 16 * ((j >> 2) / TOKEN_TILES) + 8 * (v >> 1) + g;
            return j < VALS && n < N && m < M;
        } else {
            const int o = output(q);
            const int tile = o / (16 * TILE_TOKENS);  // r * TILES + i
            m = TILE_TOKENS * (tile % TILES) + o % TILE_TOKENS;
            n = n0 + 16 * (tile / TILES) + (o / TILE_TOKENS) % 16;
            return o < OUTS && n < N && m < M;
        }
    };

    // Add the warps' partial sums in warp order, the same bits on every run: every warp puts its
    // sums in shared memory, then each output is added up, warp 0 first, by one thread.
    Acc* const partial = reinterpret_cast<Acc*>(dynamic_smem());
    if constexpr (SEGS == 1) {  // (32, VALS, WARPS):(1, 32, 32 * VALS)
#pragma unroll
        for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
            for (int i = 0; i < TILES; ++i)
#pragma unroll
                for (int v = 0; v < 4; ++v) partial[(warp * VALS + (r * TILES + i) * 4 + v) * 32 + lane] = acc[r][i][v];
    } else {  // (TILE_TOKENS, TILE_TOKENS, 2, TILES, ROW_GROUPS, WARPS) by (token, row, h, i, r, warp), compact
        // The SEGS parts of (row, token) lie in the lanes of piece s = 0 .. SEGS-1: g = SEGS row + s,
        // t = (SEGS token + s) / 2. Flipping bit 0, 1, 2 of s flips lane bits {2}, {3, 0}, {4, 1}.
        const bool part = (2 * t + (g & 1)) % SEGS == g % SEGS;
        const bool first = g % SEGS == 0 && (2 * t) % SEGS == 0;  // piece 0's lane holds the sum
#pragma unroll
        for (int r = 0; r < ROW_GROUPS; ++r)
#pragma unroll
            for (int i = 0; i < TILES; ++i) {
                if (TILE_TOKENS * i >= M) continue;  // no tokens: never read
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    // (g & 1 picks the sum; a select, so that acc is never indexed at run time and stays in registers)
                    Acc v = part ? ((g & 1) ? acc[r][i][2 * h + 1] : acc[r][i][2 * h]) : Acc(0);
                    v += __shfl_xor_sync(0xffffffffu, v, 4);
                    if constexpr (SEGS >= 4) v += __shfl_xor_sync(0xffffffffu, v, 9);
                    if constexpr (SEGS >= 8) v += __shfl_xor_sync(0xffffffffu, v, 18);
                    if (first)
                        partial[(((warp * ROW_GROUPS + r) * TILES + i) * 2 + h) * TILE_TOKENS * TILE_TOKENS +
                                (g / SEGS) * TILE_TOKENS + 2 * t / SEGS] = v;
                }
            }
    }
    auto block_sum = [&](int q) {
        Acc s = Acc(0);
        if constexpr (SEGS == 1) {
            const int j = warp + q * WARPS;
            for (int w = 0; w < WARPS; ++w) s += partial[(w * VALS + j) * 32 + lane];
        } else {
            const int o = output(q);
            const int token = o % TILE_TOKENS;
            const int row = (o / TILE_TOKENS) % 16;
            const int tile = o / (16 * TILE_TOKENS);
            const int set = row / SET_ROWS, h = (row % SET_ROWS) / TILE_TOKENS, rho = row % TILE_TOKENS;
            for (int a = 0; a < WARPS / SEGS; ++a)
                s += partial[(((set + SEGS * a) * ROW_GROUPS * TILES + tile) * 2 + h) * TILE_TOKENS * TILE_TOKENS +
                             rho * TILE_TOKENS + token];
        }
        return s;
    };

    // What the epilogue reads besides the sums, on its way while they are added up.
    typename Epilogue::Values values[MINE];
#pragma unroll
    for (int q = 0; q < MINE; ++q) {
        int m, n;
        if (element(q, m, n)) values[q] = epilogue.load(m, n);
    }
    __syncthreads();

    if constexpr (KSPLIT > 1) {
        // This block's sums to the workspace, then the rows' counter: the last of the KSPLIT
        // blocks goes on to add them all up.
        Acc* const mine = workspace + (static_cast<int64_t>(blockIdx.y) * gridDim.x + blockIdx.x) * OUTS;
        for (int q = 0; q < MINE && output(q) < OUTS; ++q) mine[output(q)] = block_sum(q);
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
        int m, n;
        if (output(q) >= OUTS) break;
        Acc s = Acc(0);
        if constexpr (KSPLIT > 1) {
            for (int p = 0; p < KSPLIT; ++p)
                s += ld_partial(workspace + (static_cast<int64_t>(p) * gridDim.x + blockIdx.x) * OUTS + output(q));
        } else {
            s = block_sum(q);
        }
        if (element(q, m, n)) epilogue.store(m, n, s, values[q]);
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
