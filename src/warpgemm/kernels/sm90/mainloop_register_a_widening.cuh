// warpgemm/kernels/sm90/mainloop_register_a_widening.cuh -- the packed 4-bit main loop with A widened
// straight into registers (int4/06): the register-A form of the 8-bit wgmma reads A's fragment
// from registers, so only B goes through an 8-bit tile in shared memory.
//
// sm90/mainloop_widening.cuh (int4/05) widens both operands into shared memory. Per k-tile of a
// 128 x 256 tile that is 176 KB of shared-memory traffic against int8's 128 KB, and the profile
// of int4/05 shows shared memory, not the tensor pipe, setting the pace (74% busy, tensor pipe
// 55%). Here each consumer thread reads its rows' packed bytes of A and widens them in registers
// into the wgmma's A fragment: the A target tiles' stores (16 KB) and the wgmma's reads of them
// (16 KB) go, 144 KB a k-tile.
//
// The k order. B's widening is int4/05's: position P = 32 c + 16 h + 4 j + b of a target row holds
// value 32 c + 8 j + 2 b + h (sm90/widening_copy.cuh), so its 32-position k step s is packed
// chunk s (16 bytes) of the row: first the even values (lo, h = 0) of words j = 0..3, then their
// odd ones (hi, h = 1). A's fragment must hold the same values at the same positions. The
// register-A fragment of m64nNk32 is mma.sync m16n8k32's, per warp of the warpgroup: lane (g, t)
// holds rows g and g + 8 at positions 4t..4t+3 (registers a0, a1) and 16+4t..16+4t+3 (a2, a3):
// the low and the high nibbles of word j = t of the chunk. So lane (g, t) reads one word of chunk
// s of each of its rows and widens both halves of it: a 4-byte load for 2 registers.
//
// Bank conflicts. Lane (g, t) loads word t of chunk s of its two rows, two 4-byte loads a k step,
// 32 different words a warp. The packed A tile lands under TMA's 64-byte swizzle (the host encodes
// A's map with it; B's stays unswizzled for the row-contiguous widening copy): chunk q of row r
// sits at q ^ ((r / 2) % 4), so rows g = 0..7 put chunk s in 8 different 16-byte bank groups and
// each load is one wavefront. (Unswizzled, rows 64 bytes apart put rows g, g + 2, g + 4, g + 6 in
// the same banks: four wavefronts.) An earlier k order (the low and high nibbles of each word side
// by side) put a lane's 8 values in halves of two words: 16 loads a k-tile, each pair of lanes
// reading the same word, where this order needs 8.
//
// The loop. A wgmma reads its A registers while it runs, and ptxas serialises the wgmma (C7513)
// when a register a wgmma takes was written while an earlier wgmma was still running and that
// wgmma is still running when the new one issues. So each consumer, per k-tile kt (widened in the
// turn before: B into target slot kt % 2, A into register set kt % 2): waits for all of its wgmma
// (k-tile kt - 1's); meets the other consumer at a 256-thread barrier (B's slot kt % 2 is written
// by every warp, and every warp's wgmma of kt - 1 is done, so slot 1 - kt % 2 is free); issues
// k-tile kt's four register-A wgmma; and, while they run, widens k-tile kt + 1: its half of B
// into slot 1 - kt % 2 and its A rows into register set 1 - kt % 2, then hands the stage back.
// One barrier a k-tile; the tensor pipe drains at each one. (Keeping one wgmma group in flight
// across the barrier needs A widened two k-tiles ahead, three register sets: measured slower,
// 0.60x against 0.67x int8 for s4 at 8192^3 on an H100, the widening then on the issue path.)
//
// Registers. The block is launched with 168 a thread (384 threads, one block an SM), and
// setmaxnreg moves them between warpgroups; ptxas allocates each warpgroup's code up to its
// setmaxnreg count. A consumer holds the accumulators (BN / 2), A's two sets (32) and the
// widening's words: at BN = 256, 232 (the producer keeping 40) spills, so there the producer
// keeps the least setmaxnreg allows, 24 (its one thread issues TMA loads), and the consumers take
// 240. Per k-tile of a 128 x 256 tile the shared-memory traffic is 24 KB of TMA writes, 8 KB of
// A reads, 16 + 32 KB for B's widening and 64 KB of wgmma reads of B: 144 KB, 4.5 KB per 1024
// products of the tile's columns against 4.7 KB at 128 x 192.

