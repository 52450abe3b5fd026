"""The autotuner's table: what it offers, what it remembers, and what matmul then runs."""

from __future__ import annotations

import json

import pytest

from warpgemm import catalog
from warpgemm.tuning import search, table as tuning_table

SPEC = catalog.KernelSpec(
    name="toy/01_tile", family="toy", rung=1, idea="a toy", source="toy/01_tile.cu", entry="toy",
    outputs={"float16": ("float16",)}, math="f16f32",
    params={"BM": 128, "BN": 128, "STAGES": 3},
    threads=lambda p: 256, tile=lambda p: (p["BM"], p["BN"]),
    tuning={"BM": (64, 128, 256), "BN": (64, 128), "STAGES": (2, 3)},
    valid=lambda p: p["BM"] <= 128, autotune=True)

PROBLEM = tuning_table.Problem(4096, 4096, 4096, "float16", "float16", "row", "col")


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setattr(tuning_table, "_device_tag", lambda: "TestGPU_sm90_132sm")
    monkeypatch.setattr(tuning_table, "_table_path_cached", tuning_table.table_path)
    monkeypatch.setattr(tuning_table, "_RECHECK_SECONDS", 0.0)  # every lookup looks at the file
    monkeypatch.setenv("WARPGEMM_CACHE", str(tmp_path))
    return tmp_path / "tuning" / "TestGPU_sm90_132sm.json"


def test_candidates_are_the_valid_product_of_the_tuning_space():
    cands = search.candidates(SPEC)
    assert len(cands) == 2 * 2 * 2  # BM in (64, 128) x BN x STAGES; BM=256 is invalid
    assert all(p["BM"] <= 128 for p in cands)
    assert {tuple(sorted(p)) for p in cands} == {("BM", "BN", "STAGES")}


def test_without_a_remembered_choice_the_defaults_run(table):
    assert tuning_table.lookup(SPEC, PROBLEM) is None
    assert tuning_table.choose(SPEC, PROBLEM, {})[0] == dict(SPEC.params)


def test_a_remembered_choice_is_used_for_exactly_that_problem(table):
    table.parent.mkdir(parents=True)
    table.write_text(json.dumps({PROBLEM.key(SPEC): {"params": {"BM": 64, "BN": 128, "STAGES": 2}}}))
    assert tuning_table.choose(SPEC, PROBLEM, {})[0] == {"BM": 64, "BN": 128, "STAGES": 2}
    other = tuning_table.Problem(4096, 4096, 4095, "float16", "float16", "row", "col")
    assert tuning_table.choose(SPEC, other, {})[0] == dict(SPEC.params)


def test_explicit_parameters_win_over_the_table(table):
    table.parent.mkdir(parents=True)
    table.write_text(json.dumps({PROBLEM.key(SPEC): {"params": {"BM": 64, "BN": 128, "STAGES": 2}}}))
    assert tuning_table.choose(SPEC, PROBLEM, {"STAGES": 3})[0] == {"BM": 128, "BN": 128, "STAGES": 3}


def test_a_corrupt_or_stale_table_is_ignored(table):
    table.parent.mkdir(parents=True)
    table.write_text("{not json")
    assert tuning_table.lookup(SPEC, PROBLEM) is None
    table.write_text(json.dumps({PROBLEM.key(SPEC): {"params": {"BX": 1}}}))
    assert tuning_table.lookup(SPEC, PROBLEM) is None


def test_specs_that_are_not_autotuned_always_run_their_defaults(table):
    spec = catalog.get("sgemm/07_cp_async")
    problem = tuning_table.Problem(64, 64, 64, "float32", "float32", "row", "row")
    assert tuning_table.choose(spec, problem, {})[0] == dict(spec.params)


K6 = "hopper/06_tma_store_epilogue"
LINEAR_4096 = tuning_table.Problem(4096, 4096, 4096, "bfloat16", "bfloat16", "row", "col")
H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"


