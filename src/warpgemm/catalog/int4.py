"""4-bit integer GEMM: packed int4 x packed int4 -> int32, exact (``kernels/int4/``).

One rung per warp-level 4-bit MMA form, in the order the forms arrived: wmma m8n8k32 (sm_75,
opaque fragments), mma.sync m8n8k32 (sm_75), m16n8k32 and m16n8k64 (sm_80). They share the
pipeline (``sm80/packed4_mainloop.cuh``), the tiles and their copy (``sm80/packed4_tile.cuh``),
the ldmatrix reads (``sm80/packed4_warp.cuh``) and the s32 epilogue
(``sm80/s32_tile_store.cuh``); each file holds its form's warp step.

The operands are :class:`warpgemm.int4.Packed`: A (M, K) and W = B^T (N, K), each packed along K,
two values a byte. The input "dtype" names the signedness: ``int4`` (s4, -8..7) or ``uint4``
(u4, 0..15); the template takes it as ``wg::s4x2_t`` or ``wg::u4x2_t``. The ABI is the ladder's,
``(A, B, C, M, N, K, lda, ldb, ldc)`` with K in values and ``lda``/``ldb`` in bytes.

Rung 05 is the Hopper kernel (sm_90a, where every 4-bit mma is emulated): igemm/02's persistent
TMA + wgmma pipeline with stages of packed tiles, which the consumers widen to 8-bit tiles in
shared memory for the s8 (or u8) wgmma. Its ABI is igemm/02's: two tensor maps of the packed
bytes (no swizzle, 64-byte boxes: :func:`packed_map`), then C, M, N, K (values), ldc and the last
wave's K split. An odd K's pad nibble is cleared by the host in one operand first
(:data:`CLEARS_PAD_ON_HOST`). Rung 06 is rung 05 with A widened into the register-A wgmma's
fragment; its ABI is rung 05's, A's map under the 64-byte swizzle. It widens s4 to 16 times its
values, so its s4 sums are exact only to :data:`S4_HIGH_K_MAX` (:func:`exact_k_limit`).

``warpgemm.matmul`` reaches these kernels only through :mod:`warpgemm.int4_matmul`, for Packed
operands (``called_by``): a plain tensor holds no 4-bit values.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..runtime import tensor_map
from . import hopper
from .spec import COL, ROW, Family, KernelSpec

S4_K_MAX = (2**31 - 1) // 64
"""The longest K whose sums fit int32 for any s4 operands: |a * b| <= (-8) * (-8) = 64."""
U4_K_MAX = (2**31 - 1) // 225
"""The longest K whose sums fit int32 for any u4 operands: a * b <= 15 * 15 = 225."""

S4_HIGH_K_MAX = (2**31 - 1) // (64 * 256)
"""Rung 06 with s4: values widened to 16 times themselves, products 256 times the values', so its
int32 sums stay exact only up to this K (131071, int8's bound) for full-range operands."""

_K_BOUND = (f"exact while sums fit int32: any K <= {S4_K_MAX} for full-range s4 operands (|a * b| <= 64), "
            f"K <= {U4_K_MAX} for u4 (a * b <= 225); longer sums wrap")
_PACKED = ("A (M, K) row-major and B = W^T with W (N, K), each packed along K two values a byte "
           "(warpgemm.int4.Packed); A and B both signed (s4) or both unsigned (u4)")
_ALIGN = ("16-byte aligned packed rows, a multiple of 16 bytes apart (K a multiple of 32 when contiguous); "
          "other operands are copied to an aligned buffer first")
_EMULATED = "on sm_90 and later ptxas emulates every 4-bit mma (no 4-bit tensor cores): correct, slow"

CALLED_BY = "warpgemm.matmul with warpgemm.int4.Packed operands"


def _threads(p: Mapping[str, int]) -> int:
    return 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"])


def _smem_swizzled(p: Mapping[str, int]) -> int:
    """STAGES stages of (BM + BN) rows of BK/2 bytes; the epilogue's 16 x WN s32 rows per warp
    reuse them (more only for tiny tiles)."""
    return max(p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"] // 2, (_threads(p) // 32) * 16 * p["WN"] * 4)


def _smem_padded(p: Mapping[str, int]) -> int:
    """The wmma rung's rows are padded 16 bytes past BK/2; its epilogue stages 8 x WN s32 per warp."""
    return max(p["STAGES"] * (p["BM"] + p["BN"]) * (p["BK"] // 2 + 16), (_threads(p) // 32) * 8 * p["WN"] * 4)


def _pow2(x: int) -> bool:
    return x > 0 and x & (x - 1) == 0


def _valid_warps(p: Mapping[str, int]) -> bool:
    """The shared static_asserts: warp tiles of 16-row blocks dividing the block tile, at most 1024
    threads, whole rows of 16-byte chunks per thread and tiles 1024-byte aligned in shared memory."""
    bm, bn, wm, wn = p["BM"], p["BN"], p["WM"], p["WN"]
    if not (bm % wm == 0 and bn % wn == 0 and wm % 16 == 0 and wn % 16 == 0 and _pow2(wn) and wn <= 128):
        return False
    threads = _threads(p)
    cpr = p["BK"] // 32
    return (threads <= 1024 and threads % cpr == 0 and (bm * cpr) % threads == 0 and (bn * cpr) % threads == 0
            and p["STAGES"] >= 2)


def _valid_swizzled(p: Mapping[str, int]) -> bool:
    """Rungs 02-04: BK of 128 or 256 values (64- or 128-byte swizzled rows); each thread's chunk rows
    span whole multiples of 1024 bytes; at most 227 KB of shared memory."""
    cpr = p["BK"] // 32
    return (p["BK"] in (128, 256) and _valid_warps(p) and ((_threads(p) // cpr) * p["BK"] // 2) % 1024 == 0
            and (p["BM"] * p["BK"] // 2) % 1024 == 0 and (p["BN"] * p["BK"] // 2) % 1024 == 0
            and _smem_swizzled(p) <= 227 * 1024)


def _valid_padded(p: Mapping[str, int]) -> bool:
    """Rung 01: BK a multiple of 32 values, padded tiles 1024-byte aligned, at most 227 KB."""
    row = p["BK"] // 2 + 16
    return (p["BK"] % 32 == 0 and p["BK"] >= 64 and _valid_warps(p) and (p["BM"] * row) % 1024 == 0
            and (p["BN"] * row) % 1024 == 0 and _smem_padded(p) <= 227 * 1024)


PACKED_BOX_BYTES = 64
"""The inner size of rung 05's TMA boxes: one k-tile (128 values) of a packed row."""

def packed_map(rows: int, k: int, ld: int, box_rows: int) -> tensor_map.TileMap:
    """The tensor map of a packed operand (``rows`` rows of ``k`` values, ``ceil(k / 2)`` bytes
    each, ``ld`` bytes apart) for rung 05: boxes of 64 bytes by ``box_rows`` rows. Bytes past a
    row's end arrive as zeros (zero values)."""
    nbytes = (k + 1) // 2
    stride = ld if rows > 1 else -(-max(nbytes, 1) // 16) * 16
    return tensor_map.TileMap("uint8", (nbytes, rows), stride, (PACKED_BOX_BYTES, box_rows))


def _widen_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                bias: Any = None) -> tuple[Any, ...]:
    """Rung 05: the packed maps of A (M rows, (64, BM) boxes) and W (N rows, (64, BN) boxes), C, M,
    N, K (values), ldc, then the K split of the last wave. ``a.ld``, ``b.ld``: row pitches in bytes."""
    p = inst.params
    map_a, map_b = packed_map(m, k, a.ld, p["BM"]), packed_map(n, k, b.ld, p["BN"])
    # No swizzle: the widening copy reads the packed rows whole (sm90/widening_copy.cuh).
    return (tensor_map.encode(map_a, a.tensor.data_ptr(), swizzle=False),
            tensor_map.encode(map_b, b.tensor.data_ptr(), swizzle=False), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), *hopper.split_args(workspace))


def _register_a_args(inst: Any, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                     bias: Any = None) -> tuple[Any, ...]:
    """Rung 06: rung 05's arguments, A's map under the 64-byte swizzle (its consumers read a
    16-byte chunk of 8 rows at a time: sm90/mainloop_register_a_widening.cuh)."""
    p = inst.params
    map_a, map_b = packed_map(m, k, a.ld, p["BM"]), packed_map(n, k, b.ld, p["BN"])
    return (tensor_map.encode(map_a, a.tensor.data_ptr(), swizzle=64),
            tensor_map.encode(map_b, b.tensor.data_ptr(), swizzle=False), c,
            np.int32(m), np.int32(n), np.int32(k), np.int32(c.stride(0)), *hopper.split_args(workspace))


def _smem_register_a(p: Mapping[str, int]) -> int:
    """Rung 06: the packed ring and its barriers, then two 8-bit B tiles (BN rows of BK bytes)."""
    return p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"] // 2 + 1024 + 2 * p["BN"] * p["BK"]


def _valid_register_a(p: Mapping[str, int]) -> bool:
    """Rung 06's static_asserts: rung 05's (BN up to 256: the consumers then take 240 registers)."""
    return (p["BM"] == 128 and p["BK"] == 128 and p["BN"] in (64, 128, 192, 256) and 2 <= p["STAGES"] <= 8
            and p["GROUP"] >= 1 and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS and _smem_register_a(p) <= 227 * 1024)


def _smem_widening(p: Mapping[str, int]) -> int:
    """The packed ring ((BM + BN) rows of BK / 2 bytes a stage), its barriers in a 1024-byte gap,
    then two slots of 8-bit target tiles ((BM + BN) rows of BK bytes): sm90/mainloop_widening.cuh."""
    return p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"] // 2 + 1024 + 2 * (p["BM"] + p["BN"]) * p["BK"]


def _valid_widening(p: Mapping[str, int]) -> bool:
    """Rung 05's static_asserts: BM = 128 (two consumers), BK = 128 values, BN a wgmma N that
    splits into 32-row passes per consumer, at most 227 KB of shared memory."""
    return (p["BM"] == 128 and p["BK"] == 128 and p["BN"] in (64, 128, 192, 256) and 2 <= p["STAGES"] <= 8
            and p["GROUP"] >= 1 and 0 <= p["SPLITS"] <= hopper.MAX_SPLITS and _smem_widening(p) <= 227 * 1024)


_WIDEN = "widen_to_s8_wgmma"
_REGISTER_A = "widen_a_to_registers"
CLEARS_PAD_ON_HOST = frozenset({f"int4/05_{_WIDEN}", f"int4/06_{_REGISTER_A}"})
"""Kernels that multiply an odd K's pad nibble like a value: :mod:`warpgemm.int4_matmul` clears it
in one operand (a copy of the one with fewer rows) before the launch."""

INT4_FAMILY = Family(
    name="int4", title="4-bit integer GEMM (packed int4 in, int32 out, exact)", bench_dtype="int4",
    square_max=16384,
    defaults=dict(outputs={"int4": ("int32",), "uint4": ("int32",)}, math="i4i32", typed=True,
                  layouts=((ROW, COL),), align_elems=16, called_by=CALLED_BY, threads=_threads,
                  tile=lambda p: (p["BM"], p["BN"]), smem_bytes=_smem_swizzled, valid=_valid_swizzled),
)
_f = INT4_FAMILY.spec

_SM75 = {"BM": 128, "BN": 128, "BK": 128, "WM": 64, "WN": 32, "STAGES": 3}
"""Rungs 01-02 (sm_75): 48 KB (wmma: 60 KB) of stages, within Turing's 64 KB."""
_SM80 = {"BM": 128, "BN": 128, "BK": 256, "WM": 64, "WN": 32, "STAGES": 3}
"""Rungs 03-04: 96 KB of stages, k-tiles of 128 bytes a row; 64 x 32 warp tiles compile without
spills for sm_80 and sm_90a (the emulation needs registers; 64 x 64 spills on sm_90a)."""
_TUNING = {"BN": (64, 128, 256), "BK": (128, 256), "WM": (32, 64), "WN": (32, 64), "STAGES": (2, 3, 4)}

_HOPPER = dict(threads=lambda p: 128 * (1 + p["BM"] // 64), persistent=True, last_wave=hopper.last_wave,
               workspace=hopper.split_scratch, counters=hopper.split_counters, host_params=("SPLITS",),
               dependent_launch=True)
"""What rungs 05 and 06 share: igemm/02's persistent warp-specialised launch."""
_HOPPER_CONSTRAINTS = (_PACKED, _ALIGN, "an odd K: the pad nibbles of the operand with fewer rows are cleared in "
                       "a copy first", _K_BOUND)

INT4: tuple[KernelSpec, ...] = (
    _f(1, "wmma m8n8k32 s4/u4: opaque fragments loaded by wmma.load from padded K-major tiles",
       "wmma_m8n8k32", "int4_wmma_m8n8k32", arch="sm_75", params=_SM75, smem_bytes=_smem_padded,
       valid=_valid_padded, tuning={**_TUNING, "BK": (64, 128, 256)},
       constraints=(_PACKED, _ALIGN, _K_BOUND, _EMULATED)),
    _f(2, "mma.sync m8n8k32: fragments with a layout, read by ldmatrix from swizzled tiles",
       "mma_m8n8k32", "int4_mma_m8n8k32", arch="sm_75", params=_SM75, tuning=_TUNING,
       constraints=(_PACKED, _ALIGN, _K_BOUND, _EMULATED)),
    _f(3, "mma.sync m16n8k32: two m8 rows of A fragments per instruction, each B register used for 16 rows",
       "mma_m16n8k32", "int4_mma_m16n8k32", arch="sm_80", params=_SM80, tuning=_TUNING,
       constraints=(_PACKED, _ALIGN, _K_BOUND, _EMULATED)),
    _f(4, "mma.sync m16n8k64: a whole 16 x 64 ldmatrix block per instruction, half the instructions",
       "mma_m16n8k64", "int4_mma_m16n8k64", arch="sm_80", params=_SM80, tuning=_TUNING,
       constraints=(_PACKED, _ALIGN, _K_BOUND, _EMULATED)),
    _f(5, "Hopper: packed tiles by TMA, widened to 8-bit in shared memory for the s8 / u8 wgmma (igemm/02's "
          "pipeline)", _WIDEN, "int4_widen_to_s8_wgmma", arch="sm_90a", abi=_widen_args,
       params={"BM": 128, "BN": 256, "BK": 128, "STAGES": 4, "GROUP": 8, "SPLITS": 0},
       smem_bytes=_smem_widening, valid=_valid_widening,
       tuning={"BN": (128, 256), "STAGES": (3, 4, 5), "GROUP": (8, 16), "SPLITS": (0, 1)},
       constraints=(*_HOPPER_CONSTRAINTS, "the s8 (s4) or u8 (u4) wgmma on widened tiles: no emulation"),
       **_HOPPER),
    _f(6, "Hopper: rung 05 with A widened straight into the register-A wgmma's fragment; only B via shared "
          "memory", _REGISTER_A, "int4_widen_a_to_registers", arch="sm_90a",
       abi=_register_a_args, params={"BM": 128, "BN": 256, "BK": 128, "STAGES": 6, "GROUP": 8, "SPLITS": 0},
       smem_bytes=_smem_register_a, valid=_valid_register_a,
       tuning={"BN": (128, 192, 256), "STAGES": (4, 5, 6, 7), "GROUP": (8, 16), "SPLITS": (0, 1)},
       constraints=(*_HOPPER_CONSTRAINTS, "the s8 (s4) or u8 (u4) wgmma, A from registers: no emulation",
                    f"s4: values widened to 16 times themselves, so K <= {S4_HIGH_K_MAX} (longer K is refused)"),
       **_HOPPER),
)


def exact_k_limit(kernel: str, signed: bool) -> int | None:
    """The K past which ``kernel``'s sums are no longer the exact ones wrapped to int32, where that
    is short of :func:`k_max` (rung 06 with s4); else None. ``warpgemm.matmul`` refuses longer K."""
    return S4_HIGH_K_MAX if signed and kernel == f"int4/06_{_REGISTER_A}" else None


def k_max(signed: bool) -> int:
    """The longest K whose int32 sums are exact for any operands of that signedness."""
    return S4_K_MAX if signed else U4_K_MAX
