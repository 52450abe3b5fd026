// warpgemm/kernels/arch/sm75.cuh -- inline-PTX wrappers for what Turing (sm_75) adds: ldmatrix.
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
#error "warpgemm: this kernel uses sm_75 instructions (ldmatrix); compile it for sm_75 or newer"
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

}  // namespace wg
