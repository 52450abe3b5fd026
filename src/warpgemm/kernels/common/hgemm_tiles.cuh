// warpgemm/kernels/common/hgemm_tiles.cuh -- the tile-level pieces the HGEMM ladder is built from
// (kernels/hgemm/01..08): element types, shared-memory tile layouts, global -> shared copies,
// ldmatrix fragment loads, the warp's mma tile, block orders and the C epilogue.
//
// Operands are seen as (MN, K) matrices. A (M x K) is read as is, mn = m. B (K x N) is read as
// B^T, an (N x K) matrix, mn = n. One flag says which way an operand runs in global memory:
//   K_CONTIG      (MN,K):(ld,1)   row-major A, column-major B     ldmatrix (no transpose)
//   not K_CONTIG  (MN,K):(1,ld)   column-major A, row-major B     ldmatrix .trans
// A shared-memory tile keeps the operand's global order, so every global -> shared copy moves 16
// contiguous bytes (8 elements), and the transpose, where one is needed, happens in ldmatrix.
// The host guarantees 16-byte aligned base pointers and leading dimensions that are multiples of
// 8 elements, so a 16-byte chunk never straddles two rows of an operand.
#pragma once

#include "common/ptx.cuh"

namespace wg {
namespace hgemm {

__host__ __device__ constexpr int imin(int a, int b) { return a < b ? a : b; }
__host__ __device__ constexpr int imax(int a, int b) { return a > b ? a : b; }

template <typename X, typename Y> struct same_type { static constexpr bool value = false; };
template <typename X> struct same_type<X, X> { static constexpr bool value = true; };
template <bool C, typename X, typename Y> struct pick { using type = X; };
template <typename X, typename Y> struct pick<false, X, Y> { using type = Y; };

template <typename T>
constexpr bool is_16bit_float = same_type<T, half_t>::value || same_type<T, bf16_t>::value;

// The block's dynamic shared memory. Every HGEMM kernel declares it here, once, so that rung
// files which include one another never declare it twice with different types.
__device__ __forceinline__ unsigned char* dynamic_smem() {
    extern __shared__ __align__(1024) unsigned char hgemm_dynamic_smem[];
    return hgemm_dynamic_smem;
}

// ---------------------------------------------------------------------------------------------
// The block and warp tiling of the mma.sync rungs
// ---------------------------------------------------------------------------------------------

__host__ __device__ constexpr int threads_for(int BM, int BN, int WM, int WN) {
    return 32 * (BM / WM) * (BN / WN);
}

// A block computes BM x BN of C with (BM/WM) x (BN/WN) warps, warp w at row w / WARPS_N and
// column w % WARPS_N of the warp grid; a warp's WM x WN tile is MT x NT mma tiles of m16n8, and
// a k-tile of BK is KSTEPS steps of k16.
template <int BM, int BN, int BK, int WM, int WN>
struct BlockShape {
    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile WM x WN must divide the block tile BM x BN");
    static_assert(WM % 16 == 0, "WM must be a multiple of 16 (the m of one mma.m16n8k16)");
    static_assert(WN % 16 == 0, "WN must be a multiple of 16 (B fragments are read in pairs of n8 tiles)");
    static_assert(BK % 16 == 0, "BK must be a multiple of 16 (the k of one mma.m16n8k16)");
    static constexpr int WARPS_M = BM / WM;
    static constexpr int WARPS_N = BN / WN;
    static constexpr int THREADS = threads_for(BM, BN, WM, WN);
    static_assert(THREADS <= 1024, "at most 1024 threads per block: use a larger warp tile");
    static constexpr int MT = WM / 16;
    static constexpr int NT = WN / 8;
    static constexpr int KSTEPS = BK / 16;
};

// ---------------------------------------------------------------------------------------------
// Element types: two fp32 values -> one b32 of TC, and the mma for T
// ---------------------------------------------------------------------------------------------

template <typename TC>
__device__ __forceinline__ uint32_t pack2(float lo, float hi) {
    static_assert(is_16bit_float<TC>, "pack2 makes two 16-bit floats");
    if constexpr (same_type<TC, half_t>::value) return cvt_f16x2(lo, hi);
    else return cvt_bf16x2(lo, hi);
}

// acc += A * B for one m16n8k16 tile of T (half_t or bf16_t), fp32 accumulator.
template <typename T>
__device__ __forceinline__ void mma_16816(float (&acc)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    if constexpr (same_type<T, half_t>::value) mma_m16n8k16_f16_f32(acc, a, b);
    else mma_m16n8k16_bf16_f32(acc, a, b);
}

// The same with an fp16 accumulator (f16x2 pairs), fp16 inputs only.
template <typename T>
__device__ __forceinline__ void mma_16816(uint32_t (&acc)[2], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    static_assert(same_type<T, half_t>::value, "the fp16 accumulator takes fp16 inputs only");
    mma_m16n8k16_f16_f16(acc, a, b);
}

// ---------------------------------------------------------------------------------------------
// Shared-memory layouts of one (MN, BK) operand tile; offsets in elements
// ---------------------------------------------------------------------------------------------
//
// A layout gives, besides offset(mn, k):
//   chunk(c)         the (mn, k) of the c-th 16-byte chunk of the tile in storage order
//                    (before any swizzle), i.e. of elements 8c .. 8c+7 of the unswizzled tile;
//   chunk_offset(c)  where that chunk is stored (element offset of its first element);
//   advance(b, j, ks) the offset of (mn + 16j, k + 16ks) from b = offset(mn, k), with constant
//                    j and ks: the fragment reads keep one address register per operand.

struct Coord {
    int mn, k;
};

// The tile stored exactly as it runs in global memory, unpadded:
//   K_CONTIG:     (MN,BK):(BK,1)     rows of BK elements (64 bytes when BK = 32)
//   not K_CONTIG: (MN,BK):(1,MN)     rows of MN elements
// The 8 rows one ldmatrix phase reads are 2*BK or 2*MN bytes apart, so they fall into the same
// banks several times over: 4-way conflicts for a k-contiguous BK=32 tile, 8-way for an
// mn-contiguous one (rows 256 or 512 bytes apart).
template <bool K_CONTIG, int MN, int BK>
struct PlainSmem {
    static constexpr int ELEMS = MN * BK;
    static __host__ __device__ constexpr int offset(int mn, int k) {
        return K_CONTIG ? mn * BK + k : k * MN + mn;
    }
    static __host__ __device__ constexpr Coord chunk(int c) {
        return K_CONTIG ? Coord{c / (BK / 8), (c % (BK / 8)) * 8} : Coord{(c % (MN / 8)) * 8, c / (MN / 8)};
    }
    static __host__ __device__ constexpr int chunk_offset(int c) { return 8 * c; }
    // offset(mn + 16j, k + 16ks), given base = offset(mn, k).
    static __host__ __device__ constexpr int advance(int base, int j, int ks) {
        return base + j * (K_CONTIG ? 16 * BK : 16) + ks * (K_CONTIG ? 16 : 16 * MN);
    }
};

// Swizzle<3,3,3> on an element offset: bits [6,9) (which 128-byte line, mod 8) are XORed into
// bits [3,6) (which 16-byte chunk of the line). 16-byte chunks stay whole; within any 8
// consecutive 128-byte lines, a given logical chunk lands in 8 different bank groups. Adding a
// multiple of 512 elements (8 lines) commutes with it.
__host__ __device__ constexpr int swizzle_333(int offset) { return offset ^ ((offset >> 3) & 0x38); }

// The tile with the Swizzle<3,3,3> permutation, in 128-byte lines (64 elements):
//   K_CONTIG:     Sw<3,3,3> o (MN,BK):(BK,1)                      BK = 32: two mn rows per line
//                                                                 BK = 64: one mn row per line
//   not K_CONTIG: Sw<3,3,3> o ((64,MN/64),BK):((1,64*BK),64)      panels 64 mn wide, one k row
//                                                                 of a panel per line
// An ldmatrix phase reads 8 rows of 16 bytes: 8 consecutive mn at one 8-aligned k (K_CONTIG) or
// 8 consecutive k at one 8-aligned mn (not K_CONTIG). Those 8 chunks sit in 8 consecutive lines
// (or 4 lines, two per line, when BK = 32) with 8 different swizzled chunk positions: one
// wavefront, no bank conflict. The 8 threads that write one line with cp.async also hit 8
// different bank groups.
template <bool K_CONTIG, int MN, int BK>
struct SwizzledSmem {
    static_assert(BK == 32 || BK == 64, "the swizzled tile needs BK = 32 or 64: k-contiguous rows of "
                                        "64 or 128 bytes pack whole 128-byte lines");
    static_assert(K_CONTIG || MN % 64 == 0, "an mn-contiguous swizzled tile is cut into panels 64 "
                                            "elements wide: BM and BN must be multiples of 64");
    static constexpr int ELEMS = MN * BK;
    static __host__ __device__ constexpr int offset(int mn, int k) {
        return K_CONTIG ? swizzle_333(mn * BK + k)
                        : swizzle_333((mn >> 6) * (64 * BK) + k * 64 + (mn & 63));
    }
    static __host__ __device__ constexpr Coord chunk(int c) {
        return K_CONTIG ? Coord{c / (BK / 8), (c % (BK / 8)) * 8}
                        : Coord{(c / (8 * BK)) * 64 + (c % 8) * 8, (c / 8) % BK};
    }
    static __host__ __device__ constexpr int chunk_offset(int c) { return swizzle_333(8 * c); }
    // offset(mn + 16j, k + 16ks), given base = offset(mn, k), for the (mn, k) an ldmatrix lane
    // starts from (k % 16 < 8 when K_CONTIG, mn % 64 + 16j < 64 without carries out of bits 4-5
    // otherwise; checked for every lane and warp by WarpReader). The step along the contiguous
    // dimension flips bits 4-5 of the offset, which the swizzle reads from nowhere else: an XOR;
    // the step along the other dimension moves whole 512-element blocks: an addition.
    static __host__ __device__ constexpr int advance(int base, int j, int ks) {
        return K_CONTIG ? (base ^ (16 * ks)) + j * 16 * BK
                        : (base ^ (16 * (j % 4))) + (j / 4) * 64 * BK + ks * 16 * 64;
    }
};

// ---------------------------------------------------------------------------------------------
// Global -> shared memory: one operand's (MN, BK) tile per k-tile, in 16-byte chunks
// ---------------------------------------------------------------------------------------------

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

// x, as a value the compiler cannot see through (no code is emitted).
__device__ __forceinline__ int opaque(int x) {
    asm volatile("" : "+r"(x));
    return x;
}

// Whether chunk(c) and chunk_offset(c) agree with offset(mn, k) at both ends of every chunk.
template <class Layout, bool K_CONTIG, int CHUNKS>
__host__ __device__ constexpr bool chunks_match_offsets() {
    for (int c = 0; c < CHUNKS; ++c)
        for (int e = 0; e < 8; e += 7) {
            const Coord x = Layout::chunk(c);
            if (Layout::offset(x.mn + (K_CONTIG ? 0 : e), x.k + (K_CONTIG ? e : 0)) != Layout::chunk_offset(c) + e)
                return false;
        }
    return true;
}

template <typename T, class Layout, bool K_CONTIG, int MN, int BK, int THREADS>
struct TileCopy {
    static constexpr int CHUNKS = MN * BK / 8;
    static constexpr int PER_THREAD = CHUNKS / THREADS;
    static_assert(MN % 8 == 0 && BK % 8 == 0, "tiles are copied in 16-byte chunks of 8 elements: BK, BM "
                                              "and BN must be multiples of 8");
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
        if constexpr (K_CONTIG) bytes = d.mn < mn_left ? 2 * imin(imax(k_rem, 0), 8) : 0;
        else bytes = 0 < k_rem ? 2 * imin(imax(mn_left - d.mn, 0), 8) : 0;
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
            cp_async_16(tile + dst_of(i), bytes > 0 ? p : X, bytes);
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
            cp_async_16_full(base + sizeof(T) * Layout::chunk_offset(i * THREADS), address(i, kt, ld));
        }
    }

