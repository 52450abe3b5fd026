// warpgemm/kernels/arch/sm90.cuh -- inline-PTX wrappers for what Hopper (sm_90) adds: thread-block
// clusters, mbarrier transactions, TMA (cp.async.bulk.tensor), programmatic dependent launch
// (griddepcontrol), warpgroup MMA (wgmma), setmaxnreg and stmatrix. wgmma and setmaxnreg need
// the arch-specific target sm_90a.
//
// The TMA copies and the wgmma forms are structs named after their CuTe atoms
// (SM90_TMA_LOAD_2D, SM90_64x128x16_F32BF16BF16_SS, SM90_U32x4_STSM_N), one static function each.
// Shared-memory operands are 32-bit shared-window addresses (smem_u32), as PTX takes them.
#pragma once

#include "arch/sm80.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "warpgemm: this kernel uses sm_90 instructions (thread-block clusters, TMA, wgmma); compile it for sm_90a"
#endif

namespace wg {

// A TMA tensor map: 128 opaque bytes, 64-byte aligned, built on the host by
// cuTensorMapEncodeTiled (warpgemm.runtime.tensor_map) and passed by value as a
// `const __grid_constant__ TmaDescriptor` kernel parameter, whose address the TMA takes.
struct alignas(64) TmaDescriptor {
    uint64_t opaque[16];
};

// ---------------------------------------------------------------------------------------------
// Clusters
// ---------------------------------------------------------------------------------------------

// This block's rank in its thread-block cluster, and the number of blocks in the cluster.
__device__ __forceinline__ uint32_t cluster_ctarank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

__device__ __forceinline__ uint32_t cluster_nctarank() {
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));
    return r;
}

// Every thread of every block of the cluster arrives, then waits for all the others: the
// cluster-wide __syncthreads (with release / acquire ordering of shared memory).
__device__ __forceinline__ void cluster_arrive() {
    asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void cluster_wait() {
    asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// A barrier of `threads` threads (a multiple of 32) on hardware barrier `id` (1..15; 0 is
// __syncthreads'): lets some warpgroups synchronise without the others.
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;\n" :: "r"(id), "r"(threads) : "memory");
}

// Arrive on that barrier without waiting (bar.arrive): these threads let the ones that
// bar.sync on it go on once `threads` have arrived, and go on themselves at once.
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
    asm volatile("bar.arrive %0, %1;\n" :: "r"(id), "r"(threads) : "memory");
}

// The same barrier, returning to every thread whether `pred` was true in any of them
// (bar.red.or): how one thread's finding reaches its warpgroup without shared memory.
__device__ __forceinline__ bool named_barrier_or(int id, int threads, bool pred) {
    uint32_t any;
    asm volatile("{\n .reg .pred p, q;\n setp.ne.u32 p, %1, 0;\n bar.red.or.pred q, %2, %3, p;\n"
                 " selp.u32 %0, 1, 0, q;\n}\n"
                 : "=r"(any) : "r"(static_cast<uint32_t>(pred)), "r"(id), "r"(threads) : "memory");
    return any != 0;
}

// ---------------------------------------------------------------------------------------------
// mbarrier: a shared-memory barrier that counts arrivals and transaction bytes
// ---------------------------------------------------------------------------------------------

// Set up the barrier at `bar` (8 bytes of shared memory) to complete a phase after `count`
// arrivals (and whatever transaction bytes are announced).
__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" :: "r"(bar), "r"(count) : "memory");
}

// Make the initialised barriers visible to the async proxy (TMA) and to the cluster; follow it
// with __syncthreads (or a cluster barrier) before any thread uses them.
__device__ __forceinline__ void fence_mbarrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// One arrival.
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" :: "r"(bar) : "memory");
}

// One arrival on the barrier at the same shared-memory offset in block `cta_rank` of the cluster.
// The default semantics (release at CTA scope), as for a local arrival: the arrival only says
// that this block is done reading a stage, which the partner's TMA then overwrites. A
// `.release.cluster` arrival costs a cluster-scope memory fence each time (it showed as the top
// stall reason, `membar`, and halved rung 05's throughput).
__device__ __forceinline__ void mbarrier_arrive_cluster(uint32_t bar, uint32_t cta_rank) {
    asm volatile("{\n.reg .b32 remote;\n"
                 "mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n"
                 :: "r"(bar), "r"(cta_rank) : "memory");
}

