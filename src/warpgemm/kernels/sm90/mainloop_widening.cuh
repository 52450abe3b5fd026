// warpgemm/kernels/sm90/mainloop_widening.cuh -- the warp-specialised main loop for packed 4-bit
// operands on the 8-bit wgmma (int4/05): TMA lands the packed tiles, the consumers widen them to
// 8-bit tiles in shared memory (sm90/widening_copy.cuh), and wgmma multiplies those.
//
// Hopper has no 4-bit tensor cores: every 4-bit mma.sync runs emulated. But s4 and u4 values are
// s8 and u8 values too, and the products and the int32 sums are the same, so a packed tile
// widened on chip runs at the 8-bit wgmma's rate, while global memory and L2 still move half the
// bytes of int8. The cost is shared-memory bandwidth: per k-tile (128 values) of a 128 x 256
// tile, the TMA writes 24 KB, the widening reads them and writes 48 KB, and the two consumers'
// wgmma read 80 KB: 176 KB against int8's 128 KB (its TMA's 48 KB and the same 80 KB).
//
// The ring and the producer are those of sm90/mainloop_warp_specialized.cuh (sm90/pipeline.cuh,
// sm90/stages.cuh), with stages of packed tiles: (BM + BN) x 64 bytes. A consumer warpgroup, for
// each k-tile:
//   1. waits for the stage (full[s]), then for every warp of both consumers to be done with the
//      target tiles it is about to overwrite (a 256-thread named barrier: their wgmma of two
//      k-tiles ago read them; each warp passed its wait for it before reaching this barrier);
//   2. widens its own 64 rows of A into its A target tile kt % 2, and half of B's rows into the
//      shared B target tile kt % 2 (B is shared by the consumers, so each widens BN / 2 rows of
//      it); hands the stage back to the producer at once (the packed bytes are in registers and
//      wgmma never reads them), and fences the stores for the async proxy;
//   3. after a second 256-thread barrier (every row of both targets written), issues the k-tile's
//      wgmma from its A target and the B target, and waits for the previous k-tile's.
// So the widening of k-tile kt runs while the tensor cores work on k-tile kt - 1, as in
// sm90/mainloop_transposing.cuh.
//
// Shared memory: [ ring: STAGES x (A | B) packed | its barriers, in 1024 bytes | target slot 0:
// A of consumer 0 | A of consumer 1 | B | target slot 1: the same ], every tile 1024-byte aligned.
//
// The k order. The widening keeps each 8-value group in the order (4,2):(2,1) (even values, then
// odd ones; see sm90/widening_copy.cuh), the same for A and B, so the sums are exact. The atom is
// s8 x s8 for s4 and u8 x u8 for u4. K is counted in values; the int32 sums are exact up to
// int4's bounds (catalog/int4.py), longer than int8's.
//
// A pad nibble (an odd K leaves one in the last byte of each row) would be widened and multiplied
// like a value: the host clears it in one operand before the launch (int4_matmul.py), since the
// consumer does not know where its k range sits in K (a split unit runs part of it).
#pragma once

#include "arch/sm90.cuh"
#include "common/util.cuh"
#include "sm90/pipeline.cuh"
#include "sm90/stages.cuh"
#include "sm90/warpgroup_mma.cuh"
#include "sm90/widening_copy.cuh"

namespace wg {
namespace sm90 {

// What sm90/stages.cuh needs of an "Mma": the two operand tiles of a stage.
template <int BM, int BN>
struct PackedOperands {
    using OperandA = PackedTile<BM>;
    using OperandB = PackedTile<BN>;
};

// What the widening main loops share (this one, and sm90/mainloop_register_a_widening.cuh): the
// types, the ring of packed stages and the producer. T is s4x2_t or u4x2_t (the packed input);
// BK is the k-tile in values (128: one 64-byte box a row).
template <typename T, int BM, int BN, int BK, int STAGES>
struct PackedPipeline {
    static constexpr bool SIGNED = same_type<T, s4x2_t>::value;
    using Wide = typename pick<SIGNED, int8_t, uint8_t>::type;  // s4 -> s8, u4 -> u8
    using Mma = WarpgroupMma<Wide, 64, BN, BK, true, false>;    // one consumer: 64 rows, K-major targets
    using Smem = Stages<PackedOperands<BM, BN>, STAGES>;
    using Acc = typename Mma::Acc;
    using RingCursor = Cursor<STAGES>;
    using Copy = WideningCopy<SIGNED>;
    using TargetA = typename Mma::OperandA;  // (64, BK) bytes, 128-byte swizzle
    using TargetB = typename Mma::OperandB;  // (BN, BK) bytes
    static constexpr int BLOCK_M = BM;
    static constexpr int BLOCK_N = BN;
    static constexpr int BLOCK_K = BK;
    static constexpr int CONSUMERS = BM / 64;
    static constexpr int THREADS = 128 * (1 + CONSUMERS);
    static constexpr int PRODUCER_REGS = 40;
    static constexpr int CONSUMER_REGS = 232;
    static constexpr int TARGETS_AT = STAGES * Smem::STAGE_BYTES + 1024;  // after the ring's barriers
    static constexpr int BARRIER = 9;  // both consumers (the split reduction uses 3, 4; the TMA store 1, 2;
                                       // the transposing copy 5, 6; the scaled epilogue 7, 8)
    static_assert(same_type<T, s4x2_t>::value || same_type<T, u4x2_t>::value,
                  "packed 4-bit operands: T is s4x2_t (s4) or u4x2_t (u4)");
    static_assert(BM == 128, "BM = 128: two consumer warpgroups, each widening its 64 rows of A and half of B");
    static_assert(BK == 128, "BK = 128 values: one 64-byte TMA box a packed row, one 128-byte row of the 8-bit "
                             "target (a larger k-tile needs target tiles of several slabs and no longer fits "
                             "in shared memory at BN = 256)");
    static_assert(BN % 64 == 0, "each consumer widens BN / 2 rows of B, 32 rows a pass: BN a multiple of 64");
    static_assert(Ring<STAGES>::BARRIER_BYTES <= 1024, "the ring's barriers must fit below the target tiles");

