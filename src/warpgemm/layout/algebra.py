"""CuTe's layout algebra: coalesce, composition, complement, inverses, divides and products.

Every function follows CuTe's definitions for static layouts, so the printed results are the
ones CuTe prints (without the ``_`` marks).  A *tiler* is a Layout, an ``int`` (read as
``n:1``), the wildcard ``_`` (keep the mode), or a tuple of tilers applied mode by mode.
"""

from __future__ import annotations

from typing import Any, Callable

from .inttuple import (
    IntTuple, _, ceil_div, compact_col_major, flatten, is_int, is_tuple, is_underscore, product,
    signum, tuple_zip, unwrap, zip2_by,
)
from .layout import Layout, make_layout

__all__ = [
    "coalesce", "filter_zeros", "filter_layout", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "blocked_product", "raked_product",
    "upcast", "downcast", "recast", "make_ordered_layout", "make_fragment_like", "zip_layout",
    "append_layout", "transform_layout", "as_layout",
]

Tiler = Any


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------

def as_layout(x: Any) -> Layout:
    """A Layout from a Layout or an integer extent (``n`` becomes ``n:1``)."""
    if isinstance(x, Layout):
        return x
    if is_int(x):
        return make_layout(x)
    raise TypeError(f"expected a Layout or an int, got {x!r}")


def transform_layout(layout: Layout, tiler: tuple, f: Callable[[Layout, Any], Layout],
                     keep_rest: bool = True) -> Layout:
    """Apply ``f`` to each mode of ``layout`` paired with the modes of ``tiler``.

    Modes of ``layout`` beyond ``len(tiler)`` are kept (or dropped with ``keep_rest=False``).
    """
    if len(tiler) > layout.rank:
        raise ValueError(f"tiler has {len(tiler)} modes but the layout {layout} has rank {layout.rank}")
    modes = [f(layout[i], t) for i, t in enumerate(tiler)]
    if keep_rest:
        modes += [layout[i] for i in range(len(tiler), layout.rank)]
    return make_layout(*modes)


def append_layout(layout: Layout, n: int) -> Layout:
    """Pad ``layout`` with ``1:0`` modes up to rank ``n``."""
    r = layout.rank
    if r >= n:
        return layout
    sh = layout.shape if is_tuple(layout.shape) else (layout.shape,)
    st = layout.stride if is_tuple(layout.stride) else (layout.stride,)
    return Layout(sh + (1,) * (n - r), st + (0,) * (n - r))


def zip_layout(*layouts: Layout) -> Layout:
    """Transpose the modes of a rank-2 layout of tuples: ``((a,b),(c,d))`` -> ``((a,c),(b,d))``."""
    if len(layouts) == 1:
        lay = layouts[0]
        return Layout(tuple_zip(lay.shape), tuple_zip(lay.stride))
    return Layout(tuple_zip(tuple(x.shape for x in layouts)),
                  tuple_zip(tuple(x.stride for x in layouts)))


# ---------------------------------------------------------------------------------------------
# Coalesce and filter
# ---------------------------------------------------------------------------------------------

def _bw_coalesce(shapes: list[int], strides: list[int], new_s: int, new_d: int) -> Layout:
    """Merge flat modes from the back, starting from the mode ``new_s:new_d``."""
    out_s, out_d = [new_s], [new_d]
    for s, d in zip(reversed(shapes), reversed(strides)):
        if s == 1:
            continue
        if len(out_s) == 1 and out_s[0] == 1:
            out_s[0], out_d[0] = s, d
        elif s * d == out_d[0]:
            out_s[0], out_d[0] = s * out_s[0], d
        else:
            out_s.insert(0, s)
            out_d.insert(0, d)
    if len(out_s) == 1:
        if out_s[0] == 1:
            return Layout(1, 0)
        return Layout(out_s[0], out_d[0])
    return Layout(tuple(out_s), tuple(out_d))


def coalesce(layout: Layout, profile: IntTuple | None = None) -> Layout:
    """The simplest layout with the same size and the same values on its domain.

    With a tuple ``profile``, coalesce each mode separately (to the profile's depth).
    """
    if profile is not None and is_tuple(profile):
        return transform_layout(layout, profile, coalesce)
    s, d = list(flatten(layout.shape)), list(flatten(layout.stride))
    return _bw_coalesce(s[:-1], d[:-1], s[-1], d[-1])


def _coalesce_x(layout: Layout) -> Layout:
    """Coalesce, but keep the function beyond the domain (a trailing extent-1 mode keeps its
    stride).  Used as the left operand of composition."""
    s, d = list(flatten(layout.shape)), list(flatten(layout.stride))
    last_s = 2 if s[-1] == 1 else s[-1]
    return _bw_coalesce(s[:-1], d[:-1], last_s, d[-1])


