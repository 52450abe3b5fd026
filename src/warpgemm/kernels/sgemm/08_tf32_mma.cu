// sgemm/08_tf32_mma.cu -- rung 08: TF32 tensor cores fed by a multi-stage cp.async pipeline.
//
// What this rung adds over rung 07 (FFMA fed by cp.async):
//   * The math moves from FFMA to tensor cores: each warp owns a WM x WN tile of C and computes it
//     with mma.sync.m16n8k8 (tf32 inputs, fp32 accumulators), (WM/16) x (WN/8) mma tiles per
//     k8 step. Every fragment element is rounded to tf32 with cvt.rna first, which is what
//     cuBLAS does when TF32 is allowed: inputs keep 10 mantissa bits, the sum stays fp32.
//   * A STAGES-deep cp.async ring (2, 3 or 4 stages): the copy of k-tile kt+STAGES-1 is issued
//     before k-tile kt is computed, and one __syncthreads per k-tile both publishes the tile that
//     just landed and frees the stage that was just consumed.
//   * Register double buffering of the fragments: the fragments of the next k8 step are read from
//     shared memory while the mma of this step run.
//   * A block swizzle: the grid is 1-D and consecutive blocks walk down a group of SWIZZLE
//     tile-rows of C within one tile-column, so the A and B tiles they share are still in L2.
//
// Shared memory. Each operand stage keeps its global layout's natural order, so that every
// cp.async writes 16 contiguous bytes:
//   k-contiguous operand (row-major A, column-major B): (MN,BK):(BK+4,1)  -- rows padded by 4
//   mn-contiguous operand (column-major A, row-major B): (MN,BK):(1,MN+8) -- rows padded by 8
// An operand is read as 16(mn) x 8(k) blocks, one per m16 A fragment or per pair of n8 B
// fragments:
//   k-contiguous: one ldmatrix.x4 (an 8x8 b16 matrix is an 8x4 tf32 matrix); with rows of BK+4
//     floats the eight 16-byte rows of each matrix fall in eight distinct bank quads.
//   mn-contiguous: two 8-byte loads per lane. The block's rows are permuted so that the two mn
//     values a lane needs are adjacent: fragment row r < 8 reads row 2r, fragment row r + 8 reads
//     row 2r+1. Lane (g, t) then reads the float2 at (mn = 2g, k = t) and at k = t + 4; with rows of
//     MN+8 floats each half-warp covers all 32 banks once. The permutation is undone when C is
//     stored (for B it turns each lane's outputs into 4 contiguous columns: 16-byte stores).
//
// Requires sm_80+ (cp.async, mma.sync tf32), A and B base pointers 16-byte aligned and lda, ldb
// multiples of 4 floats (the host copies other inputs to aligned buffers first). C is
// (M,N):(ldc,1); vector stores are used only where a run-time check shows they are aligned.
// Correct for any M, N, K >= 1: out-of-range chunks are zero-filled and stores are masked.
#include "common/ptx.cuh"

namespace tf32_mma {

using wg::int64_t;
using wg::uint32_t;

__host__ __device__ constexpr int threads_for(int BM, int BN, int WM, int WN) { return 32 * (BM / WM) * (BN / WN); }

__host__ __device__ constexpr int imax(int a, int b) { return a > b ? a : b; }
__host__ __device__ constexpr int imin(int a, int b) { return a < b ? a : b; }

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

    // Offset of the element lane `lane` reads for the 16x8 block at (0, 0) (see load_block_16x8).
    static __device__ __forceinline__ int lane_offset(int lane) {
        if (K_CONTIG) {
            // ldmatrix.x4: lanes 8i..8i+7 give the rows of matrix i, which holds
            // rows 8*(i/2).. and k 4*(i%2)..
            return offset((lane & 7) + ((lane >> 4) << 3), ((lane >> 3) & 1) * 4);
        }
        return offset(2 * (lane >> 2), lane & 3);  // float2 at (mn = 2g, k = t)
    }
};

// Block index -> (tile_m, tile_n) of C. Blocks walk down a group of SWIZZLE tile-rows within
// one tile-column, then move to the next tile-column; the last group may have fewer rows.
// SWIZZLE = 1 is plain row-by-row order.
template <int SWIZZLE>
__device__ __forceinline__ void swizzled_tile(int block, int tiles_m, int tiles_n, int& tile_m,
                                              int& tile_n) {
    const int blocks_per_group = SWIZZLE * tiles_n;
    const int first_m = (block / blocks_per_group) * SWIZZLE;
    const int rows = imin(tiles_m - first_m, SWIZZLE);
    const int in_group = block % blocks_per_group;
    tile_m = first_m + in_group % rows;
    tile_n = in_group / rows;
}

