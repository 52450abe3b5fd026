// hopper/03_warp_specialized.cu -- warp specialisation: a producer warpgroup issues the TMA loads
// and BM / 64 consumer warpgroups only multiply, meeting at the full/empty mbarrier ring;
// setmaxnreg gives the producer's registers to the consumers.
//
// In rungs 01-02 thread 0 issued the loads between its own wgmma, and waited on the empty
// barrier inside a consumer warp: its warp, and so its warpgroup's wgmma, stalled whenever a
// stage was late. Here the roles never share a warp (sm90/mainloop_warp_specialized.cuh):
//   warpgroup 0        setmaxnreg.dec 40; thread 0 loads k-tile after k-tile, STAGES ahead;
//   warpgroups 1, 2    setmaxnreg.inc 232; wait full, wgmma, hand the stage back, and at the
//                      end store their 64 x BN of C.
//
// Requires sm_90a; operands as rung 01.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch with (ceil(N / BN), ceil(M / BM)) blocks of 128 * (1 + BM / 64) threads and
// STAGES * (BM + BN) * BK * sizeof(T) + 16 * STAGES bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int IN_FLIGHT>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
hopper_warp_specialized(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                        TC* __restrict__ C, int M, int N, int K, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, 1, IN_FLIGHT>;
    if (threadIdx.x == 0) Mainloop::init(&tma_a, &tma_b);
    __syncthreads();

    sm90::DirectEpilogue<TC, T> epilogue{C, ldc, M, N, bias};
    sm90::warp_specialized_roles<Mainloop>(sm90::GridTile<BM, BN>(), &tma_a, &tma_b, K, epilogue);
}
