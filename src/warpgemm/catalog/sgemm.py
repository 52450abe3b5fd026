"""The SGEMM ladder: fp32 in, fp32 out (``kernels/sgemm/``)."""

from __future__ import annotations

from typing import Mapping

from .spec import Family, KernelSpec, cdiv

_VEC4 = "16-byte aligned base pointer and leading dimension (a multiple of 4 floats); " \
        "other inputs are copied to an aligned buffer first"


def _tile_bm_bn(p: Mapping[str, int]) -> tuple[int, int]:
    return p["BM"], p["BN"]


def _threads_thread_tile(p: Mapping[str, int]) -> int:
    return (p["BM"] // p["TM"]) * (p["BN"] // p["TN"])


def _threads_warp_tiles(p: Mapping[str, int]) -> int:
    return 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"])


def _padded_tile(mn: int, bk: int) -> int:
    # Floats of one stage of an operand tile in either layout: k-contiguous rows padded by 4,
    # or mn-contiguous rows padded by 8 (both conflict-free for the mma fragment reads).
    return max(mn * (bk + 4), bk * (mn + 8))


def _tiles_1d(m: int, n: int, p: Mapping[str, int]) -> tuple[int, int, int]:
    # One block per tile of C on a 1-D grid; the kernel maps block -> tile (block swizzle).
    return (cdiv(n, p["BN"]) * cdiv(m, p["BM"]), 1, 1)


def _tf32_valid(p: Mapping[str, int]) -> bool:
    """The static_asserts of sgemm/08, for every layout (t = threads)."""
    t = _threads_warp_tiles(p)
    return (p["BM"] % p["WM"] == 0 and p["BN"] % p["WN"] == 0 and p["WM"] % 16 == 0
            and p["WN"] % 16 == 0 and p["BK"] % 16 == 0 and p["STAGES"] >= 2 and p["SWIZZLE"] >= 1
            and t <= 1024
            and all(mn * bk // 4 % t == 0 and t % (bk // 4) == 0 and t % (mn // 4) == 0
                    for mn, bk in ((p["BM"], p["BK"]), (p["BN"], p["BK"])))
            and p["WM"] * p["WN"] // 32 + 2 * (p["WM"] // 4 + p["WN"] // 4) + 40 <= min(255, 65536 // t))


_FFMA_TUNING = {"BM": (64, 128), "BN": (64, 128), "BK": (8, 16), "TM": (4, 8), "TN": (4, 8)}
_THREAD_TILE = dict(params={"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8}, threads=_threads_thread_tile,
                    align_elems=4, constraints=(_VEC4,), tuning=_FFMA_TUNING)

SGEMM_FAMILY = Family(
    name="sgemm", title="SGEMM ladder (fp32 in, fp32 out)", bench_dtype="float32", square_max=8192,
    defaults=dict(outputs={"float32": ("float32",)}, math="ffma", tile=_tile_bm_bn, arch="sm_75"),
    bench_variants=(("sgemm/08_tf32_mma", {"STAGES": 2}),),
)
_f = SGEMM_FAMILY.spec

SGEMM: tuple[KernelSpec, ...] = (
    _f(1, "one thread per element of C, reading A and B straight from global memory",
       "naive", "sgemm_naive", params={"BM": 16, "BN": 16}, threads=lambda p: p["BM"] * p["BN"]),
    _f(2, "stage BMxBK and BKxBN slices of A and B in shared memory, reused by the block",
       "smem_sliced_k", "sgemm_smem_sliced_k", params={"BM": 32, "BN": 32, "BK": 32},
       threads=lambda p: p["BM"] * p["BN"]),
    _f(3, "each thread computes a TMxTN (8x8) tile of C from registers; float4 global loads",
       "thread_tile_8x8", "sgemm_thread_tile", **_THREAD_TILE),
    _f(4, "store A transposed (k-major) in shared memory so the inner loop reads float4 without "
          "bank conflicts", "bank_conflict_free", "sgemm_bank_conflict_free", **_THREAD_TILE),
    _f(5, "two shared-memory buffers: load the next k-slice while computing on this one",
       "double_buffer", "sgemm_double_buffer", **_THREAD_TILE),
    _f(6, "a k-slice of 16: half the barriers per FLOP of the k8 double buffer",
       "k16_double_buffer", "sgemm_k16_double_buffer", **{**_THREAD_TILE, "params": {**_THREAD_TILE["params"], "BK": 16}}),
    _f(7, "cp.async copies global to shared memory without passing through registers, STAGES-1 "
          "k-slices ahead", "cp_async", "sgemm_cp_async",
       **{**_THREAD_TILE, "params": {"BM": 128, "BN": 128, "BK": 16, "TM": 8, "TN": 8, "STAGES": 3},
          "tuning": {**_FFMA_TUNING, "STAGES": (2, 3, 4)}},
       # STAGES slices of A and B, each in its global order. The larger layout, k-contiguous
       # (rows of BK + 4 floats, 4 more per 8 rows), sizes it whatever the layouts.
       smem_bytes=lambda p: 4 * p["STAGES"] * ((p["BM"] + p["BN"]) * (p["BK"] + 4) + 4 * (p["BM"] + p["BN"]) // 8),
       arch="sm_80"),
    _f(8, "TF32 tensor cores (mma.sync m16n8k8) fed by a multi-stage cp.async pipeline, with a "
          "block swizzle for L2 reuse", "tf32_mma", "sgemm_tf32_mma", math="tf32",
       params={"BM": 128, "BN": 256, "BK": 32, "WM": 64, "WN": 64, "STAGES": 3, "SWIZZLE": 8},
       threads=_threads_warp_tiles, align_elems=4, constraints=(_VEC4,),
       tuning={"BM": (64, 128, 256), "BN": (64, 128, 256), "BK": (16, 32), "WM": (32, 64),
               "WN": (32, 64), "STAGES": (2, 3, 4), "SWIZZLE": (1, 4, 8, 16)},
       smem_bytes=lambda p: 4 * p["STAGES"] * (_padded_tile(p["BM"], p["BK"]) + _padded_tile(p["BN"], p["BK"])),
       grid=_tiles_1d, arch="sm_80", valid=_tf32_valid),
)
