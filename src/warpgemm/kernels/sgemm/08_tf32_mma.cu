// sgemm/08_tf32_mma.cu -- rung 08: TF32 tensor cores fed by a multi-stage cp.async pipeline.
//
// What this rung adds over rung 07 (FFMA fed by cp.async):
//   * The math moves from FFMA to tensor cores: each warp owns a WM x WN tile of C and computes
//     it with mma.sync.m16n8k8 (tf32 inputs, fp32 accumulators), (WM/16) x (WN/8) mma tiles per
//     k8 step. Every fragment element is first rounded to tf32 with cvt.rna (to nearest, ties
//     away from zero): the inputs keep 10 mantissa bits, the accumulation stays fp32.
//   * A STAGES-deep cp.async ring (2, 3 or 4 stages): k-tile kt+STAGES-1 is copied while k-tile
//     kt is computed, its copies spread over the k8 steps, and one __syncthreads per k-tile both
//     publishes the tile that just landed and frees the stage that was just consumed.
//   * Register double buffering: the fragments of the next k8 step are read from shared memory
//     while the mma of this step run; the next k-tile's first fragments are read right after the
//     barrier, under the last step's mma.
//   * Tiles that lie inside A and B (all but the right/bottom edge blocks and the K tail) are
//     copied without per-chunk bounds checks; the others are zero-filled chunk by chunk.
//   * A block swizzle: the grid is 1-D and consecutive blocks walk down a group of SWIZZLE
//     tile-rows of C within one tile-column, so the A and B tiles they share are still in L2.
//
// Shared memory. Each operand stage keeps its global layout's natural order, so that every
// cp.async writes 16 contiguous bytes (sizes in floats):
//   k-contiguous operand (row-major A, column-major B):  (MN,BK):(BK+4,1)  -- rows padded by 4
//   mn-contiguous operand (column-major A, row-major B): (MN,BK):(1,MN+8)  -- rows padded by 8
// Fragment reads, lane (g, t) = (lane/4, lane%4), all free of bank conflicts:
//   k-contiguous A or B: ldmatrix.x4 (an 8x8 b16 matrix is an 8x4 tf32 matrix) reads a 16x8
//     block: one A fragment or the B fragments of two n8 tiles. With rows of BK+4 floats the
//     eight 16-byte rows of each matrix start in eight different bank quads.
//   mn-contiguous A: two 8-byte loads. Fragment rows g and g+8 are taken from stored rows 2g and
//     2g+1, so the pair a lane needs is adjacent; the row permutation is undone when C is
//     stored. Bank of (k t, m 2g) = 8t + 2g (mod 32): each half-warp covers the 32 banks once.
//   mn-contiguous B: 4-byte loads at (k t, n g): bank 8t + g, all 32 distinct. (The two k values
//     of a B fragment are never adjacent in an n-contiguous row, so there is no pair to fuse.)
//
// Requires sm_80+ (cp.async, mma.sync tf32), A and B base pointers 16-byte aligned and lda, ldb
// multiples of 4 floats (the host copies other inputs to aligned buffers first). C is
// (M,N):(ldc,1); 8-byte stores are used only where a run-time check shows they are aligned.
// Correct for any M, N, K >= 1: out-of-range chunks are zero-filled and stores are masked.
//
// The block order is grouped_rows_tile in common/block_order.cuh.
#include "arch/sm80.cuh"
#include "common/block_order.cuh"
#include "sm80/block_tile.cuh"
#include "sm80/mma.cuh"

