// sgemm/07_cp_async.cu -- rung 07: cp.async copies global memory straight into shared memory,
// STAGES - 1 k-slices ahead of the one being computed.
//
// What this rung adds over rung 06 (the next slice staged through registers, two buffers):
//   * Slices are copied with cp.async (wg::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL): the copy engine
//     writes shared memory itself, so no registers hold a slice in flight, no shared stores are
//     issued, and a copy in flight never stalls the warp that issued it. Every copy is one
//     16-byte chunk, in every layout. A chunk that reaches past the matrix reads only its
//     `src_bytes` and zero-fills the rest; a chunk wholly outside reads nothing (src_bytes = 0,
//     from the operand's base).
//   * With no registers tied up in staging, more slices can be in flight: a ring of STAGES
//     shared slices. Slices 0 .. STAGES-2 are issued before the loop, one commit group each. At
//     slice t a thread waits until at most STAGES-2 of its groups are pending (slice t has
//     landed), passes the barrier (everyone's copies of slice t have landed, and everyone has
//     finished computing slice t-1), issues slice t + STAGES - 1 into the stage slice t-1 held,
//     commits it (an empty group past the last slice, so that group j always holds slice j),
//     and computes slice t. One barrier per slice, as in rungs 04-06.
//   * cp.async cannot transpose, so each operand keeps its global order in shared memory:
//       mn-contiguous (column-major A, row-major B): (MN,BK):(1,MN), read as in rungs 04-06:
//         per k-step, one float4 of 4 consecutive mn for each half of the split fragment.
//       k-contiguous (row-major A, column-major B): rows of BK + 4 floats plus 4 floats after
//         every 8 rows. A thread reads KV consecutive k of each of its TM (or TN) rows with one
//         vector load, KV k-steps of fragment at once: with KV = 4, 8 LDS.128 per 4 k-steps, the
//         same count as the mn-major read. KV is 4 when one operand is k-contiguous and 2 when
//         both are, so that the fragments and the 64 accumulators fit in 128 registers (with A
//         alone at KV = 4 there is no register to spare: see KV_A_ONLY in the kernel).
//     The padding makes the copies (each 8-lane phase writes one chunk of 8 consecutive rows)
//     and the fragment reads (one row per phase for A, 8 rows 4 apart for B) free of bank
//     conflicts, without permuting anything: every read is a fixed offset from one base.
//   * The inner loop is kept within 128 registers without spills: fragments are read from a
//     32-bit shared address plus a constant (wg::ld_volatile_shared_*), one address register per
//     operand, and no compiler fuses two k-pairs of a row into one load; when only B is
//     k-contiguous the loop is the mirror image of the one for row-major A. Slices that lie
//     inside the matrix are copied without checks; the others check every chunk, on a path that
//     works the thread's chunk out again from threadIdx.x instead of keeping it in registers.
// The per-thread tile is rung 06's: BK = 16, 256 threads, a 128 x 128 block tile, 8 x 8 per
// thread in 2 x 2 sub-tiles of 4 x 4.
//
// Requires sm_80+ (cp.async), A and B base pointers 16-byte aligned and lda, ldb multiples of 4
// floats (the host copies other inputs first), and STAGES x ((BM + BN) x (BK + 4) + (BM + BN) / 2)
// floats of dynamic shared memory. Correct for any M, N, K >= 1: chunks past the matrix are
// zero-filled, C stores are masked (16-byte only where C's rows are aligned).
#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "common/tile_io.cuh"
#include "common/ffma_tile.cuh"

namespace ffma_cp_async {

using wg::int64_t;
using wg::uint32_t;


// A k-contiguous (TILE_MN, BK) tile in shared memory: rows of BK + 4 floats, and 4 more floats
// after every group of 8 rows:
//   element (mn, k) at mn * (BK + 4) + 4 * (mn / 8) + k.
// Offsets are additive over whole groups of rows: offset(mn + 8j, k) = offset(mn, k) +
// offset(8j, 0), and a run of up to 4 floats of one row that starts at a multiple of its length
// stays aligned.
template <int TILE_MN, int BK>
struct SmemTileK {
    static constexpr int tile_mn = TILE_MN;
    static constexpr int bk = BK;
    static constexpr int ld = BK + 4;  // floats from one row to the next within a group of 8
    static constexpr int floats = TILE_MN * ld + 4 * (TILE_MN / 8);
    static_assert(BK % 4 == 0 && TILE_MN % 8 == 0, "BK must be a multiple of 4, BM and BN of 8");

