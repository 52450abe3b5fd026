// probes/l2_halves_probe.cu -- which SMs read through which half of the L2.
//
// Hopper's L2 is two partitions. An SM reads through the one its GPC is wired to; a line it finds
// only in the other half crosses between them, slower, and is then kept in its own half too. So
// when SM r has just read a set of lines, an SM on r's side finds every line near, and an SM on
// the other side finds about half of them far (those whose home is r's half; the rest are at
// home on its own side).
//
// Launch one block per SM (`blocks` = the SM count, with enough dynamic shared memory that no two
// share an SM; every block must be resident at once, as it waits on the others). Block 0 is the
// reference: for each other block b in turn it chases through set b (`lines` lines, each 128-byte
// line holding the word offset of the next, L1 bypassed), then raises flags[b] and waits for
// flags[b] to come back as 2. Block b waits for its flag, times its own chase through the same
// lines twice (clock64: the first pass measures the split, the second, with every line near
// by then, the base), writes the two cycle counts to cycles[2 b], cycles[2 b + 1] and its SM to
// sm_of[b], and lowers the flag. flags start at 0. One thread a block works; the others return.
// A wait gives up after about 2^32 cycles (a block that is not resident, or a reference that
// never comes): the waiting block then leaves its cycle counts at 0.
#include "arch/sm70.cuh"

extern "C" __global__ void l2_halves_probe(const unsigned* __restrict__ sets, int* flags, int* sm_of,
                                           unsigned long long* cycles, int blocks, int lines, long long set_words) {
    if (threadIdx.x != 0) return;
    volatile int* flag = flags;
    constexpr long long PATIENCE = 1ll << 32;  // cycles
    const int b = blockIdx.x;
    sm_of[b] = static_cast<int>(wg::sm_id());
    if (b == 0) {
        for (int t = 1; t < blocks; ++t) {
            const unsigned* s = sets + t * set_words;
            unsigned i = 0, fold = 0;
            for (int n = 0; n < lines; ++n) {
                i = __ldcg(s + i);
                fold += i;
            }
            if (fold == 0xffffffffu) sm_of[0] = -1;  // never: keeps the chase
            __threadfence();
            flag[t] = 1;
            const long long start = clock64();
            while (flag[t] != 2 && clock64() - start < PATIENCE) {
            }
        }
        return;
    }
    const long long start = clock64();
    while (flag[b] != 1) {
        if (clock64() - start > PATIENCE) return;
    }
    const unsigned* s = sets + b * set_words;
    for (int pass = 0; pass < 2; ++pass) {
        unsigned i = 0;
        const long long t0 = clock64();
        for (int n = 0; n < lines; ++n) i = __ldcg(s + i);
        const long long t1 = clock64();
        cycles[2 * b + pass] = static_cast<unsigned long long>(t1 - t0) + (i == 0xffffffffu);
    }
    __threadfence();
    flag[b] = 2;
}
