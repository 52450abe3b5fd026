// int4/06_widen_a_to_registers.cu -- rung 05 with A widened straight into registers: the
// register-A form of the s8 (u8) wgmma takes A's fragment from registers, so only B is widened
// into an 8-bit tile in shared memory.
//
// Rung 05 looked bound by shared memory: per k-tile of a 128 x 256 tile, the packed tiles' TMA
// writes, the widening's reads and writes and the wgmma's reads come to 176 KB, against int8's
// 128 KB. Here each consumer thread reads its A rows' packed words (4-byte loads from a tile TMA
// lands under the 64-byte swizzle, so that they are free of bank conflicts) and widens them into
// the wgmma's A fragment in the order B's widening puts B's values in
// (sm90/mainloop_register_a_widening.cuh): the A target tiles and their traffic go. The rest is
// rung 05's: the producer warp and the ring of packed stages, B's widening copy, the persistent
// schedule with the last wave's exact K split, the direct s32 store. The accumulators and A's two
// register sets need 240 registers a consumer thread at 128 x 256 tiles: the producer warpgroup
// gives them all but the 24 its one TMA thread needs.
//
// s4 values are widened to 16 times themselves (the nibble at the top of its byte: three
// operations a word instead of seven), and the epilogue shifts the sums back by 8 bits: exact to
// K = 131071 for s4 (the host refuses longer K; u4 keeps the other kernels' bound).
//
// Measured on an H100 against the int8 kernel, s4 / u4: 0.92x / 0.93x at 4096^3 and 0.95x / 0.94x
// at 8192^3 (rung 05: 0.73x-0.81x).
//
// Requires sm_90a; A (M, K) and W (N, K), B = W^T, both packed along K (warpgemm.int4.Packed),
// 16-byte aligned rows a multiple of 16 bytes apart; an odd K's pad nibble cleared in one operand
// (the host does it). Exact while the sums fit int32: K <= 131071 for s4 (S4_HIGH_K_MAX), U4_K_MAX
// for u4 (catalog/int4.py). Any M, N and (within that) K.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_register_a_widening.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as int4/05, with STAGES * (BM + BN) * BK / 2 + 1024 + 2 * BN * BK bytes of dynamic
// shared memory (the packed ring, its barriers, two 8-bit B tiles). tma_a maps A's packed bytes
// with (64, BM) boxes under the 64-byte swizzle, tma_b W's with (64, BN) boxes and no swizzle.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
int4_widen_a_to_registers(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                          TC* __restrict__ C, int M, int N, int K, int ldc, float* __restrict__ workspace,
                          int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(same_type<TC, int32_t>::value, "4-bit inputs give int32 sums");
    static_assert(A_ROW && !B_ROW, "A (M, K) and W (N, K) packed along K: A row-major, B = W^T column-major");
    using Mainloop = sm90::RegisterAWideningMainloop<T, BM, BN, BK, STAGES>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    using Epilogue = sm90::ShiftedS32Epilogue<Mainloop::SUM_SHIFT>;
    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K, Epilogue{C, ldc, M, N}, workspace,
                                              counters, splits);
}