namespace tf32_mma {

using wg::imax;
using wg::imin;
using wg::int64_t;
using wg::uint32_t;
using wg::sm80::Fragments;
using wg::sm80::threads_for;

// Registers a thread needs, roughly: its accumulators (WM*WN/32), two buffers of fragments
// (WM/4 + WN/4 each) and `overhead` for addresses, indices and the copies.
__host__ __device__ constexpr int registers_for(int WM, int WN, int overhead) {
    return WM * WN / 32 + 2 * (WM / 4 + WN / 4) + overhead;
}

// Blocks per SM the register allocation must allow: two when a lean budget (24 registers of
// overhead) fits twice in the 64K-register file, so that small warp tiles get two blocks.
__host__ __device__ constexpr int min_blocks_for(int BM, int BN, int WM, int WN) {
    return 2 * threads_for(BM, BN, WM, WN) * registers_for(WM, WN, 24) <= 65536 ? 2 : 1;
}

// One stage of one operand: a TILE_MN x BK slice of A (mn = m) or of B^T (mn = n).
// Both layouts fit in STAGE_FLOATS, so the shared-memory size does not depend on the layout.
template <bool K_CONTIG, int TILE_MN, int BK>
struct StageLayout {
    static constexpr int LD = K_CONTIG ? BK + 4 : TILE_MN + 8;  // padded row, in floats
    static constexpr int STAGE_FLOATS = imax(TILE_MN * (BK + 4), BK * (TILE_MN + 8));

    // Offset of element (mn, k): (TILE_MN,BK):(LD,1) or (TILE_MN,BK):(1,LD).
    static __device__ __forceinline__ constexpr int offset(int mn, int k) {
        return K_CONTIG ? mn * LD + k : k * LD + mn;
    }
};

// The cp.async copies of one operand, TILE_MN x BK per k-tile, for one thread. X is
// (MN,K):(ld,1) when K_CONTIG, else (MN,K):(1,ld). The tile is cut into 16-byte chunks along
// the contiguous dimension; thread `tid` copies chunks tid, tid + THREADS, ..., which all sit in
// the same column of chunks, ROW_STEP rows apart. Chunks reaching past the matrix are
// zero-filled, partially or entirely; an empty chunk reads nothing and points at X itself.
template <bool K_CONTIG, int TILE_MN, int BK, int THREADS>
struct TileLoader {
    using Layout = StageLayout<K_CONTIG, TILE_MN, BK>;
    static constexpr int ROW_FLOATS = K_CONTIG ? BK : TILE_MN;  // contiguous in global memory
    static constexpr int ROWS = K_CONTIG ? TILE_MN : BK;
    static constexpr int CHUNKS_PER_ROW = ROW_FLOATS / 4;
    static constexpr int CHUNKS = ROWS * CHUNKS_PER_ROW;
    static constexpr int PER_THREAD = CHUNKS / THREADS;
    static constexpr int ROW_STEP = THREADS / CHUNKS_PER_ROW;
    static_assert(CHUNKS % THREADS == 0,
                  "each thread must copy the same number of 16-byte chunks of an operand tile: "
                  "BM*BK/4 and BN*BK/4 must be multiples of the thread count");
    static_assert(THREADS % CHUNKS_PER_ROW == 0,
                  "the thread count must be a multiple of the 16-byte chunks in one stored row "
                  "(BK/4 for a k-contiguous operand, BM/4 or BN/4 for an mn-contiguous one)");

    const float* src;  // this thread's first chunk in k-tile 0 (dereferenced only when in range)
    int fixed_left;    // k-contiguous: MN minus its row;   mn-contiguous: floats of MN left at
                       // its column (only the first 4 matter)
    int k_left;        // K minus its k index in k-tile 0 (its column, or its row)
    int dst;           // its offset in a stage

    __device__ __forceinline__ TileLoader(const float* X, int ld, int mn0, int MN, int K, int tid) {
        const int r = tid / CHUNKS_PER_ROW;
        const int c = (tid % CHUNKS_PER_ROW) * 4;
        const int row = (K_CONTIG ? mn0 : 0) + r;  // global index along the strided dimension
        const int col = (K_CONTIG ? 0 : mn0) + c;  // global index along the contiguous dimension
        src = X + static_cast<int64_t>(row) * ld + col;
        fixed_left = MN - (K_CONTIG ? row : col);
        k_left = K - (K_CONTIG ? col : row);
        dst = r * Layout::LD + c;
    }

