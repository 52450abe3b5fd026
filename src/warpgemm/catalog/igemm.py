"""Integer GEMM: int8 x int8 -> int32, exact, and the scaled W8A8 product (``kernels/igemm/``).

Rung 01 is the portable one: hgemm/07's mma.sync pipeline on m16n8k32 (sm_80 and later), every
layout read in place, with the ladder's ABI ``(A, B, C, M, N, K, lda, ldb, ldc)``.

Rung 02 is the Hopper ladder's persistent pipeline (``hopper/04_persistent``) instantiated for
the s8 wgmma atom: the same ABI, two TMA maps then C, M, N, K, ldc and the last wave's K split,
without the bias (integer GEMM adds none in the kernel). Rung 03 adds the scales and the bias
before the split: ``scale_a, scale_a_step, scale_b, scale_b_step, bias`` (:class:`Scales`).
Rung 04 reads a column-major A (copied K-major in shared memory by the kernel) with rung 02's
ABI; rung 05 reads a row-major B by running rung 04 on C^T = B^T A^T, its maps B^T's then A^T's.
Rung 06 is W8A8 at decode sizes: rung 03's arguments on decode/02's swap-AB pipeline (the
weight's map, then the tokens'). Rung 08 is W8A8 at a few tokens on decode/01's split-K body
(sm_80 on): the ladder's ABI, then the scales and bias, the workspace and the counters. Rung 09
reads a column-major A with a row-major B, both copied K-major in shared memory, with rung 02's
ABI."""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

import numpy as np

from ..runtime import tensor_map
from . import hopper
from . import decode
from .spec import ALL_LAYOUTS, COL, NULL, ROW, Family, KernelSpec, cdiv, gemm_args

_TMA8 = ("TMA: 16-byte aligned base pointer and leading dimension (a multiple of 16 int8 elements); "
         "other inputs are copied to an aligned buffer first")
_K_BOUND = ("exact while sums fit int32: any K <= 131071 for full-range operands (|a|, |b| <= 128)")


def _smem(p: Mapping[str, int]) -> int:
    # STAGES stages of A (BM x BK) and B (BK x BN), 1-byte elements, then two mbarriers a stage.
    return p["STAGES"] * ((p["BM"] + p["BN"]) * p["BK"] + 16)


def _tma_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
              bias: Any = None) -> tuple[Any, ...]:
    """A's and B's tensor maps (boxes of 128 bytes by BM or BN rows where K-major, by BK rows
    where MN-major: rung 04's column-major A), C, M, N, K, ldc, then the K split of the last
    wave."""
    p = inst.params
    map_a = tensor_map.operand_map("int8", m, k, a.layout, a.ld, a.layout == ROW, p["BM"], p["BK"])
    map_b = tensor_map.operand_map("int8", k, n, b.layout, b.ld, b.layout == COL, p["BN"], p["BK"])
    return (tensor_map.encode(map_a, a.tensor.data_ptr()), tensor_map.encode(map_b, b.tensor.data_ptr()), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), *hopper.split_args(workspace))


class Scales(NamedTuple):
    """What rung 03's epilogue reads besides the sums: fp32 CUDA tensors, each scale one value
    (step 0) or one per row of A / column of B (step 1); the bias N values or None. Passed where
    the other kernels take the bias."""

    scale_a: Any
    scale_a_step: int
    scale_b: Any
    scale_b_step: int
    bias: Any = None


def _scaled_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                 bias: Any = None) -> tuple[Any, ...]:
    """Rung 02's arguments with the epilogue's scales and bias before the split."""
    if not isinstance(bias, Scales):
        raise TypeError(f"{inst.name} computes a scaled product: call it through warpgemm.scaled_matmul")
    *head, splits_ws, splits_ctr, splits = _tma_args(inst, a, b, c, m, n, k, workspace)
    return (*head, bias.scale_a, np.int32(bias.scale_a_step), bias.scale_b, np.int32(bias.scale_b_step),
            bias.bias if bias.bias is not None else NULL, splits_ws, splits_ctr, splits)


def _swap_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
               bias: Any = None) -> tuple[Any, ...]:
    """Rung 05: the maps of B^T (N x K, MN-major for a row-major B, in (128, BK) boxes) and A^T
    (K x M, K-major for a row-major A, in (128, BN) boxes), then C, M, N, K, ldc and the split."""
    p = inst.params
    map_bt = tensor_map.operand_map("int8", n, k, COL, b.ld, False, p["BM"], p["BK"])
    map_at = tensor_map.operand_map("int8", k, m, COL, a.ld, True, p["BN"], p["BK"])
    return (tensor_map.encode(map_bt, b.tensor.data_ptr()), tensor_map.encode(map_at, a.tensor.data_ptr()), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), *hopper.split_args(workspace))