// One arrival that also announces `bytes` of transactions (TMA copies) the phase must wait for.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" :: "r"(bar), "r"(bytes) : "memory");
}

// Whether the phase of parity `parity` (0, 1, 0, ...: the phase count's low bit) has completed.
// A fresh barrier is in phase 0, and counts the phase "before" it, parity 1, as complete.
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint32_t bar, uint32_t parity) {
    uint32_t done;
    asm volatile("{\n.reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    return done != 0;
}

// The same, the thread suspended for up to `suspend_ns` nanoseconds (a hint) while it waits: it
// resumes when the phase completes.
__device__ __forceinline__ bool mbarrier_try_wait_parity(uint32_t bar, uint32_t parity, uint32_t suspend_ns) {
    uint32_t done;
    asm volatile("{\n.reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
                 "selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(bar), "r"(parity), "r"(suspend_ns) : "memory");
    return done != 0;
}

// Wait until the phase of parity `parity` has completed. Each try_wait may suspend the thread for
// up to SUSPEND_NS (the hint; it resumes when the phase completes), where without the hint it
// returns after a system-dependent time and the loop spins. On an H100 the hint cut rung 06's
// branch-resolving stalls at 4096^3 from 1.00 to 0.22 per issue (ncu), and in six alternations of
// two processes (docs/results/mbarrier_hint_ab_h100.json) moved it from 0.981x to 0.988x cuBLAS
// there (176.2 us against 176.9 us) and from 0.981x to 0.985x at 4096 x 14336 x 4096; 8192^3 and
// 4096 x 2048 x 2048 within the runs' spread; the decode suite unchanged.
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
    constexpr uint32_t SUSPEND_NS = 10000000u;
    while (!mbarrier_try_wait_parity(bar, parity, SUSPEND_NS)) {
    }
}

// ---------------------------------------------------------------------------------------------
// Proxy fences: generic-proxy writes (st.shared, stmatrix) before the async proxy (TMA) reads
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void fence_proxy_async_shared() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// ---------------------------------------------------------------------------------------------
// TMA: cp.async.bulk.tensor. Coordinates are in elements, innermost dimension first. A box that
// reaches past the tensor reads zeros there (and counts their bytes); a store clips it.
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void prefetch_tensormap(const TmaDescriptor* map) {
    asm volatile("prefetch.tensormap [%0];\n" :: "l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// Load the box at (c0, c1) of `map` into shared memory at `dst`, completing its bytes on `bar`.
struct SM90_TMA_LOAD_2D {
    static __device__ __forceinline__ void copy(const TmaDescriptor* map, uint32_t bar, uint32_t dst,
                                                int c0, int c1) {
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                     "[%0], [%1, {%3, %4}], [%2];\n"
                     :: "r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
                     : "memory");
    }
};

// The same box, written at `dst` and completed on `bar` in every block of the cluster whose
// rank's bit is set in `cta_mask`.
struct SM90_TMA_LOAD_MULTICAST_2D {
    static __device__ __forceinline__ void copy(const TmaDescriptor* map, uint32_t bar, uint32_t dst,
                                                int c0, int c1, uint16_t cta_mask) {
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;\n"
                     :: "r"(dst), "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1),
                        "h"(cta_mask)
                     : "memory");
    }
};

// Store the box at (c0, c1) of `map` from shared memory at `src`, in the current bulk group.
struct SM90_TMA_STORE_2D {
    static __device__ __forceinline__ void copy(const TmaDescriptor* map, uint32_t src, int c0, int c1) {
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];\n"
                     :: "l"(reinterpret_cast<uint64_t>(map)), "r"(src), "r"(c0), "r"(c1) : "memory");
    }
};

__device__ __forceinline__ void tma_store_commit() {
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

// Wait until at most N bulk groups still read their shared-memory source.
template <int N>
__device__ __forceinline__ void tma_store_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;\n" :: "n"(N) : "memory");
}

// Wait until at most N bulk groups are incomplete (their writes done and visible).
template <int N>
__device__ __forceinline__ void tma_store_wait() {
    asm volatile("cp.async.bulk.wait_group %0;\n" :: "n"(N) : "memory");
}

