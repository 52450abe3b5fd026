// hgemm/08_f16_accumulate.cu -- fp16 accumulation: rung 07's loop (interior k-tiles unchecked) with
// mma.sync ...f16.f16.f16.f16.
//
// A variant, not a step up the ladder: it changes the arithmetic. The classic mma.sync HGEMM (and most public
// HGEMM ladders) accumulate in fp16, mma.sync.m16n8k16.row.col.f16.f16.f16.f16. Compared with
// the fp32-accumulate rungs:
//   * each m16n8 accumulator is two f16x2 registers instead of four fp32 ones, so a 64x64 warp
//     tile holds 64 accumulator registers instead of 128, and the epilogue needs no conversion;
//   * on GPUs whose fp16-accumulate tensor rate is higher (GeForce parts) it is up to twice as
//     fast; on A100/H100/H200 the mma.sync rate is the same for both;
//   * the sum is rounded to fp16 (11-bit significand) after every k16 step, so the error grows
//     with K, and a sum past 65504 overflows to infinity. torch.matmul accumulates in fp32: this
//     is not a drop-in replacement, and its benchmark baseline is cuBLAS with fp16 accumulation
//     allowed.
//
// Requires fp16 inputs and an fp16 output, and what rung 06 requires.
//
// The main loop is rung 07's, sm80/mainloop_fragment_double_buffer.cuh, with F16_ACC set.
#include "common/block_order.cuh"
#include "sm80/mainloop_fragment_double_buffer.cuh"

// C = A * B in fp16 arithmetic. Launch as rung 06, with max(STAGES * (BM + BN) * BK * 2,
// BM * BN * 2) bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN,
          int STAGES, int SWIZZLE>
__global__ void __launch_bounds__(wg::sm80::threads_for(BM, BN, WM, WN), 1)
hgemm_f16_accumulate(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                     int K, int lda, int ldb, int ldc) {
    static_assert(wg::same_type<T, wg::half_t>::value && wg::same_type<TC, wg::half_t>::value,
                  "the fp16-accumulate kernel takes fp16 inputs and writes fp16");
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);
    wg::sm80::double_buffered_tile<true, true, A_ROW, B_ROW, T, TC, BM, BN, BK, WM, WN, STAGES>(
        A, B, C, M, N, K, lda, ldb, ldc, tile_m, tile_n);
}
