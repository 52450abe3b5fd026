// warpgemm/kernels/sm90/tile_scheduler.cuh -- which work a block does, and in what order: the
// grid's one tile (rung 03), or a persistent block's units of work (rung 04 on).
//
// A unit of work (Work) is a tile of C and a range of its k-tiles. The grid has at most one
// block per SM; block b takes units b, b + gridDim.x, b + 2 gridDim.x, ... Tile t of the 1-D
// numbering sits at grouped_rows_tile<GROUP>(t) (common/block_order.cuh): groups of GROUP
// tile-rows walked column by column. The gridDim.x tiles that run at the same time then form a
// compact block of C about GROUP tiles tall, whose A rows and B columns stay in L2 while they are
// read (a consecutive row-by-row order would read every B column for each tile-row instead).
//
// The last wave. With T tiles on G blocks, the last T % G tiles would run on T % G SMs while
// the others idle (at T < G, most of the GPU idles throughout). PersistentTiles can split the
// K range of those tail tiles `splits` ways: the first T - R tiles (R = T % G, or T when T < G)
// are units of their whole K range, and each of the R tail tiles becomes `splits` units of
// 1/splits of it, R * splits <= G of them, which run at once. The units of one tile add their
// partial sums in sm90/split_k_reduction.cuh. The host chooses `splits` (1: no split) and sizes
// the grid min(T - R + R * splits, G), so that G here is the host's.
#pragma once

#include "common/block_order.cuh"
#include "common/util.cuh"

namespace wg {
namespace sm90 {

// One tile per block, the one the grid puts there ((ceil(N / BN), ceil(M / BM)) blocks, x along
// N): the schedule of a non-persistent kernel, in the same shape (hopper rung 03).
// One unit of work: rows m0 .. m0 + BM and columns n0 .. n0 + BN of C, summed over k-tiles
// k_begin .. k_end - 1. A tile split over K is `splits` units (split = 0 .. splits - 1); `tail`
// numbers the split tiles (0 .. R - 1), for their partial sums and counters.
struct Work {
    int m0, n0;
    int k_begin, k_end;
    int split, splits, tail;
};

// One tile per block, the one the grid puts there ((ceil(N / BN), ceil(M / BM)) blocks, x along
// N): the schedule of a non-persistent kernel, in the same shape (hopper rung 03).
template <int BM, int BN>
struct GridTile {
    static constexpr int total = 1;

    __device__ __forceinline__ int first() const { return 0; }
    __device__ __forceinline__ int next(int unit) const { return unit + 1; }

    __device__ __forceinline__ Work work(int, int k_tiles) const {
        return Work{static_cast<int>(blockIdx.y) * BM, static_cast<int>(blockIdx.x) * BN, 0, k_tiles, 0, 1, 0};
    }
};

template <int BM, int BN, int GROUP>
struct PersistentTiles {
    static_assert(GROUP >= 1, "GROUP is the number of tile-rows walked together (1: row by row)");
    int tiles_m, tiles_n, full, tail_tiles, splits, total;

    // `splits` (>= 1, at most the k-tiles of K) is the split of the last wave's tiles.
    __device__ __forceinline__ PersistentTiles(int M, int N, int splits_ = 1)
        : tiles_m((M + BM - 1) / BM), tiles_n((N + BN - 1) / BN), splits(splits_) {
        const int tiles = tiles_m * tiles_n;
        const int grid = static_cast<int>(gridDim.x);
        tail_tiles = splits > 1 ? (tiles >= grid ? tiles % grid : tiles) : 0;
        full = tiles - tail_tiles;
        total = full + tail_tiles * splits;
    }

    __device__ __forceinline__ int first() const { return blockIdx.x; }
    __device__ __forceinline__ int next(int unit) const { return unit + gridDim.x; }

    __device__ __forceinline__ Work work(int unit, int k_tiles) const {
        Work w{0, 0, 0, k_tiles, 0, 1, 0};
        int tile = unit;
        if (unit >= full) {  // a part of a tail tile: the parts of one tile run on different blocks
            const int v = unit - full;
            w.tail = v % tail_tiles;
            w.split = v / tail_tiles;
            w.splits = splits;
            w.k_begin = w.split * k_tiles / splits;
            w.k_end = (w.split + 1) * k_tiles / splits;
            tile = full + w.tail;
        }
        int tm, tn;
        grouped_rows_tile<GROUP>(tile, tiles_m, tiles_n, tm, tn);
        w.m0 = tm * BM;
        w.n0 = tn * BN;
        return w;
    }
};

// The same for clusters of CLUSTER blocks along M: cluster c takes units c, c + clusters, ... of
// a grouped numbering of (CLUSTER * BM) x BN units, and its block of rank r computes the unit's
// r-th tile of BM rows. Both blocks walk the same units in the same order, which their shared,
// multicast B tile needs. A unit past the last tile-row (tiles_m odd) is computed over rows
// beyond M: its loads read zeros and its stores are masked. (No K split: every unit is a whole
// tile pair.)
template <int BM, int BN, int GROUP, int CLUSTER>
struct PersistentClusterTiles {
    static_assert(GROUP >= 1, "GROUP is the number of unit-rows walked together (1: row by row)");
    int units_m, tiles_n, total, rank;

    __device__ __forceinline__ PersistentClusterTiles(int M, int N, int cta_rank)
        : units_m((M + CLUSTER * BM - 1) / (CLUSTER * BM)), tiles_n((N + BN - 1) / BN),
          total(units_m * tiles_n), rank(cta_rank) {}

    __device__ __forceinline__ int first() const { return blockIdx.x / CLUSTER; }
    __device__ __forceinline__ int next(int unit) const { return unit + gridDim.x / CLUSTER; }

    __device__ __forceinline__ Work work(int unit, int k_tiles) const {
        int um, tn;
        grouped_rows_tile<GROUP>(unit, units_m, tiles_n, um, tn);
        return Work{(um * CLUSTER + rank) * BM, tn * BN, 0, k_tiles, 0, 1, 0};
    }
};

}  // namespace sm90
}  // namespace wg
