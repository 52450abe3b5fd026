// warpgemm/kernels/sm80/packed4_tile.cuh -- shared-memory tiles of packed 4-bit operands and the
// global -> shared copy that fills them (the int4 kernels, int4/01..04).
//
// An operand is an (MN, K) matrix of 4-bit integers packed along K, two to a byte, element 2i in
// the low nibble of byte i (warpgemm.int4.pack): A (M, K) as it is, B (K, N) as W = B^T (N, K).
// In global memory a row is Kb = ceil(K / 2) bytes, rows `ld` bytes apart; the host guarantees a
// 16-byte aligned base and an `ld` that is a multiple of 16 (it copies other operands into such a
// buffer), so a 16-byte chunk never straddles two rows. A k-tile of BK values is BKB = BK / 2
// bytes of each of the tile's rows.
//
// The tiles keep that order, K-major, in one of two byte layouts:
//   SwizzledPacked<MN, BKB>   Sw<3,4,3> o (MN,BKB):(BKB,1)   for ldmatrix (int4/02..04)
//   PaddedPacked<MN, BKB>     (MN,BKB):(BKB+16,1)            for wmma.load, which takes a base
//                                                            and a row stride (int4/01)
//
// Compiles for sm_75 and later: from sm_80 the copy is cp.async (zero-filling what lies outside
// the matrix); on sm_75 the same calls load 16 bytes into registers and store them.
#pragma once

#include "arch/sm75.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#include "arch/sm80.cuh"
#endif
#include "common/util.cuh"

namespace wg {
namespace sm80 {

// Swizzle<3,4,3> on a byte offset: bits [7,10) (which 128-byte line, mod 8) are XORed into bits
// [4,7) (which 16-byte chunk of the line). Chunks stay whole; 8 consecutive lines put one logical
// chunk in 8 different bank groups.
__host__ __device__ constexpr int swizzle_343(int offset) { return offset ^ ((offset >> 3) & 0x70); }

// Rows of BKB = 64 or 128 bytes (128 or 256 values of k): two rows or one to a 128-byte line.
// An ldmatrix phase reads 8 consecutive rows at one 16-byte chunk: 8 different swizzled chunk
// positions, one wavefront. Moving 16 rows on (1024 bytes or more) or 32 bytes of k on (inside
// the row's line) commutes with the swizzle, so a warp keeps one base offset per operand:
//   offset(mn + 16 j, b + 32 s) == (offset(mn, b) ^ 32 s) + 16 j * BKB    for b < 32, 32 s < BKB
template <int MN, int BKB>
struct SwizzledPacked {
    static_assert(BKB == 64 || BKB == 128, "the swizzled int4 tile needs BK = 128 or 256 values (rows of "
                                           "64 or 128 bytes that pack whole 128-byte lines)");
    static_assert(MN % 16 == 0, "int4 tiles are read 16 rows at a time: BM, BN must be multiples of 16");
    static constexpr int ROW_BYTES = BKB;
    static constexpr int BYTES = MN * BKB;
    static __host__ __device__ constexpr int offset(int mn, int b) { return swizzle_343(mn * BKB + b); }
};

// Rows of BKB + 16 bytes: the 8 rows of an 8 x 32 fragment (16 bytes each) start 80 or 144 bytes
// apart, which puts them in 8 different bank groups; rows stay 16-byte aligned.
template <int MN, int BKB>
struct PaddedPacked {
    static_assert(BKB % 16 == 0, "int4 tiles are copied in 16-byte chunks: BK must be a multiple of 32");
    static constexpr int ROW_BYTES = BKB + 16;
    static constexpr int BYTES = MN * ROW_BYTES;
    static __host__ __device__ constexpr int offset(int mn, int b) { return mn * ROW_BYTES + b; }
};

// Whether chunk c + i * THREADS is stored at offset(chunk c) + offset(chunk i * THREADS) for
// every thread and chunk: the copy keeps one shared offset per thread.
template <class Layout, int CHUNKS, int CPR, int THREADS>
__host__ __device__ constexpr bool packed_chunks_move_together() {
    for (int t = 0; t < THREADS; ++t)
        for (int c = THREADS; c < CHUNKS; c += THREADS)
            if (Layout::offset((t + c) / CPR, 16 * ((t + c) % CPR)) !=
                Layout::offset(t / CPR, 16 * (t % CPR)) + Layout::offset(c / CPR, 16 * (c % CPR)))
                return false;
    return true;
}

// Global -> shared copy of one operand's (MN, BKB) byte tile per k-tile, in 16-byte chunks.
// Thread `tid` moves chunks tid, tid + THREADS, ... in row order (CPR chunks a row), so it keeps
// one chunk column and rows THREADS / CPR apart. A chunk past the matrix's rows, or past its Kb
// bytes, is zero-filled (in part or whole): the tile holds zeros beyond M or N and beyond K.
template <class Layout, int MN, int BKB, int THREADS>
struct PackedTileCopy {
    static constexpr int CPR = BKB / 16;
    static constexpr int CHUNKS = MN * CPR;
    static constexpr int PER_THREAD = CHUNKS / THREADS;
    static constexpr int ROW_STEP = THREADS / CPR;
    static_assert(BKB % 16 == 0, "int4 tiles are copied in 16-byte chunks: BK must be a multiple of 32");
    static_assert(THREADS % CPR == 0 && CHUNKS % THREADS == 0,
                  "every thread must copy the same chunks of whole rows: BM*BK/32 and BN*BK/32 must be "
                  "multiples of the thread count, and the thread count a multiple of BK/32");
    static_assert(packed_chunks_move_together<Layout, CHUNKS, CPR, THREADS>(),
                  "a thread's chunks must sit at fixed distances in the tile: use a thread count whose "
                  "rows of chunks span whole multiples of 8 swizzled lines");

