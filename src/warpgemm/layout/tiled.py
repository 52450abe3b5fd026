"""TiledMMA and TiledCopy: atoms repeated over threads and values, and their per-thread slices.

These follow CuTe's ``TiledMMA``/``ThrMMA`` and ``TiledCopy``/``ThrCopy``.  Partitioning
functions take the layout of a tile (shared memory, global memory or registers) and return
the layout of the part that one thread touches; the thread's starting offset in that tile is
available from the matching ``offset_*`` method.
"""

from __future__ import annotations

from typing import Any

from .algebra import (
    coalesce, complement, composition, logical_divide, logical_product, make_fragment_like,
    right_inverse, upcast, zip_layout, zipped_divide, tiled_product, append_layout,
)
from .atoms import CopyAtom, MMAAtom
from .inttuple import _, format_inttuple, is_tuple, is_underscore, product, product_each
from .layout import Layout, make_layout

__all__ = ["TiledMMA", "ThrMMA", "TiledCopy", "ThrCopy", "make_tiled_mma", "make_tiled_copy_A",
           "make_tiled_copy_B", "make_tiled_copy_C"]


def _fmt_tile(t: Any, static: bool) -> str:
    if isinstance(t, Layout):
        return format(t, "_" if static else "")
    if is_tuple(t):
        return "(" + ",".join(_fmt_tile(x, static) for x in t) + ")"
    return format_inttuple(t, static)


def _tile_size(t: Any) -> int:
    return t.size() if isinstance(t, Layout) else int(t)


class TiledMMA:
    """An MMA atom repeated over a layout of atoms (``atom_layout``, more threads) and over a
    permutation tile (``permutation``, more values per thread)."""

    def __init__(self, atom: MMAAtom, atom_layout: Layout | tuple = (1, 1, 1),
                 permutation: tuple | None = None) -> None:
        if not isinstance(atom_layout, Layout):
            atom_layout = make_layout(atom_layout)
        self.atom = atom
        self.atom_layout_mnk = append_layout(atom_layout, 3)
        perm = tuple(permutation) if permutation is not None else ()
        self.permutation_mnk: tuple = perm + (_,) * (3 - len(perm))
        if len(self.permutation_mnk) != 3:
            raise ValueError("permutation has at most three modes (M, N, K)")
        self.thr_layout_vmnk: Layout = tiled_product(atom.thr_id, self.atom_layout_mnk)
        self._memo: dict = {}

    # -- sizes -----------------------------------------------------------------------------------
    def permutation(self, i: int) -> Any:
        """The tile applied to mode ``i`` (M, N, K) before the atoms (CuTe's ``permutation_mnk``)."""
        p = self.permutation_mnk[i]
        if is_underscore(p):
            return self.atom.shape_mnk[i] * self.thr_layout_vmnk[i + 1].size()
        return p

    def tile_size(self, i: int) -> int:
        """Extent of mode ``i`` (0=M, 1=N, 2=K) covered by one application of the tiled MMA."""
        p = self.permutation(i)
        if is_tuple(p):
            return product(tuple(_tile_size(x) for x in p))
        return _tile_size(p)

    @property
    def size(self) -> int:
        """Number of threads."""
        return self.thr_layout_vmnk.size()

    # -- thread-fragment views ---------------------------------------------------------------------
    def _thrfrg(self, layout: Layout, atom_tv: Layout, i: int, j: int) -> Layout:
        t_tensor = logical_divide(layout, (self.permutation(i), self.permutation(j)))
        a_tile = (make_layout(self.atom.shape_mnk[i]), make_layout(self.atom.shape_mnk[j]))
        a_tensor = zipped_divide(t_tensor, a_tile)
        tv_tensor = a_tensor.compose(atom_tv, _)
        thr_tile = (_, (make_layout(self.thr_layout_vmnk[i + 1].size()),
                        make_layout(self.thr_layout_vmnk[j + 1].size())))
        return zipped_divide(tv_tensor, thr_tile)

    def _memo_thrfrg(self, which: str, layout: Layout) -> Layout:
        key = (which, layout)
        if key not in self._memo:
            tv, i, j = {"A": (self.atom.layout_a_tv, 0, 2), "B": (self.atom.layout_b_tv, 1, 2),
                        "C": (self.atom.layout_c_tv, 0, 1)}[which]
            self._memo[key] = self._thrfrg(layout, tv, i, j)
        return self._memo[key]

    def thrfrg_A(self, layout: Layout) -> Layout:
        """``(M,K)`` -> ``((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))``."""
        return self._memo_thrfrg("A", layout)

    def thrfrg_B(self, layout: Layout) -> Layout:
        """``(N,K)`` -> ``((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))``."""
        return self._memo_thrfrg("B", layout)

    def thrfrg_C(self, layout: Layout) -> Layout:
        """``(M,N)`` -> ``((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))``."""
        return self._memo_thrfrg("C", layout)

    def _thridx_to_thrid(self) -> Layout:
        v = self.thr_layout_vmnk
        return composition(Layout((v.size(), 1), (1, 0)), right_inverse(make_layout(v, complement(v))))

    def get_layoutA_TV(self) -> Layout:
        """``(thread, value) -> m + M * k`` over the ``tile_size(0) x tile_size(2)`` tile."""
        v = self.thr_layout_vmnk
        ref = make_layout((self.tile_size(0), self.tile_size(2)))
        atile = (_, (Layout((v[1].size(), v[2].size()), (1, 0)), _))
        return self.thrfrg_A(ref).compose(atile, _).compose(self._thridx_to_thrid(), _)

    def get_layoutB_TV(self) -> Layout:
        """``(thread, value) -> n + N * k`` over the ``tile_size(1) x tile_size(2)`` tile."""
        v = self.thr_layout_vmnk
        ref = make_layout((self.tile_size(1), self.tile_size(2)))
        btile = (_, (Layout((v[1].size(), v[2].size()), (0, 1)), _))
        return self.thrfrg_B(ref).compose(btile, _).compose(self._thridx_to_thrid(), _)

    def get_layoutC_TV(self) -> Layout:
        """``(thread, value) -> m + M * n`` over the ``tile_size(0) x tile_size(1)`` tile."""
        ref = make_layout((self.tile_size(0), self.tile_size(1)))
        return self.thrfrg_C(ref).compose(self._thridx_to_thrid(), _)

    def get_slice(self, thr_idx: int) -> "ThrMMA":
        """The view of thread ``thr_idx``."""
        if not 0 <= thr_idx < self.size:
            raise IndexError(f"thread {thr_idx} outside a TiledMMA of {self.size} threads")
        return ThrMMA(self, self.thr_layout_vmnk.get_flat_coord(thr_idx))

    get_thread_slice = get_slice

    # -- printing ----------------------------------------------------------------------------------
    def _text(self, static: bool) -> str:
        f = "_" if static else ""
        return ("TiledMMA\n"
                f"  ThrLayoutVMNK:  {self.thr_layout_vmnk:{f}}\n"
                f"  PermutationMNK: {_fmt_tile(tuple(self.permutation(i) for i in range(3)), static)}\n"
                + self.atom._text(static))

    def __str__(self) -> str:
        return self._text(False)

    def __format__(self, spec: str) -> str:
        return self._text(spec == "_")