// ---------------------------------------------------------------------------------------------
// Programmatic dependent launch: a grid launched with the programmatic-stream-serialization
// attribute may start while the grid before it in the stream is still running.
//   griddepcontrol.wait               waits until the grids this one depends on have completed and
//                                     their memory operations are visible; a no-op in a grid
//                                     launched without the attribute.
//   griddepcontrol.launch_dependents  lets the next grid (launched with the attribute) start once
//                                     every block of this one has issued it or exited.
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void griddepcontrol_wait() { asm volatile("griddepcontrol.wait;\n" ::: "memory"); }

__device__ __forceinline__ void griddepcontrol_launch_dependents() {
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}

// ---------------------------------------------------------------------------------------------
// Registers per thread of a warpgroup (setmaxnreg, sm_90a): the producer gives registers back,
// the consumers take them. The count is a multiple of 8 in 24..256.
// ---------------------------------------------------------------------------------------------

template <int REGS>
__device__ __forceinline__ void setmaxnreg_dec() {
    static_assert(REGS % 8 == 0 && REGS >= 24 && REGS <= 256, "setmaxnreg takes a multiple of 8 in 24..256");
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" :: "n"(REGS));
}

template <int REGS>
__device__ __forceinline__ void setmaxnreg_inc() {
    static_assert(REGS % 8 == 0 && REGS >= 24 && REGS <= 256, "setmaxnreg takes a multiple of 8 in 24..256");
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" :: "n"(REGS));
}

// ---------------------------------------------------------------------------------------------
// stmatrix: the inverse of ldmatrix, four 8x8 b16 matrices from registers to shared memory
// ---------------------------------------------------------------------------------------------

// Lane i gives the shared-memory row address of row i % 8 of matrix i / 8; register j holds the
// lane's two elements of matrix j (row lane / 4, columns 2 * (lane % 4) and + 1).
struct SM90_U32x4_STSM_N {
    static __device__ __forceinline__ void copy(const uint32_t (&r)[4], uint32_t smem_row) {
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                     :: "r"(smem_row), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
    }
};

// ---------------------------------------------------------------------------------------------
// wgmma: one warpgroup (four warps) multiplies A and B read from shared memory through 64-bit
// matrix descriptors (sm90/smem_operand.cuh builds them) into registers. Issue wgmma_fence before
// the first wgmma that touches accumulators written by other instructions, commit the batch,
// and wait for it before reading the accumulators or reusing the operands' shared memory.
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void wgmma_fence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit_group() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

// Wait until at most N committed wgmma groups are in flight.
template <int N>
__device__ __forceinline__ void wgmma_wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(N) : "memory");
}