def _filter_zeros_shape(stride: IntTuple, shape: IntTuple) -> IntTuple:
    if is_tuple(stride):
        return tuple(_filter_zeros_shape(d, s) for d, s in zip(stride, shape))
    return 1 if stride == 0 else shape


def filter_zeros(layout: Layout) -> Layout:
    """Replace the extent of every stride-0 mode with 1."""
    return Layout(_filter_zeros_shape(layout.stride, layout.shape), layout.stride)


def filter_layout(layout: Layout) -> Layout:
    """Remove stride-0 and extent-1 modes, then coalesce (CuTe's ``filter``)."""
    return coalesce(filter_zeros(layout))


# ---------------------------------------------------------------------------------------------
# Composition
# ---------------------------------------------------------------------------------------------

def _composition_impl(lshape: IntTuple, lstride: IntTuple, rshape: IntTuple, rstride: IntTuple) -> Layout:
    if is_tuple(rshape):
        return make_layout(*[_composition_impl(lshape, lstride, s, d) for s, d in zip(rshape, rstride)])
    if rstride == 0:
        return Layout(rshape, rstride)
    if not is_tuple(lshape):
        return Layout(rshape, rstride * lstride)

    res_s: list[int] = []
    res_d: list[int] = []
    rest_shape, rest_stride = rshape, rstride
    for curr_shape, curr_stride in zip(lshape[:-1], lstride[:-1]):
        a = abs(rest_stride)
        if rest_shape != 1 and not (a % curr_shape == 0 or a < curr_shape):
            raise ValueError(f"composition: stride divisibility condition fails ({a} vs {curr_shape})")
        next_shape = ceil_div(curr_shape, a)
        next_stride = ceil_div(a, curr_shape) * signum(rest_stride)
        if next_shape == 1 or rest_shape == 1:
            rest_stride = next_stride
            continue
        new_shape = min(next_shape, rest_shape)
        if rest_shape % new_shape != 0:
            raise ValueError(f"composition: shape divisibility condition fails ({rest_shape} vs {new_shape})")
        res_s.append(new_shape)
        res_d.append(rest_stride * curr_stride)
        rest_shape //= new_shape
        rest_stride = next_stride

    if not res_s:
        return Layout(rest_shape, rest_stride * lstride[-1])
    if rest_shape == 1:
        return Layout(unwrap(tuple(res_s)), unwrap(tuple(res_d)))
    return Layout(tuple(res_s) + (rest_shape,), tuple(res_d) + (rest_stride * lstride[-1],))


def composition(lhs: Layout, rhs: Tiler) -> Layout:
    """``lhs o rhs``: the layout ``c -> lhs(rhs(c))``, shaped like ``rhs``.

    A tuple ``rhs`` composes mode by mode (modes of ``lhs`` beyond it are dropped, as in CuTe);
    ``_`` keeps the mode; an ``int`` n means ``n:1``.  ``composition(Swizzle, layout)`` is the
    swizzled layout ``Sw o 0 o layout``.
    """
    from .swizzle import ComposedLayout, Swizzle
    if isinstance(lhs, ComposedLayout):
        return lhs.compose(rhs)
    if isinstance(lhs, Swizzle):
        if not isinstance(rhs, Layout):
            raise TypeError("a Swizzle composes with a Layout")
        return ComposedLayout(lhs, 0, rhs)
    if is_tuple(rhs):
        return transform_layout(lhs, rhs, composition, keep_rest=False)
    if is_underscore(rhs):
        return lhs
    if is_int(rhs):
        flat = _coalesce_x(lhs)
        return _composition_impl(flat.shape, flat.stride, rhs, 1)
    if isinstance(rhs, Layout):
        flat = _coalesce_x(lhs)
        return _composition_impl(flat.shape, flat.stride, rhs.shape, rhs.stride)
    raise TypeError(f"cannot compose with {rhs!r}")


# ---------------------------------------------------------------------------------------------
# Complement and inverses
# ---------------------------------------------------------------------------------------------

