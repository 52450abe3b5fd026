"""The layout algebra agrees with pycute (CuTe's Python reference, from the nvidia-cutlass wheel)
on random layouts, and with the worked examples of CuTe's documentation."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from warpgemm.layout import (
    Layout, Swizzle, _, blocked_product, coalesce, complement, composition, cosize, depth,
    left_inverse, logical_divide, logical_product, make_layout, make_swizzled_layout,
    raked_product, rank, right_inverse, size, tiled_divide, zipped_divide,
)

pycute = pytest.importorskip("pycute", reason="pycute comes with nvidia-cutlass, which .ci/run installs")

EXAMPLES = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def test_the_oracle_is_cutes_pycute():
    # The PyPI project called "pycute" is unrelated; CuTe's ships with nvidia-cutlass.
    assert hasattr(pycute, "Layout") and hasattr(pycute, "logical_divide")
    assert "cutlass" in " ".join(getattr(pycute, "__path__", [])) or pycute.Swizzle(3, 3, 3)(64) == 72


# ---------------------------------------------------------------------------------------------
# Random layouts
# ---------------------------------------------------------------------------------------------

def _unflatten(flat: list, profile):
    if isinstance(profile, tuple):
        return tuple(_unflatten(flat, p) for p in profile)
    return flat.pop(0)


def _flat(t) -> list:
    return [x for e in t for x in _flat(e)] if isinstance(t, tuple) else [t]


def shapes(leaves=st.sampled_from([1, 2, 2, 3, 4, 4, 5, 6, 8]), max_leaves: int = 6):
    """Nested shapes such as ``(4,(2,3))``."""
    return st.recursive(leaves, lambda kids: st.lists(kids, min_size=1, max_size=3).map(tuple),
                        max_leaves=max_leaves)


POW2_SHAPES = shapes(st.sampled_from([1, 2, 2, 4, 4, 8]))


@st.composite
def layouts(draw, shape_strategy=shapes(), max_stride: int = 24):
    """Any layout: a random shape with random non-negative strides."""
    shape = draw(shape_strategy)
    flat = [draw(st.integers(0, max_stride)) for _ in _flat(shape)]
    return Layout(shape, _unflatten(flat, shape))


@st.composite
def injective_layouts(draw, shape_strategy=shapes(), gaps=st.sampled_from([1, 1, 1, 2, 3])):
    """A one-to-one layout: its modes laid out in a random order, with optional gaps."""
    shape = draw(shape_strategy)
    flat_shape = _flat(shape)
    order = draw(st.permutations(range(len(flat_shape))))
    strides = [0] * len(flat_shape)
    current = 1
    for i in order:
        current *= draw(gaps)
        strides[i] = current
        current *= flat_shape[i]
    return Layout(shape, _unflatten(strides, shape))


def compact_layouts(shape_strategy=POW2_SHAPES):
    """Layouts whose image is exactly [0, size), modes in a random order."""
    return injective_layouts(shape_strategy, gaps=st.just(1))


def ref(layout: Layout) -> "pycute.Layout":
    return pycute.Layout(layout.shape, layout.stride)


def same(mine: Layout, theirs: "pycute.Layout") -> bool:
    """Equal shapes and strides.  The stride of an extent-1 mode never changes the function
    (CuTe writes 0 there, pycute sometimes keeps another value), so it is not compared."""
    if mine.shape != theirs.shape:
        return False
    return all(s == 1 or d == e for s, d, e in
               zip(_flat(mine.shape), _flat(mine.stride), _flat(theirs.stride)))


def unwrap1(t):
    """``t`` with every 1-tuple replaced by its element."""
    if isinstance(t, tuple):
        return unwrap1(t[0]) if len(t) == 1 else tuple(unwrap1(x) for x in t)
    return t


def as_pycute_tiler(t):
    if isinstance(t, tuple):
        return tuple(as_pycute_tiler(x) for x in t)
    return ref(t) if isinstance(t, Layout) else t


def pycute_or_reject(f, *args):
    """pycute's result, or reject the example when pycute deems the operation undefined."""
    try:
        return f(*args)
    except (AssertionError, ZeroDivisionError):
        assume(False)


# ---------------------------------------------------------------------------------------------
# The layout function
# ---------------------------------------------------------------------------------------------

@EXAMPLES
@given(layouts())
def test_a_layout_maps_every_coordinate_as_pycute_does(lay):
    theirs = ref(lay)
    assert size(lay) == pycute.size(theirs)
    assert cosize(lay) == pycute.cosize(theirs)
    assert [lay(i) for i in range(size(lay))] == [theirs(i) for i in range(size(lay))]
    assert lay.values() == [theirs(i) for i in range(size(lay))]
    for i in range(size(lay)):
        crd = pycute.idx2crd(i, lay.shape)          # the natural (nested) coordinate of i
        assert lay(crd) == theirs(crd) == lay(i)


