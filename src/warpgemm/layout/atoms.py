"""MMA and copy atoms: one warp-level instruction, described by its thread-value (TV) layouts.

A TV layout maps ``(thread, value)`` to a position in the instruction's tile, numbered
column-major:

* ``layout_a_tv``: ``(t, v) -> m + M * k`` for A, an ``M x K`` tile;
* ``layout_b_tv``: ``(t, v) -> n + N * k`` for B, held as ``N x K`` (the "TN" convention);
* ``layout_c_tv``: ``(t, v) -> m + M * n`` for C and D, an ``M x N`` tile.

Value ``v`` of a thread is its ``v``-th element in register order: for 16-bit types, value
``2r`` is the low half of register ``r``; for 8-bit types, value ``4r + j`` is byte ``j``; for
4-bit types, value ``8r + j`` is nibble ``j``.  ``thr_id`` maps the atom's logical thread to
the lane that plays it (the identity ``32:1`` except for the SM70 quad-pair).

The values are CuTe's (``MMA_Traits`` and ``Copy_Traits``), so ``str(atom)`` prints what
CuTe's ``print`` does, minus the ``_`` static marks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .algebra import recast
from .layout import Layout

__all__ = [
    "MMAAtom", "CopyAtom", "mma_atom", "copy_atom", "MMA_ATOMS", "COPY_ATOMS",
    "ldmatrix_lane_rows", "ldmatrix_lane_map",
]


@dataclass(frozen=True)
class MMAAtom:
    """One ``mma.sync`` instruction: its shape, its threads and its A/B/C fragments."""

    name: str
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    layout_a_tv: Layout
    layout_b_tv: Layout
    layout_c_tv: Layout
    ptx: str
    a_type: str
    b_type: str
    c_type: str
    min_arch: int = 80

    @property
    def type_bits(self) -> dict[str, int]:
        """Bits per element of A, B and C/D."""
        bits = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s32": 32, "s8": 8, "s4": 4, "u4": 4}
        return {"a": bits[self.a_type], "b": bits[self.b_type], "c": bits[self.c_type]}

    @property
    def num_threads(self) -> int:
        return self.thr_id.size()

    def registers(self) -> dict[str, int]:
        """32-bit registers per thread for A, B and C/D."""
        bits = self.type_bits
        return {
            "a": self.layout_a_tv[1].size() * bits["a"] // 32,
            "b": self.layout_b_tv[1].size() * bits["b"] // 32,
            "c": self.layout_c_tv[1].size() * bits["c"] // 32,
        }

    def _text(self, static: bool) -> str:
        f = "_" if static else ""
        m, n, k = self.shape_mnk
        shape = f"({f}{m},{f}{n},{f}{k})"
        return ("MMA_Atom\n"
                f"  ThrID:      {self.thr_id:{f}}\n"
                f"  Shape_MNK:  {shape}\n"
                f"  LayoutA_TV: {self.layout_a_tv:{f}}\n"
                f"  LayoutB_TV: {self.layout_b_tv:{f}}\n"
                f"  LayoutC_TV: {self.layout_c_tv:{f}}\n")

    def __str__(self) -> str:
        return self._text(False)

    def __format__(self, spec: str) -> str:
        return self._text(spec == "_")


def _L(shape, stride) -> Layout:  # noqa: N802 - a short constructor for the tables below
    return Layout(shape, stride)


# CuTe's shared fragment layouts.
_SM80_8x8_ROW = _L(((4, 8), 2), ((16, 1), 8))                 # (T32,V2) -> (M8,N8)
_SM80_8x16_ROW = _L(((4, 8), 4), ((32, 1), 8))                # (T32,V4) -> (M8,K16)
_SM80_16x8_ROW = _L(((4, 8), (2, 2)), ((32, 1), (16, 8)))     # (T32,V4) -> (M16,N8)
_SM80_8x32_ROW = _L(((4, 8), 8), ((64, 1), 8))                # (T32,V8) -> (N8,K32)
_WARP = _L(32, 1)

_MMA_TABLE: list[MMAAtom] = [
    MMAAtom("SM80_16x8x8_F16F16F16F16_TN", (16, 8, 8), _WARP,
            _L(((4, 8), (2, 2)), ((32, 1), (16, 8))), _L(((4, 8), 2), ((16, 1), 8)), _SM80_16x8_ROW,
            "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", "f16", "f16", "f16"),
    MMAAtom("SM80_16x8x16_F16F16F16F16_TN", (16, 8, 16), _WARP,
            _L(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))), _L(((4, 8), (2, 2)), ((16, 1), (8, 64))),
            _SM80_16x8_ROW, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "f16", "f16", "f16"),
    MMAAtom("SM80_16x8x16_F32F16F16F32_TN", (16, 8, 16), _WARP,
            _L(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))), _L(((4, 8), (2, 2)), ((16, 1), (8, 64))),
            _SM80_16x8_ROW, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "f16", "f16", "f32"),
    MMAAtom("SM80_16x8x16_F32BF16BF16F32_TN", (16, 8, 16), _WARP,
            _L(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128))), _L(((4, 8), (2, 2)), ((16, 1), (8, 64))),
            _SM80_16x8_ROW, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "bf16", "bf16", "f32"),
    MMAAtom("SM80_16x8x8_F32TF32TF32F32_TN", (16, 8, 8), _WARP,
            _L(((4, 8), (2, 2)), ((16, 1), (8, 64))), _L(((4, 8), 2), ((8, 1), 32)), _SM80_16x8_ROW,
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "tf32", "tf32", "f32"),
    MMAAtom("SM80_8x8x16_S32S8S8S32_TN", (8, 8, 16), _WARP,
            _SM80_8x16_ROW, _SM80_8x16_ROW, _SM80_8x8_ROW,
            "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", "s8", "s8", "s32"),
    MMAAtom("SM80_16x8x16_S32S8S8S32_TN", (16, 8, 16), _WARP,
            _L(((4, 8), (4, 2)), ((64, 1), (16, 8))), _SM80_8x16_ROW, _SM80_16x8_ROW,
            "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", "s8", "s8", "s32"),
    MMAAtom("SM80_16x8x32_S32S8S8S32_TN", (16, 8, 32), _WARP,
            _L(((4, 8), (4, 2, 2)), ((64, 1), (16, 8, 256))), _L(((4, 8), (4, 2)), ((32, 1), (8, 128))),
            _SM80_16x8_ROW, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "s8", "s8", "s32"),
    # The 4-bit atoms, s4 and u4 (one layout, two instructions). m8n8k32 exists from sm_75.
    *(MMAAtom(f"SM80_8x8x32_S32{t.upper()}{t.upper()}S32_TN", (8, 8, 32), _WARP,
              _L(((4, 8), (8,)), ((64, 1), (8,))), _L(((4, 8), (8,)), ((64, 1), (8,))), _SM80_8x8_ROW,
              f"mma.sync.aligned.m8n8k32.row.col.s32.{t}.{t}.s32", t, t, "s32", min_arch=75)
      for t in ("s4", "u4")),
    *(MMAAtom(f"SM80_16x8x32_S32{t.upper()}{t.upper()}S32_TN", (16, 8, 32), _WARP,
              _L(((4, 8), (8, 2)), ((128, 1), (16, 8))), _SM80_8x32_ROW, _SM80_16x8_ROW,
              f"mma.sync.aligned.m16n8k32.row.col.s32.{t}.{t}.s32", t, t, "s32")
      for t in ("s4", "u4")),
    *(MMAAtom(f"SM80_16x8x64_S32{t.upper()}{t.upper()}S32_TN", (16, 8, 64), _WARP,
              _L(((4, 8), (8, 2, 2)), ((128, 1), (16, 8, 512))), _L(((4, 8), (8, 2)), ((64, 1), (8, 256))),
              _SM80_16x8_ROW, f"mma.sync.aligned.m16n8k64.row.col.s32.{t}.{t}.s32", t, t, "s32")
      for t in ("s4", "u4")),
    # Volta: one instruction is four independent 8x8x4 products, one per quad-pair
    # (lanes 4q..4q+3 and 16+4q..16+4q+3).  The atom describes quad-pair 0.
    MMAAtom("SM70_8x8x4_F16F16F16F16_TN", (8, 8, 4), _L((4, 2), (1, 16)),
            _L((8, 4), (1, 8)), _L((8, 4), (1, 8)), _L((8, 8), (1, 8)),
            "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16", "f16", "f16", "f16", min_arch=70),
]

MMA_ATOMS: dict[str, MMAAtom] = {a.name: a for a in _MMA_TABLE}


def mma_atom(name: str) -> MMAAtom:
    """The MMA atom with CuTe's name ``name``, e.g. ``"SM80_16x8x16_F16F16F16F16_TN"``."""
    try:
        return MMA_ATOMS[name]
    except KeyError:
        raise KeyError(f"unknown MMA atom {name!r}; known: {', '.join(MMA_ATOMS)}") from None