// Tell the compiler that `d` is (about to be) written by in-flight wgmma: it must not move reads
// or writes of these registers across this point (emits nothing).
template <int R>
__device__ __forceinline__ void wgmma_fence_operand(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

template <int R>
__device__ __forceinline__ void wgmma_fence_operand(int32_t (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) asm volatile("" : "+r"(d[i])::"memory");
}

// The accumulator fragment of every m64nNk* form (fp32 or s32): thread (warp w, lane = 4g + t)
// holds d[4j + 2h + e] = D(16w + g + 8h, 8j + 2t + e), for j < N/8, h, e in {0, 1}; CuTe's
// ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)), warpgemm.layout's gmma_atom(...).layout_c_tv.

// ---- GENERATED by scripts/gen_wgmma_wrappers.py: wgmma atoms ----
// D (64 x 16) = A (64 x 16) * B (16 x 16) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x16x16_F32F16F16_SS {
    static constexpr int N = 16;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[8], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7"
                     "}, "
                     "%8, %9, p, 1, 1, %11, %12;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 32) = A (64 x 16) * B (16 x 32) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x32x16_F32F16F16_SS {
    static constexpr int N = 32;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[16], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                     "}, "
                     "%16, %17, p, 1, 1, %19, %20;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 40) = A (64 x 16) * B (16 x 40) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x40x16_F32F16F16_SS {
    static constexpr int N = 40;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[20], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %22, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n40k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19"
                     "}, "
                     "%20, %21, p, 1, 1, %23, %24;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 48) = A (64 x 16) * B (16 x 48) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x48x16_F32F16F16_SS {
    static constexpr int N = 48;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[24], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %26, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n48k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23"
                     "}, "
                     "%24, %25, p, 1, 1, %27, %28;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 56) = A (64 x 16) * B (16 x 56) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x56x16_F32F16F16_SS {
    static constexpr int N = 56;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[28], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %30, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n56k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27"
                     "}, "
                     "%28, %29, p, 1, 1, %31, %32;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 64) = A (64 x 16) * B (16 x 64) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x64x16_F32F16F16_SS {
    static constexpr int N = 64;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                     "}, "
                     "%32, %33, p, 1, 1, %35, %36;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 72) = A (64 x 16) * B (16 x 72) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x72x16_F32F16F16_SS {
    static constexpr int N = 72;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[36], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %38, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n72k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35"
                     "}, "
                     "%36, %37, p, 1, 1, %39, %40;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 80) = A (64 x 16) * B (16 x 80) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x80x16_F32F16F16_SS {
    static constexpr int N = 80;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[40], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n80k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39"
                     "}, "
                     "%40, %41, p, 1, 1, %43, %44;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 88) = A (64 x 16) * B (16 x 88) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x88x16_F32F16F16_SS {
    static constexpr int N = 88;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[44], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %46, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n88k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43"
                     "}, "
                     "%44, %45, p, 1, 1, %47, %48;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 96) = A (64 x 16) * B (16 x 96) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x96x16_F32F16F16_SS {
    static constexpr int N = 96;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[48], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47"
                     "}, "
                     "%48, %49, p, 1, 1, %51, %52;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 128) = A (64 x 16) * B (16 x 128) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x128x16_F32F16F16_SS {
    static constexpr int N = 128;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63"
                     "}, "
                     "%64, %65, p, 1, 1, %67, %68;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 144) = A (64 x 16) * B (16 x 144) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x144x16_F32F16F16_SS {
    static constexpr int N = 144;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[72], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n144k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71"
                     "}, "
                     "%72, %73, p, 1, 1, %75, %76;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 160) = A (64 x 16) * B (16 x 160) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x160x16_F32F16F16_SS {
    static constexpr int N = 160;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[80], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n160k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79"
                     "}, "
                     "%80, %81, p, 1, 1, %83, %84;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 176) = A (64 x 16) * B (16 x 176) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x176x16_F32F16F16_SS {
    static constexpr int N = 176;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[88], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n176k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87"
                     "}, "
                     "%88, %89, p, 1, 1, %91, %92;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 192) = A (64 x 16) * B (16 x 192) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x192x16_F32F16F16_SS {
    static constexpr int N = 192;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[96], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95"
                     "}, "
                     "%96, %97, p, 1, 1, %99, %100;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                       "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 256) = A (64 x 16) * B (16 x 256) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x256x16_F32F16F16_SS {
    static constexpr int N = 256;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "
                     "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
                     "%119, %120, %121, %122, %123, %124, %125, %126, %127"
                     "}, "
                     "%128, %129, p, 1, 1, %131, %132;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                       "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                       "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]),
                       "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]),
                       "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),
                       "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
                       "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),
                       "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
                       "+f"(d[126]), "+f"(d[127])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 16) = A (64 x 16) * B (16 x 16) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x16x16_F32BF16BF16_SS {
    static constexpr int N = 16;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[8], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7"
                     "}, "
                     "%8, %9, p, 1, 1, %11, %12;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 32) = A (64 x 16) * B (16 x 32) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x32x16_F32BF16BF16_SS {
    static constexpr int N = 32;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[16], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                     "}, "
                     "%16, %17, p, 1, 1, %19, %20;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 40) = A (64 x 16) * B (16 x 40) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x40x16_F32BF16BF16_SS {
    static constexpr int N = 40;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[20], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %22, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n40k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19"
                     "}, "
                     "%20, %21, p, 1, 1, %23, %24;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 48) = A (64 x 16) * B (16 x 48) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x48x16_F32BF16BF16_SS {
    static constexpr int N = 48;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[24], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %26, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n48k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23"
                     "}, "
                     "%24, %25, p, 1, 1, %27, %28;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 56) = A (64 x 16) * B (16 x 56) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x56x16_F32BF16BF16_SS {
    static constexpr int N = 56;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[28], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %30, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n56k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27"
                     "}, "
                     "%28, %29, p, 1, 1, %31, %32;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 64) = A (64 x 16) * B (16 x 64) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x64x16_F32BF16BF16_SS {
    static constexpr int N = 64;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                     "}, "
                     "%32, %33, p, 1, 1, %35, %36;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 72) = A (64 x 16) * B (16 x 72) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x72x16_F32BF16BF16_SS {
    static constexpr int N = 72;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[36], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %38, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n72k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35"
                     "}, "
                     "%36, %37, p, 1, 1, %39, %40;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 80) = A (64 x 16) * B (16 x 80) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x80x16_F32BF16BF16_SS {
    static constexpr int N = 80;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[40], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n80k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39"
                     "}, "
                     "%40, %41, p, 1, 1, %43, %44;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 88) = A (64 x 16) * B (16 x 88) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x88x16_F32BF16BF16_SS {
    static constexpr int N = 88;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[44], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %46, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n88k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43"
                     "}, "
                     "%44, %45, p, 1, 1, %47, %48;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 96) = A (64 x 16) * B (16 x 96) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x96x16_F32BF16BF16_SS {
    static constexpr int N = 96;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[48], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47"
                     "}, "
                     "%48, %49, p, 1, 1, %51, %52;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 128) = A (64 x 16) * B (16 x 128) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x128x16_F32BF16BF16_SS {
    static constexpr int N = 128;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63"
                     "}, "
                     "%64, %65, p, 1, 1, %67, %68;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 144) = A (64 x 16) * B (16 x 144) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x144x16_F32BF16BF16_SS {
    static constexpr int N = 144;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[72], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n144k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71"
                     "}, "
                     "%72, %73, p, 1, 1, %75, %76;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 160) = A (64 x 16) * B (16 x 160) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x160x16_F32BF16BF16_SS {
    static constexpr int N = 160;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[80], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n160k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79"
                     "}, "
                     "%80, %81, p, 1, 1, %83, %84;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 176) = A (64 x 16) * B (16 x 176) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x176x16_F32BF16BF16_SS {
    static constexpr int N = 176;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[88], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87"
                     "}, "
                     "%88, %89, p, 1, 1, %91, %92;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 192) = A (64 x 16) * B (16 x 192) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x192x16_F32BF16BF16_SS {
    static constexpr int N = 192;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[96], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95"
                     "}, "
                     "%96, %97, p, 1, 1, %99, %100;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                       "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 256) = A (64 x 16) * B (16 x 256) + (scale_d ? D : 0), A and B in shared memory
