"""The Hopper ladder: fp16 / bf16 in, fp32 accumulation, on wgmma fed by TMA (``kernels/hopper/``,
sm_90a only).

Every rung takes its operands as two TMA tensor maps (``runtime.tensor_map``), built by its ABI
from the prepared operands and cached, then C, M, N, K, ldc and the bias:
``(TmaDescriptor tma_a, TmaDescriptor tma_b, TC* C, int M, int N, int K, int ldc, const T* bias)``.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..runtime import tensor_map
from ..runtime.launch import ParamBlock
from .spec import COL, NULL, ROW, Family, KernelSpec

_TMA = ("TMA: 16-byte aligned base pointer and leading dimension (a multiple of 8 elements); "
        "other inputs are copied to an aligned buffer first")

_WGMMA_N = (64, 128, 192, 256)
"""BN values the rungs take in every layout: a wgmma wrapper exists for them (arch/sm90.cuh), and
they are multiples of 64, since an MN-major B tile is made of 64-wide slabs."""


def _smem(p: Mapping[str, int]) -> int:
    # STAGES stages of A (BM x BK) and B (BK x BN), 2-byte elements, then two 8-byte mbarriers a stage.
    return p["STAGES"] * (2 * (p["BM"] + p["BN"]) * p["BK"] + 16)


def _smem_staged(p: Mapping[str, int]) -> int:
    # Rung 06: the stages and their barriers, rounded up to 1024 bytes, then two 64 x 128-byte
    # staging buffers per consumer warpgroup (sm90/epilogue_tma_store.cuh).
    return -(-_smem(p) // 1024) * 1024 + (p["BM"] // 64) * 2 * 64 * 128


def _tma_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
              bias: Any = None) -> tuple[Any, ...]:
    """The two tensor maps (A: BM x BK boxes, B: BK x BN), then the ladder's C, M, N, K, ldc and
    ``bias`` (or null)."""
    p, dtype = inst.params, inst.in_dtype
    # In a cluster, each block loads a 1/cx band of a K-major B tile (and multicasts it).
    cx = inst.cluster[0] if inst.cluster is not None else 1
    map_a = tensor_map.operand_map(dtype, m, k, a.layout, a.ld, a.layout == ROW, p["BM"], p["BK"])
    map_b = tensor_map.operand_map(dtype, k, n, b.layout, b.ld, b.layout == COL, p["BN"] // cx, p["BK"])
    return (tensor_map.encode(map_a, a.tensor.data_ptr()), tensor_map.encode(map_b, b.tensor.data_ptr()), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), bias if bias is not None else NULL)


_NO_MAP = ParamBlock(bytes(128), align=64)
"""The tensor map a kernel gets for a C that TMA cannot store to (its flag says not to use it)."""


def _tma_store_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                    bias: Any = None) -> tuple[Any, ...]:
    """Rung 06: A's and B's maps, C's map (boxes of 64 rows x 128 bytes) and then rung 01's
    arguments and a flag, 0 where C breaks a TMA rule (the kernel then stores directly)."""
    map_a, map_b, c_arg, *rest = _tma_args(inst, a, b, c, m, n, k, workspace, bias)
    map_c = tensor_map.output_map(inst.out_dtype, m, n, c.stride(0))
    usable = tensor_map.fits(map_c, c.data_ptr())
    block = tensor_map.encode(map_c, c.data_ptr()) if usable else _NO_MAP
    return (map_a, map_b, block, c_arg, *rest, np.int32(usable))


def _valid_for(warpgroups: tuple[int, ...], bns: tuple[int, ...] = _WGMMA_N, smem=_smem):
    def valid(p: Mapping[str, int]) -> bool:
        """The rung's static_asserts."""
        return (p["BM"] in tuple(64 * w for w in warpgroups) and p["BN"] in bns and p["BK"] in (64, 128)
                and 2 <= p["STAGES"] <= 8 and smem(p) <= 227 * 1024)
    return valid


