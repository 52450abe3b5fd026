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

// Copy 16 bytes that all exist, to a shared-window address (no bounds, no generic-to-shared
// conversion: the cheapest form, for tiles that lie wholly inside the matrix).
__device__ __forceinline__ void cp_async_16_full(uint32_t smem_dst, const void* gmem_src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(smem_dst), "l"(gmem_src) : "memory");
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

__device__ __forceinline__ float4 ld_volatile_shared_v4_f32(uint32_t addr) {  // 16-byte aligned
    float4 v;
    asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr) : "memory");
    return v;
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

__device__ __forceinline__ void ldmatrix_x1_trans(uint32_t (&r)[1], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
                 : "=r"(r[0]) : "r"(smem_u32(smem_row)));
}

__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], const void* smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(smem_u32(smem_row)));
}

// x4, plain and transposed, from a shared-window byte address (as smem_u32 returns): the form
// for a main loop that keeps its stage addresses as 32-bit integers and adds constant offsets to
// them. The pointer forms convert and call these.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_row));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t smem_row) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_row));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* smem_row) {
    ldmatrix_x4(r, smem_u32(smem_row));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void* smem_row) {
    ldmatrix_x4_trans(r, smem_u32(smem_row));
}

// ---------------------------------------------------------------------------------------------
// fp16 / bf16 tensor cores (sm_80+): mma.sync m16n8k16
// ---------------------------------------------------------------------------------------------

// Two fp32 values rounded to nearest-even into one b32 of two 16-bit floats: `lo` in bits 0-15,
// `hi` in bits 16-31 (the PTX operand order is hi, lo).
__device__ __forceinline__ uint32_t cvt_f16x2(float lo, float hi) {
    uint32_t r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

__device__ __forceinline__ uint32_t cvt_bf16x2(float lo, float hi) {
    uint32_t r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

// D = A * B + D for one m16n8k16 tile, 16-bit inputs, fp32 accumulator. Each b32 of a and b
// holds two elements adjacent in k (the lower k in bits 0-15). With g = lane / 4, t = lane % 4:
//   a[0]=(g, 2t..2t+1)  a[1]=(g+8, 2t..)  a[2]=(g, 2t+8..)  a[3]=(g+8, 2t+8..)    A is 16x16 (m, k)
//   b[0]=(k=2t..2t+1, n=g)  b[1]=(k=2t+8..2t+9, n=g)                             B is 16x8  (k, n)
//   d[0]=(g, 2t) d[1]=(g, 2t+1) d[2]=(g+8, 2t) d[3]=(g+8, 2t+1)                  C is 16x8  (m, n)
__device__ __forceinline__ void mma_m16n8k16_f16_f32(float (&d)[4], const uint32_t (&a)[4],
                                                     const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_m16n8k16_bf16_f32(float (&d)[4], const uint32_t (&a)[4],
                                                      const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// The same with an fp16 accumulator: d[0] = (g, 2t..2t+1), d[1] = (g+8, 2t..2t+1) as f16x2.
__device__ __forceinline__ void mma_m16n8k16_f16_f16(uint32_t (&d)[2], const uint32_t (&a)[4],
                                                     const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
        "{%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// ---------------------------------------------------------------------------------------------
// wmma m16n16k16 (fp16 sm_70+, bf16 sm_80+): warp-wide fragments whose register layout is
// opaque; `ldm` is the distance in elements between rows (ROW) or columns (!ROW) of the matrix
// in shared memory. Addresses must be 32-byte aligned, ldm a multiple of 8 elements (16-bit) or
// 4 (fp32). An f16 A/B fragment is 8 b32 registers, a bf16 one 4, the fp32 accumulator 8.
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

// Store an fp32 accumulator fragment to shared memory, row-major with `ldm` floats per row.
__device__ __forceinline__ void wmma_store_d_f32(void* smem, const float (&d)[8], int ldm) {
    asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 "
                 "[%0], {%1, %2, %3, %4, %5, %6, %7, %8}, %9;\n"
                 :: "r"(smem_u32(smem)), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]), "f"(d[4]),
                    "f"(d[5]), "f"(d[6]), "f"(d[7]), "r"(ldm) : "memory");
}

// ---------------------------------------------------------------------------------------------
// Integer tensor cores (sm_80+; s4 runs emulated on sm_90) and Volta's m8n8k4. Each b32 of a/b
// packs consecutive-k elements, the lowest k in the lowest bits; warpgemm.layout.atoms gives the
// (lane, value) -> (row, col) maps as CuTe TV layouts.
// ---------------------------------------------------------------------------------------------

// D = A * B + D, m16n8k32, s8 inputs (4 per b32), s32 accumulator.
__device__ __forceinline__ void mma_m16n8k32_s8(int32_t (&d)[4], const uint32_t (&a)[4],
                                                const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// D = A * B + D, m16n8k64, s4 inputs (8 per b32), s32 accumulator.
__device__ __forceinline__ void mma_m16n8k64_s4(int32_t (&d)[4], const uint32_t (&a)[4],
                                                const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// D = A * B + D, m8n8k32, s4 inputs (8 per b32), s32 accumulator.
__device__ __forceinline__ void mma_m8n8k32_s4(int32_t (&d)[2], const uint32_t (&a)[1],
                                               const uint32_t (&b)[1]) {
    asm volatile(
        "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(a[0]), "r"(b[0]));
}

// D = A * B + D, m8n8k4 (sm_70+), f16 inputs and f16 accumulator: four independent 8x8x4
// products, one per quad-pair (lanes 4q..4q+3 and 16+4q..16+4q+3).
__device__ __forceinline__ void mma_m8n8k4_f16_f16(uint32_t (&d)[4], const uint32_t (&a)[2],
                                                   const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 "
        "{%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%0, %1, %2, %3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
}

}  // namespace wg