// Issue the cp.async copies of one TILE_MN x BK operand tile whose first element is (mn0, k0)
// into `stage`. X is (MN,K):(ld,1) when K_CONTIG, else (MN,K):(1,ld). Each thread copies
// 16-byte chunks along the contiguous dimension; chunks reaching past the matrix are
// zero-filled (partially or entirely; an empty chunk reads nothing and points at X itself).
template <bool K_CONTIG, int TILE_MN, int BK, int THREADS>
__device__ __forceinline__ void load_tile_async(float* stage, const float* __restrict__ X, int ld,
                                                int mn0, int MN, int k0, int K, int tid) {
    using Layout = StageLayout<K_CONTIG, TILE_MN, BK>;
    constexpr int ROW_FLOATS = K_CONTIG ? BK : TILE_MN;  // contiguous in global memory
    constexpr int ROWS = K_CONTIG ? TILE_MN : BK;
    constexpr int CHUNKS_PER_ROW = ROW_FLOATS / 4;
    constexpr int CHUNKS = ROWS * CHUNKS_PER_ROW;
    static_assert(CHUNKS % THREADS == 0,
                  "each thread must copy the same number of 16-byte chunks of an operand tile: "
                  "BM*BK/4 and BN*BK/4 must be multiples of the thread count");
    const int row0 = K_CONTIG ? mn0 : k0;  // global index along the strided dimension
    const int col0 = K_CONTIG ? k0 : mn0;  // global index along the contiguous dimension
    const int rows_end = K_CONTIG ? MN : K;
    const int cols_end = K_CONTIG ? K : MN;
#pragma unroll
    for (int i = 0; i < CHUNKS / THREADS; ++i) {
        const int chunk = tid + i * THREADS;
        const int row = chunk / CHUNKS_PER_ROW;
        const int col = (chunk % CHUNKS_PER_ROW) * 4;
        const int grow = row0 + row;
        const int gcol = col0 + col;
        const int valid = imin(imax(cols_end - gcol, 0), 4);  // floats of this chunk in range
        const int bytes = grow < rows_end ? valid * 4 : 0;
        const float* src = bytes > 0 ? X + static_cast<int64_t>(grow) * ld + gcol : X;
        wg::cp_async_16(stage + row * Layout::LD + col, src, bytes);
    }
}

// Read the 16(mn) x 8(k) block of an operand stage whose lane-0 element is `p` (p already
// includes the lane's StageLayout::lane_offset). Lane (g, t) = (lane/4, lane%4) receives
//   r[0] = (row g, k t)   r[1] = (row g, k t+4)   r[2] = (row g+8, k t)   r[3] = (row g+8, k t+4)
// where "row" is the fragment row; it is the stored row itself when K_CONTIG, and stored row
// 2g (for g) / 2g+1 (for g+8) otherwise.
template <bool K_CONTIG, int LD>
__device__ __forceinline__ void load_block_16x8(uint32_t (&r)[4], const float* p) {
    if constexpr (K_CONTIG) {
        wg::ldmatrix_x4(r, p);
    } else {
        const float2 lo = *reinterpret_cast<const float2*>(p);           // k = t
        const float2 hi = *reinterpret_cast<const float2*>(p + 4 * LD);  // k = t + 4
        r[0] = __float_as_uint(lo.x);
        r[1] = __float_as_uint(hi.x);
        r[2] = __float_as_uint(lo.y);
        r[3] = __float_as_uint(hi.y);
    }
}

// The operand fragments of one k8 step of a warp tile: MT m16 A fragments, NT n8 B fragments.
template <int MT, int NT>
struct Fragments {
    uint32_t a[MT][4];
    uint32_t b[NT][2];
};

