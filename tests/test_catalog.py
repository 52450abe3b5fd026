"""The catalogue describes every kernel completely and consistently."""

from __future__ import annotations

import pytest

import warpgemm
from warpgemm import catalog
from warpgemm.errors import KernelNotFoundError
from warpgemm.runtime.compiler import KERNELS_ROOT


def test_every_kernel_has_a_unique_name_of_the_form_family_slash_rung_idea():
    names = [s.name for s in warpgemm.kernels()]
    assert len(names) == len(set(names))
    for spec in warpgemm.kernels():
        family, rest = spec.name.split("/")
        assert family == spec.family
        assert rest.startswith(f"{spec.rung:02d}_")


def test_rungs_of_a_family_are_numbered_in_ladder_order():
    for family in {s.family for s in warpgemm.kernels()}:
        rungs = [s.rung for s in warpgemm.kernels(family)]
        assert rungs == sorted(rungs) and len(set(rungs)) == len(rungs)


def test_the_sgemm_ladder_has_its_eight_rungs_in_order():
    assert [s.name for s in warpgemm.kernels("sgemm")] == [
        "sgemm/01_naive", "sgemm/02_smem_sliced_k", "sgemm/03_thread_tile_8x8",
        "sgemm/04_bank_conflict_free", "sgemm/05_double_buffer", "sgemm/06_k16_double_buffer",
        "sgemm/07_cp_async", "sgemm/08_tf32_mma"]


@pytest.mark.parametrize("spec", catalog.CATALOG, ids=lambda s: s.name)
def test_each_spec_names_an_existing_source_that_defines_its_entry(spec):
    source = (KERNELS_ROOT / spec.source).read_text()
    assert spec.entry.split("::")[-1] in source
    assert spec.source.endswith(".cu") and spec.source.startswith(spec.family + "/")


@pytest.mark.parametrize("spec", catalog.CATALOG, ids=lambda s: s.name)
def test_each_spec_states_idea_dtypes_layouts_and_launch_shape(spec):
    assert spec.idea and len(spec.idea) < 120
    assert spec.in_dtypes and spec.out_dtypes
    assert spec.layouts and all(l in catalog.ALL_LAYOUTS for l in spec.layouts)
    p = spec.resolve()
    assert 32 <= spec.threads(p) <= 1024 and spec.threads(p) % 32 == 0
    bm, bn = spec.tile(p)
    assert bm > 0 and bn > 0
    grid = spec.launch_grid(1000, 3000, p)
    assert all(g >= 1 for g in grid)
    for name, values in spec.tuning.items():
        assert name in spec.params and spec.params[name] in values
    if spec.align_elems > 1:
        assert spec.constraints, "a kernel with an alignment requirement must say so"


def test_name_expression_puts_layouts_first_then_parameters_in_order():
    spec = catalog.get("sgemm/03_thread_tile_8x8")
    assert spec.name_expression(True, False, spec.resolve({"BK": 16})) == \
        "sgemm_thread_tile<true, false, 128, 128, 16, 8, 8>"


def test_resolve_rejects_unknown_or_non_integer_parameters():
    spec = catalog.get("sgemm/08_tf32_mma")
    assert spec.resolve({"STAGES": 2})["STAGES"] == 2
    with pytest.raises(ValueError, match="unknown parameter 'STAGE'"):
        spec.resolve({"STAGE": 2})
    with pytest.raises(TypeError, match="must be an int"):
        spec.resolve({"STAGES": 2.0})


def test_unknown_names_and_families_raise_a_clear_error():
    with pytest.raises(KernelNotFoundError, match="no kernel named 'sgemm/99_magic'"):
        catalog.get("sgemm/99_magic")
    with pytest.raises(KernelNotFoundError, match="no kernel family 'qgemm'"):
        warpgemm.kernels("qgemm")
