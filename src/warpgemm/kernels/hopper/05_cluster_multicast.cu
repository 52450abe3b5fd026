// hopper/05_cluster_multicast.cu -- thread-block clusters of 2 x 1: the two blocks of a cluster
// compute vertically adjacent tiles (the same columns of C), so they need the same B tile; each
// loads half of it with TMA multicast, which writes it into both blocks' shared memory.
//
// Per block and k-tile, L2 now serves BM x BK of A and BK x BN / 2 of B instead of BK x BN: for
// a 128 x 256 tile, 3/4 of the operand bytes each block asks L2 for become 1/2. The price is
// coupling: a block's stage is written by both producers, so both blocks' consumers must hand
// it back before either refills it (sm90/mainloop_warp_specialized.cuh, CLUSTER = 2), and a block
// must not exit while its partner may still write into it (a cluster barrier at the end).
//
// Everything else is rung 04: warp-specialised, persistent, grouped order over pairs of tiles
// (sm90/tile_scheduler.cuh, PersistentClusterTiles).
//
// Requires sm_90a; operands as rung 01. The grid is a multiple of 2 (one cluster per 2 SMs).
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/warp_specialized_roles.cuh"
#include "sm90/tile_scheduler.cuh"

// Launch with 2 * min(ceil(M / (2 BM)) * ceil(N / BN), SMs / 2) blocks in clusters of (2, 1, 1),
// 128 * (1 + BM / 64) threads and STAGES * (BM + BN) * BK * sizeof(T) + 16 * STAGES bytes of
// dynamic shared memory. B's tensor map has boxes of BN / 2 rows when B is K-major.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int IN_FLIGHT>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
hopper_cluster_multicast(const __grid_constant__ wg::TmaDescriptor tma_a,
                         const __grid_constant__ wg::TmaDescriptor tma_b, TC* __restrict__ C, int M, int N, int K,
                         int ldc, const T* __restrict__ bias) {
    using namespace wg;
    constexpr int CLUSTER = 2;
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, CLUSTER, IN_FLIGHT>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    cluster_arrive();
    cluster_wait();

    const sm90::PersistentClusterTiles<BM, BN, GROUP, CLUSTER> tiles(M, N, static_cast<int>(cluster_ctarank()));
    sm90::DirectEpilogue<TC, T> epilogue{C, ldc, M, N, bias};
    sm90::warp_specialized_roles<Mainloop>(tiles, &tma_a, &tma_b, K, epilogue);
    // The partner block may still multicast into this one's stages or arrive on its barriers
    // until it is done: neither leaves before both are.
    cluster_arrive();
    cluster_wait();
}
