"""The small-M (decode) family: fp16 / bf16 in, M <= 64 tokens, the weight streamed once at HBM
bandwidth (``kernels/decode/``)."""

from __future__ import annotations

from typing import Mapping


from .spec import COL, NULL, ROW, Family, KernelSpec, cdiv, gemm_bias_args


_VEC8 = "16-byte aligned base pointer and leading dimension (a multiple of 8 elements); " \
        "other inputs are copied to an aligned buffer first"


def _rows(p: Mapping[str, int]) -> int:
    return 16 * p["ROW_GROUPS"]


def _valid(p: Mapping[str, int]) -> bool:
    """The kernel's static_asserts."""
    return (1 <= p["TOKEN_TILES"] <= 8 and 1 <= p["ROW_GROUPS"] <= 4 and 1 <= p["WARPS"] <= 16
            and 1 <= p["UNROLL"] <= 8 and p["UNROLL"] * p["ROW_GROUPS"] <= 8
            and 1 <= p["KSPLIT"] <= 16 and p["L2_256B"] in (0, 1) and _smem(p) <= 227 * 1024)


def _sums(p: Mapping[str, int]) -> int:
    # Partial sums one block of one split hands on: 32 lanes x 4 per row group and token tile.
    return 32 * 4 * p["ROW_GROUPS"] * p["TOKEN_TILES"]


def _args(inst, a, b, c, m, n, k, workspace=None, bias=None):
    """The ladder's ABI, then ``bias``, ``float* workspace`` and ``int* counters`` (null when
    KSPLIT is 1)."""
    ws = workspace.scratch if workspace is not None and workspace.scratch is not None else NULL
    counters = workspace.counters if workspace is not None and workspace.counters is not None else NULL
    return gemm_bias_args(inst, a, b, c, m, n, k, None, bias) + (ws, counters)


def _smem(p: Mapping[str, int]) -> int:
    # The warps' partial sums: 32 lanes x WARPS x (4 per row group and token tile) floats.
    return 4 * 32 * p["WARPS"] * p["ROW_GROUPS"] * p["TOKEN_TILES"] * 4


DECODE_FAMILY = Family(
    name="decode", title="Small-M GEMM for decode (fp16 / bf16 in, M <= 64)", bench_dtype="bfloat16",
    square_max=16384,
    defaults=dict(outputs={"float16": ("float16", "float32"), "bfloat16": ("bfloat16", "float32")},
                  math="f16f32", typed=True, arch="sm_80", layouts=((ROW, COL),), align_elems=8,
                  constraints=(_VEC8, "M <= 64 (8 * TOKEN_TILES)")),
)
_f = DECODE_FAMILY.spec

DECODE: tuple[KernelSpec, ...] = (
    _f(1, "swap AB (W rows on the mma's M side), fragments straight from global memory, K split "
          "across a block's warps", "swap_ab_splitk", "decode_swap_ab_splitk",
       params={"TOKEN_TILES": 1, "ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "KSPLIT": 1, "L2_256B": 0},
       threads=lambda p: 32 * p["WARPS"], tile=lambda p: (8 * p["TOKEN_TILES"], _rows(p)),
       grid=lambda m, n, p: (cdiv(n, _rows(p)), p["KSPLIT"], 1),
       workspace=lambda m, n, k, p, slots: 4 * p["KSPLIT"] * cdiv(n, _rows(p)) * _sums(p) if p["KSPLIT"] > 1 else 0,
       counters=lambda m, n, k, p, slots: cdiv(n, _rows(p)) if p["KSPLIT"] > 1 else 0,
       smem_bytes=_smem,
       shape_params=lambda m, n, k: {"TOKEN_TILES": max(1, min(8, cdiv(m, 8)))},
       max_m=lambda p: 8 * p["TOKEN_TILES"],
       tuning={"ROW_GROUPS": (1, 2), "WARPS": (4, 8, 16), "UNROLL": (2, 4, 8), "KSPLIT": (1, 2, 4),
               "L2_256B": (0, 1)},
       valid=_valid, abi=_args, fused_bias=True),
)
