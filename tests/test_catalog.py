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
    inst = spec.instance(*spec.layouts[0], params=p)
    assert all(g >= 1 for g in inst.grid(1000, 3000, 500))
    assert inst.block == (spec.threads(p), 1, 1) and inst.smem_bytes == spec.smem_bytes(p)
    for name, values in spec.tuning.items():
        assert name in spec.params and spec.params[name] in values
    if spec.align_elems > 1:
        assert spec.constraints, "a kernel with an alignment requirement must say so"


def test_name_expression_puts_layouts_first_then_parameters_in_order():
    spec = catalog.get("sgemm/03_thread_tile_8x8")
    assert spec.instance("row", "col", params={"BK": 16}).name_expression == \
        "sgemm_thread_tile<true, false, 128, 128, 16, 8, 8>"


def test_typed_kernels_take_the_element_types_after_the_layouts():
    spec = catalog.get("hgemm/07_tuned")
    inst = spec.instance("col", "row", "bfloat16", "float32")
    assert inst.name_expression.startswith("hgemm_tuned<false, true, wg::bf16_t, float, 256, 128, 64,")


def test_instances_are_made_once_per_layouts_dtypes_and_parameters():
    spec = catalog.get("hgemm/06_fragment_double_buffer")
    a = spec.instance("row", "col", "float16", "float16", {"STAGES": 3})
    assert spec.instance("row", "col", "float16", "float16", {"STAGES": 3}) is a
    assert spec.instance("row", "col", "float16", "float32", {"STAGES": 3}) is not a
    assert a.params["STAGES"] == 3 and a.params["BM"] == spec.params["BM"]


def test_default_output_dtypes_come_from_the_spec():
    assert catalog.get("hgemm/07_tuned").instance().out_dtype == "float16"
    assert catalog.get("hgemm/07_tuned").instance(in_dtype="bfloat16").out_dtype == "bfloat16"
    assert catalog.get("sgemm/08_tf32_mma").instance().out_dtype == "float32"


def test_an_instance_refuses_types_and_layouts_its_kernel_does_not_have():
    with pytest.raises(ValueError, match="writes float16 from float16 inputs, not float32"):
        catalog.get("hgemm/08_f16_accumulate").instance(out_dtype="float32")
    with pytest.raises(ValueError, match="takes float16, bfloat16 inputs, not float32"):
        catalog.get("hgemm/07_tuned").instance(in_dtype="float32")
    with pytest.raises(ValueError, match="a_layout must be 'row' or 'col'"):
        catalog.get("sgemm/01_naive").instance("diagonal", "row")


def test_every_family_states_its_shared_fields_once():
    for name, family in catalog.FAMILIES.items():
        specs = catalog.kernels(name)
        assert specs and all(s.family == name and s.name.startswith(name + "/") for s in specs)
        assert family.bench_dtype in specs[0].in_dtypes
        for kernel, params in family.bench_variants:
            catalog.get(kernel).resolve(params)


def test_every_math_names_its_baseline_and_ceilings():
    from warpgemm.bench import ceiling

    for spec in catalog.CATALOG:
        math = catalog.math(spec.math)
        assert math.baseline_label(spec.in_dtypes[0]).startswith("cuBLAS")
        assert all(kind in ceiling.KINDS for kind in math.ceilings.values())


def test_the_arch_axis_filters_the_catalogue():
    on_turing = {s.name for s in catalog.kernels(arch="sm_75")}
    assert "sgemm/06_k16_double_buffer" in on_turing and "sgemm/07_cp_async" not in on_turing
    assert len(catalog.kernels(arch="sm_90a")) == len(catalog.CATALOG)
    assert all(s.min_capability == int(s.arch[3:5]) for s in catalog.CATALOG)


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