    // Read every chunk of k-tile kt into registers (zeros for what lies outside X) ...
    __device__ __forceinline__ void load(uint4 (&r)[PER_THREAD], int kt, int ld) const {
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

// ---------------------------------------------------------------------------------------------
// Shared memory -> registers: ldmatrix.x4 fragments of m16n8k16
// ---------------------------------------------------------------------------------------------

// One ldmatrix.x4 reads a 16(mn) x 16(k) block as four 8x8 matrices; lanes 8q..8q+7 give the row
// addresses of matrix q. Register q of every lane receives matrix q. The matrices are ordered
// to be mma fragments directly:
//   A (m16 x k16):          q -> (mn half q & 1, k half q >> 1)   = a[0..3]
//   B (two n8 x k16 tiles): q -> (mn half q >> 1, k half q & 1)   = b[0..1] of n8 tile 0, then 1
// A stored row is an mn row (K_CONTIG, no transpose) or a k row (.trans); either way lane
// (g, t) = (lane / 4, lane % 4) receives the elements (mn g, k 2t..2t+1) of each matrix.
// This returns the (mn, k) of the row address lane `lane` supplies for the block at (0, 0).
template <bool IS_A, bool K_CONTIG>
__host__ __device__ constexpr Coord ldsm_lane_coord(int lane) {
    const int q = lane >> 3;
    const int r = lane & 7;
    const int mn_half = IS_A ? (q & 1) : (q >> 1);
    const int k_half = IS_A ? (q >> 1) : (q & 1);
    return Coord{mn_half * 8 + (K_CONTIG ? r : 0), k_half * 8 + (K_CONTIG ? 0 : r)};
}

template <bool K_CONTIG, typename Address>  // Address: a pointer, or a shared-window byte address
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], Address smem_row) {
    if constexpr (K_CONTIG) ldmatrix_x4(r, smem_row);
    else ldmatrix_x4_trans(r, smem_row);
}

