// warpgemm/kernels/sm80/mainloop_register_staged.cuh -- the simplest mma.sync main loop: each
// k-tile is read from global memory into registers, stored to one shared buffer per operand,
// published with a barrier and multiplied (hgemm/02_mma_ldmatrix, hgemm/03_block_swizzle).
// Nothing overlaps: the cp.async pipeline (mainloop_cp_async.cuh) removes the waits.
#pragma once

#include "arch/sm80.cuh"
#include "sm80/block_tile.cuh"
#include "sm80/epilogue.cuh"
#include "sm80/mma.cuh"
#include "sm80/smem_layout.cuh"
#include "sm80/tile_copy.cuh"
#include "sm80/warp_reader.cuh"

namespace wg {
namespace sm80 {

// One block's tile (tile_m, tile_n) of C, computed with register-staged loads into one shared
// buffer per operand (hgemm rungs 02 and 03, which differ only in their block order).
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN>
__device__ __forceinline__ void mma_ldmatrix_tile(const T* __restrict__ A, const T* __restrict__ B,
                                                  TC* __restrict__ C, int M, int N, int K, int lda,
                                                  int ldb, int ldc, int tile_m, int tile_n) {
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    using Shape = BlockShape<BM, BN, BK, WM, WN>;
    constexpr int THREADS = Shape::THREADS;
    constexpr int MT = Shape::MT;
    constexpr int NT = Shape::NT;
    constexpr bool A_KC = A_ROW;   // row-major A runs along k
    constexpr bool B_KC = !B_ROW;  // column-major B runs along k
    using LayoutA = PlainSmem<A_KC, BM, BK>;
    using LayoutB = PlainSmem<B_KC, BN, BK>;

    unsigned char* const smem = dynamic_smem();
    T* const sA = reinterpret_cast<T*>(smem);
    T* const sB = sA + LayoutA::ELEMS;

    const BlockTile<BM, BN, BK, WM, WN> at(tile_m, tile_n, K);

    using CopyA = TileCopy<T, LayoutA, A_KC, BM, BK, THREADS>;
    using CopyB = TileCopy<T, LayoutB, B_KC, BN, BK, THREADS>;
    const CopyA copy_a(A, lda, at.m0, M, K, at.tid);
    const CopyB copy_b(B, ldb, at.n0, N, K, at.tid);
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, Shape::KSTEPS> reader(
        at.warp_m0, at.warp_n0, at.lane);

    float acc[MT][NT][4];
    zero(acc);

    for (int kt = 0; kt < at.k_tiles; ++kt) {
        uint4 ra[CopyA::PER_THREAD], rb[CopyB::PER_THREAD];
        copy_a.load(ra, kt, lda);
        copy_b.load(rb, kt, ldb);
        copy_a.store(sA, ra);
        copy_b.store(sB, rb);
        __syncthreads();
#pragma unroll
        for (int ks = 0; ks < Shape::KSTEPS; ++ks) {
            Fragments<MT, NT> f;
            reader.load(f, sA, sB, ks);
            mma_rows<T>(acc, f);
        }
        __syncthreads();  // every warp is done with the tiles before they are refilled
    }

    store_warp_tile<TC, WM, WN>(C, ldc, M, N, at.m0 + at.warp_m0, at.n0 + at.warp_n0, acc, smem, at.warp,
                                at.lane);
}

}  // namespace sm80
}  // namespace wg
