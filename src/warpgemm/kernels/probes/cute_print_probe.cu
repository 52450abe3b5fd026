// probes/cute_print_probe.cu -- the CuTe write-up's TiledMMA and TiledCopy configuration, built
// and printed by C++ CuTe itself (cute::print) from one thread, so that a test can hold
// warpgemm.layout's strings against CuTe's own.
//
// The configuration: the SM80_16x8x16_F16F16F16F16_TN atom on a 2x2x1 layout of warps with the
// permutation (32, 32, 16); SM75_U16x8_LDSM_T copies made with make_tiled_copy_A/B; a
// 128 x 128 x 32 tile, A (M,K) and B (N,K) column-major in shared memory. Thread THREAD's
// partitions are printed. Requires the `cute` extra (CuTe's headers) and sm_80.
#include <cute/tensor.hpp>

template <int THREAD>
__global__ void cute_print_probe() {
    using namespace cute;
    using T = half_t;
    constexpr int BM = 128, BN = 128, BK = 32;
    __shared__ T smem_a[BM * BK];
    __shared__ T smem_b[BN * BK];
    __shared__ T smem_c[BM * BN];
    auto layout_a = make_layout(make_shape(Int<BM>{}, Int<BK>{}), make_stride(Int<1>{}, Int<BM>{}));
    auto layout_b = make_layout(make_shape(Int<BN>{}, Int<BK>{}), make_stride(Int<1>{}, Int<BN>{}));
    auto layout_c = make_layout(make_shape(Int<BM>{}, Int<BN>{}), make_stride(Int<1>{}, Int<BM>{}));
    Tensor sA = make_tensor(make_smem_ptr(smem_a), layout_a);
    Tensor sB = make_tensor(make_smem_ptr(smem_b), layout_b);
    Tensor sC = make_tensor(make_smem_ptr(smem_c), layout_c);

    auto mma_atom = MMA_Atom<MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>>{};
    auto tiled_mma = make_tiled_mma(mma_atom, make_layout(make_shape(Int<2>{}, Int<2>{}, Int<1>{})),
                                    make_tile(Int<32>{}, Int<32>{}, Int<16>{}));
    auto copy_a = make_tiled_copy_A(Copy_Atom<SM75_U16x8_LDSM_T, T>{}, tiled_mma);
    auto copy_b = make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, T>{}, tiled_mma);

    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    auto thr_mma = tiled_mma.get_slice(THREAD);
    auto thr_copy_a = copy_a.get_slice(THREAD);
    auto thr_copy_b = copy_b.get_slice(THREAD);
    auto frag_a = thr_mma.partition_fragment_A(sA);
    auto frag_b = thr_mma.partition_fragment_B(sB);
    auto frag_c = thr_mma.partition_fragment_C(sC);

    auto show = [](const char* name, auto const& object) {
        print("== %s\n", name);
        print(object);
        print("\n");
    };
    show("mma_atom", mma_atom);
    show("tiled_mma", tiled_mma);
    show("smem_tiled_copy_A", copy_a);
    show("smem_tiled_copy_B", copy_b);
    show("partition_A", thr_mma.partition_A(sA));
    show("partition_B", thr_mma.partition_B(sB));
    show("partition_C", thr_mma.partition_C(sC));
    show("partition_fragment_A", frag_a);
    show("partition_fragment_B", frag_b);
    show("partition_fragment_C", frag_c);
    show("partition_S_A", thr_copy_a.partition_S(sA));
    show("partition_S_B", thr_copy_b.partition_S(sB));
    show("retile_D_A", thr_copy_a.retile_D(frag_a));
    show("retile_D_B", thr_copy_b.retile_D(frag_b));
}
