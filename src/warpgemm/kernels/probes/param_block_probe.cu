// probes/param_block_probe.cu -- checks the launcher's two extras: a 128-byte, 64-byte-aligned
// parameter passed by value (the shape of a CUtensorMap, declared __grid_constant__ as a tensor
// map is), and a launch in thread-block clusters.
//
// Block b writes out[b * 18 + i] = block.words[i] + b for i < 16, then its rank in its cluster and
// the cluster's size. Requires sm_90 (cluster special registers).
#include "arch/sm90.cuh"

struct alignas(64) ParamBlock128 {
    wg::uint64_t words[16];
};

__global__ void param_block_probe(const __grid_constant__ ParamBlock128 block, wg::uint64_t* out) {
    const unsigned b = blockIdx.x;
    const unsigned i = threadIdx.x;
    if (i < 16) out[b * 18 + i] = block.words[i] + b;
    if (i == 16) out[b * 18 + 16] = wg::cluster_ctarank();
    if (i == 17) out[b * 18 + 17] = wg::cluster_nctarank();
}
