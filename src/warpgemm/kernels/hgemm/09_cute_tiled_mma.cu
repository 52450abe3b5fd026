// hgemm/09_cute_tiled_mma.cu -- rung 09: the HGEMM written in CuTe. The TiledMMA and the TiledCopy
// of the CuTe write-up, as a running kernel: the same ideas as rungs 04-06 (a cp.async ring of
// swizzled shared tiles, ldmatrix, fragments of the next k16 step loaded during this one's mma),
// said in CuTe's layout algebra instead of by hand.
//
// The configuration (docs/cute.md walks through it):
//   * MMA atom      SM80_16x8x16_F32{F16,BF16}{..}F32_TN (fp32 accumulation, the default), or the
//                   write-up's SM80_16x8x16_F16F16F16F16_TN with F16_ACCUMULATE = 1 (fp16 only);
//   * TiledMMA      make_tiled_mma(atom, (2,2,1) warps, permutation (32,32,16)): 128 threads, a
//                   32 x 32 x 16 tile per step, each warp's B fragment two n8 atoms wide;
//   * smem -> rmem  make_tiled_copy_A/B(Copy_Atom<LDSM, T>, tiled_mma). For an MN-major tile (A
//                   column-major, B row-major: the write-up's shared layouts) LDSM is its
//                   SM75_U16x8_LDSM_T; for a K-major one (A row-major, B = W.t()) ldmatrix needs
//                   no transpose: SM75_U32x4_LDSM_N;
//   * gmem -> smem  a TiledCopy of SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, 16 bytes per thread and
//                   copy, 128 threads laid along the operand's contiguous mode first;
//   * smem          STAGES tiles of BM x BK (A) and BN x BK (B), each composition(Swizzle, atom)
//                   tiled to the tile shape: Swizzle<2,3,3> on (8,32):(32,1) for K-major rows of
//                   64 bytes, Swizzle<3,3,3> on (8,64):(64,1) for 128, Swizzle<3,3,3> on
//                   (64,8):(1,64) for MN-major tiles;
//   * predication   CuTe's identity tensor: each thread's copy coordinates, held against the
//                   residue of the problem. Whole 16-byte vectors go through cp.async; a vector
//                   cut by the edge is copied element by element with zeros beyond it; interior
//                   tiles skip the checks.
//
// Operands as CuTe sees them: A (M,K), B (N,K) (B^T: B_ROW means (N,K):(1,ldb), column-major B
// means (N,K):(ldb,1)), C (M,N):(ldc,1). Every layout of A and B is read in place.
//
// Requires 16-byte aligned operands with leading dimensions a multiple of 8 elements (the
// catalogue copies others first), and the `cute` extra (CuTe's headers).
#include <cute/tensor.hpp>

#include "common/block_order.cuh"

namespace wg::cute_gemm {

using namespace cute;

template <typename T> struct CuteType;
template <> struct CuteType<wg::half_t> { using type = cute::half_t; };
template <> struct CuteType<wg::bf16_t> { using type = cute::bfloat16_t; };
template <> struct CuteType<float> { using type = float; };

// The MMA atom: fp32 accumulation for fp16 or bf16, or the write-up's fp16 accumulation.
template <typename T, bool F16_ACCUMULATE> struct MmaAtom;
template <> struct MmaAtom<cute::half_t, false> { using type = SM80_16x8x16_F32F16F16F32_TN; };
template <> struct MmaAtom<cute::bfloat16_t, false> { using type = SM80_16x8x16_F32BF16BF16F32_TN; };
template <> struct MmaAtom<cute::half_t, true> { using type = SM80_16x8x16_F16F16F16F16_TN; };

// One operand tile's shared layout, (MN, BK, STAGES), swizzled so that neither the cp.async
// writes nor the ldmatrix reads of a warp meet a bank conflict.
template <int MN, int BK, int STAGES, bool K_MAJOR>
__device__ constexpr auto smem_layout() {
    if constexpr (K_MAJOR) {
        static_assert(BK == 32 || BK == 64, "K-major shared tiles are swizzled for BK = 32 or 64");
        if constexpr (BK == 32) {
            return tile_to_shape(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}),
                                 Shape<Int<MN>, Int<BK>, Int<STAGES>>{});
        } else {
            return tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, _64>, Stride<_64, _1>>{}),
                                 Shape<Int<MN>, Int<BK>, Int<STAGES>>{});
        }
    } else {
        static_assert(MN % 64 == 0, "MN-major shared tiles are swizzled in panels of 64: BM and BN multiples of 64");
        return tile_to_shape(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _8>, Stride<_1, _64>>{}),
                             Shape<Int<MN>, Int<BK>, Int<STAGES>>{});
    }
}

