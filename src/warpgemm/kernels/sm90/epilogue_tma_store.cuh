// warpgemm/kernels/sm90/epilogue_tma_store.cuh -- a consumer warpgroup's 64 x BN accumulators
// (+ bias; 128 x BN, as two 64-row blocks, with 256-row tiles) to C through shared memory and TMA
// stores (hopper rung 06).
//
// The tile goes out in slabs of 64 rows x 128 bytes (64 columns of a 16-bit C, 32 of fp32), the
// widest box the 128-byte swizzle allows. For each slab the warpgroup
//   1. waits until the buffer it is about to write is free: its TMA store, issued two slabs ago,
//      has read it (cp.async.bulk.wait_group.read 1, then a named barrier);
//   2. writes its fragments into the buffer: stmatrix for 16-bit C (one m8n8.x4 per 16 columns),
//      8-byte stores for fp32, at 128-byte-swizzled addresses (Swizzle<3,4,3>: 16-byte chunk c
//      of row r lands at chunk c ^ (r % 8)), so that neither the writes nor the TMA's reads
//      conflict on banks;
//   3. fences the writes into the async proxy, synchronises, and one thread issues the TMA store
//      of the slab and commits it as a bulk group.
// Two buffers alternate, so writing slab s + 1 overlaps the store of slab s, and the stores of a
// tile's last slabs run on while the warpgroup is already in the next tile's mainloop: only the
// reuse of a buffer waits. TMA clips the box at C's edges, so ragged tiles need no masks.
//
// Where C cannot be a TMA target (its rows not a multiple of 16 bytes apart, or its base not
// 16-byte aligned), the host passes `tma = false`: the slabs are staged the same way, and step 3
// becomes a copy by the warpgroup's own threads (copy_slab), masked at C's edges. That copy is a
// rolled loop, and it is the only code the fallback adds. An unrolled direct store from the
// registers (sm90/epilogue_direct.cuh) took 43 of this kernel's 63 KB of code (128 x 256 tiles,
// 2-block clusters), and code that size costs a kernel of ours whenever another of ours ran
// before it: each evicts the other's instructions (docs/benchmarking.md).
//
// The slab loop (store_slabs) takes the values from a function, so that the same staging serves
// the fp16/bf16 epilogue (sums + bias) and the scaled int8 one (ScaledTmaStoreEpilogue).
//
// A fragment of the warpgroup (thread lane 4g + t of warp w) is d[4j + 2h + e] = C(16w + g + 8h,
// 8j + 2t + e), as in sm90/epilogue_direct.cuh. stmatrix .x4 stores four 8 x 8 matrices from
// four registers; lanes 8i .. 8i + 7 give the row addresses of matrix i. Matrices (rows 0-7,
// columns 8j), (rows 8-15, 8j), (rows 0-7, 8j + 8), (rows 8-15, 8j + 8) are exactly registers
// pack(d[4j], d[4j+1]), pack(d[4j+2], d[4j+3]), pack(d[4j+4], d[4j+5]), pack(d[4j+6], d[4j+7]).
#pragma once

#include "arch/sm90.cuh"
#include "sm80/mma.cuh"
#include "sm90/epilogue_direct.cuh"
#include "sm90/tile_scheduler.cuh"

