// warpgemm/kernels/arch/sm75.cuh -- inline-PTX wrappers for what Turing (sm_75) adds: ldmatrix,
// the 4-bit integer mma.sync m8n8k32 and the sub-byte wmma m8n8k32.
//
// Each ldmatrix form is a struct named after its CuTe copy atom (warpgemm.layout.atoms gives the
// same names and their (thread, value) layouts): SM75_U32xN_LDSM_N reads N 8x8 matrices of b16
// as they are stored, SM75_U16x{2N}_LDSM_T transposes each on the way. Each lane supplies one
// 16-byte row address (lanes 8q..8q+7 the rows of matrix q), as a generic pointer into shared
// memory or as a 32-bit shared-window byte address (smem_u32): the second form is the one for a
// main loop that keeps its stage addresses as 32-bit integers and adds constant offsets to them.
#pragma once

#include "arch/sm70.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
#error "warpgemm: this kernel uses sm_75 instructions (ldmatrix, 4-bit mma); compile it for sm_75 or newer"
#endif

namespace wg {

// 16 bytes through the read-only path, not kept in L1 (.L1::no_allocate), with L2 asked to fetch
// the whole 256-byte block around it (.L2::256B, sm_75+): for a stream that other warps of the
// same launch read next to, such as a weight read 64 bytes per row per k chunk by a GEMV.
__device__ __forceinline__ uint4 ld_global_nc_na_l2_256_v4(const void* p) {
    uint4 v;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

struct SM75_U32x1_LDSM_N {
    static __device__ __forceinline__ void copy(uint32_t (&r)[1], uint32_t smem_row) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(smem_row));
    }
    static __device__ __forceinline__ void copy(uint32_t (&r)[1], const void* smem_row) {
        copy(r, smem_u32(smem_row));
    }
};

struct SM75_U32x2_LDSM_N {
    static __device__ __forceinline__ void copy(uint32_t (&r)[2], uint32_t smem_row) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(smem_row));
    }
    static __device__ __forceinline__ void copy(uint32_t (&r)[2], const void* smem_row) {
        copy(r, smem_u32(smem_row));
    }
};

struct SM75_U32x4_LDSM_N {
    static __device__ __forceinline__ void copy(uint32_t (&r)[4], uint32_t smem_row) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_row));
    }
    static __device__ __forceinline__ void copy(uint32_t (&r)[4], const void* smem_row) {
        copy(r, smem_u32(smem_row));
    }
};

struct SM75_U16x2_LDSM_T {
    static __device__ __forceinline__ void copy(uint32_t (&r)[1], uint32_t smem_row) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                     : "=r"(r[0]) : "r"(smem_row));
    }
    static __device__ __forceinline__ void copy(uint32_t (&r)[1], const void* smem_row) {
        copy(r, smem_u32(smem_row));
    }
};

struct SM75_U16x4_LDSM_T {
    static __device__ __forceinline__ void copy(uint32_t (&r)[2], uint32_t smem_row) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(smem_row));
    }
    static __device__ __forceinline__ void copy(uint32_t (&r)[2], const void* smem_row) {
        copy(r, smem_u32(smem_row));
    }
};

struct SM75_U16x8_LDSM_T {
    static __device__ __forceinline__ void copy(uint32_t (&r)[4], uint32_t smem_row) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_row));
    }
    static __device__ __forceinline__ void copy(uint32_t (&r)[4], const void* smem_row) {
        copy(r, smem_u32(smem_row));
    }
};

// ---------------------------------------------------------------------------------------------
// 4-bit integers (s4: -8..7, u4: 0..15), eight to a b32 with the lowest k in the lowest bits, s32
// accumulators. A and B must be both signed or both unsigned. Emulated by ptxas on sm_90 and later
// (no 4-bit tensor cores there): correct, slow.
// ---------------------------------------------------------------------------------------------

// mma.sync m8n8k32, s4 inputs. With g = lane / 4, t = lane % 4:
//   a[0]=(g, 8t..8t+7)         A is 8x32 (m, k)
//   b[0]=(k=8t..8t+7, n=g)     B is 32x8 (k, n)
//   d[0]=(g, 2t)  d[1]=(g, 2t+1)
// (CuTe files it with the sm_80 atoms, hence the name; PTX has it from sm_75.)
struct SM80_8x8x32_S32S4S4S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[2], const uint32_t (&a)[1], const uint32_t (&b)[1]) {
        asm volatile(
            "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
            : "+r"(d[0]), "+r"(d[1])
            : "r"(a[0]), "r"(b[0]));
    }
};

// mma.sync m8n8k32, u4 inputs: the fragments of the s4 atom above.
struct SM80_8x8x32_S32U4U4S32_TN {
    static __device__ __forceinline__ void fma(int32_t (&d)[2], const uint32_t (&a)[1], const uint32_t (&b)[1]) {
        asm volatile(
            "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
            : "+r"(d[0]), "+r"(d[1])
            : "r"(a[0]), "r"(b[0]));
    }
};

// wmma m8n8k32 with s4 (SIGNED) or u4 operands: A row-major and B column-major (the only layouts
// the sub-byte shapes have), one b32 fragment register each, two s32 accumulators. The fragments'
// contents are opaque: only these loads fill them and only wmma_store_d_m8n8k32_s32 reads them.
// `ldm` is the stride between rows (A) or columns (B) in 4-bit elements, a multiple of 32 (16
// bytes), and each row must start 16-byte aligned in shared memory.
template <bool SIGNED>
__device__ __forceinline__ void wmma_load_a_m8n8k32(uint32_t (&r)[1], uint32_t smem_row, int ldm) {
    if constexpr (SIGNED)
        asm volatile("wmma.load.a.sync.aligned.row.m8n8k32.shared.s4 {%0}, [%1], %2;\n"
                     : "=r"(r[0]) : "r"(smem_row), "r"(ldm));
    else
        asm volatile("wmma.load.a.sync.aligned.row.m8n8k32.shared.u4 {%0}, [%1], %2;\n"
                     : "=r"(r[0]) : "r"(smem_row), "r"(ldm));
}

template <bool SIGNED>
__device__ __forceinline__ void wmma_load_b_m8n8k32(uint32_t (&r)[1], uint32_t smem_col, int ldm) {
    if constexpr (SIGNED)
        asm volatile("wmma.load.b.sync.aligned.col.m8n8k32.shared.s4 {%0}, [%1], %2;\n"
                     : "=r"(r[0]) : "r"(smem_col), "r"(ldm));
    else
        asm volatile("wmma.load.b.sync.aligned.col.m8n8k32.shared.u4 {%0}, [%1], %2;\n"
                     : "=r"(r[0]) : "r"(smem_col), "r"(ldm));
}

// d = a * b + d.
template <bool SIGNED>
__device__ __forceinline__ void wmma_mma_m8n8k32(int32_t (&d)[2], const uint32_t (&a)[1], const uint32_t (&b)[1]) {
    if constexpr (SIGNED)
        asm volatile("wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                     : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(b[0]));
    else
        asm volatile("wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                     : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(b[0]));
}

// The 8x8 s32 accumulator tile, row-major, rows `ldm` elements apart (8-byte aligned rows).
__device__ __forceinline__ void wmma_store_d_m8n8k32_s32(uint32_t smem, const int32_t (&d)[2], int ldm) {
    asm volatile("wmma.store.d.sync.aligned.row.m8n8k32.shared.s32 [%0], {%1, %2}, %3;\n"
                 :: "r"(smem), "r"(d[0]), "r"(d[1]), "r"(ldm) : "memory");
}

}  // namespace wg