class ThrMMA:
    """One thread's view of a TiledMMA."""

    def __init__(self, tiled: TiledMMA, thr_vmnk: tuple) -> None:
        self.tiled = tiled
        self.thr_vmnk = thr_vmnk

    def _coords(self, which: str) -> tuple:
        v, m, n, k = self.thr_vmnk
        return {"A": (v, (m, k)), "B": (v, (n, k)), "C": (v, (m, n))}[which]

    def _partition(self, which: str, layout: Layout) -> tuple[Layout, int]:
        thr = getattr(self.tiled, f"thrfrg_{which}")(layout)
        r = thr[1][1].rank
        rest = tuple([_] * r) if r > 1 else _
        return thr.slice_and_offset(self._coords(which), (_, rest))

    def partition_A(self, layout: Layout) -> Layout:
        """``(MMA, MMA_M, MMA_K)``: this thread's elements of an ``(M, K)`` tile."""
        return self._partition("A", layout)[0]

    def partition_B(self, layout: Layout) -> Layout:
        """``(MMA, MMA_N, MMA_K)``: this thread's elements of an ``(N, K)`` tile."""
        return self._partition("B", layout)[0]

    def partition_C(self, layout: Layout) -> Layout:
        """``(MMA, MMA_M, MMA_N)``: this thread's elements of an ``(M, N)`` tile."""
        return self._partition("C", layout)[0]

    def offset_A(self, layout: Layout) -> int:
        """Where this thread's ``partition_A`` starts in ``layout``'s codomain."""
        return self._partition("A", layout)[1]

    def offset_B(self, layout: Layout) -> int:
        return self._partition("B", layout)[1]

    def offset_C(self, layout: Layout) -> int:
        return self._partition("C", layout)[1]

    def partition_fragment_A(self, layout: Layout) -> Layout:
        """The register fragment for ``partition_A(layout)``."""
        return make_fragment_like(self.partition_A(layout))

    def partition_fragment_B(self, layout: Layout) -> Layout:
        return make_fragment_like(self.partition_B(layout))

    def partition_fragment_C(self, layout: Layout) -> Layout:
        """The accumulator fragment: compact column-major over ``partition_C``'s shape."""
        return make_layout(self.partition_C(layout).shape)

    def __str__(self) -> str:
        return f"ThrMMA\n  Thr VMNK: {format_inttuple(self.thr_vmnk)}\n"


