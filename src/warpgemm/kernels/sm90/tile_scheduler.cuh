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
//
// Stream-K (PersistentTiles' STREAM_K, hopper rung 06). A split into equal parts cannot balance
// a last wave that is nearly full: at 4096^3 in 128 x 256 tiles, 512 tiles on 132 SMs leave 116
// SMs four tiles and 16 three, and 116 tiles split any whole number of ways still take a whole
// tile's time on some SM. With `splits` = -S, the last S tiles' k-tiles are numbered tile by tile
// and dealt out to the G blocks in G contiguous shares of S * k_tiles / G each; a share crosses
// tile boundaries, so a block runs up to ceil(share / k_tiles) + 1 units there, and a tile is
// summed from the shares of the consecutive blocks that cover it (split order = block order).
// Every block then ends within a k-tile of the others. The host picks S: the last wave's R
// tiles, or R + G where R is small, so that no tile is cut into many small parts; and it
// launches at most S * k_tiles blocks, so that every share holds a k-tile (a block with none
// would sit between a tile's parts and leave its count of parts short). The price is the L2's
// reuse: the blocks no longer read the same A and B panels at once, as whole tiles walked in
// step do, and on an H100 it measured slower at all but one shape (docs/hopper.md, "Stream-K on
// the tail").
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
// The partial sums of part s of a split tile go to workspace slot slot_base + s * slot_stride.
struct Work {
    int m0, n0;
    int k_begin, k_end;
    int split, splits, tail;
    int slot_base = 0, slot_stride = 0;
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

template <int BM, int BN, int GROUP, bool STREAM_K = false>
struct PersistentTiles {
    static_assert(GROUP >= 1, "GROUP is the number of tile-rows walked together (1: row by row)");
    int tiles_m, tiles_n, full, tail_tiles, splits, total;
    // Stream-K: this block's share [share_begin, share_end) of the tail's tail_tiles * k_tiles
    // k-tiles (`shared` of them)
    int k_tiles, share_begin, share_end;
    long long shared;

    // `splits` (>= 1, at most the k-tiles of K) is the split of the last wave's tiles. With
    // STREAM_K, `splits` = -S (S >= 0) instead deals the last S tiles' k-tiles out to the blocks,
    // which needs the k-tiles of K (`k_tiles_`); the two schedules are separate instantiations,
    // so that neither carries the other's code.
    __device__ __forceinline__ PersistentTiles(int M, int N, int splits_ = 1, int k_tiles_ = 0)
        : tiles_m((M + BM - 1) / BM), tiles_n((N + BN - 1) / BN), splits(splits_), k_tiles(k_tiles_) {
        const int tiles = tiles_m * tiles_n;
        const int grid = static_cast<int>(gridDim.x);
        if constexpr (STREAM_K) {
            tail_tiles = min(max(-splits, 0), tiles);
            full = tiles - tail_tiles;
            total = tiles;
            shared = static_cast<long long>(tail_tiles) * k_tiles;
            share_begin = static_cast<int>(blockIdx.x * shared / grid);
            share_end = static_cast<int>((blockIdx.x + 1) * shared / grid);
        } else {
            tail_tiles = splits > 1 ? (tiles >= grid ? tiles % grid : tiles) : 0;
            full = tiles - tail_tiles;
            total = full + tail_tiles * splits;
        }
    }

    __device__ __forceinline__ int first() const {
        if constexpr (STREAM_K) {
            if (static_cast<int>(blockIdx.x) >= full) return first_shared();
        }
        return blockIdx.x;
    }
    __device__ __forceinline__ int next(int unit) const {
        const int grid = static_cast<int>(gridDim.x);
        if constexpr (STREAM_K) {
            if (unit < full) return unit + grid < full ? unit + grid : first_shared();
            return unit - full < (share_end - 1) / k_tiles ? unit + 1 : total;  // the share's last tile?
        }
        return unit + grid;
    }