// s4 in the high nibble. s4's sign extension costs seven operations a word (common/nibble_widen.cuh)
// against u4's three, and with shared memory no longer the limit that work set the pace: s4 ran
// at 0.67x the int8 kernel, u4 at 0.84x (H100, 8192^3). Here an s4 value is widened to 16 times
// itself instead, the nibble moved to the top of its byte, whose sign bit it then is: three
// operations a word for B (widen_nibbles_high), two for A's half-words. The products are 256 times
// the values', the s32 sums too, and the epilogue shifts them back exactly (ShiftedS32Epilogue,
// SUM_SHIFT = 8). The price is the bound: |16 a * 16 b| <= 16384, so the sums are exact only to
// K = 131071 (int8's bound), and the host refuses longer K for s4 (kernel="auto" takes int4/05
// there). u4 keeps the low-nibble form and its bound.
//
// Measured (H100, against the int8 kernel in the same rounds, s4 / u4): with 128 x 256 tiles, 6
// stages and the one-word A loads, 0.92x / 0.93x at 4096^3 and 0.95x / 0.94x at 8192^3 (128 x 192
// tiles: 0.86x / 0.85x and 0.91x / 0.90x; before the k order changed, 128 x 192 tiles made 0.81x
// and 0.85x, 128 x 256 ones 0.88-0.91x; int4/05: 0.73x-0.81x).
#pragma once

#include "sm90/mainloop_widening.cuh"

namespace wg {
namespace sm90 {

template <typename T, int BM, int BN, int BK, int STAGES>
struct RegisterAWideningMainloop : PackedPipeline<T, BM, BN, BK, STAGES> {
    using Base = PackedPipeline<T, BM, BN, BK, STAGES>;
    using typename Base::Acc;
    using typename Base::Smem;
    // s4: every value widened to 16 times itself (the nibble at the top of its byte), A and B alike,
    // so the sums are 256 times the true ones: SUM_SHIFT = 8 for the epilogue to shift back.
    static constexpr bool HIGH = Base::SIGNED;
    static constexpr int SUM_SHIFT = HIGH ? 8 : 0;
    using Copy = WideningCopy<Base::SIGNED, HIGH>;
    using typename Base::TargetB;
    using typename Base::Wide;
    using Atom = GmmaRegisterA<Wide, BN>;
    static constexpr int ACC = BN / 2;
    static constexpr int K_STEPS = BK / Atom::K;  // 4: one packed 16-byte chunk a step
    static constexpr int CONSUMERS = Base::CONSUMERS;
    static constexpr int TARGETS_AT = Base::TARGETS_AT;
    static constexpr int SMEM_BYTES = TARGETS_AT + 2 * TargetB::BYTES;
    static constexpr int BARRIER = Base::BARRIER;
    // Above 192 columns the consumers need more than 232 registers (see Registers above).
    static constexpr int PRODUCER_REGS = BN > 192 ? 24 : Base::PRODUCER_REGS;
    static constexpr int CONSUMER_REGS = BN > 192 ? 240 : Base::CONSUMER_REGS;
    static_assert(K_STEPS == 4, "a k-tile is 128 values: four k32 steps, one packed 16-byte chunk each");
    static_assert(SMEM_BYTES <= 227 * 1024, "the packed stages plus two 8-bit B tiles exceed 227 KB of shared "
                                            "memory: lower STAGES or BN");

    static __device__ __forceinline__ uint32_t target_b(int slot) {
        return Smem::base() + TARGETS_AT + slot * TargetB::BYTES;
    }

    // A's fragment of k-tile `stage` for this thread: rows 16 w + g and + 8 of the consumer's 64
    // (packed tile under the 64-byte swizzle, 64 bytes a row), as a[step][register].
    static __device__ __forceinline__ void widen_a(uint32_t packed_a, int consumer, uint32_t (&a)[K_STEPS][4]) {
        const int lane = threadIdx.x & 31;
        const int row = 64 * consumer + 16 * ((threadIdx.x >> 5) & 3) + (lane >> 2);
        const int t = lane & 3;
#pragma unroll
        for (int s = 0; s < K_STEPS; ++s)
#pragma unroll
            for (int h = 0; h < 2; ++h) {  // rows g and g + 8: the same swizzle, (r / 2) % 4
                // Word t of chunk s: one 4-byte load, one wavefront a warp.
                const uint32_t w = ld_shared_u32(packed_a + (row + 8 * h) * 64 + ((s ^ ((row >> 1) & 3)) << 4) + 4 * t);
                if constexpr (HIGH) {  // 16 * v: each nibble to the top of its byte
                    a[s][h] = (w << 4) & 0xF0F0F0F0u;
                    a[s][2 + h] = w & 0xF0F0F0F0u;
                } else {
                    a[s][h] = widen4_bytes<Base::SIGNED>(w & 0x0F0F0F0Fu);
                    a[s][2 + h] = widen4_bytes<Base::SIGNED>((w >> 4) & 0x0F0F0F0Fu);
                }
            }
    }