def test_the_tuner_also_times_the_rules_choice_where_auto_runs_the_kernel():
    # The H100's rules hold 4096^3's tiles (HOLD = 1), which rung 06's tuning space leaves out: the
    # tuner adds the rules' choice, so that it never remembers something slower than an untuned call
    spec = catalog.get(K6)
    ruled = search.rule_choice(spec, LINEAR_4096, 90, H100)
    assert ruled == spec.resolve({"CLUSTER": 2, "HOLD": 1}) and ruled not in search.candidates(spec)
    assert search.rule_choice(spec, LINEAR_4096, 90, H200) == ruled  # the H200 takes the H100 SXM's rules
    pcie = search.rule_choice(spec, LINEAR_4096, 90, "NVIDIA H100 PCIe")
    assert pcie in search.candidates(spec)  # clusters, no HOLD
    decode = tuning_table.Problem(16, 4096, 4096, "bfloat16", "bfloat16", "row", "col")
    assert search.rule_choice(spec, decode, 90, H100) is None  # auto runs a decode kernel there
    assert search.rule_choice(spec, LINEAR_4096, 80, "NVIDIA A100") is None  # no Hopper rung on sm_80


WGMMA = "decode/02_swap_ab_wgmma"


@pytest.mark.parametrize("m,widths", [(1, {16, 32}), (16, {16, 32}), (17, {16, 32}), (32, {16, 32}), (48, {32, 48, 64}), (96, {48, 64, 96}),
                                      (136, {64, 72, 144}), (184, {64, 96, 192}), (256, {64, 128, 256}),
                                      (300, {64, 160}), (600, {64})])
def test_for_a_shape_the_tuner_offers_decode_02_the_token_tiles_that_hold_the_tokens_in_one_tile_or_two(m, widths):
    # the default width (32 up to 32 tokens, else 64) and the narrowest atoms that hold all the
    # tokens and half of them; each with the rest of the space, as far as it fits in shared memory
    spec = catalog.get(WGMMA)
    cands = search.candidates(spec, "col", shape=(m, 4096, 4096))
    assert {p["BN"] for p in cands} == widths
    assert all(spec.valid(p) for p in cands)
    assert len({tuple(sorted(p.items())) for p in cands}) == len(cands)


def test_the_tuner_offers_decode_02_clusters_of_two_for_the_token_tiles_that_halve_into_whole_swizzle_atoms():
    # each block of a pair sharing the tokens loads half of their tile: BN 144 halves into 72 rows,
    # BN 72 into 36; a pair sharing W loads half of W's tile, at every BN
    cands = search.candidates(catalog.get(WGMMA), "col", shape=(136, 4096, 4096))
    assert {p["BN"] for p in cands if p["CLUSTER"] == 2 and not p["SHARE_W"]} == {64, 144}
    assert {p["BN"] for p in cands if p["CLUSTER"] == 2 and p["SHARE_W"]} == {64, 72, 144}
    assert {p["BN"] for p in cands if p["CLUSTER"] == 1} == {64, 72, 144}
    assert all(p["CLUSTER"] == 2 for p in cands if p["SHARE_W"])


@pytest.mark.parametrize("kernel", [WGMMA, "hopper/06_tma_store_epilogue"])
def test_the_tuner_offers_a_cluster_or_stream_k_once_whatever_the_k_split_they_never_make(kernel):
    # clusters and stream-K never take SPLITS' K split (catalog.hopper.last_wave): SPLITS = 0 and 1
    # are the same launch there
    spec = catalog.get(kernel)
    cands = search.candidates(spec, "col", shape=(136, 4096, 4096) if kernel == WGMMA else None)
    unsplit = [p for p in cands if p["CLUSTER"] > 1 or p.get("STREAM_K", 0)]
    assert unsplit and {p["SPLITS"] for p in unsplit} == {spec.params["SPLITS"]}
    assert {p["SPLITS"] for p in cands if p not in unsplit} == set(spec.tuning["SPLITS"])



    spec = catalog.get(WGMMA)
    assert {p["BN"] for p in search.candidates(spec, "col")} == {spec.params["BN"]}