// The global -> shared TiledCopy of one operand: 16-byte cp.async, the THREADS threads laid along
// the contiguous mode first (BK/8 of them for K-major, MN/8 for MN-major).
template <typename T, int THREADS, int MN, int BK, bool K_MAJOR>
__device__ constexpr auto gmem_tiled_copy() {
    using Atom = Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, T>;
    if constexpr (K_MAJOR) {
        constexpr int TK = BK / 8, TMN = THREADS / TK;
        static_assert(THREADS % TK == 0 && MN % TMN == 0, "a K-major tile's rows split evenly over the threads");
        return make_tiled_copy(Atom{}, Layout<Shape<Int<TMN>, Int<TK>>, Stride<Int<TK>, _1>>{}, Layout<Shape<_1, _8>>{});
    } else {
        constexpr int TMN = MN / 8, TK = THREADS / TMN;
        static_assert(THREADS % TMN == 0 && BK % TK == 0, "an MN-major tile's columns split evenly over the threads");
        return make_tiled_copy(Atom{}, Layout<Shape<Int<TMN>, Int<TK>>, Stride<_1, Int<TMN>>>{}, Layout<Shape<_8, _1>>{});
    }
}

// Copies k-tile `k_tile` of one operand (this thread's share) into shared stage `stage`. `full`:
// the whole BM/BN x BK tile lies inside the operand, so nothing is checked. Otherwise each
// 16-byte vector's coordinates (the identity tensor, partitioned like the operand) are held
// against the operand's extent (MN, K): whole vectors go by cp.async, a vector the edge cuts goes
// element by element, and zeros fill what lies beyond the edge.
template <class TiledCopy, class GTensor, class STensor, class CTensor>
__device__ __forceinline__ void copy_k_tile(TiledCopy const& tiled_copy, GTensor const& g, STensor& s,
                                            CTensor const& c, int k_tile, int stage, bool full, int mn_extent,
                                            int k_extent) {
    auto src = g(_, _, _, k_tile);  // (CPY, CPY_MN, CPY_K)
    auto dst = s(_, _, _, stage);
    if (full) {
        copy(tiled_copy, src, dst);
        return;
    }
    auto coord = c(_, _, _, k_tile);  // (mn, k) of every element, in the operand's coordinates
    auto inside = [&](auto const& at) { return get<0>(at) < mn_extent && get<1>(at) < k_extent; };
    using T = typename STensor::value_type;
    CUTE_UNROLL
    for (int i = 0; i < size<1>(src); ++i) {
        CUTE_UNROLL
        for (int j = 0; j < size<2>(src); ++j) {
            // A vector runs along one mode: its first and last elements bound it.
            const bool first_in = inside(coord(0, i, j));
            const bool last_in = inside(coord(size<0>(src) - 1, i, j));
            if (last_in) {
                copy(tiled_copy, src(_, i, j), dst(_, i, j));
            } else if (!first_in) {
                CUTE_UNROLL
                for (int v = 0; v < size<0>(dst); ++v) dst(v, i, j) = T(0);
            } else {
                CUTE_UNROLL
                for (int v = 0; v < size<0>(dst); ++v) {
                    dst(v, i, j) = inside(coord(v, i, j)) ? src(v, i, j) : T(0);
                }
            }
        }
    }
}

}  // namespace wg::cute_gemm

// C = A * B. A (M,K), B (K,N), C (M,N) row-major; one 128-thread block per BM x BN tile of C, on
// a 1-D grid walked in zig-zag panels SWIZZLE tiles wide (common/block_order.cuh).
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int SWIZZLE,
          int F16_ACCUMULATE>
