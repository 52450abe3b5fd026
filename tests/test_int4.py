"""int4 storage: two 4-bit values a byte, element 2i in the low nibble of byte i, the order the
integer mma fragments read; signed (two's complement, -8..7) and unsigned (0..15); any length,
any dimension; clear errors for values that do not fit."""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import int4


def test_the_nibble_order_is_the_fragment_order():
    values = torch.tensor([3, -1, 0, 7, -8, 2, 5, -4])
    packed = int4.pack(values)
    assert packed.dtype == torch.uint8 and packed.tolist() == [0xF3, 0x70, 0x28, 0xC5]
    # Four bytes read as one little-endian 32-bit register: k = 0 in bits 0-3, k = 7 in bits 28-31.
    register = int.from_bytes(bytes(packed.tolist()), "little")
    assert register == 0xC52870F3
    assert [((register >> (4 * k)) & 0xF) for k in range(8)] == [v & 0xF for v in values.tolist()]


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("shape,dim", [((64, 128), -1), ((64, 127), 1), ((33, 10), 0), ((3, 5, 9), 1), ((1,), 0)])
def test_pack_then_unpack_gives_the_values_back(shape, dim, signed):
    lo, hi = (-8, 7) if signed else (0, 15)
    values = torch.randint(lo, hi + 1, shape, dtype=torch.int32)
    packed = int4.pack(values, signed=signed, dim=dim)
    n = shape[dim]
    assert packed.shape[dim] == (n + 1) // 2
    back = int4.unpack(packed, signed=signed, size=n, dim=dim)
    assert back.dtype == torch.int8 and torch.equal(back.long(), values.long())


def test_an_odd_length_pads_a_zero_nibble():
    packed = int4.pack(torch.tensor([[1, 2, 3]]))
    assert packed.tolist() == [[0x21, 0x03]]
    assert int4.unpack(packed).tolist() == [[1, 2, 3, 0]]
    assert int4.unpack(packed, size=3).tolist() == [[1, 2, 3]]


def test_signed_and_unsigned_read_the_same_byte_differently():
    packed = torch.tensor([0xF8], dtype=torch.uint8)
    assert int4.unpack(packed, signed=True).tolist() == [-8, -1]
    assert int4.unpack(packed, signed=False).tolist() == [8, 15]


@pytest.mark.parametrize("call,match", [
    (lambda: int4.pack(torch.tensor([8])), "signed 4-bit values must lie in -8..7; got values in 8..8"),
    (lambda: int4.pack(torch.tensor([-1]), signed=False), "unsigned 4-bit values must lie in 0..15"),
    (lambda: int4.pack(torch.tensor([1.0])), "integer dtype"),
    (lambda: int4.pack(torch.tensor(3)), "at least one dimension"),
    (lambda: int4.unpack(torch.tensor([1], dtype=torch.int32)), "must be bytes"),
    (lambda: int4.unpack(torch.tensor([1, 2], dtype=torch.uint8), size=7), "2 bytes hold 3 or 4 values, not size=7"),
])
def test_bad_input_gets_an_error_that_names_the_constraint(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_the_module_is_reachable_from_the_package():
    assert warpgemm.int4 is int4


@pytest.mark.gpu
@pytest.mark.skipif("not torch.cuda.is_available()", reason="needs a GPU")
def test_pack_and_unpack_run_on_the_gpu():
    values = torch.randint(-8, 8, (256, 4096), dtype=torch.int8, device="cuda")
    packed = int4.pack(values)
    assert packed.is_cuda and packed.shape == (256, 2048)
    assert torch.equal(int4.unpack(packed), values)
