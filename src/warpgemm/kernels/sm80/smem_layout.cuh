// warpgemm/kernels/sm80/smem_layout.cuh -- shared-memory layouts of one (MN, BK) operand tile:
// the plain layout that keeps the global order (hgemm rungs 01-04), the 128-byte swizzle that makes
// ldmatrix and cp.async free of bank conflicts (rung 05's idea), for 16-bit or 8-bit elements, and
// the landing layout of an MN-major 8-bit tile that is turned K-major in place (igemm rung 01).
//
// Operands are seen as (MN, K) matrices. A (M x K) is read as is, mn = m. B (K x N) is read as
// B^T, an (N x K) matrix, mn = n. One flag says which way an operand runs in global memory:
//   K_CONTIG      (MN,K):(ld,1)   row-major A, column-major B     ldmatrix (no transpose)
//   not K_CONTIG  (MN,K):(1,ld)   column-major A, row-major B     ldmatrix .trans (16-bit only)
// A 16-bit shared-memory tile keeps the operand's global order, so every global -> shared copy
// moves 16 contiguous bytes (8 elements), and the transpose, where one is needed, happens in
// ldmatrix. ldmatrix has no transpose for 8-bit elements: an MN-major 8-bit tile lands in
// MnMajorLanding8 and is turned K-major in shared memory (sm80/transposing_copy.cuh).
#pragma once

#include "common/util.cuh"