__global__ void __launch_bounds__(128, 1)
hgemm_cute_tiled_mma(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
                     int lda, int ldb, int ldc) {
    using namespace cute;
    using namespace wg::cute_gemm;
    using E = typename CuteType<T>::type;
    using EC = typename CuteType<TC>::type;
    constexpr bool A_K_MAJOR = A_ROW;   // A (M,K):(lda,1)
    constexpr bool B_K_MAJOR = !B_ROW;  // B^T (N,K):(ldb,1) when B is column-major
    constexpr int THREADS = 128;
    static_assert(F16_ACCUMULATE == 0 || (sizeof(E) == 2 && sizeof(EC) == 2 && !is_same_v<E, cute::bfloat16_t> &&
                                          !is_same_v<EC, cute::bfloat16_t>),
                  "F16_ACCUMULATE = 1 is the F16F16F16F16 atom: fp16 inputs and fp16 output only");
    static_assert(BM % 32 == 0 && BN % 32 == 0 && BK % 16 == 0,
                  "the TiledMMA covers 32 x 32 x 16 per step: BM, BN multiples of 32 and BK of 16");
    static_assert(STAGES >= 2, "the cp.async ring needs STAGES >= 2");
    static_assert(SWIZZLE >= 1, "SWIZZLE is a panel width in tiles of C, at least 1");
    using Acc = conditional_t<F16_ACCUMULATE != 0, cute::half_t, float>;

    int tile_m, tile_n;
    wg::zigzag_panel_tile<SWIZZLE>(blockIdx.x, (M + BM - 1) / BM, (N + BN - 1) / BN, tile_m, tile_n);

    // -- the operands, whole and as this block's tiles ------------------------------------------
    auto a_layout = [&] {
        if constexpr (A_K_MAJOR) return make_layout(make_shape(M, K), make_stride(lda, Int<1>{}));
        else return make_layout(make_shape(M, K), make_stride(Int<1>{}, lda));
    }();
    auto b_layout = [&] {
        if constexpr (B_K_MAJOR) return make_layout(make_shape(N, K), make_stride(ldb, Int<1>{}));
        else return make_layout(make_shape(N, K), make_stride(Int<1>{}, ldb));
    }();
    Tensor mA = make_tensor(make_gmem_ptr(reinterpret_cast<const E*>(A)), a_layout);
    Tensor mB = make_tensor(make_gmem_ptr(reinterpret_cast<const E*>(B)), b_layout);
    Tensor mC = make_tensor(make_gmem_ptr(reinterpret_cast<EC*>(C)), make_layout(make_shape(M, N), make_stride(ldc, Int<1>{})));
    auto tile_a = make_shape(Int<BM>{}, Int<BK>{});
    auto tile_b = make_shape(Int<BN>{}, Int<BK>{});
    Tensor gA = local_tile(mA, tile_a, make_coord(tile_m, _));  // (BM, BK, k_tiles)
    Tensor gB = local_tile(mB, tile_b, make_coord(tile_n, _));  // (BN, BK, k_tiles)
    Tensor gC = local_tile(mC, make_shape(Int<BM>{}, Int<BN>{}), make_coord(tile_m, tile_n));
    // The same tiles of coordinates: what the predicates read.
    Tensor cA = local_tile(make_identity_tensor(shape(mA)), tile_a, make_coord(tile_m, _));
    Tensor cB = local_tile(make_identity_tensor(shape(mB)), tile_b, make_coord(tile_n, _));
    Tensor cC = local_tile(make_identity_tensor(shape(mC)), make_shape(Int<BM>{}, Int<BN>{}), make_coord(tile_m, tile_n));

    // -- shared memory: STAGES swizzled tiles of A, then of B ------------------------------------
    extern __shared__ __align__(128) unsigned char smem[];
    auto sA_layout = smem_layout<BM, BK, STAGES, A_K_MAJOR>();
    auto sB_layout = smem_layout<BN, BK, STAGES, B_K_MAJOR>();
    Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<E*>(smem)), sA_layout);  // (BM, BK, STAGES)
    Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<E*>(smem) + cosize(sA_layout)), sB_layout);

    // -- global -> shared: the cp.async TiledCopies ------------------------------------------
    auto g2s_a = gmem_tiled_copy<E, THREADS, BM, BK, A_K_MAJOR>();
    auto g2s_b = gmem_tiled_copy<E, THREADS, BN, BK, B_K_MAJOR>();
    auto g2s_thr_a = g2s_a.get_slice(threadIdx.x);
    auto g2s_thr_b = g2s_b.get_slice(threadIdx.x);
    Tensor tAgA = g2s_thr_a.partition_S(gA);  // (CPY, CPY_M, CPY_K, k_tiles)
    Tensor tAsA = g2s_thr_a.partition_D(sA);  // (CPY, CPY_M, CPY_K, STAGES)
    Tensor tAcA = g2s_thr_a.partition_S(cA);
    Tensor tBgB = g2s_thr_b.partition_S(gB);
    Tensor tBsB = g2s_thr_b.partition_D(sB);
    Tensor tBcB = g2s_thr_b.partition_S(cB);

    // -- the TiledMMA, exactly the write-up's ------------------------------------------------
    using Atom = MMA_Atom<MMA_Traits<typename MmaAtom<E, F16_ACCUMULATE != 0>::type>>;
    TiledMMA tiled_mma = make_tiled_mma(Atom{}, make_layout(make_shape(Int<2>{}, Int<2>{}, Int<1>{})),
                                        make_tile(Int<32>{}, Int<32>{}, Int<16>{}));
    static_assert(size(decltype(tiled_mma){}) == THREADS, "the TiledMMA is 4 warps");
    auto thr_mma = tiled_mma.get_slice(threadIdx.x);
    Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));  // (MMA, MMA_M, MMA_K)
    Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));  // (MMA, MMA_N, MMA_K)
    Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA, MMA_M, MMA_N)
    Tensor tCcC = thr_mma.partition_C(cC);
    Tensor acc = partition_fragment_C(tiled_mma, make_shape(Int<BM>{}, Int<BN>{}));
    static_assert(is_same_v<typename decltype(acc)::value_type, Acc>, "the accumulator is the atom's C type");
    clear(acc);

    // -- shared -> registers: ldmatrix TiledCopies made from the TiledMMA ----------------------
    using LdsmA = conditional_t<A_K_MAJOR, SM75_U32x4_LDSM_N, SM75_U16x8_LDSM_T>;
    using LdsmB = conditional_t<B_K_MAJOR, SM75_U32x4_LDSM_N, SM75_U16x8_LDSM_T>;
    auto s2r_a = make_tiled_copy_A(Copy_Atom<LdsmA, E>{}, tiled_mma);
    auto s2r_b = make_tiled_copy_B(Copy_Atom<LdsmB, E>{}, tiled_mma);
    auto s2r_thr_a = s2r_a.get_slice(threadIdx.x);
    auto s2r_thr_b = s2r_b.get_slice(threadIdx.x);
    Tensor tXsA = s2r_thr_a.partition_S(sA);         // (CPY, CPY_M, CPY_K, STAGES)
    Tensor tXrA = s2r_thr_a.retile_D(tCrA);          // (CPY, CPY_M, CPY_K)
    Tensor tXsB = s2r_thr_b.partition_S(sB);
    Tensor tXrB = s2r_thr_b.retile_D(tCrB);

    // -- the main loop -----------------------------------------------------------------------
    const int k_tiles = (K + BK - 1) / BK;
    const int m_left = M - tile_m * BM, n_left = N - tile_n * BN;
    const bool full_mn = m_left >= BM && n_left >= BN;
    auto load = [&](int k_tile, int stage) {
        if (k_tile < k_tiles) {
            const bool full = full_mn && K - k_tile * BK >= BK;
            copy_k_tile(g2s_a, tAgA, tAsA, tAcA, k_tile, stage, full, M, K);
            copy_k_tile(g2s_b, tBgB, tBsB, tBcB, k_tile, stage, full, N, K);
        }
        cp_async_fence();  // one group per k-tile, empty past the end: the wait counts stay exact
    };

    CUTE_UNROLL
    for (int s = 0; s < STAGES - 1; ++s) load(s, s);
    cp_async_wait<STAGES - 2>();
    __syncthreads();

    constexpr int K_BLOCKS = size<2>(decltype(tCrA){});  // k16 steps per k-tile
    int read_stage = 0, write_stage = STAGES - 1;
    copy(s2r_a, tXsA(_, _, 0, read_stage), tXrA(_, _, 0));
    copy(s2r_b, tXsB(_, _, 0, read_stage), tXrB(_, _, 0));
    for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
        CUTE_UNROLL
        for (int kb = 0; kb < K_BLOCKS; ++kb) {
            if (kb == K_BLOCKS - 1) {
                // k-tile k_tile + 1 lands; every warp is done with the stage read before it.
                cp_async_wait<STAGES - 2>();
                __syncthreads();
                read_stage = read_stage == STAGES - 1 ? 0 : read_stage + 1;
            }
            // The next k16 step's fragments load while this step's mma run.
            const int next = (kb + 1) % K_BLOCKS;
            copy(s2r_a, tXsA(_, _, next, read_stage), tXrA(_, _, next));
            copy(s2r_b, tXsB(_, _, next, read_stage), tXrB(_, _, next));
            if (kb == 0) {
                load(k_tile + STAGES - 1, write_stage);
                write_stage = write_stage == STAGES - 1 ? 0 : write_stage + 1;
            }
            gemm(tiled_mma, acc, tCrA(_, _, kb), tCrB(_, _, kb), acc);
        }
    }
    cp_async_wait<0>();

    // -- epilogue: round once, write what lies inside C ---------------------------------------
    if (full_mn) {
        CUTE_UNROLL
        for (int i = 0; i < size(acc); ++i) tCgC(i) = static_cast<EC>(acc(i));
    } else {
        CUTE_UNROLL
        for (int i = 0; i < size(acc); ++i) {
            if (get<0>(tCcC(i)) < M && get<1>(tCcC(i)) < N) tCgC(i) = static_cast<EC>(acc(i));
        }
    }
}
