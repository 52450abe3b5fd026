"""A model of shared-memory banks: how many wavefronts one warp-wide access needs.

Shared memory has 32 banks of 4 bytes; byte address ``a`` lives in bank ``(a // 4) % 32``.
The hardware serves a warp's request in *phases* of lanes, and one wavefront per phase moves
at most one 4-byte word from each bank (lanes reading the same word share it, a broadcast):

* 4-byte accesses: one phase of 32 lanes;
* 8-byte accesses: two phases, lanes 0-15 and 16-31;
* 16-byte accesses: four phases of 8 lanes;
* ``ldmatrix``: one phase per 8x8 matrix; lane ``8i + r`` gives the address of row ``r``
  (16 bytes) of matrix ``i``.

A phase needs as many wavefronts as the largest number of *distinct* words that fall in one
bank.  The ideal is the number of 128-byte wavefronts the distinct bytes of each phase need.
Wavefronts above the ideal are bank conflicts (what ncu reports as
``l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .layout import Layout
from .swizzle import ComposedLayout, Swizzle

__all__ = [
    "NUM_BANKS", "BANK_BYTES", "BankReport", "PhaseReport", "bank_conflicts", "smem_tile",
    "ldmatrix_addresses", "ldmatrix_report", "vector_access_report", "transposed_store_report",
    "DTYPE_BYTES",
]

NUM_BANKS = 32
BANK_BYTES = 4
WAVEFRONT_BYTES = NUM_BANKS * BANK_BYTES
DTYPE_BYTES = {"f32": 4, "tf32": 4, "f16": 2, "bf16": 2, "s8": 1, "u8": 1, "f64": 8, "s32": 4}


@dataclass(frozen=True)
class PhaseReport:
    """One phase: its lanes, the distinct words each bank must deliver, and its wavefronts."""

    lanes: tuple[int, ...]
    bank_words: dict[int, tuple[int, ...]]
    wavefronts: int
    ideal: int


@dataclass(frozen=True)
class BankReport:
    """Wavefronts one warp-wide shared-memory access needs, against the ideal."""

    access: str
    wavefronts: int
    ideal: int
    phases: tuple[PhaseReport, ...] = field(repr=False)

    @property
    def conflicts(self) -> int:
        """Extra wavefronts caused by bank conflicts."""
        return self.wavefronts - self.ideal

    @property
    def conflict_free(self) -> bool:
        return self.wavefronts == self.ideal

    @property
    def worst_way(self) -> int:
        """The largest n for which some phase has an n-way conflict."""
        return max((p.wavefronts for p in self.phases), default=0)

    def __str__(self) -> str:
        kind = "conflict-free" if self.conflict_free else f"{self.conflicts} extra ({self.worst_way}-way)"
        unit = "wavefront" if self.wavefronts == 1 else "wavefronts"
        return f"{self.access}: {self.wavefronts} {unit}, ideal {self.ideal}, {kind}"


def _phases(width: int | str, n_lanes: int) -> list[list[int]]:
    if width == "ldmatrix":
        return [list(range(i, min(i + 8, n_lanes))) for i in range(0, n_lanes, 8)]
    per = {4: 32, 8: 16, 16: 8}.get(width)
    if per is None:
        raise ValueError("width must be 4, 8 or 16 bytes, or 'ldmatrix'")
    return [list(range(i, min(i + per, n_lanes))) for i in range(0, n_lanes, per)]


def bank_conflicts(addresses: Sequence[int | None], width: int | str = 4) -> BankReport:
    """Model one warp-wide access.

    ``addresses[lane]`` is the byte address lane ``lane`` accesses (``None``: the lane is
    inactive or, for ldmatrix, supplies no address); ``width`` is 4, 8 or 16 bytes per lane,
    or ``"ldmatrix"`` (each address starts a 16-byte row).
    """
    if len(addresses) > 32:
        raise ValueError("a warp has 32 lanes")
    nbytes = 16 if width == "ldmatrix" else width
    phases = []
    total = ideal = 0
    for lanes in _phases(width, len(addresses)):
        active = [lane for lane in lanes if addresses[lane] is not None]
        if not active:
            continue
        words: dict[int, set[int]] = {}
        distinct_bytes: set[int] = set()
        for lane in active:
            a = addresses[lane]
            if a % min(nbytes, 16) != 0:
                raise ValueError(f"lane {lane}: address {a} is not {nbytes}-byte aligned")
            for w in range(a // BANK_BYTES, (a + nbytes) // BANK_BYTES):
                words.setdefault(w % NUM_BANKS, set()).add(w)
            distinct_bytes.update(range(a, a + nbytes))
        wf = max(len(ws) for ws in words.values())
        best = -(-len(distinct_bytes) // WAVEFRONT_BYTES)
        phases.append(PhaseReport(tuple(active), {b: tuple(sorted(ws)) for b, ws in sorted(words.items())},
                                  wf, best))
        total += wf
        ideal += best
    name = "ldmatrix" if width == "ldmatrix" else f"{width}-byte access"
    return BankReport(name, total, ideal, tuple(phases))


# ---------------------------------------------------------------------------------------------
# Shared-memory tiles and access patterns
# ---------------------------------------------------------------------------------------------

def smem_tile(rows: int, cols: int, swizzle: Swizzle | None = None, *, row_major: bool = True,
              pad: int = 0) -> Layout | ComposedLayout:
    """The layout ``(row, col) -> element offset`` of a shared-memory tile.

    Row-major (``(rows,cols):(cols+pad,1)``) or column-major, optionally padded by ``pad``
    elements per row (column), and optionally swizzled on the element offset.
    """
    if row_major:
        lay = Layout((rows, cols), (cols + pad, 1))
    else:
        lay = Layout((rows, cols), (1, rows + pad))
    return ComposedLayout(swizzle, 0, lay) if swizzle is not None else lay


def _default_origins(num: int) -> list[tuple[int, int]]:
    # The usual placement for x4 over a 16x16 tile: two 8x8 matrices side by side, then two
    # more below (the four quadrants, in the order an mma A fragment wants them).
    return {1: [(0, 0)], 2: [(0, 0), (0, 8)], 4: [(0, 0), (0, 8), (8, 0), (8, 8)]}[num]


def ldmatrix_addresses(smem: Any, num: int = 4, *, origins: Sequence[tuple[int, int]] | None = None,
                       row0: int = 0, col0: int = 0, elem_bytes: int = 2,
                       base: int = 0) -> list[int | None]:
    """Byte address each lane passes to ``ldmatrix .x{num}`` to load 8x8 matrices of ``smem``.

    Matrix ``i`` starts at element ``(row0, col0) + origins[i]``; its row ``r`` is supplied by
    lane ``8i + r``.  ``smem`` maps ``(row, col)`` to an element offset.
    """
    if num not in (1, 2, 4):
        raise ValueError("ldmatrix loads 1, 2 or 4 matrices")
    origins = list(origins) if origins is not None else _default_origins(num)
    if len(origins) != num:
        raise ValueError(f"need {num} matrix origins")
    out: list[int | None] = []
    for lane in range(32):
        if lane >= 8 * num:
            out.append(None)
            continue
        r0, c0 = origins[lane // 8]
        out.append(base + elem_bytes * smem((row0 + r0 + lane % 8, col0 + c0)))
    return out


def ldmatrix_report(smem: Any, num: int = 4, **kwargs: Any) -> BankReport:
    """The bank model for one ``ldmatrix .x{num}`` over ``smem`` (see ``ldmatrix_addresses``)."""
    rep = bank_conflicts(ldmatrix_addresses(smem, num, **kwargs), "ldmatrix")
    return BankReport(f"ldmatrix.x{num}", rep.wavefronts, rep.ideal, rep.phases)


def vector_access_report(smem: Any, lane_coords: Sequence[Any], vec_elems: int, elem_bytes: int,
                         *, store: bool = False, base: int = 0) -> BankReport:
    """The bank model for a warp where lane ``l`` loads (or stores) ``vec_elems`` contiguous
    elements starting at ``smem(lane_coords[l])``."""
    addrs = [None if c is None else base + elem_bytes * smem(c) for c in lane_coords]
    rep = bank_conflicts(addrs, vec_elems * elem_bytes)
    kind = "store" if store else "load"
    return BankReport(f"{vec_elems * elem_bytes * 8}-bit {kind}", rep.wavefronts, rep.ideal, rep.phases)


def transposed_store_report(bm: int = 128, bk: int = 8, pad: int = 0, i: int = 0,
                            warp: int = 0) -> BankReport:
    """The transposed A store of the SGEMM ladder's 8x8 thread tile: thread ``tid`` holds four
    floats of row ``tid / 2`` of A (columns ``4 * (tid % 2) + 0..3``) and writes float ``i`` to
    ``s_a[k][m]``, a ``(bk, bm + pad)`` row-major float tile.  One such store by one warp."""
    tile = smem_tile(bk, bm, pad=pad)
    coords = []
    for lane in range(32):
        tid = 32 * warp + lane
        m, k = tid >> 1, (tid & 1) << 2
        coords.append((k + i, m))
    return vector_access_report(tile, coords, 1, 4, store=True)
