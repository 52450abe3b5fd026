"""Operands are read in place when their layout allows, and copied only when they must be."""

from __future__ import annotations

import pytest
import torch

from warpgemm.operands import detect, prepare

BOTH = {"row", "col"}


def test_contiguous_is_row_major_with_its_row_stride():
    t = torch.randn(6, 10)
    assert detect(t) == ("row", 10)


def test_a_transposed_view_is_column_major_without_a_copy():
    t = torch.randn(10, 6).t()
    assert detect(t) == ("col", 6)
    op = prepare(t, BOTH, 1)
    assert op.layout == "col" and op.ld == 6 and not op.copied and op.tensor is t


def test_a_column_slice_keeps_its_parent_leading_dimension():
    parent = torch.randn(8, 12)
    view = parent[:, 2:7]
    assert detect(view) == ("row", 12)


def test_other_strides_are_neither_layout_and_get_copied():
    t = torch.randn(8, 12)[::2, ::3]
    assert detect(t) is None
    op = prepare(t, BOTH, 1)
    assert op.copied and torch.equal(op.tensor, t)


def test_single_rows_and_columns_are_read_in_place_whatever_their_strides():
    assert detect(torch.randn(1, 7)) == ("row", 7)
    assert detect(torch.randn(7, 3)[:, 1:2]) is not None


def test_a_layout_the_kernel_does_not_read_is_copied_into_one_it_does():
    t = torch.randn(10, 6).t()
    op = prepare(t, {"row"}, 1)
    assert op.copied and op.layout == "row" and torch.equal(op.tensor, t)


@pytest.mark.parametrize("cols", [1, 3, 5, 8, 13])
@pytest.mark.parametrize("transposed", [False, True])
def test_alignment_is_met_by_padding_the_leading_dimension(cols, transposed):
    t = torch.randn(cols, 5).t() if transposed else torch.randn(5, cols)
    op = prepare(t, BOTH, 4)
    assert torch.equal(op.tensor, t)
    assert op.tensor.data_ptr() % 16 == 0
    single = (op.tensor.shape[0] == 1) if op.layout == "row" else (op.tensor.shape[1] == 1)
    assert single or op.ld % 4 == 0
    assert op.copied == (not single and (t.stride(0) if op.layout == "row" else t.stride(1)) % 4 != 0)


def test_a_misaligned_base_pointer_is_copied_even_with_an_aligned_stride():
    parent = torch.randn(4, 9)
    view = parent.view(-1)[1:33].view(4, 8)  # 4-byte offset from a 16-byte aligned base
    assert view.data_ptr() % 16 == 4
    op = prepare(view, BOTH, 4)
    assert op.copied and op.tensor.data_ptr() % 16 == 0 and torch.equal(op.tensor, view)
