// warpgemm/kernels/sm90/warpgroup_mma.cuh -- one warpgroup's ROWS x BN tile of C (ROWS = 64, or
// 128 as two 64-row blocks): the wgmma of one k-tile, over operand tiles in shared memory
// (sm90/smem_operand.cuh).
//
// A wgmma computes 64 rows. A warpgroup of 128 rows issues two per k-step, one for each row block,
// with the same B descriptor, into two sets of BN / 2 accumulators: acc[r * BN / 2 + i] is
// element i of row block r's fragment.
//
// The MMA atom and the element type are template parameters (Gmma<T, BN, ...> in arch/sm90.cuh):
// the same code multiplies fp16, bf16 (k16 steps, fp32 accumulators) and int8 (k32 steps, s32
// accumulators). A row-major A and a column-major B are K-major; the others are MN-major and the
// atom reads them transposed (16-bit types only).
#pragma once

#include "arch/sm90.cuh"
#include "sm90/smem_operand.cuh"

namespace wg {
namespace sm90 {

template <typename T, int BM, int BN, int BK, bool A_ROW, bool B_ROW, int ROWS = 64>
struct WarpgroupMma {
    using OperandA = SwizzledOperand<T, BM, BK, A_ROW>;
    using OperandB = SwizzledOperand<T, BN, BK, !B_ROW>;
    // An 8-bit MN-major operand (A column-major, B row-major) is only landed here; a transposing
    // copy turns it K-major before any wgmma reads it (sm90/mainloop_transposing.cuh), so its atom
    // reads K-major.
    using Atom = Gmma<T, BN, (A_ROW || sizeof(T) == 1) ? 0 : 1, (B_ROW && sizeof(T) == 2) ? 1 : 0>;
    using Acc = typename Atom::Acc;
    static constexpr int ROW_BLOCKS = ROWS / 64;
    static constexpr int ACC = ROW_BLOCKS * BN / 2;  // accumulators per thread
    static constexpr int K_STEPS = BK / Atom::K;
    static_assert(BK % Atom::K == 0, "BK must be a multiple of the wgmma's k (16 for 16-bit, 32 for 8-bit)");
    static_assert(BM % 64 == 0, "a wgmma computes 64 rows of C: BM is a multiple of 64");
    static_assert(ROWS == 64 || ROWS == 128, "a warpgroup computes 64 or 128 rows of C (one or two wgmma a k-step)");

    // k_tile reaches each wgmma's operands from the k-tile's first descriptors by an offset, which
    // holds only where an operand's offset is a sum of its row part and its k part (and every
    // offset a whole number of 16-byte units): true of both swizzled layouts, checked here for
    // the row blocks and k-steps k_tile uses.
    template <typename Operand>
    static __host__ __device__ constexpr bool offsets_add(int rows) {
        for (int r = 0; r < rows; r += 64)
            for (int s = 0; s < K_STEPS; ++s) {
                const uint32_t off = Operand::offset(r, s * Atom::K);
                if (off != Operand::offset(r, 0) + Operand::offset(0, s * Atom::K) || off % 16 != 0) return false;
            }
        return true;
    }
    static_assert(offsets_add<OperandA>(ROWS) && offsets_add<OperandB>(64),
                  "an operand's offset must be its row part plus its k part, in 16-byte units, for k_tile's "
                  "desc_advance to reach each wgmma's descriptor");

    // Issue the K_STEPS wgmma of one k-tile (ROW_BLOCKS of them a k-step) for the warpgroup's rows
    // [row, row + ROWS) of the tile, accumulating into `acc` (or overwriting it when `accumulate`
    // is false), and commit them as one group. The caller waits for the group (wgmma_wait_group)
    // before it reads `acc` or lets the stage be overwritten.
    //
    // The k-tile's first descriptors are built once; every other wgmma's is one add away
    // (desc_advance, by the operand's offset of its row block and k-step).
    static __device__ __forceinline__ void k_tile(Acc (&acc)[ACC], uint32_t a_tile, uint32_t b_tile, int row,
                                                  bool accumulate) {
        const uint64_t a0 = OperandA::desc(a_tile, row, 0);
        const uint64_t b0 = OperandB::desc(b_tile, 0, 0);
        wgmma_fence_operand(acc);
        wgmma_fence();
#pragma unroll
        for (int s = 0; s < K_STEPS; ++s) {
            const uint64_t b = desc_advance(b0, OperandB::offset(0, s * Atom::K));
            if constexpr (ROW_BLOCKS == 1) {
                Atom::fma(acc, desc_advance(a0, OperandA::offset(0, s * Atom::K)), b, (accumulate || s > 0) ? 1u : 0u);
            } else {
#pragma unroll
                for (int r = 0; r < ROW_BLOCKS; ++r) {
                    Atom::fma(*reinterpret_cast<Acc(*)[BN / 2]>(&acc[r * (BN / 2)]),
                              desc_advance(a0, OperandA::offset(64 * r, s * Atom::K)), b,
                              (accumulate || s > 0) ? 1u : 0u);
                }
            }
        }
        wgmma_commit_group();
        wgmma_fence_operand(acc);
    }
};

}  // namespace sm90
}  // namespace wg
