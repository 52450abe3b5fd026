"""MMA and ldmatrix atoms: CuTe's TV layouts, checked against the fragment tables of the PTX ISA
(groupID = lane / 4, threadID_in_group = lane % 4), and TiledMMA/TiledCopy invariants."""

from __future__ import annotations

import pytest

from warpgemm.layout import (
    COPY_ATOMS, MMA_ATOMS, Layout, composition, copy_atom, ldmatrix_lane_map,
    ldmatrix_lane_rows, make_layout, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
    make_tiled_mma, mma_atom, right_inverse, size,
)


# (row, col) of value i held by lane l, as the PTX ISA tabulates each fragment.
def _g(l): return l >> 2          # noqa: E704  groupID
def _t(l): return l & 3           # noqa: E704  threadID_in_group


PTX_FRAGMENTS = {
    "SM80_16x8x8_F16F16F16F16_TN": dict(
        a=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1)),
        b=lambda l, i: (2 * _t(l) + i, _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    "SM80_16x8x16_F16F16F16F16_TN": dict(
        a=lambda l, i: (_g(l) + 8 * ((i >> 1) & 1), 2 * _t(l) + (i & 1) + 8 * (i >> 2)),
        b=lambda l, i: (2 * _t(l) + (i & 1) + 8 * (i >> 1), _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    "SM80_16x8x8_F32TF32TF32F32_TN": dict(
        a=lambda l, i: (_g(l) + 8 * (i & 1), _t(l) + 4 * (i >> 1)),
        b=lambda l, i: (_t(l) + 4 * i, _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    "SM80_8x8x16_S32S8S8S32_TN": dict(
        a=lambda l, i: (_g(l), 4 * _t(l) + i),
        b=lambda l, i: (4 * _t(l) + i, _g(l)),
        c=lambda l, i: (_g(l), 2 * _t(l) + i)),
    "SM80_16x8x16_S32S8S8S32_TN": dict(
        a=lambda l, i: (_g(l) + 8 * (i >> 2), 4 * _t(l) + (i & 3)),
        b=lambda l, i: (4 * _t(l) + i, _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    "SM80_16x8x32_S32S8S8S32_TN": dict(
        a=lambda l, i: (_g(l) + 8 * ((i >> 2) & 1), 4 * _t(l) + (i & 3) + 16 * (i >> 3)),
        b=lambda l, i: (4 * _t(l) + (i & 3) + 16 * (i >> 2), _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    "SM80_8x8x32_S32S4S4S32_TN": dict(
        a=lambda l, i: (_g(l), 8 * _t(l) + i),
        b=lambda l, i: (8 * _t(l) + i, _g(l)),
        c=lambda l, i: (_g(l), 2 * _t(l) + i)),
    "SM80_16x8x64_S32S4S4S32_TN": dict(
        a=lambda l, i: (_g(l) + 8 * ((i >> 3) & 1), 8 * _t(l) + (i & 7) + 32 * (i >> 4)),
        b=lambda l, i: (8 * _t(l) + (i & 7) + 32 * (i >> 3), _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    "SM80_16x8x32_S32S4S4S32_TN": dict(
        a=lambda l, i: (_g(l) + 8 * (i >> 3), 8 * _t(l) + (i & 7)),
        b=lambda l, i: (8 * _t(l) + i, _g(l)),
        c=lambda l, i: (_g(l) + 8 * (i >> 1), 2 * _t(l) + (i & 1))),
    # Quad-pair 0 of m8n8k4 (lanes 0-3 and 16-19), .row A and .col B.
    "SM70_8x8x4_F16F16F16F16_TN": dict(
        a=lambda l, i: (l % 4 + 4 * (l >= 16), i),
        b=lambda l, i: (i, l % 4 + 4 * (l >= 16)),
        c=lambda l, i: (l % 4 + 4 * (l >= 16), i)),
}
PTX_FRAGMENTS = {**PTX_FRAGMENTS,
                 # u4 has the s4 fragments: the PTX ISA gives one table for .u4/.s4.
                 **{name.replace("S4S4", "U4U4"): PTX_FRAGMENTS[name] for name in (
                     "SM80_8x8x32_S32S4S4S32_TN", "SM80_16x8x32_S32S4S4S32_TN", "SM80_16x8x64_S32S4S4S32_TN")}}
PTX_FRAGMENTS["SM80_16x8x16_F32F16F16F32_TN"] = PTX_FRAGMENTS["SM80_16x8x16_F16F16F16F16_TN"]
PTX_FRAGMENTS["SM80_16x8x16_F32BF16BF16F32_TN"] = PTX_FRAGMENTS["SM80_16x8x16_F16F16F16F16_TN"]

REQUIRED_MMA = [
    "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN", "SM80_16x8x32_S32S8S8S32_TN", "SM80_16x8x64_S32S4S4S32_TN",
    "SM80_8x8x32_S32S4S4S32_TN", "SM70_8x8x4_F16F16F16F16_TN",
    "SM80_8x8x32_S32U4U4S32_TN", "SM80_16x8x32_S32S4S4S32_TN", "SM80_16x8x32_S32U4U4S32_TN",
    "SM80_16x8x64_S32U4U4S32_TN",
]


def test_every_required_atom_exists_and_every_atom_is_checked():
    assert set(REQUIRED_MMA) <= set(MMA_ATOMS)
    assert set(MMA_ATOMS) == set(PTX_FRAGMENTS)


@pytest.mark.parametrize("name", sorted(MMA_ATOMS))
def test_mma_atom_tv_layouts_match_the_ptx_fragment_tables(name):
    atom = mma_atom(name)
    m, n, k = atom.shape_mnk
    frag = PTX_FRAGMENTS[name]
    for t in range(size(atom.thr_id)):
        lane = atom.thr_id(t)
        for i in range(size(atom.layout_a_tv[1])):
            row, col = frag["a"](lane, i)                     # A is M x K
            assert atom.layout_a_tv(t, i) == row + m * col, (name, "A", lane, i)
        for i in range(size(atom.layout_b_tv[1])):
            kk, nn = frag["b"](lane, i)                       # B is K x N, stored N x K
            assert atom.layout_b_tv(t, i) == nn + n * kk, (name, "B", lane, i)
        for i in range(size(atom.layout_c_tv[1])):
            row, col = frag["c"](lane, i)                     # C is M x N
            assert atom.layout_c_tv(t, i) == row + m * col, (name, "C", lane, i)


@pytest.mark.parametrize("name", sorted(MMA_ATOMS))
def test_each_tv_layout_covers_its_tile_exactly_once(name):
    atom = mma_atom(name)
    m, n, k = atom.shape_mnk
    for lay, extent in ((atom.layout_a_tv, m * k), (atom.layout_b_tv, n * k), (atom.layout_c_tv, m * n)):
        assert sorted(lay.values()) == list(range(extent))


def test_register_counts_follow_the_types():
    assert mma_atom("SM80_16x8x16_F16F16F16F16_TN").registers() == {"a": 4, "b": 2, "c": 2}
    assert mma_atom("SM80_16x8x16_F32BF16BF16F32_TN").registers() == {"a": 4, "b": 2, "c": 4}
    assert mma_atom("SM80_16x8x8_F32TF32TF32F32_TN").registers() == {"a": 4, "b": 2, "c": 4}
    assert mma_atom("SM80_16x8x32_S32S8S8S32_TN").registers() == {"a": 4, "b": 2, "c": 4}
    assert mma_atom("SM80_16x8x64_S32S4S4S32_TN").registers() == {"a": 4, "b": 2, "c": 4}
    assert mma_atom("SM80_8x8x32_S32S4S4S32_TN").registers() == {"a": 1, "b": 1, "c": 2}
    assert mma_atom("SM80_16x8x32_S32S4S4S32_TN").registers() == {"a": 2, "b": 1, "c": 4}
    assert mma_atom("SM80_16x8x32_S32U4U4S32_TN").registers() == {"a": 2, "b": 1, "c": 4}
    assert mma_atom("SM80_16x8x64_S32U4U4S32_TN").registers() == {"a": 4, "b": 2, "c": 4}
    assert mma_atom("SM70_8x8x4_F16F16F16F16_TN").registers() == {"a": 2, "b": 2, "c": 4}


def test_the_quad_pair_atom_prints_its_thread_map():
    assert str(mma_atom("SM70_8x8x4_F16F16F16F16_TN")) == (
        "MMA_Atom\n"
        "  ThrID:      (4,2):(1,16)\n"
        "  Shape_MNK:  (8,8,4)\n"
        "  LayoutA_TV: (8,4):(1,8)\n"
        "  LayoutB_TV: (8,4):(1,8)\n"
        "  LayoutC_TV: (8,8):(1,8)\n")


def test_unknown_atoms_are_named_in_the_error():
    with pytest.raises(KeyError, match="SM80_16x8x16_F16F16F16F16_TN"):
        mma_atom("SM80_1x1x1")
    with pytest.raises(KeyError, match="SM75_U32x4_LDSM_N"):
        copy_atom("SM75_nope")


# ---------------------------------------------------------------------------------------------
# ldmatrix
# ---------------------------------------------------------------------------------------------

def test_ldmatrix_lane_to_row_table():
    # x1 uses lanes 0-7, x2 lanes 0-15, x4 all 32; lane 8i+r gives row r of matrix i.
    assert ldmatrix_lane_rows(1) == [(0, r) for r in range(8)] + [None] * 24
    assert ldmatrix_lane_rows(2) == [(i, r) for i in range(2) for r in range(8)] + [None] * 16
    assert ldmatrix_lane_rows(4) == [(i, r) for i in range(4) for r in range(8)]


@pytest.mark.parametrize("name", sorted(COPY_ATOMS))
def test_ldmatrix_atoms_agree_with_the_ptx_register_layout(name):
    atom = copy_atom(name)
    num = atom.num_matrices
    src, dst = atom.val_layout_src, atom.val_layout_dst
    # Source: thread t supplies row t, eight contiguous 16-bit elements.
    for t in range(8 * num):
        assert [src(t, v) for v in range(8)] == list(range(8 * t, 8 * t + 8))
    # Destination: element matrix*64 + row*8 + col, as ldmatrix_lane_map says.
    lane_map = ldmatrix_lane_map(num, atom.trans)
    for lane in range(32):
        got = [dst(lane, v) for v in range(size(dst[1]))]
        want = [mat * 64 + row * 8 + col for mat, row, col in lane_map[lane]]
        assert got == want, (name, lane)


def test_ldmatrix_x4_over_quadrants_gives_lane_0_0_1_8_9_128_129_136_137():
    # A 16x16 row-major tile holding 0..255; the lanes point at rows of its 4 quadrants.
    lane_map = ldmatrix_lane_map(4, trans=False)
    origins = [(0, 0), (0, 8), (8, 0), (8, 8)]      # matrix i starts at this (row, col)
    values = [(origins[m][0] + r) * 16 + origins[m][1] + c for m, r, c in lane_map[0]]
    assert values == [0, 1, 8, 9, 128, 129, 136, 137]


def test_copy_atoms_recast_to_other_widths():
    atom = copy_atom("SM75_U32x4_LDSM_N", value_bits=32)
    assert str(atom.val_layout_src) == "(32,4):(4,1)"
    assert str(atom.val_layout_dst) == "(32,(1,4)):(1,(1,32))"


# ---------------------------------------------------------------------------------------------
# TiledMMA / TiledCopy invariants
# ---------------------------------------------------------------------------------------------

TILINGS = [((1, 1, 1), None), ((2, 2, 1), None), ((2, 2, 1), (32, 32, 16)), ((1, 4, 1), None),
           ((4, 1, 1), (64, 16, 16))]
TILED_CASES = [(name, lay, perm) for name in ("SM80_16x8x16_F16F16F16F16_TN",
                                              "SM80_16x8x8_F32TF32TF32F32_TN",
                                              "SM80_16x8x32_S32S8S8S32_TN")
               for lay, perm in TILINGS
               if perm is None or perm[2] % MMA_ATOMS[name].shape_mnk[2] == 0]


@pytest.mark.parametrize("name, atom_layout, perm", TILED_CASES)
def test_tiled_mma_partitions_cover_the_tile_once(name, atom_layout, perm):
    tm = make_tiled_mma(mma_atom(name), make_layout(atom_layout), perm)
    M, N, K = (tm.tile_size(i) for i in range(3))
    c_tile = make_layout((2 * M, 2 * N))                    # two tiles in each direction
    seen = []
    for t in range(tm.size):
        thr = tm.get_slice(t)
        part = thr.partition_C(c_tile)
        off = thr.offset_C(c_tile)
        seen += [off + v for v in part.values()]
        assert size(part[0]) == size(tm.atom.layout_c_tv[1])
    assert sorted(seen) == list(range(4 * M * N))
    # A is shared by the threads that differ only in N: each element appears N-atom times.
    a_tile = make_layout((M, K))
    a_seen = []
    for t in range(tm.size):
        thr = tm.get_slice(t)
        a_seen += [thr.offset_A(a_tile) + v for v in thr.partition_A(a_tile).values()]
    copies = tm.thr_layout_vmnk[2].size()
    assert sorted(a_seen) == sorted(list(range(M * K)) * copies)


@pytest.mark.parametrize("atom_layout, perm", TILINGS)
def test_tiled_mma_tv_layouts_agree_with_the_partitions(atom_layout, perm):
    tm = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", make_layout(atom_layout), perm)
    M, N = tm.tile_size(0), tm.tile_size(1)
    tv = tm.get_layoutC_TV()
    c_tile = make_layout((M, N))
    for t in (0, 1, 5, tm.size - 1):
        thr = tm.get_slice(t)
        from_partition = sorted(thr.offset_C(c_tile) + v for v in thr.partition_C(c_tile).values())
        from_tv = sorted(tv(t, v) for v in range(size(tv[1])))
        assert from_partition == from_tv


def test_tiled_copy_delivers_the_mma_fragments_and_reads_the_whole_tile():
    tm = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", make_layout((2, 2, 1)), (32, 32, 16))
    smem_a = Layout((128, 32), (1, 128))
    mma_tv = tm.get_layoutA_TV()
    for atom in ("SM75_U16x8_LDSM_T", "SM75_U32x4_LDSM_N", "SM75_U16x4_LDSM_T"):
        copy = make_tiled_copy_A(atom, tm)
        # Destination: each thread's registers hold exactly its MMA A-fragment.
        dst_tv = copy.get_layoutD_TV()
        for t in range(tm.size):
            assert sorted(dst_tv(t, v) for v in range(size(dst_tv[1]))) == \
                sorted(mma_tv(t, v) for v in range(size(mma_tv[1])))
        # Source: the threads' addresses cover the shared-memory tile.  Warps that differ only
        # in N read the same A; ldmatrix .x1/.x2 lanes beyond the first 8/16 repeat earlier rows
        # (they supply no address of their own).
        repeats = tm.thr_layout_vmnk[2].size() * (4 // copy.atom.num_matrices)
        read = []
        for t in range(copy.num_threads):
            thr = copy.get_slice(t)
            read += [thr.offset_S(smem_a) + v for v in thr.partition_S(smem_a).values()]
        assert sorted(read) == sorted(list(range(128 * 32)) * repeats)


def test_retile_D_is_a_permutation_of_the_fragment():
    tm = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", make_layout((2, 2, 1)), (32, 32, 16))
    smem = Layout((128, 32), (1, 128))
    for make in (make_tiled_copy_A, make_tiled_copy_B):
        copy = make("SM75_U16x8_LDSM_T", tm)
        frag = (tm.get_slice(0).partition_fragment_A(smem) if make is make_tiled_copy_A
                else tm.get_slice(0).partition_fragment_B(smem))
        view = copy.get_slice(0).retile_D(frag)
        assert sorted(view.values()) == sorted(frag.values()) == list(range(size(frag)))


def test_tiled_copy_C_and_layouts_S_D():
    tm = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", make_layout((2, 2, 1)))
    copy = make_tiled_copy_C("SM75_U32x1_LDSM_N", tm)
    assert copy.tiler_mn == (32, 16)
    s_tv, d_tv = copy.get_layoutS_TV(), copy.get_layoutD_TV()
    assert sorted(d_tv.values()) == list(range(32 * 16))
    assert sorted(s_tv.values()) == sorted(list(range(32 * 16)) * 4)     # .x1: 8 lanes' rows, 4 times
    assert composition(right_inverse(d_tv), d_tv).values()[:8] == list(range(8))
    assert tm.get_slice(0).partition_fragment_C(make_layout((32, 16))).shape[1:] == (1, 1)
