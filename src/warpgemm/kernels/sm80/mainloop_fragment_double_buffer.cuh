// warpgemm/kernels/sm80/mainloop_fragment_double_buffer.cuh -- the idea of
// hgemm/06_fragment_double_buffer: fragments of the next k step are loaded while the mma of this
// one run, across k-tiles too, in zig-zag mma order, with the refill of the freed stage spread
// over the k steps. The production mma.sync kernels (hgemm/07_tuned, hgemm/08_f16_accumulate,
// igemm/01_mma_sync_s8) run this loop; hgemm/06 explains each part of it, igemm/01 what 8-bit
// inputs change.
#pragma once

#include "arch/sm80.cuh"
#include "sm80/block_tile.cuh"
#include "sm80/epilogue.cuh"
#include "sm80/mma.cuh"
#include "sm80/smem_layout.cuh"
#include "sm80/tile_copy.cuh"
#include "sm80/transposing_copy.cuh"
#include "sm80/warp_reader.cuh"
#include "sm80/interior_k_tiles.cuh"

namespace wg {
namespace sm80 {

// One block's tile (tile_m, tile_n) of C: rung 05's cp.async ring and swizzled tiles, with the
// fragments of each k step loaded during the mma of the one before (hgemm/06), in accumulators
// of fp32 or fp16 (F16_ACC: hgemm/08), with or without the unchecked loop for interior k-tiles
// (INTERIOR_LOOP: hgemm/07 and 08; interior_k_tiles.cuh).
//
// With T = int8_t (igemm/01) the k step is m16n8k32 with s32 sums, written as int32. Fragments are
// read K-major only (ldmatrix has no 8-bit transpose): an MN-major operand (a column-major A, a
// row-major B) lands as it lies and each warp turns its regions of it K-major in place
// (sm80/transposing_copy.cuh) one k-tile ahead: during k-tile kt, the stage of k-tile kt+1, which
// the barrier before kt made visible. The ring then waits for one k-tile more (a pipeline one
// stage shorter) and needs STAGES >= 3.
template <bool F16_ACC, bool INTERIOR_LOOP, bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN,
          int BK, int WM, int WN, int STAGES>
__device__ __forceinline__ void double_buffered_tile(const T* __restrict__ A, const T* __restrict__ B,
                                                     TC* __restrict__ C, int M, int N, int K, int lda,
                                                     int ldb, int ldc, int tile_m, int tile_n,
                                                     const T* __restrict__ bias = nullptr) {
    constexpr bool INT8 = same_type<T, int8_t>::value;
    static_assert(is_16bit_float<T> || INT8, "T must be wg::half_t, wg::bf16_t or wg::int8_t");
    static_assert(INT8 ? same_type<TC, int32_t>::value : (is_16bit_float<TC> || same_type<TC, float>::value),
                  "TC must be half_t, bf16_t or float for 16-bit inputs, int32_t for int8");
    static_assert(!(INT8 && F16_ACC), "int8 inputs accumulate s32 sums");
    static_assert(STAGES >= 2 && STAGES <= 5, "the cp.async pipeline has 2 to 5 stages");
    constexpr int EB = static_cast<int>(sizeof(T));
    using Shape = BlockShape<BM, BN, BK, WM, WN, 32 / EB>;
    static_assert(Shape::KSTEPS >= 2, "BK must hold two or more mma k steps: BK >= 32 for 16-bit inputs, "
                                      ">= 64 for 8-bit");
    static_assert(Shape::KSTEPS % 2 == 0, "an even number of k steps per k-tile keeps the two B "
                                          "fragment sets in step from one k-tile to the next");
    constexpr int THREADS = Shape::THREADS;
    constexpr int MT = Shape::MT;
    constexpr int NT = Shape::NT;
    constexpr int KSTEPS = Shape::KSTEPS;
    // An 8-bit MN-major operand is turned K-major in shared memory (TURN_A, TURN_B): the fragments
    // read every 8-bit tile K-major, and its stages land in MnMajorLanding8.
    constexpr bool TURN_A = INT8 && !A_ROW;
    constexpr bool TURN_B = INT8 && B_ROW;
    constexpr int AHEAD = (TURN_A || TURN_B) ? 1 : 0;  // k-tiles landed beyond the one computed
    static_assert(AHEAD == 0 || STAGES >= 3, "an MN-major int8 operand is turned K-major one k-tile ahead: "
                                             "use STAGES >= 3");
    static_assert(AHEAD == 0 || THREADS % 256 == 0, "an MN-major int8 operand is copied by a multiple of 256 "
                                                    "threads (8 warps): change WM or WN");
    constexpr bool A_KC = A_ROW || INT8;
    constexpr bool B_KC = !B_ROW || INT8;
    using LayoutA = SwizzledSmem<A_KC, BM, BK, EB>;  // as the fragments read the stages
    using LayoutB = SwizzledSmem<B_KC, BN, BK, EB>;
    using LandA = typename pick<TURN_A, MnMajorLanding8<BM, BK>, LayoutA>::type;  // as cp.async fills them
    using LandB = typename pick<TURN_B, MnMajorLanding8<BN, BK>, LayoutB>::type;

    unsigned char* const smem = dynamic_smem();
    T* const sA = reinterpret_cast<T*>(smem);           // STAGES x (BM, BK)
    T* const sB = sA + STAGES * LayoutA::ELEMS;        // STAGES x (BN, BK)

    const BlockTile<BM, BN, BK, WM, WN> at(tile_m, tile_n, K);

    const TileCopy<T, LandA, A_ROW, BM, BK, THREADS> copy_a(A, lda, at.m0, M, K, at.tid);
    const TileCopy<T, LandB, !B_ROW, BN, BK, THREADS> copy_b(B, ldb, at.n0, N, K, at.tid);
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, KSTEPS> reader(
        at.warp_m0, at.warp_n0, at.lane);
    auto load_stage = [&](int stage, int kt, int part, int parts) {
        copy_a.cp_async(sA + stage * LayoutA::ELEMS, A, lda, kt, part, parts);
        copy_b.cp_async(sB + stage * LayoutB::ELEMS, B, ldb, kt, part, parts);
    };
    constexpr int COPY_STEPS = KSTEPS - 1;  // the refill is spread over all but the last k step

    // Prologue: k-tiles 0 .. STAGES-2 in flight, one group each (empty past the end of K).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < at.k_tiles) load_stage(s, s, 0, 1);
        cp_async_commit();
    }