def complement(layout: Layout, cotarget: IntTuple | None = None) -> Layout:
    """The layout of the indices that ``layout`` does not reach, ordered, up to ``cotarget``.

    ``make_layout(layout, complement(layout, n))`` covers ``[0, n)`` (when ``layout`` divides
    it).  Without ``cotarget``, the cosize of ``layout`` is used.
    """
    flt = filter_layout(layout)
    if cotarget is None:
        cotarget = flt.cosize()
    if isinstance(cotarget, Layout):
        cotarget = cotarget.shape
    if not is_tuple(flt.stride) and flt.stride == 0:
        return make_layout(product(cotarget))

    shapes = list(flatten(flt.shape))
    strides = list(flatten(flt.stride))
    if any(d < 0 for d in strides):
        raise ValueError("complement: negative strides are not supported")
    res_s: list[int] = []
    res_d: list[int] = [1]
    while len(strides) > 1:
        m = min(strides)
        i = strides.index(m)
        new_shape = m // res_d[-1]
        if new_shape == 0:
            raise ValueError(f"complement: {layout} is not injective")
        res_s.append(new_shape)
        res_d.append(m * shapes[i])
        del shapes[i], strides[i]
    new_shape = strides[0] // res_d[-1]
    if new_shape == 0:
        raise ValueError(f"complement: {layout} is not injective")
    res_s.append(new_shape)
    new_stride = strides[0] * shapes[0]
    rest_shape = product(ceil_div(cotarget, new_stride))
    rest_stride = 0 if rest_shape == 1 else new_stride
    return coalesce(Layout((tuple(res_s), rest_shape), (tuple(res_d), rest_stride)))


def _prefix_products(shapes: tuple) -> list[int]:
    out = [1]
    for s in shapes:
        out.append(out[-1] * s)
    return out


def right_inverse(layout: Layout | Any) -> Layout | Any:
    """A layout ``R`` with ``layout(R(i)) == i`` for every ``i < size(R)``, as large as possible."""
    if is_underscore(layout):
        return layout
    if is_int(layout):
        layout = make_layout(layout)
    c = coalesce(layout)
    shapes = c.shape if is_tuple(c.shape) else (c.shape,)
    strides = c.stride if is_tuple(c.stride) else (c.stride,)
    pre = _prefix_products(shapes)
    order = sorted(range(len(strides)), key=lambda i: strides[i])
    res_s, res_d, curr = [1], [0], 1
    for i in order:
        if strides[i] == curr:
            res_s.append(shapes[i])
            res_d.append(pre[i])
            curr = shapes[i] * strides[i]
    return coalesce(Layout(tuple(res_s), tuple(res_d)))


