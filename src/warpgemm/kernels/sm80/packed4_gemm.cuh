// warpgemm/kernels/sm80/packed4_gemm.cuh -- the block of the 4-bit mma.sync rungs (int4/02-04):
// everything but the instructions.
//
// (BM/WM) x (BN/WN) warps, each a WM x WN tile of C kept as m16n8 accumulator tiles
// acc[MT][NT][4]; STAGES k-tiles of BK packed values in flight in Sw<3,4,3> K-major tiles
// (sm80/packed4_mainloop.cuh); per k64 step a warp reads MT 16 x 64 blocks of A and NT/2 of W with
// ldmatrix.x4 (sm80/packed4_warp.cuh) and hands them to `issue(acc, a, b)`, the rung's own code:
// the mma.sync instructions of one k64 step. The s32 sums go to C through shared memory in
// 16-byte stores (sm80/s32_tile_store.cuh).
#pragma once

#include "sm80/packed4_mainloop.cuh"
#include "sm80/packed4_warp.cuh"
#include "sm80/s32_tile_store.cuh"

namespace wg {
namespace sm80 {

template <bool A_ROW, bool B_ROW, typename T4, typename TC, int BM, int BN, int BK, int WM, int WN, int STAGES,
          typename Issue>
__device__ __forceinline__ void packed4_mma_gemm(const T4* A, const T4* B, TC* C, int M, int N, int K, int lda,
                                                 int ldb, int ldc, Issue issue) {
    static_assert(A_ROW && !B_ROW, "packed int4 operands are read along K: A row-major (M, K), B = W^T "
                                   "column-major (W (N, K) packed along K)");
    static_assert(same_type<T4, s4x2_t>::value || same_type<T4, u4x2_t>::value,
                  "the operands are packed 4-bit integers: s4x2_t (signed) or u4x2_t (unsigned)");
    static_assert(same_type<TC, int32_t>::value, "4-bit products are summed and written as int32");
    static_assert(BK == 128 || BK == 256, "BK must be 128 or 256 values (64- or 128-byte rows of the tile)");
    constexpr int BKB = BK / 2;
    constexpr int KSTEPS = BK / 64;
    using Warps = Packed4Warps<BM, BN, WM, WN>;
    static_assert(packed4_blocks_are_exact<BKB, WM, Warps::WARPS_M, Warps::MT, KSTEPS>() &&
                      packed4_blocks_are_exact<BKB, WN, Warps::WARPS_N, Warps::NT / 2, KSTEPS>(),
                  "the warp tile does not line up with the shared-memory swizzle: use WM, WN multiples of 16");

    const Warps w(blockIdx.y, blockIdx.x);
    const Packed4Blocks<BKB> read_a(w.warp_m0, w.lane), read_b(w.warp_n0, w.lane);
    int32_t acc[Warps::MT][Warps::NT][4] = {};

    packed4_mainloop<SwizzledPacked<BM, BKB>, SwizzledPacked<BN, BKB>, BM, BN, BKB, Warps::THREADS, STAGES>(
        reinterpret_cast<const uint8_t*>(A), reinterpret_cast<const uint8_t*>(B), lda, ldb, M, N, K, w.m0, w.n0,
        w.tid, dynamic_smem(), [&](uint32_t tile_a, uint32_t tile_b) {
#pragma unroll
            for (int s = 0; s < KSTEPS; ++s) {
                uint32_t a[Warps::MT][4], b[Warps::NT / 2][4];
#pragma unroll
                for (int i = 0; i < Warps::MT; ++i) read_a.load(a[i], tile_a, i, s);
#pragma unroll
                for (int jj = 0; jj < Warps::NT / 2; ++jj) read_b.load(b[jj], tile_b, jj, s);
                issue(acc, a, b);
            }
        });

    store_acc_16x8(C, ldc, M, N, w.m0 + w.warp_m0, w.n0 + w.warp_n0, acc,
                   dynamic_smem() + w.warp * S32Stage<16, WN, true>::BYTES, w.lane);
}

}  // namespace sm80
}  // namespace wg
