// warpgemm/kernels/sm90/tile_scheduler.cuh -- which tiles of C a block computes, and in what
// order: the grid's one tile (rung 03), or a persistent block's tiles (rung 04 on).
//
// The grid has min(tiles, SMs) blocks; block b takes tiles b, b + gridDim.x, b + 2 gridDim.x, ...
// of a 1-D numbering in which tile t sits at grouped_rows_tile<GROUP>(t) (common/block_order.cuh):
// groups of GROUP tile-rows walked column by column. The gridDim.x tiles that run at the same
// time then form a compact block of C about GROUP tiles tall, whose A rows and B columns stay in
// L2 while they are read (a consecutive row-by-row order would read every B column for each
// tile-row instead).
#pragma once

#include "common/block_order.cuh"
#include "common/util.cuh"

namespace wg {
namespace sm90 {

// One tile per block, the one the grid puts there ((ceil(N / BN), ceil(M / BM)) blocks, x along
// N): the schedule of a non-persistent kernel, in the same shape (hopper rung 03).
template <int BM, int BN>
struct GridTile {
    static constexpr int total = 1;

    __device__ __forceinline__ int first() const { return 0; }
    __device__ __forceinline__ int next(int tile) const { return tile + 1; }

    __device__ __forceinline__ void origin(int, int& m0, int& n0) const {
        m0 = blockIdx.y * BM;
        n0 = blockIdx.x * BN;
    }
};

template <int BM, int BN, int GROUP>
struct PersistentTiles {
    static_assert(GROUP >= 1, "GROUP is the number of tile-rows walked together (1: row by row)");
    int tiles_m, tiles_n, total;

    __device__ __forceinline__ PersistentTiles(int M, int N)
        : tiles_m((M + BM - 1) / BM), tiles_n((N + BN - 1) / BN), total(tiles_m * tiles_n) {}

    __device__ __forceinline__ int first() const { return blockIdx.x; }
    __device__ __forceinline__ int next(int tile) const { return tile + gridDim.x; }

    // The first row and column of C of tile `tile`.
    __device__ __forceinline__ void origin(int tile, int& m0, int& n0) const {
        int tm, tn;
        grouped_rows_tile<GROUP>(tile, tiles_m, tiles_n, tm, tn);
        m0 = tm * BM;
        n0 = tn * BN;
    }
};

// The same for clusters of CLUSTER blocks along M: cluster c takes units c, c + clusters, ... of
// a grouped numbering of (CLUSTER * BM) x BN units, and its block of rank r computes the unit's
// r-th tile of BM rows. Both blocks walk the same units in the same order, which their shared,
// multicast B tile needs. A unit past the last tile-row (tiles_m odd) is computed over rows
// beyond M: its loads read zeros and its stores are masked.
template <int BM, int BN, int GROUP, int CLUSTER>
struct PersistentClusterTiles {
    static_assert(GROUP >= 1, "GROUP is the number of unit-rows walked together (1: row by row)");
    int units_m, tiles_n, total, rank;

    __device__ __forceinline__ PersistentClusterTiles(int M, int N, int cta_rank)
        : units_m((M + CLUSTER * BM - 1) / (CLUSTER * BM)), tiles_n((N + BN - 1) / BN),
          total(units_m * tiles_n), rank(cta_rank) {}

    __device__ __forceinline__ int first() const { return blockIdx.x / CLUSTER; }
    __device__ __forceinline__ int next(int unit) const { return unit + gridDim.x / CLUSTER; }

    __device__ __forceinline__ void origin(int unit, int& m0, int& n0) const {
        int um, tn;
        grouped_rows_tile<GROUP>(unit, units_m, tiles_n, um, tn);
        m0 = (um * CLUSTER + rank) * BM;
        n0 = tn * BN;
    }
};

}  // namespace sm90
}  // namespace wg
