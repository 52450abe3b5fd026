"""The CuTe TiledMMA/TiledCopy configuration of a 128x128x32 fp16 tile: four
SM80_16x8x16_F16F16F16F16_TN atoms arranged 2x2 with a 32x32x16 permutation, and
SM75_U16x8_LDSM_T copies for A and B. Every layout C++ CuTe prints for it (print_layout, the
TiledMMA and TiledCopy printers, partitions of thread 0) is reproduced character for character,
static ``_`` marks included."""

from __future__ import annotations

import pytest

from warpgemm.layout import (
    Layout, copy_atom, make_layout, make_tiled_copy_A, make_tiled_copy_B, make_tiled_mma, mma_atom,
)

# The shared-memory tiles: A is (M,K) = (128,32), B is (N,K) = (128,32), C is
# (M,N) = (128,128), all column-major; thread 0's view.
SMEM_A = Layout((128, 32), (1, 128))
SMEM_B = Layout((128, 32), (1, 128))
SMEM_C = Layout((128, 128), (1, 128))

ATOM_TEXT = """\
MMA_Atom
  ThrID:      _32:_1
  Shape_MNK:  (_16,_8,_16)
  LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
  LayoutB_TV: ((_4,_8),(_2,_2)):((_16,_1),(_8,_64))
  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))
"""

COPY_ATOM_TEXT = """\
Copy_Atom
  ThrID:        _32:_1
  ValLayoutSrc: (_32,_8):(_8,_1)
  ValLayoutDst: ((_4,_8),(_1,_2,_4)):((_16,_1),(_1,_8,_64))
  ValLayoutRef: ((_4,_8),(_1,_2,_4)):((_16,_1),(_1,_8,_64))
  ValueType:    16b
"""


@pytest.fixture(scope="module")
def tiled_mma():
    return make_tiled_mma(mma_atom("SM80_16x8x16_F16F16F16F16_TN"), make_layout((2, 2, 1)), (32, 32, 16))


@pytest.fixture(scope="module")
def thr_mma(tiled_mma):
    return tiled_mma.get_slice(0)


def test_mma_atom():
    atom = mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    assert format(atom, "_") == ATOM_TEXT
    assert str(atom.layout_a_tv) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    assert str(atom.layout_b_tv) == "((4,8),(2,2)):((16,1),(8,64))"
    assert str(atom.layout_c_tv) == "((4,8),(2,2)):((32,1),(16,8))"
    assert str(atom) == (
        "MMA_Atom\n"
        "  ThrID:      32:1\n"
        "  Shape_MNK:  (16,8,16)\n"
        "  LayoutA_TV: ((4,8),(2,2,2)):((32,1),(16,8,128))\n"
        "  LayoutB_TV: ((4,8),(2,2)):((16,1),(8,64))\n"
        "  LayoutC_TV: ((4,8),(2,2)):((32,1),(16,8))\n")


def test_tiled_mma(tiled_mma):
    assert format(tiled_mma, "_") == (
        "TiledMMA\n"
        "  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)\n"
        "  PermutationMNK: (_32,_32,_16)\n" + ATOM_TEXT)
    assert str(tiled_mma.thr_layout_vmnk) == "(32,2,2,1):(1,32,64,0)"
    assert [tiled_mma.tile_size(i) for i in range(3)] == [32, 32, 16]
    assert tiled_mma.size == 128


def test_partition_A_B_C(thr_mma):
    assert format(thr_mma.partition_A(SMEM_A), "_") == "((_2,_2,_2),_4,_2):((_128,_8,_1024),_32,_2048)"
    assert format(thr_mma.partition_B(SMEM_B), "_") == "((_2,_2),_8,_2):((_128,_1024),_16,_2048)"
    assert format(thr_mma.partition_C(SMEM_C), "_") == "((_2,_2),_4,_8):((_128,_8),_32,_2048)"
    assert thr_mma.offset_A(SMEM_A) == thr_mma.offset_B(SMEM_B) == thr_mma.offset_C(SMEM_C) == 0


def test_partition_fragment_A_B_C(thr_mma):
    assert format(thr_mma.partition_fragment_A(SMEM_A), "_") == "((_2,_2,_2),_4,_2):((_1,_2,_4),_8,_32)"
    assert format(thr_mma.partition_fragment_B(SMEM_B), "_") == "((_2,_2),_8,_2):((_1,_2),_4,_32)"
    assert format(thr_mma.partition_fragment_C(SMEM_C), "_") == "((_2,_2),_4,_8):((_1,_2),_4,_16)"


def test_copy_atom():
    assert format(copy_atom("SM75_U16x8_LDSM_T"), "_") == COPY_ATOM_TEXT


def test_tiled_copy_A_and_B(tiled_mma):
    copy_a = make_tiled_copy_A(copy_atom("SM75_U16x8_LDSM_T"), tiled_mma)
    copy_b = make_tiled_copy_B(copy_atom("SM75_U16x8_LDSM_T"), tiled_mma)
    assert format(copy_a, "_") == (
        "TiledCopy\n"
        "  Tiler_MN:       (_32,_16)\n"
        "  TiledLayout_TV: ((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))\n"
        + COPY_ATOM_TEXT)
    assert format(copy_b, "_") == (
        "TiledCopy\n"
        "  Tiler_MN:       (_32,_16)\n"
        "  TiledLayout_TV: ((_4,_8,_2,_2),((_2,_2),(_2,_1))):((_64,_1,_0,_8),((_32,_256),(_16,_0)))\n"
        + COPY_ATOM_TEXT)
    # The same values without the static marks, as the issue spells them.
    assert str(copy_a.layout_tv) == "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"
    assert str(copy_b.layout_tv) == "((4,8,2,2),((2,2),(2,1))):((64,1,0,8),((32,256),(16,0)))"


def test_partition_S_and_retile_D(tiled_mma, thr_mma):
    copy_a = make_tiled_copy_A("SM75_U16x8_LDSM_T", tiled_mma).get_slice(0)
    copy_b = make_tiled_copy_B("SM75_U16x8_LDSM_T", tiled_mma).get_slice(0)
    assert format(copy_a.partition_S(SMEM_A), "_") == "((_8,_1),_4,_2):((_1,_0),_32,_2048)"
    assert format(copy_b.partition_S(SMEM_B), "_") == "((_8,_1),_4,_2):((_1,_0),_32,_2048)"
    frag_a = thr_mma.partition_fragment_A(SMEM_A)
    frag_b = thr_mma.partition_fragment_B(SMEM_B)
    assert format(copy_a.retile_D(frag_a), "_") == "((_8,_1),_4,_2):((_1,_0),_8,_32)"
    assert format(copy_b.retile_D(frag_b), "_") == "((_8,_1),_4,_2):((_1,_0),_8,_32)"
