"""The launcher's interface, without a device: what it takes and what it refuses."""

from __future__ import annotations

import ctypes

import pytest

from warpgemm.runtime import ParamBlock


def test_a_parameter_block_copies_its_bytes_to_an_aligned_address():
    data = bytes(range(128))
    block = ParamBlock(data, align=64)
    assert block.address % 64 == 0 and len(block) == 128
    assert ctypes.string_at(block.address, 128) == data
    data2 = bytearray(data)
    block2 = ParamBlock(data2)
    data2[0] = 99  # a copy: later changes to the source do not reach the block
    assert ctypes.string_at(block2.address, 1) == b"\x00"


def test_a_parameter_block_refuses_empty_data_and_odd_alignment():
    with pytest.raises(ValueError, match="at least one byte"):
        ParamBlock(b"")
    with pytest.raises(ValueError, match="power of two"):
        ParamBlock(b"x" * 16, align=48)