def test_printing_uses_cutes_notation():
    lay = Layout(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128)))
    assert str(lay) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    assert format(lay, "_") == "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"
    assert str(Layout(32, 1)) == "32:1"
    assert repr(lay) == "Layout(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128)))"


def test_make_layout_defaults_to_compact_column_major_with_cutes_zero_strides():
    assert str(make_layout((4, 8))) == "(4,8):(1,4)"
    assert str(make_layout((2, (3, 4)))) == "(2,(3,4)):(1,(2,6))"
    assert str(make_layout((2, 2, 1))) == "(2,2,1):(1,2,0)"      # an extent-1 mode gets stride 0
    assert str(make_layout((4, 2), (2, 1))) == "(4,2):(2,1)"
    assert str(make_layout(Layout(4, 2), Layout(3, 8))) == "(4,3):(2,8)"


def test_size_cosize_rank_depth():
    lay = Layout(((4, 8), (2, 2, 2)), ((32, 1), (16, 8, 128)))
    assert (size(lay), cosize(lay), rank(lay), depth(lay)) == (256, 256, 2, 2)
    assert (size(Layout(8, 2)), cosize(Layout(8, 2)), rank(Layout(8, 2)), depth(Layout(8, 2))) == (8, 15, 1, 0)
    assert size((4, (2, 3))) == 24 and rank((4, (2, 3))) == 2 and depth((4, (2, 3))) == 2


def test_slicing_keeps_the_underscore_modes():
    lay = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))
    assert str(lay(_, 1)) == "((4,8)):((32,1))"
    assert str(lay((1, _), _)) == "(8,(2,2)):(1,(16,8))"
    assert lay.slice_and_offset(((1, 2), _))[1] == 34


# ---------------------------------------------------------------------------------------------
# Operations against pycute
# ---------------------------------------------------------------------------------------------

@EXAMPLES
@given(layouts())
def test_coalesce_matches_pycute(lay):
    mine = coalesce(lay)
    assert same(mine, pycute.coalesce(ref(lay)))
    assert depth(mine) <= 1 and size(mine) == size(lay)
    assert mine.values() == lay.values()


@EXAMPLES
@given(layouts(shape_strategy=shapes(max_leaves=4)), st.data())
def test_coalesce_by_mode_matches_pycute(lay, data):
    assume(rank(lay) >= 2)
    profile = tuple(1 for _ in range(data.draw(st.integers(1, rank(lay)))))
    assert same(coalesce(lay, profile), pycute.coalesce(ref(lay), profile))


@EXAMPLES
@given(compact_layouts(), st.data())
def test_composition_matches_pycute_and_is_function_composition(a, data):
    b = data.draw(layouts(shape_strategy=POW2_SHAPES, max_stride=8))
    assume(cosize(b) <= size(a))
    theirs = pycute_or_reject(pycute.composition, ref(a), ref(b))
    mine = composition(a, b)
    assert same(mine, theirs)
    # Composing with a single mode is function composition (the modes then distribute).
    for s, d in zip(_flat(b.shape), _flat(b.stride)):
        assert composition(a, Layout(s, d)).values() == [a(d * i) for i in range(s)]


@EXAMPLES
@given(compact_layouts(shapes(st.sampled_from([2, 4, 8]), max_leaves=4)), st.data())
def test_composition_by_mode_matches_pycute(a, data):
    tiler = tuple(
        data.draw(st.one_of(st.just(_), compact_layouts(shapes(st.sampled_from([1, 2]), max_leaves=2))))
        for _m in range(rank(a)))
    tiler = tuple(t if t is _ or size(t) <= size(a[i]) else _ for i, t in enumerate(tiler))
    theirs = pycute_or_reject(pycute.composition, ref(a),
                              tuple(None if t is _ else ref(t) for t in tiler))
    assert same(composition(a, tiler), theirs)


@EXAMPLES
@given(injective_layouts(), st.integers(1, 4))
def test_complement_matches_pycute_and_fills_the_codomain(a, k):
    cotarget = cosize(a) * k
    mine = complement(a, cotarget)
    assert same(mine, pycute.complement(ref(a), cotarget))
    # The complement's image avoids the layout's image except at 0 ...
    image = set(a.values())
    assert all(v not in image for v in mine.values()[1:])
    # ... and together they are one-to-one.
    together = make_layout(a, mine)
    assert len(set(together.values())) == size(together)


