// warpgemm/kernels/common/scaling.cuh -- what a scaled int8 (W8A8) epilogue reads besides the s32
// sums, shared by the sm_90 epilogues (igemm rungs 03, 06, 07) and the split-K GEMV's (rung 08).
#pragma once

namespace wg {

// What a scaled int8 epilogue (W8A8) reads besides the sums: C = s32 sum * scale_a[row] *
// scale_b[col] + bias[col] in fp32, rounded once to C's type. A scale given as one value has
// step 0, one per row of A (per token) or per column of B (per channel) step 1; the bias (N fp32
// values) may be null.
struct Scaling {
    const float* scale_a;
    int scale_a_step;
    const float* scale_b;
    int scale_b_step;
    const float* bias;
};

}  // namespace wg