    const uint8_t* src;  // this thread's chunk in k-tile 0 (dereferenced only where it exists)
    int64_t ld;          // bytes between rows
    int rows_left;       // rows of the matrix from this thread's first row on
    int kb_left;         // bytes of each row from this thread's chunk column on
    int dst;             // where its first chunk goes in a tile

    __device__ __forceinline__ PackedTileCopy(const uint8_t* X, int ld_bytes, int mn0, int rows, int Kb, int tid) {
        const int r = tid / CPR;
        const int c = 16 * (tid % CPR);
        ld = ld_bytes;
        src = X + (mn0 + r) * ld + c;
        rows_left = rows - (mn0 + r);
        kb_left = Kb - c;
        dst = Layout::offset(r, c);
    }

    // How many bytes of chunk i of k-tile kt lie inside the matrix (0..16).
    __device__ __forceinline__ int bytes(int i, int kt) const {
        return i * ROW_STEP < rows_left ? imin(imax(kb_left - kt * BKB, 0), 16) : 0;
    }

    __device__ __forceinline__ const uint8_t* address(int i, int kt) const {
        return src + i * ROW_STEP * ld + kt * BKB;
    }

    __device__ __forceinline__ int dst_of(int i) const {
        return dst + Layout::offset(i * ROW_STEP, 0);  // a constant once unrolled
    }

    // Every chunk of k-tile kt into `tile` (shared memory), zero-filled beyond the matrix. From
    // sm_80 asynchronously (cp.async; complete after packed4_wait); on sm_75 before returning.
    __device__ __forceinline__ void copy(uint8_t* tile, const uint8_t* X, int kt) const {
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            const int n = bytes(i, kt);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
            SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy(tile + dst_of(i), n > 0 ? address(i, kt) : X, n);
#else
            uint4 v = make_uint4(0u, 0u, 0u, 0u);
            if (n == 16) {
                v = ld_global_nc_v4(address(i, kt));
            } else if (n > 0) {
                const uint8_t* p = address(i, kt);
                uint32_t w[4] = {0u, 0u, 0u, 0u};
                for (int j = 0; j < n; ++j) w[j / 4] |= static_cast<uint32_t>(p[j]) << (8 * (j % 4));
                v = make_uint4(w[0], w[1], w[2], w[3]);
            }
            st_shared_v4_u32(smem_u32(tile + dst_of(i)), v.x, v.y, v.z, v.w);
#endif
        }
    }
};

// The copies issued since the last commit form one group (from sm_80; nothing to do on sm_75,
// where the copies are done when issued).
__device__ __forceinline__ void packed4_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    cp_async_commit();
#endif
}

// Wait until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void packed4_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    cp_async_wait<N>();
#endif
}

// An odd K leaves a pad nibble (k = K, the high half of byte Kb - 1) in every row. pack() writes
// it as zero, but bytes from elsewhere need not: clear it in the A tile of the k-tile that holds
// it (holds_pad_nibble), so that it multiplies nothing. The caller then synchronises the block.
template <class Layout, int MN, int BKB, int THREADS>
__device__ __forceinline__ void clear_pad_nibble(uint8_t* tile, int K, int kt, int tid) {
    const int b = (K >> 1) - kt * BKB;  // byte Kb - 1 within k-tile kt
    for (int r = tid; r < MN; r += THREADS) tile[Layout::offset(r, b)] &= 0x0F;
}

// Whether k-tile kt holds the pad nibble of an odd K.
template <int BKB>
__device__ __forceinline__ bool holds_pad_nibble(int K, int kt) {
    return (K & 1) && (K >> 1) / BKB == kt;
}

}  // namespace sm80
}  // namespace wg