// The operand fragments of one k16 step of a warp tile: MT m16 tiles of A, NT n8 tiles of B.
template <int MT, int NT>
struct Fragments {
    uint32_t a[MT][4];
    uint32_t b[NT][2];
};

// Whether Layout::advance is exact for every lane of every warp of a block: warps at mn offsets
// 0, W, 2W, ... (W = WM or WN), TILES 16-wide mn tiles each, KSTEPS k16 steps.
template <bool IS_A, bool K_CONTIG, class Layout, int W, int WARPS, int TILES, int KSTEPS>
__host__ __device__ constexpr bool advance_is_exact() {
    for (int w = 0; w < WARPS; ++w)
        for (int lane = 0; lane < 32; ++lane) {
            const Coord c = ldsm_lane_coord<IS_A, K_CONTIG>(lane);
            const int base = Layout::offset(w * W + c.mn, c.k);
            for (int j = 0; j < TILES; ++j)
                for (int ks = 0; ks < KSTEPS; ++ks)
                    if (Layout::offset(w * W + c.mn + 16 * j, c.k + 16 * ks) != Layout::advance(base, j, ks))
                        return false;
        }
    return true;
}

// A warp's view of the A and B tiles of a stage: one ldmatrix base offset per operand.
template <bool A_KC, bool B_KC, class LayoutA, class LayoutB, int WM, int WN, int WARPS_M, int WARPS_N,
          int KSTEPS>