    // Issue part `part` (of `parts`) of the copies of k-tile kt into `stage`: chunks
    // [part*PER_THREAD/parts, (part+1)*PER_THREAD/parts) of this thread. The mainloop spreads a
    // tile's copies over its k8 steps, so that they interleave with the mma. Guarded copies
    // check every chunk against the matrix; unguarded ones are for tiles known to lie inside it.
    __device__ __forceinline__ void issue(float* stage, const float* X, int ld, int kt, int part,
                                          int parts, bool guarded) const {
        const int k0 = kt * BK;
        const float* tile_src = src + (K_CONTIG ? static_cast<int64_t>(k0)
                                                : static_cast<int64_t>(k0) * ld);
        const int k_rem = k_left - k0;
        // Floats in range of a chunk along the contiguous dimension, and how many rows exist.
        const int in_row = imin(imax(K_CONTIG ? k_rem : fixed_left, 0), 4);
        const int rows_left = K_CONTIG ? fixed_left : k_rem;
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            if (i < part * PER_THREAD / parts || i >= (part + 1) * PER_THREAD / parts) continue;
            float* dst_i = stage + dst + i * ROW_STEP * Layout::LD;
            const float* src_i = tile_src + static_cast<int64_t>(i * ROW_STEP) * ld;
            if (guarded) {
                const int bytes = i * ROW_STEP < rows_left ? in_row * 4 : 0;
                wg::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy(dst_i, bytes > 0 ? src_i : X, bytes);
            } else {
                wg::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy(dst_i, src_i);
            }
        }
    }
};

// ---------------------------------------------------------------------------------------------
// Fragments. mma.m16n8k8.tf32 takes A as 4 consecutive registers and B as 2; lane (g, t) =
// (lane/4, lane%4) holds a = {(g,t), (g+8,t), (g,t+4), (g+8,t+4)} of the 16x8 (m,k) A tile and
// b = {(k t, n g), (k t+4, n g)} of the 8x8 (k,n) B tile. Each loader below writes its
// registers in exactly that order, so that no register moves sit between the loads and the mma.
// ---------------------------------------------------------------------------------------------

// Offset, inside a stage, of what lane `lane` reads for the A fragment at (m, k) = (0, 0).
template <bool K_CONTIG, int LD>
__device__ __forceinline__ int a_lane_offset(int lane) {
    if constexpr (K_CONTIG) {
        // ldmatrix.x4: lanes 8i..8i+7 address the 8 rows of matrix i, which lands in a[i]:
        // matrices (m 0-7, k 0-3), (m 8-15, k 0-3), (m 0-7, k 4-7), (m 8-15, k 4-7).
        return ((lane & 7) + ((lane >> 3) & 1) * 8) * LD + (lane >> 4) * 4;
    } else {
        // Fragment rows g and g+8 are stored rows 2g and 2g+1: one float2 at (m 2g, k t).
        return (lane & 3) * LD + (lane >> 2) * 2;
    }
}

// Offset, inside a stage, of what lane `lane` reads for the B fragments of n-tiles 0 and 1.
template <bool K_CONTIG, int LD>
__device__ __forceinline__ int b_lane_offset(int lane) {
    if constexpr (K_CONTIG) {
        // ldmatrix.x4: matrices (n 0-7, k 0-3), (n 0-7, k 4-7), (n 8-15, k 0-3), (n 8-15, k 4-7)
        // land in b[0][0], b[0][1], b[1][0], b[1][1].
        return ((lane & 7) + (lane >> 4) * 8) * LD + ((lane >> 3) & 1) * 4;
    } else {
        // Two 4-byte loads per n-tile at (k t, n g) and (k t+4, n g): a (k,n) fragment needs two
        // k values, which are never adjacent in an n-contiguous row.
        return (lane & 3) * LD + (lane >> 2);
    }
}

// The 16x8 A fragment whose lane element is at `p`, rounded to tf32.
template <bool K_CONTIG, int LD>
__device__ __forceinline__ void load_a_fragment(uint32_t (&a)[4], const float* p) {
    if constexpr (K_CONTIG) {
        wg::SM75_U32x4_LDSM_N::copy(a, p);
#pragma unroll
        for (int r = 0; r < 4; ++r) a[r] = wg::cvt_tf32(__uint_as_float(a[r]));
    } else {
        const float2 lo = *reinterpret_cast<const float2*>(p);           // k = t:   rows g, g+8
        const float2 hi = *reinterpret_cast<const float2*>(p + 4 * LD);  // k = t+4: rows g, g+8
        a[0] = wg::cvt_tf32(lo.x);
        a[1] = wg::cvt_tf32(lo.y);
        a[2] = wg::cvt_tf32(hi.x);
        a[3] = wg::cvt_tf32(hi.y);
    }
}

