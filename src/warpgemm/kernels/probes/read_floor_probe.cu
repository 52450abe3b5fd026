// probes/read_floor_probe.cu -- how fast can any kernel read a buffer once: the floor under a
// decode GEMM, which is a single pass over its weight.
//
// The kernel reads `bytes` (a multiple of 16) with 16-byte read-only loads that bypass L1 (the
// decode kernels' load), UNROLL of them in flight a thread, and does nothing with the data but
// fold it into one word, written only if it equals a value no buffer of random bf16 gives (so the
// loads cannot be dropped and nothing is written). Two orders:
//   ORDER 0, grid-stride: at every step the whole grid reads one contiguous stretch of
//            gridDim.x * THREADS * UNROLL vectors;
//   ORDER 1, a contiguous slice a block: block b reads bytes [b, b + 1) * bytes / gridDim.x;
//   ORDER 2, a row a warp: the buffer is rows of `row_bytes`, warp w of the grid reads rows w,
//            w + (the grid's warps), ..., each lane 16 bytes of every 512 in turn;
//   ORDER 3, the split-K decode kernel's walk (sm80/swap_ab_splitk.cuh, one row group): block b
//            owns rows 16b .. 16b + 15 (launch rows / 16 blocks); with SEGS = 1, lane (g, t)
//            reads 16 bytes at 64 c + 16 t of rows g and g + 8 for k chunks c = warp, warp +
//            WARPS, ..., UNROLL chunks in flight, the walk started at band b % STAGGER of
//            STAGGER. With SEGS = 2, 4 or 8, one load reads 64 SEGS contiguous bytes of each of
//            8 / SEGS rows (lane (g, t): row g / SEGS, piece g % SEGS), and the warps take the
//            block's 16 rows in SEGS sets of 16 / SEGS.
// With L2_256B the loads ask L2 for the whole 256-byte block. On sm_90 it waits for the grid before
// it and lets the next one launch, as the decode kernels do, so that it can be launched as a
// programmatic dependent launch.
//
// Launch with any grid of THREADS-thread blocks (ORDER 3: rows / 16 of them). `never` receives a word only on a 2^-32 chance.
#include "common/util.cuh"
#include "arch/sm75.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "arch/sm90.cuh"
#endif

template <int UNROLL, int L2_256B>
__device__ __forceinline__ unsigned fold_loads(const uint4* const (&at)[UNROLL], const bool (&ok)[UNROLL]) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
        v[u] = ok[u] ? (L2_256B ? wg::ld_global_nc_na_l2_256_v4(at[u]) : wg::ld_global_nc_na_v4(at[u]))
                     : make_uint4(0u, 0u, 0u, 0u);
    unsigned fold = 0u;
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) fold += v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    return fold;
}

template <int THREADS, int UNROLL, int ORDER, int L2_256B, int STAGGER = 1, int SEGS = 1>
__global__ void __launch_bounds__(THREADS) read_floor_probe(const uint4* __restrict__ src, long long vectors,
                                                            long long row_bytes, unsigned* never) {
    static_assert(UNROLL >= 1 && UNROLL <= 16, "UNROLL: 1 to 16 loads in flight a thread");
    static_assert(ORDER >= 0 && ORDER <= 3, "ORDER: 0 grid-stride, 1 a slice a block, 2 a row a warp, "
                                            "3 the split-K decode kernel's walk");
    static_assert(THREADS % 32 == 0, "THREADS: whole warps");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    wg::griddepcontrol_wait();
    wg::griddepcontrol_launch_dependents();
#endif
    const long long row_vecs = row_bytes / 16;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if constexpr (ORDER == 2) {
        const long long warps = static_cast<long long>(gridDim.x) * (THREADS / 32);
        unsigned fold = 0u;
        for (long long r = static_cast<long long>(blockIdx.x) * (THREADS / 32) + warp; r * row_vecs < vectors; r += warps) {
            const uint4* row = src + r * row_vecs;
            for (long long j = lane; j < row_vecs; j += 32 * UNROLL) {
                const uint4* at[UNROLL];
                bool ok[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; ++u) at[u] = row + j + 32 * u, ok[u] = j + 32 * u < row_vecs;
                fold += fold_loads<UNROLL, L2_256B>(at, ok);
            }
        }
        if (fold == 0x9E3779B9u) never[0] = fold;
        return;
    } else if constexpr (ORDER == 3) {
        constexpr int WARPS = THREADS / 32;
        static_assert(SEGS == 1 || SEGS == 2 || SEGS == 4 || SEGS == 8, "SEGS: 1, 2, 4 or 8 row pieces a load");
        // Lane (g, t) reads piece g % SEGS of row g / SEGS of the load's 8 / SEGS rows.
        const int g = lane / 4, t = lane % 4;
        const int units = static_cast<int>(row_vecs / 4);  // (row set, chunk of 64 SEGS bytes) pairs
        const int chunks = units / SEGS;
        const uint4* lo = src + (16LL * blockIdx.x + g / SEGS) * row_vecs + 4 * (g % SEGS) + t;
        const uint4* hi = lo + (8 / SEGS) * row_vecs;
        const wg::StaggeredWalk chunk_at(static_cast<int>(blockIdx.x % STAGGER), STAGGER, chunks);
        unsigned fold = 0u;
        for (int c0 = warp; c0 < units; c0 += WARPS * UNROLL) {
            const uint4* at[2 * UNROLL];
            bool ok[2 * UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                const int c = c0 + u * WARPS;
                const long long off = (c % SEGS) * (16 / SEGS) * row_vecs + 4LL * SEGS * chunk_at(c / SEGS);
                ok[2 * u] = ok[2 * u + 1] = c < units;
                at[2 * u] = lo + off;
                at[2 * u + 1] = hi + off;
            }
            fold += fold_loads<2 * UNROLL, L2_256B>(at, ok);
        }
        if (fold == 0x9E3779B9u) never[0] = fold;
        return;
    }
    long long begin, end, step;
    if constexpr (ORDER == 0) {
        begin = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
        end = vectors;
        step = static_cast<long long>(gridDim.x) * THREADS;
    } else {
        const long long per_block = (vectors + gridDim.x - 1) / gridDim.x;
        begin = static_cast<long long>(blockIdx.x) * per_block + threadIdx.x;
        end = min(vectors, static_cast<long long>(blockIdx.x + 1) * per_block);
        step = THREADS;
    }
    unsigned fold = 0u;
    for (long long i = begin; i < end; i += step * UNROLL) {
        const uint4* at[UNROLL];
        bool ok[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) at[u] = src + i + u * step, ok[u] = i + u * step < end;
        fold += fold_loads<UNROLL, L2_256B>(at, ok);
    }
    if (fold == 0x9E3779B9u) never[0] = fold;
}
