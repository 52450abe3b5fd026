// warpgemm/kernels/sm80/row_sweep_mma.cuh -- the body of decode/04_row_sweep_mma: C = A @ W^T for
// up to 16 tokens, the grid reading W from its first row to its last as rung 03 does, each warp's
// share of 8 rows staged in shared memory by cp.async and fed to mma.sync through ldmatrix.
// decode/04_row_sweep_mma.cu says why; its launch comment says how to launch it.
#pragma once

#include "arch/sm80.cuh"
#include "common/util.cuh"
#include "sm80/mma.cuh"
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#include "arch/sm90.cuh"
#endif

namespace wg {
namespace row_sweep_mma {

constexpr int ROWS = 8;             // rows of W a pass: the mma's N side
constexpr int CHUNK_BYTES = 16;     // a lane's cp.async: 8 elements of a row
constexpr int ROW_BYTES = 32 * 16;  // a warp's share of a row in one k-step: 256 elements
constexpr int SLOT_BYTES = ROWS * ROW_BYTES;  // one stage of a warp's ring: (8, 256):(256, 1) elements

// Byte offset of 16-byte chunk `c` (0..31) of row `j` (0..7) in a slot: Swizzle<3,3,5> on the
// element offsets of (8, 256):(256, 1) (the row's bits [8,11) into the chunk's [3,6)), i.e.
// chunk c stored at c ^ j. A warp's cp.async of one row (32 chunks) fills 512 contiguous bytes,
// and ldmatrix's 8 row addresses of one chunk (rows 0..7) land in 8 different 16-byte bank
// groups: both conflict-free (tests/test_layout_banks.py). The 128-byte swizzle, Swizzle<3,3,3>,
// would not do: it reads the row from the line index, and rows 512 bytes apart share it mod 2.
__device__ __forceinline__ uint32_t slot_offset(int j, int c) {
    return static_cast<uint32_t>(j * ROW_BYTES + ((c ^ j) * CHUNK_BYTES));
}

// Token m's 16-byte chunk of 8 elements at k0 (a multiple of 8), zero past M and past K. A's base
// is 16-byte aligned and its leading dimension a multiple of 8 elements, so whole chunks are
// aligned; the last, partial chunk of a row is read element by element.
template <typename T>
__device__ __forceinline__ uint4 token_chunk(const T* __restrict__ A, int lda, int M, int K, int m, int k0) {
    if (m >= M || k0 >= K) return make_uint4(0u, 0u, 0u, 0u);
    const T* p = A + static_cast<long long>(m) * lda + k0;
    return k0 + 8 <= K ? ld_global_nc_v4(p) : load_partial_chunk(p, K - k0);
}

// The body. Block b of the grid's G takes rows b + G j of W, 8 a pass (j = 8p .. 8p + 7 in pass
// p). Warp w of the block owns elements [8 (s THREADS + 32 w), + 256) of every row in k-step s (s <
// KSTEPS): lane l copies the row's 16-byte chunk s THREADS + 32 w + l. Each (pass, k-step) is one
// stage of the warp's own ring of STAGES slots in shared memory, so the warps run their pipelines
// without waiting for each other; the block meets once a pass, to add its warps' sums.
template <typename T, typename TC, int TOKENS, int THREADS, int KSTEPS, int STAGES>
__device__ __forceinline__ void sweep(const T* __restrict__ A, const T* __restrict__ B, TC* __restrict__ C, int M,
                                      int N, int K, int lda, int ldb, int ldc, const T* __restrict__ bias) {
    constexpr int WARPS = THREADS / 32;
    constexpr int SUMS = TOKENS * ROWS;  // a warp's partial sums a pass: (TOKENS, 8):(8, 1)
    using Mma = sm80::Mma16x8x16<T, float[4]>;

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int G = gridDim.x;
    unsigned char* smem = dynamic_smem();
    const uint32_t ring = smem_u32(smem) + static_cast<uint32_t>(warp * STAGES * SLOT_BYTES);
    float* partial = reinterpret_cast<float*>(smem + WARPS * STAGES * SLOT_BYTES);  // [2][WARPS][SUMS]

    const int passes = blockIdx.x < N ? (N - 1 - static_cast<int>(blockIdx.x)) / (ROWS * G) + 1 : 0;
    const int stages = passes * KSTEPS;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    griddepcontrol_wait();
    griddepcontrol_launch_dependents();
#endif

    // Stage i = (pass i / KSTEPS, k-step i % KSTEPS): 8 cp.async a lane into slot i % STAGES, rows
    // past N and bytes past K zero-filled (nothing read). A group is committed even when empty,
    // so that the wait below counts stages.
    auto issue = [&](int i) {
        if (i < stages) {
            const int base = static_cast<int>(blockIdx.x) + (i / KSTEPS) * ROWS * G;
            const int k0 = 8 * ((i % KSTEPS) * THREADS + 32 * warp + lane);
            const int bytes = K - k0 >= 8 ? 16 : (K > k0 ? 2 * (K - k0) : 0);
            const uint32_t slot = ring + static_cast<uint32_t>((i % STAGES) * SLOT_BYTES);
#pragma unroll
            for (int j = 0; j < ROWS; ++j) {
                const int row = base + G * j;
                const int n_bytes = row < N ? bytes : 0;
                const T* src = n_bytes ? B + static_cast<long long>(row) * ldb + k0 : B;
                SM80_CP_ASYNC_CACHEGLOBAL_ZFILL::copy_to(slot + slot_offset(j, lane), src, n_bytes);
            }
        }
        cp_async_commit();
    };
#pragma unroll
    for (int i = 0; i < STAGES - 1; ++i) issue(i);

    // The tokens' A fragments for every k-step, loaded once and kept in registers: k-step s, mma
    // step q (16 elements) covers k = 8 (s THREADS + 32 w) + 16 q + {2t, 2t+1, 2t+8, 2t+9}, the k
    // that ldmatrix gives this lane of W below. a = {(token g, k), (token g + 8, k), (token g, k +
    // 8), (token g + 8, k + 8)}, the second half zero (no register) with 8 tokens. They come the
    // way W does: 8 tokens' chunks a round, each lane one 16-byte chunk of each token (512
    // contiguous bytes a token for the warp), through the ring's last slot (no stage is issued to
    // it before the main loop), and ldmatrix.
    uint32_t xa[KSTEPS][16][4];
    const uint32_t x_slot = ring + static_cast<uint32_t>((STAGES - 1) * SLOT_BYTES);
    unsigned char* x_slot_ptr = smem + (x_slot - smem_u32(smem));
#pragma unroll
    for (int s = 0; s < KSTEPS; ++s)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            if (h == 1 && TOKENS == 8) {
#pragma unroll
                for (int q = 0; q < 16; ++q) xa[s][q][1] = xa[s][q][3] = 0u;
                continue;
            }
            uint4 v[ROWS];
#pragma unroll
            for (int j = 0; j < ROWS; ++j)
                v[j] = token_chunk(A, lda, M, K, 8 * h + j, 8 * (s * THREADS + 32 * warp + lane));
            __syncwarp();  // the last round's ldmatrix are done with the slot
#pragma unroll
            for (int j = 0; j < ROWS; ++j) *reinterpret_cast<uint4*>(x_slot_ptr + slot_offset(j, lane)) = v[j];
            __syncwarp();
#pragma unroll
            for (int q2 = 0; q2 < 8; ++q2) {
                uint32_t r[4];
                SM75_U32x4_LDSM_N::copy(r, x_slot + slot_offset(lane & 7, 4 * q2 + (lane >> 3)));
                xa[s][2 * q2][h] = r[0];
                xa[s][2 * q2][2 + h] = r[1];
                xa[s][2 * q2 + 1][h] = r[2];
                xa[s][2 * q2 + 1][2 + h] = r[3];
            }
        }

    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // (token g, rows 2t, 2t+1), (token g + 8, rows 2t, 2t+1)
    for (int pass = 0; pass < passes; ++pass) {
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
            const int i = pass * KSTEPS + s;
            cp_async_wait<STAGES - 2>();
            __syncwarp();  // every lane's copies of stage i have landed; every lane is done with stage i - 1
            issue(i + STAGES - 1);  // into the slot stage i - 1 used (or, at i = 0, the tokens' slot)
            const uint32_t slot = ring + static_cast<uint32_t>((i % STAGES) * SLOT_BYTES);
#pragma unroll
            for (int q2 = 0; q2 < 8; ++q2) {  // two mma steps: chunks 4 q2 .. 4 q2 + 3 of the 8 rows
                uint32_t b[4];
                SM75_U32x4_LDSM_N::copy(b, slot + slot_offset(lane & 7, 4 * q2 + (lane >> 3)));
                const uint32_t b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
                Mma::fma(acc, xa[s][2 * q2], b0);
                Mma::fma(acc, xa[s][2 * q2 + 1], b1);
            }
        }

