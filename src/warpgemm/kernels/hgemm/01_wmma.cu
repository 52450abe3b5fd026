// hgemm/01_wmma.cu -- rung 01: tensor cores through wmma m16n16k16, fed from shared memory.
//
// The baseline of the HGEMM ladder. A block computes a BM x BN tile of C with BM/WM x BN/WN
// warps; each warp owns a WM x WN tile, (WM/16) x (WN/16) wmma accumulator fragments of fp32.
// Per k-tile of BK:
//   1. every thread reads its 16-byte chunks of the A and B tiles from global memory into
//      registers (zeros outside the matrix) and writes them to shared memory;
//   2. __syncthreads; each warp loads its A and B fragments with wmma.load and multiplies with
//      wmma.mma, BK/16 times;
//   3. __syncthreads before the next k-tile overwrites the tiles.
// wmma takes each operand's layout as a qualifier, so the shared tiles simply keep the global
// layout and all four A/B layouts are read without a transpose:
//   A row-major: (BM,BK):(BK,1), wmma .row, ldm = BK     A column-major: (BM,BK):(1,BM), .col, ldm = BM
//   B row-major: (BK,BN):(BN,1), wmma .row, ldm = BN     B column-major: (BK,BN):(1,BK), .col, ldm = BK
// The fragments' register layout is opaque (wmma.store.d is the only way out), so C leaves one
// 16x16 fragment at a time through a small per-warp patch of shared memory, converted to TC on
// the way, with 16-byte stores where aligned.
//
// Nothing overlaps: a warp waits for its global loads, then for the barrier, then computes.
// The rungs after this one remove those waits one by one.
//
// Requires sm_80+ (bf16 wmma, cvt to f16x2/bf16x2), 16-byte aligned A and B with leading
// dimensions a multiple of 8 elements (the host copies other inputs first). Correct for any
// M, N, K >= 1: out-of-range chunks read as zeros and stores are masked.
//
// The register-staged tile copy is TileCopy in sm80/tile_copy.cuh (load, then store).
#include "arch/sm80.cuh"
#include "common/block_order.cuh"
#include "sm80/block_tile.cuh"
#include "sm80/epilogue.cuh"
#include "sm80/mma.cuh"
#include "sm80/smem_layout.cuh"
#include "sm80/tile_copy.cuh"

namespace wg {
namespace hgemm_wmma {

using namespace wg::sm80;

// wmma fragment registers of one 16x16 operand: 8 b32 for fp16, 4 for bf16.
template <typename T>
constexpr int FRAG_REGS = same_type<T, half_t>::value ? 8 : 4;

template <typename T, bool ROW>
__device__ __forceinline__ void load_a(uint32_t (&r)[FRAG_REGS<T>], const T* p, int ldm) {
    if constexpr (same_type<T, half_t>::value) wmma_load_a_f16<ROW>(r, p, ldm);
    else wmma_load_a_bf16<ROW>(r, p, ldm);
}

template <typename T, bool ROW>
__device__ __forceinline__ void load_b(uint32_t (&r)[FRAG_REGS<T>], const T* p, int ldm) {
    if constexpr (same_type<T, half_t>::value) wmma_load_b_f16<ROW>(r, p, ldm);
    else wmma_load_b_bf16<ROW>(r, p, ldm);
}

template <typename T, bool A_ROW, bool B_ROW>
__device__ __forceinline__ void mma(float (&d)[8], const uint32_t (&a)[FRAG_REGS<T>],
                                    const uint32_t (&b)[FRAG_REGS<T>]) {
    if constexpr (same_type<T, half_t>::value) wmma_mma_f16_f32<A_ROW, B_ROW>(d, a, b);
    else wmma_mma_bf16_f32<A_ROW, B_ROW>(d, a, b);
}

// Copy a 16x16 fp32 patch (row stride LDP floats) to C(row0.., col0..) as TC: one 16-byte store
// of C per lane per step, masked at the matrix edges.
template <typename TC, int LDP>
__device__ __forceinline__ void store_patch(TC* C, int ldc, int M, int N, int row0, int col0,
                                            const float* patch, int lane, bool vec_ok) {
    constexpr int VEC = 16 / static_cast<int>(sizeof(TC));  // elements of C per 16 bytes
    constexpr int PER_ROW = 16 / VEC;
#pragma unroll
    for (int c = lane; c < 16 * PER_ROW; c += 32) {
        const int r = c / PER_ROW;
        const int col = col0 + (c % PER_ROW) * VEC;
        const int row = row0 + r;
        if (row >= M) continue;
        const float* src = patch + r * LDP + (c % PER_ROW) * VEC;
        float v[VEC];
#pragma unroll
        for (int e = 0; e < VEC; e += 4) {
            const float4 q = *reinterpret_cast<const float4*>(src + e);
            v[e] = q.x; v[e + 1] = q.y; v[e + 2] = q.z; v[e + 3] = q.w;
        }
        TC* dst = C + static_cast<int64_t>(row) * ldc + col;
        if constexpr (same_type<TC, float>::value) {
            if (vec_ok && col + VEC <= N) {
                *reinterpret_cast<float4*>(dst) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    if (col + e < N) dst[e] = v[e];
            }
        } else {
            uint32_t w[VEC / 2];
#pragma unroll
            for (int e = 0; e < VEC / 2; ++e) w[e] = pack2<TC>(v[2 * e], v[2 * e + 1]);
            if (vec_ok && col + VEC <= N) {
                *reinterpret_cast<uint4*>(dst) = make_uint4(w[0], w[1], w[2], w[3]);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    if (col + e < N)
                        reinterpret_cast<uint16_t*>(dst)[e] = static_cast<uint16_t>(w[e / 2] >> (16 * (e % 2)));
            }
        }
    }
}

}  // namespace hgemm_wmma
}  // namespace wg

