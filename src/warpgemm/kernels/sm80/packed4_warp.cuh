// warpgemm/kernels/sm80/packed4_warp.cuh -- a block of warps over packed 4-bit tiles: where each
// warp's tile of C sits, and the ldmatrix reads that give it the fragments of every 4-bit
// mma.sync form (int4/02..04).
//
// ldmatrix moves 8 x 8 matrices of b16: 8 rows of 16 bytes, lane (g, t) = (lane / 4, lane % 4)
// receiving bytes 4t..4t+3 of row g. On a K-major tile of packed 4-bit values a 16-byte row
// segment is 32 values of k, so each lane receives row g, k 8t..8t+7: the A fragment of
// mma.m8n8k32 (a[0] = (g, 8t..8t+7)), and, on W's rows, its B fragment (b[0] = (k 8t.., n g)).
// Every larger 4-bit form is built of such registers, so one read serves them all: an ldmatrix.x4
// of a 16 (mn) x 64 (k) block returns
//   r[0] = (mn 0..7,  k 0..31)    r[1] = (mn 8..15, k 0..31)
//   r[2] = (mn 0..7,  k 32..63)   r[3] = (mn 8..15, k 32..63)
// which is, for A, m16n8k64's a[0..3], m16n8k32's a[0..1] (k 0..31) and a[0..1] (k 32..63), and
// four m8n8k32 fragments; for B, two n8 tiles' fragments of each form (int4/02..04 say which).
#pragma once

#include "arch/sm75.cuh"
#include "sm80/packed4_tile.cuh"

namespace wg {
namespace sm80 {

__host__ __device__ constexpr int packed4_threads(int BM, int BN, int WM, int WN) {
    return 32 * (BM / WM) * (BN / WN);
}

// A block computes BM x BN of C with (BM/WM) x (BN/WN) warps, warp w at row w / WARPS_N and
// column w % WARPS_N of the warp grid.
template <int BM, int BN, int WM, int WN>
struct Packed4Warps {
    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile WM x WN must divide the block tile BM x BN");
    static_assert(WM % 16 == 0 && WN % 16 == 0, "a warp reads its rows of A and of W in blocks of 16: WM "
                                                "and WN must be multiples of 16");
    static constexpr int WARPS_M = BM / WM;
    static constexpr int WARPS_N = BN / WN;
    static constexpr int THREADS = packed4_threads(BM, BN, WM, WN);
    static_assert(THREADS <= 1024, "at most 1024 threads per block: use a larger warp tile");
    static constexpr int MT = WM / 16;  // m16 tiles of the warp
    static constexpr int NT = WN / 8;   // n8 tiles of the warp

    int tid, lane, warp;
    int warp_m0, warp_n0;  // the warp's tile within the block tile
    int m0, n0;            // the block tile within C

    __device__ __forceinline__ Packed4Warps(int tile_m, int tile_n) {
        tid = threadIdx.x;
        lane = tid & 31;
        warp = tid >> 5;
        warp_m0 = (warp / WARPS_N) * WM;
        warp_n0 = (warp % WARPS_N) * WN;
        m0 = tile_m * BM;
        n0 = tile_n * BN;
    }
};

// The row and byte of the 16 x 64 block at (0, 0) whose address lane `lane` gives ldmatrix.x4:
// lanes 8q..8q+7 give the rows of matrix q = (mn half q & 1, k half q >> 1).
__host__ __device__ constexpr int packed4_lane_row(int lane) { return 8 * ((lane >> 3) & 1) + (lane & 7); }
__host__ __device__ constexpr int packed4_lane_byte(int lane) { return 16 * (lane >> 4); }

// Whether the one-offset address rule of SwizzledPacked holds for every lane of every warp:
// warps at rows 0, W, 2W, ..., TILES blocks of 16 rows each, KSTEPS steps of 64 k (32 bytes).
template <int BKB, int W, int WARPS, int TILES, int KSTEPS>
__host__ __device__ constexpr bool packed4_blocks_are_exact() {
    using L = SwizzledPacked<16, BKB>;
    for (int w = 0; w < WARPS; ++w)
        for (int lane = 0; lane < 32; ++lane) {
            const int row = w * W + packed4_lane_row(lane), b = packed4_lane_byte(lane);
            for (int j = 0; j < TILES; ++j)
                for (int s = 0; s < KSTEPS; ++s)
                    if (L::offset(row + 16 * j, b + 32 * s) != ((L::offset(row, b) ^ (32 * s)) + 16 * j * BKB))
                        return false;
        }
    return true;
}

// A warp's reads of one operand's SwizzledPacked tile (rows of BKB bytes) in 16 x 64 blocks,
// from one lane offset: block (j, s) is rows mn0 + 16j.., k 64s.. of the tile.
template <int BKB>
struct Packed4Blocks {
    uint32_t lane_offset;

    __device__ __forceinline__ Packed4Blocks(int mn0, int lane)
        : lane_offset(SwizzledPacked<16, BKB>::offset(mn0 + packed4_lane_row(lane), packed4_lane_byte(lane))) {}

    // r[q] = rows 8 (q & 1) .. + 7, k 32 (q >> 1) .. + 31 of block (j, s) of the tile at shared-
    // window address `tile` (1024-byte aligned): lane (g, t) gets row g, k 8t..8t+7 of each.
    __device__ __forceinline__ void load(uint32_t (&r)[4], uint32_t tile, int j, int s) const {
        SM75_U32x4_LDSM_N::copy(r, tile + (lane_offset ^ (32 * s)) + 16 * j * BKB);
    }
};

}  // namespace sm80
}  // namespace wg