namespace wg {
namespace sm90 {

// Where C is no TMA target: the staged slab at `buf` copied to C by the warpgroup's 128 threads.
// Each thread takes 4-byte words of the staging (two 16-bit elements or one fp32), a warp one
// 128-byte row a step, and writes them element by element (C's rows may start at any element),
// masked at C's edges. Rolled (unroll 1): see the top of this file.
template <typename TC>
__device__ __forceinline__ void copy_slab(uint32_t buf, TC* C, int ldc, int M, int N, int row0, int col0) {
    constexpr int PER_WORD = 4 / static_cast<int>(sizeof(TC));
#pragma unroll 1
    for (int i = threadIdx.x & 127; i < 64 * 32; i += 128) {
        const int row = i >> 5, word = i & 31;
        if (row0 + row >= M) break;  // the rows only grow with i
        const int col = col0 + word * PER_WORD;
        if (col >= N) continue;
        const uint32_t bits = ld_shared_u32(buf + row * 128 + (((word >> 2) ^ (row & 7)) << 4) + (word & 3) * 4);
        TC* p = C + static_cast<int64_t>(row0 + row) * ldc + col;
        if constexpr (PER_WORD == 1) {
            *p = __uint_as_float(bits);
        } else {
            p[0] = TC{static_cast<uint16_t>(bits)};
            if (col + 1 < N) p[1] = TC{static_cast<uint16_t>(bits >> 16)};
        }
    }
}

// Where the slabs go: C's tensor map, or (tma = false) C itself.
template <typename TC>
struct SlabTarget {
    const TmaDescriptor* tma_c;
    TC* C;
    int ldc, M, N;
    bool tma;
};

// Step 3 for the slab staged at `buf`: fence the warpgroup's writes into the async proxy and hand
// the slab to a TMA store (one thread), or, where C is no TMA target, copy it with copy_slab.
// Uses named barrier 1 + consumer.
template <typename TC>
__device__ __forceinline__ void send_slab(const SlabTarget<TC>& out, uint32_t buf, int consumer, int row0, int col0) {
    if (out.tma) {
        fence_proxy_async_shared();  // the writes above, visible to the TMA's reads
        named_barrier_sync(1 + consumer, 128);
        if ((threadIdx.x & 127) == 0) {
            SM90_TMA_STORE_2D::copy(out.tma_c, buf, col0, row0);
            tma_store_commit();
        }
    } else {
        // The next slab's first barrier keeps its writes off a buffer still being copied.
        named_barrier_sync(1 + consumer, 128);
        copy_slab(buf, out.C, out.ldc, out.M, out.N, row0, col0);
    }
}

// A tile's slabs: SLAB_COLS columns each (64 of 16-bit C, 32 of fp32), as many as cover BN. Slab s
// starts at column s * SLAB_COLS of the tile, except that where BN is no multiple of SLAB_COLS the
// last slab starts at BN - SLAB_COLS: it overlaps the one before, and both store the overlap with
// the same values (BN = 176: slabs at 0, 64 and 112, columns 112 .. 127 stored twice). So every
// slab is whole, and one TMA box shape serves every BN that is a multiple of 16.
__host__ __device__ constexpr int slab_count(int bn, int slab_cols) { return (bn + slab_cols - 1) / slab_cols; }
__host__ __device__ constexpr int slab_col(int s, int bn, int slab_cols) {
    return s * slab_cols < bn - slab_cols ? s * slab_cols : bn - slab_cols;
}

// A tile's bias (BN values of T from column n0), fetched by every consumer thread when the tile's
// main loop starts (TmaStoreEpilogue::prepare), so that the loads pass under the main loop, and
// handed to the threads that add it by shuffles. Fragment column group j (the tile's columns
// 8j .. 8j + 7) has lane 4g + t add the bias of columns 8j + 2t and 8j + 2t + 1. Lane 4a + b of
// each warp holds the pairs at 2b of groups R a .. R a + R - 1 (R = ceil(BN / 64) registers, 16-bit
// halves, zero past column N), so lane 4g + t finds group j's pair in lane 4 (j / R) + t, register
// j % R. Loaded at the store instead, each slab waited for an L2 round trip: the bias cost rung 06
// 4.4-4.8% at 4096^3 (docs/hopper.md, "The epilogue's instructions are not its cost").
template <typename T, int BN>
struct ColumnBias {
    static_assert(BN % 8 == 0, "the bias goes by fragment column groups of 8: BN a multiple of 8");
    static constexpr int R = (BN + 63) / 64;  // groups past BN (BN no multiple of 64) are fetched, never used
    uint32_t pairs[R];

