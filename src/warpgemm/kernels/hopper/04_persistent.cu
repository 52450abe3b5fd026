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
// The last wave. When the tiles do not fill the last wave (T % SMs tiles, or T < SMs), most SMs
// would idle through it. The host may split each tail tile's K range `splits` ways over the idle
// SMs (sm90/tile_scheduler.cuh); the parts' sums meet in sm90/split_k_reduction.cuh, added in a
// fixed order by whichever part finishes last, so the result does not depend on timing.
//
// Requires sm_90a; operands as rung 01.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch with min(units, SMs) blocks of 128 * (1 + BM / 64) threads and
// STAGES * (BM + BN) * BK * sizeof(T) + 16 * STAGES bytes of dynamic shared memory, where units
// = T - R + R * splits (T = ceil(M / BM) * ceil(N / BN) tiles, R = T % SMs or T when T < SMs,
// R = 0 when splits = 1). With splits > 1, `workspace` holds R * splits * BM * BN floats and
// `counters` R * BM / 64 zeroed ints; both may be null when splits = 1.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int IN_FLIGHT>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
hopper_persistent(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                  TC* __restrict__ C, int M, int N, int K, int ldc, const T* __restrict__ bias,
                  float* __restrict__ workspace, int* __restrict__ counters, int splits) {
    using namespace wg;
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, 1, IN_FLIGHT>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    sm90::persistent_split_k<Mainloop, GROUP>(&tma_a, &tma_b, M, N, K, sm90::DirectEpilogue<TC, T>{C, ldc, M, N, bias},
                                              workspace, counters, splits);
}