# ---------------------------------------------------------------------------------------------
# Copy atoms (ldmatrix)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CopyAtom:
    """One copy instruction.  The ``*_bits`` layouts map ``(thread, value)`` to a bit of the
    copied block; ``val_layout_*`` are the same maps in units of ``value_bits``-wide elements.

    For ldmatrix the source thread ``t`` supplies the address of row ``t`` (16 bytes), and the
    block is numbered ``matrix * 64 + row * 8 + column`` in 16-bit elements.
    """

    name: str
    thr_id: Layout
    src_bits: Layout
    dst_bits: Layout
    ref_bits: Layout
    ptx: str
    num_matrices: int
    trans: bool
    value_bits: int = 16
    val_layout_src: Layout = field(init=False)
    val_layout_dst: Layout = field(init=False)
    val_layout_ref: Layout = field(init=False)

    def __post_init__(self) -> None:
        for attr, bits in (("val_layout_src", self.src_bits), ("val_layout_dst", self.dst_bits),
                           ("val_layout_ref", self.ref_bits)):
            object.__setattr__(self, attr, recast(bits, 1, self.value_bits))

    def with_value_bits(self, value_bits: int) -> "CopyAtom":
        """The same instruction viewed with another element width (CuTe's ``Copy_Atom<Op, T>``)."""
        return CopyAtom(self.name, self.thr_id, self.src_bits, self.dst_bits, self.ref_bits,
                        self.ptx, self.num_matrices, self.trans, value_bits)

    def _text(self, static: bool) -> str:
        f = "_" if static else ""
        return ("Copy_Atom\n"
                f"  ThrID:        {self.thr_id:{f}}\n"
                f"  ValLayoutSrc: {self.val_layout_src:{f}}\n"
                f"  ValLayoutDst: {self.val_layout_dst:{f}}\n"
                f"  ValLayoutRef: {self.val_layout_ref:{f}}\n"
                f"  ValueType:    {self.value_bits}b\n")

    def __str__(self) -> str:
        return self._text(False)

    def __format__(self, spec: str) -> str:
        return self._text(spec == "_")