def _swapped(f: Any) -> Any:
    # Rung 05's tiles are BM of N by BN of M: the schedule's functions take (N, M).
    return lambda m, n, k, p, slots: f(n, m, k, p, slots)


def _smem_copying(p: Mapping[str, int]) -> int:
    # The ring (1-byte elements), its barriers in a 1024-byte gap, then two 64 x BK target tiles
    # for each of the two consumers (sm90/mainloop_transposing.cuh).
    return p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"] + 1024 + 4 * 64 * p["BK"]


def _valid_copying(p: Mapping[str, int]) -> bool:
    """Rungs 04 and 05: the pipeline's asserts with BM = 128 and the target tiles' shared memory."""
    return (p["BM"] == 128 and p["BN"] in (64, 128, 192, 256) and p["BK"] in (128, 256)
            and 2 <= p["STAGES"] <= 8 and p["GROUP"] >= 1 and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS
            and _smem_copying(p) <= 227 * 1024)


def _smem_both(p: Mapping[str, int]) -> int:
    # Rung 04's shared memory, then two BN x BK target tiles of B (sm90/mainloop_transposing.cuh,
    # COPY_B).
    return _smem_copying(p) + 2 * p["BN"] * p["BK"]


def _valid_both(p: Mapping[str, int]) -> bool:
    """Rung 09: rung 04's asserts, BK = 128 and BN a multiple of 128 (each consumer copies whole
    64-row bands of B), and B's target tiles in shared memory."""
    return (p["BM"] == 128 and p["BN"] in (128, 256) and p["BK"] == 128 and 2 <= p["STAGES"] <= 8
            and p["GROUP"] >= 1 and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS and _smem_both(p) <= 227 * 1024)


def _scaled_swap_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                      bias: Any = None) -> tuple[Any, ...]:
    """Rung 06: the weight's map (W = b^T, N x K, K-major, in (128, BM) boxes), the tokens' (a^T as
    a K x M K-major operand, in (128, BN) boxes), C, M, N, K, ldc, the scales and bias, the split."""
    if not isinstance(bias, Scales):
        raise TypeError(f"{inst.name} computes a scaled product: call it through warpgemm.scaled_matmul")
    p = inst.params
    map_w = tensor_map.operand_map("int8", n, k, ROW, b.ld, True, p["BM"], p["BK"])
    map_x = tensor_map.operand_map("int8", k, m, COL, a.ld, True, p["BN"], p["BK"])
    return (tensor_map.encode(map_w, b.tensor.data_ptr()), tensor_map.encode(map_x, a.tensor.data_ptr()), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), bias.scale_a, np.int32(bias.scale_a_step),
            bias.scale_b, np.int32(bias.scale_b_step), bias.bias if bias.bias is not None else NULL,
            *hopper.split_args(workspace))


def _decode_params(m: int, n: int, k: int) -> dict[str, int]:
    """Rung 06's tiles by shape: 32 or 64 tokens a tile; 64-row tiles of W, 256 k a k-tile, below
    N = 12288, and 128-row tiles of 128 k above (scripts/scaled_bench.py --decode-space on an
    H100, docs/results/scaled_decode_sweep_h100.json: 1.92x cuBLAS bf16 at 14336 x 4096 against
    1.80x for 128-row tiles of 256 k with a k-tile in flight; no choice faster than 64-row tiles
    of 256 k at 4096 x 4096)."""
    return {"BN": 32 if m <= 32 else 64,
            **({"BM": 64, "IN_FLIGHT": 0} if n < 12288 else {"BM": 128, "BK": 128, "IN_FLIGHT": 0})}


def _valid_decode(p: Mapping[str, int]) -> bool:
    """Rung 06: the pipeline's asserts with 32 or 64 tokens a tile."""
    return (p["BM"] in (64, 128) and p["BN"] in (32, 64) and p["BK"] in (128, 256) and 2 <= p["STAGES"] <= 8
            and p["IN_FLIGHT"] in (0, 1) and p["IN_FLIGHT"] < p["STAGES"] and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS
            and _smem(p) <= 227 * 1024)


