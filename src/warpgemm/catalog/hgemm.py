"""The HGEMM ladder: fp16 / bf16 in, fp32 accumulation, fp16 / bf16 / fp32 out
(``kernels/hgemm/``), on mma.sync."""

from __future__ import annotations

from typing import Mapping

from .spec import Family, KernelSpec, cdiv, gemm_bias_args

_VEC8 = "16-byte aligned base pointer and leading dimension (a multiple of 8 elements); " \
        "other inputs are copied to an aligned buffer first"
_MMA_TILE = {"BM": 256, "BN": 128, "BK": 32, "WM": 64, "WN": 64}  # the classic mma.sync HGEMM tiling


def _threads_warp_tiles(p: Mapping[str, int]) -> int:
    return 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"])


def _tiles_1d(m: int, n: int, p: Mapping[str, int]) -> tuple[int, int, int]:
    # One block per tile of C on a 1-D grid; the kernel maps block -> tile in swizzled order.
    return (cdiv(n, p["BN"]) * cdiv(m, p["BM"]), 1, 1)


def _hgemm_smem(p: Mapping[str, int], c_bytes: int = 4) -> int:
    # STAGES k-tiles of A and B (2-byte elements), or the C staging tile (BM x BN of the output
    # type; the widest, fp32, unless the kernel only writes fp16), whichever is larger.
    return max(2 * p.get("STAGES", 1) * (p["BM"] + p["BN"]) * p["BK"], c_bytes * p["BM"] * p["BN"])