def test_the_rules_choice_the_tuner_times_is_what_auto_runs_with_the_parameters_that_follow_from_the_shape():
    # decode/02's rules for 1-16 rows name no BN: auto runs the shape's 32 tokens a tile, and so
    # does the tuner's copy of the rules' choice (not the spec's default of 64)
    spec = catalog.get(WGMMA)
    decode = tuning_table.Problem(16, 4096, 4096, "bfloat16", "bfloat16", "row", "row")
    ruled = search.rule_choice(spec, decode, 90, H100)
    assert ruled is not None and ruled["BN"] == 32 and ruled["BM"] == 64
    wide = tuning_table.Problem(136, 4096, 4096, "bfloat16", "bfloat16", "row", "col")
    assert search.rule_choice(spec, wide, 90, H200)["BN"] == 72  # the H200's two tiles of tokens


def test_rung_06s_tuning_space_offers_176_wide_tiles_only_for_a_column_major_b():
    # 128 x 176 tiles read B K-major only (KernelSpec.b_layouts_of): for a row-major B they would
    # time a copy of B as well, so the tuner leaves them out there; in single blocks and clusters of two
    spec = catalog.get(K6)
    col, row = search.candidates(spec, "col"), search.candidates(spec, "row")
    assert {p["CLUSTER"] for p in col if p["BN"] == 176} == {1, 2}
    assert not any(p["BN"] == 176 for p in row)
    assert [p for p in col if p["BN"] != 176] == row
    assert search.candidates(spec) == col  # without a layout: the whole valid space


def test_the_rules_choice_is_a_finalist_however_its_rough_time_came_out():
    rough = [({"X": i}, t) for i, t in enumerate([3.0, 1.0, 2.0, 5.0, 4.0])]
    finals, dropped = search.split_finalists(rough, 2, ruled={"X": 3})
    assert finals == [{"X": 1}, {"X": 2}, {"X": 3}]  # the two fastest, then the rules' (the slowest)
    assert dropped == [({"X": 0}, 3.0), ({"X": 4}, 4.0)]
    assert search.split_finalists(rough, 2) == ([{"X": 1}, {"X": 2}], [({"X": 0}, 3.0), ({"X": 4}, 4.0),
                                                                      ({"X": 3}, 5.0)])


def test_rung_06_runs_the_remembered_choice_and_otherwise_the_rules(table):
    spec = catalog.get(K6)
    rules = {"CLUSTER": 2, "HOLD": 1}
    assert tuning_table.choose(spec, LINEAR_4096, {}, rules)[0] == spec.resolve(rules)
    tuned = spec.resolve({"BM": 256, "BN": 128, "CLUSTER": 2})
    tuning_table.remember(spec, LINEAR_4096, tuned, 0.17)
    assert tuning_table.choose(spec, LINEAR_4096, {}, rules)[0] == tuned
    assert tuning_table.choose(spec, LINEAR_4096, {"HOLD": 1}, rules)[0] == spec.resolve({"HOLD": 1})


def test_problem_keys_separate_dtypes_layouts_and_shapes():
    keys = {tuning_table.Problem(1, 2, 3, d, d, la, lb).key(SPEC)
            for d in ("float16", "bfloat16") for la in ("row", "col") for lb in ("row", "col")}
    assert len(keys) == 8


def test_precompile_fills_the_cache_and_this_process_in_threads(fresh_cache):
    from warpgemm.runtime import compile_kernel, compiler

    spec = catalog.get("sgemm/02_smem_sliced_k")
    cands = [spec.resolve({"BK": bk}) for bk in (8, 16)]
    problem = tuning_table.Problem(64, 64, 64, "float32", "float32", "row", "col")
    assert search.precompile(spec, cands, problem, "sm_80", workers=2) == [None, None]
    assert len(list(fresh_cache.glob("*/*.cubin-entry"))) == 2
    assert len(compiler._loaded) == 2  # loaded here too: timing them compiles and reads nothing
    compiler.forget_loaded()
    for p in cands:
        inst = spec.instance("row", "col", params=p)
        assert compile_kernel(inst.source, inst.name_expression, "sm_80").from_cache


