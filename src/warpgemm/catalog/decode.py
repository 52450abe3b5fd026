"""The small-M (decode) family: fp16 / bf16 in, M <= 64 tokens, the weight streamed once at HBM
bandwidth (``kernels/decode/``)."""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..runtime import tensor_map
from . import hopper
from .spec import COL, NULL, ROW, Family, KernelSpec, cdiv, gemm_bias_args


_VEC8 = "16-byte aligned base pointer and leading dimension (a multiple of 8 elements); " \
        "other inputs are copied to an aligned buffer first"


def _rows(p: Mapping[str, int]) -> int:
    return 16 * p["ROW_GROUPS"]


def splitk_valid(p: Mapping[str, int]) -> bool:
    """The split-K body's static_asserts (sm80/swap_ab_splitk.cuh; rung 01 and igemm/08)."""
    return (1 <= p["TOKEN_TILES"] <= 8 and 1 <= p["ROW_GROUPS"] <= 4 and 1 <= p["WARPS"] <= 16
            and 1 <= p["UNROLL"] <= 8 and p["UNROLL"] * p["ROW_GROUPS"] <= 8
            and 1 <= p["KSPLIT"] <= 16 and p["L2_256B"] in (0, 1) and p.get("STAGGER", 1) >= 1
            and splitk_smem(p) <= 227 * 1024)


def partial_sums(p: Mapping[str, int]) -> int:
    # Partial sums one block of one split hands on: 32 lanes x 4 per row group and token tile.
    return 32 * 4 * p["ROW_GROUPS"] * p["TOKEN_TILES"]


def _args(inst, a, b, c, m, n, k, workspace=None, bias=None):
    """The ladder's ABI, then ``bias``, ``float* workspace`` and ``int* counters`` (null when
    KSPLIT is 1)."""
    ws = workspace.scratch if workspace is not None and workspace.scratch is not None else NULL
    counters = workspace.counters if workspace is not None and workspace.counters is not None else NULL
    return gemm_bias_args(inst, a, b, c, m, n, k, None, bias) + (ws, counters)


def splitk_smem(p: Mapping[str, int]) -> int:
    # The warps' partial sums: 32 lanes x WARPS x (4 per row group and token tile) floats.
    return 4 * 32 * p["WARPS"] * p["ROW_GROUPS"] * p["TOKEN_TILES"] * 4


# Rung 02 is hopper/04_persistent with the operands exchanged: its tiles are BM rows of W by BN
# tokens, so the persistent schedule's functions take (N, M) where the problem has (M, N).
def _swapped(f):
    return lambda m, n, k, p, slots: f(n, m, k, p, slots)


def _swap_tma_args(inst, a, b, c, m, n, k, workspace=None, bias=None):
    """Rung 02: W's tensor map (W = b^T, N x K, in BM-row boxes), the tokens' (a, read as the K x M
    matrix a^T, K-major, in BN-row boxes), then C, M, N, K, ldc, the bias and the K split. In a
    cluster, each block loads a part of the shared box (the tokens', or W's with SHARE_W) and
    multicasts it."""
    p, dtype = inst.params, inst.in_dtype
    w_layout = ROW if b.layout == COL else COL  # the transpose of b
    cx = inst.cluster[0] if inst.cluster is not None else 1
    w_parts, x_parts = (cx, 1) if p["SHARE_W"] else (1, cx)
    map_w = tensor_map.operand_map(dtype, n, k, w_layout, b.ld, w_layout == ROW,
                                   *tensor_map.multicast_part_box(dtype, w_layout == ROW, p["BM"], p["BK"], w_parts))
    map_x = tensor_map.operand_map(dtype, k, m, COL, a.ld, True,
                                   *tensor_map.multicast_part_box(dtype, True, p["BN"], p["BK"], x_parts))
    return (tensor_map.encode(map_w, b.tensor.data_ptr()), tensor_map.encode(map_x, a.tensor.data_ptr()), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), bias if bias is not None else NULL,
            *hopper.split_args(workspace))


def _valid_sweep(p: Mapping[str, int]) -> bool:
    """Rung 03's static_asserts."""
    return (p["TOKENS"] in (1, 2, 4, 8) and p["THREADS"] in (256, 512, 1024) and p["UNROLL"] >= 1
            and p["ROWS"] % p["UNROLL"] == 0 and p["ROWS"] * p["TOKENS"] <= 64 and p["L2_256B"] in (0, 1)
            and p["BLOCKS"] >= 1 and p["BLOCKS"] * p["THREADS"] <= 2048)


