// warpgemm/kernels/common/tile_io.cuh -- moving fp32 tiles between global memory, registers and
// shared memory, and storing register tiles of C. Shared by the FFMA SGEMM ladder (sgemm/03..07).
//
// Operands as (MN, K) matrices. A (M x K) is read as is, mn = m. B (K x N) is read as B^T, an
// (N x K) matrix, mn = n. One flag then says which way an operand runs in global memory:
//   K_CONTIG      element (mn, k) at mn * ld + k   (MN,K):(ld,1)   row-major A, column-major B
//   not K_CONTIG  element (mn, k) at k * ld + mn   (MN,K):(1,ld)   column-major A, row-major B
// Global reads move 16-byte chunks: 4 elements that are consecutive along the contiguous
// dimension. That needs the base pointer 16-byte aligned and ld a multiple of 4 floats; the host
// guarantees both for the kernels that use these helpers.
#pragma once

#include "common/types.cuh"

namespace wg {

// Offset of element (mn, k) of an operand, in 64 bits so that huge matrices do not wrap.
template <bool K_CONTIG>
__device__ __forceinline__ int64_t operand_offset(int mn, int k, int ld) {
    return K_CONTIG ? static_cast<int64_t>(mn) * ld + k : static_cast<int64_t>(k) * ld + mn;
}

// The float4 at p, of which only the first `valid` elements exist (valid may be <= 0 or >= 4).
// Missing elements read as zero and are never touched in memory. A full chunk is one 16-byte
// load; a partial one (a ragged edge, a K tail) falls back to scalar loads.
__device__ __forceinline__ float4 load_float4_or_zero(const float* p, int valid) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
    if (valid >= 4) {
        v = *reinterpret_cast<const float4*>(p);
    } else {
        if (valid > 0) v.x = p[0];
        if (valid > 1) v.y = p[1];
        if (valid > 2) v.z = p[2];
    }
    return v;
}

// ---------------------------------------------------------------------------------------------
// Shared-memory tiles
// ---------------------------------------------------------------------------------------------

// A (TILE_MN, BK) operand tile in shared memory with layout (TILE_MN,BK):(MN_STRIDE,K_STRIDE).
template <int TILE_MN, int BK, int MN_STRIDE, int K_STRIDE>
struct SmemTile {
    static constexpr int tile_mn = TILE_MN;
    static constexpr int bk = BK;
    static constexpr int mn_stride = MN_STRIDE;
    static constexpr int k_stride = K_STRIDE;
    static_assert(MN_STRIDE == 1 || K_STRIDE == 1, "a shared tile is contiguous along mn or k");
    // Floats one tile occupies, padding included.
    static constexpr int floats = MN_STRIDE == 1 ? BK * K_STRIDE : TILE_MN * MN_STRIDE;

    static __device__ __forceinline__ constexpr int offset(int mn, int k) {
        return mn * MN_STRIDE + k * K_STRIDE;
    }
};

// The tile stored the way the operand runs in global memory, unpadded:
// (TILE_MN,BK):(BK,1) when K_CONTIG, (TILE_MN,BK):(1,TILE_MN) otherwise.
template <bool K_CONTIG, int TILE_MN, int BK>
using SmemTileAsGlobal = SmemTile<TILE_MN, BK, K_CONTIG ? BK : 1, K_CONTIG ? 1 : TILE_MN>;

// The tile stored mn-major whatever the global layout, each k-row padded by 4 floats:
// (TILE_MN,BK):(1,TILE_MN+4). A thread then reads 4 consecutive mn at one k as a float4, and the
// padding shifts each k-row by 4 banks so that the transposing scalar stores of a K_CONTIG
// operand (see StagedTile) hit 32 distinct banks per warp.
template <int TILE_MN, int BK>
using SmemTileMnMajor = SmemTile<TILE_MN, BK, 1, TILE_MN + 4>;

// ---------------------------------------------------------------------------------------------
// Which thread moves which part of a slice
// ---------------------------------------------------------------------------------------------