@EXAMPLES
@given(injective_layouts())
def test_right_inverse_matches_pycute(a):
    mine = right_inverse(a)
    assert same(mine, pycute.right_inverse(ref(a)))
    assert all(a(mine(i)) == i for i in range(size(mine)))


@EXAMPLES
@given(injective_layouts())
def test_left_inverse_agrees_with_pycute_on_the_image(a):
    # A left inverse is pinned down only on the layout's image; off it, CuTe's C++ (followed
    # here) and pycute fill in different values.
    mine, theirs = left_inverse(a), pycute.left_inverse(ref(a))
    assert size(mine) == pycute.size(theirs)
    assert all(mine(a(i)) == theirs(a(i)) == i for i in range(size(a)))


@EXAMPLES
@given(compact_layouts(), st.data())
def test_logical_divide_matches_pycute(a, data):
    b = data.draw(injective_layouts(POW2_SHAPES, gaps=st.sampled_from([1, 2])))
    assume(size(a) % cosize(b) == 0)
    theirs = pycute_or_reject(pycute.logical_divide, ref(a), ref(b))
    assert same(logical_divide(a, b), theirs)


@st.composite
def by_mode_tilers(draw, a: Layout):
    """A tuple tiler for ``a``: per mode ``_`` or a layout that divides that mode."""
    tiler = []
    for i in range(draw(st.integers(1, rank(a)))):
        mode_size = size(a[i])
        divisors = [d for d in (1, 2, 4, 8) if mode_size % d == 0]
        if draw(st.booleans()):
            tiler.append(_)
        else:
            tiler.append(Layout(draw(st.sampled_from(divisors)), draw(st.sampled_from([1, 1, 2]))))
    tiler = tuple(t if t is _ or size(a[i]) % cosize(t) == 0 else Layout(1, 0) for i, t in enumerate(tiler))
    return tiler


@EXAMPLES
@given(compact_layouts(shapes(st.sampled_from([2, 4, 8]), max_leaves=4)), st.data())
def test_zipped_and_tiled_divide_match_pycute(a, data):
    tiler = data.draw(by_mode_tilers(a))
    assume(all(t is not _ for t in tiler))    # pycute's hier_unzip has no "_" mode
    ptiler = as_pycute_tiler(tiler)
    zipped = pycute_or_reject(pycute.zipped_divide, ref(a), ptiler)
    assert same(zipped_divide(a, tiler), zipped)
    # With a single rest mode, C++ CuTe (followed here) keeps it as a 1-tuple where pycute
    # unwraps it; compare with 1-tuples unwrapped.
    mine, theirs = tiled_divide(a, tiler), pycute.tiled_divide(ref(a), ptiler)
    assert unwrap1(mine.shape) == unwrap1(theirs.shape)
    assert unwrap1(mine.stride) == unwrap1(theirs.stride) or same(mine, theirs)
    assert same(logical_divide(a, tiler), pycute.logical_divide(ref(a), ptiler))


@EXAMPLES
@given(injective_layouts(POW2_SHAPES), injective_layouts(POW2_SHAPES, gaps=st.sampled_from([1, 2])))
def test_logical_product_matches_pycute(a, b):
    theirs = pycute_or_reject(pycute.logical_product, ref(a), ref(b))
    try:
        mine = logical_product(a, b)
    except ValueError:
        # CuTe rejects products whose complement cannot hold the tiler; pycute does not check,
        # and returns a layout of the wrong size there.
        assert pycute.size(theirs) != size(a) * size(b)
        return
    assert same(mine, theirs)
    assert size(mine) == size(a) * size(b)


def pycute_zip_product(a, b, raked: bool):
    """blocked/raked product built from pycute's logical_product, as CuTe defines them."""
    r = max(len(a), len(b))

    def pad(lay):
        s = lay.shape if isinstance(lay.shape, tuple) else (lay.shape,)
        d = lay.stride if isinstance(lay.stride, tuple) else (lay.stride,)
        if len(s) >= r:
            return lay
        return pycute.Layout(s + (1,) * (r - len(s)), d + (0,) * (r - len(d)))

    result = pycute.logical_product(pad(a), pad(b))
    first, second = (result[1], result[0]) if raked else (result[0], result[1])
    if r == 1:
        return pycute.make_layout(first, second)
    return pycute.Layout(tuple(zip(first.shape, second.shape)), tuple(zip(first.stride, second.stride)))


@EXAMPLES
@given(injective_layouts(shapes(st.sampled_from([2, 3, 4]), max_leaves=4)),
       injective_layouts(shapes(st.sampled_from([2, 3, 4]), max_leaves=3)))