def _hgemm_valid(p: Mapping[str, int]) -> bool:
    """The static_asserts of hgemm/06..08, for every layout."""
    bm, bn, bk, wm, wn = p["BM"], p["BN"], p["BK"], p["WM"], p["WN"]
    if bm % wm or bn % wn or wm % 16 or wn % 64 or bk not in (32, 64) or bm % 64 or bn % 64:
        return False
    if not 2 <= p["STAGES"] <= 5 or p["SWIZZLE"] < 1:
        return False
    t = _threads_warp_tiles(p)
    if t > 1024 or wm * wn > 64 * 64:  # at most 128 fp32 accumulators per thread
        return False
    if wm not in (16, 32) and wm % 64:  # warp tiles line up with the 64-wide swizzle panels
        return False
    if t % 64 or bk % (t // 8):  # a thread's cp.async chunks sit at fixed distances
        return False
    for mn in (bm, bn):  # each operand tile's 16-byte chunks split evenly, in either layout
        chunks = mn * bk // 8
        if chunks % t or t % (bk // 8) or t % (mn // 8):
            return False
    return _hgemm_smem(p) <= 227 * 1024


def _tuned_valid(p: Mapping[str, int]) -> bool:
    """What hgemm/07_tuned's tuner tries: legal, 4 or 8 warps, and a pipeline neither too
    shallow (2 stages of BK=32) nor needlessly deep (5 stages of BK=64)."""
    warps = _threads_warp_tiles(p) // 32
    deep_enough = p["STAGES"] * p["BK"] >= 96 and p["STAGES"] * p["BK"] <= 256
    return _hgemm_valid(p) and warps in (4, 8) and deep_enough


_CUTE_INSTALL = 'pip install "warpgemm[cute]"'


def _cute_check(p: Mapping[str, int], in_dtype: str, out_dtype: str) -> str | None:
    if p["F16_ACCUMULATE"] not in (0, 1):
        return f"F16_ACCUMULATE is 0 (fp32 accumulation) or 1 (fp16), not {p['F16_ACCUMULATE']}"
    if p["F16_ACCUMULATE"] and (in_dtype, out_dtype) != ("float16", "float16"):
        return (f"F16_ACCUMULATE=1 is the F16F16F16F16 atom: fp16 inputs and fp16 output, not {in_dtype} "
                f"to {out_dtype}; use F16_ACCUMULATE=0")
    return None


HGEMM_FAMILY = Family(
    name="hgemm", title="HGEMM ladder (fp16 / bf16 in, fp32 accumulation)", bench_dtype="bfloat16",
    square_max=16384,
    defaults=dict(
        # The input dtype or fp32 out; the first is the default.
        outputs={"float16": ("float16", "float32"), "bfloat16": ("bfloat16", "float32")},
        math="f16f32", typed=True, threads=_threads_warp_tiles, tile=lambda p: (p["BM"], p["BN"]),
        align_elems=8, constraints=(_VEC8,), smem_bytes=_hgemm_smem, grid=_tiles_1d, arch="sm_80"),
)
_f = HGEMM_FAMILY.spec
_PIPELINE = {**_MMA_TILE, "STAGES": 4, "SWIZZLE": 16}

HGEMM: tuple[KernelSpec, ...] = (
    _f(1, "tensor cores through wmma m16n16k16, operand tiles staged in shared memory", "wmma",
       "hgemm_wmma", params={"BM": 128, "BN": 128, "BK": 32, "WM": 32, "WN": 64},
       smem_bytes=lambda p: 2 * (p["BM"] + p["BN"]) * p["BK"], grid=None),
    _f(2, "mma.sync m16n8k16 fed by ldmatrix.x4 (.trans where needed), 64x64 warp tiles, C out "
          "through shared memory", "mma_ldmatrix", "hgemm_mma_ldmatrix", params=dict(_MMA_TILE), grid=None),
    _f(3, "block swizzle: blocks walk panels SWIZZLE tiles wide, so that running blocks share A and "
          "B in L2", "block_swizzle", "hgemm_block_swizzle", params={**_MMA_TILE, "SWIZZLE": 16}),
    _f(4, "a STAGES-deep cp.async ring (cp.async.wait_group) copies k-tiles behind the math",
       "cp_async_pipeline", "hgemm_cp_async_pipeline", params=dict(_PIPELINE)),
    _f(5, "Swizzle<3,3,3> shared-memory tiles: no bank conflicts for ldmatrix or cp.async",
       "smem_swizzle", "hgemm_smem_swizzle", params=dict(_PIPELINE)),
    _f(6, "fragments of the next k16 step load during this step's mma (across k-tiles too); "
          "zig-zag mma order", "fragment_double_buffer", "hgemm_fragment_double_buffer",
       params=dict(_PIPELINE)),
    _f(7, "rung 06 with tiles, warps, stages and swizzle tuned per shape; interior k-tiles copied "
          "without bounds checks", "tuned", "hgemm_tuned", params={**_MMA_TILE, "BK": 64, "STAGES": 3, "SWIZZLE": 16},
       tuning={"BM": (64, 128, 256), "BN": (64, 128, 256), "BK": (32, 64), "WM": (32, 64),
               "WN": (64,), "STAGES": (2, 3, 4, 5), "SWIZZLE": (1, 8, 16)},
       autotune=True, valid=_tuned_valid, abi=gemm_bias_args, fused_bias=True),
    _f(8, "fp16 accumulation (mma.sync .f16.f16.f16.f16): rung 07's loop with the sum rounded to "
          "fp16 every k16 step", "f16_accumulate", "hgemm_f16_accumulate",
       outputs={"float16": ("float16",)}, math="f16acc", params=dict(_PIPELINE),
       constraints=(_VEC8, "accumulates in fp16: error grows with K; sums beyond 65504 overflow"),
       smem_bytes=lambda p: _hgemm_smem(p, c_bytes=2)),
    _f(9, "the HGEMM in CuTe: a TiledMMA of 2x2x1 warps (permutation 32x32x16), ldmatrix and "
          "cp.async TiledCopies",
       "cute_tiled_mma", "hgemm_cute_tiled_mma",
       params={"BM": 128, "BN": 128, "BK": 32, "STAGES": 4, "SWIZZLE": 16, "F16_ACCUMULATE": 0},
       threads=lambda p: 128, smem_bytes=lambda p: 2 * p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"],
       constraints=(_VEC8, f"written in CuTe: needs the cute extra ({_CUTE_INSTALL})",
                    "F16_ACCUMULATE=1 (the F16F16F16F16 atom) takes fp16 and writes fp16 only"),
       extra="cute", check_params=_cute_check),
)
