// int4/01_wmma_m8n8k32.cu -- packed int4 x packed int4 -> int32 on wmma m8n8k32 (s4 or u4), the
// sub-byte wmma of sm_75 (CUDA's wmma::experimental::precision::s4/u4): the first rung of the
// int4 ladder.
//
// The idea: wmma hides the fragment layout. A warp loads an 8 x 32 block of A (row-major) and a
// 32 x 8 block of B (column-major, i.e. 8 rows of W) from shared memory with wmma.load, given the
// block's first row and the row stride in 4-bit elements; wmma.mma adds their product to an
// opaque 8 x 8 s32 accumulator fragment, and wmma.store writes that back as a row-major tile.
// The layouts never show, and so the tiles cannot be swizzled: rows are padded instead, 16 bytes
// past each k-tile's BK/2 (sm80/packed4_tile.cuh, PaddedPacked), which spreads the 8 rows of a
// load over 8 bank groups.
//
// Requires sm_75 (sm_80 and later: cp.async feeds the tiles; sm_90 and later: the 4-bit wmma is
// emulated by ptxas). Operands: A (M, K) row-major and W = B^T (N, K), both packed along K
// (warpgemm.int4), 16-byte aligned with rows a multiple of 16 bytes apart; both s4 or both u4.
//
// The block: (BM/WM) x (BN/WN) warps, each a WM x WN tile of C in 8 x 8 fragments, STAGES
// k-tiles in flight (sm80/packed4_mainloop.cuh). Per k32 step a warp loads WM/8 fragments of A
// and WN/8 of B and issues (WM/8) x (WN/8) wmma.mma. The epilogue stores each row of fragments
// with wmma.store into the warp's region of shared memory, then to C in 16-byte stores
// (sm80/s32_tile_store.cuh).
//
// Launch: grid (ceil(N / BN), ceil(M / BM)), packed4_threads(BM, BN, WM, WN) threads,
// max(STAGES * (BM + BN) * (BK / 2 + 16), 1 KB per warp) bytes of dynamic shared memory.
#include "arch/sm75.cuh"
#include "sm80/packed4_mainloop.cuh"
#include "sm80/packed4_warp.cuh"
#include "sm80/s32_tile_store.cuh"

template <bool A_ROW, bool B_ROW, typename T4, typename TC, int BM, int BN, int BK, int WM, int WN, int STAGES>
__global__ void __launch_bounds__(wg::sm80::packed4_threads(BM, BN, WM, WN))
int4_wmma_m8n8k32(const T4* A, const T4* B, TC* C, int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace wg;
    using namespace wg::sm80;
    static_assert(A_ROW && !B_ROW, "packed int4 operands are read along K: A row-major (M, K), B = W^T "
                                   "column-major (W (N, K) packed along K)");
    static_assert(same_type<T4, s4x2_t>::value || same_type<T4, u4x2_t>::value,
                  "the operands are packed 4-bit integers: s4x2_t (signed) or u4x2_t (unsigned)");
    static_assert(same_type<TC, int32_t>::value, "4-bit products are summed and written as int32");
    static_assert(BK % 32 == 0 && BK >= 64, "BK must be a multiple of 32 values (16-byte chunks), at least 64");
    constexpr bool SIGNED = same_type<T4, s4x2_t>::value;
    constexpr int BKB = BK / 2;
    using Warps = Packed4Warps<BM, BN, WM, WN>;
    using LA = PaddedPacked<BM, BKB>;
    using LB = PaddedPacked<BN, BKB>;
    constexpr int MF = WM / 8;                  // 8-row fragments of A per warp
    constexpr int NF = WN / 8;                  // 8-column fragments of B per warp
    constexpr int LDM = 2 * LA::ROW_BYTES;      // the row stride in 4-bit elements
    static_assert(LA::ROW_BYTES == LB::ROW_BYTES && LDM % 32 == 0, "wmma.load needs 16-byte row strides");

    const Warps w(blockIdx.y, blockIdx.x);
    int32_t acc[MF][NF][2] = {};

    packed4_mainloop<LA, LB, BM, BN, BKB, Warps::THREADS, STAGES>(
        reinterpret_cast<const uint8_t*>(A), reinterpret_cast<const uint8_t*>(B), lda, ldb, M, N, K, w.m0, w.n0,
        w.tid, dynamic_smem(), [&](uint32_t tile_a, uint32_t tile_b) {
#pragma unroll
            for (int s = 0; s < BKB / 16; ++s) {
                uint32_t a[MF][1], b[NF][1];
#pragma unroll
                for (int i = 0; i < MF; ++i)
                    wmma_load_a_m8n8k32<SIGNED>(a[i], tile_a + LA::offset(w.warp_m0 + 8 * i, 16 * s), LDM);
#pragma unroll
                for (int j = 0; j < NF; ++j)
                    wmma_load_b_m8n8k32<SIGNED>(b[j], tile_b + LB::offset(w.warp_n0 + 8 * j, 16 * s), LDM);
#pragma unroll
                for (int i = 0; i < MF; ++i)
#pragma unroll
                    for (int j = 0; j < NF; ++j) wmma_mma_m8n8k32<SIGNED>(acc[i][j], a[i], b[j]);
            }
        });

    // A row of fragments (8 rows of the warp's tile) at a time through the warp's region.
    using Stage = S32Stage<8, WN, false>;
    uint8_t* stage = dynamic_smem() + w.warp * Stage::BYTES;
    const bool vec_ok = s32_rows_16B_aligned(C, ldc);
#pragma unroll
    for (int i = 0; i < MF; ++i) {
#pragma unroll
        for (int j = 0; j < NF; ++j) wmma_store_d_m8n8k32_s32(smem_u32(stage + 32 * j), acc[i][j], WN);
        __syncwarp();
        store_staged_s32<Stage>(C, ldc, M, N, w.m0 + w.warp_m0 + 8 * i, w.n0 + w.warp_n0, stage, w.lane, vec_ok);
        __syncwarp();
    }
}
