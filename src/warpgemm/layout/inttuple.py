"""Integer tuples: the shapes, strides and coordinates that layouts are made of.

An *IntTuple* is either an ``int`` or a (possibly nested) ``tuple`` of IntTuples, e.g.
``(4, (2, 8))``.  Every integer here behaves like a CuTe *static* integer: the algebra is
evaluated eagerly, exactly as CuTe evaluates it at compile time.

Coordinates may contain the wildcard :data:`_` ("keep this mode"), used for slicing.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Callable, Union

IntTuple = Union[int, tuple]

__all__ = [
    "IntTuple", "Underscore", "_", "is_int", "is_tuple", "is_underscore", "flatten", "product",
    "rank", "depth", "congruent", "compact_col_major", "crd2idx", "idx2crd", "ceil_div",
    "shape_div", "unwrap", "slice_", "has_underscore", "zip2_by", "product_each", "tuple_zip",
    "format_inttuple", "signum",
]


class Underscore:
    """The wildcard coordinate ``_``: keep the whole mode when slicing or tiling."""

    _instance: "Underscore | None" = None

    def __new__(cls) -> "Underscore":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"

    __str__ = __repr__


_ = Underscore()


def is_int(x: Any) -> bool:
    """True for a Python integer (bools are not integers here)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_tuple(x: Any) -> bool:
    return isinstance(x, tuple)


def is_underscore(x: Any) -> bool:
    return x is _ or x is None


def signum(a: int) -> int:
    return (a > 0) - (a < 0)


def flatten(t: IntTuple) -> tuple:
    """All leaves of ``t`` in order, as a flat tuple."""
    if is_tuple(t):
        return tuple(leaf for x in t for leaf in flatten(x))
    return (t,)


def product(t: IntTuple) -> int:
    """Product of all leaves (the size of a shape)."""
    if is_tuple(t):
        return reduce(lambda acc, x: acc * product(x), t, 1)
    return t


def rank(t: IntTuple) -> int:
    """Number of top-level modes (1 for an integer)."""
    return len(t) if is_tuple(t) else 1


def depth(t: IntTuple) -> int:
    """Nesting depth: 0 for an integer, 1 for a flat tuple, and so on."""
    if is_tuple(t):
        return 1 + max((depth(x) for x in t), default=0)
    return 0


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """True when ``a`` and ``b`` have the same tuple profile."""
    if is_tuple(a) and is_tuple(b):
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return not is_tuple(a) and not is_tuple(b)


def compact_col_major(shape: IntTuple, current: int = 1) -> IntTuple:
    """Column-major (generalised, colexicographic) strides for ``shape``, starting at ``current``.

    As in CuTe, a mode of extent 1 gets stride 0.
    """
    def walk(s: IntTuple, cur: int) -> tuple[IntTuple, int]:
        if is_tuple(s):
            out = []
            for x in s:
                d, cur = walk(x, cur)
                out.append(d)
            return tuple(out), cur
        if s == 1:
            return 0, cur
        return cur, cur * s

    return walk(shape, current)[0]


def crd2idx(crd: Any, shape: IntTuple, stride: IntTuple) -> int:
    """Map a (nested, or integer) coordinate to an index: the inner product with ``stride``.

    An integer coordinate for a tuple mode is unfolded colexicographically.  The wildcard
    ``_`` counts as coordinate 0.
    """
    if is_tuple(crd):
        if not is_tuple(shape) or len(crd) != len(shape):
            raise ValueError(f"coordinate {format_inttuple(crd)} does not match shape {format_inttuple(shape)}")
        return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
    if is_underscore(crd):
        crd = 0
    if is_tuple(shape):
        result = 0
        for s, d in zip(shape[:-1], stride[:-1]):
            n = product(s)
            result += crd2idx(crd % n, s, d)
            crd //= n
        return result + crd2idx(crd, shape[-1], stride[-1])
    return crd * stride


