// hopper/01_wgmma_tma.cu -- the first Hopper rung: warpgroup MMA (wgmma.mma_async m64nNk16) on
// operand tiles that TMA copies into shared memory with the 128-byte swizzle, through a ring of
// STAGES stages kept by mbarriers.
//
// What changes from the mma.sync ladder (hgemm/):
//   * The MMA is issued by a warpgroup (four warps, 128 threads) and reads A and B from shared
//     memory itself, through 64-bit matrix descriptors: no ldmatrix, no operand registers.
//     One wgmma computes 64 x BN x 16 (sm90/warpgroup_mma.cuh).
//   * One thread copies a whole k-tile with a few TMA instructions (cp.async.bulk.tensor), one box
//     of 128-byte rows per slab, swizzled as wgmma wants them (sm90/smem_operand.cuh). TMA fills
//     the parts of a box past the matrix with zeros: ragged M, N and K need no predication.
//   * A load completes on an mbarrier: the stage's full barrier counts the expected bytes, and the
//     warps that read a stage arrive on its empty barrier before it is refilled
//     (sm90/pipeline.cuh, sm90/mainloop_tma_wgmma.cuh).
//   * Every layout of A and B is read in place: K-major operands (A row-major, B column-major)
//     and MN-major ones (wgmma's transpose bits; 16-bit types only).
//
// Requires sm_90a, BM = 64 (one warpgroup). A and B come as TMA tensor maps
// (warpgemm.runtime.tensor_map): 16-byte aligned bases and leading dimensions (the host copies
// other inputs first). C is row-major (M, N):(ldc, 1); `bias` (N values of T) may be null.
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_tma_wgmma.cuh"

// Launch with (ceil(N / BN), ceil(M / BM)) blocks of 128 threads and
// STAGES * (BM + BN) * BK * sizeof(T) + 16 * STAGES bytes of dynamic shared memory.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES>
__global__ void __launch_bounds__(128)
hopper_wgmma_tma(const __grid_constant__ wg::TmaDescriptor tma_a, const __grid_constant__ wg::TmaDescriptor tma_b,
                 TC* __restrict__ C, int M, int N, int K, int ldc, const T* __restrict__ bias) {
    using namespace wg;
    static_assert(BM == 64, "rung 01 is one warpgroup, 64 rows of C; rung 02 takes BM = 128 with two");
    using Mainloop = sm90::SingleRoleMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW>;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    float acc[BN / 2];
    Mainloop::run(acc, &tma_a, &tma_b, m0, n0, K);
    sm90::store_direct(C, ldc, M, N, m0, n0, acc, bias);
}
