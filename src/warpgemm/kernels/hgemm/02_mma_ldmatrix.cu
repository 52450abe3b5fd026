// hgemm/02_mma_ldmatrix.cu -- rung 02: mma.sync m16n8k16 fed by ldmatrix (seed 000's mma_base).
//
// What this rung adds over rung 01 (wmma):
//   * The math is the PTX mma.sync.m16n8k16 (fp32 accumulators) instead of wmma. Its fragment
//     layout is documented (common/ptx.cuh), which lets a warp own a larger tile and lets the
//     epilogue address the accumulators directly.
//   * Fragments come from shared memory through ldmatrix.x4: one instruction gives a warp a whole
//     16x16 A fragment, or the B fragments of two n8 tiles. An operand tile that runs along k
//     (row-major A, column-major B) is read as it is; one that runs along m or n (column-major A,
//     row-major B) is read with ldmatrix .trans, which transposes 8x8 blocks on the way. Seed
//     000 reads a column-major B, whose shared tile is B^T: n rows of k, the k-contiguous case.
//   * Seed 000's tiling: a 256x128 block tile, 8 warps as 4 x 2, each a 64x64 warp tile of
//     4 x 8 mma tiles (128 fp32 accumulators per thread), BK = 32.
//   * C goes out through shared memory: each warp writes its accumulators there as TC, then
//     copies whole 16-byte rows of them to global memory (common/hgemm_tiles.cuh, CStage).
//
// The shared tiles are unpadded and keep the global layout, (BM,BK):(BK,1) or (BM,BK):(1,BM)
// (likewise for B^T), so ldmatrix phases hit the same banks several times (rung 05 fixes that),
// and loads still go through registers with no overlap between copying and computing (rung 04
// fixes that). Blocks run in plain grid order (rung 03 changes that).
//
// Requires sm_80+, 16-byte aligned A and B with leading dimensions a multiple of 8 elements (the
// host copies other inputs first). Correct for any M, N, K >= 1.
#include "common/hgemm_tiles.cuh"

namespace wg {
namespace hgemm {

// One block's tile (tile_m, tile_n) of C, computed with register-staged loads into one shared
// buffer per operand. Rung 03 reuses it with a different block order.
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

    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    const int warp_m0 = (warp / Shape::WARPS_N) * WM;
    const int warp_n0 = (warp % Shape::WARPS_N) * WN;
    const int m0 = tile_m * BM;
    const int n0 = tile_n * BN;
    const int k_tiles = (K + BK - 1) / BK;

    using CopyA = TileCopy<T, LayoutA, A_KC, BM, BK, THREADS>;
    using CopyB = TileCopy<T, LayoutB, B_KC, BN, BK, THREADS>;
    const CopyA copy_a(A, lda, m0, M, K, tid);
    const CopyB copy_b(B, ldb, n0, N, K, tid);
    const WarpReader<A_KC, B_KC, LayoutA, LayoutB, WM, WN, Shape::WARPS_M, Shape::WARPS_N, Shape::KSTEPS> reader(
        warp_m0, warp_n0, lane);

    float acc[MT][NT][4];
    zero(acc);

    for (int kt = 0; kt < k_tiles; ++kt) {
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

    store_warp_tile<TC, WM, WN>(C, ldc, M, N, m0 + warp_m0, n0 + warp_n0, acc, smem, warp, lane);
}

}  // namespace hgemm
}  // namespace wg

// C = A * B with mma.sync m16n8k16 and ldmatrix. Launch with the default grid
// (ceil(N/BN), ceil(M/BM)), 32 * (BM/WM) * (BN/WN) threads and the catalogue's dynamic shared
// memory, max((BM + BN) * BK * 2, BM * BN * sizeof(TC)) bytes.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(wg::hgemm::threads_for(BM, BN, WM, WN), 1)
hgemm_mma_ldmatrix(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                   int K, int lda, int ldb, int ldc) {
    int tile_m, tile_n;
    wg::hgemm::grid_tile(tile_m, tile_n);
    wg::hgemm::mma_ldmatrix_tile<A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN>(A, B, C, M, N, K, lda, ldb, ldc,
                                                                         tile_m, tile_n);
}
