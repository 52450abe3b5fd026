// warpgemm/kernels/common/block_order.cuh -- which tile of C a block computes: the default grid
// order, and the two block swizzles the ladders use so that blocks which run at the same time
// share A rows and B columns in L2 (the idea of hgemm/03_block_swizzle; the TF32 rung sgemm/08
// uses the other one).
#pragma once

#include "common/util.cuh"

namespace wg {

// The default grid, (ceil(N/BN), ceil(M/BM), 1): x along N, y along M.
__device__ __forceinline__ void grid_tile(int& tile_m, int& tile_n) {
    tile_m = blockIdx.y;
    tile_n = blockIdx.x;
}

// Panels of SWIZZLE tile-columns walked in zig-zag, on a 1-D grid of tiles_m * tiles_n blocks (a
// z-order with a stride). C's tile columns are cut into panels SWIZZLE tiles wide. Blocks run
// across a panel (x), then down it (y), then on to the next panel (z); odd panels run bottom-up,
// so that the turn from one panel to the next keeps the A rows just read. The last panel may be
// narrower. Blocks that run at the same time then cover a compact patch of C. (hgemm 03-08)
template <int SWIZZLE>
__device__ __forceinline__ void zigzag_panel_tile(int block, int tiles_m, int tiles_n, int& tile_m,
                                                  int& tile_n) {
    const int panel_blocks = SWIZZLE * tiles_m;
    const int panel = block / panel_blocks;
    const int in_panel = block - panel * panel_blocks;
    const int width = imin(SWIZZLE, tiles_n - panel * SWIZZLE);
    const int row = in_panel / width;
    tile_n = panel * SWIZZLE + (in_panel - row * width);
    tile_m = (panel & 1) ? tiles_m - 1 - row : row;
}

// Groups of GROUP tile-rows walked column by column, on a 1-D grid: blocks walk down a group of
// GROUP tile-rows within one tile-column, then move to the next tile-column; the last group may
// have fewer rows. GROUP = 1 is plain row-by-row order. (sgemm/08)
template <int GROUP>
__device__ __forceinline__ void grouped_rows_tile(int block, int tiles_m, int tiles_n, int& tile_m,
                                                  int& tile_n) {
    const int blocks_per_group = GROUP * tiles_n;
    const int first_m = (block / blocks_per_group) * GROUP;
    const int rows = imin(tiles_m - first_m, GROUP);
    const int in_group = block % blocks_per_group;
    tile_m = first_m + in_group % rows;
    tile_n = in_group / rows;
}

}  // namespace wg
