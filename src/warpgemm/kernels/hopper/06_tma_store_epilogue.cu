// hopper/06_tma_store_epilogue.cu -- the epilogue goes through shared memory and TMA stores
// (sm90/epilogue_tma_store.cuh), and overlaps the next tile's mainloop.
//
// Rungs 03-05 store C straight from registers: each thread writes 4-byte pairs scattered over
// 16 rows, many small transactions that occupy the consumers' issue slots and the LSU while the
// tensor cores wait for the next tile to start. Here each warpgroup writes its tile into shared
// memory with stmatrix (one instruction per 16 x 16 block), and one thread hands each 64 x 128-byte
// slab to the TMA, which writes it to global memory asynchronously. The warpgroup goes straight
// on to the next tile's wgmma; only the reuse of a staging buffer, two slabs later, waits for the
// TMA to have read it.
//
// Everything else is rung 05 (CLUSTER = 2) or rung 04 (CLUSTER = 1): persistent, grouped tile
// order, warp-specialised, and with CLUSTER = 1 rung 04's K split of the last wave's tiles, or
// (STREAM_K = 1) the last tiles' k-tiles dealt out evenly to every block, stream-K. The staging
// costs 16 KB per consumer warpgroup, which is why the pipeline keeps 4 stages of 128 x 256 x 64
// at most (192 KB + 32 KB of the 227 KB).
//
// HOLD = 1 (a 16-bit C) stores each tile while the next one multiplies (HeldTmaStoreEpilogue): the
// warpgroups end a tile by converting its sums to 16-bit pairs held in registers, and stage and
// store one slab a k-tile beside the next tile's wgmma. With HOLD = 0 both consumer warpgroups
// stage and store a whole tile before their next wgmma, and the tensor cores wait: at 4096^3 on
// an H100 the kernel ran 0.97x cuBLAS with that epilogue and 1.01x with none (docs/hopper.md,
// "What the epilogue costs"). An fp32 C takes HOLD = 0's epilogue whatever HOLD says.
//
// BM = 256 (with BN = 128) gives each of the two consumer warpgroups 128 rows: two m64nBNk16 a
// k-step into two sets of accumulators (sm90/warpgroup_mma.cuh), the shape cuBLAS runs at the
// Llama prefill's GEMMs (256 x 128), where BM = 128 gives each 64 x BN.
//
// CLUSTER = 4 shares each B tile among four vertically adjacent tiles: a block reads a quarter of
// it from L2, so a 128 x 256 x 64 k-tile costs 24 KB of L2 reads a block against 32 KB in pairs
// (the consumers waited for a stage 11% of their time at 4096^3 on an H100, in pairs;
// docs/hopper.md). Clusters of four may leave SMs of a GPC unused (the launch takes as many
// clusters as cuOccupancyMaxActiveClusters allows). BN = 256, so that every block's part of a B
// tile is whole swizzle atoms in either B layout.
//
// A ragged last tile-row of a K-major A (M % BM rows) loads through a second map, `tma_a_edge`,
// whose boxes stop at the tensor's edge (M % BM rows rounded up to 8; rows from `a_edge_m0` on),
// and its stages expect that many fewer bytes (sm90::AEdge). With A's own map, TMA fills the box's
// rows past M with zeros: at 193 x 8192 x 8192 (two tile-rows of 128, the second 65 rows high)
// the 128 x 128 tiles then took 70.1 us on an H200, against 57.0 us at 256 rows, with the same
// DRAM traffic (docs/decode.md, "193-256 rows"). The host passes A's own map and a start past
// every row where the last tile-row is full, A is M-major, or A_EDGE = 0.
//
// Requires sm_90a; operands as rung 01. C's tensor map (`tma_c`) has boxes of 64 rows x 128
// bytes with the 128-byte swizzle; where C cannot take one, `c_tma` = 0 and the warpgroups copy
// the staged slabs to C themselves.
#include "arch/sm90.cuh"
#include "sm90/epilogue_tma_store.cuh"
#include "sm90/mainloop_warp_specialized.cuh"
#include "sm90/split_k_reduction.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