    AccTileOf<T, F16_ACC, MT, NT> acc;
    zero(acc);

    // Fragments: one set of A (row i's is refilled as soon as row i's mma are issued), two sets
    // of B (the next step's fill one while this step's mma read the other).
    uint32_t a[MT][4];
    uint32_t b[2][NT][2];
    int read_stage = 0;            // holds the k-tile being computed
    int write_stage = STAGES - 1;  // receives k-tile kt + STAGES - 1
    // Turn the MN-major 8-bit operands of a landed stage K-major (each warp its regions).
    auto turn_stage = [&](int stage) {
        if constexpr (TURN_A)
            TransposeInPlace8<BM, BK, THREADS / 32>::run(smem_u32(sA) + stage * LayoutA::ELEMS * EB, at.warp,
                                                         at.lane);
        if constexpr (TURN_B)
            TransposeInPlace8<BN, BK, THREADS / 32>::run(smem_u32(sB) + stage * LayoutB::ELEMS * EB, at.warp,
                                                         at.lane);
    };
    cp_async_wait<STAGES - 2 - AHEAD>();
    __syncthreads();
    if constexpr (AHEAD != 0) {  // k-tile 0 turned before its first fragments; k-tile 1 has landed too
        turn_stage(0);
        __syncthreads();
    }
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
                // The next step is k-tile kt+1's first: wait until it has landed (and kt+2 with
                // it, when k-tile kt+1 turns it K-major), and until everyone has read their last
                // fragments of k-tile kt's stage (refilled from the next k-tile's first step on)
                // and turned kt+1, before any fragment of kt+1 is loaded.
                cp_async_wait<STAGES - 2 - AHEAD>();
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
            if constexpr (AHEAD != 0) {
                // Behind this step's mma: turn k-tile kt+1's stage K-major, for the barrier at
                // the end of kt to publish.
                if (ks == 0 && kt + 1 < at.k_tiles) turn_stage(read_stage + 1 == STAGES ? 0 : read_stage + 1);
            }
        }
    };

    for_each_k_tile<INTERIOR_LOOP, BM, BN, BK, STAGES>(k_tile, M, N, K, at.m0, at.n0, at.k_tiles);
    cp_async_wait<0>();  // only empty groups can remain; leave nothing in flight
    __syncthreads();     // every warp is done with the stages the epilogue reuses

    if constexpr (!F16_ACC && !INT8) {
        // The optional bias, added in fp32 before the one rounding (hgemm/07 passes one; a
        // caller that passes the constant nullptr compiles no code for it).
        if (bias != nullptr) add_bias(acc, bias, at.n0 + at.warp_n0, N, at.lane);
    }
    store_warp_tile<TC, WM, WN>(C, ldc, M, N, at.m0 + at.warp_m0, at.n0 + at.warp_n0, acc, smem, at.warp,
                                at.lane);
}

}  // namespace sm80
}  // namespace wg