struct WarpReader {
    static constexpr int MT = WM / 16;
    static constexpr int NT = WN / 8;
    static_assert(NT % 2 == 0, "B fragments are read two n8 tiles at a time (ldmatrix.x4): WN must "
                               "be a multiple of 16");
    static_assert(advance_is_exact<true, A_KC, LayoutA, WM, WARPS_M, MT, KSTEPS>() &&
                      advance_is_exact<false, B_KC, LayoutB, WN, WARPS_N, NT / 2, KSTEPS>(),
                  "the warp tile does not line up with the shared-memory swizzle: use WM and WN of "
                  "16, 32 or a multiple of 64");
    int a_base, b_base;

    __device__ __forceinline__ WarpReader(int warp_m0, int warp_n0, int lane) {
        const Coord a = ldsm_lane_coord<true, A_KC>(lane);
        const Coord b = ldsm_lane_coord<false, B_KC>(lane);
        a_base = LayoutA::offset(warp_m0 + a.mn, a.k);
        b_base = LayoutB::offset(warp_n0 + b.mn, b.k);
    }

    // A fragment of m16 tile i (16x16), for k16 step ks, from stage tile sA.
    template <typename T>
    __device__ __forceinline__ void load_a(uint32_t (&a)[4], const T* sA, int i, int ks) const {
        ldsm_x4<A_KC>(a, sA + LayoutA::advance(a_base, i, ks));
    }

