"""The shared-memory bank model: the textbook cases, ldmatrix with and without Swizzle<3,3,3>,
and the transposed store of the SGEMM ladder's 8x8 thread tile."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpgemm.layout import (
    Layout, Swizzle, bank_conflicts, ldmatrix_addresses, ldmatrix_report, smem_tile,
    transposed_store_report, vector_access_report,
)


def test_consecutive_words_are_one_wavefront():
    rep = bank_conflicts([4 * lane for lane in range(32)], 4)
    assert (rep.wavefronts, rep.ideal, rep.conflicts) == (1, 1, 0)


def test_one_bank_for_all_lanes_is_a_32_way_conflict():
    rep = bank_conflicts([128 * lane for lane in range(32)], 4)
    assert (rep.wavefronts, rep.ideal, rep.worst_way) == (32, 1, 32)


def test_lanes_reading_the_same_word_share_it():
    assert bank_conflicts([64] * 32, 4).wavefronts == 1
    # Two words per bank (lane l and l+16 both hit bank l % 16 * 2): a 2-way conflict.
    assert bank_conflicts([8 * lane for lane in range(32)], 4).wavefronts == 2


def test_wide_accesses_are_served_in_phases():
    rep8 = bank_conflicts([8 * lane for lane in range(32)], 8)
    rep16 = bank_conflicts([16 * lane for lane in range(32)], 16)
    assert (rep8.wavefronts, rep8.ideal) == (2, 2)
    assert (rep16.wavefronts, rep16.ideal) == (4, 4)
    # 16-byte accesses 32 bytes apart: each quarter-warp hits every other bank group twice.
    assert bank_conflicts([32 * lane for lane in range(32)], 16).wavefronts == 8


def test_inactive_lanes_and_misaligned_addresses():
    assert bank_conflicts([4 * lane if lane < 4 else None for lane in range(32)], 4).wavefronts == 1
    with pytest.raises(ValueError, match="aligned"):
        bank_conflicts([2] + [0] * 31, 4)
    with pytest.raises(ValueError, match="width"):
        bank_conflicts([0] * 32, 3)


def test_ldmatrix_x4_on_a_64_column_fp16_tile():
    # Rows are 128 bytes, so the 8 rows of each 8x8 matrix start in the same 4 banks.
    plain = ldmatrix_report(smem_tile(16, 64), 4)
    assert (plain.wavefronts, plain.ideal, plain.conflicts, plain.worst_way) == (32, 4, 28, 8)
    swizzled = ldmatrix_report(smem_tile(16, 64, Swizzle(3, 3, 3)), 4)
    assert (swizzled.wavefronts, swizzled.ideal, swizzled.conflict_free) == (4, 4, True)
    assert str(swizzled) == "ldmatrix.x4: 4 wavefronts, ideal 4, conflict-free"


def test_ldmatrix_x1_and_x2_need_one_wavefront_per_matrix():
    tile = smem_tile(16, 64, Swizzle(3, 3, 3))
    assert (ldmatrix_report(tile, 1).wavefronts, ldmatrix_report(tile, 2).wavefronts) == (1, 2)
    assert (ldmatrix_report(smem_tile(16, 64), 1).wavefronts, ldmatrix_report(smem_tile(16, 64), 2).wavefronts) == (8, 16)


def test_ldmatrix_x4_on_a_16x16_tile_has_2_way_conflicts():
    # A 16x16 bf16 tile has 32-byte rows: rows r and r+4 share banks, a 2-way conflict.
    rep = ldmatrix_report(smem_tile(16, 16), 4)
    assert (rep.wavefronts, rep.ideal, rep.worst_way) == (8, 4, 2)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 7), st.integers(0, 7), st.sampled_from([1, 2, 4]))
def test_swizzle_333_makes_every_aligned_ldmatrix_conflict_free(row_block, col_block, num):
    tile = smem_tile(128, 64, Swizzle(3, 3, 3))
    plain = smem_tile(128, 64)
    origins = [(0, 0), (8, 0), (0, 8), (8, 8)][:num]
    row0, col0 = 8 * row_block, 8 * (col_block % (8 - (1 if num > 1 else 0)))
    kwargs = dict(origins=origins, row0=row0, col0=col0)
    assert ldmatrix_report(tile, num, **kwargs).conflict_free
    assert ldmatrix_report(plain, num, **kwargs).wavefronts == 8 * num


def test_ldmatrix_addresses_follow_the_lane_to_row_table():
    addrs = ldmatrix_addresses(smem_tile(16, 16), 4)
    assert addrs[:3] == [0, 32, 64]              # lanes 0-2: rows 0-2 of matrix 0
    assert addrs[8] == 16                        # lane 8: row 0 of matrix 1, columns 8-15
    assert addrs[16] == 8 * 32                   # lane 16: row 8
    assert ldmatrix_addresses(smem_tile(16, 16), 1)[8:] == [None] * 24


def test_sgemm_transposed_a_store_is_a_2_way_conflict_cured_by_padding():
    # s_a[k][m] with BM = 128 floats per row: tids 2j and 2j+1 write rows k and k+4 of the same
    # column m = j, 4 * 128 floats apart -- the same bank.
    for i in range(4):
        rep = transposed_store_report(i=i)
        assert (rep.wavefronts, rep.ideal, rep.worst_way) == (2, 1, 2)
    assert transposed_store_report(pad=4).conflict_free
    # Every warp of the 256-thread block behaves the same.
    assert all(transposed_store_report(warp=w).wavefronts == 2 for w in range(8))


def test_sgemm_float4_reads_of_s_a_are_broadcasts():
    # FLOAT4(s_a[tk][ty * TM / 2]) with ty = tid / 16: lanes 0-15 read one float4, lanes 16-31
    # another; each 8-lane phase is a single broadcast wavefront.
    tile = Layout((8, 128), (128, 1))
    coords = [(3, 4 * (lane // 16)) for lane in range(32)]
    rep = vector_access_report(tile, coords, 4, 4)
    assert (rep.wavefronts, rep.ideal, rep.access) == (4, 4, "128-bit load")


def _row_sweep_slot_offset(j: int, c: int) -> int:
    """decode/04's slot_offset (sm80/row_sweep_mma.cuh): chunk c of row j at byte 512 j + 16 (c ^ j)."""
    return 512 * j + 16 * (c ^ j)


