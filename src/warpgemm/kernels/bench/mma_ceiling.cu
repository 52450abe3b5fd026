// warpgemm/kernels/bench/mma_ceiling.cu -- the mma.sync throughput ceiling of this GPU.
//
// Every warp issues CHAINS independent chains of ITERS back-to-back mma.sync instructions on
// register operands: no memory traffic, no dependency stalls beyond the tensor-core pipeline
// itself. The rate it reaches is the denominator for "fraction of the mma.sync ceiling".
// Launched with any block size up to 1024 threads, so that the same loop also measures how many
// warps per SM it takes to reach that rate (`warpgemm bench ceiling --occupancy`).
// The accumulators are written out at the end so the compiler cannot drop the work.
//
// Operands. The tensor cores draw more power when their inputs change from one instruction to
// the next, and a GEMM feeds every mma new data; at the chip's power limit the clock drops with
// it. So the operands are SETS fragments per lane, read once from `operands` (fill it with the
// benchmark's own input distribution), and consecutive instructions use different sets. With
// SETS = 1 every instruction sees the same operands: the ceiling on predictable data.
#include "arch/sm80.cuh"

namespace wg {

// KIND 0: m16n8k8 tf32 -> f32 (2*16*8*8 = 2048 FLOP per instruction).
// KIND 1: m16n8k16 f16 -> f32, KIND 2: m16n8k16 bf16 -> f32, KIND 3: m16n8k16 f16 -> f16
// (4096 FLOP per instruction).
// KIND 4: m16n8k32 s8 -> s32 (2*16*8*32 = 8192 integer operations per instruction).
template <int KIND>
__device__ __forceinline__ void mma_step(float (&acc)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    if constexpr (KIND == 0) {
        SM80_16x8x8_F32TF32TF32F32_TN::fma(acc, a, b);
    } else if constexpr (KIND == 1) {
        SM80_16x8x16_F32F16F16F32_TN::fma(acc, a, b);
    } else if constexpr (KIND == 2) {
        SM80_16x8x16_F32BF16BF16F32_TN::fma(acc, a, b);
    } else if constexpr (KIND == 3) {
        // The fp16 accumulator lives in the first two registers, reinterpreted as f16x2 pairs.
        uint32_t (&d)[2] = *reinterpret_cast<uint32_t(*)[2]>(acc);
        SM80_16x8x16_F16F16F16F16_TN::fma(d, a, b);
    } else {
        // The s32 sums live in the four registers, reinterpreted as int32 (only their bits are
        // written out).
        int32_t (&d)[4] = *reinterpret_cast<int32_t(*)[4]>(acc);
        SM80_16x8x32_S32S8S8S32_TN::fma(d, a, b);
    }
}

// `operands` holds SETS * 6 * 32 words: set s, register r (A: 0-3, B: 4-5), lane l at
// (s * 6 + r) * 32 + l, i.e. the layout (32, 6, SETS):(1, 32, 192).
template <int KIND, int CHAINS, int SETS>
__global__ void __launch_bounds__(1024) mma_ceiling(float* __restrict__ out, const uint32_t* __restrict__ operands,
                                                    int iters) {
    static_assert(KIND >= 0 && KIND <= 4, "mma_ceiling: KIND is 0 (tf32), 1 (f16), 2 (bf16), 3 (f16 acc) or 4 (s8)");
    static_assert(CHAINS >= 1 && CHAINS <= 16, "mma_ceiling: CHAINS must be in [1, 16]");
    static_assert(SETS >= 1 && SETS <= 8, "mma_ceiling: SETS (operand fragments per lane) must be in [1, 8]");
    const uint32_t lane = threadIdx.x % 32;
    uint32_t a[SETS][4], b[SETS][2];
#pragma unroll
    for (int s = 0; s < SETS; ++s) {
#pragma unroll
        for (int r = 0; r < 4; ++r) a[s][r] = operands[(s * 6 + r) * 32 + lane];
#pragma unroll
        for (int r = 0; r < 2; ++r) b[s][r] = operands[(s * 6 + 4 + r) * 32 + lane];
    }
    float acc[CHAINS][4];
#pragma unroll
    for (int c = 0; c < CHAINS; ++c)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[c][i] = 0.f;
    // One trip is SETS rounds of CHAINS instructions; chain c of round s uses set (s + c) % SETS,
    // so neighbouring instructions differ in their operands whenever SETS > 1.
    for (int it = 0; it < iters; it += SETS) {
#pragma unroll
        for (int s = 0; s < SETS; ++s)
#pragma unroll
            for (int c = 0; c < CHAINS; ++c) mma_step<KIND>(acc[c], a[(s + c) % SETS], b[(s + c) % SETS]);
    }
    float sum = 0.f;
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

}  // namespace wg