// (descriptors); TRANS_A / TRANS_B = 1 reads that operand MN-major.
template <int TRANS_A, int TRANS_B>
struct SM90_64x256x16_F32BF16BF16_SS {
    static constexpr int N = 256;
    static constexpr int K = 16;
    static __device__ __forceinline__ void fma(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "
                     "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
                     "%119, %120, %121, %122, %123, %124, %125, %126, %127"
                     "}, "
                     "%128, %129, p, 1, 1, %131, %132;\n}\n"
                     :
                       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                       "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                       "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                       "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                       "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                       "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                       "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                       "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                       "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                       "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]),
                       "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]),
                       "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]),
                       "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
                       "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),
                       "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
                       "+f"(d[126]), "+f"(d[127])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B));
    }
};

// D (64 x 16) = A (64 x 32) * B (32 x 16) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x16x32_S32S8S8_SS {
    static constexpr int N = 16;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[8], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7"
                     "}, "
                     "%8, %9, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 16) = A (64 x 32) * B (32 x 16) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x16x32_S32S8S8_RS {
    static constexpr int N = 16;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[8], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7"
                     "}, "
                     "{%8, %9, %10, %11}, %12, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 32) = A (64 x 32) * B (32 x 32) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x32x32_S32S8S8_SS {
    static constexpr int N = 32;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[16], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                     "}, "
                     "%16, %17, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 32) = A (64 x 32) * B (32 x 32) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x32x32_S32S8S8_RS {
    static constexpr int N = 32;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[16], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                     "}, "
                     "{%16, %17, %18, %19}, %20, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 64) = A (64 x 32) * B (32 x 64) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x64x32_S32S8S8_SS {
    static constexpr int N = 64;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                     "}, "
                     "%32, %33, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 64) = A (64 x 32) * B (32 x 64) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x64x32_S32S8S8_RS {
    static constexpr int N = 64;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[32], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                     "}, "
                     "{%32, %33, %34, %35}, %36, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 96) = A (64 x 32) * B (32 x 96) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x96x32_S32S8S8_SS {
    static constexpr int N = 96;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[48], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47"
                     "}, "
                     "%48, %49, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 96) = A (64 x 32) * B (32 x 96) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x96x32_S32S8S8_RS {
    static constexpr int N = 96;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[48], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %53, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47"
                     "}, "
                     "{%48, %49, %50, %51}, %52, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 128) = A (64 x 32) * B (32 x 128) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x128x32_S32S8S8_SS {
    static constexpr int N = 128;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63"
                     "}, "
                     "%64, %65, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 128) = A (64 x 32) * B (32 x 128) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x128x32_S32S8S8_RS {
    static constexpr int N = 128;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[64], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63"
                     "}, "
                     "{%64, %65, %66, %67}, %68, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 192) = A (64 x 32) * B (32 x 192) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x192x32_S32S8S8_SS {
    static constexpr int N = 192;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[96], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95"
                     "}, "
                     "%96, %97, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 192) = A (64 x 32) * B (32 x 192) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x192x32_S32S8S8_RS {
    static constexpr int N = 192;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[96], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95"
                     "}, "
                     "{%96, %97, %98, %99}, %100, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 256) = A (64 x 32) * B (32 x 256) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x256x32_S32S8S8_SS {
    static constexpr int N = 256;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "
                     "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
                     "%119, %120, %121, %122, %123, %124, %125, %126, %127"
                     "}, "
                     "%128, %129, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
                       "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]),
                       "+r"(d[101]), "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]),
                       "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]),
                       "+r"(d[111]), "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]),
                       "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]), "+r"(d[120]),
                       "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]),
                       "+r"(d[126]), "+r"(d[127])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 256) = A (64 x 32) * B (32 x 256) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x256x32_S32S8S8_RS {
    static constexpr int N = 256;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[128], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "
                     "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
                     "%119, %120, %121, %122, %123, %124, %125, %126, %127"
                     "}, "
                     "{%128, %129, %130, %131}, %132, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
                       "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]),
                       "+r"(d[101]), "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]),
                       "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]),
                       "+r"(d[111]), "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]),
                       "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]), "+r"(d[120]),
                       "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]),
                       "+r"(d[126]), "+r"(d[127])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 16) = A (64 x 32) * B (32 x 16) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x16x32_S32U8U8_SS {
    static constexpr int N = 16;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[8], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7"
                     "}, "
                     "%8, %9, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 16) = A (64 x 32) * B (32 x 16) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x16x32_S32U8U8_RS {
    static constexpr int N = 16;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[8], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7"
                     "}, "
                     "{%8, %9, %10, %11}, %12, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 32) = A (64 x 32) * B (32 x 32) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x32x32_S32U8U8_SS {
    static constexpr int N = 32;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[16], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                     "}, "
                     "%16, %17, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 32) = A (64 x 32) * B (32 x 32) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x32x32_S32U8U8_RS {
    static constexpr int N = 32;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[16], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n32k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                     "}, "
                     "{%16, %17, %18, %19}, %20, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 64) = A (64 x 32) * B (32 x 64) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x64x32_S32U8U8_SS {
    static constexpr int N = 64;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                     "}, "
                     "%32, %33, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 64) = A (64 x 32) * B (32 x 64) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x64x32_S32U8U8_RS {
    static constexpr int N = 64;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[32], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                     "}, "
                     "{%32, %33, %34, %35}, %36, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 96) = A (64 x 32) * B (32 x 96) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x96x32_S32U8U8_SS {
    static constexpr int N = 96;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[48], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47"
                     "}, "
                     "%48, %49, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 96) = A (64 x 32) * B (32 x 96) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x96x32_S32U8U8_RS {
    static constexpr int N = 96;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[48], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %53, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n96k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47"
                     "}, "
                     "{%48, %49, %50, %51}, %52, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 128) = A (64 x 32) * B (32 x 128) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x128x32_S32U8U8_SS {
    static constexpr int N = 128;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63"
                     "}, "
                     "%64, %65, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 128) = A (64 x 32) * B (32 x 128) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x128x32_S32U8U8_RS {
    static constexpr int N = 128;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[64], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63"
                     "}, "
                     "{%64, %65, %66, %67}, %68, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 192) = A (64 x 32) * B (32 x 192) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x192x32_S32U8U8_SS {
    static constexpr int N = 192;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[96], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95"
                     "}, "
                     "%96, %97, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 192) = A (64 x 32) * B (32 x 192) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x192x32_S32U8U8_RS {
    static constexpr int N = 192;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[96], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n192k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95"
                     "}, "
                     "{%96, %97, %98, %99}, %100, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 256) = A (64 x 32) * B (32 x 256) + (scale_d ? D : 0), A and B K-major in shared
// memory (descriptors); 8-bit wgmma has no transposed form.
struct SM90_64x256x32_S32U8U8_SS {
    static constexpr int N = 256;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "
                     "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
                     "%119, %120, %121, %122, %123, %124, %125, %126, %127"
                     "}, "
                     "%128, %129, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
                       "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]),
                       "+r"(d[101]), "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]),
                       "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]),
                       "+r"(d[111]), "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]),
                       "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]), "+r"(d[120]),
                       "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]),
                       "+r"(d[126]), "+r"(d[127])
                     : "l"(desc_a), "l"(desc_b), "r"(scale_d));
    }
};

