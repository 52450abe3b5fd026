"""The Layout: a function from (hierarchical) coordinates to integers, written ``shape:stride``.

``Layout((4, 8), (1, 4))`` maps the coordinate ``(i, j)`` (or the colexicographic integer
``i + 4 * j``) to ``i * 1 + j * 4``, and prints as ``(4,8):(1,4)``.
"""

from __future__ import annotations

from typing import Any, Iterator

from .inttuple import (
    IntTuple, compact_col_major, congruent, crd2idx, flatten, format_inttuple, has_underscore,
    idx2crd, is_int, is_tuple, product, slice_,
)
from . import inttuple as it

__all__ = ["Layout", "make_layout", "size", "cosize", "rank", "depth", "shape", "stride"]


def _check_shape(s: Any) -> None:
    if is_tuple(s):
        for x in s:
            _check_shape(x)
    elif not is_int(s) or s < 1:
        raise ValueError(f"shape entries must be positive integers, got {s!r}")


def _check_stride(d: Any) -> None:
    if is_tuple(d):
        for x in d:
            _check_stride(x)
    elif not is_int(d):
        raise ValueError(f"stride entries must be integers, got {d!r}")


class Layout:
    """A CuTe layout ``shape:stride`` over integer (static) shapes and strides.

    Calling it maps a coordinate to an index: an ``int`` is read as a colexicographic linear
    coordinate, a (nested) tuple as a natural coordinate.  A coordinate containing ``_``
    slices instead, returning the sub-layout of the ``_`` modes.
    """

    __slots__ = ("shape", "stride")

    def __init__(self, shape: IntTuple, stride: IntTuple | None = None) -> None:
        if isinstance(shape, list):
            shape = tuple(shape)
        _check_shape(shape)
        if stride is None:
            stride = compact_col_major(shape)
        _check_stride(stride)
        if not congruent(shape, stride):
            raise ValueError(f"shape {format_inttuple(shape)} and stride {format_inttuple(stride)} "
                             "are not congruent")
        self.shape: IntTuple = shape
        self.stride: IntTuple = stride

    # -- the function ------------------------------------------------------------------------
    def __call__(self, *coord: Any) -> Any:
        crd = coord[0] if len(coord) == 1 else coord
        if has_underscore(crd):
            return Layout(slice_(crd, self.shape), slice_(crd, self.stride))
        return crd2idx(crd, self.shape, self.stride)

    def offset(self, *coord: Any) -> int:
        """The index of ``coord`` with every ``_`` read as 0 (the offset of a slice)."""
        crd = coord[0] if len(coord) == 1 else coord
        return crd2idx(crd, self.shape, self.stride)

    def slice_and_offset(self, *coord: Any) -> tuple["Layout", int]:
        crd = coord[0] if len(coord) == 1 else coord
        return Layout(slice_(crd, self.shape), slice_(crd, self.stride)), self.offset(crd)

    def get_hier_coord(self, index: int) -> IntTuple:
        """The natural coordinate whose image is ``index``, read off the strides."""
        return idx2crd(index, self.shape, self.stride)

    def get_flat_coord(self, index: int) -> tuple:
        """``get_hier_coord`` with each top-level mode folded to one integer."""
        hier = self.get_hier_coord(index)
        if not is_tuple(self.shape):
            return (hier,)
        return tuple(crd2idx(c, s, compact_col_major(s)) if is_tuple(s) else c
                     for c, s in zip(hier, self.shape))

    # -- structure ---------------------------------------------------------------------------
    def __getitem__(self, i: int) -> "Layout":
        if is_tuple(self.shape):
            return Layout(self.shape[i], self.stride[i])
        if i not in (0, -1):
            raise IndexError("a rank-1 layout has only mode 0")
        return self

    def __len__(self) -> int:
        return it.rank(self.shape)

    def __iter__(self) -> Iterator["Layout"]:
        for i in range(len(self)):
            yield self[i]

    @property
    def rank(self) -> int:
        return it.rank(self.shape)

    @property
    def depth(self) -> int:
        return it.depth(self.shape)

    def size(self) -> int:
        """Size of the domain: the number of coordinates."""
        return product(self.shape)

    def cosize(self) -> int:
        """Size of the codomain: one past the largest index (for non-negative strides)."""
        ext = sum((s - 1) * d for s, d in zip(flatten(self.shape), flatten(self.stride)))
        return ext + 1

    def values(self) -> list[int]:
        """The image of every linear coordinate ``0 .. size-1``, in order."""
        flat_s = flatten(self.shape)
        flat_d = flatten(self.stride)
        out = [0]
        for s, d in zip(flat_s, flat_d):
            out = [v + j * d for j in range(s) for v in out]
        return out

    def compose(self, *tiler: Any) -> "Layout":
        """``composition(self, tiler)``; several arguments form a by-mode tile."""
        from .algebra import composition
        return composition(self, tiler[0] if len(tiler) == 1 else tuple(tiler))

    def with_shape(self, *shape: IntTuple) -> "Layout":
        """This layout read through a compact column-major layout of ``shape``."""
        from .algebra import composition
        return composition(self, make_layout(shape[0] if len(shape) == 1 else tuple(shape)))

    # -- comparison and printing ---------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.shape == other.shape and self.stride == other.stride

    def __hash__(self) -> int:
        return hash((self.shape, self.stride))

    def __str__(self) -> str:
        return f"{format_inttuple(self.shape)}:{format_inttuple(self.stride)}"

    def __format__(self, spec: str) -> str:
        """``format(layout, "_")`` prints CuTe's static marks: ``(_4,_8):(_1,_4)``."""
        if spec == "_":
            return f"{format_inttuple(self.shape, True)}:{format_inttuple(self.stride, True)}"
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Layout({self.shape!r}, {self.stride!r})"


def make_layout(*args: Any, stride: IntTuple | None = None) -> Layout:
    """Build a layout.

    ``make_layout(shape)`` is compact column-major; ``make_layout(shape, stride)`` is explicit;
    ``make_layout(layout_a, layout_b, ...)`` concatenates layouts as the modes of a new one.
    """
    if args and all(isinstance(a, Layout) for a in args):
        if stride is not None:
            raise TypeError("stride is not used when concatenating layouts")
        return Layout(tuple(a.shape for a in args), tuple(a.stride for a in args))
    if len(args) == 2 and stride is None:
        return Layout(args[0], args[1])
    if len(args) == 1:
        return Layout(args[0], stride)
    raise TypeError("make_layout(shape, stride=None) or make_layout(*layouts)")


def size(x: Any) -> int:
    """Size of a layout's domain, or the product of a shape."""
    if hasattr(x, "size") and callable(x.size):
        return x.size()
    return product(x)


def cosize(x: Any) -> int:
    """Size of a layout's codomain."""
    return x.cosize()


def rank(x: Any) -> int:
    """Number of top-level modes of a layout or IntTuple."""
    if isinstance(x, Layout):
        return x.rank
    if hasattr(x, "layout_a"):
        return rank(x.layout_a)
    return it.rank(x)


def depth(x: Any) -> int:
    """Nesting depth of a layout's shape (0 for an integer shape)."""
    if isinstance(x, Layout):
        return x.depth
    if hasattr(x, "layout_a"):
        return depth(x.layout_a)
    return it.depth(x)


def shape(x: Any) -> IntTuple:
    return x.shape if isinstance(x, Layout) else x


def stride(x: Any) -> IntTuple:
    return x.stride
