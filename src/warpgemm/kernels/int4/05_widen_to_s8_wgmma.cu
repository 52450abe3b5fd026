// int4/05_widen_to_s8_wgmma.cu -- packed int4 x packed int4 -> int32 on Hopper at the 8-bit
// wgmma's rate: TMA loads the packed tiles, the consumers widen them to 8-bit tiles in shared
// memory, and s8 (or u8) wgmma multiplies those.
//
// Rungs 01-04 run the 4-bit mma.sync forms, which sm_90 emulates (no 4-bit tensor cores). A 4-bit
// value is an 8-bit value too, with the same products and the same int32 sums: this rung keeps
// int4's global-memory and L2 traffic (half of int8's) and int8's tensor-core rate, and pays for
// the widening in shared-memory bandwidth and issue slots (sm90/mainloop_widening.cuh).
//
// What it adds over igemm/02_wgmma_s8, whose pipeline it instantiates (producer warp, mbarrier
// ring, persistent schedule with the last wave's exact K split, direct s32 store):
//   * stages of packed tiles, (BM + BN) rows of 64 bytes (128 values of k) in 64-byte TMA boxes
//     (sm90/widening_copy.cuh, PackedTile);
//   * the widening copy: 16-byte loads of packed rows, nibbles to bytes in registers without
//     restoring k order (common/nibble_widen.cuh: the same permutation for A and B, so the dot
//     products are unchanged), 16-byte stores into the 128-byte-swizzled K-major tiles that the
//     8-bit wgmma descriptors read (sm90/widening_copy.cuh);
//   * the main loop that overlaps the widening of k-tile kt with the wgmma of k-tile kt - 1, each
//     consumer widening its A rows and half of the shared B tile (sm90/mainloop_widening.cuh).
// s4 runs s8 x s8 wgmma, u4 runs u8 x u8.
//
// Requires sm_90a; A (M, K) and W (N, K), B = W^T, both packed along K (warpgemm.int4.Packed),
// 16-byte aligned rows a multiple of 16 bytes apart; an odd K's pad nibble cleared in one operand
// (the host does it). Exact while the sums fit int32 (catalog/int4.py: S4_K_MAX, U4_K_MAX). Any
// M, N, K.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_widening.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as igemm/02_wgmma_s8: min(units, SMs) blocks of 384 threads (BM = 128), with
// STAGES * (BM + BN) * BK / 2 + 1024 + 2 * (BM + BN) * BK bytes of dynamic shared memory (the
// packed ring, its barriers, two slots of 8-bit target tiles). tma_a and tma_b map the packed
// bytes, (ceil(K / 2), rows) with (64, BM) and (64, BN) boxes, no swizzle; K is in values.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
int4_widen_to_s8_wgmma(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                       TC* __restrict__ C, int M, int N, int K, int ldc, float* __restrict__ workspace,
                       int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<TC, int32_t>::value, "4-bit inputs give int32 sums");
    static_assert(A_ROW && !B_ROW, "A (M, K) and W (N, K) packed along K: A row-major, B = W^T column-major");
    using Mainloop = sm90::WideningMainloop<T, BM, BN, BK, STAGES>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K,
                                              sm90::DirectEpilogue<TC, int32_t>{C, ldc, M, N, nullptr}, workspace,
                                              counters, splits);
}