    __device__ __forceinline__ void fetch(const T* bias, int N, int n0) {
        const int lane = threadIdx.x & 31;
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const int c = n0 + 8 * (R * (lane >> 2) + r) + 2 * (lane & 3);
            const uint32_t lo = c < N ? bias[c].bits : 0u, hi = c + 1 < N ? bias[c + 1].bits : 0u;
            pairs[r] = lo | hi << 16;
        }
    }

    // The bias of fragment column group j (a constant once unrolled): b[e] for column 8j + 2t + e.
    __device__ __forceinline__ void group(int j, float (&b)[2]) const {
        const uint32_t p = __shfl_sync(0xffffffffu, pairs[j % R], 4 * (j / R) + (threadIdx.x & 3));
        b[0] = sm80::to_float(T{static_cast<uint16_t>(p)});
        b[1] = sm80::to_float(T{static_cast<uint16_t>(p >> 16)});
    }
};

// The slabs of a consumer warpgroup's 64 x BN tile at (row0, n0), through BUFFERS staging
// buffers of 64 x 128 bytes at `mine` (1024-byte aligned) to `out`: TMA stores, or copy_slab.
// values(j, v) fills v[2h + e] with the fp32 value of fragment element 4j + 2h + e, which belongs
// at C(row0 + 16w + g + 8h, n0 + 8j + 2t + e) (lane 4g + t of warp w): a column pair in two rows,
// so that per-column values (bias, scales) are read once for both. They are rounded once to TC.
// `slabs_done` counts this warpgroup's slabs: it picks the buffer.
// Uses named barrier 1 + consumer.
template <typename TC, int BN, int BUFFERS, typename Values>
__device__ __forceinline__ void store_slabs(const SlabTarget<TC>& out, uint32_t mine, int& slabs_done, int consumer,
                                            int row0, int n0, Values values) {
    constexpr int SLAB_COLS = 128 / static_cast<int>(sizeof(TC));  // 64 (16-bit C) or 32 (fp32)
    constexpr int SLABS = slab_count(BN, SLAB_COLS);
    constexpr int SLAB_BYTES = 64 * 128;
    static_assert(sizeof(TC) == 2 || sizeof(TC) == 4, "C is fp16, bf16 or fp32");
    static_assert(BN % 16 == 0 && BN >= SLAB_COLS, "BN must be a multiple of 16, and at least one slab (64 columns "
                                                   "of 16-bit C, 32 of fp32)");
    static_assert(BUFFERS == 1 || BUFFERS == 2, "one staging buffer, or two that alternate");
    const int tid = threadIdx.x & 127;
    const int warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int s = 0; s < SLABS; ++s) {
        const int first = slab_col(s, BN, SLAB_COLS);  // the slab's first column in the tile
        const int col0 = n0 + first;
        if (col0 >= out.N) break;  // uniform: the rest of the tile is past C's right edge
        const uint32_t buf = mine + (BUFFERS == 1 ? 0 : (slabs_done & 1) * SLAB_BYTES);
        if (tid == 0) tma_store_wait_read<BUFFERS - 1>();
        named_barrier_sync(1 + consumer, 128);
        if constexpr (sizeof(TC) == 2) {
#pragma unroll
            for (int q = 0; q < SLAB_COLS / 16; ++q) {
                const int j = first / 8 + 2 * q;  // fragment column groups j, j + 1
                float v[4], u[4];
                values(j, v);
                values(j + 1, u);
                const uint32_t r[4] = {sm80::pack2<TC>(v[0], v[1]), sm80::pack2<TC>(v[2], v[3]),
                                       sm80::pack2<TC>(u[0], u[1]), sm80::pack2<TC>(u[2], u[3])};
                const int i = lane >> 3;
                const int row = 16 * warp + 8 * (i & 1) + (lane & 7);
                const int chunk = 2 * q + (i >> 1);
                SM90_U32x4_STSM_N::copy(r, buf + row * 128 + ((chunk ^ (row & 7)) << 4));
            }
        } else {
#pragma unroll
            for (int q = 0; q < SLAB_COLS / 8; ++q) {
                float v[4];
                values(first / 8 + q, v);
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int row = 16 * warp + g + 8 * h;
                    const int chunk = 2 * q + (t >> 1);
                    st_shared_v2_f32(buf + row * 128 + ((chunk ^ (row & 7)) << 4) + (t & 1) * 8, v[2 * h],
                                     v[2 * h + 1]);
                }
            }
        }
        send_slab(out, buf, consumer, row0, col0);
        ++slabs_done;
    }
}