def _sweep_shape(m: int, n: int, k: int) -> dict[str, int]:
    """Rung 03's TOKENS, the fewest of 1, 2, 4, 8 that hold ``m``, and the blocks a SM its
    registers are held to: without spills at 8 rows a pass, and at 1 token the measured
    choice (2 blocks of 512 threads: 13.36 us against 13.92 us for 4, whose 32 registers a thread
    it also fits in, at 1 x 4096 x 4096 on an H100, docs/results/decode_sweep_rowsweep_h100.json)."""
    tokens = next(t for t in (1, 2, 4, 8) if t >= min(m, 8))
    return {"TOKENS": tokens, "BLOCKS": {1: 2, 2: 2, 4: 1, 8: 1}[tokens]}


def _sweep_mma_smem(p: Mapping[str, int]) -> int:
    """Rung 04: each warp's ring of STAGES slots of 8 rows x 256 elements, and the block's
    partial sums, two buffers of (TOKENS, 8) floats a warp."""
    return p["THREADS"] // 32 * (p["STAGES"] * 4096 + 2 * p["TOKENS"] * 8 * 4)


def _valid_sweep_mma(p: Mapping[str, int]) -> bool:
    """Rung 04's static_asserts."""
    return (p["TOKENS"] in (8, 16) and p["THREADS"] % 32 == 0 and 8 * p["TOKENS"] <= p["THREADS"] <= 512
            and p["KSTEPS"] >= 1 and p["KSTEPS"] * p["TOKENS"] <= 16 and p["STAGES"] >= 2
            and _sweep_mma_smem(p) <= 227 * 1024)


def _sweep_mma_shape(m: int, n: int, k: int) -> dict[str, int]:
    """Rung 04's TOKENS (8, or 16 past 8 tokens), and the fewest threads (a multiple of 32, 128 to
    512) and k-steps that cover a row in 16-byte chunks: one k-step up to K = 4096, two up to 8192
    for at most 8 tokens (the registers hold the tokens' fragments of one k-step of 16 tokens)."""
    chunks = cdiv(max(k, 1), 8)
    ksteps = 1 if chunks <= 512 or m > 8 else 2
    threads = min(512, max(128, 32 * cdiv(cdiv(chunks, ksteps), 32)))
    return {"TOKENS": 8 if m <= 8 else 16, "THREADS": threads, "KSTEPS": ksteps}


TOKEN_TILES = (16, 32, 40, 48, 56, 64, 72, 80, 88, 96, 128, 144, 160, 176, 192, 256)
"""Rung 02's tile widths BN (tokens a tile holds): the m64nBNk16 wgmma wrappers of arch/sm90.cuh."""


