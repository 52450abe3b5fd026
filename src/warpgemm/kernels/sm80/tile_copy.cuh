// warpgemm/kernels/sm80/tile_copy.cuh -- global -> shared memory: one operand's (MN, BK) tile of
// 16-bit or 8-bit elements per k-tile, in 16-byte chunks (8 or 16 elements), through registers
// (hgemm rungs 01-03, 16-bit only) or with cp.async (rungs 04 on, igemm 01), bounds-checked or,
// for k-tiles inside the matrix, not (rung 07's interior loop). The host guarantees 16-byte
// aligned base pointers and leading dimensions that are multiples of 16 bytes, so a 16-byte chunk
// never straddles two rows of an operand. Edges are exact to the byte: an 8-bit K tail of any
// length is zero-filled.
#pragma once

#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "sm80/smem_layout.cuh"

namespace wg {
namespace sm80 {

// Thread `tid` moves the tile's chunks tid, tid + THREADS, tid + 2*THREADS, ... (in the layout's
// storage order, so that 8 consecutive threads fill one 128-byte line). For every layout and
// thread count used, chunk tid + i*THREADS lies at a fixed (mn, k) distance from chunk tid and
// is stored a fixed distance further on (checked at compile time below): a thread keeps one
// global pointer, one shared offset and two edge counts, whatever the number of its chunks.
// A chunk that reaches past the matrix (an M/N edge or the K tail) is zero-filled, partially or
// entirely; an empty chunk reads nothing.
template <class Layout, int CHUNKS, int THREADS>
__host__ __device__ constexpr bool chunks_move_together() {
    for (int t = 0; t < THREADS; ++t)
        for (int c = 0; c < CHUNKS; c += THREADS) {
            const Coord a = Layout::chunk(t + c), b = Layout::chunk(t), d = Layout::chunk(c);
            if (a.mn != b.mn + d.mn || a.k != b.k + d.k) return false;
            if (Layout::chunk_offset(t + c) != Layout::chunk_offset(t) + Layout::chunk_offset(c)) return false;
        }
    return true;
}

// Whether chunk(c) and chunk_offset(c) agree with offset(mn, k) at both ends of every chunk.
template <class Layout, bool K_CONTIG, int CHUNKS>
__host__ __device__ constexpr bool chunks_match_offsets() {
    for (int c = 0; c < CHUNKS; ++c)
        for (int e = 0; e < Layout::CHUNK; e += Layout::CHUNK - 1) {
            const Coord x = Layout::chunk(c);
            if (Layout::offset(x.mn + (K_CONTIG ? 0 : e), x.k + (K_CONTIG ? e : 0)) != Layout::chunk_offset(c) + e)
                return false;
        }
    return true;
}

template <typename T, class Layout, bool K_CONTIG, int MN, int BK, int THREADS>
struct TileCopy {
    static constexpr int E = 16 / static_cast<int>(sizeof(T));  // elements in a 16-byte chunk
    static_assert(Layout::ELEM_BYTES == static_cast<int>(sizeof(T)), "the tile layout is for another element size");
    static constexpr int CHUNKS = MN * BK / E;
    static constexpr int PER_THREAD = CHUNKS / THREADS;
    static_assert(MN % E == 0 && BK % E == 0, "tiles are copied in 16-byte chunks (8 16-bit or 16 8-bit "
                                              "elements): BK, BM and BN must be multiples of that");
    static_assert(CHUNKS % THREADS == 0, "every thread must copy the same number of 16-byte chunks: "
                                         "BM*BK/8 and BN*BK/8 must be multiples of the thread count");
    static_assert(chunks_match_offsets<Layout, K_CONTIG, CHUNKS>(), "the layout's chunk order is inconsistent");
    static_assert(chunks_move_together<Layout, CHUNKS, THREADS>(),
                  "a thread's chunks must sit at fixed distances from its first one: use a thread count "
                  "that is a multiple of the chunks in one stored row (and of 64 for a swizzled tile)");

    const T* src;  // this thread's first chunk in k-tile 0 (dereferenced only when in range)
    int mn_left;   // rows (K_CONTIG) or elements (not K_CONTIG) of the matrix from its first chunk on
    int k_left;    // K minus the k of its first chunk
    int dst;       // where its first chunk goes in a stage

    __device__ __forceinline__ TileCopy(const T* X, int ld, int mn0, int MN_total, int K, int tid) {
        const Coord c = Layout::chunk(tid);
        const int mn = mn0 + c.mn;
        src = X + (K_CONTIG ? static_cast<int64_t>(mn) * ld + c.k : static_cast<int64_t>(c.k) * ld + mn);
        mn_left = MN_total - mn;
        k_left = K - c.k;
        dst = Layout::chunk_offset(tid);
    }