def test_the_row_sweep_on_the_tensor_cores_fits_its_block_to_k_and_names_its_limits():
    from warpgemm.api import _fit_params

    spec = catalog.get("decode/04_row_sweep_mma")

    def fit(m, n, k, explicit=None):
        return _fit_params(spec, dict(spec.resolve(explicit or {})), explicit or {}, m, n, k)

    assert {key: fit(4, 4096, 4096)[key] for key in ("TOKENS", "THREADS", "KSTEPS")} == \
        {"TOKENS": 8, "THREADS": 512, "KSTEPS": 1}  # a 16-byte chunk of a row a thread
    assert {key: fit(2, 8192, 2048)[key] for key in ("THREADS", "KSTEPS")} == {"THREADS": 256, "KSTEPS": 1}
    assert {key: fit(8, 100, 8192)[key] for key in ("THREADS", "KSTEPS")} == {"THREADS": 512, "KSTEPS": 2}
    assert fit(12, 100, 1000)["TOKENS"] == 16 and fit(12, 100, 1000)["THREADS"] == 128
    with pytest.raises(ValueError, match="computes at most K = 4096"):  # 16 tokens: one k-step
        fit(12, 64, 4104)
    with pytest.raises(ValueError, match="computes at most K = 8192"):
        fit(4, 64, 8200)
    with pytest.raises(ValueError, match="computes at most K = 2048"):  # the caller's THREADS
        fit(4, 64, 4096, {"THREADS": 256})
    with pytest.raises(ValueError, match="computes at most M = 16"):
        fit(17, 64, 64)
    assert not spec.valid(spec.resolve({"THREADS": 512, "STAGES": 4}))  # 16 rings of 16 KB: 256 KB
    assert spec.valid(spec.resolve({"THREADS": 256, "STAGES": 6}))


def test_decode_02_in_clusters_pairs_horizontally_adjacent_tiles_and_does_not_split():
    # decode/02's tiles are of C^T: a cluster's two blocks take two tiles of W's rows (C's columns)
    # and share the tokens' box, half loaded by each.
    spec = catalog.get("decode/02_swap_ab_wgmma")
    inst = spec.instance("row", "col", "bfloat16", None, spec.resolve({"CLUSTER": 2, "BM": 64, "BK": 128, "STAGES": 4}))
    assert inst.cluster == (2, 1, 1)
    assert inst.grid(64, 8192, 8192, sms=132) == (128, 1, 1)    # 64 pairs of 64-row tiles
    assert inst.grid(64, 8256, 8192, sms=132) == (130, 1, 1)    # 129 tiles: the last pair's second is past N
    assert inst.grid(64, 14336, 4096, sms=132) == (132, 1, 1)   # 112 pairs on 66 clusters
    assert inst.grid(16, 4096, 4096, sms=130) == (64, 1, 1)
    assert inst.last_wave(64, 8192, 8192, 132) == (0, 1)
    assert inst.workspace_bytes(64, 8192, 8192, 132) == 0
    assert spec.valid(inst.params) and not spec.valid({**inst.params, "CLUSTER": 8})
    assert spec.valid({**inst.params, "CLUSTER": 4}) and not spec.valid({**inst.params, "CLUSTER": 4, "BN": 48})
    four = spec.instance("row", "col", "bfloat16", None, {**inst.params, "CLUSTER": 4})
    assert four.grid(64, 6144, 4096, sms=132) == (96, 1, 1)     # 24 clusters of four 64-row tiles


def test_decode_02_in_clusters_sharing_w_pairs_tiles_of_tokens_on_one_tile_of_w():
    # SHARE_W = 1: a cluster's two blocks take two tiles of tokens (C's rows) on one tile of W and
    # share W's box, half loaded by each; any BN (the tokens are not split); only in clusters.
    spec = catalog.get("decode/02_swap_ab_wgmma")
    p = spec.resolve({"CLUSTER": 2, "SHARE_W": 1, "BM": 64, "BN": 32, "STAGES": 6})
    inst = spec.instance("row", "col", "bfloat16", None, p)
    assert inst.cluster == (2, 1, 1)
    assert inst.grid(64, 4096, 4096, sms=132) == (128, 1, 1)    # 64 tiles of W, two tiles of 32 tokens each
    assert inst.grid(33, 4096, 4096, sms=132) == (128, 1, 1)    # the second tile of tokens holds one
    assert inst.grid(32, 4096, 4096, sms=132) == (128, 1, 1)    # ... or none: its block computes past M
    assert inst.grid(64, 8192, 4096, sms=132) == (132, 1, 1)    # 128 pairs on 66 clusters
    assert inst.grid(100, 300, 520, sms=132) == (20, 1, 1)      # 5 tiles of W, 4 tiles of tokens
    assert inst.last_wave(64, 4096, 4096, 132) == (0, 1) and inst.workspace_bytes(64, 4096, 4096, 132) == 0
    assert spec.valid(p) and spec.valid({**p, "BN": 40})
    assert not spec.valid({**p, "CLUSTER": 1}) and not spec.valid({**p, "SHARE_W": 2})
    assert not spec.valid({**p, "SHARE_W": 0, "BN": 40})         # sharing the tokens halves their tile


