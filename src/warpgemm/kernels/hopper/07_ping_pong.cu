// hopper/07_ping_pong.cu -- the two consumer warpgroups take alternate tiles, so that one's
// epilogue runs while the other multiplies.
//
// In rung 06 both consumer warpgroups share each tile (64 rows each of 128) and finish it
// together: both then stage and store it while the tensor cores wait, 3.7% of the consumers'
// time at 4096^3 on an H100 (docs/hopper.md, "Where a consumer warp's time goes"), and without
// that epilogue rung 06 ran 1.01x cuBLAS there against 0.97x. Here each warpgroup owns whole
// tiles of BM x BN (sm90/warp_specialized_roles.cuh, ping_pong_roles): warpgroup 0 takes the
// block's units 0, 2, 4, ..., warpgroup 1 units 1, 3, 5, ..., in turns. While one multiplies,
// keeping a k-tile of wgmma in flight (IN_FLIGHT = 1) so that it alone keeps the tensor cores
// busy, the other stores its last tile and waits for its next turn.
//
// The price: a warpgroup's tile is half the block's, so each FLOP reads more operand bytes from
// L2 (a 64 x 256 tile: 40 KB a k-tile of 64 for 2.1 MFLOP, against 48 KB for 4.2 MFLOP in rung 06's
// 128 x 256); clusters (CLUSTER = 2 or 4, B shared along M) take some of it back.
//
// Everything else is rung 06: the ring, the producer, the TMA-store epilogue, the persistent
// grouped order. No K split of the last wave (workspace, counters and splits are unused), no
// held sums.
#include "arch/sm90.cuh"
#include "sm90/epilogue_tma_store.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch with CLUSTER * min(ceil(M / (CLUSTER BM)) * ceil(N / BN), resident clusters) blocks (in
// clusters of (CLUSTER, 1, 1) when CLUSTER > 1), 384 threads, and
// round_up(STAGES * ((BM + BN) * BK * sizeof(T) + 16), 1024) + 2 * 16384 bytes of dynamic shared
// memory. The arguments are rung 06's.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int CLUSTER, int IN_FLIGHT>
__global__ void __launch_bounds__(384, 1)
hopper_ping_pong(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                 const __grid_constant__ wg::TmaDescriptor tma_c, TC* __restrict__ C, int M, int N, int K, int ldc,
                 const T* __restrict__ bias, int c_tma, float* __restrict__, int* __restrict__, int) {
    using namespace wg;
    using Mainloop =
        sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, CLUSTER, IN_FLIGHT, 1, /*PING_PONG=*/true>;
    using Epilogue = sm90::TmaStoreEpilogue<TC, T, BN, /*OWN_TILES=*/true>;
    static_assert(BM == 64 || BM == 128, "BM = 64 or 128: a warpgroup's own tile (128 rows as two 64-row blocks)");
    constexpr int STAGING_OFFSET = (Mainloop::SMEM_BYTES + 1023) / 1024 * 1024;
    static_assert(STAGING_OFFSET + 2 * Epilogue::BYTES_PER_CONSUMER <= 227 * 1024,
                  "the stages and the epilogue's staging do not fit in 227 KB: lower STAGES or BN");

    sm90::set_up_ring<Mainloop, CLUSTER>(&tma_a, &tma_b, c_tma ? &tma_c : nullptr);

    Epilogue epilogue{{&tma_c, C, ldc, M, N, c_tma != 0}, bias, smem_u32(dynamic_smem()) + STAGING_OFFSET};
    if constexpr (CLUSTER == 1) {
        sm90::ping_pong_roles<Mainloop>(sm90::PersistentTiles<BM, BN, GROUP>(M, N), &tma_a, &tma_b, K, epilogue);
    } else {
        const sm90::PersistentClusterTiles<BM, BN, GROUP, CLUSTER> tiles(M, N, static_cast<int>(cluster_ctarank()));
        sm90::ping_pong_roles<Mainloop>(tiles, &tma_a, &tma_b, K, epilogue);
        sm90::leave_cluster<CLUSTER>();
    }
}