def test_the_row_sweep_slot_is_swizzle_335_and_conflict_free_for_its_copies_and_ldmatrix():
    # decode/04 stages 8 rows x 256 elements of W a warp, (8, 256):(256, 1), and reads them with
    # ldmatrix.x4 of 4 chunks of the 8 rows: the kernel's byte formula is Swizzle<3,3,5> on
    # element offsets, under which both accesses are one wavefront a phase.
    slot = smem_tile(8, 256, Swizzle(3, 3, 5))
    for j in range(8):
        for c in range(32):
            assert 2 * slot((j, 8 * c)) == _row_sweep_slot_offset(j, c)
    for j in range(8):  # a warp's cp.async of row j: lane l writes chunk l
        rep = vector_access_report(slot, [(j, 8 * lane) for lane in range(32)], 8, 2, store=True)
        assert rep.conflicts == 0
    origins = [(0, 8 * i) for i in range(4)]
    for q2 in range(8):  # ldmatrix.x4: chunks 4 q2 .. 4 q2 + 3 of rows 0..7
        assert ldmatrix_report(slot, 4, origins=origins, col0=32 * q2).conflicts == 0
    # The 128-byte swizzle reads the row from the 128-byte line index: rows 512 bytes apart collide.
    assert ldmatrix_report(smem_tile(8, 256, Swizzle(3, 3, 3)), 4, origins=origins).conflicts > 0
    assert ldmatrix_report(smem_tile(8, 256), 4, origins=origins).conflicts > 0
