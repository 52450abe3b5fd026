// hopper/04_persistent.cu -- a persistent grid: one block per SM loops over tiles of C in an
// L2-aware grouped order (sm90/tile_scheduler.cuh), on rung 03's warp-specialised loop.
//
// With one block per tile, every block pays its prologue (barrier set-up, the first STAGES loads
// with nothing to overlap them) and its epilogue (the consumers store while no load runs). Here
// the producer goes straight on to the next tile's k-tiles while the consumers store the last
// one's C: the ring (and its cursors) runs on across tiles, so loads of tile i + 1 overlap the
// epilogue of tile i. The order matters: a persistent grid walking tiles row by row reads every
// column of B for each row of tiles; groups of GROUP tile-rows keep what the running blocks
// share in L2.
//
// Requires sm_90a; operands as rung 01. The last wave may be partial (tiles % SMs blocks busy).
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/warp_specialized_roles.cuh"
#include "sm90/tile_scheduler.cuh"

// Launch with min(ceil(M / BM) * ceil(N / BN), SMs) blocks of 128 * (1 + BM / 64) threads and
// STAGES * (BM + BN) * BK * sizeof(T) + 16 * STAGES bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP>
__global__ void __launch_bounds__(128 * (1 + BM / 64), 1)
hopper_persistent(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                  TC* __restrict__ C, int M, int N, int K, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    const sm90::PersistentTiles<BM, BN, GROUP> tiles(M, N);
    sm90::DirectEpilogue<TC, T> epilogue{C, ldc, M, N, bias};
    sm90::warp_specialized_roles<Mainloop>(tiles, &tma_a, &tma_b, K, epilogue);
}