def _ldsm(name: str, src, dst, num: int, trans: bool) -> CopyAtom:
    suffix = ".trans" if trans else ""
    regs = ", ".join(f"%{i}" for i in range(num))
    ptx = f"ldmatrix.sync.aligned.m8n8.x{num}{suffix}.shared.b16 {{{regs}}}, [%{num}];"
    return CopyAtom(name, _WARP, src, dst, dst, ptx, num, trans)


_COPY_TABLE = [
    _ldsm("SM75_U32x1_LDSM_N", _L(((8, 4), 128), ((128, 0), 1)), _L((32, 32), (32, 1)), 1, False),
    _ldsm("SM75_U32x2_LDSM_N", _L(((16, 2), 128), ((128, 0), 1)), _L((32, (32, 2)), (32, (1, 1024))), 2, False),
    _ldsm("SM75_U32x4_LDSM_N", _L((32, 128), (128, 1)), _L((32, (32, 4)), (32, (1, 1024))), 4, False),
    _ldsm("SM75_U16x2_LDSM_T", _L(((8, 4), 128), ((128, 0), 1)),
          _L(((4, 8), (16, 2)), ((256, 16), (1, 128))), 1, True),
    _ldsm("SM75_U16x4_LDSM_T", _L(((16, 2), 128), ((128, 0), 1)),
          _L(((4, 8), (16, 2, 2)), ((256, 16), (1, 128, 1024))), 2, True),
    _ldsm("SM75_U16x8_LDSM_T", _L((32, 128), (128, 1)),
          _L(((4, 8), (16, 2, 4)), ((256, 16), (1, 128, 1024))), 4, True),
]

COPY_ATOMS: dict[str, CopyAtom] = {a.name: a for a in _COPY_TABLE}


def copy_atom(name: str, value_bits: int = 16) -> CopyAtom:
    """The copy atom with CuTe's name ``name`` (e.g. ``"SM75_U16x8_LDSM_T"``), viewed with
    ``value_bits``-wide elements."""
    try:
        atom = COPY_ATOMS[name]
    except KeyError:
        raise KeyError(f"unknown copy atom {name!r}; known: {', '.join(COPY_ATOMS)}") from None
    return atom if value_bits == atom.value_bits else atom.with_value_bits(value_bits)


def ldmatrix_lane_rows(num: int) -> list[tuple[int, int] | None]:
    """For ``ldmatrix .x{num}``: the ``(matrix, row)`` whose address each lane supplies.

    Lanes ``8i .. 8i+7`` give the rows of matrix ``i``; lanes beyond ``8 * num`` supply no
    address (``None``).
    """
    if num not in (1, 2, 4):
        raise ValueError("ldmatrix loads 1, 2 or 4 matrices")
    return [(lane // 8, lane % 8) if lane < 8 * num else None for lane in range(32)]


def ldmatrix_lane_map(num: int, trans: bool = False) -> list[list[tuple[int, int, int]]]:
    """For each lane, the ``(matrix, row, col)`` of every 16-bit value it receives, in register
    order (value ``2r + h`` is half ``h`` of register ``r``).  ``row``/``col`` index the 8x8
    matrix as stored (row ``i`` starts at the address lane ``8*matrix + i`` supplied)."""
    if num not in (1, 2, 4):
        raise ValueError("ldmatrix loads 1, 2 or 4 matrices")
    out = []
    for lane in range(32):
        vals = []
        for r in range(num):
            for h in range(2):
                if trans:
                    vals.append((r, 2 * (lane % 4) + h, lane // 4))
                else:
                    vals.append((r, lane // 4, 2 * (lane % 4) + h))
        out.append(vals)
    return out