    static __host__ __device__ constexpr int offset(int mn, int k) {
        return mn * ld + 4 * (mn / 8) + k;
    }
    // Whether offset(mn + rows, k) == offset(mn, k) + offset(rows, 0) for every mn and k.
    static __host__ __device__ constexpr bool additive(int rows) { return rows % 8 == 0; }
};

// An mn-contiguous (TILE_MN, BK) tile in shared memory, unpadded: (TILE_MN,BK):(1,TILE_MN).
template <int TILE_MN, int BK>
struct SmemTileMn {
    static constexpr int tile_mn = TILE_MN;
    static constexpr int bk = BK;
    static constexpr int ld = TILE_MN;  // floats from one k-row to the next
    static constexpr int floats = BK * ld;

    static __host__ __device__ constexpr int offset(int mn, int k) { return mn + k * ld; }
    static __host__ __device__ constexpr bool additive(int) { return true; }
};

// The shared tile of one stage of an operand: its global order (see the header).
template <bool K_CONTIG, int TILE_MN, int BK>
using StageTile = typename wg::pick<K_CONTIG, SmemTileK<TILE_MN, BK>,
                                     SmemTileMn<TILE_MN, BK>>::type;

// The cp.async copies of a (TILE_MN, BK) operand slice into its shared tile Smem, in 16-byte
// chunks along the operand's contiguous dimension. The slice is LINES lines of PER_LINE chunks
// (k-contiguous: TILE_MN rows of BK/4 chunks; mn-contiguous: BK k-rows of TILE_MN/4 chunks),
// cut into strips of S chunks, and chunk u of the slice (u = tid, tid + THREADS, ...: one per
// pass) is
//   k-contiguous  (S = 2, one 32-byte sector): row 8 * ((u / 16) % (LINES / 8)) + u % 8,
//                 chunk (u / 8) % 2 of strip (u / 16) / (LINES / 8)
//   mn-contiguous (S = 16, 256 bytes):        k-row (u / 16) % LINES,
//                 chunk u % 16 of strip (u / 16) / LINES
// A warp's copies then fill whole 32-byte sectors, each 8-lane phase writes 8 rows of one chunk
// (k-contiguous) or 128 contiguous bytes (mn-contiguous), and pass p's chunk lies a fixed step
// from pass 0's (along the same line at the defaults: the passes step from strip to strip).
// Slices are issued in order; `src` follows them.
template <bool K_CONTIG, int TILE_MN, int BK, int THREADS, class Smem>
struct AsyncSliceCopy {
    static_assert(Smem::tile_mn == TILE_MN && Smem::bk == BK, "shared tile shape mismatch");
    static constexpr int LINES = K_CONTIG ? TILE_MN : BK;
    static constexpr int PER_LINE = K_CONTIG ? BK / 4 : TILE_MN / 4;  // chunks per line
    static constexpr int S = K_CONTIG ? 2 : 16;                       // chunks per strip
    static constexpr int GROUPS = K_CONTIG ? LINES / 8 : LINES;       // 16-lane groups per strip
    static_assert(BK % 8 == 0 && TILE_MN % 64 == 0,
                  "a slice is copied in whole strips: BK a multiple of 8, BM and BN of 64");
    static_assert(THREADS % 16 == 0 &&
                  ((THREADS / 16) % GROUPS == 0 || GROUPS % (THREADS / 16) == 0),
                  "THREADS / 16 must divide, or be a multiple of, the 16-lane groups of a strip");
    static constexpr int UNITS = LINES * PER_LINE;
    static constexpr int PASSES = (UNITS + THREADS - 1) / THREADS;

    // Offset of pass p's chunk from pass 0's, in elements along mn and k.
    static __host__ __device__ constexpr int line_step(int p) {
        return (K_CONTIG ? 8 : 1) * ((p * (THREADS / 16)) % GROUPS);
    }
    static __host__ __device__ constexpr int along_step(int p) {
        return 4 * S * ((p * (THREADS / 16)) / GROUPS);
    }
    static __host__ __device__ constexpr int mn_step(int p) {
        return K_CONTIG ? line_step(p) : along_step(p);
    }
    static __host__ __device__ constexpr int k_step(int p) {
        return K_CONTIG ? along_step(p) : line_step(p);
    }

    int dst;           // pass 0's chunk in the shared tile (passes lie dst + Smem::offset(step)
                       // away: line steps are whole groups of 8 rows)
    const float* src;  // pass 0's chunk of the next slice to issue

