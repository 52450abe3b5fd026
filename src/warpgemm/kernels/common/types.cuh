// warpgemm/kernels/common/types.cuh -- fixed-width integers and storage types, declared here so
// that no CUDA or system header is needed. NVRTC provides the built-in vector types (float4, ...).
#pragma once

namespace wg {

typedef unsigned char      uint8_t;
typedef signed char        int8_t;
typedef unsigned short     uint16_t;
typedef unsigned int       uint32_t;
typedef int                int32_t;
typedef unsigned long long uint64_t;
typedef long long          int64_t;

// 16-bit float storage types: bits only. Arithmetic happens in registers through PTX.
struct alignas(2) half_t { uint16_t bits; };
struct alignas(2) bf16_t { uint16_t bits; };

// Two 4-bit integers in a byte (warpgemm.int4's packing: element 2i in bits 0-3 of byte i, 2i+1 in
// bits 4-7), signed (s4, -8..7) or unsigned (u4, 0..15): the type names the signedness.
struct s4x2_t { uint8_t bits; };
struct u4x2_t { uint8_t bits; };

}  // namespace wg
