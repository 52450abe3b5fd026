// igemm/08_scaled_swap_ab_splitk.cu -- W8A8 at a few tokens: decode/01's split-K body on the int8
// atom, with the scaled epilogue.
//
// Rung 06 streams the weight through the Hopper pipeline: TMA into a shared-memory ring, wgmma
// on 64-row tiles. At one token most of what it does is fixed cost (the ring's fill, the
// warpgroups' hand-offs, 64 x 32 tiles of which one column is a token): 10.8 us at 1 x 4096 x
// 4096 on an H100, where reading the 16 MiB weight at the measured bandwidth takes 5.6 us. Here
// the body of decode/01 (sm80/swap_ab_splitk.cuh) reads it instead: 16 rows of W on the mma's M
// side, each lane's 16 bytes of k of two rows and of a token straight from global memory into
// two mma.sync m16n8k32 s8 (the same fragment registers as m16n8k16's, so the same reading
// serves both; a 16-byte load holds 16 k here, so a k chunk is 64 wide), K split over the
// block's warps and over KSPLIT blocks, the s32 parts added exactly.
//
// The epilogue (ScaledStore) computes C(m, n) = s32 sum * scale_a[m] * scale_b[n] + bias[n] in
// fp32, in that order (as rungs 03, 06 and 07 do: the same bits), and rounds once to TC. Its
// scales and bias are loaded before the warps' partial sums are added up.
//
// Requires sm_80+ (mma.sync m16n8k32 s8); A row-major (M x K, tokens), B column-major (B = W^T,
// W row-major); 16-byte aligned bases, leading dimensions a multiple of 16; M <= 8 * TOKEN_TILES.
// Any N and K; exact int32 sums while K <= 131071 for full-range operands.
#include "common/scaling.cuh"
#include "sm80/swap_ab_splitk.cuh"

namespace wg {
namespace sm80 {

// C(m, n) = s32 sum * scale_a[m] * scale_b[n] + bias[n] in fp32 (a null bias adds 0), rounded
// once to TC.
template <typename TC>
struct ScaledStore {
    struct Values {
        float scale_a, scale_b, bias;
    };
    TC* C;
    int ldc;
    Scaling s;

    __device__ __forceinline__ Values load(int m, int n) const {
        return {__ldg(s.scale_a + m * s.scale_a_step), __ldg(s.scale_b + n * s.scale_b_step),
                s.bias != nullptr ? __ldg(s.bias + n) : 0.0f};
    }
    __device__ __forceinline__ void store(int m, int n, int32_t sum, const Values& v) const {
        C[static_cast<int64_t>(m) * ldc + n] = from_float<TC>(static_cast<float>(sum) * v.scale_a * v.scale_b + v.bias);
    }
};

}  // namespace sm80
}  // namespace wg

// C (M, N) = (A (M, K) @ B (K, N)) * scale_a * scale_b + bias, B = W^T. Launch as decode/01 (the
// workspace holds s32 sums), with igemm/03's scales and bias where decode/01 takes its bias.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int TOKEN_TILES, int ROW_GROUPS, int WARPS,
          int UNROLL, int KSPLIT, int L2_256B, int STAGGER>
__global__ void __launch_bounds__(32 * WARPS)
igemm_scaled_swap_ab_splitk(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N,
                            int K, int lda, int ldb, int ldc, const float* __restrict__ scale_a, int scale_a_step,
                            const float* __restrict__ scale_b, int scale_b_step, const float* __restrict__ bias,
                            wg::int32_t* workspace, int* counters) {
    using namespace wg;
    static_assert(same_type<T, int8_t>::value, "int8 in");
    static_assert(A_ROW && !B_ROW, "A row-major (tokens, K) and B = W^T, W (N, K) row-major: both k-contiguous");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    const sm80::ScaledStore<TC> epilogue{C, ldc, {scale_a, scale_a_step, scale_b, scale_b_step, bias}};
    sm80::swap_ab_splitk<T, TOKEN_TILES, ROW_GROUPS, WARPS, UNROLL, KSPLIT, L2_256B, sm80::ScaledStore<TC>, STAGGER>(
        A, B, M, N, K, lda, ldb, epilogue, workspace, counters);
}