// The B fragments of two adjacent n-tiles whose lane element is at `p`, rounded to tf32.
template <bool K_CONTIG, int LD>
__device__ __forceinline__ void load_b_fragments(uint32_t (&b0)[2], uint32_t (&b1)[2],
                                                 const float* p) {
    if constexpr (K_CONTIG) {
        uint32_t r[4];
        wg::SM75_U32x4_LDSM_N::copy(r, p);
        b0[0] = wg::cvt_tf32(__uint_as_float(r[0]));
        b0[1] = wg::cvt_tf32(__uint_as_float(r[1]));
        b1[0] = wg::cvt_tf32(__uint_as_float(r[2]));
        b1[1] = wg::cvt_tf32(__uint_as_float(r[3]));
    } else {
        b0[0] = wg::cvt_tf32(p[0]);
        b0[1] = wg::cvt_tf32(p[4 * LD]);
        b1[0] = wg::cvt_tf32(p[8]);
        b1[1] = wg::cvt_tf32(p[8 + 4 * LD]);
    }
}

// Read the fragments of k8 step `ks` of a stage; a_lane and b_lane point at the warp's lane
// elements of k8 step 0 in that stage.
template <bool A_KC, bool B_KC, int LDA_S, int LDB_S, int MT, int NT>
__device__ __forceinline__ void load_fragments(Fragments<MT, NT>& f, const float* a_lane,
                                               const float* b_lane, int ks) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
        load_a_fragment<A_KC, LDA_S>(f.a[i], a_lane + (A_KC ? i * 16 * LDA_S + ks * 8
                                                            : ks * 8 * LDA_S + i * 16));
#pragma unroll
    for (int p = 0; p < NT / 2; ++p)
        load_b_fragments<B_KC, LDB_S>(f.b[2 * p], f.b[2 * p + 1],
                                      b_lane + (B_KC ? p * 16 * LDB_S + ks * 8
                                                     : ks * 8 * LDB_S + p * 16));
}

// Accumulate the MT x NT mma tiles of one k8 step.
template <int MT, int NT>
__device__ __forceinline__ void mma_k_step(float (&acc)[MT][NT][4], const Fragments<MT, NT>& f) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) wg::SM80_16x8x8_F32TF32TF32F32_TN::fma(acc[i][j], f.a[i], f.b[j]);
}

// Write the warp's WM x WN accumulator tile, whose first element is C(m0, n0), with masking.
// Accumulator tile (i, j) holds, in lane (g, t), the fragment elements (g, 2t), (g, 2t+1),
// (g+8, 2t), (g+8, 2t+1). Fragment columns are C columns 8j + 2t, 8j + 2t + 1; fragment rows
// are C rows 16i + g, 16i + g + 8, or, when A is mn-contiguous (see a_lane_offset), the stored
// rows 16i + 2g, 16i + 2g + 1. Each pair of columns is one 8-byte store where C allows it.
template <bool A_KC, int MT, int NT>
__device__ __forceinline__ void store_tile(float* C, const float (&acc)[MT][NT][4], int m0, int n0,
                                           int M, int N, int ldc, int lane) {
    const int g = lane >> 2;
    const int t = lane & 3;
    const bool pairs_ok = (ldc % 2 == 0) && (reinterpret_cast<unsigned long long>(C) % 8 == 0);
#pragma unroll
    for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = m0 + i * 16 + (A_KC ? g + 8 * h : 2 * g + h);
            if (row >= M) continue;
            float* row_ptr = C + static_cast<int64_t>(row) * ldc;
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                const int col = n0 + j * 8 + 2 * t;
                const float v0 = acc[i][j][2 * h];
                const float v1 = acc[i][j][2 * h + 1];
                if (pairs_ok && col + 1 < N) {
                    *reinterpret_cast<float2*>(row_ptr + col) = float2{v0, v1};
                } else {
                    if (col < N) row_ptr[col] = v0;
                    if (col + 1 < N) row_ptr[col + 1] = v1;
                }
            }
        }
    }
}

}  // namespace tf32_mma