// D (64 x 256) = A (64 x 32) * B (32 x 256) + (scale_d ? D : 0), A in registers (each warp's 16
// rows as mma.sync m16n8k32's A fragment: rows g and g + 8, k 4t..4t+3 and 16+4t..16+4t+3), B
// K-major in shared memory (a descriptor). The registers must not change until the wgmma is done.
struct SM90_64x256x32_S32U8U8_RS {
    static constexpr int N = 256;
    static constexpr int K = 32;
    static __device__ __forceinline__ void fma(int32_t (&d)[128], const uint32_t (&a)[4], uint64_t desc_b,
                                               uint32_t scale_d) {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n256k32.s32.u8.u8 "
                     "{"
                     "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                     "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                     "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                     "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                     "%62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, "
                     "%77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, "
                     "%92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, "
                     "%106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, "
                     "%119, %120, %121, %122, %123, %124, %125, %126, %127"
                     "}, "
                     "{%128, %129, %130, %131}, %132, p;\n}\n"
                     :
                       "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                       "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                       "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                       "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                       "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                       "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                       "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                       "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                       "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                       "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                       "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                       "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                       "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                       "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                       "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                       "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
                       "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]),
                       "+r"(d[101]), "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]),
                       "+r"(d[106]), "+r"(d[107]), "+r"(d[108]), "+r"(d[109]), "+r"(d[110]),
                       "+r"(d[111]), "+r"(d[112]), "+r"(d[113]), "+r"(d[114]), "+r"(d[115]),
                       "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]), "+r"(d[120]),
                       "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]),
                       "+r"(d[126]), "+r"(d[127])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d));
    }
};

