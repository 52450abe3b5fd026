// warpgemm/kernels/arch/sm90.cuh -- inline-PTX wrappers for what Hopper (sm_90) adds. The Hopper
// GEMM path (wgmma, TMA, mbarrier, setmaxnreg: kernels/hopper/) puts its wrappers here, one per
// instruction; wgmma and setmaxnreg also need the arch-specific target sm_90a.
#pragma once

#include "arch/sm80.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "warpgemm: this kernel uses sm_90 instructions (thread-block clusters); compile it for sm_90a"
#endif

namespace wg {

// This block's rank in its thread-block cluster, and the number of blocks in the cluster.
__device__ __forceinline__ uint32_t cluster_ctarank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

__device__ __forceinline__ uint32_t cluster_nctarank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
    return r;
}

}  // namespace wg
