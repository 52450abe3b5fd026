// warpgemm/kernels/sm90/split_k_reduction.cuh -- the partial sums of a tile split over K (the
// last wave of a persistent grid, sm90/tile_scheduler.cuh), added in a fixed order, then handed
// to the real epilogue (hopper rungs 04 and 06).
//
// Each unit of a split tile runs on its own block. When a consumer warpgroup has its 64 x BN
// partial sums, it
//   1. writes them (fp32, or the bits of s32 sums) to its slot of the workspace, in fragment order (float4 i of thread t at
//      (i, t):(128, 1), so that each store instruction of the warpgroup writes 2 KB contiguous);
//   2. makes them visible (__threadfence), synchronises the warpgroup, and one thread counts the
//      unit in the tile's counter (one per tile and consumer warpgroup);
//   3. stops there, unless it was the tile's last unit to arrive. The last one reads every
//      unit's partial sums back, in split order 0, 1, ..., adds them, resets the counter to zero
//      for the next launch, and runs the epilogue (bias, conversion, store).
// No block ever waits for another, so the split cannot deadlock whatever order the blocks run
// in, and since the sums are added in split order whichever unit finishes last, the result is
// the same bits on every run.
#pragma once

#include "arch/sm70.cuh"
#include "arch/sm90.cuh"
#include "common/util.cuh"
#include "sm90/tile_scheduler.cuh"
#include "sm90/warp_specialized_roles.cuh"

namespace wg {
namespace sm90 {

template <typename Epilogue, int CONSUMERS>
struct SplitKReduction {
    static constexpr int FIRST_BARRIER = 3;  // named barriers 3 .. 3 + CONSUMERS - 1 (the TMA store epilogue uses 1, 2)
    static_assert(FIRST_BARRIER + CONSUMERS <= 16, "named barriers are 1 .. 15");

    Epilogue epilogue;
    float4* workspace;  // CONSUMERS * 64 * BN floats for each unit of a split tile
    int* counters;      // CONSUMERS per split tile: zero when the launch starts, left zero at its end

    template <typename Acc, int ACC>
    __device__ __forceinline__ void store(Acc (&d)[ACC], int consumer, const Work& w) {
        static_assert(ACC % 4 == 0, "the partial sums move as float4s");
        // One call of the epilogue, after the reduction or without it: the epilogue is most of
        // the kernel's code, and a second inlined copy of it doubles the code the SMs fetch.
        if (w.splits == 1 || reduce(d, consumer, w)) epilogue.store(d, consumer, w);
    }

    __device__ __forceinline__ void prepare(int consumer, const Work& w) { epilogue.prepare(consumer, w); }
    __device__ __forceinline__ void finish(int consumer) { epilogue.finish(consumer); }

    // With an epilogue that stores each unit while the next multiplies (sm90/warp_specialized_roles.cuh):
    // a split tile's last unit holds the tile's full sums; its other units hold nothing.
    static constexpr bool HOLDS = holds_sums<Epilogue>::value;
    template <int ACC>
    using Held = typename held_sums_of<Epilogue>::template type<ACC>;

    template <typename Acc, int ACC, typename H>
    __device__ __forceinline__ bool hold(Acc (&d)[ACC], int consumer, const Work& w, H& held) {
        if (w.splits == 1 || reduce(d, consumer, w)) return epilogue.hold(d, consumer, w, held);
        // Every path writes `held`, so the last unit's pairs are dead before reduce() and need no
        // registers while it sums (they would spill).
        held = H{};
        return false;
    }
    template <typename H>
    __device__ __forceinline__ void store_held(const H& held, int consumer, int part) {
        epilogue.store_held(held, consumer, part);
    }
    template <typename H>
    __device__ __forceinline__ void store_held_from(const H& held, int consumer, int from) {
        epilogue.store_held_from(held, consumer, from);
    }

