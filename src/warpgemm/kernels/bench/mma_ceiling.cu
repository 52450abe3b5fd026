// warpgemm/kernels/bench/mma_ceiling.cu -- the mma.sync throughput ceiling of this GPU.
//
// Every warp issues CHAINS independent chains of ITERS back-to-back mma.sync instructions on
// register operands: no memory traffic, no dependency stalls beyond the tensor-core pipeline
// itself. The rate it reaches is the denominator for "fraction of the mma.sync ceiling".
// Launched with any block size up to 1024 threads, so that the same loop also measures how many
// warps per SM it takes to reach that rate (`warpgemm bench ceiling --occupancy`).
// The accumulators are written out at the end so the compiler cannot drop the work.
#include "common/ptx.cuh"

namespace wg {

// KIND 0: m16n8k8 tf32 -> f32 (2*16*8*8 = 2048 FLOP per instruction).
// KIND 1: m16n8k16 f16 -> f32, KIND 2: m16n8k16 bf16 -> f32, KIND 3: m16n8k16 f16 -> f16
// (4096 FLOP per instruction).
template <int KIND>
__device__ __forceinline__ void mma_step(float (&acc)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    if constexpr (KIND == 0) {
        mma_m16n8k8_tf32(acc, a, b);
    } else if constexpr (KIND == 1) {
        mma_m16n8k16_f16_f32(acc, a, b);
    } else if constexpr (KIND == 2) {
        mma_m16n8k16_bf16_f32(acc, a, b);
    } else {
        // The fp16 accumulator lives in the first two registers, reinterpreted as f16x2 pairs.
        uint32_t (&d)[2] = *reinterpret_cast<uint32_t(*)[2]>(acc);
        mma_m16n8k16_f16_f16(d, a, b);
    }
}

template <int KIND, int CHAINS>
__global__ void __launch_bounds__(1024) mma_ceiling(float* __restrict__ out, int iters, uint32_t seed) {
    static_assert(KIND >= 0 && KIND <= 3, "mma_ceiling: KIND is 0 (tf32), 1 (f16), 2 (bf16) or 3 (f16 acc)");
    static_assert(CHAINS >= 1 && CHAINS <= 16, "mma_ceiling: CHAINS must be in [1, 16]");
    const uint32_t lane = threadIdx.x % 32;
    uint32_t a[4] = {seed ^ lane, seed + lane, seed * 3u, seed ^ 0x3f800000u};
    uint32_t b[2] = {seed + 7u * lane, seed ^ 0x40000000u};
    float acc[CHAINS][4];
#pragma unroll
    for (int c = 0; c < CHAINS; ++c)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[c][i] = 0.f;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int c = 0; c < CHAINS; ++c) mma_step<KIND>(acc[c], a, b);
    }
    float sum = 0.f;
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

}  // namespace wg