// Read the fragments of k8 step `ks` from the warp's lane pointers into the A and B stages.
template <bool A_KC, bool B_KC, int LDA_S, int LDB_S, int MT, int NT>
__device__ __forceinline__ void load_fragments(Fragments<MT, NT>& f, const float* a_lane,
                                               const float* b_lane, int ks) {
#pragma unroll
    for (int i = 0; i < MT; ++i) {
        uint32_t r[4];
        load_block_16x8<A_KC, LDA_S>(r, a_lane + (A_KC ? i * 16 * LDA_S + ks * 8
                                                       : ks * 8 * LDA_S + i * 16));
        // m16n8k8 A fragment: a0 = (g, t), a1 = (g+8, t), a2 = (g, t+4), a3 = (g+8, t+4)
        f.a[i][0] = r[0];
        f.a[i][1] = r[2];
        f.a[i][2] = r[1];
        f.a[i][3] = r[3];
    }
#pragma unroll
    for (int p = 0; p < NT / 2; ++p) {
        uint32_t r[4];
        load_block_16x8<B_KC, LDB_S>(r, b_lane + (B_KC ? p * 16 * LDB_S + ks * 8
                                                       : ks * 8 * LDB_S + p * 16));
        // B fragment of n-tile j: b0 = (k t, n g), b1 = (k t+4, n g); block rows 0-7 are n-tile
        // 2p and rows 8-15 n-tile 2p+1.
        f.b[2 * p][0] = r[0];
        f.b[2 * p][1] = r[1];
        f.b[2 * p + 1][0] = r[2];
        f.b[2 * p + 1][1] = r[3];
    }
}

// Round the fragments to tf32 and accumulate the MT x NT mma tiles of one k8 step.
template <int MT, int NT>
__device__ __forceinline__ void mma_k_step(float (&acc)[MT][NT][4], const Fragments<MT, NT>& f) {
    uint32_t a[MT][4];
    uint32_t b[NT][2];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int r = 0; r < 4; ++r) a[i][r] = wg::cvt_tf32(__uint_as_float(f.a[i][r]));
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int r = 0; r < 2; ++r) b[j][r] = wg::cvt_tf32(__uint_as_float(f.b[j][r]));
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) wg::mma_m16n8k8_tf32(acc[i][j], a[i], b[j]);
}

// Store W consecutive outputs of one row, from column `col` on: one W-wide vector store when
// `vector_ok` and the run is entirely inside the matrix, masked scalar stores otherwise.
template <int W>
__device__ __forceinline__ void store_run(float* row_ptr, int col, int N, bool vector_ok,
                                          const float (&v)[W]) {
    if (vector_ok && col + W <= N) {
        if constexpr (W == 4) {
            *reinterpret_cast<float4*>(row_ptr + col) = float4{v[0], v[1], v[2], v[3]};
        } else {
            *reinterpret_cast<float2*>(row_ptr + col) = float2{v[0], v[1]};
        }
    } else {
#pragma unroll
        for (int e = 0; e < W; ++e)
            if (col + e < N) row_ptr[col + e] = v[e];
    }
}

