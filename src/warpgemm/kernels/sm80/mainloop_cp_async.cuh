// warpgemm/kernels/sm80/mainloop_cp_async.cuh -- the idea of hgemm/04_cp_async_pipeline: a
// STAGES-deep ring of shared-memory stages filled by cp.async, k-tile kt+STAGES-1 in flight while
// k-tile kt is multiplied; cp.async.wait_group and one barrier per k-tile keep the ring in step.
// hgemm/05_smem_swizzle runs the same loop on swizzled stage tiles.
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

// One block's tile (tile_m, tile_n) of C through a STAGES-deep cp.async ring, from shared tiles
// in `Layout` (PlainSmem: hgemm/04; SwizzledSmem: hgemm/05).
template <template <bool, int, int> class Layout, bool A_ROW, bool B_ROW, typename T, typename TC,
          int BM, int BN, int BK, int WM, int WN, int STAGES>
__device__ __forceinline__ void cp_async_pipeline_tile(const T* __restrict__ A, const T* __restrict__ B,
                                                       TC* __restrict__ C, int M, int N, int K, int lda,
                                                       int ldb, int ldc, int tile_m, int tile_n) {
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    static_assert(STAGES >= 2 && STAGES <= 5, "the cp.async pipeline has 2 to 5 stages");
    using Shape = BlockShape<BM, BN, BK, WM, WN>;
    constexpr int THREADS = Shape::THREADS;
    constexpr int MT = Shape::MT;
    constexpr int NT = Shape::NT;
    constexpr bool A_KC = A_ROW;
    constexpr bool B_KC = !B_ROW;
    using LayoutA = Layout<A_KC, BM, BK>;
    using LayoutB = Layout<B_KC, BN, BK>;

    unsigned char* const smem = dynamic_smem();
    T* const sA = reinterpret_cast<T*>(smem);           // STAGES x (BM, BK)
    T* const sB = sA + STAGES * LayoutA::ELEMS;        // STAGES x (BN, BK)

    const BlockTile<BM, BN, BK, WM, WN> at(tile_m, tile_n, K);

    const TileCopy<T, LayoutA, A_KC, BM, BK, THREADS> copy_a(A, lda, at.m0, M, K, at.tid);
    const TileCopy<T, LayoutB, B_KC, BN, BK, THREADS> copy_b(B, ldb, at.n0, N, K, at.tid);
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, Shape::KSTEPS> reader(
        at.warp_m0, at.warp_n0, at.lane);
    auto load_stage = [&](int stage, int kt) {
        copy_a.cp_async(sA + stage * LayoutA::ELEMS, A, lda, kt);
        copy_b.cp_async(sB + stage * LayoutB::ELEMS, B, ldb, kt);
    };

    // Prologue: k-tiles 0 .. STAGES-2 in flight, one group each (empty past the end of K).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < at.k_tiles) load_stage(s, s);
        cp_async_commit();
    }

    float acc[MT][NT][4];
    zero(acc);

    int read_stage = 0;            // holds k-tile kt
    int write_stage = STAGES - 1;  // receives k-tile kt + STAGES - 1
    for (int kt = 0; kt < at.k_tiles; ++kt) {
        cp_async_wait<STAGES - 2>();  // this thread's copies of k-tile kt have landed ...
        __syncthreads();              // ... and everyone's; k-tile kt-1's stage is free
        if (kt + STAGES - 1 < at.k_tiles) load_stage(write_stage, kt + STAGES - 1);
        cp_async_commit();
        const T* const a_tile = sA + read_stage * LayoutA::ELEMS;
        const T* const b_tile = sB + read_stage * LayoutB::ELEMS;
#pragma unroll
        for (int ks = 0; ks < Shape::KSTEPS; ++ks) {
            Fragments<MT, NT> f;
            reader.load(f, a_tile, b_tile, ks);
            mma_rows<T>(acc, f);
        }
        read_stage = read_stage + 1 == STAGES ? 0 : read_stage + 1;
        write_stage = write_stage + 1 == STAGES ? 0 : write_stage + 1;
    }
    cp_async_wait<0>();  // only empty groups can remain; leave nothing in flight
    __syncthreads();     // every warp is done with the stages the epilogue reuses

    store_warp_tile<TC, WM, WN>(C, ldc, M, N, at.m0 + at.warp_m0, at.n0 + at.warp_n0, acc, smem, at.warp,
                                at.lane);
}

}  // namespace sm80
}  // namespace wg