    // Widen k-tile `use`'s share for this consumer: its half of B into B's target slot SLOT, its A
    // rows into register set SLOT; then hand the stage back and fence the stores for wgmma.
    template <int SLOT>
    static __device__ __forceinline__ void widen(Cursor<STAGES>& use, uint32_t (&a)[2][K_STEPS][4], int consumer) {
        const Ring<STAGES> ring = Smem::ring();
        constexpr int B_ROWS = BN / CONSUMERS;  // rows of B each consumer widens
        ring.consumer_wait(use);
        // B's passes one load ahead of the stores: A's registers and the accumulators leave no room
        // for all of them at once.
        Copy::template copy_one_ahead<B_ROWS>(Smem::b(use.stage) + B_ROWS * consumer * PackedTile<BN>::ROW_BYTES,
                                              target_b(SLOT) + B_ROWS * consumer * TargetB::ROW_BYTES,
                                              threadIdx.x & 127);
        widen_a(Smem::a(use.stage), consumer, a[SLOT]);
        __syncwarp();
        if ((threadIdx.x & 31) == 0) ring.consumer_release(use.stage);  // both operands are in registers
        fence_proxy_async_shared();
        use.advance();
    }

    // K-tile kt (widened into slot SLOT = kt % 2 in the turn before): wait for k-tile kt - 1's
    // wgmma, meet the other consumer (B's slot SLOT is written, slot 1 - SLOT free in every warp),
    // issue k-tile kt's wgmma, and widen k-tile kt + 1 into slot 1 - SLOT behind it.
    template <int SLOT>
    static __device__ __forceinline__ void k_tile(Cursor<STAGES>& use, Acc (&acc)[ACC], uint32_t (&a)[2][K_STEPS][4],
                                                  int consumer, int kt, int k_tiles) {
        wgmma_wait_group<0>();
        named_barrier_sync(BARRIER, 128 * CONSUMERS);
        wgmma_fence_operand(acc);
        // A's registers are final before the fence (the compiler would otherwise sink the widening's
        // last operations below it, and ptxas insert a fence of its own: C7519).
#pragma unroll
        for (int s = 0; s < K_STEPS; ++s)
#pragma unroll
            for (int i = 0; i < 4; ++i) asm volatile("" : "+r"(a[SLOT][s][i]));
        wgmma_fence();
        const uint64_t b0 = Base::Mma::OperandB::desc(target_b(SLOT), 0, 0);
#pragma unroll
        for (int s = 0; s < K_STEPS; ++s)  // each k-step's descriptor one add from the first
            Atom::fma(acc, a[SLOT][s], desc_advance(b0, Base::Mma::OperandB::offset(0, s * Atom::K)),
                      (kt > 0 || s > 0) ? 1u : 0u);
        wgmma_commit_group();
        wgmma_fence_operand(acc);
        if (kt + 1 < k_tiles) widen<SLOT ^ 1>(use, a, consumer);
    }

    // Consumer warpgroup `consumer`: its 64 rows of the tile over `k_tiles` k-tiles (at least
    // one), into `acc`. Both consumers call it for the same units (their barriers pair up).
    static __device__ __forceinline__ void consume(Cursor<STAGES>& use, Acc (&acc)[ACC], int consumer, int k_tiles) {
        uint32_t a[2][K_STEPS][4];
        named_barrier_sync(BARRIER, 128 * CONSUMERS);  // the last unit's wgmma are done in every warp
        widen<0>(use, a, consumer);
        for (int kt = 0; kt < k_tiles; kt += 2) {
            k_tile<0>(use, acc, a, consumer, kt, k_tiles);
            if (kt + 1 < k_tiles) k_tile<1>(use, acc, a, consumer, kt + 1, k_tiles);
        }
        wgmma_wait_group<0>();
        wgmma_fence_operand(acc);
    }
};

}  // namespace sm90
}  // namespace wg
