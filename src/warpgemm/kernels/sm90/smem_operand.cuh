// warpgemm/kernels/sm90/smem_operand.cuh -- one operand tile in shared memory as wgmma reads it:
// rows of 128 bytes under the 128-byte swizzle (Swizzle<3,4,3> on byte addresses), written by TMA
// boxes with CU_TENSOR_MAP_SWIZZLE_128B, read through wgmma matrix descriptors.
//
// An operand tile is MN x BK elements of T (MN = rows of A or columns of B). ATOM = 128 / sizeof(T)
// elements make one 128-byte row. The tile is a row of SLABS slabs, each a TMA box of
// (ATOM, SLAB_ROWS) elements, SLAB_ROWS rows of 128 bytes, 1024-byte aligned:
//
//   K-major  (A row-major, B column-major): slab j holds k in [ATOM j, ATOM (j+1)) of all MN rows.
//            One wgmma k-step at (mn, kk) starts at slab kk / ATOM, row mn, byte 2 (kk % ATOM);
//            8-row groups are SBO = 1024 bytes apart (LBO is unused with this swizzle).
//            CuTe: Swizzle<3,4,3> o ((8,m),(T,2)):((8T,SBO),(1,T)) in 16-byte units, T = 8 / sizeof(T).
//   MN-major (A column-major, B row-major): slab j holds mn in [ATOM j, ATOM (j+1))
//            for all BK k rows. A k-step at (mn, kk) starts at slab mn / ATOM, row kk; its two
//            8-row groups of k are SBO = 1024 bytes apart and the ATOM-wide MN chunks LBO =
//            SLAB_BYTES apart. CuTe: Swizzle<3,4,3> o ((T,8,m),(8,k)):((1,T,LBO),(8T,SBO)).
//            wgmma reads MN-major 16-bit tiles only; an 8-bit one is loaded by TMA and read by the
//            transposing copy of sm90/transposing_copy.cuh.
//
// The swizzle XORs byte-address bits [4,7) with bits [7,10), so every slab starts 1024-byte
// aligned (the descriptors' base offset is 0) and a k-step inside a 128-byte row is a plain
// offset of its start address: the hardware swizzles the address it computes.
#pragma once

#include "arch/sm90.cuh"

namespace wg {
namespace sm90 {

// A wgmma shared-memory matrix descriptor: start address, leading and stride byte offsets (all
// in 16-byte units), 128-byte swizzle (bits 62-63 = 1).
__device__ __forceinline__ uint64_t smem_descriptor(uint32_t addr, uint32_t lbo_bytes, uint32_t sbo_bytes) {
    return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) |
           (static_cast<uint64_t>((lbo_bytes >> 4) & 0x3FFF) << 16) |
           (static_cast<uint64_t>((sbo_bytes >> 4) & 0x3FFF) << 32) | (1ull << 62);
}

// Descriptor `d` moved on by `bytes` (a multiple of 16): the start address field is the low 14 bits
// of the low word, and a CTA's shared addresses stay below 2^18 bytes, so the sum never carries
// out of it. Adding to the low word alone keeps the high word a constant, and a k-step's
// descriptor one uniform add from the k-tile's first (as cuBLAS's kernels build theirs), where
// smem_descriptor would mask, shift and merge the address again for each wgmma.
__device__ __forceinline__ uint64_t desc_advance(uint64_t d, uint32_t bytes) {
    return (d & 0xFFFFFFFF00000000ull) | (static_cast<uint32_t>(d) + (bytes >> 4));
}

template <typename T, int MN, int BK, bool K_MAJOR>
struct SwizzledOperand {
    static constexpr int ROW_BYTES = 128;
    static constexpr int ATOM = ROW_BYTES / static_cast<int>(sizeof(T));
    static constexpr int SLABS = K_MAJOR ? BK / ATOM : MN / ATOM;
    static constexpr int SLAB_ROWS = K_MAJOR ? MN : BK;
    static constexpr int SLAB_BYTES = SLAB_ROWS * ROW_BYTES;
    static constexpr int BYTES = SLABS * SLAB_BYTES;

    static_assert(!K_MAJOR || BK % ATOM == 0, "a K-major tile's BK must be a multiple of 128 bytes of k "
                                              "(64 16-bit or 128 8-bit elements)");
    static_assert(K_MAJOR || MN % ATOM == 0, "an MN-major tile's MN must be a multiple of 128 bytes (64 16-bit or 128 8-bit elements)");
    static_assert(MN % 8 == 0 && SLAB_ROWS % 8 == 0, "tiles are made of 8-row swizzle atoms (1024 bytes)");
    static_assert(SLAB_ROWS <= 256, "a TMA box has at most 256 rows: BM, BN <= 256 (K-major) or BK <= 256");