    // Pass 0's chunk of thread tid, relative to the slice's corner.
    static __device__ __forceinline__ void chunk_of(int tid, int& mn, int& k) {
        const int group = (tid / 16) % GROUPS, strip = (tid / 16) / GROUPS;
        if constexpr (K_CONTIG) {
            mn = 8 * group + tid % 8;
            k = 4 * (S * strip + (tid / 8) % 2);
        } else {
            mn = 4 * (S * strip + tid % 16);
            k = group;
        }
    }

    // Whether thread tid has a chunk in pass p (always, when UNITS is a multiple of THREADS).
    static __device__ __forceinline__ bool has(int tid, int p) {
        return UNITS % THREADS == 0 || tid + p * THREADS < UNITS;
    }

    __device__ __forceinline__ AsyncSliceCopy(int tid, const float* X, int ld, int mn0) {
        int mn, k;
        chunk_of(tid, mn, k);
        dst = Smem::offset(mn, k);
        src = X + wg::operand_offset<K_CONTIG>(mn0 + mn, k, ld);
    }

    // Issue the copies of the next slice, whose corner is (mn0, k0) of the (MN, K) operand X,
    // into the shared tile s. `inside`: the slice lies wholly inside the matrix, and no chunk
    // needs a check. Otherwise a chunk that reaches past MN or K reads only the elements inside
    // and zero-fills the rest; that path works out the thread's chunk again from threadIdx.x
    // rather than keep it in registers through the main loop. Not committed or waited for here.
    __device__ __forceinline__ void issue(float* s, const float* __restrict__ X, int ld, int MN,
                                          int K, int mn0, int k0, bool inside) {
        if (inside) {
#pragma unroll
            for (int p = 0; p < PASSES; ++p) {
                if (!has(UNITS % THREADS == 0 ? 0 : wg::reread_tid_x(), p)) continue;
                wg::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy(s + dst + Smem::offset(mn_step(p), k_step(p)),
                                src + wg::operand_offset<K_CONTIG>(mn_step(p), k_step(p), ld));
            }
        } else {
            const int tid = wg::reread_tid_x();
            int mn, k;
            chunk_of(tid, mn, k);
            const int mn_left = MN - mn0 - mn, k_left = K - k0 - k;  // of pass 0's chunk
#pragma unroll
            for (int p = 0; p < PASSES; ++p) {
                if (!has(tid, p)) continue;
                // Elements of this chunk inside the matrix (<= 0: none; >= 4: all).
                int valid = K_CONTIG ? (mn_left > mn_step(p) ? k_left - k_step(p) : 0)
                                     : (k_left > k_step(p) ? mn_left - mn_step(p) : 0);
                valid = valid < 0 ? 0 : valid > 4 ? 4 : valid;
                const float* chunk =
                    src + wg::operand_offset<K_CONTIG>(mn_step(p), k_step(p), ld);
                wg::SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy(s + dst + Smem::offset(mn_step(p), k_step(p)),
                                valid > 0 ? chunk : X, 4 * valid);
            }
        }
        src += K_CONTIG ? static_cast<int64_t>(BK) : static_cast<int64_t>(BK) * ld;
    }
};

// N consecutive floats of shared memory at the 32-bit shared address `addr` (aligned to 4 * N
// bytes) into registers, in one vector load.
template <int N>
__device__ __forceinline__ void load_shared_run(float* dst, uint32_t addr) {
    static_assert(N == 1 || N == 2 || N == 4, "a shared run is 1, 2 or 4 floats");
    if constexpr (N == 4) {
        const float4 v = wg::ld_volatile_shared_v4_f32(addr);
        dst[0] = v.x; dst[1] = v.y; dst[2] = v.z; dst[3] = v.w;
    } else if constexpr (N == 2) {
        const float2 v = wg::ld_volatile_shared_v2_f32(addr);
        dst[0] = v.x; dst[1] = v.y;
    } else {
        dst[0] = wg::ld_volatile_shared_f32(addr);
    }
}

// Reads a thread's split fragments (see wg::SplitThreadGrid) of one operand for KV consecutive
// k-steps: f[kk][i] = element (row i of thread t's split fragment, k0 + kk) of the shared tile at
// 32-bit shared address s.
//   mn-major tile: per k-step, two vector loads of T/2 consecutive mn.
//   k-major tile: per row, one load of KV consecutive k. The T/2 rows of each half of the
//     fragment lie in one group of 8 rows, and the two halves TILE/2 rows apart.
// Every load is then s + (the thread's offset) + a compile-time byte offset, which ptxas folds
// into the instruction: one address register per slice and operand.
template <bool K_CONTIG, int T, int KV, class Smem>
struct FragmentReader {
    static constexpr int HALF = T / 2;
    static constexpr int UPPER = Smem::tile_mn / 2;  // first row of the upper half
    static_assert(KV == 1 || KV == 2 || KV == 4,
                  "KV (k-steps per fragment read) must be 1, 2 or 4");
    static_assert(Smem::bk % KV == 0, "BK must be a multiple of KV");
    static_assert(T % 4 == 0 && UPPER % T == 0,
                  "TM and TN must be multiples of 4 that divide BM/2 and BN/2");
    static_assert(!K_CONTIG || (8 % HALF == 0 && Smem::additive(UPPER)),
                  "each half of a split fragment must lie in one group of 8 rows of a k-major "
                  "tile: TM/2 and TN/2 must divide 8, BM/2 and BN/2 be multiples of 8");

