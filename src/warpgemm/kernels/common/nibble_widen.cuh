// warpgemm/kernels/common/nibble_widen.cuh -- eight 4-bit integers of a packed word widened to
// eight bytes in registers, three ALU instructions a word for u4 and seven for s4, with no
// byte permute (int4/05: packed int4 tiles fed to the 8-bit wgmma).
//
// A word w of a packed row holds 8 consecutive values of k, value i in bits 4i .. 4i + 3
// (warpgemm.int4's packing). Masking the low and the high nibble of each byte splits it into
//   lo = values 0, 2, 4, 6   (byte b of lo = value 2b)
//   hi = values 1, 3, 5, 7   (byte b of hi = value 2b + 1)
// which is not k order: byte position p = 4h + b of the pair (lo, hi) holds value 2b + h, the
// position -> value map (4,2):(2,1). A dot product does not care in which order its terms are
// added, as long as both operands use the same order, so the kernels widen A and B with this same
// function and never put the values back in order.
//
// Signed values: a nibble x (0..15 as bits) is the s4 value x - 16 [x >= 8]. Per byte,
// y = x ^ 8 is x + 8 (x < 8) or x - 8 (x >= 8), and (y + 0x78) ^ 0x80 = y - 8 modulo 256: the
// sum stays in 0x78 .. 0x87, so no carry crosses into the next byte, and flipping the top bit
// subtracts 0x80 without one. Both the mask and the first XOR fold into one LOP3.
#pragma once

#include "common/types.cuh"

namespace wg {

template <bool SIGNED>
__device__ __forceinline__ uint32_t widen4_bytes(uint32_t nibbles) {  // one nibble at the bottom of each byte
    if constexpr (SIGNED) return ((nibbles ^ 0x08080808u) + 0x78787878u) ^ 0x80808080u;
    else return nibbles;
}

// w's 8 values as bytes: lo = values 0, 2, 4, 6, hi = values 1, 3, 5, 7 (s8 or u8 by SIGNED).
template <bool SIGNED>
__device__ __forceinline__ void widen_nibbles(uint32_t w, uint32_t& lo, uint32_t& hi) {
    lo = widen4_bytes<SIGNED>(w & 0x0F0F0F0Fu);
    hi = widen4_bytes<SIGNED>((w >> 4) & 0x0F0F0F0Fu);
}

// w's 8 s4 values as bytes 16 times the values: each nibble moved to the top of its byte, where
// its sign bit is the byte's (lo = values 0, 2, 4, 6 as 16 * v, hi = values 1, 3, 5, 7 as 16 * v).
// Three operations a word instead of seven; a product of two such bytes is 256 times the
// product of the values, so sums over them are 256 times too large (int4/06 shifts them back).
__device__ __forceinline__ void widen_nibbles_high(uint32_t w, uint32_t& lo, uint32_t& hi) {
    lo = (w << 4) & 0xF0F0F0F0u;
    hi = w & 0xF0F0F0F0u;
}

}  // namespace wg