def test_blocked_and_raked_products_match_their_pycute_definition(a, b):
    assume(max(rank(a), rank(b)) > 1)
    theirs_b = pycute_or_reject(pycute_zip_product, ref(a), ref(b), False)
    try:
        mine = blocked_product(a, b)
    except ValueError:       # as in test_logical_product_matches_pycute
        assert pycute.size(theirs_b) != size(a) * size(b)
        return
    assert same(mine, theirs_b)
    assert same(raked_product(a, b), pycute_zip_product(ref(a), ref(b), True))


@EXAMPLES
@given(st.integers(0, 4), st.integers(0, 4), st.integers(-6, 6), st.integers(0, 1 << 14))
def test_swizzle_matches_pycute(b, m, s, x):
    assume(abs(s) >= b and s != 0)        # pycute's shift helpers recurse forever on 0
    assert Swizzle(b, m, s)(x) == pycute.Swizzle(b, m, s)(x)


@EXAMPLES
@given(compact_layouts(shapes(st.sampled_from([2, 4, 8]), max_leaves=3)), st.integers(0, 3),
       st.integers(0, 3), st.integers(1, 4))
def test_swizzled_layouts_match_pycute(lay, b, m, s_extra):
    sw = Swizzle(b, m, b + s_extra)
    mine = make_swizzled_layout(sw, lay)
    theirs = pycute.ComposedLayout(pycute.Swizzle(b, m, b + s_extra), 0, ref(lay))
    assert [mine(i) for i in range(size(lay))] == [theirs(i) for i in range(size(lay))]
    assert mine.values() == [theirs(i) for i in range(size(lay))]


# ---------------------------------------------------------------------------------------------
# CuTe's documented examples
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, expected", [
    (Layout(20, 2), Layout((5, 4), (4, 1)), "(5,4):(8,2)"),
    (Layout((10, 2), (16, 4)), Layout((5, 4), (1, 5)), "(5,(2,2)):(16,(80,4))"),
    (Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)), "((2,2),3):((24,2),8)"),
])
def test_composition_examples(a, b, expected):
    assert str(composition(a, b)) == expected


@pytest.mark.parametrize("a, cotarget, expected", [
    (Layout(4, 1), 24, "6:4"),
    (Layout(6, 4), 24, "4:1"),
    (Layout((4, 6), (1, 4)), 24, "1:0"),
    (Layout(4, 2), 24, "(2,3):(1,8)"),
    (Layout((2, 4), (1, 6)), 24, "3:2"),
    (Layout((2, 2), (1, 6)), 24, "(3,2):(2,12)"),
])
def test_complement_examples(a, cotarget, expected):
    assert str(complement(a, cotarget)) == expected


def test_divide_and_product_examples():
    a = Layout((9, (4, 8)), (59, (13, 1)))
    tiler = (Layout(3, 3), Layout((2, 4), (1, 8)))
    assert str(logical_divide(a, tiler)) == "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"
    assert str(zipped_divide(a, tiler)) == "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"
    assert str(tiled_divide(a, tiler)) == "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))"
    assert str(logical_divide(Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))) == "((2,2),(2,3)):((4,1),(2,8))"
    assert str(logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))) == "((2,2),(2,3)):((4,1),(2,8))"
    block, tiler2 = Layout((2, 5), (5, 1)), Layout((3, 4), (1, 3))
    assert str(blocked_product(block, tiler2)) == "((2,3),(5,4)):((5,10),(1,30))"
    assert str(raked_product(block, tiler2)) == "((3,2),(4,5)):((10,5),(30,1))"


def test_inverse_examples():
    assert str(right_inverse(Layout((4, 8), (8, 1)))) == "(8,4):(4,1)"
    assert str(left_inverse(Layout((4, 8), (8, 1)))) == "(8,4):(4,1)"
    assert str(right_inverse(Layout((2, 3), (3, 1)))) == "(3,2):(2,1)"


def test_swizzle_prints_like_cute():
    sw = make_swizzled_layout(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)))
    assert str(sw) == "Sw<3,3,3> o 0 o (8,64):(64,1)"
    assert format(sw, "_") == "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"
    # Row 1's first 16-byte chunk moves to chunk 1, row 7's to chunk 7.
    assert sw((1, 0)) == 64 + 8 and sw((7, 0)) == 7 * 64 + 56
    assert composition(Swizzle(3, 3, 3), Layout((8, 64), (64, 1))) == sw
    # Composing a swizzled layout with a tiler reshapes the inner layout only.
    assert str(composition(sw, (Layout(4, 2), _))) == "Sw<3,3,3> o 0 o (4,64):(128,1)"
    assert str(sw(3, _)) == "Sw<3,3,3> o 192 o (64):(1)"
