// warpgemm/kernels/sm80/smem_layout.cuh -- shared-memory layouts of one (MN, BK) operand tile of
// 16-bit elements: the plain layout that keeps the global order (hgemm rungs 01-04) and the
// Swizzle<3,3,3> layout that makes ldmatrix and cp.async free of bank conflicts (rung 05's idea).
//
// Operands are seen as (MN, K) matrices. A (M x K) is read as is, mn = m. B (K x N) is read as
// B^T, an (N x K) matrix, mn = n. One flag says which way an operand runs in global memory:
//   K_CONTIG      (MN,K):(ld,1)   row-major A, column-major B     ldmatrix (no transpose)
//   not K_CONTIG  (MN,K):(1,ld)   column-major A, row-major B     ldmatrix .trans
// A shared-memory tile keeps the operand's global order, so every global -> shared copy moves 16
// contiguous bytes (8 elements), and the transpose, where one is needed, happens in ldmatrix.
#pragma once

#include "common/util.cuh"

namespace wg {
namespace sm80 {

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

}  // namespace sm80
}  // namespace wg
