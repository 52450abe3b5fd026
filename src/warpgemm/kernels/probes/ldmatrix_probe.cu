// probes/ldmatrix_probe.cu -- one ldmatrix by one warp, every lane's registers dumped.
//
// The block copies `tile` (tile_elems 16-bit values, already in shared-memory order, so a
// swizzle is the host's business) into shared memory. Lane l then passes the address
// smem + row_offset[l] (in 16-bit elements) to ldmatrix .x{NUM}{.trans} and writes its NUM
// result registers to out[l * NUM + r]. Used to check warpgemm.layout's ldmatrix copy atoms
// against the hardware, and, under ncu, the bank model's wavefront counts.
#include "arch/sm75.cuh"

template <int NUM, bool TRANS>
__global__ void ldmatrix_probe(const wg::uint16_t* tile, const wg::int32_t* row_offset,
                               wg::uint32_t* out, int tile_elems) {
    static_assert(NUM == 1 || NUM == 2 || NUM == 4, "ldmatrix loads 1, 2 or 4 matrices");
    extern __shared__ __attribute__((aligned(16))) wg::uint16_t smem[];
    for (int i = threadIdx.x; i < tile_elems; i += blockDim.x) {
        smem[i] = tile[i];
    }
    __syncthreads();

    const int lane = threadIdx.x % 32;
    const wg::uint16_t* row = smem + row_offset[lane];
    wg::uint32_t r[NUM];
    if constexpr (NUM == 1) {
        if constexpr (TRANS) wg::SM75_U16x2_LDSM_T::copy(r, row); else wg::SM75_U32x1_LDSM_N::copy(r, row);
    } else if constexpr (NUM == 2) {
        if constexpr (TRANS) wg::SM75_U16x4_LDSM_T::copy(r, row); else wg::SM75_U32x2_LDSM_N::copy(r, row);
    } else {
        if constexpr (TRANS) wg::SM75_U16x8_LDSM_T::copy(r, row); else wg::SM75_U32x4_LDSM_N::copy(r, row);
    }
    for (int i = 0; i < NUM; ++i) {
        out[threadIdx.x * NUM + i] = r[i];
    }
}
