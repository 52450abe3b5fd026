// warpgemm/kernels/sm80/packed4_mainloop.cuh -- the main loop of the int4 kernels (int4/01..04):
// STAGES k-tiles of packed 4-bit A and B in flight (cp.async from sm_80), the pad nibble of an
// odd K cleared, and a warp-level `step` that does one k-tile's mma work on the tiles it gets.
// The four kernels differ only in their step (the mma form and how it reads its fragments) and,
// for wmma, in the tile layout.
#pragma once

#include "sm80/packed4_tile.cuh"

namespace wg {
namespace sm80 {

// The block's dynamic shared memory: STAGES stages, each the A tile then the B tile.
template <class LayoutA, class LayoutB, int STAGES>
__host__ __device__ constexpr int packed4_pipeline_bytes() {
    return STAGES * (LayoutA::BYTES + LayoutB::BYTES);
}

// Runs the k-tiles of the block tile at (m0, n0) of C. `step(a, b)` gets the shared-window
// addresses of the stage's A tile (BM rows of the block, K-major) and B tile (BN rows of W) and
// does the warp's mma work on them. A k-tile is computed while the next STAGES - 1 load:
//
//   prologue   k-tiles 0 .. STAGES-2 issued, a commit group each (empty groups past K)
//   k-tile kt  wait until k-tile kt has landed; barrier (every warp is also done with kt - 1);
//              [odd K, last k-tile: clear the pad nibble in A's tile; barrier]
//              issue k-tile kt + STAGES - 1 into kt - 1's stage; commit; step(kt)
//
// On return every copy has landed and every warp is done with the stages: the caller may reuse
// the shared memory.
template <class LayoutA, class LayoutB, int BM, int BN, int BKB, int THREADS, int STAGES, class Step>
__device__ __forceinline__ void packed4_mainloop(const uint8_t* A, const uint8_t* B, int lda, int ldb, int M,
                                                 int N, int K, int m0, int n0, int tid, uint8_t* smem,
                                                 Step&& step) {
    static_assert(STAGES >= 2, "the pipeline needs STAGES >= 2 (a k-tile computed while the next one loads)");
    constexpr int STAGE_BYTES = LayoutA::BYTES + LayoutB::BYTES;
    static_assert(LayoutA::BYTES % 1024 == 0 && LayoutB::BYTES % 1024 == 0,
                  "each tile must start 1024-byte aligned (the swizzle's period): BM*BK/2 and BN*BK/2 "
                  "(padded: BM*(BK/2+16)) must be multiples of 1024");
    const int Kb = (K >> 1) + (K & 1);  // bytes a row (K + 1 could overflow)
    const int k_tiles = (Kb + BKB - 1) / BKB;
    const PackedTileCopy<LayoutA, BM, BKB, THREADS> copy_a(A, lda, m0, M, Kb, tid);
    const PackedTileCopy<LayoutB, BN, BKB, THREADS> copy_b(B, ldb, n0, N, Kb, tid);

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) {
            copy_a.copy(smem + s * STAGE_BYTES, A, s);
            copy_b.copy(smem + s * STAGE_BYTES + LayoutA::BYTES, B, s);
        }
        packed4_commit();
    }
    for (int kt = 0; kt < k_tiles; ++kt) {
        uint8_t* stage = smem + (kt % STAGES) * STAGE_BYTES;
        packed4_wait<STAGES - 2>();
        __syncthreads();
        if (holds_pad_nibble<BKB>(K, kt)) {
            clear_pad_nibble<LayoutA, BM, BKB, THREADS>(stage, K, kt, tid);
            __syncthreads();
        }
        const int next = kt + STAGES - 1;
        if (next < k_tiles) {
            uint8_t* to = smem + (next % STAGES) * STAGE_BYTES;
            copy_a.copy(to, A, next);
            copy_b.copy(to + LayoutA::BYTES, B, next);
        }
        packed4_commit();
        step(smem_u32(stage), smem_u32(stage + LayoutA::BYTES));
    }
    packed4_wait<0>();
    __syncthreads();
}

}  // namespace sm80
}  // namespace wg