// stmatrix .x4 of the 16-column group q of a slab of 16-bit C at `buf` (128-byte swizzled): r
// holds the pairs of fragment column groups 8q' and 8q' + 1 of the slab (q' = 2q, 2q + 1 as
// above: r = pack(d[4j], d[4j+1]), pack(d[4j+2], d[4j+3]), pack(d[4j+4], ...), ... for j = 2q).
__device__ __forceinline__ void stage_pairs(uint32_t buf, int q, const uint32_t (&r)[4]) {
    const int lane = threadIdx.x & 31, warp = (threadIdx.x & 127) >> 5;
    const int i = lane >> 3;
    const int row = 16 * warp + 8 * (i & 1) + (lane & 7);
    const int chunk = 2 * q + (i >> 1);
    SM90_U32x4_STSM_N::copy(r, buf + row * 128 + ((chunk ^ (row & 7)) << 4));
}

// Steps 1-3 of store_slabs for one slab at (row0, col0) of C, for HeldTmaStoreEpilogue: through
// the next of BUFFERS staging buffers of 64 x 128 bytes at `mine`, `fill(buf)` writing the slab
// into staging buffer `buf`. `slabs_done` counts this warpgroup's slabs: it picks the buffer.
// Uses named barrier 1 + consumer. (store_slabs picks its buffer and waits for it inline, as
// here, and shares step 3, send_slab: routed wholly through this function, the machine code of
// every shipped instantiation changed, and those were measured as they are.)
template <typename TC, int BUFFERS, typename Fill>
__device__ __forceinline__ void put_slab(const SlabTarget<TC>& out, uint32_t mine, int& slabs_done, int consumer,
                                         int row0, int col0, Fill fill) {
    constexpr int SLAB_BYTES = 64 * 128;
    static_assert(BUFFERS == 1 || BUFFERS == 2, "one staging buffer, or two that alternate");
    const int tid = threadIdx.x & 127;
    const uint32_t buf = mine + (BUFFERS == 1 ? 0 : (slabs_done & 1) * SLAB_BYTES);
    if (tid == 0) tma_store_wait_read<BUFFERS - 1>();
    named_barrier_sync(1 + consumer, 128);
    fill(buf);
    send_slab(out, buf, consumer, row0, col0);
    ++slabs_done;
}

// OWN_TILES (hopper rung 07): each consumer warpgroup stores a tile of its own, its rows from the
// unit's m0; otherwise the consumers share the unit's tile, consumer c's rows after c's
// predecessors'.
template <typename TC, typename T, int BN, bool OWN_TILES = false>
struct TmaStoreEpilogue {
    static constexpr int BUFFERS = 2;
    static constexpr int BYTES_PER_CONSUMER = BUFFERS * 64 * 128;  // 16 KB a consumer warpgroup

    SlabTarget<TC> out;  // C: its tensor map, or (out.tma = false) copy_slab
    const T* bias;
    uint32_t staging;  // the block's staging area: BYTES_PER_CONSUMER per consumer, 1024-byte aligned
    int slabs_done = 0;  // this warpgroup's running slab count: its parity picks the buffer
    ColumnBias<T, BN> column_bias{};  // the unit's bias (with a bias), fetched by prepare