def make_tiled_mma(atom: MMAAtom | str, atom_layout: Layout | tuple = (1, 1, 1),
                   permutation: tuple | None = None) -> TiledMMA:
    """Tile ``atom`` over ``atom_layout`` (an MNK layout of atoms, one warp each for SM80) and
    over ``permutation`` (the MNK tile one application covers; ``_`` or missing = no extra)."""
    if isinstance(atom, str):
        from .atoms import mma_atom
        atom = mma_atom(atom)
    return TiledMMA(atom, atom_layout, permutation)


# ---------------------------------------------------------------------------------------------
# TiledCopy
# ---------------------------------------------------------------------------------------------

class TiledCopy:
    """A copy atom tiled over a ``(thread, value) -> (m, n)`` layout ``layout_tv`` of the tile
    ``tiler_mn``; usually made from a TiledMMA by ``make_tiled_copy_A/B/C``."""

    def __init__(self, atom: CopyAtom, layout_tv: Layout, tiler_mn: tuple) -> None:
        self.atom = atom
        self.layout_tv = layout_tv
        self.tiler_mn = tuple(tiler_mn)
        num_thr, num_val = layout_tv[0].size(), layout_tv[1].size()
        atom_thr, atom_val = atom.val_layout_ref[0].size(), atom.val_layout_ref[1].size()
        if num_thr % atom_thr or num_val % atom_val:
            raise ValueError(f"TiledLayout_TV {layout_tv} does not hold whole {atom.name} atoms")
        self._memo: dict = {}

    @property
    def num_threads(self) -> int:
        return self.layout_tv[0].size()

    def _tile2thrfrg(self, tensor: Layout, ref2trg: Layout) -> Layout:
        ref = self.atom.val_layout_ref
        atom_tv = zipped_divide(self.layout_tv, (ref[0].size(), ref[1].size()))
        trg_tv = atom_tv.compose(ref2trg, _)
        thrval2mn = coalesce(zip_layout(trg_tv), (1, (1, 1)))
        tv_tensor = tensor.compose(thrval2mn, _)
        return tv_tensor((_, _), _)

    def tidfrg_S(self, layout: Layout) -> Layout:
        """``(M,N,..)`` -> ``(Thr, FrgV, (RestM,RestN,..))`` for the source side."""
        key = ("S", layout)
        if key not in self._memo:
            ref2src = composition(right_inverse(self.atom.val_layout_ref), self.atom.val_layout_src)
            self._memo[key] = self._tile2thrfrg(zipped_divide(layout, self.tiler_mn), ref2src)
        return self._memo[key]

    def tidfrg_D(self, layout: Layout) -> Layout:
        """``(M,N,..)`` -> ``(Thr, FrgV, (RestM,RestN,..))`` for the destination side."""
        key = ("D", layout)
        if key not in self._memo:
            ref2dst = composition(right_inverse(self.atom.val_layout_ref), self.atom.val_layout_dst)
            self._memo[key] = self._tile2thrfrg(zipped_divide(layout, self.tiler_mn), ref2dst)
        return self._memo[key]

    def retile(self, layout: Layout) -> Layout:
        """Re-view a thread's fragment (e.g. from ``partition_fragment_A``) in the copy's value
        order: ``(CopyV, CopyM, CopyN, ..)``."""
        r = layout.rank
        v = layout[0].size()
        num_thr = self.num_threads
        atom_num_val = self.atom.val_layout_ref[1].size()
        frg_layout_mn = upcast(right_inverse(self.layout_tv).with_shape(self.tiler_mn), num_thr * v)
        frg_layout_v = zipped_divide(logical_product(make_layout(v), right_inverse(frg_layout_mn)),
                                     make_layout(atom_num_val))
        t_tensor = zipped_divide(layout, (v,) + tuple(product_each(frg_layout_mn.shape)))
        v_tensor = t_tensor.compose(frg_layout_v, _)
        rest = (0,) + (_,) * (r - 1)
        return v_tensor(_, rest)

    def get_slice(self, thr_idx: int) -> "ThrCopy":
        if not 0 <= thr_idx < self.num_threads:
            raise IndexError(f"thread {thr_idx} outside a TiledCopy of {self.num_threads} threads")
        return ThrCopy(self, thr_idx)

    get_thread_slice = get_slice

    def get_layoutS_TV(self) -> Layout:
        """``(thread, value) -> m + M * n`` of the source tile."""
        ref = make_layout((self.tiler_mn, 1))
        ref2src = composition(right_inverse(self.atom.val_layout_ref), self.atom.val_layout_src)
        return self._tile2thrfrg(ref, ref2src)(_, _, 0)

    def get_layoutD_TV(self) -> Layout:
        """``(thread, value) -> m + M * n`` of the destination tile."""
        ref = make_layout((self.tiler_mn, 1))
        ref2dst = composition(right_inverse(self.atom.val_layout_ref), self.atom.val_layout_dst)
        return self._tile2thrfrg(ref, ref2dst)(_, _, 0)

    def _text(self, static: bool) -> str:
        f = "_" if static else ""
        return ("TiledCopy\n"
                f"  Tiler_MN:       {_fmt_tile(self.tiler_mn, static)}\n"
                f"  TiledLayout_TV: {self.layout_tv:{f}}\n"
                + self.atom._text(static))

    def __str__(self) -> str:
        return self._text(False)

    def __format__(self, spec: str) -> str:
        return self._text(spec == "_")