// C = A * B with wmma m16n16k16. Block tile BM x BN x BK, warp tile WM x WN; launch with the
// default grid (ceil(N/BN), ceil(M/BM)), 32 * (BM/WM) * (BN/WN) threads and the catalogue's
// dynamic shared memory, (BM + BN) * BK elements of T.
template <bool A_ROW, bool B_ROW, typename T, typename TC, int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__(32 * (BM / WM) * (BN / WN))
hgemm_wmma(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M, int N, int K,
           int lda, int ldb, int ldc) {
    using namespace wg;
    using namespace wg::sm80;
    using namespace wg::hgemm_wmma;
    static_assert(is_16bit_float<T>, "T must be wg::half_t or wg::bf16_t");
    static_assert(is_16bit_float<TC> || same_type<TC, float>::value, "TC must be half_t, bf16_t or float");
    static_assert(BM % WM == 0 && BN % WN == 0, "the warp tile WM x WN must divide the block tile BM x BN");
    static_assert(WM % 16 == 0 && WN % 16 == 0, "WM and WN must be multiples of 16 (one wmma fragment)");
    static_assert(BK % 16 == 0, "BK must be a multiple of 16 (the k of one wmma)");
    constexpr int THREADS = 32 * (BM / WM) * (BN / WN);
    static_assert(THREADS <= 1024, "at most 1024 threads per block: use a larger warp tile");
    constexpr int FM = WM / 16;
    constexpr int FN = WN / 16;
    constexpr int FR = FRAG_REGS<T>;
    constexpr bool A_KC = A_ROW;   // row-major A runs along k
    constexpr bool B_KC = !B_ROW;  // column-major B runs along k
    using LayoutA = PlainSmem<A_KC, BM, BK>;
    using LayoutB = PlainSmem<B_KC, BN, BK>;
    constexpr int LDM_A = A_KC ? BK : BM;
    constexpr int LDM_B = B_KC ? BK : BN;
    constexpr int LDP = 16 + 4;  // fp32 epilogue patch, rows padded to 80 bytes
    static_assert((BM + BN) * BK * 2 >= (THREADS / 32) * 16 * LDP * 4,
                  "the per-warp epilogue patches must fit in the operand tiles' shared memory");

    T* const sA = reinterpret_cast<T*>(dynamic_smem());
    T* const sB = sA + LayoutA::ELEMS;

    int tile_m, tile_n;
    grid_tile(tile_m, tile_n);
    const BlockTile<BM, BN, BK, WM, WN> at(tile_m, tile_n, K);

    using CopyA = TileCopy<T, LayoutA, A_KC, BM, BK, THREADS>;
    using CopyB = TileCopy<T, LayoutB, B_KC, BN, BK, THREADS>;
    const CopyA copy_a(A, lda, at.m0, M, K, at.tid);
    const CopyB copy_b(B, ldb, at.n0, N, K, at.tid);

    float acc[FM][FN][8];
    zero(acc);

    for (int kt = 0; kt < at.k_tiles; ++kt) {
        uint4 ra[CopyA::PER_THREAD], rb[CopyB::PER_THREAD];
        copy_a.load(ra, kt, lda);
        copy_b.load(rb, kt, ldb);
        copy_a.store(sA, ra);
        copy_b.store(sB, rb);
        __syncthreads();
#pragma unroll
        for (int ks = 0; ks < BK / 16; ++ks) {
            uint32_t a[FM][FR], b[FN][FR];
#pragma unroll
            for (int i = 0; i < FM; ++i)
                load_a<T, A_ROW>(a[i], sA + LayoutA::offset(at.warp_m0 + 16 * i, 16 * ks), LDM_A);
#pragma unroll
            for (int j = 0; j < FN; ++j)
                load_b<T, B_ROW>(b[j], sB + LayoutB::offset(at.warp_n0 + 16 * j, 16 * ks), LDM_B);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j) mma<T, A_ROW, B_ROW>(acc[i][j], a[i], b[j]);
        }
        __syncthreads();
    }

    // Epilogue: the operand tiles are free (the loop ended on a barrier). Each warp moves one
    // 16x16 fragment at a time through its own 16 x LDP patch.
    float* const patch = reinterpret_cast<float*>(dynamic_smem()) + at.warp * 16 * LDP;
    const bool vec_ok = c_rows_16B_aligned(C, ldc);
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) {
            wmma_store_d_f32(patch, acc[i][j], LDP);
            __syncwarp();
            store_patch<TC, LDP>(C, ldc, M, N, at.m0 + at.warp_m0 + 16 * i, at.n0 + at.warp_n0 + 16 * j, patch,
                                 at.lane, vec_ok);
            __syncwarp();
        }
}