    // A consumer warpgroup's ROW_BLOCKS x 64 rows (ACC = ROW_BLOCKS * BN / 2 accumulators, row
    // block r's fragment at d[r * BN / 2 ..], as sm90/warpgroup_mma.cuh leaves them), one 64-row
    // block after the other through the same two buffers. Sums without a bias are only rounded:
    // one branch a tile here, not a test and an add per element (about 1000 instructions a warp a
    // 128 x 256 tile before; docs/hopper.md, "The epilogue's instructions are not its cost").
    template <int ACC>
    __device__ __forceinline__ void store(const float (&d)[ACC], int consumer, const Work& w) {
        if (bias == nullptr) store_sums<false>(d, consumer, w);
        else store_sums<true>(d, consumer, w);
    }

    // When a unit starts: fetch its tile's bias, if there is one.
    __device__ __forceinline__ void prepare(int, const Work& w) {
        if (bias != nullptr) column_bias.fetch(bias, out.N, w.n0);
    }

    // Before the block exits: the last stores have read their buffers and written C.
    __device__ __forceinline__ void finish(int) {
        if (out.tma && (threadIdx.x & 127) == 0) tma_store_wait<0>();
    }

  private:
    template <bool BIAS, int ACC>
    __device__ __forceinline__ void store_sums(const float (&d)[ACC], int consumer, const Work& w) {
        static_assert(ACC % (BN / 2) == 0, "a warpgroup's accumulators: BN / 2 registers a thread per 64 rows");
        constexpr int ROW_BLOCKS = ACC / (BN / 2);
        const int n0 = w.n0;
#pragma unroll
        for (int r = 0; r < ROW_BLOCKS; ++r) {
            const float(&block)[BN / 2] = *reinterpret_cast<const float(*)[BN / 2]>(&d[r * (BN / 2)]);
            const int row0 = w.m0 + 64 * ((OWN_TILES ? 0 : ROW_BLOCKS * consumer) + r);
            if (row0 >= out.M) return;  // this and the later row blocks are past C's edge (uniform)
            const uint32_t mine = staging + consumer * BYTES_PER_CONSUMER;
            if constexpr (!BIAS) {
                store_slabs<TC, BN, BUFFERS>(out, mine, slabs_done, consumer, row0, n0, [&](int j, float (&v)[4]) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) v[e] = block[4 * j + e];
                });
            } else {
                store_slabs<TC, BN, BUFFERS>(out, mine, slabs_done, consumer, row0, n0, [&](int j, float (&v)[4]) {
                    float b[2];
                    column_bias.group(j, b);
#pragma unroll
                    for (int e = 0; e < 4; ++e) v[e] = block[4 * j + e] + b[e & 1];
                });
            }
        }
    }
};

// TmaStoreEpilogue that stores each unit while the next one multiplies (hopper rung 06's HOLD = 1;
// sm90/warp_specialized_roles.cuh). At the end of a unit the warpgroup only adds the bias and
// converts its sums to 16-bit pairs, held in registers (ACC / 2 a thread: 64 for a 64 x 256 or
// 128 x 128 share); then, while the next unit's wgmma run, it stores one slab a k-tile through
// the same staging buffers and TMA stores. A 16-bit C only: fp32 sums would need all ACC
// registers again (rung 06 takes TmaStoreEpilogue for an fp32 C).
//
// PREFETCH_BIAS = true fetches a unit's bias when it starts (ColumnBias, as TmaStoreEpilogue), so
// that the add at the unit's end waits for no load. With false, hold() loads it there, an L2 round
// trip while the tensor cores wait; take false only where ColumnBias's ceil(BN / 64) registers a lane,
// beside the 64 held ones, would spill (256 x 128 tiles in clusters: 32 bytes).
template <typename TC, typename T, int BN, bool PREFETCH_BIAS = true>
struct HeldTmaStoreEpilogue : TmaStoreEpilogue<TC, T, BN> {
    static_assert(sizeof(TC) == 2, "sums are held as 16-bit pairs: a 16-bit C (TmaStoreEpilogue takes fp32 C)");
    static_assert(BN % 16 == 0 && BN >= 64, "a 64-row block goes out in slabs of 64 columns (the last may overlap "
                                            "the one before): BN a multiple of 16, at least 64");
    static constexpr bool HOLDS = true;
    static constexpr int SLABS = slab_count(BN, 64);  // slabs of a 64-row block

