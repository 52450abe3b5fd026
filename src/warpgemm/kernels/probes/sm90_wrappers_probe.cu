// probes/sm90_wrappers_probe.cu -- a kernel that issues every wrapper of arch/sm90.cuh once, so
// that ptxas checks their PTX even before a rung uses them (tests/test_hopper.py compiles it).
// It is compiled, never launched: the operands are not set up to mean anything.
#include "arch/sm90.cuh"
#include "common/util.cuh"

__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128)
sm90_wrappers_probe(const __grid_constant__ wg::TmaDescriptor map, wg::uint64_t* out) {
    using namespace wg;
    unsigned char* smem = dynamic_smem();
    const uint32_t bar = smem_u32(smem);
    const uint32_t buf = bar + 1024;
    uint32_t r = cluster_ctarank() + cluster_nctarank();
    if (threadIdx.x == 0) {
        mbarrier_init(bar, 1);
        fence_mbarrier_init();
        prefetch_tensormap(&map);
        mbarrier_arrive_expect_tx(bar, 1024);
        SM90_TMA_LOAD_2D::copy(&map, bar, buf, 0, 0);
        SM90_TMA_LOAD_MULTICAST_2D::copy(&map, bar, buf, 0, 0, static_cast<uint16_t>(3));
        r += mbarrier_try_wait_parity(bar, 0) ? 1u : 0u;
        mbarrier_wait(bar, 0);
        mbarrier_arrive(bar);
        mbarrier_arrive_cluster(bar, 1);
        fence_proxy_async_shared();
        SM90_TMA_STORE_2D::copy(&map, buf, 0, 0);
        tma_store_commit();
        tma_store_wait_read<0>();
        tma_store_wait<0>();
    }
    cluster_arrive();
    cluster_wait();
    named_barrier_sync(1, 128);
    const uint32_t regs[4] = {r, r, r, r};
    SM90_U32x4_STSM_N::copy(regs, buf + 16 * (threadIdx.x % 32));
    setmaxnreg_dec<40>();
    setmaxnreg_inc<232>();
    float acc[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) acc[i] = 0.0f;
    wgmma_fence_operand(acc);
    wgmma_fence();
    SM90_64x64x16_F32BF16BF16_SS<0, 1>::fma(acc, out[0], out[1], 0u);
    wgmma_commit_group();
    wgmma_wait_group<0>();
    int32_t iacc[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) iacc[i] = 0;
    wgmma_fence();
    SM90_64x16x32_S32S8S8_SS::fma(iacc, out[0], out[1], 1u);
    wgmma_commit_group();
    wgmma_wait_group<0>();
    wgmma_fence_operand(iacc);
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 32; ++i) s += acc[i];
    out[2 + threadIdx.x] = static_cast<uint64_t>(s) + static_cast<uint64_t>(iacc[threadIdx.x % 8]);
}
