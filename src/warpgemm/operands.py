"""How a 2-D tensor is handed to a kernel: its layout, leading dimension and alignment.

A kernel reads an operand as row-major ``(R,C):(ld,1)`` or column-major ``(R,C):(1,ld)``.
:func:`prepare` finds which of the two a tensor already is (a transposed view of a contiguous
tensor is column-major, with no copy), and copies only when it must: when the strides are
neither, when the kernel does not read that layout, or when the kernel needs an alignment the
tensor does not have. Aligned copies pad the leading dimension, never the data the kernel sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection

import torch

from .catalog import COL, ROW


@dataclass(frozen=True)
class Operand:
    tensor: torch.Tensor
    """What the kernel reads; ``tensor.data_ptr()`` is the base of the (R, C) matrix."""
    layout: str
    """``row`` or ``col``."""
    ld: int
    """Leading dimension, in elements."""
    copied: bool
    """True when :func:`prepare` had to copy the caller's tensor."""


def _round_up(x: int, m: int) -> int:
    return -(-x // m) * m


def detect(t: torch.Tensor) -> tuple[str, int] | None:
    """``(layout, ld)`` when ``t`` is row- or column-major with a valid leading dimension,
    else None. Row-major is preferred when both hold (a single row or column)."""
    rows, cols = t.shape
    s0, s1 = t.stride()
    if cols == 1 or s1 == 1:
        ld = s0 if rows > 1 else cols
        if ld >= cols:
            return ROW, max(ld, 1)
    if rows == 1 or s0 == 1:
        ld = s1 if cols > 1 else rows
        if ld >= rows:
            return COL, max(ld, 1)
    return None


def _aligned(t: torch.Tensor, layout: str, ld: int, align: int) -> bool:
    bytes_align = align * t.element_size()
    if t.data_ptr() % bytes_align:
        return False
    rows, cols = t.shape
    # A single row (row-major) or column (column-major) never uses its leading dimension.
    single = rows == 1 if layout == ROW else cols == 1
    return single or ld % align == 0


def _padded_copy(t: torch.Tensor, layout: str, align: int) -> torch.Tensor:
    """A copy of ``t`` in ``layout`` whose leading dimension is a multiple of ``align``."""
    rows, cols = t.shape
    if layout == ROW:
        buf = torch.empty(rows, _round_up(max(cols, 1), align), dtype=t.dtype, device=t.device)
        view = buf[:, :cols]
    else:
        buf = torch.empty(cols, _round_up(max(rows, 1), align), dtype=t.dtype, device=t.device)
        view = buf[:, :rows].t()
    view.copy_(t)
    return view


_UNKNOWN: Any = object()


def layout_read(layout: str | None, allowed_layouts: Collection[str]) -> str:
    """The layout a kernel that reads ``allowed_layouts`` takes an operand in, found in ``layout``
    (None: neither row- nor column-major): that one where it is allowed, else the one a copy is
    made in (row-major where allowed)."""
    if layout in allowed_layouts:
        return layout
    return ROW if ROW in allowed_layouts else COL


def prepare(t: torch.Tensor, allowed_layouts: Collection[str], align: int,
            found: tuple[str, int] | None = _UNKNOWN) -> Operand:
    """The operand a kernel that reads ``allowed_layouts`` with ``align``-element alignment
    can take, copying ``t`` only if necessary. ``found`` is ``detect(t)`` when the caller has it."""
    if found is _UNKNOWN:
        found = detect(t)
    if found is not None:
        layout, ld = found
        if layout in allowed_layouts and _aligned(t, layout, ld, align):
            return Operand(t, layout, ld, copied=False)
    layout = layout_read(found[0] if found is not None else None, allowed_layouts)
    copy = _padded_copy(t, layout, align)
    layout2, ld = detect(copy)  # type: ignore[misc]
    if layout2 != layout:  # single row/column: either reading is the same matrix
        ld = copy.stride(0) if layout == ROW else copy.stride(1)
    return Operand(copy, layout, max(ld, 1), copied=True)