        // The block adds its warps' sums in warp order.
        const int base = static_cast<int>(blockIdx.x) + pass * ROWS * G;
        float* mine = partial + ((pass & 1) * WARPS + warp) * SUMS;
        *reinterpret_cast<float2*>(mine + g * ROWS + 2 * t) = make_float2(acc[0], acc[1]);
        if (TOKENS > 8)
            *reinterpret_cast<float2*>(mine + (g + 8) * ROWS + 2 * t) = make_float2(acc[2], acc[3]);
        acc[0] = acc[1] = acc[2] = acc[3] = 0.0f;
        __syncthreads();  // one barrier a pass: partial has two buffers, read before the next barrier
        const int q = threadIdx.x;
        if (q < SUMS) {
            const int m = q / ROWS, row = base + G * (q % ROWS);
            if (m < M && row < N) {
                const float* all = partial + (pass & 1) * WARPS * SUMS + q;
                float sum = 0.0f;
#pragma unroll
                for (int w = 0; w < WARPS; ++w) sum += all[w * SUMS];
                if (bias != nullptr) sum += sm80::to_float(bias[row]);
                C[static_cast<long long>(m) * ldc + row] = sm80::from_float<TC>(sum);
            }
        }
    }
    cp_async_wait<0>();  // no copy outlives the block (the tail's groups are empty)
}

}  // namespace row_sweep_mma
}  // namespace wg
