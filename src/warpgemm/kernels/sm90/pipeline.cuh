// warpgemm/kernels/sm90/pipeline.cuh -- the ring of STAGES shared-memory stages between the TMA
// producer and the wgmma consumers, kept by two mbarriers per stage:
//
//   full[s]   completes when stage s holds its k-tile: one arrival (the producer's, announcing the
//             stage's bytes) plus the bytes of its TMA boxes.
//   empty[s]  completes when every consumer warp is done reading stage s: one arrival per
//             consumer warp (per cluster block, with multicast).
//
// Both sides walk the stages in order with a (stage, phase) cursor. A consumer waits for full[s]
// in the cursor's phase; the producer waits for empty[s] in the opposite phase, which a fresh
// barrier counts as already complete, so the first pass over the ring does not wait at all.
#pragma once

#include "arch/sm90.cuh"

namespace wg {
namespace sm90 {

template <int STAGES>
struct Cursor {
    int stage = 0;
    uint32_t phase = 0;

    __device__ __forceinline__ void advance() {
        if (++stage == STAGES) {
            stage = 0;
            phase ^= 1u;
        }
    }

    // Past n k-tiles that another consumer takes (hopper rung 07): as n advance() calls.
    __device__ __forceinline__ void skip(int n) {
        const int to = stage + n;
        stage = to % STAGES;
        phase ^= static_cast<uint32_t>(to / STAGES) & 1u;
    }
};

template <int STAGES>
struct Ring {
    static_assert(STAGES >= 2, "a pipeline needs at least two stages");
    static constexpr int BARRIER_BYTES = 2 * 8 * STAGES;

    uint32_t bars;  // shared-window address of full[0]; empty[s] follows the STAGES full barriers

    __device__ __forceinline__ explicit Ring(uint32_t barriers) : bars(barriers) {}

    __device__ __forceinline__ uint32_t full(int s) const { return bars + 8 * s; }
    __device__ __forceinline__ uint32_t empty(int s) const { return bars + 8 * (STAGES + s); }

    // One thread, before anyone uses the ring; then fence_mbarrier_init and a block (or cluster)
    // barrier.
    __device__ __forceinline__ void init(uint32_t consumer_arrivals) const {
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            mbarrier_init(full(s), 1);
            mbarrier_init(empty(s), consumer_arrivals);
        }
    }

    // Producer: wait until stage c.stage may be overwritten, then announce its bytes.
    __device__ __forceinline__ void producer_acquire(const Cursor<STAGES>& c, uint32_t bytes) const {
        mbarrier_wait(empty(c.stage), c.phase ^ 1u);
        mbarrier_arrive_expect_tx(full(c.stage), bytes);
    }

    // Consumer: wait until stage c.stage holds its k-tile.
    __device__ __forceinline__ void consumer_wait(const Cursor<STAGES>& c) const {
        mbarrier_wait(full(c.stage), c.phase);
    }

    // Consumer warp (one lane): done reading stage `s`.
    __device__ __forceinline__ void consumer_release(int s) const { mbarrier_arrive(empty(s)); }

    // The same, for every block of a cluster of `ctas` whose producers multicast into this stage.
    __device__ __forceinline__ void consumer_release_cluster(int s, int ctas) const {
        for (int r = 0; r < ctas; ++r) mbarrier_arrive_cluster(empty(s), static_cast<uint32_t>(r));
    }
};

}  // namespace sm90
}  // namespace wg
