// warpgemm/kernels/sm90/stages.cuh -- where the pipeline lives in the block's dynamic shared
// memory: STAGES stages of (A tile, B tile), each 1024-byte aligned, then the ring's mbarriers.
//
//   [ A 0 | B 0 ][ A 1 | B 1 ] ... [ A STAGES-1 | B STAGES-1 ][ full[STAGES] | empty[STAGES] ]
#pragma once

#include "arch/sm90.cuh"
#include "common/util.cuh"
#include "sm90/pipeline.cuh"

namespace wg {
namespace sm90 {

template <typename Mma, int STAGES>
struct Stages {
    static constexpr int A_BYTES = Mma::OperandA::BYTES;
    static constexpr int STAGE_BYTES = A_BYTES + Mma::OperandB::BYTES;
    static constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + Ring<STAGES>::BARRIER_BYTES;
    static_assert(A_BYTES % 1024 == 0 && STAGE_BYTES % 1024 == 0, "stages must stay 1024-byte aligned");
    static_assert(SMEM_BYTES <= 227 * 1024, "the stages do not fit in 227 KB of shared memory: lower STAGES, "
                                            "BN or BK");

    static __device__ __forceinline__ uint32_t base() { return smem_u32(dynamic_smem()); }
    static __device__ __forceinline__ Ring<STAGES> ring() { return Ring<STAGES>(base() + STAGES * STAGE_BYTES); }
    static __device__ __forceinline__ uint32_t a(int stage) { return base() + stage * STAGE_BYTES; }
    static __device__ __forceinline__ uint32_t b(int stage) { return a(stage) + A_BYTES; }

    // The producer's loads of one k-tile (rows m0.. of A, columns n0.. of B, k from k0) into the
    // stage under `cursor`, after waiting for it to be free; then the cursor moves on.
    static __device__ __forceinline__ void load(Cursor<STAGES>& cursor, const TmaDescriptor* tma_a,
                                                const TmaDescriptor* tma_b, int m0, int n0, int k0,
                                                uint32_t bytes = STAGE_BYTES) {
        const Ring<STAGES> r = ring();
        r.producer_acquire(cursor, bytes);
        Mma::OperandA::load(tma_a, r.full(cursor.stage), a(cursor.stage), m0, k0);
        Mma::OperandB::load(tma_b, r.full(cursor.stage), b(cursor.stage), n0, k0);
        cursor.advance();
    }

    // The same in a cluster of CLUSTER blocks that compute vertically adjacent tiles (one column
    // of tiles, the same n0): each loads its own A and part `rank` of the shared B tile,
    // multicast to all of them. Every block's full barrier still counts a whole stage.
    template <int CLUSTER>
    static __device__ __forceinline__ void load_multicast_b(Cursor<STAGES>& cursor, const TmaDescriptor* tma_a,
                                                            const TmaDescriptor* tma_b, int m0, int n0, int k0,
                                                            int rank, uint32_t bytes = STAGE_BYTES) {
        const Ring<STAGES> r = ring();
        r.producer_acquire(cursor, bytes);
        Mma::OperandA::load(tma_a, r.full(cursor.stage), a(cursor.stage), m0, k0);
        Mma::OperandB::template load_part_multicast<CLUSTER>(tma_b, r.full(cursor.stage), b(cursor.stage), n0, k0,
                                                             rank, static_cast<uint16_t>((1u << CLUSTER) - 1u));
        cursor.advance();
    }

    // The same in a cluster of CLUSTER blocks that compute horizontally adjacent tiles (one row of
    // tiles, the same m0): each loads part `rank` of the shared A tile, multicast to all of them,
    // and its own B (decode/02 with SHARE_W: tiles of different tokens on one tile of W).
    template <int CLUSTER>
    static __device__ __forceinline__ void load_multicast_a(Cursor<STAGES>& cursor, const TmaDescriptor* tma_a,
                                                            const TmaDescriptor* tma_b, int m0, int n0, int k0,
                                                            int rank) {
        const Ring<STAGES> r = ring();
        r.producer_acquire(cursor, STAGE_BYTES);
        Mma::OperandA::template load_part_multicast<CLUSTER>(tma_a, r.full(cursor.stage), a(cursor.stage), m0, k0,
                                                             rank, static_cast<uint16_t>((1u << CLUSTER) - 1u));
        Mma::OperandB::load(tma_b, r.full(cursor.stage), b(cursor.stage), n0, k0);
        cursor.advance();
    }
};

}  // namespace sm90
}  // namespace wg
