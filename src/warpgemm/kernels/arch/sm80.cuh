// warpgemm/kernels/arch/sm80.cuh -- inline-PTX wrappers for what Ampere (sm_80) adds: cp.async,
// the m16n8 mma.sync shapes for fp16, bf16, tf32 and the integer types (s8, s4, u4), bf16 wmma,
// and the conversions that feed them.
//
// The mma.sync forms are structs named after their CuTe MMA atoms, the names warpgemm.layout
// gives them (with the same (thread, value) layouts), each with one static `fma(d, a, b)`:
// D = A * B + D, A row-major ("T") and B column-major ("N") in the PTX sense. Each b32 of a and b
// packs elements adjacent in k, the lowest k in the lowest bits. With g = lane / 4, t = lane % 4,
// the fp16/bf16 m16n8k16 fragments are
//   a[0]=(g, 2t..2t+1)  a[1]=(g+8, 2t..)  a[2]=(g, 2t+8..)  a[3]=(g+8, 2t+8..)    A is 16x16 (m, k)
//   b[0]=(k=2t..2t+1, n=g)  b[1]=(k=2t+8..2t+9, n=g)                             B is 16x8  (k, n)
//   d[0]=(g, 2t) d[1]=(g, 2t+1) d[2]=(g+8, 2t) d[3]=(g+8, 2t+1)                  C is 16x8  (m, n)
// and `warpgemm explain mma NAME` draws any of them.
#pragma once

#include "arch/sm75.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "warpgemm: this kernel uses sm_80 instructions (cp.async, mma.sync m16n8k16); compile it for sm_80 or newer"
#endif

namespace wg {

// ---------------------------------------------------------------------------------------------
// cp.async: global -> shared copies that bypass the register file
// ---------------------------------------------------------------------------------------------

// 16 bytes, cached in L2 only (.cg); read only the first `src_bytes` (0..16) from global and
// zero-fill the rest. With src_bytes == 0 nothing is read, so `src` may point anywhere
// valid-looking (e.g. the base).
struct SM80_CP_ASYNC_CACHEGLOBAL_ZFILL {
    static __device__ __forceinline__ void copy(void* smem_dst, const void* gmem_src, int src_bytes = 16) {
        copy_to(smem_u32(smem_dst), gmem_src, src_bytes);
    }
    // The same to a 32-bit shared address.
    static __device__ __forceinline__ void copy_to(uint32_t smem_dst, const void* gmem_src, int src_bytes = 16) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                     :: "r"(smem_dst), "l"(gmem_src), "r"(src_bytes) : "memory");
    }
};

// 16 bytes that all exist, to a shared-window address (no bounds, no generic-to-shared
// conversion: the cheapest form, for tiles that lie wholly inside the matrix).
struct SM80_CP_ASYNC_CACHEGLOBAL {
    static __device__ __forceinline__ void copy(uint32_t smem_dst, const void* gmem_src) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem_dst), "l"(gmem_src) : "memory");
    }
};

// 4 bytes, cached in L1 and L2 (.ca), with zero-fill (src_bytes is 0 or 4). Used where a
// 16-byte vector is unavailable.
struct SM80_CP_ASYNC_CACHEALWAYS_ZFILL_4B {
    static __device__ __forceinline__ void copy(void* smem_dst, const void* gmem_src, int src_bytes = 4) {
        copy_to(smem_u32(smem_dst), gmem_src, src_bytes);
    }
    // The same to a 32-bit shared address.
    static __device__ __forceinline__ void copy_to(uint32_t smem_dst, const void* gmem_src, int src_bytes = 4) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                     :: "r"(smem_dst), "l"(gmem_src), "r"(src_bytes) : "memory");
    }
};

__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Wait until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
}

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