// Gmma<T, N, TRANS_A, TRANS_B>: the m64nNk* atom for inputs of type T (half_t, bf16_t, int8_t or
// uint8_t), with Acc its accumulator type, for kernels templated on the element type.
template <typename T, int N, int TRANS_A = 0, int TRANS_B = 0>
struct Gmma {
    static_assert(sizeof(T) == 0, "no wgmma wrapper for this element type and N: T is half_t or bf16_t with N in "
                                  "16, 32, 40, 48, 56, 64, 72, 80, 88, 96, 128, 144, 160, 176, 192, 256, "
                                  "or int8_t or uint8_t with N in 16, 32, 64, 96, 128, 192, 256");
};
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 16, TRANS_A, TRANS_B> : SM90_64x16x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 32, TRANS_A, TRANS_B> : SM90_64x32x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 40, TRANS_A, TRANS_B> : SM90_64x40x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 48, TRANS_A, TRANS_B> : SM90_64x48x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 56, TRANS_A, TRANS_B> : SM90_64x56x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 64, TRANS_A, TRANS_B> : SM90_64x64x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 72, TRANS_A, TRANS_B> : SM90_64x72x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 80, TRANS_A, TRANS_B> : SM90_64x80x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 88, TRANS_A, TRANS_B> : SM90_64x88x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 96, TRANS_A, TRANS_B> : SM90_64x96x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 128, TRANS_A, TRANS_B> : SM90_64x128x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 144, TRANS_A, TRANS_B> : SM90_64x144x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 160, TRANS_A, TRANS_B> : SM90_64x160x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 176, TRANS_A, TRANS_B> : SM90_64x176x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 192, TRANS_A, TRANS_B> : SM90_64x192x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<half_t, 256, TRANS_A, TRANS_B> : SM90_64x256x16_F32F16F16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 16, TRANS_A, TRANS_B> : SM90_64x16x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 32, TRANS_A, TRANS_B> : SM90_64x32x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 40, TRANS_A, TRANS_B> : SM90_64x40x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 48, TRANS_A, TRANS_B> : SM90_64x48x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 56, TRANS_A, TRANS_B> : SM90_64x56x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 64, TRANS_A, TRANS_B> : SM90_64x64x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 72, TRANS_A, TRANS_B> : SM90_64x72x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 80, TRANS_A, TRANS_B> : SM90_64x80x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 88, TRANS_A, TRANS_B> : SM90_64x88x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 96, TRANS_A, TRANS_B> : SM90_64x96x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 128, TRANS_A, TRANS_B> : SM90_64x128x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 144, TRANS_A, TRANS_B> : SM90_64x144x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 160, TRANS_A, TRANS_B> : SM90_64x160x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 176, TRANS_A, TRANS_B> : SM90_64x176x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 192, TRANS_A, TRANS_B> : SM90_64x192x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<bf16_t, 256, TRANS_A, TRANS_B> : SM90_64x256x16_F32BF16BF16_SS<TRANS_A, TRANS_B> { using Acc = float; };
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 16, TRANS_A, TRANS_B> : SM90_64x16x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 32, TRANS_A, TRANS_B> : SM90_64x32x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 64, TRANS_A, TRANS_B> : SM90_64x64x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 96, TRANS_A, TRANS_B> : SM90_64x96x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 128, TRANS_A, TRANS_B> : SM90_64x128x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 192, TRANS_A, TRANS_B> : SM90_64x192x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<int8_t, 256, TRANS_A, TRANS_B> : SM90_64x256x32_S32S8S8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 16, TRANS_A, TRANS_B> : SM90_64x16x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 32, TRANS_A, TRANS_B> : SM90_64x32x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 64, TRANS_A, TRANS_B> : SM90_64x64x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 96, TRANS_A, TRANS_B> : SM90_64x96x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 128, TRANS_A, TRANS_B> : SM90_64x128x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 192, TRANS_A, TRANS_B> : SM90_64x192x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
template <int TRANS_A, int TRANS_B>
struct Gmma<uint8_t, 256, TRANS_A, TRANS_B> : SM90_64x256x32_S32U8U8_SS {
    static_assert(TRANS_A == 0 && TRANS_B == 0, "8-bit wgmma reads K-major operands only");
    using Acc = int32_t;
};
// GmmaRegisterA<T, N>: the register-A m64nNk32 atom for 8-bit inputs of type T (int8_t or uint8_t).
template <typename T, int N>
struct GmmaRegisterA {
    static_assert(sizeof(T) == 0, "no register-A wgmma wrapper for this element type and N: T is int8_t or "
                                  "uint8_t and N one of the shapes scripts/gen_wgmma_wrappers.py writes");
};
template <>
struct GmmaRegisterA<int8_t, 16> : SM90_64x16x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<int8_t, 32> : SM90_64x32x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<int8_t, 64> : SM90_64x64x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<int8_t, 96> : SM90_64x96x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<int8_t, 128> : SM90_64x128x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<int8_t, 192> : SM90_64x192x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<int8_t, 256> : SM90_64x256x32_S32S8S8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 16> : SM90_64x16x32_S32U8U8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 32> : SM90_64x32x32_S32U8U8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 64> : SM90_64x64x32_S32U8U8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 96> : SM90_64x96x32_S32U8U8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 128> : SM90_64x128x32_S32U8U8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 192> : SM90_64x192x32_S32U8U8_RS { using Acc = int32_t; };
template <>
struct GmmaRegisterA<uint8_t, 256> : SM90_64x256x32_S32U8U8_RS { using Acc = int32_t; };
// ---- END GENERATED ----

}  // namespace wg
