"""The Hopper ladder: fp16 / bf16 in, fp32 accumulation, on wgmma fed by TMA (``kernels/hopper/``,
sm_90a only).

Every rung takes its operands as two TMA tensor maps (``runtime.tensor_map``), built by its ABI
from the prepared operands and cached, then C, M, N, K, ldc and the bias:
``(TmaDescriptor tma_a, TmaDescriptor tma_b, TC* C, int M, int N, int K, int ldc, const T* bias)``.
Rung 06 adds C's tensor map (before C) and a flag (after the bias); rungs 04 and 06 end with the
K split of the last wave: ``float* workspace, int* counters, int splits`` (:func:`last_wave`).
Rung 06 then takes the map of A's ragged last tile-row, its first row and its boxes' rows
(:func:`_tma_store_edge_args`).
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..runtime import tensor_map
from ..runtime.launch import ParamBlock
from .spec import COL, NULL, ROW, Family, KernelSpec, cdiv

TMA_CONSTRAINT = ("TMA: 16-byte aligned base pointer and leading dimension (a multiple of 8 elements); "
        "other inputs are copied to an aligned buffer first")

_WGMMA_N = (64, 128, 192, 256)
"""BN values the rungs take in every layout: a wgmma wrapper exists for them (arch/sm90.cuh), and
they are multiples of 64, since an MN-major B tile is made of 64-wide slabs."""


def smem_bytes(p: Mapping[str, int]) -> int:
    # STAGES stages of A (BM x BK) and B (BK x BN), 2-byte elements, then two 8-byte mbarriers a stage.
    return p["STAGES"] * (2 * (p["BM"] + p["BN"]) * p["BK"] + 16)


def consumers(p: Mapping[str, int]) -> int:
    """Consumer warpgroups of a warp-specialised rung: one at BM = 64, else two (of 64 rows each
    at BM = 128, of 128 at BM = 256; sm90/mainloop_warp_specialized.cuh)."""
    return 1 if p["BM"] == 64 else 2


def _smem_staged(p: Mapping[str, int]) -> int:
    # Rung 06: the stages and their barriers, rounded up to 1024 bytes, then two 64 x 128-byte
    # staging buffers per consumer warpgroup (sm90/epilogue_tma_store.cuh).
    return -(-smem_bytes(p) // 1024) * 1024 + consumers(p) * 2 * 64 * 128


def _smem_ping_pong(p: Mapping[str, int]) -> int:
    # Rung 07: rung 06's stages and staging, always two consumer warpgroups.
    return -(-smem_bytes(p) // 1024) * 1024 + 2 * 2 * 64 * 128


def _tma_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
              bias: Any = None) -> tuple[Any, ...]:
    """The two tensor maps (A: BM x BK boxes, B: BK x BN), then the ladder's C, M, N, K, ldc and
    ``bias`` (or null)."""
    p, dtype = inst.params, inst.in_dtype
    # In a cluster, each block loads a part of the B tile (and multicasts it).
    cx = inst.cluster[0] if inst.cluster is not None else 1
    map_a = tensor_map.operand_map(dtype, m, k, a.layout, a.ld, a.layout == ROW, p["BM"], p["BK"])
    map_b = tensor_map.operand_map(dtype, k, n, b.layout, b.ld, b.layout == COL,
                                   *tensor_map.multicast_part_box(dtype, b.layout == COL, p["BN"], p["BK"], cx))
    return (tensor_map.encode(map_a, a.tensor.data_ptr()), tensor_map.encode(map_b, b.tensor.data_ptr()), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), bias if bias is not None else NULL)


NO_MAP = ParamBlock(bytes(128), align=64)
"""The tensor map a kernel gets for a C that TMA cannot store to (its flag says not to use it)."""


def _tma_store_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                    bias: Any = None) -> tuple[Any, ...]:
    """Rung 06: A's and B's maps, C's map (boxes of 64 rows x 128 bytes) and then rung 01's
    arguments and a flag, 0 where C breaks a TMA rule (the kernel then copies its staged slabs to
    C itself)."""
    map_a, map_b, c_arg, *rest = _tma_args(inst, a, b, c, m, n, k, workspace, bias)
    map_c = tensor_map.output_map(inst.out_dtype, m, n, c.stride(0))
    usable = tensor_map.fits(map_c, c.data_ptr())
    block = tensor_map.encode(map_c, c.data_ptr()) if usable else NO_MAP
    return (map_a, map_b, block, c_arg, *rest, np.int32(usable), *split_args(workspace))


def a_edge(m: int, bm: int) -> tuple[int, int] | None:
    """Where A's last tile-row is ragged (M no multiple of BM): the row it starts at, and the rows
    of the boxes that load it, M % BM rounded up to 8 (a whole number of 128-byte swizzle atoms),
    so that none crosses the tensor's edge by more than 7 rows. None where every tile-row is full."""
    ragged = m % bm
    return (m - ragged, -(-ragged // 8) * 8) if ragged else None


def _tma_store_edge_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                         bias: Any = None) -> tuple[Any, ...]:
    """Rung 06: :func:`_tma_store_args`, then the map of A's last, ragged tile-row, the row where
    that tile-row starts and its boxes' rows (:func:`a_edge`). The kernel's stages expect that
    many fewer bytes there (sm90/mainloop_warp_specialized.cuh, ``AEdge``). A full last tile-row,
    an M-major A or ``A_EDGE = 0`` passes A's own map and a start past every row: every tile-row
    then loads full-height boxes, which TMA fills with zeros past M."""
    args = _tma_store_args(inst, a, b, c, m, n, k, workspace, bias)
    p = inst.params
    edge = a_edge(m, p["BM"]) if p["A_EDGE"] and a.layout == ROW else None
    if edge is None:
        return (*args, args[0], np.int32(2**31 - 1), np.int32(p["BM"]))
    m0, rows = edge
    edge_map = tensor_map.operand_map(inst.in_dtype, m, k, a.layout, a.ld, True, rows, p["BK"])
    return (*args, tensor_map.encode(edge_map, a.tensor.data_ptr()), np.int32(m0), np.int32(rows))


def _a_edge_param(p: Mapping[str, int], in_dtype: str, out_dtype: str) -> str | None:
    """Rung 06's check of its host parameter A_EDGE (the template's static_asserts check the rest)."""
    if p["A_EDGE"] not in (0, 1):
        return (f"A_EDGE = 0 (every tile-row of A loads full-height boxes) or 1 (a ragged last "
                f"tile-row loads boxes that stop at A's edge), not {p['A_EDGE']}")
    return None


MAX_SPLITS = 16
"""The most ways a tail tile's K range is split."""


def last_wave(m: int, n: int, k: int, p: Mapping[str, int], slots: int) -> tuple[int, int]:
    """``(tail_tiles, splits)`` of a persistent rung (CLUSTER = 1) on ``slots`` blocks: the R
    tiles of the last, partial wave (T % slots, or T when T < slots), and how many ways each
    one's K range is split so that they occupy the idle blocks (sm90/tile_scheduler.cuh).

    ``p["SPLITS"]`` = 1 never splits; n > 1 splits n ways at most; 0 chooses by a cost model in
    units of one k-tile's time: the tail takes ceil(k_tiles / S) k-tiles, plus, when split, one
    write and S reads of a tile's fp32 partial sums, each costing ``rho`` k-tiles, where rho is
    the partial's bytes over a k-tile's operand bytes (both move at the SM's L2 bandwidth when
    the mainloop runs at speed). The split must fit (R * S <= slots) and leave every part a
    k-tile (S <= k_tiles).

    With ``p["STREAM_K"]`` = 1 (rung 06, CLUSTER = 1) the tail is dealt out stream-K instead:
    ``(S, -S)``, the last S tiles' k-tiles shared evenly by all ``slots`` blocks (see
    :func:`stream_k_tiles`)."""
    if not 0 <= p.get("SPLITS", 1) <= MAX_SPLITS:
        raise ValueError(f"SPLITS must be 0 (the cost model chooses), 1 (no split) or at most {MAX_SPLITS} "
                         f"(the most ways a tile's K range is split), got {p['SPLITS']}")
    if p.get("STREAM_K", 0) and p.get("CLUSTER", 1) == 1 and slots > 0:
        shared = stream_k_tiles(cdiv(m, p["BM"]) * cdiv(n, p["BN"]), slots)
        return (shared, -shared) if shared else (0, 1)
    if p.get("CLUSTER", 1) != 1 or p.get("SPLITS", 1) == 1 or slots <= 0:
        return 0, 1
    bm, bn, bk = p["BM"], p["BN"], p["BK"]
    tiles = cdiv(m, bm) * cdiv(n, bn)
    tail = tiles % slots if tiles >= slots else tiles
    k_tiles = cdiv(k, bk)
    most = min(slots // tail if tail else 1, k_tiles, p["SPLITS"] or MAX_SPLITS)
    if tail == 0 or most < 2:
        return 0, 1
    if p["SPLITS"]:
        return tail, most
    rho = (4 * bm * bn) / (2 * (bm + bn) * bk)
    best, best_cost = 1, float(k_tiles)
    for s in range(2, most + 1):
        cost = cdiv(k_tiles, s) + (s + 1) * rho
        if cost < best_cost:
            best, best_cost = s, cost
    return (tail, best) if best > 1 else (0, 1)


def stream_k_tiles(tiles: int, slots: int) -> int:
    """How many of a persistent grid's last tiles stream-K shares out to its ``slots`` blocks:
    none where the tiles make whole waves; the last wave's R tiles (all of them, under one wave)
    where R is at least half a wave; R + ``slots`` where R is smaller and a whole wave comes before
    it, so that each block's share is at least a tile's k-tiles and a tile is summed from at most
    three blocks' parts rather than many small ones."""
    if tiles <= 0 or slots <= 0:
        return 0
    tail = tiles % slots if tiles >= slots else tiles
    if tail == 0:
        return 0
    return tail + slots if 2 * tail < slots and tiles >= tail + slots else tail


def split_scratch(m: int, n: int, k: int, p: Mapping[str, int], slots: int) -> int:
    # The fp32 partial sums of every unit of every split tile; stream-K: one slot for each block
    # and tail tile a block's share touches, at most slots + S (sm90/tile_scheduler.cuh).
    tail, splits = last_wave(m, n, k, p, slots)
    if splits < 0:
        return 4 * (slots + tail) * p["BM"] * p["BN"]
    return 4 * tail * splits * p["BM"] * p["BN"] if splits > 1 else 0


def split_counters(m: int, n: int, k: int, p: Mapping[str, int], slots: int) -> int:
    # One per split tile and consumer warpgroup.
    tail, splits = last_wave(m, n, k, p, slots)
    return tail * consumers(p) if splits != 1 else 0


def split_args(workspace: Any) -> tuple[Any, ...]:
    """The trailing ``float* workspace, int* counters, int splits`` of rungs 04 and 06 (``splits``
    = -S: stream-K over the last S tiles)."""
    if workspace is None or workspace.splits == 1:
        return NULL, NULL, np.int32(1)
    return workspace.scratch, workspace.counters, np.int32(workspace.splits)


def _split_tma_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                    bias: Any = None) -> tuple[Any, ...]:
    """Rung 04: rung 01's arguments, then the split's."""
    return _tma_args(inst, a, b, c, m, n, k, workspace, bias) + split_args(workspace)


def _valid_for(bms: tuple[int, ...], bns: tuple[int, ...] = _WGMMA_N, smem=smem_bytes):
    def valid(p: Mapping[str, int]) -> bool:
        """The rung's static_asserts."""
        return (p["BM"] in bms and p["BN"] in bns and p["BK"] in (64, 128)
                and 2 <= p["STAGES"] <= 8 and smem(p) <= 227 * 1024)
    return valid


HOPPER_FAMILY = Family(
    name="hopper", title="Hopper ladder (wgmma + TMA, fp16 / bf16 in, fp32 accumulation; sm_90a)",
    bench_dtype="bfloat16", square_max=16384,
    defaults=dict(
        outputs={"float16": ("float16", "float32"), "bfloat16": ("bfloat16", "float32")},
        math="f16f32", typed=True, arch="sm_90a", tile=lambda p: (p["BM"], p["BN"]), align_elems=8,
        constraints=(TMA_CONSTRAINT,), smem_bytes=smem_bytes, abi=_tma_args, fused_bias=True),
)
_f = HOPPER_FAMILY.spec

HOPPER: tuple[KernelSpec, ...] = (
    _f(1, "wgmma m64nNk16 reading shared memory, fed by 128-byte-swizzled TMA loads through an "
          "mbarrier ring", "wgmma_tma", "hopper_wgmma_tma",
       params={"BM": 64, "BN": 128, "BK": 64, "STAGES": 4}, threads=lambda p: 128,
       tuning={"BN": (64, 128, 256), "STAGES": (2, 3, 4, 6)}, valid=_valid_for((64,))),
    _f(2, "128-row tiles (128x128, 128x256): two consumer warpgroups of 64 rows each",
       "two_consumer_warpgroups", "hopper_two_consumer_warpgroups",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4}, threads=lambda p: 256,
       tuning={"BN": (128, 256), "STAGES": (2, 3, 4)}, valid=_valid_for((128,), (128, 256))),
    _f(3, "warp specialisation: a TMA producer warpgroup, consumer warpgroups, a full/empty ring; "
          "setmaxnreg", "warp_specialized",
       "hopper_warp_specialized", params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "IN_FLIGHT": 0},
       dependent_launch=True, threads=lambda p: 128 * (1 + p["BM"] // 64),
       tuning={"BM": (64, 128), "BN": (128, 192, 256), "STAGES": (3, 4, 5)},
       valid=lambda p: _valid_for((64, 128))(p) and p["IN_FLIGHT"] in (0, 1)),
    _f(4, "a persistent grid walking tiles in groups of GROUP tile-rows; the last wave's tiles split "
          "over K", "persistent", "hopper_persistent",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8, "IN_FLIGHT": 0, "SPLITS": 0},
       dependent_launch=True, threads=lambda p: 128 * (1 + p["BM"] // 64), persistent=True, abi=_split_tma_args,
       last_wave=last_wave, workspace=split_scratch, counters=split_counters, host_params=("SPLITS",),
       tuning={"BN": (128, 192, 256), "STAGES": (3, 4, 5), "GROUP": (1, 8, 16), "SPLITS": (0, 1)},
       valid=lambda p: (_valid_for((64, 128))(p) and p["GROUP"] >= 1 and p["IN_FLIGHT"] in (0, 1)
                        and 0 <= p["SPLITS"] <= MAX_SPLITS)),
    _f(5, "clusters of 2 x 1: two vertically adjacent tiles share B, each block loading half of it "
          "with TMA multicast", "cluster_multicast", "hopper_cluster_multicast",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8, "IN_FLIGHT": 0},
       dependent_launch=True, threads=lambda p: 128 * (1 + p["BM"] // 64), persistent=True, cluster=lambda p: (2, 1, 1),
       tuning={"BN": (128, 256), "STAGES": (3, 4, 5), "GROUP": (1, 4, 8)},
       valid=lambda p: (_valid_for((64, 128), (128, 256))(p) and p["GROUP"] >= 1 and p["IN_FLIGHT"] in (0, 1))),
    _f(6, "the epilogue through stmatrix, shared memory and TMA stores, overlapped with the next "
          "tile's mainloop", "tma_store_epilogue", "hopper_tma_store_epilogue",
       params={"BM": 128, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8, "CLUSTER": 1, "IN_FLIGHT": 0,
               "HOLD": 0, "SPLITS": 0, "STREAM_K": 0, "A_EDGE": 1},
       dependent_launch=True, threads=lambda p: 128 * (1 + consumers(p)), persistent=True, smem_bytes=_smem_staged,
       abi=_tma_store_edge_args, last_wave=last_wave, workspace=split_scratch, counters=split_counters,
       host_params=("SPLITS", "A_EDGE"), autotune=True, check_params=_a_edge_param,
       cluster=lambda p: (p["CLUSTER"], 1, 1) if p["CLUSTER"] > 1 else None,
       tuning={"BM": (128, 256), "BN": (128, 176, 192, 256), "STAGES": (3, 4), "GROUP": (8, 16),
               "CLUSTER": (1, 2), "IN_FLIGHT": (0, 1), "SPLITS": (0, 1), "STREAM_K": (0, 1)},
       # 256-row tiles (two consumer warpgroups of 128 rows) take BN = 128: 128 accumulators a thread.
       # Stream-K (STREAM_K = 1) shares the tail among single blocks (CLUSTER = 1).
       # A BN that is no multiple of 64 (176) reads B K-major only: a row-major B is copied first.
       b_layouts_of=lambda p: frozenset({COL}) if p["BN"] % 64 else None,
       valid=lambda p: ((_valid_for((64, 128), smem=_smem_staged)(p) or _valid_for((256,), (128,), _smem_staged)(p)
                         # 128 x 176 (cuBLAS's width at 1024 x 14336): B K-major, single blocks or
                         # clusters of two (each block multicasts 88 rows of B: 11 swizzle atoms)
                         or (_valid_for((128,), (176,), _smem_staged)(p) and p["CLUSTER"] in (1, 2)))
                        and p["GROUP"] >= 1
                        and p["CLUSTER"] in (1, 2, 4) and (p["CLUSTER"] == 1 or p["BN"] in (128, 176, 256))
                        and (p["CLUSTER"] != 4 or p["BN"] == 256)
                        and p["IN_FLIGHT"] in (0, 1) and p["HOLD"] in (0, 1) and 0 <= p["SPLITS"] <= MAX_SPLITS
                        and p["STREAM_K"] in (0, 1) and (p["STREAM_K"] == 0 or p["CLUSTER"] == 1)
                        and p["A_EDGE"] in (0, 1))),
    _f(7, "ping-pong: the two consumer warpgroups take alternate tiles, so that one's epilogue runs "
          "while the other multiplies", "ping_pong", "hopper_ping_pong",
       params={"BM": 64, "BN": 256, "BK": 64, "STAGES": 4, "GROUP": 8, "CLUSTER": 2, "IN_FLIGHT": 1},
       dependent_launch=True, threads=lambda p: 384, persistent=True, smem_bytes=_smem_ping_pong,
       abi=_tma_store_args,
       cluster=lambda p: (p["CLUSTER"], 1, 1) if p["CLUSTER"] > 1 else None,
       tuning={"BM": (64, 128), "BN": (128, 256), "STAGES": (3, 4, 5, 6), "GROUP": (8, 16), "CLUSTER": (1, 2, 4),
               "IN_FLIGHT": (0, 1)},
       # A warpgroup's own tile: 64 x BN, or 128 x 128 as two row blocks (128 accumulators a thread).
       valid=lambda p: (_valid_for((64, 128), (128, 256), _smem_ping_pong)(p)
                        and (p["BM"] == 64 or p["BN"] == 128) and p["GROUP"] >= 1
                        and p["CLUSTER"] in (1, 2, 4) and (p["CLUSTER"] != 4 or p["BN"] == 256)
                        and p["IN_FLIGHT"] in (0, 1))),
)
