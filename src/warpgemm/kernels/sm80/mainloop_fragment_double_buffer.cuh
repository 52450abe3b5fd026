// warpgemm/kernels/sm80/mainloop_fragment_double_buffer.cuh -- the idea of
// hgemm/06_fragment_double_buffer: fragments of the next k16 step are loaded while the mma of this
// one run, across k-tiles too, in zig-zag mma order, with the refill of the freed stage spread
// over the k16 steps. The production mma.sync kernels (hgemm/07_tuned, hgemm/08_f16_accumulate)
// run this loop; hgemm/06 explains each part of it.
#pragma once

#include "arch/sm80.cuh"
#include "sm80/block_tile.cuh"
#include "sm80/epilogue.cuh"
#include "sm80/mma.cuh"
#include "sm80/smem_layout.cuh"
#include "sm80/tile_copy.cuh"
#include "sm80/warp_reader.cuh"
#include "sm80/interior_k_tiles.cuh"

namespace wg {
namespace sm80 {

// One block's tile (tile_m, tile_n) of C: rung 05's cp.async ring and swizzled tiles, with the
// fragments of each k16 step loaded during the mma of the one before (hgemm/06), in accumulators
// of fp32 or fp16 (F16_ACC: hgemm/08), with or without the unchecked loop for interior k-tiles
// (INTERIOR_LOOP: hgemm/07 and 08; interior_k_tiles.cuh).
template <bool F16_ACC, bool INTERIOR_LOOP, bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN,
          int BK, int WM, int WN, int STAGES>
__device__ __forceinline__ void double_buffered_tile(const T* __restrict__ A, const T* __restrict__ B,
                                                     TC* __restrict__ C, int M, int N, int K, int lda,
                                                     int ldb, int ldc, int tile_m, int tile_n,
                                                     const T* __restrict__ bias = nullptr) {
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    static_assert(STAGES >= 2 && STAGES <= 5, "the cp.async pipeline has 2 to 5 stages");
    static_assert(BK >= 32, "BK must be at least 32: two or more k16 steps per k-tile");
    using Shape = BlockShape<BM, BN, BK, WM, WN>;
    static_assert(Shape::KSTEPS % 2 == 0, "an even number of k16 steps per k-tile keeps the two B "
                                          "fragment sets in step from one k-tile to the next");
    constexpr int THREADS = Shape::THREADS;
    constexpr int MT = Shape::MT;
    constexpr int NT = Shape::NT;
    constexpr int KSTEPS = Shape::KSTEPS;
    constexpr bool A_KC = A_ROW;
    constexpr bool B_KC = !B_ROW;
    using LayoutA = SwizzledSmem<A_KC, BM, BK>;
    using LayoutB = SwizzledSmem<B_KC, BN, BK>;

    unsigned char* const smem = dynamic_smem();
    T* const sA = reinterpret_cast<T*>(smem);           // STAGES x (BM, BK)
    T* const sB = sA + STAGES * LayoutA::ELEMS;        // STAGES x (BN, BK)

    const BlockTile<BM, BN, BK, WM, WN> at(tile_m, tile_n, K);

    const TileCopy<T, LayoutA, A_KC, BM, BK, THREADS> copy_a(A, lda, at.m0, M, K, at.tid);
    const TileCopy<T, LayoutB, B_KC, BN, BK, THREADS> copy_b(B, ldb, at.n0, N, K, at.tid);
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, KSTEPS> reader(
        at.warp_m0, at.warp_n0, at.lane);
    auto load_stage = [&](int stage, int kt, int part, int parts) {
        copy_a.cp_async(sA + stage * LayoutA::ELEMS, A, lda, kt, part, parts);
        copy_b.cp_async(sB + stage * LayoutB::ELEMS, B, ldb, kt, part, parts);
    };
    constexpr int COPY_STEPS = KSTEPS - 1;  // the refill is spread over all but the last k16 step

    // Prologue: k-tiles 0 .. STAGES-2 in flight, one group each (empty past the end of K).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < at.k_tiles) load_stage(s, s, 0, 1);
        cp_async_commit();
    }

    AccTile<F16_ACC, MT, NT> acc;
    zero(acc);