// Round an fp32 value to tf32 (round-to-nearest-away, as cuBLAS does); result kept in a b32.
__device__ __forceinline__ uint32_t cvt_tf32(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

// Two fp32 values rounded to nearest-even into one b32 of two 16-bit floats: `lo` in bits 0-15,
// `hi` in bits 16-31 (the PTX operand order is hi, lo).
__device__ __forceinline__ uint32_t cvt_f16x2(float lo, float hi) {
    uint32_t r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

__device__ __forceinline__ uint16_t cvt_bf16_f32(float f) {
    uint16_t h;
    asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(h) : "f"(f));
    return h;
}

__device__ __forceinline__ uint32_t cvt_bf16x2(float lo, float hi) {
    uint32_t r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

// ---------------------------------------------------------------------------------------------
// mma.sync atoms
// ---------------------------------------------------------------------------------------------

// m16n8k8, tf32 inputs, fp32 accumulator:
//   a[0]=(g, t)  a[1]=(g+8, t)  a[2]=(g, t+4)  a[3]=(g+8, t+4)       A is 16x8 (m, k)
//   b[0]=(k=t, n=g)  b[1]=(k=t+4, n=g)                                B is 8x8  (k, n)
struct SM80_16x8x8_F32TF32TF32F32_TN {
    static __device__ __forceinline__ void fma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k16, fp16 inputs, fp32 accumulator.
struct SM80_16x8x16_F32F16F16F32_TN {
    static __device__ __forceinline__ void fma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k16, bf16 inputs, fp32 accumulator.
struct SM80_16x8x16_F32BF16BF16F32_TN {
    static __device__ __forceinline__ void fma(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k16, fp16 inputs, fp16 accumulator: d[0] = (g, 2t..2t+1), d[1] = (g+8, 2t..2t+1) as f16x2.
struct SM80_16x8x16_F16F16F16F16_TN {
    static __device__ __forceinline__ void fma(uint32_t (&d)[2], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
            "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
            : "+r"(d[0]), "+r"(d[1])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k32, s8 inputs (4 per b32), s32 accumulator.
struct SM80_16x8x32_S32S8S8S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k64, s4 inputs (8 per b32), s32 accumulator (emulated on sm_90: Hopper has no int4
// tensor cores):
//   a[0]=(g, 8t..8t+7)  a[1]=(g+8, 8t..)  a[2]=(g, 8t+32..)  a[3]=(g+8, 8t+32..)   A is 16x64 (m, k)
//   b[0]=(k=8t..8t+7, n=g)  b[1]=(k=8t+32..8t+39, n=g)                            B is 64x8  (k, n)
// (The m8n8k32 s4/u4 atoms and the sub-byte wmma are sm_75's: arch/sm75.cuh.)
struct SM80_16x8x64_S32S4S4S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k64, u4 inputs (8 per b32, 0..15), s32 accumulator: the fragments of the s4 atom above.
struct SM80_16x8x64_S32U4U4S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32 "
            "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
};

// m16n8k32, s4 inputs (8 per b32), s32 accumulator (emulated on sm_90), with g = lane / 4 and
// t = lane % 4:
//   a[0]=(g, 8t..8t+7)  a[1]=(g+8, 8t..8t+7)                         A is 16x32 (m, k)
//   b[0]=(k=8t..8t+7, n=g)                                            B is 32x8  (k, n)
struct SM80_16x8x32_S32S4S4S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[4], const uint32_t (&a)[2], const uint32_t (&b)[1]) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 "
            "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    }
};

// m16n8k32, u4 inputs, s32 accumulator: the fragments of the s4 atom above.
struct SM80_16x8x32_S32U4U4S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[4], const uint32_t (&a)[2], const uint32_t (&b)[1]) {
        asm volatile(
            "mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32 "
            "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    }
};

// ---------------------------------------------------------------------------------------------
// wmma m16n16k16 with bf16 operands (fp16: arch/sm70.cuh). A bf16 A/B fragment is 4 b32.
// ---------------------------------------------------------------------------------------------

template <bool ROW>
__device__ __forceinline__ void wmma_load_a_bf16(uint32_t (&r)[4], const void* smem, int ldm) {
    if constexpr (ROW) {
        asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(smem)), "r"(ldm));
    } else {
        asm volatile("wmma.load.a.sync.aligned.col.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(smem)), "r"(ldm));
    }
}

template <bool ROW>
__device__ __forceinline__ void wmma_load_b_bf16(uint32_t (&r)[4], const void* smem, int ldm) {
    if constexpr (ROW) {
        asm volatile("wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(smem)), "r"(ldm));
    } else {
        asm volatile("wmma.load.b.sync.aligned.col.m16n16k16.shared.bf16 {%0, %1, %2, %3}, [%4], %5;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(smem)), "r"(ldm));
    }
}

template <bool A_ROW, bool B_ROW>
__device__ __forceinline__ void wmma_mma_bf16_f32(float (&d)[8], const uint32_t (&a)[4],
                                                  const uint32_t (&b)[4]) {
#define WG_WMMA_BF16_F32(LAYOUTS)                                                                \
    asm volatile("wmma.mma.sync.aligned." LAYOUTS ".m16n16k16.f32.bf16.bf16.f32 "                \
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, "  \
                 "{%0, %1, %2, %3, %4, %5, %6, %7};\n"                                           \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),      \
                   "+f"(d[6]), "+f"(d[7])                                                        \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), \
                   "r"(b[3]))
    if constexpr (A_ROW && B_ROW) WG_WMMA_BF16_F32("row.row");
    else if constexpr (A_ROW) WG_WMMA_BF16_F32("row.col");
    else if constexpr (B_ROW) WG_WMMA_BF16_F32("col.row");
    else WG_WMMA_BF16_F32("col.col");
#undef WG_WMMA_BF16_F32
}

}  // namespace wg
