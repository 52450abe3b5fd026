// decode/02_swap_ab_wgmma.cu -- swap AB on Hopper's pipeline: for 17..64 tokens (on an H100 also
// 65..192, in tiles of 64), the weight on wgmma's M side, streamed by TMA through a deep mbarrier
// ring, the tokens on its N side.
//
// Rung 01 reads each token's fragments from global memory once per 16 rows of W that a warp
// holds: at M = 64 its loads of A outnumber those of W (through L2), and it falls to half of
// the read bandwidth. Here a block computes a BM x BN tile of C^T = W @ A^T:
//   * W (N x K) is wgmma's A operand: BM of its rows per tile, loaded by TMA into 128-byte-swizzled
//     shared memory. A = the tokens (M x K, row-major) is wgmma's B operand, K-major: one BN x BK
//     box per k-tile, read once by the block and shared by all of its BM rows of W, so the
//     tokens' traffic is BN / BM of the weight's (and comes from L2).
//   * The hopper ladder's warp-specialised main loop as it is (sm90/mainloop_warp_specialized.cuh):
//     a producer warp issues the TMA loads STAGES k-tiles ahead, one or two consumer warpgroups
//     issue wgmma m64nBNk16. STAGES * BM * BK * 2 bytes of W are in flight per SM.
//   * Too few tiles for the SMs (N / BM of them): the persistent schedule's K split of its last
//     wave (sm90/tile_scheduler.cuh) cuts each tile's K range over the idle SMs, and
//     sm90/split_k_reduction.cuh adds the parts in split order: the same bits on every run.
//     SPLITS = 1 turns the split off: where W has at most 66 tiles of 64 rows (N <= 4224), a
//     deep ring (8 stages, a k-tile of wgmma in flight) on fewer SMs reads W faster than the
//     split, whose partial sums cost a round trip at the end of every tile (1.04x cuBLAS against
//     0.92x at 32 x 4096 x 4096 on an H100; the shipped rules choose it there).
//   * STAGGER > 1 starts each tile row's walk over k at one of STAGGER bands of its K range, so
//     that the grid does not read the same columns of W all at once (the WarpSpecializedMainloop
//     option; 0.6-1.8% at 16 and 64 x 8192 x 8192).
//   * CLUSTER = 2 or 4 launches the grid in clusters of that many blocks on adjacent tiles of W,
//     which share the tokens: each block loads a 1/CLUSTER band of the tokens' box and
//     multicasts it into all (the hopper ladder's rung 05), so the tokens' traffic from L2 falls
//     from BN / BM of the weight's to BN / (CLUSTER BM). The cluster schedule does not split K
//     (SPLITS is unused); the blocks of a cluster take the same band of STAGGER.
//   * SHARE_W = 1 clusters the other way: the blocks of a cluster take adjacent tiles of tokens
//     on one tile of W, each loading a 1/CLUSTER band of W's box and multicasting it into all, so
//     that W crosses from L2 once for them. At 64 tokens in tiles of 32, a weight of 64 tiles of W
//     runs on 128 blocks, with no K split and its sums added once.
//   * The epilogue writes the tile transposed, into C's columns, adding the bias per row of W
//     (sm90/epilogue_direct.cuh, store_direct_transposed).
// Only the transposed store is new: the rest is the ladder's headers with W and the tokens in each
// other's place.
//
// Requires sm_90a; A row-major (M x K), B = W^T either way ((K,N):(1,ldb), the Linear layout, or
// (K,N):(ldb,1)); both 16-byte aligned with leading dimensions a multiple of 8 elements. Any M,
// N and K (TMA reads zeros past the edges, the stores are masked).
#include "arch/sm90.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch as hopper/04_persistent with M and N exchanged: min(units, SMs) blocks of
// 128 * (1 + BM / 64) threads, units = T - R + R * splits for T = ceil(N / BM) * ceil(M / BN)
// tiles. tma_w maps W (N x K) in boxes of BM rows (K-major) or BK rows (B row-major, W
// M-major), tma_x maps the tokens in boxes of BN rows. In clusters the shared operand's map has the
// boxes of a block's part (tensor_map.multicast_part_box).
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int IN_FLIGHT,
          int STAGGER, int CLUSTER, int SHARE_W>
__global__ void __launch_bounds__(wg::sm90::SixtyFourRowConsumers<BM>::THREADS, 1)
decode_swap_ab_wgmma(const __grid_constant__ wg::TmaDescriptor tma_w, const __grid_constant__ wg::TmaDescriptor tma_x,
                     TC* __restrict__ C, int M, int N, int K, int ldc, const T* __restrict__ bias,
                     float* __restrict__ workspace, int* __restrict__ counters, int splits) {
    using namespace wg;
    static_assert(A_ROW, "the tokens (A) are wgmma's B operand here and must be K-major: A row-major");
    static_assert(BN % 8 == 0 && BN >= 16 && BN <= 256,
                  "BN (tokens a tile holds) is a multiple of 8 from 16 to 256 with an m64nBNk16 wrapper in "
                  "arch/sm90.cuh (scripts/gen_wgmma_wrappers.py); more tokens take more tiles");
    static_assert(CLUSTER == 1 || CLUSTER == 2 || CLUSTER == 4,
                  "CLUSTER: 1 (the persistent schedule with its K split), 2 or 4 (tiles sharing a box by multicast)");
    static_assert(SHARE_W == 0 || (SHARE_W == 1 && CLUSTER > 1),
                  "SHARE_W: 0 (a cluster's blocks share the tokens) or 1 (they share W), the latter in clusters");
    static_assert(CLUSTER == 1 || SHARE_W || BN % (8 * CLUSTER) == 0,
                  "clusters sharing the tokens: each block loads a 1/CLUSTER band of the tokens' tile, a whole "
                  "number of 8-row swizzle atoms, so BN is a multiple of 8 * CLUSTER (else CLUSTER = 1 or SHARE_W = 1)");
    static_assert(!SHARE_W || (BM / CLUSTER) % 8 == 0,
                  "clusters sharing W: each block loads a 1/CLUSTER band of W's tile, a whole number of 8-row "
                  "swizzle atoms: BM = 64 takes CLUSTER <= 8");
    // W = B^T is row-major (K-major) when B is column-major; the tokens are K-major always.
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, !B_ROW, false, CLUSTER, IN_FLIGHT, STAGGER,
                                                   false, SHARE_W == 1>;
    if (threadIdx.x == 0) Mainloop::init(&tma_w, &tma_x);

    // Tiles of C^T: N rows (of W) by M columns (tokens).
    sm90::TransposedDirectEpilogue<TC, T> epilogue{C, ldc, N, M, bias};
    if constexpr (CLUSTER == 1) {
        __syncthreads();
        sm90::persistent_split_k<Mainloop, 1>(&tma_w, &tma_x, N, M, K, epilogue, workspace, counters, splits);
    } else {
        cluster_arrive();  // no block multicasts into its partner before the partner's ring is set up
        cluster_wait();
        const sm90::PersistentClusterTiles<BM, BN, 1, CLUSTER, SHARE_W == 1> tiles(N, M,
                                                                                  static_cast<int>(cluster_ctarank()));
        sm90::warp_specialized_roles<Mainloop>(tiles, &tma_w, &tma_x, K, epilogue);
        cluster_arrive();  // the partner may multicast into this block until both are done
        cluster_wait();
    }
}