// Write the warp's WM x WN accumulator tile, whose first element is C(m0, n0), with masking.
// Accumulator d of mma tile (i, j) holds fragment elements (g, 2t), (g, 2t+1), (g+8, 2t),
// (g+8, 2t+1); the fragment rows/columns map back to C through the operand permutations:
//   A k-contiguous: fragment row r -> row r.    mn-contiguous: g -> 2g, g+8 -> 2g+1.
//   B k-contiguous: n-tile j, column c -> 8j+c (2 contiguous columns per lane and tile).
//   B mn-contiguous: n-tiles 2p, 2p+1, column c -> 16p + 2c + (j odd): lane (g, t) owns the
//     4 contiguous columns 16p+4t .. 16p+4t+3.
template <bool A_KC, bool B_KC, int MT, int NT>
__device__ __forceinline__ void store_tile(float* C, const float (&acc)[MT][NT][4], int m0, int n0,
                                           int M, int N, int ldc, int lane) {
    const int g = lane >> 2;
    const int t = lane & 3;
    constexpr int W = B_KC ? 2 : 4;
    const bool vector_ok =
        (ldc % W == 0) && (reinterpret_cast<unsigned long long>(C) % (4 * W) == 0);
#pragma unroll
    for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int row = m0 + i * 16 + (A_KC ? g + 8 * h : 2 * g + h);
            if (row >= M) continue;
            float* row_ptr = C + static_cast<int64_t>(row) * ldc;
            if constexpr (B_KC) {
#pragma unroll
                for (int j = 0; j < NT; ++j) {
                    const float v[2] = {acc[i][j][2 * h], acc[i][j][2 * h + 1]};
                    store_run<2>(row_ptr, n0 + j * 8 + 2 * t, N, vector_ok, v);
                }
            } else {
#pragma unroll
                for (int p = 0; p < NT / 2; ++p) {
                    const float v[4] = {acc[i][2 * p][2 * h], acc[i][2 * p + 1][2 * h],
                                        acc[i][2 * p][2 * h + 1], acc[i][2 * p + 1][2 * h + 1]};
                    store_run<4>(row_ptr, n0 + p * 16 + 4 * t, N, vector_ok, v);
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
__global__ void __launch_bounds__(tf32_mma::threads_for(BM, BN, WM, WN))
sgemm_tf32_mma(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
               int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace tf32_mma;
    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile WM x WN must divide the block tile BM x BN");
    static_assert(WM % 16 == 0, "WM must be a multiple of 16 (the m of one mma.m16n8k8)");
    static_assert(WN % 16 == 0, "WN must be a multiple of 16 (B fragments are read in pairs of n8 tiles)");
    static_assert(BK % 16 == 0, "BK must be a multiple of 16: an even number of k8 steps per k-tile keeps "
                                "the fragment double buffer in step across k-tiles");
    static_assert(STAGES >= 2, "the cp.async pipeline needs at least 2 stages");
    static_assert(SWIZZLE >= 1, "SWIZZLE is a group size in tile-rows, at least 1");
    constexpr int THREADS = threads_for(BM, BN, WM, WN);
    static_assert(THREADS <= 1024, "at most 1024 threads per block: use a larger warp tile");
    constexpr int WARPS_N = BN / WN;
    constexpr int MT = WM / 16;  // m16 tiles per warp
    constexpr int NT = WN / 8;   // n8 tiles per warp
    constexpr int KSTEPS = BK / 8;
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
    swizzled_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    const int m0 = tile_m * BM;
    const int n0 = tile_n * BN;
    const int k_tiles = (K + BK - 1) / BK;

    // Lane pointers into stage 0; stage s is STAGE_FLOATS * s further on.
    const int a_lane = LayoutA::offset(warp_m * WM, 0) + LayoutA::lane_offset(lane);
    const int b_lane = LayoutB::offset(warp_n * WN, 0) + LayoutB::lane_offset(lane);

    auto load_stage = [&](int stage, int kt) {
        load_tile_async<A_KC, BM, BK, THREADS>(sA + stage * LayoutA::STAGE_FLOATS, A, lda, m0, M,
                                               kt * BK, K, tid);
        load_tile_async<B_KC, BN, BK, THREADS>(sB + stage * LayoutB::STAGE_FLOATS, B, ldb, n0, N,
                                               kt * BK, K, tid);
    };

    // Prologue: start k-tiles 0 .. STAGES-2. A group is committed for every stage even when
    // there is no tile left, so that wait_group<STAGES-2> always means "tile kt has landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) load_stage(s, s);
        wg::cp_async_commit();
    }

    float acc[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0f;

    Fragments<MT, NT> frag[2];
    int read_stage = 0;            // stage holding k-tile kt
    int write_stage = STAGES - 1;  // stage that receives k-tile kt + STAGES - 1

    wg::cp_async_wait<STAGES - 2>();
    __syncthreads();
    load_fragments<A_KC, B_KC, LayoutA::LD, LayoutB::LD>(frag[0], sA + a_lane, sB + b_lane, 0);

    for (int kt = 0; kt < k_tiles; ++kt) {
        // The barrier before this point was passed by every warp after its last read of
        // k-tile kt-1, so that tile's stage (write_stage) is free: refill it.
        if (kt + STAGES - 1 < k_tiles) load_stage(write_stage, kt + STAGES - 1);
        wg::cp_async_commit();

        const float* a_read = sA + read_stage * LayoutA::STAGE_FLOATS + a_lane;
        const float* b_read = sB + read_stage * LayoutB::STAGE_FLOATS + b_lane;
#pragma unroll
        for (int ks = 0; ks < KSTEPS; ++ks) {
            if (ks < KSTEPS - 1) {
                load_fragments<A_KC, B_KC, LayoutA::LD, LayoutB::LD>(frag[(ks + 1) % 2], a_read,
                                                                     b_read, ks + 1);
            } else if (kt + 1 < k_tiles) {  // uniform across the block
                // Wait for k-tile kt+1, publish it to all warps, and read its first fragments
                // while the last mma step of k-tile kt runs.
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
    }
    wg::cp_async_wait<0>();  // only empty groups remain; leave nothing in flight

    store_tile<A_KC, B_KC>(C, acc, m0 + warp_m * WM, n0 + warp_n * WN, M, N, ldc, lane);
}