    uint32_t lo;  // byte offset of element (first row of the lower half, k = 0)

    __device__ __forceinline__ explicit FragmentReader(int t) : lo(4 * Smem::offset(t * HALF, 0)) {}

    __device__ __forceinline__ void load(float (&f)[KV][T], uint32_t s, int k0) const {
        const uint32_t base = s + lo;
        constexpr int HI = 4 * Smem::offset(UPPER, 0);  // from the lower half to the upper
        if constexpr (K_CONTIG) {
#pragma unroll
            for (int i = 0; i < HALF; ++i) {
                const int at = 4 * Smem::offset(i, k0);  // row i of the half (same group of 8)
                float r[KV];
                load_shared_run<KV>(r, base + at);
#pragma unroll
                for (int kk = 0; kk < KV; ++kk) f[kk][i] = r[kk];
                load_shared_run<KV>(r, base + HI + at);
#pragma unroll
                for (int kk = 0; kk < KV; ++kk) f[kk][HALF + i] = r[kk];
            }
        } else {
#pragma unroll
            for (int kk = 0; kk < KV; ++kk) {
                const int at = 4 * Smem::offset(0, k0 + kk);
                load_shared_run<HALF>(f[kk], base + at);
                load_shared_run<HALF>(f[kk] + HALF, base + HI + at);
            }
        }
    }
};

// acc[i][j] += a[i] * b[j] (wg::outer_product_accumulate), or, when B_FIRST, the same products
// with the loop over B's values outside and B's value first in each FFMA: the mirror image of
// the default, for a B operand that plays the role A plays in the default (the k-major one).
template <bool B_FIRST, int TM, int TN>
__device__ __forceinline__ void outer_product(float (&acc)[TM][TN], const float (&a)[TM],
                                              const float (&b)[TN]) {
    if constexpr (B_FIRST) {
#pragma unroll
        for (int j = 0; j < TN; ++j)
#pragma unroll
            for (int i = 0; i < TM; ++i)
                acc[i][j] = __fmaf_rn(b[j], a[i], acc[i][j]);
    } else {
        wg::outer_product_accumulate(acc, a, b);
    }
}

}  // namespace ffma_cp_async