    __device__ __forceinline__ Work work(int unit, int k_tiles_of_k) const {
        Work w{0, 0, 0, k_tiles_of_k, 0, 1, 0};
        int tile = unit;
        if (unit >= full) {
            if constexpr (STREAM_K) {  // this block's part of a shared tail tile
                const int t = unit - full, t0 = t * k_tiles;
                const int first_block = owner(t0), last_block = owner(t0 + k_tiles - 1);
                w.k_begin = max(share_begin, t0) - t0;
                w.k_end = min(share_end, t0 + k_tiles) - t0;
                w.tail = t;
                w.split = static_cast<int>(blockIdx.x) - first_block;
                w.splits = last_block - first_block + 1;
                w.slot_base = first_block + t;  // block b's part of tile t: slot b + t, one a (block, tile)
                w.slot_stride = 1;
            } else {  // a part of a tail tile: the parts of one tile run on different blocks
                const int v = unit - full;
                w.tail = v % tail_tiles;
                w.split = v / tail_tiles;
                w.splits = splits;
                w.k_begin = w.split * k_tiles_of_k / splits;
                w.k_end = (w.split + 1) * k_tiles_of_k / splits;
                w.slot_base = w.tail;
                w.slot_stride = tail_tiles;
                tile = full + w.tail;
            }
        }
        int tm, tn;
        grouped_rows_tile<GROUP>(tile, tiles_m, tiles_n, tm, tn);
        w.m0 = tm * BM;
        w.n0 = tn * BN;
        return w;
    }

  private:
    // Stream-K: the first tail tile of this block's share (none: `total`).
    __device__ __forceinline__ int first_shared() const {
        return share_begin < share_end ? full + share_begin / k_tiles : total;
    }
    // Stream-K: the block whose share holds k-tile p of the tail, the last b with b * shared / G <= p.
    __device__ __forceinline__ int owner(int p) const {
        return static_cast<int>(((p + 1LL) * gridDim.x - 1) / shared);
    }
};

// The same for clusters of CLUSTER blocks along M: cluster c takes units c, c + clusters, ... of
// a grouped numbering of (CLUSTER * BM) x BN units, and its block of rank r computes the unit's
// r-th tile of BM rows. Both blocks walk the same units in the same order, which their shared,
// multicast B tile needs. A unit past the last tile-row (tiles_m odd) is computed over rows
// beyond M: its loads read zeros and its stores are masked. (No K split: every unit is a whole
// tile pair.) With ALONG_N the clusters lie along N instead: units of BM x (CLUSTER * BN), the
// block of rank r on the unit's r-th tile of BN columns, sharing A (SHARE_A in
// sm90/mainloop_warp_specialized.cuh); a unit past the last tile-column likewise.
template <int BM, int BN, int GROUP, int CLUSTER, bool ALONG_N = false>
struct PersistentClusterTiles {
    static_assert(GROUP >= 1, "GROUP is the number of unit-rows walked together (1: row by row)");
    static constexpr int UNIT_M = ALONG_N ? BM : CLUSTER * BM;
    static constexpr int UNIT_N = ALONG_N ? CLUSTER * BN : BN;
    int units_m, units_n, total, rank;

    __device__ __forceinline__ PersistentClusterTiles(int M, int N, int cta_rank)
        : units_m((M + UNIT_M - 1) / UNIT_M), units_n((N + UNIT_N - 1) / UNIT_N),
          total(units_m * units_n), rank(cta_rank) {}

    __device__ __forceinline__ int first() const { return blockIdx.x / CLUSTER; }
    __device__ __forceinline__ int next(int unit) const { return unit + gridDim.x / CLUSTER; }

    __device__ __forceinline__ Work work(int unit, int k_tiles) const {
        int um, un;
        grouped_rows_tile<GROUP>(unit, units_m, units_n, um, un);
        if constexpr (ALONG_N) return Work{um * BM, (un * CLUSTER + rank) * BN, 0, k_tiles, 0, 1, 0};
        else return Work{(um * CLUSTER + rank) * BM, un * BN, 0, k_tiles, 0, 1, 0};
    }
};

}  // namespace sm90
}  // namespace wg