def test_precompile_returns_each_candidates_compile_error(fresh_cache):
    spec = catalog.get("hopper/06_tma_store_epilogue")
    cands = [spec.resolve({}), spec.resolve({"BN": 136})]  # 136: not a width rung 06's copies take
    problem = tuning_table.Problem(256, 256, 256, "bfloat16", "bfloat16", "row", "col")
    errors = search.precompile(spec, cands, problem, "sm_90a", workers=2)
    assert errors[0] is None
    assert errors[1] is not None and "static_assert" in errors[1]


def test_precompile_needs_no_main_guard_in_the_callers_script(tmp_path):
    # Worker processes started by `spawn` import the caller's main module again; a script without
    # an `if __name__ == "__main__"` guard then ran once in each worker, and the pool broke.
    import os
    import subprocess
    import sys

    script = tmp_path / "tune_without_a_guard.py"
    script.write_text(
        "from warpgemm import catalog\n"
        "from warpgemm.tuning import search, table\n"
        "spec = catalog.get('sgemm/02_smem_sliced_k')\n"
        "cands = [spec.resolve({'BK': bk}) for bk in (8, 16)]\n"
        "problem = table.Problem(64, 64, 64, 'float32', 'float32', 'row', 'col')\n"
        "print('errors', search.precompile(spec, cands, problem, 'sm_80', workers=2))\n")
    env = {**os.environ, "WARPGEMM_CACHE": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines() == ["errors [None, None]"]


def test_remembering_a_choice_keeps_the_other_entries(table):
    table.parent.mkdir(parents=True)
    other = tuning_table.Problem(1, 2, 3, "float16", "float16", "row", "row")
    table.write_text(json.dumps({other.key(SPEC): {"params": dict(SPEC.params)}}))
    tuning_table.remember(SPEC, PROBLEM, {"BM": 64, "BN": 64, "STAGES": 2}, 1.5, candidates=8)
    assert tuning_table.lookup(SPEC, other) == dict(SPEC.params)
    assert tuning_table.lookup(SPEC, PROBLEM) == {"BM": 64, "BN": 64, "STAGES": 2}
    assert json.loads(table.read_text())[PROBLEM.key(SPEC)]["ms"] == 1.5


@pytest.mark.gpu
def test_tuning_a_real_kernel_times_each_candidate_and_remembers_the_fastest(table):
    torch = pytest.importorskip("torch")
    import warpgemm

    spec = catalog.get("hgemm/07_tuned")
    space = [dict(BM=64, BN=128, BK=32, WM=32, WN=64, STAGES=2, SWIZZLE=1),
             dict(BM=128, BN=128, BK=64, WM=64, WN=64, STAGES=3, SWIZZLE=8),
             dict(BM=128, BN=256, BK=64, WM=64, WN=64, STAGES=3, SWIZZLE=8)]
    result = search.tune("hgemm/07_tuned", 1000, 1500, 700, dtype=torch.bfloat16, b_layout="col", runs=3,
                       finalists=2, space=space)
    assert [t is not None for _, t, _ in result.tried] == [True] * 3
    notes = [note for _, _, note in result.tried]
    assert notes.count("") == 2 and sum(n.startswith("rough time only") for n in notes) == 1
    assert result.params in [spec.resolve(p) for p in space]
    assert result.ms == min(t for _, t, note in result.tried if not note) > 0
    problem = tuning_table.Problem(1000, 1500, 700, "bfloat16", "bfloat16", "row", "col")
    assert tuning_table.lookup(spec, problem) == result.params
    a = torch.randn(1000, 700, device="cuda").bfloat16()
    b = torch.randn(1500, 700, device="cuda").bfloat16().t()
    out = warpgemm.matmul(a, b, kernel="hgemm/07_tuned")  # runs the remembered choice
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2


def _record_launches(monkeypatch) -> list[dict[str, int]]:
    """The parameters of every instance matmul launches from now on (no plan kept from before)."""
    from warpgemm import api, plan

    ran, real = [], api.run_instance

    def recording(inst, *args):
        ran.append(dict(inst.params))
        real(inst, *args)

    monkeypatch.setattr(api, "run_instance", recording)
    plan.clear()
    return ran


@pytest.mark.gpu
def test_after_tuning_rung_06_auto_runs_the_remembered_choice(table, monkeypatch):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("rung 06 runs on compute capability 9.0 only")
    import warpgemm

    spec = catalog.get(K6)
    space = [{"BN": 128, "STAGES": 3}, {"BN": 128, "STAGES": 4, "GROUP": 16}]
    result = search.tune(K6, 2048, 2048, 1024, dtype=torch.bfloat16, b_layout="col", runs=3, finalists=2,
                         space=space)
    assert result.params in [spec.resolve(p) for p in space]
    ran = _record_launches(monkeypatch)
    a = torch.randn(2048, 1024, device="cuda").bfloat16()
    b = torch.randn(2048, 1024, device="cuda").bfloat16().t()
    out = warpgemm.matmul(a, b)  # kernel="auto": the rules send this shape to rung 06
    assert ran == [result.params]
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2


def test_an_empty_search_space_is_refused(table):
    with pytest.raises(ValueError, match="search space is empty"):
        search.tune("hgemm/07_tuned", 64, 64, 64, space=[])


def test_the_tune_command_says_whether_matmul_runs_the_saved_choices_by_itself():
    from warpgemm.cli import _tune_saved_note

    assert "warpgemm.matmul runs them" in _tune_saved_note(catalog.get(K6), "t.json")
    assert "warpgemm.matmul runs them" in _tune_saved_note(catalog.get(WGMMA), "t.json")
    note = _tune_saved_note(catalog.get("decode/01_swap_ab_splitk"), "t.json")
    assert "not autotuned" in note and "kernel='decode/01_swap_ab_splitk'" in note


def test_decode_02_keeps_the_remembered_token_tile_where_the_shape_would_set_another(table):
    # the tuner timed BN = 72 (two tiles of 68 tokens) at this very shape: the shape's default
    # (BN = 64 past 32 tokens) must not replace it, nor any other remembered parameter
    spec = catalog.get(WGMMA)
    problem = tuning_table.Problem(136, 4096, 4096, "bfloat16", "bfloat16", "row", "col")
    tuned = spec.resolve({"BN": 72, "BM": 64, "BK": 64, "STAGES": 8})
    tuning_table.remember(spec, problem, tuned, 0.015)
    p, kept = tuning_table.choose(spec, problem, {}, {"BM": 128, "STAGES": 4})
    assert spec.fill_shape_params(p, kept, 136, 4096, 4096) == tuned
    other = tuning_table.Problem(137, 4096, 4096, "bfloat16", "bfloat16", "row", "col")
    p, kept = tuning_table.choose(spec, other, {}, {"BM": 128, "STAGES": 4})
    assert spec.fill_shape_params(p, kept, 137, 4096, 4096)["BN"] == 64  # untuned: the rule, then the shape


def test_the_tuners_candidates_for_an_a_the_kernel_copies_are_those_of_the_layout_it_copies_it_into():
    # decode/02 reads a row-major A only: a column-major one is copied into row-major first, and
    # the candidates are those that read the B in place after it
    spec = catalog.get(WGMMA)
    assert search.candidates(spec, "col", "col", (136, 4096, 4096)) == search.candidates(spec, "col", "row",
                                                                                          (136, 4096, 4096))


@pytest.mark.gpu
def test_after_tuning_decode_02_matmul_runs_the_remembered_token_tile(table, monkeypatch):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("decode/02 runs on compute capability 9.0 only")
    import warpgemm

    space = [{"BN": 72, "BM": 64, "BK": 64, "STAGES": 8}, {"BN": 144, "BM": 64, "BK": 64, "STAGES": 8}]
    result = search.tune(WGMMA, 136, 4096, 4096, dtype=torch.bfloat16, b_layout="col", runs=3, finalists=2,
                         space=space)
    assert result.params["BN"] in (72, 144)  # one of the two (an explicit space leaves the rules' choice out)
    ran = _record_launches(monkeypatch)
    x = torch.randn(136, 4096, device="cuda").bfloat16()
    w = torch.randn(4096, 4096, device="cuda").bfloat16()
    out = warpgemm.matmul(x, w.t(), kernel=WGMMA)
    assert ran == [result.params]
    ref = x.double() @ w.double().t()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2