template <bool A_ROW, bool B_ROW, int BM, int BN, int BK, int TM, int TN, int STAGES>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), wg::ffma_min_blocks((BM / TM) * (BN / TN)))
sgemm_cp_async(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
               int M, int N, int K, int lda, int ldb, int ldc) {
    using namespace ffma_cp_async;
    using Block = wg::SplitTileBlock<BM, BN, TM, TN>;
    constexpr int TY = Block::TY, TX = Block::TX, THREADS = Block::THREADS;
    static_assert(STAGES >= 2, "the cp.async ring needs at least 2 stages");

    constexpr bool A_KC = A_ROW;   // A is k-contiguous when row-major
    constexpr bool B_KC = !B_ROW;  // B^T is k-contiguous when B is column-major
    // k-steps per fragment read of a k-contiguous operand (see the header). When A alone is
    // k-contiguous: 4 where the compiler fits that in 128 registers, 2 for NVRTC 13.5 and newer,
    // whose register allocation spills 32 bytes at 4 on sm_80 (4 is about 5% faster where it
    // fits: 40.7 against 38.6 TFLOP/s on an H100 at 4096^3 with NVRTC 13.0).
#if __CUDACC_VER_MAJOR__ > 13 || (__CUDACC_VER_MAJOR__ == 13 && __CUDACC_VER_MINOR__ >= 5)
    constexpr int KV_A_ONLY = 2;
#else
    constexpr int KV_A_ONLY = 4;
#endif
    constexpr int KV = A_KC && B_KC ? 2 : B_KC ? 4 : A_KC ? KV_A_ONLY : 1;
    // When only B is k-major, the inner loop is written as the mirror image of the one where
    // only A is: B's fragment read first and B's value outside (see outer_product).
    constexpr bool B_FIRST = B_KC && !A_KC;
    using SmemA = StageTile<A_KC, BM, BK>;
    using SmemB = StageTile<B_KC, BN, BK>;
    constexpr int STAGE_FLOATS = SmemA::floats + SmemB::floats;
    static_assert(SmemA::floats % 4 == 0 && SmemB::floats % 4 == 0,
                  "every tile must start 16-byte aligned");

    // STAGES x (A tile, B tile); the host provides at least STAGES * STAGE_FLOATS floats.
    extern __shared__ __align__(16) float smem[];
    float* const smem_end = smem + STAGES * STAGE_FLOATS;

    const int tid = threadIdx.x;
    const wg::SplitThreadGrid<TY, TX> thread(tid);
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    const int k_tiles = (K + BK - 1) / BK;
    const bool tile_inside = m0 + BM <= M && n0 + BN <= N;  // then only the K tail is checked

    AsyncSliceCopy<A_KC, BM, BK, THREADS, SmemA> a_copy(tid, A, lda, m0);
    AsyncSliceCopy<B_KC, BN, BK, THREADS, SmemB> b_copy(tid, B, ldb, n0);
    const FragmentReader<A_KC, TM, KV, SmemA> a_frag(thread.ty);
    const FragmentReader<B_KC, TN, KV, SmemB> b_frag(thread.tx);
    float acc[TM][TN] = {};

    // Prologue: slices 0 .. STAGES-2 into stages 0 .. STAGES-2, one commit group each (empty
    // past the last slice).
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) {
            float* stage = smem + s * STAGE_FLOATS;
            const int k0 = s * BK;
            const bool inside = tile_inside && k0 + BK <= K;
            a_copy.issue(stage, A, lda, M, K, m0, k0, inside);
            b_copy.issue(stage + SmemA::floats, B, ldb, N, K, n0, k0, inside);
        }
        wg::cp_async_commit();
    }

    const float* read_stage = smem;                           // holds slice t
    float* write_stage = smem + (STAGES - 1) * STAGE_FLOATS;  // receives slice t + STAGES - 1
    for (int t = 0; t < k_tiles; ++t) {
        // Groups committed so far: STAGES - 1 + t, group j holding slice j. Waiting until at
        // most STAGES - 2 are in flight completes groups 0 .. t.
        wg::cp_async_wait<STAGES - 2>();
        __syncthreads();  // slice t visible to all; slice t-1's stage no longer read by anyone
        if (t + STAGES - 1 < k_tiles) {
            const int k0 = (t + STAGES - 1) * BK;
            const bool inside = tile_inside && k0 + BK <= K;
            a_copy.issue(write_stage, A, lda, M, K, m0, k0, inside);
            b_copy.issue(write_stage + SmemA::floats, B, ldb, N, K, n0, k0, inside);
        }
        wg::cp_async_commit();

        const uint32_t As = wg::smem_u32(read_stage);
        const uint32_t Bs = As + 4 * SmemA::floats;
#pragma unroll
        for (int k0 = 0; k0 < BK; k0 += KV) {
            float a[KV][TM], b[KV][TN];
            if constexpr (B_FIRST) {
                b_frag.load(b, Bs, k0);
                a_frag.load(a, As, k0);
            } else {
                a_frag.load(a, As, k0);
                b_frag.load(b, Bs, k0);
            }
#pragma unroll
            for (int kk = 0; kk < KV; ++kk) outer_product<B_FIRST>(acc, a[kk], b[kk]);
        }
        read_stage = read_stage + STAGE_FLOATS == smem_end ? smem : read_stage + STAGE_FLOATS;
        write_stage = write_stage + STAGE_FLOATS == smem_end ? smem : write_stage + STAGE_FLOATS;
    }

    wg::store_split_tile<BM, BN>(C, ldc, M, N, m0, n0, thread.ty, thread.tx, acc);
}