def _scaled_tma_store_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                           bias: Any = None) -> tuple[Any, ...]:
    """Rung 07: rung 03's arguments with C's tensor map after B's and, after the bias, a flag:
    0 where C breaks a TMA rule (the kernel then copies its staged slabs to C itself)."""
    map_a, map_b, c_arg, *rest = _scaled_args(inst, a, b, c, m, n, k, workspace, bias)
    *scaling, splits_ws, splits_ctr, splits = rest
    map_c = tensor_map.output_map(inst.out_dtype, m, n, c.stride(0))
    usable = tensor_map.fits(map_c, c.data_ptr())
    block = tensor_map.encode(map_c, c.data_ptr()) if usable else hopper.NO_MAP
    return (map_a, map_b, block, c_arg, *scaling, np.int32(usable), splits_ws, splits_ctr, splits)


def _smem_scaled_tma_store(p: Mapping[str, int]) -> int:
    # The ring rounded up to 1024 bytes, BUFFERS 8 KB staging slabs and 2 * BN fp32 column values a
    # consumer warpgroup (sm90/epilogue_tma_store.cuh).
    return -(-_smem(p) // 1024) * 1024 + (p["BM"] // 64) * (p["BUFFERS"] * 64 * 128 + 2 * p["BN"] * 4)


def _valid_scaled_tma_store(p: Mapping[str, int]) -> bool:
    return _valid(p) and p["BUFFERS"] in (1, 2) and _smem_scaled_tma_store(p) <= 227 * 1024


def _smem_scaled(p: Mapping[str, int]) -> int:
    # Rung 02's, then each consumer's BN column scales and BN bias values (fp32).
    return _smem(p) + 2 * (p["BM"] // 64) * p["BN"] * 4


def _valid_scaled(p: Mapping[str, int]) -> bool:
    return _valid(p) and _smem_scaled(p) <= 227 * 1024


def _valid(p: Mapping[str, int]) -> bool:
    """The pipeline's static_asserts for 8-bit operands."""
    return (p["BM"] in (64, 128) and p["BN"] in (64, 128, 192, 256) and p["BK"] in (128, 256)
            and 2 <= p["STAGES"] <= 8 and p["GROUP"] >= 1 and p["IN_FLIGHT"] in (0, 1)
            and p["IN_FLIGHT"] < p["STAGES"] and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS
            and _smem(p) <= 227 * 1024)


_VEC16 = ("16-byte aligned base pointer and leading dimension (a multiple of 16 int8 elements); "
          "other inputs are copied to an aligned buffer first")


def _mma_sync_threads(p: Mapping[str, int]) -> int:
    return 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"])


def _mma_sync_smem(p: Mapping[str, int]) -> int:
    # STAGES k-tiles of A and B (1-byte elements), or the int32 C staging tile, whichever is larger.
    return max(p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"], 4 * p["BM"] * p["BN"])


def _mma_sync_valid(p: Mapping[str, int]) -> bool:
    """The static_asserts of igemm/01 and its shared pieces, for every layout."""
    bm, bn, bk, wm, wn = p["BM"], p["BN"], p["BK"], p["WM"], p["WN"]
    if bk != 128 or bm % 64 or bn % 64 or bm % wm or bn % wn or wm % 16 or wn % 64:
        return False
    if not 3 <= p["STAGES"] <= 5 or p["SWIZZLE"] < 1 or wm * wn > 64 * 64:  # at most 128 s32 sums a thread
        return False
    # 8 warps: the in-place transposing copy of an MN-major operand wants a multiple of 256
    # threads, and 16 warps would leave 128 registers a thread (spills); each operand tile's
    # 16-byte chunks split evenly over them.
    t = _mma_sync_threads(p)
    if t != 256 or (bm * bk // 16) % t or (bn * bk // 16) % t:
        return False
    return _mma_sync_smem(p) <= 227 * 1024


def _splitk_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                 bias: Any = None) -> tuple[Any, ...]:
    """Rung 08: the ladder's ABI, the scales and bias (rung 03's), then ``int* workspace`` (s32
    partial sums) and ``int* counters`` (null when KSPLIT is 1)."""
    if not isinstance(bias, Scales):
        raise TypeError(f"{inst.name} computes a scaled product: call it through warpgemm.scaled_matmul")
    ws = workspace.scratch if workspace is not None and workspace.scratch is not None else NULL
    counters = workspace.counters if workspace is not None and workspace.counters is not None else NULL
    return (*gemm_args(inst, a, b, c, m, n, k), bias.scale_a, np.int32(bias.scale_a_step), bias.scale_b,
            np.int32(bias.scale_b_step), bias.bias if bias.bias is not None else NULL, ws, counters)


IGEMM_FAMILY = Family(
    name="igemm", title="Integer GEMM (int8 in, int32 out, exact)", bench_dtype="int8", square_max=16384,
    defaults=dict(outputs={"int8": ("int32",)}, math="i8i32", typed=True, align_elems=16),
)
_f = IGEMM_FAMILY.spec

_PIPELINE = dict(
    arch="sm_90a", layouts=((ROW, COL),),
    params={"BM": 128, "BN": 256, "BK": 128, "STAGES": 4, "GROUP": 8, "IN_FLIGHT": 0, "SPLITS": 0},
    threads=lambda p: 128 * (1 + p["BM"] // 64), tile=lambda p: (p["BM"], p["BN"]), persistent=True,
    smem_bytes=_smem, last_wave=hopper.last_wave, workspace=hopper.split_scratch, counters=hopper.split_counters,
    host_params=("SPLITS",), tuning={"BN": (128, 256), "STAGES": (3, 4, 5), "GROUP": (8, 16), "IN_FLIGHT": (0, 1)},
    valid=_valid, dependent_launch=True)
"""What the rungs on the Hopper pipeline share (hopper/04_persistent's launch, 8-bit tiles)."""

_COPYING = {"BM": 128, "BN": 256, "BK": 128, "STAGES": 4, "GROUP": 8, "SPLITS": 0}
_COPY_TUNING = {"BN": (128, 256), "STAGES": (3, 4), "GROUP": (8, 16)}

IGEMM: tuple[KernelSpec, ...] = (
    _f(1, "hgemm/07's mma.sync pipeline on m16n8k32 (sm_80 on); MN-major operands turned K-major in "
          "shared memory", "mma_sync_s8", "igemm_mma_sync_s8",
       arch="sm_80", layouts=ALL_LAYOUTS,
       params={"BM": 256, "BN": 128, "BK": 128, "WM": 64, "WN": 64, "STAGES": 4, "SWIZZLE": 16},
       threads=_mma_sync_threads, tile=lambda p: (p["BM"], p["BN"]), smem_bytes=_mma_sync_smem,
       grid=lambda m, n, p: (cdiv(n, p["BN"]) * cdiv(m, p["BM"]), 1, 1),
       constraints=(_VEC16, "every layout read in place (ldmatrix reads 8-bit tiles K-major; an MN-major "
                            "operand is turned K-major in shared memory)", _K_BOUND),
       tuning={"BM": (64, 128, 256), "BN": (64, 128, 256), "WM": (32, 64), "WN": (64,), "STAGES": (3, 4, 5),
               "SWIZZLE": (1, 8, 16)},
       autotune=True, valid=_mma_sync_valid),
    _f(2, "the Hopper pipeline instantiated for s8 wgmma (m64nNk32, s32 sums): TMA, warp specialisation, "
          "persistent", "wgmma_s8", "igemm_wgmma_s8", abi=_tma_args,
       constraints=(_TMA8, "A row-major, B column-major (8-bit wgmma reads K-major operands only)", _K_BOUND),
       **_PIPELINE),
    _f(3, "W8A8: rung 02 with an epilogue that scales the s32 sums per token and per channel, adds the "
          "bias and rounds once", "scaled_epilogue", "igemm_scaled_epilogue", abi=_scaled_args,
       outputs={"int8": ("bfloat16", "float16", "float32")}, called_by="warpgemm.scaled_matmul",
       constraints=(_TMA8, "A row-major, B column-major", _K_BOUND),
       **{**_PIPELINE, "smem_bytes": _smem_scaled, "valid": _valid_scaled}),
    _f(4, "a column-major A: TMA lands it MN-major, each consumer copies its rows K-major in shared "
          "memory", "transposing_copy",
       "igemm_transposing_copy", abi=_tma_args,
       constraints=(_TMA8, "A column-major, B column-major", _K_BOUND),
       **{**_PIPELINE, "layouts": ((COL, COL),), "params": _COPYING, "smem_bytes": _smem_copying,
          "valid": _valid_copying, "tuning": _COPY_TUNING}),
    _f(5, "a row-major B: rung 04 on the swapped problem C^T = B^T A^T, stored transposed",
       "swap_ab_row_major_b", "igemm_swap_ab_row_major_b", abi=_swap_args,
       constraints=(_TMA8, "A row-major, B row-major", _K_BOUND),
       **{**_PIPELINE, "layouts": ((ROW, ROW),), "params": _COPYING, "smem_bytes": _smem_copying,
          "valid": _valid_copying, "tuning": _COPY_TUNING, "tile": lambda p: (p["BN"], p["BM"]),
          "last_wave": _swapped(hopper.last_wave), "workspace": _swapped(hopper.split_scratch),
          "counters": _swapped(hopper.split_counters)}),
    _f(6, "W8A8 at decode sizes: rung 03's scaled epilogue on decode/02's swap-AB pipeline", "scaled_swap_ab",
       "igemm_scaled_swap_ab", abi=_scaled_swap_args, outputs={"int8": ("bfloat16", "float16", "float32")},
       called_by="warpgemm.scaled_matmul", constraints=(_TMA8, "A row-major, B column-major", _K_BOUND),
       **{**_PIPELINE, "params": {"BM": 64, "BN": 32, "BK": 256, "STAGES": 4, "IN_FLIGHT": 0, "SPLITS": 0},
          "tile": lambda p: (p["BN"], p["BM"]), "last_wave": _swapped(hopper.last_wave),
          "workspace": _swapped(hopper.split_scratch), "counters": _swapped(hopper.split_counters),
          "shape_params": _decode_params, "valid": _valid_decode,
          "tuning": {"BM": (64, 128), "BK": (128, 256), "STAGES": (4, 6, 8), "IN_FLIGHT": (0, 1)}}),
    _f(7, "W8A8: rung 03's values stored through shared memory and TMA, behind the next tile's main loop",
       "scaled_tma_store", "igemm_scaled_tma_store",
       abi=_scaled_tma_store_args, outputs={"int8": ("bfloat16", "float16", "float32")},
       called_by="warpgemm.scaled_matmul", constraints=(_TMA8, "A row-major, B column-major", _K_BOUND),
       **{**_PIPELINE, "params": {**_PIPELINE["params"], "STAGES": 3, "BUFFERS": 2},
          "smem_bytes": _smem_scaled_tma_store, "valid": _valid_scaled_tma_store,
          "tuning": {"BN": (128, 256), "STAGES": (3, 4), "BUFFERS": (1, 2), "GROUP": (8, 16), "IN_FLIGHT": (0, 1)}}),
    _f(8, "W8A8 at a few tokens: decode/01's split-K body on the s8 mma.sync m16n8k32 atom, with the "
          "scaled epilogue", "scaled_swap_ab_splitk", "igemm_scaled_swap_ab_splitk",
       arch="sm_80", layouts=((ROW, COL),), abi=_splitk_args, outputs={"int8": ("bfloat16", "float16", "float32")},
       called_by="warpgemm.scaled_matmul",
       constraints=(_VEC16, "A row-major, B column-major (B = W^T)", "M <= 64 (8 * TOKEN_TILES)", _K_BOUND),
       params={"TOKEN_TILES": 1, "ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "KSPLIT": 1, "L2_256B": 1, "STAGGER": 1},
       threads=lambda p: 32 * p["WARPS"], tile=lambda p: (8 * p["TOKEN_TILES"], 16 * p["ROW_GROUPS"]),
       grid=lambda m, n, p: (cdiv(n, 16 * p["ROW_GROUPS"]), p["KSPLIT"], 1),
       workspace=lambda m, n, k, p, slots: (4 * p["KSPLIT"] * cdiv(n, 16 * p["ROW_GROUPS"]) * decode.partial_sums(p)
                                            if p["KSPLIT"] > 1 else 0),
       counters=lambda m, n, k, p, slots: cdiv(n, 16 * p["ROW_GROUPS"]) if p["KSPLIT"] > 1 else 0,
       smem_bytes=decode.splitk_smem, shape_params=lambda m, n, k: {"TOKEN_TILES": max(1, min(8, cdiv(m, 8)))},
       max_m=lambda p: 8 * p["TOKEN_TILES"], valid=decode.splitk_valid, dependent_launch=True,
       tuning={"ROW_GROUPS": (1, 2), "WARPS": (4, 8, 16), "UNROLL": (2, 4, 8), "KSPLIT": (1, 2, 4),
               "L2_256B": (0, 1), "STAGGER": (1, 8)}),
    _f(9, "A column-major and B row-major: the consumers copy both tiles K-major in shared memory",
       "transposing_both", "igemm_transposing_both", abi=_tma_args,
       constraints=(_TMA8, "A column-major, B row-major", _K_BOUND),
       **{**_PIPELINE, "layouts": ((COL, ROW),), "params": {**_COPYING, "STAGES": 2}, "smem_bytes": _smem_both,
          "valid": _valid_both, "tuning": {"BN": (128, 256), "STAGES": (2, 3, 4), "GROUP": (8, 16)}}),
)
