// warpgemm/kernels/arch/sm70.cuh -- inline-PTX wrappers for instructions every supported GPU has
// (Volta, sm_70, and later): address conversion, volatile shared loads, special registers, wmma
// with fp16 operands, and Volta's mma.m8n8k4.
//
// One wrapper per instruction, named as warpgemm.layout names the atom where it has one (CuTe's
// names: SM70_8x8x4_F16F16F16F16_TN). The arch headers build on each other, sm70 <- sm75 <- sm80
// (<- sm90 for the Hopper path); a kernel includes the newest one it needs, and that header
// refuses, with #error, a compile for an older target. Kernels never paste asm blocks of their
// own: if an instruction is missing, add a wrapper to the header of the arch that introduced it.
// No CUDA header is included, so NVRTC compiles these bare.
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
// Special registers
// ---------------------------------------------------------------------------------------------

// threadIdx.x read afresh where it is used: the compiler cannot keep it, or values derived from
// it, live in registers across a loop, as it may with threadIdx.x. For a rarely taken path in a
// register-bound loop.
__device__ __forceinline__ uint32_t reread_tid_x() {
    uint32_t t;
    asm volatile("mov.u32 %0, %%tid.x;\n" : "=r"(t));
    return t;
}

// The SM this thread runs on (%smid: 0 .. %nsmid - 1, not necessarily every number in between;
// it can change only if the block is preempted). For probes of the machine, such as which half
// of the L2 an SM reads through.
__device__ __forceinline__ uint32_t sm_id() {
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;\n" : "=r"(s));
    return s;
}

// ---------------------------------------------------------------------------------------------
// Volatile shared-memory loads from a 32-bit shared address (smem_u32)
// ---------------------------------------------------------------------------------------------
// For register-bound inner loops that read many small vectors from a few bases:
//   * pass base + constant: ptxas folds the constant into the instruction's offset, so each base
//     costs one register (through generic pointers the compiler may keep one address per load);
//   * ld.volatile: neither compiler fuses two adjacent narrow loads into one wider load, which
//     would keep both halves' registers live at once, nor drops or repeats a load. ptxas still
//     schedules them among the arithmetic.
// The "memory" clobber keeps each load between the barriers that publish and retire its data.

__device__ __forceinline__ float ld_volatile_shared_f32(uint32_t addr) {
    float v;
    asm volatile("ld.volatile.shared.f32 %0, [%1];\n" : "=f"(v) : "r"(addr) : "memory");
    return v;
}

__device__ __forceinline__ float2 ld_volatile_shared_v2_f32(uint32_t addr) {  // 8-byte aligned
    float2 v;
    asm volatile("ld.volatile.shared.v2.f32 {%0, %1}, [%2];\n"
                 : "=f"(v.x), "=f"(v.y) : "r"(addr) : "memory");
    return v;
}

// An 8-byte store to a 32-bit shared address (8-byte aligned).
__device__ __forceinline__ void st_shared_v2_f32(uint32_t addr, float x, float y) {
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" :: "r"(addr), "f"(x), "f"(y) : "memory");
}

__device__ __forceinline__ float4 ld_volatile_shared_v4_f32(uint32_t addr) {  // 16-byte aligned
    float4 v;
    asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr) : "memory");
    return v;
}

// Plain 4-byte loads and 16-byte stores at 32-bit shared addresses (a copy that moves bytes
// between two shared-memory layouts, sm90/transposing_copy.cuh). The "memory" clobber keeps them
// between the barriers around the copy.
__device__ __forceinline__ uint32_t ld_shared_u32(uint32_t addr) {
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];\n" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

__device__ __forceinline__ void st_shared_v4_u32(uint32_t addr, uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" :: "r"(addr), "r"(x), "r"(y), "r"(z), "r"(w)
                 : "memory");
}

// ---------------------------------------------------------------------------------------------
// Conversions of single 16-bit floats (pairs: arch/sm80.cuh)
// ---------------------------------------------------------------------------------------------

__device__ __forceinline__ float cvt_f32_f16(uint16_t h) {
    float f;
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(h));
    return f;
}

__device__ __forceinline__ uint16_t cvt_f16_f32(float f) {
    uint16_t h;
    asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(h) : "f"(f));
    return h;
}

// ---------------------------------------------------------------------------------------------
// Global loads with cache hints
// ---------------------------------------------------------------------------------------------

