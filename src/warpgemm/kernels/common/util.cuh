// warpgemm/kernels/common/util.cuh -- small compile-time and device utilities every kernel may use:
// integer min/max, type tests, the block's dynamic shared memory, a row's partial last 16 bytes, and
// a value the compiler cannot see through. No arch-specific instructions (those are in arch/).
#pragma once

#include "common/types.cuh"

namespace wg {

__host__ __device__ constexpr int imin(int a, int b) { return a < b ? a : b; }
__host__ __device__ constexpr int imax(int a, int b) { return a > b ? a : b; }

template <typename X, typename Y> struct same_type { static constexpr bool value = false; };
template <typename X> struct same_type<X, X> { static constexpr bool value = true; };
template <bool C, typename X, typename Y> struct pick { using type = X; };
template <typename X, typename Y> struct pick<false, X, Y> { using type = Y; };

template <typename T>
constexpr bool is_16bit_float = same_type<T, half_t>::value || same_type<T, bf16_t>::value;

// The operands of the decode kernels that read the Linear layout only (decode/01, 03, 04): each
// checks them with static_assert(LinearDecodeOperands<A_ROW, B_ROW, T, TC>::ok, ...), and a wrong
// combination fails on the message below that names it.
template <bool A_ROW, bool B_ROW, typename T, typename TC>
struct LinearDecodeOperands {
    static_assert(A_ROW && !B_ROW, "the decode kernel reads A row-major (tokens, K) and B = W^T, W (N, K) "
                                   "row-major, both k-contiguous");
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    static constexpr bool ok = true;
};

// The block's dynamic shared memory, 1024-byte aligned. Kernels built from the shared headers
// take it from here, so that no two pieces declare it with different types.
__device__ __forceinline__ unsigned char* dynamic_smem() {
    extern __shared__ __align__(1024) unsigned char wg_dynamic_smem[];
    return wg_dynamic_smem;
}

// `v`, which every lane of the (converged) warp holds alike, as lane 0's: a value the compiler
// then knows to be warp-uniform. It keeps such values in uniform registers, so that arithmetic on
// them (the wgmma descriptors of a stage, sm90/warpgroup_mma.cuh) runs on the uniform datapath
// and reaches the wgmma without a move from the vector registers (R2UR) for each descriptor.
__device__ __forceinline__ int warp_uniform(int v) { return __shfl_sync(0xffffffffu, v, 0); }

// A walk over n items (k chunks, k-tiles) that starts at band `band` of `bands` and wraps around:
// step i visits item walk(i). The decode kernels stagger their blocks' walks over k this way, so
// that at any moment the grid reads `bands` columns of the weight, not one (decode/01 through
// sm80/swap_ab_splitk.cuh, decode/02 through sm90/mainloop_warp_specialized.cuh).
struct StaggeredWalk {
    int n, start;
    __device__ __forceinline__ StaggeredWalk(int band, int bands, int items)
        : n(items), start(static_cast<int>(static_cast<int64_t>(band) * items / bands)) {}
    __device__ __forceinline__ int operator()(int i) const {
        const int p = i + start;
        return p >= n ? p - n : p;
    }
};

// 16 bytes of elements of T (int8_t, half_t or bf16_t) from `row[0]` on, read element by element,
// zero at and past element `count` (everywhere when !valid): the last, partial 16-byte chunk of a
// row, which a vector load would read past. The decode kernels read their K tails this way.
template <typename T>
__device__ __forceinline__ uint4 load_partial_chunk(const T* row, int count, bool valid = true) {
    constexpr int BITS = 8 * static_cast<int>(sizeof(T));
    constexpr int PER_WORD = 32 / BITS;
    constexpr int ELEMS = 16 / static_cast<int>(sizeof(T));
    uint32_t w[4] = {0u, 0u, 0u, 0u};
    if (valid) {
#pragma unroll
        for (int e = 0; e < ELEMS; ++e) {
            if (e >= count) continue;
            uint32_t bits;
            if constexpr (sizeof(T) == 1) bits = static_cast<uint8_t>(row[e]);
            else bits = row[e].bits;
            w[e / PER_WORD] |= bits << (BITS * (e % PER_WORD));
        }
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// x, as a value the compiler cannot see through (no code is emitted).
__device__ __forceinline__ int opaque(int x) {
    asm volatile("" : "+r"(x));
    return x;
}

}  // namespace wg