    __device__ explicit HeldTmaStoreEpilogue(const TmaStoreEpilogue<TC, T, BN>& plain)
        : TmaStoreEpilogue<TC, T, BN>(plain) {}

    // A consumer warpgroup's ACC sums (ROW_BLOCKS blocks of 64 rows), bias added, as pairs:
    // pairs[2j] = pack(d[4j], d[4j+1]) and pairs[2j + 1] = pack(d[4j+2], d[4j+3]) for fragment
    // column group j (sm90/warpgroup_mma.cuh's order, row block by row block).
    template <int ACC>
    struct Held {
        static_assert(ACC % (BN / 2) == 0, "a warpgroup's accumulators: BN / 2 registers a thread per 64 rows");
        static constexpr int ROW_BLOCKS = ACC / (BN / 2);
        static constexpr int PARTS = ROW_BLOCKS * SLABS;  // slabs, stored one a k-tile
        uint32_t pairs[ACC / 2];
        int m0, n0;
    };

    template <int ACC>
    __device__ __forceinline__ bool hold(const float (&d)[ACC], int, const Work& w, Held<ACC>& h) {
        h.m0 = w.m0;
        h.n0 = w.n0;
        if (this->bias == nullptr) {  // one branch a unit, as TmaStoreEpilogue::store
#pragma unroll
            for (int j = 0; j < ACC / 4; ++j) {
                h.pairs[2 * j] = sm80::pack2<TC>(d[4 * j], d[4 * j + 1]);
                h.pairs[2 * j + 1] = sm80::pack2<TC>(d[4 * j + 2], d[4 * j + 3]);
            }
            return true;
        }
#pragma unroll
        for (int j = 0; j < ACC / 4; ++j) {
            float b[2];
            if constexpr (PREFETCH_BIAS) {
                this->column_bias.group(j % (BN / 8), b);  // fetched when the unit started: no wait here
            } else {
                const int c = w.n0 + 8 * (j % (BN / 8)) + 2 * (threadIdx.x & 3);
                b[0] = c < this->out.N ? sm80::to_float(this->bias[c]) : 0.0f;
                b[1] = c + 1 < this->out.N ? sm80::to_float(this->bias[c + 1]) : 0.0f;
            }
            h.pairs[2 * j] = sm80::pack2<TC>(d[4 * j] + b[0], d[4 * j + 1] + b[1]);
            h.pairs[2 * j + 1] = sm80::pack2<TC>(d[4 * j + 2] + b[0], d[4 * j + 3] + b[1]);
        }
        return true;
    }

    // When a unit starts: fetch its tile's bias (PREFETCH_BIAS), or nothing (hold() loads it).
    __device__ __forceinline__ void prepare(int consumer, const Work& w) {
        if constexpr (PREFETCH_BIAS) TmaStoreEpilogue<TC, T, BN>::prepare(consumer, w);
    }

    // Part `part` of the held sums (slab part % SLABS of row block part / SLABS); none past the last.
    // It runs beside every k-tile's wgmma, and most k-tiles are past the last part: one uniform
    // test for them, where the unrolled parts would each test C's edges (and load M and N) first.
    template <typename H>
    __device__ __forceinline__ void store_held(const H& h, int consumer, int part) {
        if (part >= H::PARTS) return;
#pragma unroll
        for (int p = 0; p < H::PARTS; ++p)
            if (p == part) store_part(h, consumer, p);
    }

    // Parts `from` .. PARTS - 1 of the held sums.
    template <typename H>
    __device__ __forceinline__ void store_held_from(const H& h, int consumer, int from) {
#pragma unroll
        for (int p = 0; p < H::PARTS; ++p)
            if (p >= from) store_part(h, consumer, p);
    }