namespace wg {
namespace sm80 {

//
// A layout gives, besides offset(mn, k):
//   ELEM_BYTES       bytes per element (2, or 1 for int8); CHUNK = 16 / ELEM_BYTES elements make
//                    a 16-byte chunk;
//   chunk(c)         the (mn, k) of the c-th 16-byte chunk of the tile in storage order;
//   chunk_offset(c)  where that chunk is stored (element offset of its first element);
//   advance(b, j, ks) the offset of (mn + 16j, k + KSTEP ks) from b = offset(mn, k), with constant
//                    j and ks, KSTEP = 32 / ELEM_BYTES (the k of one mma: k16 for 16-bit inputs,
//                    k32 for 8-bit): the fragment reads keep one address register per operand.

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
    static constexpr int ELEM_BYTES = 2;
    static constexpr int CHUNK = 8;
    static constexpr int KSTEP = 16;
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

// The same permutation of bytes for 8-bit elements: Swizzle<3,4,3> on a byte offset (bits [7,10)
// into bits [4,7)). Adding a multiple of 1024 bytes commutes with it.
__host__ __device__ constexpr int swizzle_343(int offset) { return offset ^ ((offset >> 3) & 0x70); }

// The tile under the 128-byte swizzle (Swizzle<3,3,3> on 16-bit element offsets, Swizzle<3,4,3> on
// 8-bit ones: the same bytes move), in 128-byte lines of LINE = 128 / EB elements:
//   K_CONTIG:     Sw o (MN,BK):(BK,1)                             rows of 64 bytes: two mn rows a
//                                                                 line; of 128 bytes: one
//   not K_CONTIG: Sw o ((LINE,MN/LINE),BK):((1,LINE*BK),LINE)     panels LINE mn wide, one k row
//                                                                 of a panel per line
// BK = 32 or 64 for 16-bit elements, 64 or 128 for 8-bit ones. An ldmatrix phase reads 8 rows of
// 16 bytes: 8 consecutive mn at one 16-byte-aligned k (K_CONTIG) or 8 consecutive k at one
// 8-aligned mn (not K_CONTIG). Those 8 chunks sit in 8 consecutive lines (or 4 lines, two per
// line, for 64-byte rows) with 8 different swizzled chunk positions: one wavefront, no bank
// conflict. The 8 threads that write one line with cp.async also hit 8 different bank groups.
template <bool K_CONTIG, int MN, int BK, int EB = 2>
struct SwizzledSmem {
    static_assert(EB == 1 || EB == 2, "SwizzledSmem holds 16-bit or 8-bit elements");
    static_assert(BK * EB == 64 || BK * EB == 128, "the swizzled tile needs k-contiguous rows of 64 or 128 "
                                                   "bytes to pack whole 128-byte lines: BK = 32 or 64 for "
                                                   "16-bit elements, 64 or 128 for 8-bit ones");
    static constexpr int ELEM_BYTES = EB;
    static constexpr int CHUNK = 16 / EB;
    static constexpr int LINE = 128 / EB;
    static constexpr int KSTEP = 32 / EB;
    static_assert(K_CONTIG || MN % LINE == 0, "an mn-contiguous swizzled tile is cut into panels of 128 "
                                              "bytes: BM and BN must be multiples of 64 (16-bit) or 128 "
                                              "(8-bit)");
    static constexpr int ELEMS = MN * BK;
    static __host__ __device__ constexpr int swizzle(int offset) {
        return EB == 2 ? swizzle_333(offset) : swizzle_343(offset);
    }
    static __host__ __device__ constexpr int offset(int mn, int k) {
        return K_CONTIG ? swizzle(mn * BK + k) : swizzle((mn / LINE) * (LINE * BK) + k * LINE + (mn % LINE));
    }
    static __host__ __device__ constexpr Coord chunk(int c) {
        return K_CONTIG ? Coord{c / (BK / CHUNK), (c % (BK / CHUNK)) * CHUNK}
                        : Coord{(c / (8 * BK)) * LINE + (c % 8) * CHUNK, (c / 8) % BK};
    }
    static __host__ __device__ constexpr int chunk_offset(int c) { return swizzle(CHUNK * c); }
    // offset(mn + 16j, k + KSTEP ks), given base = offset(mn, k), for the (mn, k) an ldmatrix lane
    // starts from (k % KSTEP < CHUNK when K_CONTIG, mn % LINE + 16j < LINE without carries out of
    // bits 4-5 otherwise; checked for every lane and warp by WarpReader). The step along the
    // contiguous dimension flips bits of the chunk index, which the swizzle reads from nowhere
    // else: an XOR; the step along the other dimension moves whole 8-line blocks: an addition.
    static __host__ __device__ constexpr int advance(int base, int j, int ks) {
        return K_CONTIG ? (base ^ (KSTEP * ks)) + j * 16 * BK
                        : (base ^ (16 * (j % (LINE / 16)))) + (j / (LINE / 16)) * LINE * BK + ks * KSTEP * LINE;
    }
};

// Where an MN-major 8-bit (MN, 128) tile lands, so that it can be turned K-major in place, one
// warp per 16 rows, with no barrier but the warp's own (sm80/transposing_copy.cuh).
//
// Region rho = mn / 16 (16 mn, all 128 k: 2 KB) fills exactly the 16 lines that rows
// 16 rho .. 16 rho + 15 take in the K-major tile SwizzledSmem<true, MN, 128, 1> (one 128-byte row
// a line): the warp that turns it around reads and writes those 2 KB and nothing else. In the
// region, k-row k of its 16 mn (one 16-byte chunk) sits in line 16 rho + k / 8 at chunk position
//   (k % 8) ^ (k / 16 % 8) ^ 4 (rho % 2)
// so that, as a map of bytes, offset(mn, k) =
//   2048 (mn / 16) + 128 (k / 8) + 16 ((k % 8) ^ (k / 16 % 8) ^ 4 (mn / 16 % 2)) + mn % 16.
// Bank conflicts, by this count (tests/test_igemm.py checks it on warpgemm.layout's bank model):
//   * cp.async, 8 lanes a phase: the storage order below gives 8 consecutive chunks 4 consecutive
//     k (k % 8 = 4q .. 4q+3) of 2 neighbouring regions (rho % 2 = 0, 1): 8 chunk positions;
//   * the warp's 4-byte reads of one k of each of 8 k-groups (k / 16 = 0..7) of its region: the
//     k / 16 term spreads them over 8 chunk positions, and 4 lanes read the 4 words of each.
// Storage order (for TileCopy): chunk c is rho = c % 2 + 2 (c / 256), k = c / 2 % 128, so that
// two neighbouring threads read the 32 bytes of one sector of a row of global memory, and a
// thread's later chunks (c + 256 i, for 256 or 512 threads) are whole regions further on.
template <int MN, int BK>
struct MnMajorLanding8 {
    static_assert(BK == 128, "an MN-major 8-bit tile is turned K-major in 128-byte rows: BK must be 128");
    static_assert(MN % 32 == 0, "an MN-major 8-bit tile lands in pairs of 16-row regions: BM and BN must be "
                                "multiples of 32");
    static constexpr int ELEMS = MN * BK;
    static constexpr int ELEM_BYTES = 1;
    static constexpr int CHUNK = 16;
    static __host__ __device__ constexpr int offset(int mn, int k) {
        return 2048 * (mn / 16) + 128 * (k / 8) + 16 * ((k % 8) ^ (k / 16 % 8) ^ (4 * (mn / 16 % 2))) + mn % 16;
    }
    static __host__ __device__ constexpr Coord chunk(int c) {
        return Coord{16 * (c % 2 + 2 * (c / 256)), c / 2 % 128};
    }
    static __host__ __device__ constexpr int chunk_offset(int c) { return offset(chunk(c).mn, chunk(c).k); }
};

}  // namespace sm80
}  // namespace wg