// 16 bytes through the read-only path, not kept in L1 (.L1::no_allocate): for data a block
// reads once and no other block of the same SM reads, such as a weight streamed by a GEMV.
__device__ __forceinline__ uint4 ld_global_nc_na_v4(const void* p) {
    uint4 v;
    asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

// 4 bytes cached in L2 only (.cg): for data other blocks of the same launch wrote (L1 would hold
// a stale copy).
__device__ __forceinline__ float ld_global_cg_f32(const float* p) {
    float v;
    asm volatile("ld.global.cg.f32 %0, [%1];\n" : "=f"(v) : "l"(p) : "memory");
    return v;
}

// The same for a 4-byte integer (split-K s32 partial sums).
__device__ __forceinline__ int32_t ld_global_cg_s32(const int32_t* p) {
    int32_t v;
    asm volatile("ld.global.cg.s32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// 16 bytes (four floats) cached in L2 only: the same, four at a time.
__device__ __forceinline__ float4 ld_global_cg_v4_f32(const float4* p) {
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];\n"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p) : "memory");
    return v;
}

// 16 bytes through the read-only path, cached in L1: for data many warps of a block read.
__device__ __forceinline__ uint4 ld_global_nc_v4(const void* p) {
    uint4 v;
    asm("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

// ---------------------------------------------------------------------------------------------
// wmma m16n16k16 with fp16 operands: warp-wide fragments whose register layout is opaque; `ldm`
// is the distance in elements between rows (ROW) or columns (!ROW) of the matrix in shared
// memory. Addresses must be 32-byte aligned, ldm a multiple of 8 elements (16-bit) or 4 (fp32).
// An f16 A/B fragment is 8 b32 registers, the fp32 accumulator 8. (bf16 wmma: arch/sm80.cuh.)
// ---------------------------------------------------------------------------------------------

template <bool ROW>
__device__ __forceinline__ void wmma_load_a_f16(uint32_t (&r)[8], const void* smem, int ldm) {
    if constexpr (ROW) {
        asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
                       "=r"(r[6]), "=r"(r[7]) : "r"(smem_u32(smem)), "r"(ldm));
    } else {
        asm volatile("wmma.load.a.sync.aligned.col.m16n16k16.shared.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
                       "=r"(r[6]), "=r"(r[7]) : "r"(smem_u32(smem)), "r"(ldm));
    }
}

template <bool ROW>
__device__ __forceinline__ void wmma_load_b_f16(uint32_t (&r)[8], const void* smem, int ldm) {
    if constexpr (ROW) {
        asm volatile("wmma.load.b.sync.aligned.row.m16n16k16.shared.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
                       "=r"(r[6]), "=r"(r[7]) : "r"(smem_u32(smem)), "r"(ldm));
    } else {
        asm volatile("wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 "
                     "{%0, %1, %2, %3, %4, %5, %6, %7}, [%8], %9;\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]),
                       "=r"(r[6]), "=r"(r[7]) : "r"(smem_u32(smem)), "r"(ldm));
    }
}

// D = A * B + D, fp16 inputs, fp32 accumulator; A_ROW / B_ROW must match the loads' layouts.
template <bool A_ROW, bool B_ROW>
__device__ __forceinline__ void wmma_mma_f16_f32(float (&d)[8], const uint32_t (&a)[8],
                                                 const uint32_t (&b)[8]) {
#define WG_WMMA_F16_F32(LAYOUTS)                                                                 \
    asm volatile("wmma.mma.sync.aligned." LAYOUTS ".m16n16k16.f32.f32 "                          \
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11, %12, %13, %14, %15}, "    \
                 "{%16, %17, %18, %19, %20, %21, %22, %23}, {%0, %1, %2, %3, %4, %5, %6, %7};\n" \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),      \
                   "+f"(d[6]), "+f"(d[7])                                                        \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), \
                   "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), \
                   "r"(b[6]), "r"(b[7]))
    if constexpr (A_ROW && B_ROW) WG_WMMA_F16_F32("row.row");
    else if constexpr (A_ROW) WG_WMMA_F16_F32("row.col");
    else if constexpr (B_ROW) WG_WMMA_F16_F32("col.row");
    else WG_WMMA_F16_F32("col.col");
#undef WG_WMMA_F16_F32
}

// Store an fp32 accumulator fragment to shared memory, row-major with `ldm` floats per row.
__device__ __forceinline__ void wmma_store_d_f32(void* smem, const float (&d)[8], int ldm) {
    asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 "
                 "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;\n"
                 :: "r"(smem_u32(smem)), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]), "f"(d[4]),
                    "f"(d[5]), "f"(d[6]), "f"(d[7]), "r"(ldm) : "memory");
}

// ---------------------------------------------------------------------------------------------
// Volta's mma.sync m8n8k4
// ---------------------------------------------------------------------------------------------

// D = A * B + D, m8n8k4, f16 inputs and f16 accumulator: four independent 8x8x4 products, one
// per quad-pair (lanes 4q..4q+3 and 16+4q..16+4q+3).
struct SM70_8x8x4_F16F16F16F16_TN {
    static __device__ __forceinline__ void fma(uint32_t (&d)[4], const uint32_t (&a)[2],
                                               const uint32_t (&b)[2]) {
        asm volatile(
            "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 "
            "{%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%0, %1, %2, %3};\n"
            : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
    }
};

}  // namespace wg
