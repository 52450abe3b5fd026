// int4/07_producer_widens_b.cu -- rung 06 with B widened by the producer warpgroup's idle warps: the
// consumers only widen A into registers and multiply, and no longer wait for each other.
//
// In rung 06 the two consumer warpgroups each widen half of B into the shared 8-bit tile and meet
// at a barrier every k-tile, so they run in lockstep and drain the tensor pipe together (each
// must wait for its own wgmma before the next k-tile's, whose A registers were written while
// they ran). Here warps 1-3 of the producer warpgroup widen B into a ring of B_SLOTS 8-bit tiles
// with full and empty mbarriers (sm90/mainloop_producer_widening.cuh), warp 0 still issues the
// TMA loads, and each consumer waits only for its own wgmma, B's slot and A's stage. Freed of the
// widening's registers, a consumer holds 128 x 256 tiles' accumulators (rung 06: at most 192
// columns). The rest is rung 06's: A widened into the register-A wgmma's fragment, s4 as 16
// times its values (sums shifted back, exact to K = 131071), the persistent schedule with the
// last wave's exact K split, the direct s32 store.
//
// Requires sm_90a; A (M, K) and W (N, K), B = W^T, both packed along K (warpgemm.int4.Packed),
// 16-byte aligned rows a multiple of 16 bytes apart; an odd K's pad nibble cleared in one operand
// (the host does it). Exact while the sums fit int32: K <= 131071 for s4 (S4_HIGH_K_MAX), U4_K_MAX
// for u4 (catalog/int4.py). Any M, N and (within that) K.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_producer_widening.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as int4/06, with STAGES * (BM + BN) * BK / 2 + 1024 + B_SLOTS * BN * BK bytes of dynamic
// shared memory (the packed ring, its and B's barriers, B_SLOTS 8-bit B tiles). tma_a maps A's
// packed bytes with (64, BM) boxes under the 64-byte swizzle, tma_b W's with (64, BN) boxes and
// no swizzle.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int B_SLOTS, int GROUP>
__global__ void __launch_bounds__(128 * (1 + BM / 64), 1)
int4_producer_widens_b(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                       TC* __restrict__ C, int M, int N, int K, int ldc, float* __restrict__ workspace,
                       int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<TC, int32_t>::value, "4-bit inputs give int32 sums");
    static_assert(A_ROW && !B_ROW, "A (M, K) and W (N, K) packed along K: A row-major, B = W^T column-major");
    using Mainloop = sm90::ProducerWideningMainloop<T, BM, BN, BK, STAGES, B_SLOTS>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    using Epilogue = sm90::ShiftedS32Epilogue<Mainloop::SUM_SHIFT>;
    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K, Epilogue{C, ldc, M, N}, workspace,
                                              counters, splits);
}