// Launch with CLUSTER * min(ceil(M / (CLUSTER BM)) * ceil(N / BN), resident clusters) blocks
// (in clusters of (CLUSTER, 1, 1) when CLUSTER > 1), 128 * (1 + C) threads for C = 1 consumer
// warpgroup at BM = 64 and 2 above, and round_up(STAGES * ((BM + BN) * BK * sizeof(T) + 16), 1024) + C * 16384 bytes of
// dynamic shared memory. `workspace`, `counters` and `splits` as rung 04 (CLUSTER = 1 only;
// clusters take splits = 1); with STREAM_K = 1, `splits` = -S: stream-K over the last S tiles
// (sm90/tile_scheduler.cuh), with a workspace of G + S tiles of fp32 sums for a grid of G
// blocks and S * consumers counters.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int STAGES, int GROUP,
          int CLUSTER, int IN_FLIGHT, int HOLD, int STREAM_K>
__global__ void __launch_bounds__(BM == 64 ? 256 : 384, 1)
hopper_tma_store_epilogue(const __grid_constant__ wg::TmaDescriptor tma_a,
                          const __grid_constant__ wg::TmaDescriptor tma_b,
                          const __grid_constant__ wg::TmaDescriptor tma_c, TC* __restrict__ C, int M, int N,
                          int K, int ldc, const T* __restrict__ bias, int c_tma,
                          float* __restrict__ workspace, int* __restrict__ counters, int splits,
                          const __grid_constant__ wg::TmaDescriptor tma_a_edge, int a_edge_m0, int a_edge_rows) {
    using namespace wg;
    using Mainloop = sm90::WarpSpecializedMainloop<T, BM, BN, BK, STAGES, A_ROW, B_ROW, CLUSTER, IN_FLIGHT>;
    static_assert(HOLD == 0 || HOLD == 1, "HOLD = 0 (store each tile, then multiply the next) or 1 (store it beside "
                                          "the next tile's wgmma)");
    static_assert(STREAM_K == 0 || (STREAM_K == 1 && CLUSTER == 1),
                  "STREAM_K = 0 splits the last wave over K; STREAM_K = 1 shares it out stream-K and takes CLUSTER = 1");
    // The held epilogue fetches each tile's bias when the tile starts, but at 256-row tiles in
    // clusters those registers spill beside the held sums: there it loads the bias at the tile's end.
    using Epilogue = typename pick<HOLD == 1 && sizeof(TC) == 2,
                                   sm90::HeldTmaStoreEpilogue<TC, T, BN, !(BM == 256 && CLUSTER > 1)>,
                                   sm90::TmaStoreEpilogue<TC, T, BN>>::type;
    static_assert(BN % 64 == 0 || (!B_ROW && CLUSTER <= 2),
                  "BN no multiple of 64 (176) takes a column-major B, K-major in shared memory as Linear's W.t() "
                  "(a row-major B lands in 64-column slabs), in single blocks or clusters of two (each block "
                  "loads BN / 2 rows of B: a whole number of 8-row swizzle atoms)");
    constexpr int STAGING_OFFSET = (Mainloop::SMEM_BYTES + 1023) / 1024 * 1024;
    static_assert(STAGING_OFFSET + Mainloop::CONSUMERS * Epilogue::BYTES_PER_CONSUMER <= 227 * 1024,
                  "the stages and the epilogue's staging do not fit in 227 KB: lower STAGES or BN");

    sm90::set_up_ring<Mainloop, CLUSTER>(&tma_a, &tma_b, c_tma ? &tma_c : nullptr);
    const sm90::AEdge edge{&tma_a_edge, a_edge_m0, a_edge_rows};

    Epilogue epilogue{sm90::TmaStoreEpilogue<TC, T, BN>{
        {&tma_c, C, ldc, M, N, c_tma != 0}, bias, smem_u32(dynamic_smem()) + STAGING_OFFSET}};
    if constexpr (CLUSTER == 1) {
        sm90::persistent_split_k<Mainloop, GROUP, STREAM_K == 1>(&tma_a, &tma_b, M, N, K, epilogue, workspace,
                                                                 counters, splits, edge);
    } else {
        const sm90::PersistentClusterTiles<BM, BN, GROUP, CLUSTER> tiles(M, N, static_cast<int>(cluster_ctarank()));
        sm90::warp_specialized_roles<Mainloop>(tiles, &tma_a, &tma_b, K, epilogue, edge);
        sm90::leave_cluster<CLUSTER>();
    }
}