// A (TILE_MN, BK) slice of an operand is moved in units of VEC elements that are consecutive
// along the operand's contiguous dimension (VEC = 4: a 16-byte chunk; VEC = 1: one float).
// Units are numbered along runs of RUN contiguous elements, then across the ROWS rows of the
// slice, then over the GROUPS runs of a row:
//   K_CONTIG:     runs of 8 k (32 bytes, one sector) of each of the TILE_MN rows; BK/8 groups
//   not K_CONTIG: runs of TILE_MN mn (a whole k-row of the slice); BK rows, one group
// and thread tid moves units tid, tid + THREADS, tid + 2 * THREADS, ... ("passes"). A warp's
// units in one pass are then whole runs of neighbouring rows, and a thread's unit in pass p sits
// at a compile-time offset from its first one: (mn + mn_step(p), k + k_step(p)). With 256
// threads and 128-row slices, a warp moves 16 rows x 32 bytes (16-byte chunks, k-contiguous),
// 4 rows x 32 bytes (single floats, k-contiguous), or 512 bytes of one k-row (mn-contiguous).
template <bool K_CONTIG, int TILE_MN, int BK, int THREADS, int VEC>
struct SliceCover {
    static constexpr int RUN = K_CONTIG ? 8 : TILE_MN;
    static constexpr int ROWS = K_CONTIG ? TILE_MN : BK;
    static constexpr int GROUPS = K_CONTIG ? BK / 8 : 1;
    static constexpr int UNITS_PER_RUN = RUN / VEC;
    static constexpr int ROWS_PER_PASS = THREADS / UNITS_PER_RUN;
    static constexpr int UNITS = GROUPS * ROWS * UNITS_PER_RUN;
    static constexpr int PASSES = (UNITS + THREADS - 1) / THREADS;

    static_assert(!K_CONTIG || BK % 8 == 0,
                  "BK must be a multiple of 8: a k-contiguous slice moves in 32-byte runs of k");
    static_assert(RUN % VEC == 0 && THREADS % UNITS_PER_RUN == 0,
                  "THREADS must be a multiple of the units in one run (TILE_MN / 4 for 16-byte "
                  "chunks of an mn-contiguous slice)");
    static_assert(ROWS % ROWS_PER_PASS == 0 || ROWS_PER_PASS % ROWS == 0,
                  "the rows one pass covers (THREADS / units per run) must divide, or be a "
                  "multiple of, the slice's rows");

    int tid;
    int mn, k;  // this thread's unit in pass 0, relative to the slice's corner

    __device__ __forceinline__ explicit SliceCover(int tid_) : tid(tid_) {
        const int row = (tid / UNITS_PER_RUN) % ROWS;
        const int along = (tid % UNITS_PER_RUN) * VEC + RUN * (tid / UNITS_PER_RUN / ROWS);
        mn = K_CONTIG ? row : along;
        k = K_CONTIG ? along : row;
    }
    // Offsets of pass p's unit from pass 0's (units tid + p * THREADS and tid).
    static __device__ __forceinline__ constexpr int row_step(int p) {
        return (p * ROWS_PER_PASS) % ROWS;
    }
    static __device__ __forceinline__ constexpr int along_step(int p) {
        return RUN * ((p * ROWS_PER_PASS) / ROWS);
    }
    static __device__ __forceinline__ constexpr int mn_step(int p) {
        return K_CONTIG ? row_step(p) : along_step(p);
    }
    static __device__ __forceinline__ constexpr int k_step(int p) {
        return K_CONTIG ? along_step(p) : row_step(p);
    }
    // Whether this thread has a unit in pass p (always, when UNITS is a multiple of THREADS).
    __device__ __forceinline__ bool has(int p) const {
        return UNITS % THREADS == 0 || tid + p * THREADS < UNITS;
    }
};

// ---------------------------------------------------------------------------------------------
// Global -> registers -> shared memory
// ---------------------------------------------------------------------------------------------

// A (TILE_MN, BK) slice of an operand, staged through registers in 16-byte chunks that
// SliceCover lays out over the threads.
template <bool K_CONTIG, int TILE_MN, int BK, int THREADS>
struct StagedTile {
    using Cover = SliceCover<K_CONTIG, TILE_MN, BK, THREADS, 4>;
    static_assert(TILE_MN % 4 == 0, "BM and BN must be multiples of 4");

    Cover cover;
    float4 chunk[Cover::PASSES];

