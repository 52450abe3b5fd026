// hgemm/04_cp_async_pipeline.cu -- rung 04: a STAGES-deep cp.async pipeline.
//
// What this rung adds over rung 03: global -> shared copies that run behind the math.
//   * cp.async.cg moves each 16-byte chunk from global memory straight into shared memory,
//     without a register round trip and without stalling the thread that issued it. Chunks
//     outside the matrix are zero-filled by the copy itself (src-size 0..16 bytes).
//   * Shared memory holds STAGES (2 to 5) k-tiles of A and B in a ring. The copies of k-tile
//     kt + STAGES - 1 are issued before k-tile kt is computed; each k-tile's copies are one
//     cp.async group, and cp.async.wait_group<STAGES - 2> waits only for the oldest tile still
//     needed. A group is committed for every k-tile, empty past the end of K, so the count of
//     groups in flight, and with it the wait, is the same on every iteration: a K of fewer
//     k-tiles than stages needs no special case.
//   * One __syncthreads per k-tile both publishes the tile that just landed and tells every
//     thread that the stage consumed in the previous iteration is free to be refilled.
// With STAGES - 1 tiles in flight the latency of global memory hides behind the mma of the
// tiles already present; only the first STAGES - 1 tiles are waited for in full.
//
// The shared tiles are still rung 02's plain layout; the body takes the layout as a template so
// rung 05 can swap in the swizzled one.
//
// Requires what rung 02 requires; the grid is rung 03's 1-D swizzled grid.
#include "hgemm/03_block_swizzle.cu"

namespace wg {
namespace hgemm {

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
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, Shape::KSTEPS> reader(
        warp_m0, warp_n0, lane);
    auto load_stage = [&](int stage, int kt) {
        copy_a.cp_async(sA + stage * LayoutA::ELEMS, A, lda, kt);
        copy_b.cp_async(sB + stage * LayoutB::ELEMS, B, ldb, kt);
    };

    // Prologue: k-tiles 0 .. STAGES-2 in flight, one group each (empty past the end of K).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) load_stage(s, s);
        cp_async_commit();
    }

    float acc[MT][NT][4];
    zero(acc);

    int read_stage = 0;            // holds k-tile kt
    int write_stage = STAGES - 1;  // receives k-tile kt + STAGES - 1
    for (int kt = 0; kt < k_tiles; ++kt) {
        cp_async_wait<STAGES - 2>();  // this thread's copies of k-tile kt have landed ...
        __syncthreads();              // ... and everyone's; k-tile kt-1's stage is free
        if (kt + STAGES - 1 < k_tiles) load_stage(write_stage, kt + STAGES - 1);
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

    store_warp_tile<TC, WM, WN>(C, ldc, M, N, m0 + warp_m0, n0 + warp_n0, acc, smem, warp, lane);
}

}  // namespace hgemm
}  // namespace wg

// C = A * B with a STAGES-deep cp.async pipeline. Launch with rung 03's 1-D grid,
// 32 * (BM/WM) * (BN/WN) threads and max(STAGES * (BM + BN) * BK * 2, BM * BN * sizeof(TC)) bytes
// of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::hgemm::threads_for(BM, BN, WM, WN), 1)
hgemm_cp_async_pipeline(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M,
                        int N, int K, int lda, int ldb, int ldc) {
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::hgemm::swizzled_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::hgemm::cp_async_pipeline_tile<wg::hgemm::PlainSmem, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