def test_a_shared_operand_tile_is_loaded_in_parts_as_the_kernels_cut_it():
    from warpgemm.runtime.tensor_map import multicast_part_box

    assert multicast_part_box("bfloat16", True, 64, 64, 2) == (32, 64)     # K-major: bands of rows
    assert multicast_part_box("bfloat16", False, 128, 64, 2) == (128, 64)  # MN-major: whole slabs (box (64, BK))
    assert multicast_part_box("bfloat16", False, 64, 128, 2) == (64, 64)   # one slab: bands of k-rows
    assert multicast_part_box("bfloat16", False, 128, 64, 4) == (128, 32)  # two slabs, four parts: two bands each
    assert multicast_part_box("float16", True, 256, 64, 4) == (64, 64)
    assert multicast_part_box("bfloat16", False, 64, 64, 1) == (64, 64)


@pytest.mark.parametrize("bn", [40, 48, 56, 72, 80, 88, 96, 128, 144, 160, 176, 192, 256])
def test_decode_02_takes_tiles_of_up_to_256_tokens_and_compiles_them_without_spills(bn):
    import re

    import warpgemm

    spec = catalog.get("decode/02_swap_ab_wgmma")
    for bm in (64, 128):
        p = spec.resolve({"BM": bm, "BN": bn, "BK": 64, "STAGES": 3, "IN_FLIGHT": 1})
        assert spec.valid(p)
        k = warpgemm.compile(spec.name, "sm_90a", a_layout="row", b_layout="col", **p)
        assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
        assert not re.search(r"C75\d\d|wgmma.*serializ", k.log), k.log
    assert not spec.valid(spec.resolve({"BN": 208}))  # no m64n208k16 wrapper


def test_decode_02_with_a_token_tile_that_has_no_wgmma_wrapper_fails_to_compile_naming_the_widths_there_are():
    import warpgemm
    from warpgemm.errors import CompileError

    with pytest.raises(CompileError, match=r"no wgmma wrapper .* N in 16, 32, 40, 48, 56, 64, 72, 80, 88, 96, 128"):
        warpgemm.compile("decode/02_swap_ab_wgmma", "sm_90a", a_layout="row", b_layout="col", BN=104)


@pytest.mark.parametrize("bn", [72, 88])
def test_decode_02_in_clusters_of_two_takes_token_tiles_that_halve_into_whole_swizzle_atoms(bn):
    # each block of a pair loads half of the tokens' tile: BN / 2 rows, a whole number of 8-row atoms
    import warpgemm
    from warpgemm.errors import CompileError

    spec = catalog.get("decode/02_swap_ab_wgmma")
    assert spec.valid(spec.resolve({"BN": bn}))
    assert spec.valid(spec.resolve({"BN": bn + 8, "CLUSTER": 2}))
    assert not spec.valid(spec.resolve({"BN": bn, "CLUSTER": 2}))
    with pytest.raises(CompileError, match=r"clusters sharing the tokens: .* BN is a multiple of 8 \* CLUSTER"):
        warpgemm.compile("decode/02_swap_ab_wgmma", "sm_90a", a_layout="row", b_layout="col", BN=bn, CLUSTER=2)


def test_decode_02_keeps_up_to_16_stages_in_flight_where_they_fit_and_compiles_them_without_spills():
    # two tiles of 72 tokens and 64-row tiles of W: 17 KiB a stage, thirteen fit in 227 KiB
    import warpgemm

    spec = catalog.get("decode/02_swap_ab_wgmma")
    p = spec.resolve({"BM": 64, "BN": 72, "BK": 64, "STAGES": 13, "IN_FLIGHT": 1})
    assert spec.valid(p) and not spec.valid({**p, "STAGES": 14}) and not spec.valid({**p, "BN": 32, "STAGES": 17})
    k = warpgemm.compile(spec.name, "sm_90a", a_layout="row", b_layout="col", **p)
    assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log

