// probes/mma_probe.cu -- one mma.sync by one warp, on register fragments the host packed.
//
// Lane l reads its A, B and C registers from a[l * RA + i], b[l * RB + i], c[l * RC + i]
// (RA, RB, RC = registers per lane for the instruction), issues the instruction once and writes
// D to d[l * RC + i]. The host packs and unpacks the fragments with warpgemm.layout's MMA atom
// TV layouts, so a wrong layout shows up as a wrong product.
#include "arch/sm80.cuh"

// The instructions, by the CuTe atom they implement.
enum MmaProbe : int {
    F16F16F16F16_16x8x16 = 0,    // SM80_16x8x16_F16F16F16F16_TN
    F32F16F16F32_16x8x16 = 1,    // SM80_16x8x16_F32F16F16F32_TN
    F32BF16BF16F32_16x8x16 = 2,  // SM80_16x8x16_F32BF16BF16F32_TN
    F32TF32TF32F32_16x8x8 = 3,   // SM80_16x8x8_F32TF32TF32F32_TN
    S32S8S8S32_16x8x32 = 4,      // SM80_16x8x32_S32S8S8S32_TN
    S32S4S4S32_16x8x64 = 5,      // SM80_16x8x64_S32S4S4S32_TN
    S32S4S4S32_8x8x32 = 6,       // SM80_8x8x32_S32S4S4S32_TN
    F16F16F16F16_8x8x4 = 7,      // SM70_8x8x4_F16F16F16F16_TN
    S32U4U4S32_16x8x64 = 8,      // SM80_16x8x64_S32U4U4S32_TN
    S32U4U4S32_8x8x32 = 9,       // SM80_8x8x32_S32U4U4S32_TN
    S32S4S4S32_16x8x32 = 10,     // SM80_16x8x32_S32S4S4S32_TN
    S32U4U4S32_16x8x32 = 11,     // SM80_16x8x32_S32U4U4S32_TN
};

template <int RA, int RB, int RC>
struct Frags {
    wg::uint32_t a[RA], b[RB], c[RC];
};

template <int RA, int RB, int RC>
__device__ __forceinline__ void load_frags(Frags<RA, RB, RC>& f, const wg::uint32_t* a,
                                           const wg::uint32_t* b, const wg::uint32_t* c, int lane) {
    for (int i = 0; i < RA; ++i) f.a[i] = a[lane * RA + i];
    for (int i = 0; i < RB; ++i) f.b[i] = b[lane * RB + i];
    for (int i = 0; i < RC; ++i) f.c[i] = c[lane * RC + i];
}

template <int KIND>
__global__ void mma_probe(const wg::uint32_t* a, const wg::uint32_t* b, const wg::uint32_t* c,
                          wg::uint32_t* d) {
    const int lane = threadIdx.x % 32;
    if constexpr (KIND == F16F16F16F16_16x8x16) {
        Frags<4, 2, 2> f;
        load_frags(f, a, b, c, lane);
        wg::SM80_16x8x16_F16F16F16F16_TN::fma(f.c, f.a, f.b);
        for (int i = 0; i < 2; ++i) d[lane * 2 + i] = f.c[i];
    } else if constexpr (KIND == F32F16F16F32_16x8x16 || KIND == F32BF16BF16F32_16x8x16 ||
                         KIND == F32TF32TF32F32_16x8x8) {
        Frags<4, 2, 4> f;
        load_frags(f, a, b, c, lane);
        float acc[4];
        for (int i = 0; i < 4; ++i) acc[i] = reinterpret_cast<const float*>(f.c)[i];
        if constexpr (KIND == F32F16F16F32_16x8x16) {
            wg::SM80_16x8x16_F32F16F16F32_TN::fma(acc, f.a, f.b);
        } else if constexpr (KIND == F32BF16BF16F32_16x8x16) {
            wg::SM80_16x8x16_F32BF16BF16F32_TN::fma(acc, f.a, f.b);
        } else {
            wg::SM80_16x8x8_F32TF32TF32F32_TN::fma(acc, f.a, f.b);
        }
        for (int i = 0; i < 4; ++i) reinterpret_cast<float*>(d)[lane * 4 + i] = acc[i];
    } else if constexpr (KIND == S32S8S8S32_16x8x32 || KIND == S32S4S4S32_16x8x64 || KIND == S32U4U4S32_16x8x64) {
        Frags<4, 2, 4> f;
        load_frags(f, a, b, c, lane);
        wg::int32_t acc[4];
        for (int i = 0; i < 4; ++i) acc[i] = static_cast<wg::int32_t>(f.c[i]);
        if constexpr (KIND == S32S8S8S32_16x8x32) {
            wg::SM80_16x8x32_S32S8S8S32_TN::fma(acc, f.a, f.b);
        } else if constexpr (KIND == S32S4S4S32_16x8x64) {
            wg::SM80_16x8x64_S32S4S4S32_TN::fma(acc, f.a, f.b);
        } else {
            wg::SM80_16x8x64_S32U4U4S32_TN::fma(acc, f.a, f.b);
        }
        for (int i = 0; i < 4; ++i) d[lane * 4 + i] = static_cast<wg::uint32_t>(acc[i]);
    } else if constexpr (KIND == S32S4S4S32_16x8x32 || KIND == S32U4U4S32_16x8x32) {
        Frags<2, 1, 4> f;
        load_frags(f, a, b, c, lane);
        wg::int32_t acc[4];
        for (int i = 0; i < 4; ++i) acc[i] = static_cast<wg::int32_t>(f.c[i]);
        if constexpr (KIND == S32S4S4S32_16x8x32) {
            wg::SM80_16x8x32_S32S4S4S32_TN::fma(acc, f.a, f.b);
        } else {
            wg::SM80_16x8x32_S32U4U4S32_TN::fma(acc, f.a, f.b);
        }
        for (int i = 0; i < 4; ++i) d[lane * 4 + i] = static_cast<wg::uint32_t>(acc[i]);
    } else if constexpr (KIND == S32S4S4S32_8x8x32 || KIND == S32U4U4S32_8x8x32) {
        Frags<1, 1, 2> f;
        load_frags(f, a, b, c, lane);
        wg::int32_t acc[2] = {static_cast<wg::int32_t>(f.c[0]), static_cast<wg::int32_t>(f.c[1])};
        if constexpr (KIND == S32S4S4S32_8x8x32) {
            wg::SM80_8x8x32_S32S4S4S32_TN::fma(acc, f.a, f.b);
        } else {
            wg::SM80_8x8x32_S32U4U4S32_TN::fma(acc, f.a, f.b);
        }
        for (int i = 0; i < 2; ++i) d[lane * 2 + i] = static_cast<wg::uint32_t>(acc[i]);
    } else {
        static_assert(KIND == F16F16F16F16_8x8x4, "unknown probe kind");
        Frags<2, 2, 4> f;
        load_frags(f, a, b, c, lane);
        wg::SM70_8x8x4_F16F16F16F16_TN::fma(f.c, f.a, f.b);
        for (int i = 0; i < 4; ++i) d[lane * 4 + i] = f.c[i];
    }
}
