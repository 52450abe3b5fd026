// sgemm/07_cp_async.cu -- rung 07: cp.async copies global memory straight into shared memory,
// and the registers it frees double-buffer the fragments.
//
// What this rung adds over rung 06 (slices staged through registers):
//   * Slices are copied with cp.async (wg::cp_async_16, wg::cp_async_4): the copy engine writes
//     shared memory itself, so no registers hold the next slice, no shared stores are issued,
//     and a copy in flight never stalls the warp that issued it. The copies of slice t + 1 are
//     issued, as one commit group, before the FFMAs of slice t; the last k-step of slice t waits
//     for the group (cp.async.wait_group 0), then passes the barrier that publishes it.
//   * cp.async moves bytes as they are, it cannot transpose. An mn-contiguous operand
//     (column-major A, row-major B) goes in as 16-byte chunks, 4 consecutive mn at one k, as
//     rung 06 stored them. A k-contiguous operand (row-major A, column-major B) is transposed
//     one element at a time with 4-byte copies: a warp copies 8 consecutive k from each of 4
//     rows, which reads one 32-byte sector per row and, with k-rows of MN+4 floats, writes 32
//     distinct banks.
//   * Out-of-range data is zero-filled by the copy itself: a partial chunk reads only its
//     `src_bytes`, and a copy outside the matrix reads nothing (src_bytes = 0, with the
//     operand's base, always valid, as the source address).
//   * Fragments double-buffered in registers, paid for by the staging registers cp.async frees.
//     The fragments of k-step k + 1 are read from shared memory before the FFMAs of step k,
//     into the other half of frag_a[2][TM] / frag_b[2][TN]. That includes the step across
//     slices: the last k-step of slice t first waits for slice t + 1, passes the barrier and
//     reads its first fragments, and only then issues its own FFMAs, which cover the barrier
//     and those reads.
// Shared layout, split thread tile and the one barrier per slice are those of rungs 04-06: the
// idle buffer is refilled only after the barrier that ended the slice which last read it.
//
// Requires sm_80+ (cp.async), A and B base pointers 16-byte aligned and lda, ldb multiples of 4
// floats (the host copies other inputs first). Correct for any M, N, K >= 1; C stores are masked
// (16-byte only where C's rows are aligned).
#include "common/ptx.cuh"
#include "common/tile_io.cuh"
#include "common/ffma_tile.cuh"

// The cp.async copies of a (TILE_MN, BK) operand slice into an mn-major shared tile (layout
// Smem). Units are laid out over the threads by wg::SliceCover: 16-byte chunks of a k-row for an
// mn-contiguous operand, single floats in runs of 8 k for a k-contiguous one.
template <bool K_CONTIG, int TILE_MN, int BK, int THREADS, class Smem>
struct AsyncSliceCopy {
    static_assert(Smem::mn_stride == 1 && Smem::tile_mn == TILE_MN && Smem::bk == BK,
                  "slices are copied into an mn-major shared tile of the same shape");
    using Cover = wg::SliceCover<K_CONTIG, TILE_MN, BK, THREADS, K_CONTIG ? 1 : 4>;

    Cover cover;

    __device__ __forceinline__ explicit AsyncSliceCopy(int tid) : cover(tid) {}

