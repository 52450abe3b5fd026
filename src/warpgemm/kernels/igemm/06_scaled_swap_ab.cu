// igemm/06_scaled_swap_ab.cu -- W8A8 at decode sizes: the scaled epilogue of rung 03 on the
// swap-AB pipeline of decode/02_swap_ab_wgmma.
//
// At a handful of tokens a GEMM is a read of the weight: int8 weights are half of bf16's bytes,
// so the scaled int8 product can take half of a bf16 GEMM's time, if the kernel streams the
// weight at the memory's speed. Rung 03's tiles are 128 tokens tall: at M = 1 it reads the weight
// as rung 02 does, one tile-row of it per SM, and most of each wgmma computes rows of zeros.
// Here, as in decode/02, the weight (N x K, row-major: B = W^T column-major) is wgmma's A operand,
// BM of its rows per tile, and the tokens (M x K, K-major) its B operand, one BN x BK box per
// k-tile (BN = 32 or 64) shared by the tile's rows. A tile of C^T holds BM channels by BN tokens;
// the last wave's K split fills the SMs, its s32 parts added exactly before the epilogue.
//
// The epilogue (sm90/epilogue_direct.cuh, ScaledTransposedEpilogue) scales each sum by its
// channel's scale_b and its token's scale_a, adds the channel's bias, rounds once to TC and
// writes it into C's columns. Its scales and bias are loaded when a unit starts, under the
// main loop, not after it.
//
// Requires sm_90a; A row-major (M x K), B column-major (B = W^T, W row-major); 16-byte aligned
// bases, leading dimensions a multiple of 16. Any M, N, K (M <= BN per tile column; more tokens
// take more tile columns); exact int32 sums while K <= 131071 for full-range operands.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as decode/02_swap_ab_wgmma (tiles of C^T: units over ceil(N / BM) * ceil(M / BN)
// tiles), with igemm/03's scales before the split arguments.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int IN_FLIGHT>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
igemm_scaled_swap_ab(const __grid_constant__ wg::TmaDescriptor tma_w, const __grid_constant__ wg::TmaDescriptor tma_x,
                     TC* __restrict__ C, int M, int N, int K, int ldc, const float* __restrict__ scale_a,
                     int scale_a_step, const float* __restrict__ scale_b, int scale_b_step,
                     const float* __restrict__ bias, float* __restrict__ workspace, int* __restrict__ counters,
                     int splits) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value, "int8 in");
    static_assert(A_ROW && !B_ROW, "8-bit wgmma reads K-major operands: the tokens row-major, W = B^T row-major "
                                   "(B column-major, the Linear layout)");
    static_assert(BN == 32 || BN == 64, "BN (tokens a tile holds) is 32 or 64");
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, true, false, 1, IN_FLIGHT>;
    if (threadIdx.x == 0) Mainloop::init(&tma_w, &tma_x);
    __syncthreads();

    const sm90::ScaledTransposedEpilogue<TC, BN> epilogue{C, ldc, N, M, {scale_a, scale_a_step, scale_b, scale_b_step, bias}};
    sm90::persistent_split_k<Mainloop, 1>(&tma_w, &tma_x, N, M, K, epilogue, workspace, counters, splits);
}