class ThrCopy:
    """One thread's view of a TiledCopy."""

    def __init__(self, tiled: TiledCopy, thr_idx: int) -> None:
        self.tiled = tiled
        self.thr_idx = thr_idx

    def _partition(self, layout: Layout, side: str) -> tuple[Layout, int]:
        thr = getattr(self.tiled, f"tidfrg_{side}")(layout)
        r = layout.rank
        rest = tuple([_] * r) if r > 1 else _
        return thr.slice_and_offset(self.thr_idx, _, rest)

    def partition_S(self, layout: Layout) -> Layout:
        """``(CopyV, CopyM, CopyN, ..)``: this thread's source elements of ``layout``."""
        return self._partition(layout, "S")[0]

    def partition_D(self, layout: Layout) -> Layout:
        """``(CopyV, CopyM, CopyN, ..)``: this thread's destination elements of ``layout``."""
        return self._partition(layout, "D")[0]

    def offset_S(self, layout: Layout) -> int:
        return self._partition(layout, "S")[1]

    def offset_D(self, layout: Layout) -> int:
        return self._partition(layout, "D")[1]

    def retile_S(self, layout: Layout) -> Layout:
        return self.tiled.retile(layout)

    def retile_D(self, layout: Layout) -> Layout:
        """A register fragment re-viewed to match ``partition_S``'s shape."""
        return self.tiled.retile(layout)


def _tiled_copy(atom: CopyAtom | str, layout_tv: Layout, tiler: tuple) -> TiledCopy:
    if isinstance(atom, str):
        from .atoms import copy_atom
        atom = copy_atom(atom)
    return TiledCopy(atom, layout_tv, tiler)


def make_tiled_copy_A(atom: CopyAtom | str, tiled_mma: TiledMMA) -> TiledCopy:
    """A TiledCopy whose threads and values match the A operand of ``tiled_mma``."""
    return _tiled_copy(atom, tiled_mma.get_layoutA_TV(), (tiled_mma.tile_size(0), tiled_mma.tile_size(2)))


def make_tiled_copy_B(atom: CopyAtom | str, tiled_mma: TiledMMA) -> TiledCopy:
    """A TiledCopy whose threads and values match the B operand of ``tiled_mma``."""
    return _tiled_copy(atom, tiled_mma.get_layoutB_TV(), (tiled_mma.tile_size(1), tiled_mma.tile_size(2)))


def make_tiled_copy_C(atom: CopyAtom | str, tiled_mma: TiledMMA) -> TiledCopy:
    """A TiledCopy whose threads and values match the C operand of ``tiled_mma``."""
    return _tiled_copy(atom, tiled_mma.get_layoutC_TV(), (tiled_mma.tile_size(0), tiled_mma.tile_size(1)))