    // Where chunk i of k-tile kt starts in global memory (which need not exist).
    __device__ __forceinline__ const T* address(int i, int kt, int ld) const {
        const Coord d = Layout::chunk(i * THREADS);  // a constant once unrolled
        if constexpr (K_CONTIG) return src + static_cast<int64_t>(d.mn) * ld + (kt * BK + d.k);
        else return src + static_cast<int64_t>(kt * BK + d.k) * ld + d.mn;
    }

    // Chunk i of k-tile kt: where it is in global memory and how many of its bytes exist there.
    // The leading dimension goes through an opaque copy so that the compiler recomputes each
    // chunk's address per k-tile (one multiply-add) instead of keeping every chunk's 64-bit
    // address live across the main loop.
    __device__ __forceinline__ const T* chunk(int i, int kt, int ld, int& bytes) const {
        constexpr Coord d0 = Layout::chunk(0);
        static_assert(d0.mn == 0 && d0.k == 0, "chunk 0 starts the tile");
        const Coord d = Layout::chunk(i * THREADS);  // a constant once unrolled
        const int k_rem = k_left - kt * BK - d.k;
        constexpr int EB = static_cast<int>(sizeof(T));
        if constexpr (K_CONTIG) bytes = d.mn < mn_left ? EB * imin(imax(k_rem, 0), E) : 0;
        else if constexpr (EB == 2) bytes = 0 < k_rem ? EB * imin(imax(mn_left - d.mn, 0), E) : 0;
        // 8-bit tiles: each chunk's byte count is worked out again per k-tile rather than kept in
        // a register across the main loop (the in-place transposing copy needs those registers).
        else bytes = 0 < k_rem ? imin(imax(opaque(mn_left) - d.mn, 0), E) : 0;
        return address(i, kt, opaque(ld));
    }

    __device__ __forceinline__ int dst_of(int i) const { return dst + Layout::chunk_offset(i * THREADS); }

    // cp.async the chunks of k-tile kt into `tile` (zero-filling what lies outside X): all of
    // them, or part `part` of `parts` (chunks [part, part+1) * PER_THREAD / parts), so that a
    // main loop can spread one tile's copies over its k16 steps.
    __device__ __forceinline__ void cp_async(T* tile, const T* X, int ld, int kt, int part = 0,
                                             int parts = 1) const {
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            if (i < part * PER_THREAD / parts || i >= (part + 1) * PER_THREAD / parts) continue;
            int bytes;
            const T* p = chunk(i, kt, ld, bytes);
            SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy(tile + dst_of(i), bytes > 0 ? p : X, bytes);
        }
    }

    // The same for a k-tile that the caller knows lies wholly inside X: no bounds, so each chunk
    // costs one address computation and one cp.async.
    __device__ __forceinline__ void cp_async_interior(uint32_t tile, int ld, int kt, int part = 0,
                                                      int parts = 1) const {
        const uint32_t base = tile + sizeof(T) * dst;
        ld = opaque(ld);
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            if (i < part * PER_THREAD / parts || i >= (part + 1) * PER_THREAD / parts) continue;
            SM80_CP_ASYNC_CACHEGLOBAL::copy(base + sizeof(T) * Layout::chunk_offset(i * THREADS), address(i, kt, ld));
        }
    }

    // Read every chunk of k-tile kt into registers (zeros for what lies outside X; 16-bit
    // elements) ...
    __device__ __forceinline__ void load(uint4 (&r)[PER_THREAD], int kt, int ld) const {
        static_assert(sizeof(T) == 2, "the register-staged copy moves 16-bit elements");
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            int bytes;
            const T* p = chunk(i, kt, ld, bytes);
            if (bytes == 16) {
                r[i] = *reinterpret_cast<const uint4*>(p);
            } else {
                uint32_t w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    if (2 * j < bytes) w[j / 2] |= static_cast<uint32_t>(p[j].bits) << (16 * (j % 2));
                r[i] = make_uint4(w[0], w[1], w[2], w[3]);
            }
        }
    }

    // ... and write them into `tile` with 16-byte stores.
    __device__ __forceinline__ void store(T* tile, const uint4 (&r)[PER_THREAD]) const {
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) *reinterpret_cast<uint4*>(tile + dst_of(i)) = r[i];
    }
};

}  // namespace sm80
}  // namespace wg