    // B fragments of n8 tiles 2p and 2p+1, for k16 step ks, from stage tile sB.
    template <typename T>
    __device__ __forceinline__ void load_b(uint32_t (&b)[NT][2], const T* sB, int p, int ks) const {
        uint32_t r[4];
        ldsm_x4<B_KC>(r, sB + LayoutB::advance(b_base, p, ks));
        b[2 * p][0] = r[0];
        b[2 * p][1] = r[1];
        b[2 * p + 1][0] = r[2];
        b[2 * p + 1][1] = r[3];
    }

    // The same two from a stage tile given by its shared-window byte address (16-bit elements):
    // one addition per ldmatrix, against a conversion and a scaled addition from a pointer.
    __device__ __forceinline__ void load_a(uint32_t (&a)[4], uint32_t sA, int i, int ks) const {
        ldsm_x4<A_KC>(a, sA + 2u * LayoutA::advance(a_base, i, ks));
    }

    __device__ __forceinline__ void load_b(uint32_t (&b)[NT][2], uint32_t sB, int p, int ks) const {
        uint32_t r[4];
        ldsm_x4<B_KC>(r, sB + 2u * LayoutB::advance(b_base, p, ks));
        b[2 * p][0] = r[0];
        b[2 * p][1] = r[1];
        b[2 * p + 1][0] = r[2];
        b[2 * p + 1][1] = r[3];
    }

    // All fragments of k16 step ks.
    template <typename T>
    __device__ __forceinline__ void load(Fragments<MT, NT>& f, const T* sA, const T* sB, int ks) const {
#pragma unroll
        for (int i = 0; i < MT; ++i) load_a(f.a[i], sA, i, ks);
#pragma unroll
        for (int p = 0; p < NT / 2; ++p) load_b(f.b, sB, p, ks);
    }
};

// ---------------------------------------------------------------------------------------------
// The warp's accumulator tile and its mma
// ---------------------------------------------------------------------------------------------

// fp32 accumulators: float[MT][NT][4]; fp16 accumulators: uint32_t[MT][NT][2] (f16x2 pairs).
template <bool F16_ACC, int MT, int NT>
using AccTile = typename pick<F16_ACC, uint32_t[MT][NT][2], float[MT][NT][4]>::type;

template <int MT, int NT>
__device__ __forceinline__ void zero(float (&acc)[MT][NT][4]) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0f;
}