    __device__ __forceinline__ explicit StagedTile(int tid) : cover(tid) {}

    // Read the slice whose corner is (mn0, k0) of the (MN, K) operand X. Chunks reaching past MN
    // or K are zero-filled element by element.
    __device__ __forceinline__ void load(const float* __restrict__ X, int ld, int MN, int K,
                                         int mn0, int k0) {
#pragma unroll
        for (int p = 0; p < Cover::PASSES; ++p) {
            if (!cover.has(p)) continue;
            const int mn = mn0 + cover.mn + Cover::mn_step(p), k = k0 + cover.k + Cover::k_step(p);
            const int valid = K_CONTIG ? (mn < MN ? K - k : 0) : (k < K ? MN - mn : 0);
            chunk[p] = load_float4_or_zero(X + operand_offset<K_CONTIG>(mn, k, ld), valid);
        }
    }

    // Write the chunks into shared tile `s` of layout Smem: one 16-byte store where the tile
    // runs the same way as the chunk, four scalar stores (a transpose) where it does not.
    template <class Smem>
    __device__ __forceinline__ void store(float* s) const {
        static_assert(Smem::tile_mn == TILE_MN && Smem::bk == BK, "shared tile shape mismatch");
        constexpr int along = K_CONTIG ? Smem::k_stride : Smem::mn_stride;   // along the chunk
        constexpr int across = K_CONTIG ? Smem::mn_stride : Smem::k_stride;
        float* base = s + Smem::offset(cover.mn, cover.k);
#pragma unroll
        for (int p = 0; p < Cover::PASSES; ++p) {
            if (!cover.has(p)) continue;
            float* dst = base + Smem::offset(Cover::mn_step(p), Cover::k_step(p));
            if constexpr (along == 1 && across % 4 == 0) {
                *reinterpret_cast<float4*>(dst) = chunk[p];
            } else {
                dst[0 * along] = chunk[p].x;
                dst[1 * along] = chunk[p].y;
                dst[2 * along] = chunk[p].z;
                dst[3 * along] = chunk[p].w;
            }
        }
    }
};

// ---------------------------------------------------------------------------------------------
// Registers -> C
// ---------------------------------------------------------------------------------------------

// Whether 16-byte stores into C (M,N):(ldc,1) are aligned: rows a multiple of 4 floats apart and
// a 16-byte aligned base. Uniform across the grid.
__device__ __forceinline__ bool c_rows_float4_aligned(const float* C, int ldc) {
    return ldc % 4 == 0 && reinterpret_cast<uint64_t>(C) % 16 == 0;
}

// C[row0 + i][col0 + j] = acc[I0 + i][J0 + j] for i < ROWS, j < COLS, skipping elements outside
// the M x N matrix. Runs of 4 columns become one 16-byte store when `float4_ok` (see
// c_rows_float4_aligned), COLS and col0 are multiples of 4 and the run lies inside the matrix.
template <int I0, int J0, int ROWS, int COLS, int TM, int TN>
__device__ __forceinline__ void store_c_block(float* __restrict__ C, int ldc, int M, int N,
                                              int row0, int col0, const float (&acc)[TM][TN],
                                              bool float4_ok) {
    static_assert(I0 + ROWS <= TM && J0 + COLS <= TN, "C block outside the register tile");
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
        const int row = row0 + i;
        if (row >= M) continue;
        float* c_row = C + static_cast<int64_t>(row) * ldc;
        if constexpr (COLS % 4 == 0) {
#pragma unroll
            for (int j = 0; j < COLS; j += 4) {
                const int col = col0 + j;
                if (float4_ok && col + 4 <= N) {
                    *reinterpret_cast<float4*>(c_row + col) =
                        make_float4(acc[I0 + i][J0 + j + 0], acc[I0 + i][J0 + j + 1],
                                    acc[I0 + i][J0 + j + 2], acc[I0 + i][J0 + j + 3]);
                } else {
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        if (col + e < N) c_row[col + e] = acc[I0 + i][J0 + j + e];
                }
            }
        } else {
#pragma unroll
            for (int j = 0; j < COLS; ++j)
                if (col0 + j < N) c_row[col0 + j] = acc[I0 + i][J0 + j];
        }
    }
}

}  // namespace wg