    // Thread 0, before the roles split; then the caller synchronises the block.
    static __device__ __forceinline__ void init(const TmaDescriptor* tma_a, const TmaDescriptor* tma_b) {
        prefetch_tensormap(tma_a);
        prefetch_tensormap(tma_b);
        Smem::ring().init(4 * CONSUMERS);  // one arrival per consumer warp
        fence_mbarrier_init();
    }

    // The producer's one thread: k-tiles k_begin .. k_end - 1 of the tile at (m0, n0).
    static __device__ __forceinline__ void produce(Cursor<STAGES>& load, const TmaDescriptor* tma_a,
                                                   const TmaDescriptor* tma_b, int m0, int n0, int k_begin,
                                                   int k_end) {
        for (int kt = k_begin; kt < k_end; ++kt) Smem::load(load, tma_a, tma_b, m0, n0, kt * BK);
    }
};

template <typename T, int BM, int BN, int BK, int STAGES>
struct WideningMainloop : PackedPipeline<T, BM, BN, BK, STAGES> {
    using Base = PackedPipeline<T, BM, BN, BK, STAGES>;
    using typename Base::Acc;
    using typename Base::Copy;
    using typename Base::Mma;
    using typename Base::Smem;
    using typename Base::TargetA;
    using typename Base::TargetB;
    static constexpr int CONSUMERS = Base::CONSUMERS;
    static constexpr int TARGETS_AT = Base::TARGETS_AT;
    static constexpr int BARRIER = Base::BARRIER;
    static constexpr int SLOT_BYTES = CONSUMERS * TargetA::BYTES + TargetB::BYTES;
    static constexpr int SMEM_BYTES = TARGETS_AT + 2 * SLOT_BYTES;
    static_assert(SMEM_BYTES <= 227 * 1024, "the packed stages plus two slots of 8-bit target tiles exceed "
                                            "227 KB of shared memory: lower STAGES or BN");

    static __device__ __forceinline__ uint32_t target_a(int slot, int consumer) {
        return Smem::base() + TARGETS_AT + slot * SLOT_BYTES + consumer * TargetA::BYTES;
    }
    static __device__ __forceinline__ uint32_t target_b(int slot) {
        return Smem::base() + TARGETS_AT + slot * SLOT_BYTES + CONSUMERS * TargetA::BYTES;
    }

    // Consumer warpgroup `consumer`: its 64 rows of the tile, summed over `k_tiles` k-tiles (at
    // least one), into `acc`. Both consumers call it for the same units (their barriers pair up).
    static __device__ __forceinline__ void consume(Cursor<STAGES>& use, Acc (&acc)[Mma::ACC], int consumer,
                                                   int k_tiles) {
        const Ring<STAGES> ring = Smem::ring();
        const int tid = threadIdx.x & 127;
        constexpr int B_ROWS = BN / CONSUMERS;  // rows of B each consumer widens
#pragma unroll
        for (int i = 0; i < Mma::ACC; ++i) acc[i] = Acc(0);
        for (int kt = 0; kt < k_tiles; ++kt) {
            const int slot = kt & 1;
            ring.consumer_wait(use);
            named_barrier_sync(BARRIER, 128 * CONSUMERS);  // k-tile kt - 2's wgmma is done in every warp
            Copy::template copy<64, B_ROWS>(Smem::a(use.stage) + 64 * consumer * PackedTile<BM>::ROW_BYTES,
                                            target_a(slot, consumer),
                                            Smem::b(use.stage) + B_ROWS * consumer * PackedTile<BN>::ROW_BYTES,
                                            target_b(slot) + B_ROWS * consumer * TargetB::ROW_BYTES, tid);
            __syncwarp();
            if ((threadIdx.x & 31) == 0) ring.consumer_release(use.stage);  // the stage is in registers
            fence_proxy_async_shared();
            named_barrier_sync(BARRIER, 128 * CONSUMERS);  // both targets written by every warp
            Mma::k_tile(acc, target_a(slot, consumer), target_b(slot), 0, kt > 0);
            wgmma_wait_group<1>();  // k-tile kt - 1's wgmma is done: its slot may be overwritten
            use.advance();
        }
        wgmma_wait_group<0>();
    }
};

}  // namespace sm90
}  // namespace wg