template <int MT, int NT>
__device__ __forceinline__ void zero(uint32_t (&acc)[MT][NT][2]) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) acc[i][j][0] = acc[i][j][1] = 0u;
}

// The MT x NT mma of one k16 step, row by row (i outer, j inner), left to right.
template <typename T, typename Acc, int MT, int NT>
__device__ __forceinline__ void mma_rows(Acc (&acc)[MT][NT], const Fragments<MT, NT>& f) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j) mma_16816<T>(acc[i][j], f.a[i], f.b[j]);
}

// ---------------------------------------------------------------------------------------------
// Which tile of C a block computes
// ---------------------------------------------------------------------------------------------

// The default grid, (ceil(N/BN), ceil(M/BM), 1): x along N, y along M.
__device__ __forceinline__ void grid_tile(int& tile_m, int& tile_n) {
    tile_m = blockIdx.y;
    tile_n = blockIdx.x;
}

// Block swizzle (seed 000's z-order with a stride), on a 1-D grid of tiles_m * tiles_n blocks.
// C's tile columns are cut into panels SWIZZLE tiles wide. Blocks run across a panel (x), then
// down it (y), then on to the next panel (z); odd panels run bottom-up, so that the turn from
// one panel to the next keeps the A rows just read. The last panel may be narrower. Blocks that
// run at the same time then cover a compact patch of C, and share A rows and B columns in L2.
template <int SWIZZLE>
__device__ __forceinline__ void swizzled_tile(int block, int tiles_m, int tiles_n, int& tile_m, int& tile_n) {
    const int panel_blocks = SWIZZLE * tiles_m;
    const int panel = block / panel_blocks;
    const int in_panel = block - panel * panel_blocks;
    const int width = imin(SWIZZLE, tiles_n - panel * SWIZZLE);
    const int row = in_panel / width;
    tile_n = panel * SWIZZLE + (in_panel - row * width);
    tile_m = (panel & 1) ? tiles_m - 1 - row : row;
}

// ---------------------------------------------------------------------------------------------
// Epilogue: accumulators -> shared memory (as TC) -> global memory in 16-byte stores
// ---------------------------------------------------------------------------------------------

// Each warp stages its WM x WN tile of C in its own region of shared memory, row-major, rows of
// WN*sizeof(TC) bytes = CPR 16-byte chunks. Chunk c of row r sits at chunk c ^ ((r % 8) * Q),
// Q = sizeof(TC) / 2 (the chunks one quad of lanes writes per mma tile):
//   writes: for one mma tile, lanes (g, t) write rows g = 0..7 of one (16-bit TC) or two (fp32)
//           chunks; the XOR spreads the 8 rows over 8 bank groups: no conflict.
//   reads:  8 lanes read 8 consecutive chunks of one row, permuted: no conflict.
template <typename TC, int WM, int WN>
struct CStage {
    static constexpr int ROW_BYTES = WN * static_cast<int>(sizeof(TC));
    static constexpr int CPR = ROW_BYTES / 16;
    static constexpr int Q = static_cast<int>(sizeof(TC)) / 2;
    static constexpr int BYTES = WM * ROW_BYTES;
    static_assert(WN % 64 == 0, "the C staging tile needs WN to be a multiple of 64 (rows of at "
                                "least 128 bytes) to be free of bank conflicts");

    static __device__ __forceinline__ int offset(int r, int byte_col) {
        return r * ROW_BYTES + ((((byte_col >> 4) ^ ((r & 7) * Q))) << 4) + (byte_col & 15);
    }
};