// C = A * B with TF32 tensor cores. Block tile BM x BN x BK, warp tile WM x WN, STAGES-deep
// cp.async ring, block swizzle of SWIZZLE tile-rows. Launch with a 1-D grid of
// ceil(M/BM) * ceil(N/BN) blocks of 32 * (BM/WM) * (BN/WN) threads and the catalogue's
// dynamic shared memory, STAGES * (A stage + B stage) floats.
template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int WM, int WN, int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(tf32_mma::threads_for(BM, BN, WM, WN),
                                  tf32_mma::min_blocks_for(BM, BN, WM, WN))
sgemm_tf32_mma(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
               int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace tf32_mma;
    static_assert(BM % WM == 0 && BN % WN == 0,
                  "the warp tile WM x WN must divide the block tile BM x BN");
    static_assert(WM % 16 == 0, "WM must be a multiple of 16 (the m of one mma.m16n8k8)");
    static_assert(WN % 16 == 0,
                  "WN must be a multiple of 16 (B fragments are read for pairs of n8 tiles)");
    static_assert(BK % 16 == 0,
                  "BK must be a multiple of 16: an even number of k8 steps per k-tile keeps the "
                  "fragment double buffer in step across k-tiles");
    static_assert(STAGES >= 2, "the cp.async pipeline needs at least 2 stages");
    static_assert(SWIZZLE >= 1, "SWIZZLE is a group size in tile-rows, at least 1");
    constexpr int THREADS = threads_for(BM, BN, WM, WN);
    static_assert(THREADS <= 1024, "at most 1024 threads per block: use a larger warp tile");
    static_assert(registers_for(WM, WN, 40) <= imin(255, 65536 / THREADS),
                  "the accumulators and fragments of a warp tile do not fit in the registers a "
                  "thread gets (at most 255, and 65536 / threads): use fewer warps or a smaller "
                  "warp tile");
    constexpr int WARPS_N = BN / WN;
    constexpr int MT = WM / 16;  // m16 tiles per warp
    constexpr int NT = WN / 8;   // n8 tiles per warp
    constexpr int KSTEPS = BK / 8;
    constexpr int COPY_PARTS = STAGES > 2 ? KSTEPS : 1;  // k8 steps a k-tile's copies spread over
    constexpr bool A_KC = A_ROW;   // row-major A is contiguous along k
    constexpr bool B_KC = !B_ROW;  // column-major B is contiguous along k
    using LayoutA = StageLayout<A_KC, BM, BK>;
    using LayoutB = StageLayout<B_KC, BN, BK>;
    static_assert(LayoutA::STAGE_FLOATS % 4 == 0 && LayoutB::STAGE_FLOATS % 4 == 0,
                  "every stage must start 16-byte aligned");

    extern __shared__ __align__(128) float smem[];
    float* const sA = smem;                                  // STAGES x A stage
    float* const sB = smem + STAGES * LayoutA::STAGE_FLOATS;  // STAGES x B stage

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int warp_m = warp / WARPS_N;
    const int warp_n = warp % WARPS_N;

    int tile_m, tile_n;
    wg::grouped_rows_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    const int m0 = tile_m * BM;
    const int n0 = tile_n * BN;
    const int k_tiles = (K + BK - 1) / BK;

    // Lane pointers into stage 0; stage s is STAGE_FLOATS * s further on.
    const int a_lane = LayoutA::offset(warp_m * WM, 0) + a_lane_offset<A_KC, LayoutA::LD>(lane);
    const int b_lane = LayoutB::offset(warp_n * WN, 0) + b_lane_offset<B_KC, LayoutB::LD>(lane);

    const TileLoader<A_KC, BM, BK, THREADS> a_loader(A, lda, m0, M, K, tid);
    const TileLoader<B_KC, BN, BK, THREADS> b_loader(B, ldb, n0, N, K, tid);
    auto load_stage = [&](int stage, int kt, int part, int parts, bool guarded) {
        a_loader.issue(sA + stage * LayoutA::STAGE_FLOATS, A, lda, kt, part, parts, guarded);
        b_loader.issue(sB + stage * LayoutB::STAGE_FLOATS, B, ldb, kt, part, parts, guarded);
    };

    // Prologue: start k-tiles 0 .. STAGES-2. A group is committed for every stage even when
    // there is no tile left, so that wait_group<STAGES-2> always means "tile kt has landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) load_stage(s, s, 0, 1, true);
        wg::cp_async_commit();
    }

    float acc[MT][NT][4];
    wg::sm80::zero(acc);

    Fragments<MT, NT> frag[2];
    int read_stage = 0;            // stage holding k-tile kt
    int write_stage = STAGES - 1;  // stage that receives k-tile kt + STAGES - 1

    wg::cp_async_wait<STAGES - 2>();
    __syncthreads();
    load_fragments<A_KC, B_KC, LayoutA::LD, LayoutB::LD>(frag[0], sA + a_lane, sB + b_lane, 0);

    // One k-tile of the mainloop: KSTEPS k8 steps of mma on stage read_stage, while the
    // fragments of the next step are read and k-tile kt+STAGES-1 is copied into write_stage
    // (free: every warp passed the last barrier after its last read of k-tile kt-1), a part in
    // each step. With 2 stages the copy is waited for at the end of this very k-tile, so it is
    // issued whole in the first step. Guarded copies check the matrix bounds; the two calls
    // below pass a constant, so each inlined copy of the body keeps only its own kind.
    auto k_tile = [&](int kt, bool guarded) {
        const bool refill = !guarded || kt + STAGES - 1 < k_tiles;
        const float* a_read = sA + read_stage * LayoutA::STAGE_FLOATS + a_lane;
        const float* b_read = sB + read_stage * LayoutB::STAGE_FLOATS + b_lane;
#pragma unroll
        for (int ks = 0; ks < KSTEPS; ++ks) {
            if (refill && ks < COPY_PARTS)
                load_stage(write_stage, kt + STAGES - 1, ks, COPY_PARTS, guarded);
            if (ks < KSTEPS - 1) {
                load_fragments<A_KC, B_KC, LayoutA::LD, LayoutB::LD>(frag[(ks + 1) % 2], a_read,
                                                                     b_read, ks + 1);
            } else {
                // Wait for k-tile kt+1, publish it to all warps, and read its first fragments
                // while the last mma step of k-tile kt runs. This is done in the last k-tile
                // too (it then reads a stale stage and the fragments go unused): keeping it
                // unconditional keeps the step one basic block, so the loads and their cvt can
                // interleave with the mma.
                wg::cp_async_commit();  // one group per k-tile, empty or not
                read_stage = read_stage + 1 == STAGES ? 0 : read_stage + 1;
                write_stage = write_stage + 1 == STAGES ? 0 : write_stage + 1;
                wg::cp_async_wait<STAGES - 2>();
                __syncthreads();
                load_fragments<A_KC, B_KC, LayoutA::LD, LayoutB::LD>(
                    frag[0], sA + read_stage * LayoutA::STAGE_FLOATS + a_lane,
                    sB + read_stage * LayoutB::STAGE_FLOATS + b_lane, 0);
            }
            mma_k_step(acc, frag[ks % 2]);
        }
    };

    // Blocks away from the right and bottom edges copy every k-tile but the K tail unguarded.
    const bool interior = m0 + BM <= M && n0 + BN <= N;
    for (int kt = 0; kt < k_tiles; ++kt) {
        if (interior && (kt + STAGES) * BK <= K) {
            k_tile(kt, false);
        } else {
            k_tile(kt, true);
        }
    }
    wg::cp_async_wait<0>();  // only empty groups remain; leave nothing in flight

    store_tile<A_KC>(C, acc, m0 + warp_m * WM, n0 + warp_n * WN, M, N, ldc, lane);
}