def token_tile_widths(m: int) -> tuple[int, ...]:
    """Rung 02's token-tile widths worth timing for ``m`` tokens: the default (32 up to 32 tokens,
    else 64), and the narrowest atoms that hold all of them in one tile and in two."""
    fits = [min((b for b in TOKEN_TILES if b >= need), default=None) for need in (m, -(-m // 2))]
    return tuple(sorted({32 if m <= 32 else 64, *(b for b in fits if b is not None)}))


def _valid_wgmma(p: Mapping[str, int]) -> bool:
    """Rung 02's static_asserts (and the hopper mainloop's)."""
    return (p["BM"] in (64, 128) and p["BN"] in TOKEN_TILES and p["BK"] in (64, 128)
            and 2 <= p["STAGES"] <= 16
            and p["IN_FLIGHT"] in (0, 1) and p["IN_FLIGHT"] < p["STAGES"] and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS
            and p["STAGGER"] >= 1 and p["CLUSTER"] in (1, 2, 4) and p["SHARE_W"] in (0, 1)
            and (p["SHARE_W"] == 0 or p["CLUSTER"] > 1)
            and (p["CLUSTER"] == 1 or p["SHARE_W"] or p["BN"] % (8 * p["CLUSTER"]) == 0)
            and hopper.smem_bytes(p) <= 227 * 1024)


DECODE_FAMILY = Family(
    name="decode", title="Small-M GEMM for decode (fp16 / bf16 in, M <= 64; decode/02 any M)", bench_dtype="bfloat16",
    square_max=16384,
    defaults=dict(outputs={"float16": ("float16", "float32"), "bfloat16": ("bfloat16", "float32")},
                  math="f16f32", typed=True, arch="sm_80", layouts=((ROW, COL),), align_elems=8,
                  constraints=(_VEC8, "M <= 64 (8 * TOKEN_TILES)")),
)
_f = DECODE_FAMILY.spec

DECODE: tuple[KernelSpec, ...] = (
    _f(1, "swap AB (W rows on the mma's M side), fragments straight from global memory, K split "
          "across a block's warps", "swap_ab_splitk", "decode_swap_ab_splitk",
       params={"TOKEN_TILES": 1, "ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "KSPLIT": 1, "L2_256B": 0, "STAGGER": 1},
       threads=lambda p: 32 * p["WARPS"], tile=lambda p: (8 * p["TOKEN_TILES"], _rows(p)),
       grid=lambda m, n, p: (cdiv(n, _rows(p)), p["KSPLIT"], 1),
       workspace=lambda m, n, k, p, slots: 4 * p["KSPLIT"] * cdiv(n, _rows(p)) * partial_sums(p) if p["KSPLIT"] > 1 else 0,
       counters=lambda m, n, k, p, slots: cdiv(n, _rows(p)) if p["KSPLIT"] > 1 else 0,
       smem_bytes=splitk_smem,
       shape_params=lambda m, n, k: {"TOKEN_TILES": max(1, min(8, cdiv(m, 8)))},
       max_m=lambda p: 8 * p["TOKEN_TILES"],
       tuning={"ROW_GROUPS": (1, 2), "WARPS": (4, 8, 16), "UNROLL": (2, 4, 8), "KSPLIT": (1, 2, 4),
               "L2_256B": (0, 1), "STAGGER": (1, 8)},
       valid=splitk_valid, abi=_args, fused_bias=True, dependent_launch=True),
    _f(2, "swap AB on Hopper's pipeline: W on wgmma's M side streamed by TMA, the tokens shared by a "
          "tile's rows", "swap_ab_wgmma",
       "decode_swap_ab_wgmma", arch="sm_90a", layouts=((ROW, COL), (ROW, ROW)),
       constraints=(hopper.TMA_CONSTRAINT, "A row-major"),
       params={"BM": 128, "BN": 64, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1, "SPLITS": 0, "STAGGER": 1, "CLUSTER": 1,
               "SHARE_W": 0},
       threads=lambda p: 128 * (1 + p["BM"] // 64), tile=lambda p: (p["BN"], p["BM"]), persistent=True,
       smem_bytes=hopper.smem_bytes, abi=_swap_tma_args, last_wave=_swapped(hopper.last_wave),
       workspace=_swapped(hopper.split_scratch), counters=_swapped(hopper.split_counters),
       host_params=("SPLITS",),
       cluster=lambda p: (p["CLUSTER"], 1, 1) if p["CLUSTER"] > 1 else None,
       cluster_along_n=lambda p: not p["SHARE_W"],
       shape_params=lambda m, n, k: {"BN": 32 if m <= 32 else 64},
       tuning={"BM": (64, 128), "BK": (64, 128), "STAGES": (4, 6, 8), "IN_FLIGHT": (0, 1), "SPLITS": (0, 1),
               "STAGGER": (1, 8), "CLUSTER": (1, 2), "SHARE_W": (0, 1)},
       shape_tuning=lambda m, n, k: {"BN": token_tile_widths(m)},
       valid=_valid_wgmma, fused_bias=True, dependent_launch=True, autotune=True),
    _f(3, "the grid sweeps W: block b of G reads whole rows b, b + G, ..., fp32 FMA, no tensor cores",
       "row_sweep", "decode_row_sweep",
       params={"TOKENS": 1, "THREADS": 512, "ROWS": 4, "UNROLL": 4, "L2_256B": 0, "BLOCKS": 2},
       constraints=(_VEC8, "M <= 8 (TOKENS)"),
       threads=lambda p: p["THREADS"], tile=lambda p: (p["TOKENS"], p["ROWS"]), persistent=True, fills_sms=True,
       shape_params=_sweep_shape,
       max_m=lambda p: p["TOKENS"],
       tuning={"THREADS": (256, 512, 1024), "ROWS": (4, 8, 16), "UNROLL": (2, 4, 8), "L2_256B": (0, 1),
               "BLOCKS": (1, 2, 4)},
       valid=_valid_sweep, abi=gemm_bias_args, fused_bias=True, dependent_launch=True),
    _f(4, "rung 03's sweep for up to 16 tokens on the tensor cores: rows staged by cp.async, ldmatrix, mma",
       "row_sweep_mma", "decode_row_sweep_mma",
       params={"TOKENS": 8, "THREADS": 512, "KSTEPS": 1, "STAGES": 3},
       constraints=(_VEC8, "M <= 16 (TOKENS)", "K <= 8 * THREADS * KSTEPS (8192)"),
       threads=lambda p: p["THREADS"], tile=lambda p: (p["TOKENS"], 8), persistent=True, fills_sms=True,
       smem_bytes=_sweep_mma_smem, shape_params=_sweep_mma_shape,
       max_m=lambda p: p["TOKENS"], max_k=lambda p: 8 * p["THREADS"] * p["KSTEPS"],
       tuning={"THREADS": (256, 512), "KSTEPS": (1, 2), "STAGES": (2, 3, 4, 6)},
       valid=_valid_sweep_mma, abi=gemm_bias_args, fused_bias=True, dependent_launch=True),
)
