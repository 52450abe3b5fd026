// hgemm/06_fragment_double_buffer.cu -- rung 06: fragment double buffering across k16 steps,
// and seed 000's zig-zag mma order.
//
// What this rung adds over rung 05:
//   * Fragments of the next k16 step are loaded while the mma of this one run, so a warp never
//     waits for shared memory right before an mma. B has two sets of registers (the next step's
//     fill one while this step's mma read the other); A has one, and row i's A fragment is
//     refilled right after row i's mma are issued (it is not needed again this step), which
//     saves 16 registers per thread at a 64x64 warp tile.
//     Across k-tiles too: on the last k16 step of k-tile kt the warp waits for k-tile kt+1 to
//     land (cp.async.wait_group + __syncthreads) and loads that tile's first fragments before it
//     issues the last mma of kt. The barrier thus sits where the tensor cores still have a whole
//     k16 step of work queued, instead of in front of an empty pipe.
//   * The zig-zag ("right left right left") order of seed 000: row i of the MT x NT mma tiles
//     runs j = 0..NT-1 when i is even and j = NT-1..0 when i is odd. Consecutive mma then share
//     an operand at every turn (the B fragment at the end of a row is the first one of the next),
//     which the register reuse cache can serve instead of the register file.
//   * The refill of the freed stage is spread over the k16 steps of a k-tile (all but the last),
//     so that its cp.async interleave with the mma instead of arriving in one burst.
//
// Everything else is rung 05: swizzled shared tiles, a STAGES-deep cp.async ring, block swizzle,
// and C through shared memory. The stage tiles are addressed as 32-bit shared-window byte
// addresses, so that each ldmatrix costs one addition. The body also takes the accumulator type
// and INTERIOR_LOOP (rung 07's unchecked loop for interior k-tiles, off here), so that rung 07
// and the fp16-accumulate variant (hgemm/08) are this same loop.
//
// Requires what rung 05 requires, plus BK >= 32 (two k16 steps or more per k-tile: the commit of
// k-tile kt+STAGES-1 must precede the wait for k-tile kt+1).
#include "hgemm/05_smem_swizzle.cu"

namespace wg {
namespace hgemm {

// Row i of the MT x NT mma of one k16 step, in zig-zag order: even rows left to right, odd rows
// right to left.
template <typename T, typename Acc, int MT, int NT>
__device__ __forceinline__ void mma_row_zigzag(Acc (&acc)[MT][NT], int i, const uint32_t (&a)[4],
                                               const uint32_t (&b)[NT][2]) {
#pragma unroll
    for (int jj = 0; jj < NT; ++jj) {
        const int j = (i & 1) ? NT - 1 - jj : jj;
        mma_16816<T>(acc[i][j], a, b[j]);
    }
}

template <bool F16_ACC, bool INTERIOR_LOOP, bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN,
          int BK, int WM, int WN, int STAGES>
__device__ __forceinline__ void double_buffered_tile(const T* __restrict__ A, const T* __restrict__ B,
                                                     TC* __restrict__ C, int M, int N, int K, int lda,
                                                     int ldb, int ldc, int tile_m, int tile_n) {
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

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int warp_m0 = (warp / Shape::WARPS_N) * WM;
    const int warp_n0 = (warp % Shape::WARPS_N) * WN;
    const int m0 = tile_m * BM;
    const int n0 = tile_n * BN;
    const int k_tiles = (K + BK - 1) / BK;

    const TileCopy<T, LayoutA, A_KC, BM, BK, THREADS> copy_a(A, lda, m0, M, K, tid);
    const TileCopy<T, LayoutB, B_KC, BN, BK, THREADS> copy_b(B, ldb, n0, N, K, tid);
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, KSTEPS> reader(
        warp_m0, warp_n0, lane);
    auto load_stage = [&](int stage, int kt, int part, int parts) {
        copy_a.cp_async(sA + stage * LayoutA::ELEMS, A, lda, kt, part, parts);
        copy_b.cp_async(sB + stage * LayoutB::ELEMS, B, ldb, kt, part, parts);
    };
    constexpr int COPY_STEPS = KSTEPS - 1;  // the refill is spread over all but the last k16 step

    // Prologue: k-tiles 0 .. STAGES-2 in flight, one group each (empty past the end of K).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) load_stage(s, s, 0, 1);
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
                } else if (kt + STAGES - 1 < k_tiles) {
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

    int kt = 0;
    if constexpr (INTERIOR_LOOP) {
        // A block whose tile lies wholly inside C runs the k-tiles whose prefetch is a whole
        // k-tile of A and B in a loop of its own, with the bounds checks compiled out; the
        // remaining k-tiles (and every k-tile of an edge block) take the checked loop below.
        const bool inside = m0 + BM <= M && n0 + BN <= N;
        const int interior_end = inside ? K / BK - (STAGES - 1) : 0;
        for (; kt < interior_end; ++kt) k_tile(kt, true);
    }
    for (; kt < k_tiles; ++kt) k_tile(kt, false);
    cp_async_wait<0>();  // only empty groups can remain; leave nothing in flight
    __syncthreads();     // every warp is done with the stages the epilogue reuses

    store_warp_tile<TC, WM, WN>(C, ldc, M, N, m0 + warp_m0, n0 + warp_n0, acc, smem, warp, lane);
}

}  // namespace hgemm
}  // namespace wg

// C = A * B with double-buffered fragments. Launch as rung 04.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::hgemm::threads_for(BM, BN, WM, WN), 1)
hgemm_fragment_double_buffer(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M,
                             int N, int K, int lda, int ldb, int ldc) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::hgemm::swizzled_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::hgemm::double_buffered_tile<false, false, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
