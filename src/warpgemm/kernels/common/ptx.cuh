// warpgemm/kernels/common/ptx.cuh -- the one set of inline-PTX wrappers every kernel uses.
//
// Each wrapper is a small __device__ __forceinline__ function named after the instruction it
// issues. Kernels never paste asm blocks of their own: if an instruction is missing, add a
// wrapper here. The file includes no CUDA headers, so NVRTC compiles it bare.
#pragma once

#include "common/types.cuh"

namespace wg {

// ---------------------------------------------------------------------------------------------
// Address conversion
// ---------------------------------------------------------------------------------------------

// Generic pointer to a 32-bit shared-state-space address, as cp.async / ldmatrix expect.
__device__ __forceinline__ uint32_t smem_u32(const void* ptr) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

// ---------------------------------------------------------------------------------------------
// cp.async (sm_80+): global -> shared copies that bypass the register file
// ---------------------------------------------------------------------------------------------

// Copy 16 bytes; read only the first `src_bytes` (0..16) from global, zero-fill the rest.
// With src_bytes == 0 nothing is read, so `src` may point anywhere valid-looking (e.g. the base).
__device__ __forceinline__ void cp_async_16(void* smem_dst, const void* gmem_src, int src_bytes = 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :: "r"(smem_u32(smem_dst)), "l"(gmem_src), "r"(src_bytes) : "memory");
}

// Copy 4 bytes with zero-fill (src_bytes is 0 or 4). Used where a 16-byte vector is unavailable.
__device__ __forceinline__ void cp_async_4(void* smem_dst, const void* gmem_src, int src_bytes = 4) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                 :: "r"(smem_u32(smem_dst)), "l"(gmem_src), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Wait until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N) : "memory");
}

// ---------------------------------------------------------------------------------------------
// TF32 tensor cores
// ---------------------------------------------------------------------------------------------

// Round an fp32 value to tf32 (round-to-nearest-away, as cuBLAS does); result kept in a b32.
__device__ __forceinline__ uint32_t cvt_tf32(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

// D = A * B + D for one m16n8k8 tile, tf32 inputs, fp32 accumulator.
// Fragments (g = lane / 4, t = lane % 4):
//   a[0]=(g, t)  a[1]=(g+8, t)  a[2]=(g, t+4)  a[3]=(g+8, t+4)       A is 16x8 (m, k)
//   b[0]=(k=t, n=g)  b[1]=(k=t+4, n=g)                                B is 8x8  (k, n)
//   d[0]=(g, 2t) d[1]=(g, 2t+1) d[2]=(g+8, 2t) d[3]=(g+8, 2t+1)      C is 16x8 (m, n)
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4],
                                                 const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// ---------------------------------------------------------------------------------------------
// ldmatrix (sm_75+): each lane supplies one 16-byte row address; see warpgemm.layout for maps
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ void ldmatrix_x1(uint32_t (&r)[1], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"
                 : "=r"(r[0]) : "r"(smem_u32(smem_row)));
}

__device__ __forceinline__ void ldmatrix_x2(uint32_t (&r)[2], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(smem_u32(smem_row)));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(smem_row)));
}

__device__ __forceinline__ void ldmatrix_x1_trans(uint32_t (&r)[1], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                 : "=r"(r[0]) : "r"(smem_u32(smem_row)));
}

__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(smem_u32(smem_row)));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_u32(smem_row)));
}

}  // namespace wg
