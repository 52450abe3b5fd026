"""Swizzles: bit permutations of an index, and layouts composed with them.

``Swizzle(B, M, S)`` XORs the ``B`` bits found ``S`` places above bit ``M + ...`` into the ``B``
bits that start at bit ``M``::

    index bits:  ... [ yyy ] ... [ zzz ] [ M low bits ]
                       ^ mask at M+S      ^ mask at M
    result:      ... [ yyy ] ... [zzz ^ yyy] [ M low bits ]

For a row-major fp16 tile with 64 columns (128-byte rows), ``Swizzle(3, 3, 3)`` keeps runs of
``2^3 = 8`` elements (16 bytes) together and XORs the 16-byte chunk index (bits 3..5) with the
row index mod 8 (bits 6..8), so the 8 rows of an 8x8 ldmatrix tile land in 8 different
bank groups.
"""

from __future__ import annotations

from typing import Any

from .inttuple import has_underscore, is_int
from .layout import Layout

__all__ = ["Swizzle", "ComposedLayout", "make_swizzled_layout"]


class Swizzle:
    """The function ``x -> x ^ ((x & yyy_mask) >> S)`` on integers (``S < 0`` shifts left)."""

    __slots__ = ("bits", "base", "shift", "yyy_mask", "zzz_mask")

    def __init__(self, bits: int, base: int, shift: int) -> None:
        if bits < 0 or base < 0:
            raise ValueError("Swizzle: B and M must be non-negative")
        if abs(shift) < bits:
            raise ValueError("Swizzle: |S| must be at least B (the two masks may not overlap)")
        self.bits, self.base, self.shift = bits, base, shift
        mask = (1 << bits) - 1
        self.yyy_mask = mask << (base + max(0, shift))
        self.zzz_mask = mask << (base - min(0, shift))

    def __call__(self, offset: int) -> int:
        y = offset & self.yyy_mask
        return offset ^ (y >> self.shift if self.shift >= 0 else y << -self.shift)

    def size(self) -> int:
        """The period of the bit pattern: ``2^(B + M + |S|)``."""
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self) -> int:
        return self.size()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swizzle) and (self.bits, self.base, self.shift) == (
            other.bits, other.base, other.shift)

    def __hash__(self) -> int:
        return hash(("Swizzle", self.bits, self.base, self.shift))

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"

    def __format__(self, spec: str) -> str:
        return format(str(self), "" if spec == "_" else spec)

    def __repr__(self) -> str:
        return f"Swizzle({self.bits}, {self.base}, {self.shift})"


class ComposedLayout:
    """``outer o offset o inner``: the function ``c -> outer(offset + inner(c))``.

    The usual case is a swizzled shared-memory layout, ``Swizzle(3,3,3) o 0 o (8,64):(64,1)``.
    Shape, size, rank and slicing follow ``inner``.
    """

    __slots__ = ("outer", "offset", "inner")

    def __init__(self, outer: Any, offset: int, inner: Layout) -> None:
        self.outer, self.offset, self.inner = outer, offset, inner

    @property
    def layout_a(self) -> Layout:
        return self.inner

    @property
    def shape(self) -> Any:
        return self.inner.shape

    @property
    def rank(self) -> int:
        return self.inner.rank

    @property
    def depth(self) -> int:
        return self.inner.depth

    def size(self) -> int:
        return self.inner.size()

    def cosize(self) -> int:
        return self.outer.cosize() if hasattr(self.outer, "cosize") else self.inner.cosize()

    def __call__(self, *coord: Any) -> Any:
        crd = coord[0] if len(coord) == 1 else coord
        if has_underscore(crd):
            sub, off = self.inner.slice_and_offset(crd)
            return ComposedLayout(self.outer, self.offset + off, sub)
        return self.outer(self.offset + self.inner(crd))

    def __getitem__(self, i: int) -> "ComposedLayout":
        return ComposedLayout(self.outer, self.offset, self.inner[i])

    def __len__(self) -> int:
        return self.inner.rank

    def values(self) -> list[int]:
        return [self.outer(self.offset + v) for v in self.inner.values()]

    def compose(self, *tiler: Any) -> "ComposedLayout":
        from .algebra import composition
        return ComposedLayout(self.outer, self.offset,
                              composition(self.inner, tiler[0] if len(tiler) == 1 else tuple(tiler)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComposedLayout) and (self.outer, self.offset, self.inner) == (
            other.outer, other.offset, other.inner)

    def __hash__(self) -> int:
        return hash((self.outer, self.offset, self.inner))

    def __str__(self) -> str:
        return f"{self.outer} o {self.offset} o {self.inner}"

    def __format__(self, spec: str) -> str:
        if spec == "_":
            return f"{self.outer:_} o _{self.offset} o {self.inner:_}"
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"ComposedLayout({self.outer!r}, {self.offset!r}, {self.inner!r})"


def make_swizzled_layout(swizzle: Swizzle, layout: Layout, offset: int = 0) -> ComposedLayout:
    """``swizzle o offset o layout``: index through ``layout``, then permute the bits."""
    if not is_int(offset):
        raise TypeError("offset must be an int")
    return ComposedLayout(swizzle, offset, layout)