// Write the warp's accumulators into its staging region, converted to TC.
template <typename TC, int WM, int WN, int MT, int NT>
__device__ __forceinline__ void stage_acc(unsigned char* stage, const float (&acc)[MT][NT][4], int lane) {
    using S = CStage<TC, WM, WN>;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = 16 * i + 8 * h + g;
                const int byte_col = (8 * j + 2 * t) * static_cast<int>(sizeof(TC));
                unsigned char* p = stage + S::offset(r, byte_col);
                if constexpr (same_type<TC, float>::value) {
                    *reinterpret_cast<float2*>(p) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                } else {
                    *reinterpret_cast<uint32_t*>(p) = pack2<TC>(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                }
            }
}

// The same for fp16 accumulators, which already are f16x2 pairs.
template <typename TC, int WM, int WN, int MT, int NT>
__device__ __forceinline__ void stage_acc(unsigned char* stage, const uint32_t (&acc)[MT][NT][2], int lane) {
    static_assert(same_type<TC, half_t>::value, "fp16 accumulators are written as fp16");
    using S = CStage<TC, WM, WN>;
    const int g = lane >> 2;
    const int t = lane & 3;
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                *reinterpret_cast<uint32_t*>(stage + S::offset(16 * i + 8 * h + g, (8 * j + 2 * t) * 2)) =
                    acc[i][j][h];
}

// Whether 16-byte stores into C (M,N):(ldc,1) are aligned: a 16-byte aligned base and rows a
// multiple of 16 bytes apart. Uniform across the grid.
template <typename TC>
__device__ __forceinline__ bool c_rows_16B_aligned(const TC* C, int ldc) {
    return (static_cast<int64_t>(ldc) * static_cast<int64_t>(sizeof(TC))) % 16 == 0 &&
           reinterpret_cast<uint64_t>(C) % 16 == 0;
}

// Copy the warp's staged tile to C(row0.., col0..): 16 bytes per lane per store, rows and columns
// outside the M x N matrix skipped; element stores where a 16-byte store would be misaligned or
// would cross the N edge.
template <typename TC, int WM, int WN>
__device__ __forceinline__ void store_staged(TC* C, int ldc, int M, int N, int row0, int col0,
                                             const unsigned char* stage, int lane, bool vec_ok) {
    using S = CStage<TC, WM, WN>;
    constexpr int VEC = 16 / static_cast<int>(sizeof(TC));
#pragma unroll 4
    for (int c = lane; c < WM * S::CPR; c += 32) {
        const int r = c / S::CPR;
        const int cc = c % S::CPR;
        const int row = row0 + r;
        const int col = col0 + cc * VEC;
        if (row >= M) continue;
        const uint4 v = *reinterpret_cast<const uint4*>(stage + S::offset(r, cc * 16));
        TC* dst = C + static_cast<int64_t>(row) * ldc + col;
        if (vec_ok && col + VEC <= N) {
            *reinterpret_cast<uint4*>(dst) = v;
        } else {
            const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
            for (int e = 0; e < VEC; ++e) {
                if (col + e >= N) break;
                if constexpr (sizeof(TC) == 4) {
                    reinterpret_cast<uint32_t*>(dst)[e] = w[e];
                } else {
                    reinterpret_cast<uint16_t*>(dst)[e] = static_cast<uint16_t>(w[e / 2] >> (16 * (e % 2)));
                }
            }
        }
    }
}

// The whole epilogue of a warp: its accumulators (fp32 or fp16) to C through shared memory.
// The caller has made sure no warp still reads the operand tiles that `smem` overlaps.
template <typename TC, int WM, int WN, typename Acc>
__device__ __forceinline__ void store_warp_tile(TC* C, int ldc, int M, int N, int row0, int col0,
                                                const Acc& acc, unsigned char* smem, int warp, int lane) {
    unsigned char* stage = smem + warp * CStage<TC, WM, WN>::BYTES;
    stage_acc<TC, WM, WN>(stage, acc, lane);
    __syncwarp();
    store_staged<TC, WM, WN>(C, ldc, M, N, row0, col0, stage, lane, c_rows_16B_aligned(C, ldc));
}

}  // namespace hgemm
}  // namespace wg
