// warpgemm/kernels/sm80/warp_reader.cuh -- shared memory -> registers: the ldmatrix.x4 loads that
// give a warp the A and B fragments of mma.sync m16n8k16 (hgemm rung 02's idea), for either
// operand layout, from a plain or a swizzled stage tile; and, from K-major tiles of 8-bit
// elements, those of m16n8k32 (igemm rung 01).
#pragma once

#include "arch/sm80.cuh"
#include "sm80/mma.cuh"
#include "sm80/smem_layout.cuh"

namespace wg {
namespace sm80 {

// One ldmatrix.x4 reads a 16(mn) x 16(k) block as four 8x8 matrices; lanes 8q..8q+7 give the row
// addresses of matrix q. Register q of every lane receives matrix q. The matrices are ordered
// to be mma fragments directly:
//   A (m16 x k16):          q -> (mn half q & 1, k half q >> 1)   = a[0..3]
//   B (two n8 x k16 tiles): q -> (mn half q >> 1, k half q & 1)   = b[0..1] of n8 tile 0, then 1
// A stored row is an mn row (K_CONTIG, no transpose) or a k row (.trans); either way lane
// (g, t) = (lane / 4, lane % 4) receives the elements (mn g, k 2t..2t+1) of each matrix.
//
// The same loads serve 8-bit elements read K-major: a 16-byte row is 16 values of k, so matrix q
// covers (mn half, 16 k) and lane (g, t) receives (mn g, k 4t..4t+3) in one register, which is
// what m16n8k32 wants: A (T32,V16) -> (M16,K32) is ((4,8),(4,2,2)):((64,1),(16,8,256)), B
// (T32,V8) -> (N8,K32) is ((4,8),(4,2)):((32,1),(8,128)) (warpgemm.layout's
// SM80_16x8x32_S32S8S8S32_TN), register r of A = (mn g + 8 (r % 2), k 4t + 16 (r / 2) ..+3) and
// register r of B = (mn g, k 4t + 16 r ..+3). A 16-bit block is 16 x 16 elements, an 8-bit one
// 16 x 32.
// This returns the (mn, k) of the row address lane `lane` supplies for the block at (0, 0), with
// CHUNK = 8 elements (16-bit) or 16 (8-bit) to a 16-byte row.
template <bool IS_A, bool K_CONTIG, int CHUNK = 8>
__host__ __device__ constexpr Coord ldsm_lane_coord(int lane) {
    static_assert(CHUNK == 8 || K_CONTIG, "ldmatrix transposes 16-bit elements only: 8-bit tiles are read K-major");
    const int q = lane >> 3;
    const int r = lane & 7;
    const int mn_half = IS_A ? (q & 1) : (q >> 1);
    const int k_half = IS_A ? (q >> 1) : (q & 1);
    return Coord{mn_half * 8 + (K_CONTIG ? r : 0), k_half * CHUNK + (K_CONTIG ? 0 : r)};
}

template <bool K_CONTIG, typename Address>  // Address: a pointer, or a shared-window byte address
__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], Address smem_row) {
    if constexpr (K_CONTIG) SM75_U32x4_LDSM_N::copy(r, smem_row);
    else SM75_U16x8_LDSM_T::copy(r, smem_row);
}

// Whether Layout::advance is exact for every lane of every warp of a block: warps at mn offsets
// 0, W, 2W, ... (W = WM or WN), TILES 16-wide mn tiles each, KSTEPS mma k steps.
template <bool IS_A, bool K_CONTIG, class Layout, int W, int WARPS, int TILES, int KSTEPS>
__host__ __device__ constexpr bool advance_is_exact() {
    for (int w = 0; w < WARPS; ++w)
        for (int lane = 0; lane < 32; ++lane) {
            const Coord c = ldsm_lane_coord<IS_A, K_CONTIG, Layout::CHUNK>(lane);
            const int base = Layout::offset(w * W + c.mn, c.k);
            for (int j = 0; j < TILES; ++j)
                for (int ks = 0; ks < KSTEPS; ++ks)
                    if (Layout::offset(w * W + c.mn + 16 * j, c.k + Layout::KSTEP * ks) != Layout::advance(base, j, ks))
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
        const Coord a = ldsm_lane_coord<true, A_KC, LayoutA::CHUNK>(lane);
        const Coord b = ldsm_lane_coord<false, B_KC, LayoutB::CHUNK>(lane);
        a_base = LayoutA::offset(warp_m0 + a.mn, a.k);
        b_base = LayoutB::offset(warp_n0 + b.mn, b.k);
    }

    // A fragment of m16 tile i (16 x KSTEP), for mma k step ks, from stage tile sA.
    template <typename T>
    __device__ __forceinline__ void load_a(uint32_t (&a)[4], const T* sA, int i, int ks) const {
        ldsm_x4<A_KC>(a, sA + LayoutA::advance(a_base, i, ks));
    }

    // B fragments of n8 tiles 2p and 2p+1, for mma k step ks, from stage tile sB.
    template <typename T>
    __device__ __forceinline__ void load_b(uint32_t (&b)[NT][2], const T* sB, int p, int ks) const {
        uint32_t r[4];
        ldsm_x4<B_KC>(r, sB + LayoutB::advance(b_base, p, ks));
        b[2 * p][0] = r[0];
        b[2 * p][1] = r[1];
        b[2 * p + 1][0] = r[2];
        b[2 * p + 1][1] = r[3];
    }

    // The same two from a stage tile given by its shared-window byte address: one addition per
    // ldmatrix, against a conversion and a scaled addition from a pointer.
    __device__ __forceinline__ void load_a(uint32_t (&a)[4], uint32_t sA, int i, int ks) const {
        ldsm_x4<A_KC>(a, sA + static_cast<uint32_t>(LayoutA::ELEM_BYTES) * LayoutA::advance(a_base, i, ks));
    }

    __device__ __forceinline__ void load_b(uint32_t (&b)[NT][2], uint32_t sB, int p, int ks) const {
        uint32_t r[4];
        ldsm_x4<B_KC>(r, sB + static_cast<uint32_t>(LayoutB::ELEM_BYTES) * LayoutB::advance(b_base, p, ks));
        b[2 * p][0] = r[0];
        b[2 * p][1] = r[1];
        b[2 * p + 1][0] = r[2];
        b[2 * p + 1][1] = r[3];
    }

    // All fragments of mma k step ks.
    template <typename T>
    __device__ __forceinline__ void load(Fragments<MT, NT>& f, const T* sA, const T* sB, int ks) const {
#pragma unroll
        for (int i = 0; i < MT; ++i) load_a(f.a[i], sA, i, ks);
#pragma unroll
        for (int p = 0; p < NT / 2; ++p) load_b(f.b, sB, p, ks);
    }
};

}  // namespace sm80
}  // namespace wg
