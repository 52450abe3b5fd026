// igemm/04_transposing_copy.cu -- int8 with a column-major A: rung 02's pipeline, with the A tile
// turned K-major in shared memory by the consumers themselves.
//
// 8-bit wgmma reads K-major operands only, and ldmatrix has no 8-bit transpose, so rung 02 reads
// A row-major (and B column-major) in place and the host copied any other layout first: a whole
// extra pass over A in global memory, and a second kernel. Here TMA lands the column-major A tile
// as it lies, MN-major (one 128-byte row per k), and each consumer warpgroup copies its 64 rows
// K-major into a tile of its own (sm90/transposing_copy.cuh: 4 x 4 byte blocks turned around
// with prmt, both sides free of bank conflicts on the bank model), then issues wgmma from that copy
// (sm90/mainloop_transposing.cuh). The copy of k-tile kt overlaps the wgmma of k-tile kt - 1; it
// costs shared-memory bandwidth and issue slots, not a pass over global memory.
//
// Everything else is rung 02: the producer warp, the mbarrier ring, the persistent schedule and
// the last wave's exact K split, the direct s32 store. Exact while no partial sum leaves int32
// (K <= 131071 for full-range operands).
//
// Requires sm_90a; A column-major ((M,K):(1,lda)), B column-major ((K,N):(1,ldb)); 16-byte aligned
// bases and leading dimensions a multiple of 16 elements. Any M, N, K.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_transposing.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as igemm/02_wgmma_s8 (BM = 128: 384 threads) with
// STAGES * (BM + BN) * BK + 1024 + 4 * 64 * BK bytes of dynamic shared memory: the ring, its
// barriers, and two target tiles per consumer. tma_a maps A MN-major in (128, BK) boxes.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_transposing_copy(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                       TC* __restrict__ C, int M, int N, int K, int ldc, float* __restrict__ workspace,
                       int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value && same_type<TC, int32_t>::value, "int8 in, int32 out");
    static_assert(!A_ROW && !B_ROW, "this rung copies a column-major A; B must be column-major (K-major)");
    using Mainloop = sm90::TransposingMainloop<T, BM, BN, BK, STAGES>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K,
                                              sm90::DirectEpilogue<TC, T>{C, ldc, M, N, nullptr}, workspace,
                                              counters, splits);
}