    // Fragments: one set of A (row i's is refilled as soon as row i's mma are issued), two sets
    // of B (the next step's fill one while this step's mma read the other).
    uint32_t a[MT][4];
    uint32_t b[2][NT][2];
    int read_stage = 0;            // holds the k-tile being computed
    int write_stage = STAGES - 1;  // receives k-tile kt + STAGES - 1
    cp_async_wait<STAGES - 2>();
    __syncthreads();
#pragma unroll
    for (int i = 0; i < MT; ++i) reader.load_a(a[i], sA, i, 0);
#pragma unroll
    for (int p = 0; p < NT / 2; ++p) reader.load_b(b[0], sB, p, 0);

    // One k-tile of the main loop. `interior` promises that the k-tile it prefetches lies wholly
    // inside A and B, so that its copies need no bounds (INTERIOR_LOOP only; see below).
    const uint32_t sA_addr = smem_u32(sA);
    const uint32_t sB_addr = smem_u32(sB);
    auto k_tile = [&](int kt, bool interior) {
#pragma unroll
        for (int ks = 0; ks < KSTEPS; ++ks) {
            if (ks == KSTEPS - 1) {
                // The next step is k-tile kt+1's first: wait until it has landed, and until
                // everyone has read their last fragments of k-tile kt's stage (refilled from the
                // next k-tile's first step on), before any fragment of kt+1 is loaded.
                cp_async_wait<STAGES - 2>();
                __syncthreads();
                read_stage = read_stage + 1 == STAGES ? 0 : read_stage + 1;
            }
            if (ks < COPY_STEPS) {
                // Refill the stage freed by the last barrier with k-tile kt+STAGES-1, a part per
                // k16 step; its group is committed before the wait above comes round again.
                if (interior) {
                    copy_a.cp_async_interior(sA_addr + write_stage * LayoutA::ELEMS * sizeof(T), lda,
                                             kt + STAGES - 1, ks, COPY_STEPS);
                    copy_b.cp_async_interior(sB_addr + write_stage * LayoutB::ELEMS * sizeof(T), ldb,
                                             kt + STAGES - 1, ks, COPY_STEPS);
                } else if (kt + STAGES - 1 < at.k_tiles) {
                    load_stage(write_stage, kt + STAGES - 1, ks, COPY_STEPS);
                }
                if (ks == COPY_STEPS - 1) {
                    cp_async_commit();
                    write_stage = write_stage + 1 == STAGES ? 0 : write_stage + 1;
                }
            }
            // This step's mma, row by row; after row i, the next step's A fragment of row i, and
            // a share of its B fragments. (After the last k-tile these read a stale stage,
            // harmlessly: the registers are never used.)
            const uint32_t a_next = sA_addr + read_stage * (LayoutA::ELEMS * sizeof(T));
            const uint32_t b_next = sB_addr + read_stage * (LayoutB::ELEMS * sizeof(T));
            const int ks_next = (ks + 1) % KSTEPS;
#pragma unroll
            for (int i = 0; i < MT; ++i) {
                mma_row_zigzag<T>(acc, i, a[i], b[ks % 2]);
                reader.load_a(a[i], a_next, i, ks_next);
#pragma unroll
                for (int p = 0; p < NT / 2; ++p)
                    if (p * MT / (NT / 2) == i) reader.load_b(b[(ks + 1) % 2], b_next, p, ks_next);
            }
        }
    };

    for_each_k_tile<INTERIOR_LOOP, BM, BN, BK, STAGES>(k_tile, M, N, K, at.m0, at.n0, at.k_tiles);
    cp_async_wait<0>();  // only empty groups can remain; leave nothing in flight
    __syncthreads();     // every warp is done with the stages the epilogue reuses

    if constexpr (!F16_ACC) {
        // The optional bias, added in fp32 before the one rounding (hgemm/07 passes one; a
        // caller that passes the constant nullptr compiles no code for it).
        if (bias != nullptr) add_bias(acc, bias, at.n0 + at.warp_n0, N, at.lane);
    }
    store_warp_tile<TC, WM, WN>(C, ldc, M, N, at.m0 + at.warp_m0, at.n0 + at.warp_n0, acc, smem, at.warp,
                                at.lane);
}

}  // namespace sm80
}  // namespace wg