    // Fill the tile whose first element is (mn0, k0) of the operand: SLABS boxes of `map` (whose
    // box is (ATOM, SLAB_ROWS), innermost first), their bytes completed on `bar`.
    static __device__ __forceinline__ void load(const TmaDescriptor* map, uint32_t bar, uint32_t dst,
                                                int mn0, int k0) {
#pragma unroll
        for (int j = 0; j < SLABS; ++j) {
            if constexpr (K_MAJOR) SM90_TMA_LOAD_2D::copy(map, bar, dst + j * SLAB_BYTES, k0 + j * ATOM, mn0);
            else SM90_TMA_LOAD_2D::copy(map, bar, dst + j * SLAB_BYTES, mn0 + j * ATOM, k0);
        }
    }

    // Part `part` of PARTS of the tile, multicast to the blocks of the cluster in `cta_mask`: the
    // blocks of a cluster that share this operand tile each load one part, and every block gets
    // all of them. A K-major slab is cut into PARTS bands of rows (the map's box is then
    // (ATOM, SLAB_ROWS / PARTS)); an MN-major tile gives each part SLABS / PARTS whole slabs, or,
    // with fewer slabs than parts, cuts each slab into PARTS / SLABS bands of its BK k-rows (the
    // map's box is then (ATOM, BK / (PARTS / SLABS)); `tensor_map.multicast_part_box` says which).
    template <int PARTS>
    static __device__ __forceinline__ void load_part_multicast(const TmaDescriptor* map, uint32_t bar, uint32_t dst,
                                                               int mn0, int k0, int part, uint16_t cta_mask) {
        if constexpr (K_MAJOR) {
            constexpr int ROWS = SLAB_ROWS / PARTS;
            static_assert(SLAB_ROWS % PARTS == 0 && (ROWS * ROW_BYTES) % 1024 == 0,
                          "each block's band of a K-major slab must be a whole number of 8-row swizzle atoms");
#pragma unroll
            for (int j = 0; j < SLABS; ++j)
                SM90_TMA_LOAD_MULTICAST_2D::copy(map, bar, dst + j * SLAB_BYTES + part * ROWS * ROW_BYTES,
                                                 k0 + j * ATOM, mn0 + part * ROWS, cta_mask);
        } else if constexpr (SLABS % PARTS != 0) {  // fewer slabs than parts: each slab in BANDS bands of k-rows
            constexpr int BANDS = PARTS / SLABS;
            constexpr int ROWS = SLAB_ROWS / BANDS;
            static_assert(PARTS % SLABS == 0, "an MN-major tile of fewer slabs than the cluster's blocks splits each "
                                              "slab alike: the cluster size a multiple of MN / 64");
            static_assert(SLAB_ROWS % BANDS == 0 && (ROWS * ROW_BYTES) % 1024 == 0,
                          "each block's band of k-rows of an MN-major slab must be a whole number of 8-row swizzle "
                          "atoms: BK a multiple of 8 * (blocks a slab)");
            const int j = part / BANDS, band = part % BANDS;
            SM90_TMA_LOAD_MULTICAST_2D::copy(map, bar, dst + j * SLAB_BYTES + band * ROWS * ROW_BYTES, mn0 + j * ATOM,
                                             k0 + band * ROWS, cta_mask);
        } else {
            constexpr int PER_PART = SLABS / PARTS;
            static_assert(SLABS % PARTS == 0, "an MN-major tile splits into whole slabs per block: MN a multiple "
                                              "of 64 * the cluster size");
#pragma unroll
            for (int i = 0; i < PER_PART; ++i) {
                const int j = part * PER_PART + i;
                SM90_TMA_LOAD_MULTICAST_2D::copy(map, bar, dst + j * SLAB_BYTES, mn0 + j * ATOM, k0, cta_mask);
            }
        }
    }

    // Where the wgmma operand whose first element is (mn, kk) starts, in bytes from the tile's
    // start. It is a sum of a part in mn and a part in kk (mn a multiple of 64 when MN-major), so
    // offset(mn + dm, kk + dk) = offset(mn, kk) + offset(dm, dk).
    static __host__ __device__ constexpr uint32_t offset(int mn, int kk) {
        if constexpr (K_MAJOR) {
            return (kk / ATOM) * SLAB_BYTES + mn * ROW_BYTES + (kk % ATOM) * static_cast<int>(sizeof(T));
        } else {
            return (mn / ATOM) * SLAB_BYTES + kk * ROW_BYTES;
        }
    }

    // The descriptor of the wgmma operand whose first element is (mn, kk) of the tile at `base`.
    static __device__ __forceinline__ uint64_t desc(uint32_t base, int mn, int kk) {
        static_assert(K_MAJOR || sizeof(T) == 2, "wgmma reads 8-bit operands K-major only: an MN-major 8-bit tile "
                                                 "is for TMA to land and a transposing copy to read "
                                                 "(sm90/transposing_copy.cuh)");
        return smem_descriptor(base + offset(mn, kk), K_MAJOR ? 16 : SLAB_BYTES, 1024);
    }
};

}  // namespace sm90
}  // namespace wg