def idx2crd(idx: int, shape: IntTuple, stride: IntTuple | None = None) -> IntTuple:
    """Coordinate of ``idx`` in ``shape``.

    Without ``stride``, the colexicographic coordinate of the linear index ``idx``.  With
    ``stride``, each leaf is ``(idx // stride) % shape`` (CuTe's ``get_hier_coord``).
    """
    if stride is None:
        stride = compact_col_major(shape)
        # compact_col_major gives 0 for extent-1 modes; those coordinates are always 0.
    if is_tuple(shape):
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    if shape == 1:
        return 0
    return (idx // stride) % shape


def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``ceil_div``: ``a`` divided by ``b`` mode by mode, rounding up."""
    if is_tuple(a):
        if is_tuple(b):
            b = b + (1,) * (len(a) - len(b))
            return tuple(ceil_div(x, y) for x, y in zip(a, b))
        out = []
        for x in a:
            out.append(ceil_div(x, b))
            b = ceil_div(b, x)
        return tuple(out)
    if is_tuple(b):
        return ceil_div(a, product(b))
    return (a + b - 1) // b


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``shape_div``: divide ``a`` by ``b``, consuming ``b`` across the modes of ``a``.

    Requires, at every leaf, that one operand divides the other.
    """
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                raise ValueError("shape_div: mismatched ranks")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for x in a:
            out.append(shape_div(x, b))
            b = shape_div(b, product(x))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if a % b != 0 and b % a != 0:
        raise ValueError(f"shape_div: {a} and {b} do not divide each other")
    return (a + b - 1) // b


def unwrap(t: IntTuple) -> IntTuple:
    """Strip 1-tuples: ``((4,),)`` becomes ``4``."""
    while is_tuple(t) and len(t) == 1:
        t = t[0]
    return t


def has_underscore(crd: Any) -> bool:
    if is_tuple(crd):
        return any(has_underscore(c) for c in crd)
    return is_underscore(crd)


def slice_(crd: Any, trg: Any) -> Any:
    """Keep the parts of ``trg`` that ``crd`` marks with ``_`` (CuTe's ``slice``)."""
    def lift(c: Any, t: Any) -> tuple:
        if is_tuple(c):
            if not is_tuple(t) or len(c) != len(t):
                raise ValueError("slice: coordinate and target ranks differ")
            return tuple(x for ci, ti in zip(c, t) for x in lift(ci, ti))
        if is_underscore(c):
            return (t,)
        return ()

    if is_tuple(crd):
        return lift(crd, trg)
    if is_underscore(crd):
        return trg
    return ()


def zip2_by(t: Any, guide: Any) -> Any:
    """Gather the rank-2 modes that ``guide`` points at: ``((a,A),(b,B))`` -> ``((a,b),(A,B))``.

    Modes of ``t`` beyond the rank of ``guide`` are appended to the second part.
    """
    if is_tuple(guide):
        if not is_tuple(t) or len(t) < len(guide):
            raise ValueError("zip2_by: mismatched ranks")
        split = [zip2_by(x, g) for x, g in zip(t, guide)]
        first = tuple(s[0] for s in split)
        second = tuple(s[1] for s in split) + tuple(t[len(guide):])
        return (first, second)
    if not is_tuple(t) or len(t) != 2:
        raise ValueError("zip2_by: expected a rank-2 mode")
    return t


def product_each(t: IntTuple) -> IntTuple:
    """The product of each top-level mode."""
    if is_tuple(t):
        return tuple(product(x) for x in t)
    return t


def tuple_zip(*ts: Any) -> Any:
    """Transpose tuples: ``((a,b),(c,d))`` -> ``((a,c),(b,d))`` (CuTe's ``zip``)."""
    if len(ts) == 1:
        t = ts[0]
        if is_tuple(t) and len(t) > 0 and is_tuple(t[0]):
            n = len(t[0])
            if any(not is_tuple(x) or len(x) != n for x in t):
                raise ValueError("zip: mismatched ranks")
            return tuple(tuple(x[i] for x in t) for i in range(n))
        return t
    return tuple_zip(tuple(ts))


def format_inttuple(t: Any, static: bool = False) -> str:
    """CuTe notation for an IntTuple: ``(4,(2,8))``; with ``static``, ``(_4,(_2,_8))``."""
    if is_tuple(t):
        return "(" + ",".join(format_inttuple(x, static) for x in t) + ")"
    if is_underscore(t):
        return "_"
    return f"_{t}" if static else str(t)


def transform_leaf(t: IntTuple, f: Callable[[int], int]) -> IntTuple:
    if is_tuple(t):
        return tuple(transform_leaf(x, f) for x in t)
    return f(t)