HOPPER_FAMILY = Family(
    name="hopper", title="Hopper ladder (wgmma + TMA, fp16 / bf16 in, fp32 accumulation; sm_90a)",
    bench_dtype="bfloat16", square_max=16384,
    defaults=dict(
        outputs={"float16": ("float16", "float32"), "bfloat16": ("bfloat16", "float32")},
        math="f16f32", typed=True, arch="sm_90a", tile=lambda p: (p["BM"], p["BN"]), align_elems=8,
        constraints=(_TMA,), smem_bytes=_smem, abi=_tma_args, fused_bias=True),
)
_f = HOPPER_FAMILY.spec

HOPPER: tuple[KernelSpec, ...] = (
    _f(1, "wgmma m64nNk16 reading shared memory, fed by 128-byte-swizzled TMA loads through an "
          "mbarrier ring", "wgmma_tma", "hopper_wgmma_tma",
       params={"BM": 64, "BN": 128, "BK": 64, "STAGES": 4}, threads=lambda p: 128,
       tuning={"BN": (64, 128, 256), "STAGES": (2, 3, 4, 6)}, valid=_valid_for((1,))),
    _f(2, "128-row tiles (128x128, 128x256): two consumer warpgroups of 64 rows each",
       "two_consumer_warpgroups", "hopper_two_consumer_warpgroups",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4}, threads=lambda p: 256,
       tuning={"BN": (128, 256), "STAGES": (2, 3, 4)}, valid=_valid_for((2,), (128, 256))),
    _f(3, "warp specialisation: a TMA producer warpgroup, consumer warpgroups, a full/empty ring; "
          "setmaxnreg", "warp_specialized",
       "hopper_warp_specialized", params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4},
       threads=lambda p: 128 * (1 + p["BM"] // 64),
       tuning={"BM": (64, 128), "BN": (128, 192, 256), "STAGES": (3, 4, 5)}, valid=_valid_for((1, 2))),
    _f(4, "a persistent grid (a block per SM) walking tiles in groups of GROUP tile-rows; the ring "
          "runs on across tiles", "persistent", "hopper_persistent",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8},
       threads=lambda p: 128 * (1 + p["BM"] // 64), persistent=True,
       tuning={"BN": (128, 192, 256), "STAGES": (3, 4, 5), "GROUP": (1, 8, 16)},
       valid=lambda p: _valid_for((1, 2))(p) and p["GROUP"] >= 1),
    _f(5, "clusters of 2 x 1: two vertically adjacent tiles share B, each block loading half of it "
          "with TMA multicast", "cluster_multicast", "hopper_cluster_multicast",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8},
       threads=lambda p: 128 * (1 + p["BM"] // 64), persistent=True, cluster=lambda p: (2, 1, 1),
       tuning={"BN": (128, 256), "STAGES": (3, 4, 5), "GROUP": (1, 4, 8)},
       valid=lambda p: _valid_for((1, 2), (128, 256))(p) and p["GROUP"] >= 1),
    _f(6, "the epilogue through stmatrix, shared memory and TMA stores, overlapped with the next "
          "tile's mainloop", "tma_store_epilogue", "hopper_tma_store_epilogue",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8, "CLUSTER": 1},
       threads=lambda p: 128 * (1 + p["BM"] // 64), persistent=True, smem_bytes=_smem_staged,
       abi=_tma_store_args,
       cluster=lambda p: (p["CLUSTER"], 1, 1) if p["CLUSTER"] > 1 else None,
       tuning={"BN": (128, 192, 256), "STAGES": (3, 4), "GROUP": (1, 8, 16), "CLUSTER": (1, 2)},
       valid=lambda p: (_valid_for((1, 2), smem=_smem_staged)(p) and p["GROUP"] >= 1
                        and p["CLUSTER"] in (1, 2) and (p["CLUSTER"] == 1 or p["BN"] in (128, 256)))),
)