  private:
    // Steps 1-3 for a unit of a split tile: false where another unit will finish the tile, true
    // (with the tile's full sums in d) in the unit that arrived last.
    template <typename Acc, int ACC>
    __device__ __forceinline__ bool reduce(Acc (&d)[ACC], int consumer, const Work& w) {
        const int tid = threadIdx.x & 127;
        const int barrier = FIRST_BARRIER + consumer;
        constexpr int VECS = ACC / 4;  // float4s a thread
        float4* mine = slot(w.slot_base + w.split * w.slot_stride, consumer, VECS);
#pragma unroll
        for (int i = 0; i < VECS; ++i)
            mine[i * 128 + tid] =
                make_float4(bits(d[4 * i]), bits(d[4 * i + 1]), bits(d[4 * i + 2]), bits(d[4 * i + 3]));
        __threadfence();
        named_barrier_sync(barrier, 128);

        bool last = false;
        if (tid == 0) {
            int* counter = counters + w.tail * CONSUMERS + consumer;
            last = atomicAdd(counter, 1) == w.splits - 1;
            if (last) *counter = 0;  // every unit has counted: ready for the next launch
        }
        if (!named_barrier_or(barrier, 128, last)) return false;
        __threadfence();

        constexpr int CHUNK = 16;  // float4s in flight per thread while summing
#pragma unroll
        for (int c = 0; c < VECS; c += CHUNK) {
            for (int s = 0; s < w.splits; ++s) {
                const float4* part = slot(w.slot_base + s * w.slot_stride, consumer, VECS);
                float4 v[CHUNK];
#pragma unroll
                for (int i = 0; i < CHUNK; ++i)
                    if (c + i < VECS) v[i] = ld_global_cg_v4_f32(part + (c + i) * 128 + tid);
#pragma unroll
                for (int i = 0; i < CHUNK && c + i < VECS; ++i) {  // (VECS = 24 at BN = 192)
                    Acc* x = &d[4 * (c + i)];
                    const Acc p[4] = {value<Acc>(v[i].x), value<Acc>(v[i].y), value<Acc>(v[i].z),
                                      value<Acc>(v[i].w)};
                    if (s == 0) {
                        x[0] = p[0], x[1] = p[1], x[2] = p[2], x[3] = p[3];
                    } else {
                        x[0] += p[0], x[1] += p[1], x[2] += p[2], x[3] += p[3];
                    }
                }
            }
        }
        return true;
    }

    // The workspace holds fp32 sums as they are and s32 sums as their bits (added as integers).
    static __device__ __forceinline__ float bits(float x) { return x; }
    static __device__ __forceinline__ float bits(int32_t x) { return __int_as_float(x); }
    template <typename Acc>
    static __device__ __forceinline__ Acc value(float x) {
        if constexpr (same_type<Acc, int32_t>::value) return __float_as_int(x);
        else return x;
    }

    __device__ __forceinline__ float4* slot(int unit, int consumer, int vecs) const {
        return workspace + static_cast<int64_t>(unit * CONSUMERS + consumer) * vecs * 128;
    }
};

// The body of a persistent kernel whose last wave is split over K (hopper rungs 04 and 06, decode
// rung 02, igemm rungs 02 and 03): PersistentTiles over a rows x cols output, each unit's sums
// through SplitKReduction to `epilogue`. Call after Mainloop::init and the block's
// synchronisation; `workspace`, `counters` and `splits` as the host sized them.
//
// With STREAM_K, a negative `splits` deals the last -splits tiles' k-tiles out to the blocks
// (stream-K, sm90/tile_scheduler.cuh); the tiles they share add their parts here the same way.
template <typename Mainloop, int GROUP, bool STREAM_K = false, typename Epilogue, typename Edge = NoEdge>
__device__ __forceinline__ void persistent_split_k(const TmaDescriptor* tma_a, const TmaDescriptor* tma_b, int rows,
                                                   int cols, int K, const Epilogue& epilogue, float* workspace,
                                                   int* counters, int splits, const Edge& edge = {}) {
    const PersistentTiles<Mainloop::BLOCK_M, Mainloop::BLOCK_N, GROUP, STREAM_K> tiles(
        rows, cols, splits, (K + Mainloop::BLOCK_K - 1) / Mainloop::BLOCK_K);
    SplitKReduction<Epilogue, Mainloop::CONSUMERS> reduction{epilogue, reinterpret_cast<float4*>(workspace),
                                                             counters};
    warp_specialized_roles<Mainloop>(tiles, tma_a, tma_b, K, reduction, edge);
}

}  // namespace sm90
}  // namespace wg