def left_inverse(layout: Layout | Any) -> Layout | Any:
    """A layout ``L`` with ``L(layout(i)) == i`` for every ``i < size(layout)`` (injective input)."""
    if is_underscore(layout):
        return layout
    if is_int(layout):
        layout = make_layout(layout)
    c = coalesce(layout)
    shapes = c.shape if is_tuple(c.shape) else (c.shape,)
    strides = c.stride if is_tuple(c.stride) else (c.stride,)
    pre = _prefix_products(shapes)
    order = sorted(range(len(strides)), key=lambda i: strides[i])
    res_s: list[int] = []
    res_d: list[int] = [0]
    for i in order:
        d = strides[i]
        if d == 0:
            continue
        sz = product(tuple(res_s))
        if d % sz != 0:
            raise ValueError(f"left_inverse: {layout} fails the divisibility condition")
        res_s.append(d // sz)
        res_d.append(pre[i])
    res_s.append(shapes[order[-1]])
    return coalesce(Layout(tuple(res_s), tuple(res_d)))


# ---------------------------------------------------------------------------------------------
# Divide
# ---------------------------------------------------------------------------------------------

def logical_divide(layout: Layout, tiler: Tiler) -> Layout:
    """Split ``layout`` into ``(tile, rest)``: the elements the tiler picks, then the repeats.

    A tuple tiler divides mode by mode, giving ``((t0,r0),(t1,r1),...)``.
    """
    if is_tuple(tiler):
        return transform_layout(layout, tiler, logical_divide)
    if is_underscore(tiler):
        return layout
    tiler = as_layout(tiler)
    cotarget = coalesce(layout).shape
    return composition(layout, make_layout(tiler, complement(tiler, cotarget)))


def _tile_unzip(layout: Layout, tiler: Tiler) -> Layout:
    return Layout(zip2_by(layout.shape, tiler), zip2_by(layout.stride, tiler))


def zipped_divide(layout: Layout, tiler: Tiler) -> Layout:
    """``logical_divide`` with the tile modes gathered first: ``((t0,t1,..),(r0,r1,..))``."""
    return _tile_unzip(logical_divide(layout, tiler), tiler)


def _unpack_second(result: Layout) -> Layout:
    r1 = result[1].rank
    return result(_, tuple([_] * r1) if r1 > 1 else _)


def tiled_divide(layout: Layout, tiler: Tiler) -> Layout:
    """``zipped_divide`` with the rest modes unpacked: ``((t0,t1,..),r0,r1,..)``."""
    return _unpack_second(zipped_divide(layout, tiler))


def flat_divide(layout: Layout, tiler: Tiler) -> Layout:
    """``zipped_divide`` with both parts unpacked: ``(t0,t1,..,r0,r1,..)``."""
    result = zipped_divide(layout, tiler)
    r0, r1 = result[0].rank, result[1].rank
    return result(tuple([_] * r0) if r0 > 1 else _, tuple([_] * r1) if r1 > 1 else _)


# ---------------------------------------------------------------------------------------------
# Product
# ---------------------------------------------------------------------------------------------

def logical_product(block: Layout, tiler: Tiler) -> Layout:
    """``(block, tiler')``: ``block`` repeated in the pattern of ``tiler`` over unused indices."""
    if is_tuple(tiler):
        return transform_layout(block, tiler, logical_product)
    if is_underscore(tiler):
        return block
    tiler = as_layout(tiler)
    return make_layout(block, composition(complement(block, block.size() * tiler.cosize()), tiler))


def zipped_product(block: Layout, tiler: Tiler) -> Layout:
    return _tile_unzip(logical_product(block, tiler), tiler)


def tiled_product(block: Layout, tiler: Tiler) -> Layout:
    """``logical_product`` with the repeat modes unpacked: ``(block, t0, t1, ..)``."""
    return _unpack_second(zipped_product(block, tiler))


def blocked_product(block: Layout, tiler: Layout) -> Layout:
    """Each element of ``tiler`` becomes a whole ``block``: mode i is ``(block_i, tiler_i)``."""
    r = max(block.rank, tiler.rank)
    result = logical_product(append_layout(block, r), append_layout(tiler, r))
    return zip_layout(result[0], result[1])


def raked_product(block: Layout, tiler: Layout) -> Layout:
    """Like ``blocked_product``, with the blocks interleaved: mode i is ``(tiler_i, block_i)``."""
    r = max(block.rank, tiler.rank)
    result = logical_product(append_layout(block, r), append_layout(tiler, r))
    return zip_layout(result[1], result[0])


# ---------------------------------------------------------------------------------------------
# Re-typing and fragments
# ---------------------------------------------------------------------------------------------

def _upcast_leaf(s: int, d: int, n: int) -> tuple[int, int]:
    if d == 0:
        return s, d
    a = abs(d)
    if a % n != 0 and n % a != 0:
        raise ValueError(f"upcast: stride {d} and factor {n} do not divide each other")
    return ceil_div(s, ceil_div(n, a)), signum(d) * ceil_div(a, n)


def upcast(layout: Layout, n: int) -> Layout:
    """Read a layout of small elements as a layout of elements ``n`` times larger."""
    def walk(s: IntTuple, d: IntTuple) -> tuple[IntTuple, IntTuple]:
        if is_tuple(s):
            pairs = [walk(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        return _upcast_leaf(s, d, n)
    return Layout(*walk(layout.shape, layout.stride))


def downcast(layout: Layout, n: int) -> Layout:
    """Read a layout of elements as a layout of elements ``n`` times smaller."""
    def walk(s: IntTuple, d: IntTuple) -> tuple[IntTuple, IntTuple]:
        if is_tuple(s):
            pairs = [walk(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        if d in (1, -1):
            return s * n, d
        return s, d * n
    return Layout(*walk(layout.shape, layout.stride))


def recast(layout: Layout, old_bits: int, new_bits: int) -> Layout:
    """Re-express a layout over ``old_bits``-wide elements in ``new_bits``-wide elements."""
    from math import gcd
    g = gcd(old_bits, new_bits)
    num, den = new_bits // g, old_bits // g
    out = layout
    if num != 1:
        out = upcast(out, num)
    if den != 1:
        out = downcast(out, den)
    return out


def _product_like(shape: IntTuple, order: IntTuple) -> IntTuple:
    if is_tuple(order):
        return tuple(_product_like(s, o) for s, o in zip(shape, order))
    return product(shape)


def make_ordered_layout(shape: IntTuple, order: IntTuple) -> Layout:
    """A compact layout of ``shape`` whose modes are laid out in increasing ``order``."""
    ref_shape = flatten(_product_like(shape, order))
    ref_order = flatten(order)

    def walk(s: IntTuple, o: IntTuple) -> IntTuple:
        if is_tuple(o):
            return tuple(walk(x, y) for x, y in zip(s, o))
        start = 1
        for rs, ro in zip(ref_shape, ref_order):
            if ro < o:
                start *= rs
        return compact_col_major(s, start)

    return Layout(shape, walk(shape, order))


def make_fragment_like(layout: Layout) -> Layout:
    """The register layout CuTe allocates for a partitioned layout: mode 0 compact
    column-major (stride-0 modes kept at stride 0), the other modes compact in the order of
    their strides."""
    r = layout.rank
    if r > 1:
        s0, d0 = layout.shape[0], layout.stride[0]
        first = Layout(s0, compact_col_major(_filter_zeros_shape(d0, s0)))
        rest = make_ordered_layout(tuple(layout.shape[1:]), tuple(layout.stride[1:]))
        return tiled_product(first, rest)
    return make_layout(layout.shape)