  private:
    template <typename H>
    __device__ __forceinline__ void store_part(const H& h, int consumer, int p) {
        const int r = p / SLABS, s = p % SLABS;  // constants once the callers' loops unroll
        const int first = slab_col(s, BN, 64);    // the slab's first column in the tile
        const int row0 = h.m0 + 64 * (H::ROW_BLOCKS * consumer + r);
        const int col0 = h.n0 + first;
        if (row0 >= this->out.M || col0 >= this->out.N) return;  // past C's edge (uniform)
        put_slab<TC, TmaStoreEpilogue<TC, T, BN>::BUFFERS>(
            this->out, this->staging + consumer * TmaStoreEpilogue<TC, T, BN>::BYTES_PER_CONSUMER, this->slabs_done,
            consumer, row0, col0, [&](uint32_t buf) {
#pragma unroll
                for (int q = 0; q < 4; ++q) {
                    const int i = r * (BN / 4) + first / 4 + 4 * q;  // pairs of fragment groups first / 8 + 2q, + 1
                    const uint32_t four[4] = {h.pairs[i], h.pairs[i + 1], h.pairs[i + 2], h.pairs[i + 3]};
                    stage_pairs(buf, q, four);
                }
            });
    }
};

// The scaled int8 epilogue (igemm rung 07) on the same slabs: ScaledDirectEpilogue's values,
// s32 sum * scale_a[row] * scale_b[col] + bias[col] in fp32, rounded once, stored through shared
// memory and TMA so that the stores overlap the next tile's main loop. The tile's column scales
// and bias are in shared memory (prepare, inherited); without a TMA target for C the slabs go
// through copy_slab. BUFFERS staging buffers a consumer: one leaves room for four
// stages of 128 x 256 x 128 int8 next to the column values, two let a slab's writes overlap the
// last slab's store.
template <typename TC, int BN, int BUFFERS>
struct ScaledTmaStoreEpilogue : ScaledDirectEpilogue<TC, BN> {
    static constexpr int BYTES_PER_CONSUMER = BUFFERS * 64 * 128;

    const TmaDescriptor* tma_c;
    uint32_t staging;  // BYTES_PER_CONSUMER per consumer, 1024-byte aligned
    bool tma;
    int slabs_done = 0;

    template <int ACC>
    __device__ __forceinline__ void store(const int32_t (&d)[ACC], int consumer, const Work& w) {
        static_assert(ACC / 4 * 8 == BN, "the fragment holds BN columns");
        const int row0 = w.m0 + 64 * consumer, n0 = w.n0;
        if (row0 >= this->M) return;  // uniform; the next prepare waits for this tile's column copies
        float sa[2];
        this->row_scales(consumer, row0, sa);
        const uint32_t sb = this->scale_b_at(consumer), bb = this->bias_at(consumer);
        const int t = threadIdx.x & 3;
        store_slabs<TC, BN, BUFFERS>({tma_c, this->C, this->ldc, this->M, this->N, tma},
                                     staging + consumer * BYTES_PER_CONSUMER, slabs_done, consumer, row0, n0,
                                     [&](int j, float (&v)[4]) {
            const int at = 4 * (8 * j + 2 * t);
            const float scale[2] = {ld_volatile_shared_f32(sb + at), ld_volatile_shared_f32(sb + at + 4)};
            const float add[2] = {ld_volatile_shared_f32(bb + at), ld_volatile_shared_f32(bb + at + 4)};
#pragma unroll
            for (int e = 0; e < 4; ++e) v[e] = static_cast<float>(d[4 * j + e]) * sa[e >> 1] * scale[e & 1] + add[e & 1];
        });
    }

    __device__ __forceinline__ void finish(int) {
        if (tma && (threadIdx.x & 127) == 0) tma_store_wait<0>();
    }
};

}  // namespace sm90
}  // namespace wg