    // Issue the copies of the slice whose corner is (mn0, k0) of the (MN, K) operand X into the
    // shared tile s. Not waited for here.
    __device__ __forceinline__ void issue(float* s, const float* __restrict__ X, int ld, int MN,
                                          int K, int mn0, int k0) const {
        const float* src0 = X + wg::operand_offset<K_CONTIG>(mn0 + cover.mn, k0 + cover.k, ld);
        float* dst0 = s + Smem::offset(cover.mn, cover.k);
        const int mn_left = MN - mn0 - cover.mn;
        const int k_left = K - k0 - cover.k;
#pragma unroll
        for (int p = 0; p < Cover::PASSES; ++p) {
            if (!cover.has(p)) continue;
            const int mn_in = mn_left - Cover::mn_step(p), k_in = k_left - Cover::k_step(p);
            const float* src =
                src0 + wg::operand_offset<K_CONTIG>(Cover::mn_step(p), Cover::k_step(p), ld);
            float* dst = dst0 + Smem::offset(Cover::mn_step(p), Cover::k_step(p));
            if constexpr (K_CONTIG) {
                // One float, transposed: element (mn, k) to shared (mn, k) of the mn-major tile.
                const bool inside = mn_in > 0 && k_in > 0;
                wg::cp_async_4(dst, inside ? src : X, inside ? 4 : 0);
            } else {
                // Four consecutive mn at one k, of which `valid` lie inside the matrix.
                const int valid = k_in > 0 ? (mn_in < 0 ? 0 : mn_in > 4 ? 4 : mn_in) : 0;
                wg::cp_async_16(dst, valid > 0 ? src : X, 4 * valid);
            }
        }
    }
};

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), wg::ffma_min_blocks((BM / TM) * (BN / TN)))
sgemm_cp_async(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
               int M, int N, int K, int lda, int ldb, int ldc) {
    constexpr int TY = BM / TM, TX = BN / TN, THREADS = TY * TX;
    static_assert(BM % TM == 0 && BN % TN == 0, "BM must be a multiple of TM and BN of TN");
    static_assert(THREADS % 32 == 0 && THREADS <= 1024,
                  "(BM/TM) * (BN/TN) threads must be whole warps, at most 1024");
    static_assert(TM % 4 == 0 && TN % 4 == 0,
                  "TM and TN must be multiples of 4: each half of a split fragment is a float2 "
                  "or float4 run");
    static_assert(BM % 16 == 0 && BN % 16 == 0 && BK % 8 == 0,
                  "slices move in 16-byte chunks and 8-element runs: BM, BN multiples of 16 and "
                  "BK of 8 (so BK is even and slice t+1's first fragments land in frag[0])");

    constexpr bool A_KC = A_ROW;   // A is k-contiguous when row-major
    constexpr bool B_KC = !B_ROW;  // B^T is k-contiguous when B is column-major
    using SmemA = wg::SmemTileMnMajor<BM, BK>;  // (BM,BK):(1,BM+4)
    using SmemB = wg::SmemTileMnMajor<BN, BK>;  // (BN,BK):(1,BN+4)
    static_assert(2 * (SmemA::floats + SmemB::floats) * 4 <= 48 * 1024,
                  "two buffers of both slices must fit in 48 KB of static shared memory");
    __shared__ __align__(16) float As[2][SmemA::floats];
    __shared__ __align__(16) float Bs[2][SmemB::floats];

    const int tid = threadIdx.x;
    const wg::SplitThreadGrid<TY, TX> thread(tid);
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int k_tiles = (K + BK - 1) / BK;

    const AsyncSliceCopy<A_KC, BM, BK, THREADS, SmemA> a_copy(tid);
    const AsyncSliceCopy<B_KC, BN, BK, THREADS, SmemB> b_copy(tid);
    float acc[TM][TN] = {};
    float frag_a[2][TM], frag_b[2][TN];

    // Prologue: slice 0 into buffer 0, and the fragments of its first k-step.
    a_copy.issue(As[0], A, lda, M, K, m0, 0);
    b_copy.issue(Bs[0], B, ldb, N, K, n0, 0);
    wg::cp_async_commit();
    wg::cp_async_wait<0>();
    __syncthreads();
    wg::load_split_fragment<TM, SmemA>(frag_a[0], As[0], thread.ty, 0);
    wg::load_split_fragment<TN, SmemB>(frag_b[0], Bs[0], thread.tx, 0);

    for (int t = 0; t < k_tiles; ++t) {
        const int cur = t & 1;
        const bool has_next = t + 1 < k_tiles;
        if (has_next) {  // lands in the other buffer while the FFMAs below run
            a_copy.issue(As[cur ^ 1], A, lda, M, K, m0, (t + 1) * BK);
            b_copy.issue(Bs[cur ^ 1], B, ldb, N, K, n0, (t + 1) * BK);
            wg::cp_async_commit();
        }
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const int f = k % 2;  // fragments of step k; step k + 1 goes into f ^ 1
            if (k + 1 < BK) {
                wg::load_split_fragment<TM, SmemA>(frag_a[f ^ 1], As[cur], thread.ty, k + 1);
                wg::load_split_fragment<TN, SmemB>(frag_b[f ^ 1], Bs[cur], thread.tx, k + 1);
            } else if (has_next) {
                wg::cp_async_wait<0>();  // this thread's copies of slice t + 1 have landed
                __syncthreads();         // ... and everyone else's
                wg::load_split_fragment<TM, SmemA>(frag_a[f ^ 1], As[cur ^ 1], thread.ty, 0);
                wg::load_split_fragment<TN, SmemB>(frag_b[f ^ 1], Bs[cur ^ 1], thread.tx, 0);
            }
            wg::outer_product_accumulate(acc, frag_a[f], frag_b[f]);
        }
    }

    wg::store_split_tile<BM, BN>(C, ldc, M, N, m0, n0, thread.ty, thread.tx, acc);
}
