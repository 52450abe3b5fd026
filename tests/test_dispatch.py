"""kernel="auto" as data: which kernel each rule sends a problem to."""

from __future__ import annotations

import pytest

from warpgemm import catalog, dispatch
from warpgemm.dispatch import Rule


def test_every_rule_names_a_kernel_that_reads_its_dtype_and_runs_on_its_arch():
    for rule in dispatch.RULES:
        spec = catalog.get(rule.kernel)
        assert rule.dtype in spec.in_dtypes
        assert spec.min_capability <= rule.capability[0], rule
        assert spec.runs_on(rule.capability[0]), rule
        if rule.capability[1] != dispatch.INF:
            assert spec.runs_on(rule.capability[1]), rule
        spec.resolve(rule.params)


def test_every_rules_parameters_are_a_combination_its_kernel_compiles():
    # The spec's `valid` is its template's static_asserts; the parameters that follow from the
    # shape (shape_params) are taken at the corners of the rule's M bucket.
    for rule in dispatch.RULES:
        spec = catalog.get(rule.kernel)
        if spec.valid is None:
            continue
        for m in {max(rule.m[0], 1), min(rule.m[1], 8192)}:
            p = spec.fill_shape_params(spec.resolve(rule.params), rule.params, m, max(rule.n[0], 1), max(rule.k[0], 1))
            assert spec.valid(p), (rule, m, p)


@pytest.mark.parametrize("dtype,precision,capability,kernel", [
    ("bfloat16", None, 90, "hopper/06_tma_store_epilogue"),
    ("float16", None, 90, "hopper/06_tma_store_epilogue"),
    ("bfloat16", None, 89, "hgemm/07_tuned"),
    ("float16", None, 80, "hgemm/07_tuned"),
    ("bfloat16", None, 100, "hgemm/07_tuned"),  # the wgmma rungs are sm_90a code: Hopper only
    ("float32", "ffma", 90, "sgemm/07_cp_async"),
    ("float32", "tf32", 90, "sgemm/08_tf32_mma"),
    ("float32", "ffma", 75, "sgemm/06_k16_double_buffer"),
    ("float32", "tf32", 75, "sgemm/06_k16_double_buffer"),  # no TF32 before sm_80: FFMA, exact
])
def test_the_shipped_rules(dtype, precision, capability, kernel):
    assert dispatch.choose(capability, dtype, 4096, 4096, 4096, precision).kernel == kernel


def test_the_first_matching_rule_wins_and_buckets_are_closed_ranges():
    rules = (Rule("hgemm/07_tuned", "bfloat16", m=(1, 64), params={"BM": 64}),
             Rule("hgemm/06_fragment_double_buffer", "bfloat16"))
    assert dispatch.choose(90, "bfloat16", 64, 4096, 4096, rules=rules).params == {"BM": 64}
    assert dispatch.choose(90, "bfloat16", 65, 4096, 4096, rules=rules).kernel == "hgemm/06_fragment_double_buffer"


def test_no_matching_rule_is_a_clear_error():
    with pytest.raises(ValueError, match=r"no kernel for float16 inputs on a device of compute capability 7\.5"):
        dispatch.choose(75, "float16", 16, 16, 16)


def test_a_rule_measured_for_a_named_gpu_matches_only_devices_of_that_name():
    rules = (Rule("hgemm/07_tuned", "bfloat16", params={"BM": 64}, device="H200"),
             Rule("hgemm/07_tuned", "bfloat16", params={"BM": 128}))
    assert dispatch.choose(90, "bfloat16", 16, 4096, 4096, rules=rules, device="NVIDIA H200").params == {"BM": 64}
    assert dispatch.choose(90, "bfloat16", 16, 4096, 4096, rules=rules, device="NVIDIA GH200 480GB").params == {"BM": 64}
    assert dispatch.choose(90, "bfloat16", 16, 4096, 4096, rules=rules,
                           device="NVIDIA H100 80GB HBM3").params == {"BM": 128}
    assert dispatch.choose(90, "bfloat16", 16, 4096, 4096, rules=rules).params == {"BM": 128}


def test_a_rule_measured_on_several_gpus_names_each_and_matches_any_of_them():
    rules = (Rule("hgemm/07_tuned", "bfloat16", params={"BM": 64}, device=("H100 80GB HBM3", "H200")),
             Rule("hgemm/07_tuned", "bfloat16", params={"BM": 128}))
    for name in ("NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA GH200 480GB"):
        assert dispatch.choose(90, "bfloat16", 16, 4096, 4096, rules=rules, device=name).params == {"BM": 64}
    for name in ("NVIDIA H100 PCIe", ""):
        assert dispatch.choose(90, "bfloat16", 16, 4096, 4096, rules=rules, device=name).params == {"BM": 128}


@pytest.mark.parametrize("m,n,k,kernel,params", [
    # The H200's decode choices (docs/results/decode_sweep_h200.json; 2-32 rows of the larger
    # weights and 9-32 of the narrow ones from decode_sweep_wgmma_turned_h200.json) ...
    (1, 14336, 1024, "decode/01_swap_ab_splitk", {"ROW_GROUPS": 2, "WARPS": 8}),
    (4, 6144, 1024, "decode/02_swap_ab_wgmma", {"BM": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
    (8, 8192, 8192, "decode/02_swap_ab_wgmma", {"BM": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
    (4, 4096, 1024, "decode/01_swap_ab_splitk", {"ROW_GROUPS": 1, "WARPS": 16}),
    (1, 4096, 1024, "decode/01_swap_ab_splitk", {"ROW_GROUPS": 1, "WARPS": 16}),
    # ... one token with K >= 2048 on rung 03 (row_sweep_m1_*_h200.json), 2-8 on rung 04
    # (row_sweep_mma_*_h200.json), 33-64 rows of 2560-4224-row weights unsplit
    # (unsplit_m33_64_*_h200.json) ...
    (1, 4096, 4096, "decode/03_row_sweep", {"THREADS": 256, "ROWS": 2, "UNROLL": 2, "BLOCKS": 8}),
    (1, 32000, 4096, "decode/03_row_sweep", {"THREADS": 256, "ROWS": 2, "UNROLL": 2, "BLOCKS": 8}),
    (1, 8192, 28672, "decode/03_row_sweep", {"THREADS": 256, "ROWS": 2, "UNROLL": 2, "BLOCKS": 8}),
    (2, 4096, 4096, "decode/04_row_sweep_mma", {"STAGES": 2}),
    (4, 8192, 1536, "decode/04_row_sweep_mma", {"STAGES": 2}),
    (8, 14336, 4096, "decode/04_row_sweep_mma", {"STAGES": 2}),
    (2, 4096, 14336, "decode/01_swap_ab_splitk", {"ROW_GROUPS": 1, "WARPS": 16, "STAGGER": 8}),
    (8, 28672, 8192, "decode/01_swap_ab_splitk", {"ROW_GROUPS": 1, "WARPS": 16, "STAGGER": 8}),
    (36, 3072, 3072, "decode/02_swap_ab_wgmma", {"BM": 64, "BN": 40, "SPLITS": 1, "STAGGER": 8}),
    (64, 4096, 1024, "decode/02_swap_ab_wgmma", {"BM": 64, "BN": 64, "STAGES": 6, "SPLITS": 1, "STAGGER": 8}),
    (64, 4096, 4096, "decode/02_swap_ab_wgmma", {"BM": 64, "BN": 32, "BK": 128, "STAGES": 8, "CLUSTER": 2,
                                                 "SHARE_W": 1}),
    (49, 2048, 2048, "decode/02_swap_ab_wgmma", {"BN": 32, "CLUSTER": 2, "SHARE_W": 1}),
    (16, 4096, 14336, "decode/02_swap_ab_wgmma", {"BM": 64, "BK": 128, "STAGES": 8, "STAGGER": 8}),
    # ... tiles of 16 tokens at 9-16 rows, and at 2-8 rows of 4225-12287-row weights with K past
    # 4096 (token_tile16_*_h200.json) ...
    (12, 14336, 4096, "decode/02_swap_ab_wgmma", {"BM": 128, "BN": 16}),
    (9, 4096, 4096, "decode/02_swap_ab_wgmma", {"BM": 64, "BN": 16, "SPLITS": 1}),
    (8, 8192, 8192, "decode/02_swap_ab_wgmma", {"BM": 128, "BN": 16, "STAGGER": 8}),
    (5, 4352, 16384, "decode/02_swap_ab_wgmma", {"BM": 64, "BK": 64, "STAGES": 8, "BN": 16}),
    (2, 4608, 6144, "decode/02_swap_ab_wgmma", {"BM": 64, "BK": 64, "STAGES": 16, "SPLITS": 1, "BN": 16}),
    (8, 5120, 8192, "decode/02_swap_ab_wgmma", {"BM": 128, "BN": 16}),
    # ... clusters of four sharing the tokens at 17-32 and 49-64 rows of 5632-7168-row weights
    # (cluster4_*_h200.json) ...
    (64, 6144, 4096, "decode/02_swap_ab_wgmma", {"BM": 64, "BN": 64, "BK": 128, "CLUSTER": 4, "STAGGER": 8}),
    (17, 7168, 3969, "decode/02_swap_ab_wgmma", {"BM": 64, "BN": 32, "BK": 128, "CLUSTER": 4, "STAGGER": 8}),
    (16, 28672, 8192, "decode/02_swap_ab_wgmma", {"BM": 64, "SPLITS": 0, "STAGGER": 8}),
    (16, 8192, 28672, "decode/02_swap_ab_wgmma", {"BM": 64, "BK": 64, "STAGES": 8}),
    (32, 4096, 4096, "decode/02_swap_ab_wgmma", {"BM": 64, "STAGES": 8, "SPLITS": 1, "STAGGER": 8}),
    (32, 8192, 8192, "decode/02_swap_ab_wgmma", {"BM": 64, "STAGES": 6}),
    (64, 14336, 4096, "decode/02_swap_ab_wgmma", {"BM": 128, "STAGES": 4}),
])
def test_the_h200_has_decode_rules_of_its_own(m, n, k, kernel, params):
    linear = ("row", "col")
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=linear, device="NVIDIA H200")
    assert rule.kernel == kernel and rule.device == "H200"
    assert {key: rule.params[key] for key in params} == params
    h100 = dispatch.choose(90, "bfloat16", m, n, k, layouts=linear, device="NVIDIA H100 80GB HBM3")
    assert h100.device is None  # the H100's rules serve every other sm_90 device


@pytest.mark.parametrize("m,n,k", [
    (1, 4096, 1024), (1, 1000, 4096),  # rung 01 kept its lead at K = 1024; below 1024 rows: not measured
    (8, 8192, 2048), (5, 8192, 1536), (2, 8192, 8192), (16, 4096, 4096), (4, 4096, 1024),  # rung 04 behind
    (64, 2048, 4096), (40, 4096, 8192), (64, 5120, 5120), (64, 1024, 4096),  # unsplit tiles behind or level
    (50, 2816, 4096), (62, 2560, 4096),  # behind at 2816 rows in a check: the rule starts at 3072
])
def test_the_h200s_row_sweeps_and_unsplit_tiles_stop_where_they_were_measured_to_lose(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel not in ("decode/03_row_sweep", "decode/04_row_sweep_mma")
    assert not (rule.params.get("SPLITS") == 1 and 33 <= m <= 64)


@pytest.mark.parametrize("m,n,k", [
    (48, 4096, 4096), (44, 2048, 4096),  # one tile of 48 tokens holds them all (44 x 4096 x 4096: 1.03x against 0.96x)
    (56, 4096, 1024), (64, 4096, 2047),  # behind at 50-56 rows with K = 1024
    (64, 6144, 4096), (64, 5120, 5120), (64, 4225, 4096),  # more clusters than SMs
    (64, 2047, 4096), (64, 4096, 4097),  # not measured
    (72, 2048, 8192), (96, 6144, 4096), (128, 8192, 8192),  # 65-128 rows: behind
    (160, 4096, 14336), (192, 2048, 4096), (193, 4096, 4096),  # 129-192 rows: behind, or past them
    (72, 4096, 2048), (100, 4096, 16384),  # 65-128 rows: not measured
])
def test_the_h200s_clusters_sharing_w_stop_where_they_were_measured_to_lose(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert not rule.params.get("SHARE_W")


@pytest.mark.parametrize("m,n,k", [
    (16, 6144, 4096), (33, 6144, 4096), (48, 5632, 4096), (65, 6144, 4096),  # other rows: one tile or behind
    (64, 4608, 4096), (32, 7680, 4096), (64, 5120, 4096),  # 4608 and 7680 rows behind, 5120 level
    (64, 6656, 3072), (24, 7168, 3584), (64, 6144, 3968), (32, 6144, 5120),  # K of 3072-3584 level or behind; 5120 level
])
def test_the_h200s_clusters_of_four_stop_where_they_were_measured_to_lose(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.params.get("CLUSTER", 1) != 4


@pytest.mark.parametrize("m,n,k", [(8, 14336, 1024), (4, 6144, 1024), (17, 4096, 4096), (32, 8192, 8192)])
def test_the_h200s_tiles_of_16_tokens_stop_where_they_were_not_measured(m, n, k):
    # 2-8 rows with K up to 4096 (rung 04 takes most of them; the rest were not measured with 16
    # tokens a tile), and past 16 rows, where a tile of 16 would not hold them
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.params.get("BN", 32) != 16


@pytest.mark.parametrize("m,n,k", [(5, 4096, 14336), (7, 28672, 8192), (2, 2048, 16384), (8, 8192, 8192),
                                   (4, 4096, 4096), (1, 4096, 8192)])
def test_the_h200s_staggered_walk_of_rung_01_stops_at_5_to_7_rows_and_at_the_weights_it_lost_on(m, n, k):
    # stagger_m4_7_h200.json: behind the walk in step at 5-7 rows of every weight measured
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.params.get("STAGGER", 1) == 1 or rule.kernel != "decode/01_swap_ab_splitk"


@pytest.mark.parametrize("m,n,k,params", [
    # docs/results/decode_sweep_cold_h100.json: every candidate on weights of its own
    # and, up to 8 rows, the walk over k staggered in 8 bands (docs/decode.md, "In step")
    (2, 14336, 4096, {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    (4, 14336, 4096, {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    (8, 28672, 4096, {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    (1, 4096, 1024, {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    (16, 8192, 16384, {"ROW_GROUPS": 4, "WARPS": 16, "UNROLL": 1, "L2_256B": 1}),
    (16, 6144, 6000, {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1}),
    # docs/results/decode_sweep_k2048_h100.json: a wide weight of short rows (an MLP's gate and up
    # projections at hidden size 2048), with the 256-byte L2 fetch; at K = 1025-2048 and 2-16 rows
    # rung 04 has taken over (below)
    (1, 8192, 2047, {"ROW_GROUPS": 1, "WARPS": 8, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    (8, 10240, 1024, {"ROW_GROUPS": 1, "WARPS": 8, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    # docs/results/decode_sweep_16_k2048_h100.json: 9-16 rows there, both too (1.00x-1.05x cuBLAS
    # against 0.80x-0.99x without)
    (16, 8192, 2048, {"ROW_GROUPS": 1, "WARPS": 8, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
    (9, 10240, 2048, {"ROW_GROUPS": 1, "WARPS": 8, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
])
def test_the_h100_decode_rules_give_the_measured_choice(m, n, k, params):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "decode/01_swap_ab_splitk" and rule.params == params


@pytest.mark.parametrize("m", [3, 4, 6, 8])
def test_three_to_eight_rows_of_a_narrow_weight_with_a_long_k_stagger_their_walk_on_an_h100(m):
    # docs/results/decode_sweep_nosplit_stagger_h100.json: 43.2-43.6 us at 3-6 x 4096 x 14336 in 8
    # bands, 44.3-46.4 us in step (cuBLAS 45.4-45.5 us)
    rule = dispatch.choose(90, "bfloat16", m, 4096, 14336, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "decode/02_swap_ab_wgmma"
    assert rule.params == {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "SPLITS": 1, "STAGGER": 8}


_H200_WIDE_SINGLE = {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}
_H200_WIDE_CLUSTERS = {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1, "CLUSTER": 2, "STAGGER": 8}


@pytest.mark.parametrize("m,n,k,params", [
    # docs/results/m33_64_wide_sweep_h200.json, x cuBLAS in graph replays against the rules before
    # in the same rounds: 0.97x against 0.79x, 0.98x against 0.88x, 1.01x against 0.95x; in
    # clusters 1.00x against 0.83x, 1.06x against 1.04x
    (33, 14336, 8192, _H200_WIDE_SINGLE), (40, 16384, 8192, _H200_WIDE_SINGLE), (40, 12288, 6144, _H200_WIDE_SINGLE),
    (33, 28672, 8192, _H200_WIDE_CLUSTERS), (64, 28672, 6144, _H200_WIDE_CLUSTERS),
    # m33_64_wide_rule_check_h200.json: 0.95x against 0.78x, 0.98x against 0.82x; where the pairs
    # fill their last wave less (22016: 65%) single blocks 0.92x-0.94x against clusters' 0.87x
    (36, 13824, 5120, _H200_WIDE_SINGLE), (36, 32000, 8192, _H200_WIDE_CLUSTERS),
    (44, 22016, 8192, _H200_WIDE_SINGLE), (60, 24576, 8192, _H200_WIDE_SINGLE), (50, 18432, 8192, _H200_WIDE_SINGLE),
    # m33_64_wide_rule_check2_h200.json: 0.92x against 0.77x, 1.01x against 0.83x; at 79% of the
    # last wave (26624) clusters 0.99x-1.04x against single blocks' 0.93x-0.97x
    (34, 14336, 6144, _H200_WIDE_SINGLE), (34, 30720, 8192, _H200_WIDE_CLUSTERS), (42, 26624, 8192, _H200_WIDE_CLUSTERS)])
def test_the_h200_takes_128_row_tiles_of_w_at_33_to_64_rows_of_wide_weights_with_k_to_8192(m, n, k, params):
    # in clusters of two where the pairs of tiles fill their last wave to 75% or more
    assert (params == _H200_WIDE_CLUSTERS) == dispatch.pairs_of_w_tiles_fill_their_waves(m, n, k)
    for dtype in ("bfloat16", "float16"):
        rule = dispatch.choose(90, dtype, m, n, k, layouts=("row", "col"), device="NVIDIA H200")
        assert rule.kernel == "decode/02_swap_ab_wgmma" and rule.params == params and rule.device == "H200"
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100).params != params
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "row"), device="NVIDIA H200").params != params


@pytest.mark.parametrize("m,n,k", [
    (32, 28672, 8192),    # 17-32 rows keep their rule (64-row tiles, eight stages, staggered)
    (48, 28672, 8193),    # longer K than measured
    (48, 40960, 8192),    # wider than measured
    (65, 28672, 8192)])   # past 64 rows
def test_the_h200_keeps_its_other_choices_outside_the_wide_weights_measured_at_33_to_64_rows(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.params not in (_H200_WIDE_SINGLE, _H200_WIDE_CLUSTERS)


_H200_128_ROWS = {"BM": 64, "BK": 128, "STAGES": 7, "IN_FLIGHT": 1, "SPLITS": 1}


@pytest.mark.parametrize("m,n,k", [
    # decode_m128_rule_check_h200.json, shapes it was not drawn from: 0.88x against 0.74x, 1.03x
    # against 0.78x. (Its sweep's 128 x 4096 x 4096 and the check's 120 x 3072 x 4096, 120 x 4096 x
    # 8192 and 113 x 4096 x 11007 went to the clusters sharing W, measured later: 128 x 4096 x 4096
    # 1.12x against 1.03x, share_w_m72_128_h200.json.)
    (128, 2048, 4096), (120, 4096, 2048)])
def test_the_h200_takes_64_row_tiles_of_w_at_113_to_128_rows_of_narrow_weights(m, n, k):
    for dtype in ("bfloat16", "float16"):
        rule = dispatch.choose(90, dtype, m, n, k, layouts=("row", "col"), device="NVIDIA H200")
        assert rule.kernel == "decode/02_swap_ab_wgmma" and rule.params == _H200_128_ROWS and rule.device == "H200"
    h100 = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert h100.params == {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}  # the H100 keeps its own
    row_b = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "row"), device="NVIDIA H200")
    assert row_b.params != _H200_128_ROWS  # measured in the Linear layout only


@pytest.mark.parametrize("m,n,k", [
    (112, 4096, 8192),    # 0.93x against 0.94x at 112 x 4096 x 11008: from 112 rows down it lost
    (104, 4096, 8192),    # 0.90x against 0.93x
    (96, 4096, 14336),    # 0.71x against 0.87x
    (128, 6144, 4096),    # 0.76x against 0.85x: 96 tiles of 64 rows a token tile, 192 blocks
    (128, 8192, 8192),    # 0.81x against 0.89x
    (128, 4096, 16384),   # past decode/02's K
    (128, 4096, 4096)])   # (the H100: its own rule)
def test_the_h200_takes_decode_02s_64_row_tiles_of_w_only_inside_the_rows_and_widths_measured(m, n, k):
    device = "NVIDIA H100 80GB HBM3" if (m, n, k) == (128, 4096, 4096) else "NVIDIA H200"
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=device)
    assert rule.params != _H200_128_ROWS


def _as_on_the_h100(m: int, n: int, k: int, h100_rule: dispatch.Rule) -> bool:
    """Whether an H200 runs the H100 SXM's choice for an M x N x K bf16 Linear problem: the rules
    measured on the H100 SXM from 65 rows serve the H200 too (both have 132 SMs; on an H200 they
    were level or faster at every shape of the square and llm suites,
    docs/results/hopper_rules_as_h100_h200.json), except where the H200 takes 128 x 176 tiles
    (384 to 1024 rows, and clusters of them from 2048, where they fill the waves) and, at 113-128
    rows with N of 2048-4096, decode/02's 64-row tiles of W, and at 65-192 rows decode/02 with
    every token in one tile or rung 06 in tiles of 64 rows with deep rings where they were measured
    faster: rules of its own."""
    h200 = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    own = _h200_at_65_to_192_rows(m, n, k)
    if own is not None:
        return (h200.kernel, h200.params) == own
    if 113 <= m <= 128 and 2048 <= n <= 4096 and k <= 16383:
        return h200.params == _H200_128_ROWS
    if 384 <= m <= 1024 and n > 4096 and dispatch.fuller_waves_at_bn176(m, n, k):
        return h200.params == {"BN": 176}
    if m >= 2048 and n > 4096 and dispatch.fuller_cluster_waves_at_bn176(m, n, k):
        return h200.params == {"BN": 176, "CLUSTER": 2}
    return h200 is h100_rule


RUNG_06 = "hopper/06_tma_store_epilogue"
WGMMA = "decode/02_swap_ab_wgmma"


def _one_token_tile(m: int, bm: int) -> dict:
    """decode/02 with all ``m`` tokens in one tile of the narrowest atom that holds them (72, 80, 88,
    96, 144, 160, 176 or 192), tiles of ``bm`` rows of W and 64 k, the deepest ring that fits in 227
    KiB, a k-tile in flight."""
    bn = next(b for b in (72, 80, 88, 96, 144, 160, 176, 192) if m <= b)
    stages = {64: 8 if bn <= 160 else 7, 128: 8 if bn <= 96 else 6 if bn <= 160 else 5}[bm]
    return {"BM": bm, "BN": bn, "BK": 64, "STAGES": stages, "IN_FLIGHT": 1}


def _two_token_tiles(m: int) -> dict:
    """decode/02 with ``m`` tokens in two tiles of the narrowest atom that holds half of them,
    64-row tiles of W and 64 k, eight stages, a k-tile in flight."""
    bn = next(b for b in (40, 48, 56, 64, 72, 80, 88, 96) if 2 * b >= m)
    return {"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}


def _two_unsplit_token_tiles(m: int) -> dict:
    """The same two tiles of tokens unsplit, 128 k a stage, the deepest ring that fits in 227 KiB."""
    bn = _two_token_tiles(m)["BN"]
    return {"BM": 64, "BN": bn, "BK": 128, "STAGES": 7 if bn == 64 else 6 if bn <= 80 else 5, "IN_FLIGHT": 1,
            "SPLITS": 1}


def _two_shared_w_tiles(m: int) -> dict:
    """decode/02 with ``m`` tokens in two tiles of the narrowest atom that holds half of them, in a
    cluster of two sharing W, 64-row tiles of W and 128 k: seven stages up to 56 tokens a tile, six
    at 64 and 72, five wider."""
    bn = next(b for b in (40, 48, 56, 64, 72, 80, 88, 96) if 2 * b >= m)
    return {**dispatch._H200_SHARED_W, "BN": bn, "STAGES": 7 if bn < 64 else 6 if bn <= 72 else 5}


def _in_the_shared_w_bucket(m: int, n: int, k: int) -> bool:
    """65-128 rows of weights of 3072-4224 rows with K of 3072-14336, and 129-192 rows with K up to
    8192: the clusters sharing W."""
    return 3072 <= n <= 4224 and 3072 <= k <= (14336 if 65 <= m <= 128 else 8192) and 65 <= m <= 192


def _h200_at_65_to_192_rows(m: int, n: int, k: int) -> tuple[str, dict] | None:
    """The H200's own choice (kernel, params) for an M x N x K Linear problem at 65-192 rows, by the
    buckets measured (N and K as the sweeps and their checks bound them), or None outside them."""
    if _in_the_shared_w_bucket(m, n, k):
        return WGMMA, _two_shared_w_tiles(m)
    if 65 <= m <= 192 and not 97 <= m <= 128 and 4225 <= n <= 5632 and k >= 16384:  # 64-row tiles: idle SMs
        return WGMMA, _one_token_tile(m, 128)
    if 97 <= m <= 112 and 1024 <= n <= 4095 and 8193 <= k <= 16384:  # past the two tiles' K
        return WGMMA, {"BM": 128, "BN": 56, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}
    if 129 <= m <= 192 and 2048 <= n <= 4095 and k >= 8193:
        return WGMMA, _one_token_tile(m, 64)
    if 113 <= m <= 192 and 1024 <= n <= 2047 and 8193 <= k <= 16384:
        if m <= 128 and n >= 1440:  # one tile of 128 tokens
            return WGMMA, {"BM": 64, "BN": 128, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}
        return WGMMA, _two_token_tiles(m)
    if 65 <= m <= 96 and 1024 <= n <= 2047 and 8193 <= k <= 16384:
        return WGMMA, _one_token_tile(m, 64)
    if 65 <= m <= 192 and 128 <= n <= 1023 and 896 <= k <= 16384:  # weights under 1024 rows
        return WGMMA, _two_token_tiles(m)
    if k > 16383 and (97 <= m <= 128 or n < 2048):  # K past 16383: 65-96 and 129-192 rows of wide weights
        return None
    if 129 <= m <= 192 and 2048 <= n <= 4096 and k <= 8192:
        return WGMMA, _two_token_tiles(m)
    if 65 <= m <= 112 and 2048 <= n <= 4096 and 2048 <= k <= 4096:
        return WGMMA, _two_token_tiles(m)
    if 65 <= m <= 112 and 1024 <= n <= 2047 and 1024 <= k <= 8192:
        return WGMMA, _two_token_tiles(m)
    if 65 <= m <= 112 and 2048 <= n <= 4096 and 1024 <= k <= 2047:  # the gaps the two left
        return WGMMA, _two_token_tiles(m)
    if 97 <= m <= 112 and 2048 <= n <= 4096 and 4097 <= k <= 8192:
        return WGMMA, _two_token_tiles(m)
    if 113 <= m <= 192 and 1024 <= n <= 2047 and 1024 <= k <= 8192:
        return WGMMA, _two_unsplit_token_tiles(m) if k <= 3072 else _two_token_tiles(m)
    if 65 <= m <= 96 and 2048 <= n <= 4095 and k >= 4097:
        return WGMMA, _one_token_tile(m, 64)
    if 129 <= m <= 192 and 4096 <= n <= 32768:
        return WGMMA, _one_token_tile(m, 64 if n <= 8192 else 128)
    if 65 <= m <= 96 and (4096 <= n <= 12287 or 16385 <= n <= 32768):
        return WGMMA, _one_token_tile(m, 64 if n <= 12287 else 128)
    if 65 <= m <= 96 and 12288 <= n <= 16384:
        return RUNG_06, dispatch._H200_64X256_C2
    if 97 <= m <= 128 and n == 4096 and k >= 11008:
        return RUNG_06, dispatch._H200_128X64_S8
    if 97 <= m <= 128 and 5120 <= n <= 8192:
        return RUNG_06, dispatch._H200_64X128_C2
    return None


_H200_65_TO_192_ROWS = {
    # docs/results/m129_192_two_tiles_*_h200.json, x cuBLAS in graph replays of cold weights,
    # against the rules before in the same rounds: 1.01x against 0.91x, 1.04x against 0.91x; 0.96x
    # against 0.66x, 0.98x against 0.68x, 1.28x against 1.23x, 1.05x against 0.87x
    (136, 4096, 4096): (WGMMA, _two_token_tiles(136)), (184, 4096, 4096): (WGMMA, _two_token_tiles(184)),
    (144, 2048, 8192): (WGMMA, _two_token_tiles(144)), (160, 4096, 2048): (WGMMA, _two_token_tiles(160)),
    (192, 4096, 8192): (WGMMA, _two_token_tiles(192)), (160, 3072, 4096): (WGMMA, _two_token_tiles(160)),
    # m65_112_two_tiles_sweep_h200.json: 1.04x against 0.71x, 0.93x against 0.69x, 1.10x against
    # 0.94x, 1.07x against 1.02x, 0.99x against 0.82x
    (72, 3072, 4096): (WGMMA, _two_token_tiles(72)), (104, 4096, 2048): (WGMMA, _two_token_tiles(104)),
    (112, 4096, 4096): (WGMMA, _two_token_tiles(112)), (96, 4096, 4096): (WGMMA, _two_token_tiles(96)),
    (88, 2048, 4096): (WGMMA, _two_token_tiles(88)),
    # checked on other weights (m65_112_two_tiles_check_h200.json): 1.12x against 0.74x, 0.85x
    # against 0.66x, 0.90x against 0.73x
    (68, 3072, 3072): (WGMMA, _two_token_tiles(68)), (84, 3584, 3584): (WGMMA, _two_token_tiles(84)),
    (108, 4096, 3072): (WGMMA, _two_token_tiles(108)),
    # 1024-2047 rows of W (m65_112_narrow_two_tiles_sweep_h200.json): 1.13x against 0.81x, 0.92x
    # against 0.64x, 0.97x against 0.78x, 0.95x against 0.81x, 0.77x against 0.66x
    (68, 1024, 4096): (WGMMA, _two_token_tiles(68)), (68, 1536, 1536): (WGMMA, _two_token_tiles(68)),
    (84, 1792, 4096): (WGMMA, _two_token_tiles(84)), (110, 1024, 8192): (WGMMA, _two_token_tiles(110)),
    (100, 1024, 1024): (WGMMA, _two_token_tiles(100)),
    # the gaps at 89-96 rows and at 113-192 rows of narrow weights (m89_96_k_past_4096_*_h200.json,
    # m113_192_narrow_two_tiles_*_h200.json): one tile of 96 0.99x against 0.83x, 1.02x against
    # 0.80x, 0.97x against 0.78x, 1.03x against 0.84x; two tiles unsplit 1.11x against 0.69x,
    # 1.10x against 0.63x, 0.97x against 0.63x; split 0.95x against 0.76x, 1.19x against 0.97x
    (90, 2560, 10240): (WGMMA, _one_token_tile(90, 64)), (90, 3584, 14336): (WGMMA, _one_token_tile(90, 64)),
    (89, 2304, 12288): (WGMMA, _one_token_tile(89, 64)), (96, 3840, 8192): (WGMMA, _one_token_tile(96, 64)),
    (114, 1792, 1792): (WGMMA, _two_unsplit_token_tiles(114)), (140, 1024, 1024): (WGMMA, _two_unsplit_token_tiles(140)),
    (180, 1024, 1024): (WGMMA, _two_unsplit_token_tiles(180)),
    (140, 1280, 7168): (WGMMA, _two_token_tiles(140)), (144, 1152, 8192): (WGMMA, _two_token_tiles(144)),
    # past the two tiles' K on weights of 2048-4095 rows (m97_192_long_k_sweep_h200.json): one tile
    # 0.96x against 0.58x, 1.03x against 0.84x, 0.96x against 0.72x; two tiles of 56 on 128-row
    # tiles of W 0.91x against 0.84x
    (144, 3584, 14336): (WGMMA, _one_token_tile(144, 64)), (192, 3072, 11008): (WGMMA, _one_token_tile(192, 64)),
    (176, 2048, 16384): (WGMMA, _one_token_tile(176, 64)),
    (104, 2048, 16384): (WGMMA, {"BM": 128, "BN": 56, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}),
    # and on weights of 1024-2047 rows (m65_192_narrow_long_k_sweep_h200.json): one tile 0.95x
    # against 0.72x, two tiles of 56 on 128-row tiles 0.86x against 0.72x, two tiles 0.91x against 0.66x
    (68, 1792, 12288): (WGMMA, _one_token_tile(68, 64)),
    (104, 1152, 16384): (WGMMA, {"BM": 128, "BN": 56, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}),
    (144, 1152, 16384): (WGMMA, _two_token_tiles(144)),
    # the rows those left (m89_128_narrow_long_k_sweep_h200.json): one tile of 96 0.90x against
    # 0.69x; two tiles 0.93x against 0.71x; one tile of 128 0.90x against 0.79x
    (90, 1024, 16384): (WGMMA, _one_token_tile(90, 64)), (120, 1024, 16384): (WGMMA, _two_token_tiles(120)),
    (124, 1472, 16384): (WGMMA, {"BM": 64, "BN": 128, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}),
    # weights under 1024 rows (m65_192_narrow_weights_sweep_h200.json): 1.08x against 0.78x, 0.76x
    # against 0.62x, 1.32x against 1.13x
    (80, 896, 4864): (WGMMA, _two_token_tiles(80)), (120, 896, 896): (WGMMA, _two_token_tiles(120)),
    (160, 640, 8192): (WGMMA, _two_token_tiles(160)),
    # and under 512 rows (m65_192_narrow_weights_under_512_sweep_h200.json): 1.17x against 0.95x,
    # 0.74x against 0.63x
    (80, 256, 3584): (WGMMA, _two_token_tiles(80)), (140, 128, 896): (WGMMA, _two_token_tiles(140)),
    # K past 16383 (k_past_16383_sweep_h200.json): 1.04x against 0.84x, 1.11x against 0.91x, 0.97x
    # against 0.77x, 0.96x against 0.57x, 1.00x against 0.44x, 0.98x against 0.53x
    (72, 3584, 18944): (WGMMA, _one_token_tile(72, 64)), (72, 8192, 28672): (WGMMA, _one_token_tile(72, 64)),
    (80, 13824, 18944): (RUNG_06, dispatch._H200_64X256_C2), (136, 4096, 16384): (WGMMA, _one_token_tile(136, 64)),
    (160, 16384, 16384): (WGMMA, _one_token_tile(160, 128)), (184, 16384, 16384): (WGMMA, _one_token_tile(184, 128)),
    # and on 128-row tiles of W at 4225-5632 rows (k_past_16383_*_h200.json): 0.98x against 0.90x
    # on 64-row ones, 0.97x against 0.82x
    (88, 5120, 27648): (WGMMA, _one_token_tile(88, 128)), (190, 5120, 25600): (WGMMA, _one_token_tile(190, 128)),
    # one tile of 72-88 tokens where 96 ran before (m65_88_exact_token_tile_sweep_h200.json): 0.93x
    # against 0.70x, 0.98x against 0.78x, 1.10x against 0.87x, 0.91x against 0.73x, 0.94x against
    # 0.89x, 0.91x against 0.86x; 128-row tiles of W 1.01x against 0.98x, 0.95x both
    (68, 6144, 4096): (WGMMA, _one_token_tile(68, 64)), (68, 8192, 8192): (WGMMA, _one_token_tile(68, 64)),
    (68, 10240, 8192): (WGMMA, _one_token_tile(68, 64)), (76, 5120, 5120): (WGMMA, _one_token_tile(76, 64)),
    (80, 6144, 4096): (WGMMA, _one_token_tile(80, 64)), (84, 5120, 5120): (WGMMA, _one_token_tile(84, 64)),
    (68, 32000, 4096): (WGMMA, _one_token_tile(68, 128)), (84, 22016, 8192): (WGMMA, _one_token_tile(84, 128)),
    # the gaps at 65-112 rows of weights of 2048-4096 rows (m65_112_k_gap_sweep_h200.json): two
    # tiles 1.02x against 0.61x, 0.86x against 0.62x, 0.98x against 0.65x, 0.92x against 0.85x; one
    # tile 0.97x against 0.61x, 1.01x against 0.70x, 1.00x against 0.84x
    (72, 3072, 1536): (WGMMA, _two_token_tiles(72)), (88, 2048, 1024): (WGMMA, _two_token_tiles(88)),
    (104, 3072, 1536): (WGMMA, _two_token_tiles(104)), (104, 3072, 8192): (WGMMA, _two_token_tiles(104)),
    (72, 3072, 8192): (WGMMA, _one_token_tile(72, 64)), (72, 3584, 14336): (WGMMA, _one_token_tile(72, 64)),
    (88, 2560, 10240): (WGMMA, _one_token_tile(88, 64)),
    # m65_192_wide_tokens_sweep_h200.json: 0.94x against 0.66x, 0.98x against 0.76x, 1.22x against
    # 1.05x; 0.95x against 0.50x, 0.96x against 0.83x; 0.96x against 0.90x, 1.00x against 0.93x;
    # 0.98x against 0.74x (at 65-88 rows in a tile of 96; since, of 72: 72 x 4096 x 14336 1.04x
    # against 0.96x, m65_112_llama_weights_sweep_h200.json)
    (136, 8192, 8192): (WGMMA, _one_token_tile(136, 64)),
    (152, 4096, 14336): (WGMMA, _one_token_tile(152, 64)), (168, 6144, 4096): (WGMMA, _one_token_tile(168, 64)),
    (136, 28672, 8192): (WGMMA, _one_token_tile(136, 128)), (184, 14336, 4096): (WGMMA, _one_token_tile(184, 128)),
    (72, 4096, 14336): (WGMMA, _one_token_tile(72, 64)),
    (96, 8192, 8192): (WGMMA, _one_token_tile(96, 64)), (72, 28672, 8192): (WGMMA, _one_token_tile(72, 128)),
    # past the two small tiles' K (m65_112_two_tiles_sweep_h200.json): one tile 1.07x, two 1.00x
    (96, 4096, 8192): (WGMMA, _one_token_tile(96, 64)),
    # m65_192_wide_tokens_check_h200.json, weights and rows they were not drawn from: 0.99x against
    # 0.73x, 0.92x against 0.71x, 1.07x against 0.89x; 1.30x against 0.94x, 0.89x against 0.57x,
    # 1.14x against 0.99x, 0.98x against 0.68x; 1.03x against 0.88x, 0.89x against 0.74x, 1.04x
    # against 0.80x; 0.92x against 0.78x, 0.97x against 0.88x (at 80-88 rows in a tile of 96; since,
    # of 80-88: 80 x 4096 x 11008 1.05x against 1.03x, 80 x 10240 x 8192 1.11x against 1.08x, 80 x
    # 22016 x 8192 0.95x against 0.94x, m65_88_exact_token_tile_sweep_h200.json)
    (144, 5120, 5120): (WGMMA, _one_token_tile(144, 64)), (160, 7168, 4096): (WGMMA, _one_token_tile(160, 64)),
    (176, 4096, 11008): (WGMMA, _one_token_tile(176, 64)),
    (144, 10240, 8192): (WGMMA, _one_token_tile(144, 128)), (160, 22016, 8192): (WGMMA, _one_token_tile(160, 128)),
    (192, 12288, 4096): (WGMMA, _one_token_tile(192, 128)), (176, 32000, 4096): (WGMMA, _one_token_tile(176, 128)),
    (80, 4096, 11008): (WGMMA, _one_token_tile(80, 64)), (88, 5120, 5120): (WGMMA, _one_token_tile(88, 64)),
    (80, 10240, 8192): (WGMMA, _one_token_tile(80, 64)),
    (80, 22016, 8192): (WGMMA, _one_token_tile(80, 128)), (88, 32000, 4096): (WGMMA, _one_token_tile(88, 128)),
    # rung 06 (m65_192_sweep2_h200.json, m65_192_rule_check_h200.json): 1.01x against 0.87x, 0.90x
    # against 0.84x, 1.06x against 0.93x; 0.94x against 0.82x, 0.89x against 0.70x, 0.96x against
    # 0.89x; 1.00x against 0.94x, 1.04x against 0.97x
    (112, 8192, 8192): (RUNG_06, dispatch._H200_64X128_C2), (128, 6144, 4096): (RUNG_06, dispatch._H200_64X128_C2),
    (120, 8192, 2048): (RUNG_06, dispatch._H200_64X128_C2),
    (80, 14336, 4096): (RUNG_06, dispatch._H200_64X256_C2), (72, 12288, 4096): (RUNG_06, dispatch._H200_64X256_C2),
    (88, 16384, 4096): (RUNG_06, dispatch._H200_64X256_C2),
    (128, 4096, 14336): (RUNG_06, dispatch._H200_128X64_S8), (120, 4096, 11008): (RUNG_06, dispatch._H200_128X64_S8),
}
"""Shapes in the H200's own rules at 65-192 rows, with the choice (kernel, params) each gets."""
# The clusters sharing W, measured later (share_w_m72_128*_h200.json), take the shapes above in
# their bucket from the choices these comments give.
_H200_65_TO_192_ROWS.update({s: (WGMMA, _two_shared_w_tiles(s[0])) for s in _H200_65_TO_192_ROWS
                             if _in_the_shared_w_bucket(*s)})


@pytest.mark.parametrize("m,n,k", list(_H200_65_TO_192_ROWS))
def test_the_h200_takes_one_token_tile_or_rung_06_with_deep_rings_at_65_to_192_rows(m, n, k):
    for dtype in ("bfloat16", "float16"):
        rule = dispatch.choose(90, dtype, m, n, k, layouts=("row", "col"), device="NVIDIA H200")
        assert rule.device == "H200"
        assert (rule.kernel, rule.params) == _H200_65_TO_192_ROWS[(m, n, k)] == _h200_at_65_to_192_rows(m, n, k)
    spec = catalog.get(rule.kernel)
    assert spec.valid(spec.resolve(rule.params))  # fits in shared memory
    # the H100 keeps its own (not measured there), and so do the other layouts
    h100 = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100)
    assert h100.params != rule.params
    row_b = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "row"), device="NVIDIA H200")
    assert row_b.params != rule.params


def test_every_one_token_tile_the_h200_takes_fits_its_ring_in_shared_memory_and_one_more_stage_would_not():
    spec = catalog.get(WGMMA)
    for m in (65, 72, 73, 80, 81, 88, 89, 96, 129, 144, 145, 160, 161, 176, 177, 192):
        for bm in (64, 128):
            params = spec.resolve(_one_token_tile(m, bm))
            assert spec.valid(params) and m <= params["BN"] < m + 48
            deeper = {**params, "STAGES": params["STAGES"] + 1}
            assert params["STAGES"] == 8 or not spec.valid(deeper)


def test_the_narrow_weights_unsplit_two_token_tiles_fill_shared_memory_with_their_ring_of_128_k():
    # 113-192 rows of weights of 1024-2047 rows with K up to 3072: the deepest ring that fits (seven
    # stages ran 0.05x-0.11x ahead of five at 120 rows, m113_192_narrow_two_tiles_rings_h200.json)
    spec = catalog.get(WGMMA)
    for m in (113, 128, 129, 144, 145, 160, 161, 176, 177, 192):
        rule = dispatch.choose(90, "bfloat16", m, 1536, 2048, layouts=("row", "col"), device="NVIDIA H200")
        params = spec.resolve(rule.params)
        assert rule.params == _two_unsplit_token_tiles(m) and spec.valid(params)
        assert not spec.valid({**params, "STAGES": params["STAGES"] + 1})


@pytest.mark.parametrize("m,bn", [(33, 40), (40, 40), (41, 48), (48, 48), (49, 56), (56, 56)])
@pytest.mark.parametrize("n,k,bm", [(2048, 4097, 64), (6144, 3072, 64), (4096, 14336, 64), (1024, 2048, 64),
                                    (12287, 16383, 64), (12288, 4096, 128), (28672, 2048, 128), (32768, 4096, 128),
                                    (1024, 1024, 64), (5120, 1024, 64), (8192, 1536, 64), (12287, 2047, 64),
                                    (12288, 1024, 128), (32768, 2047, 128)])
def test_the_h200_holds_33_to_56_tokens_in_the_narrowest_tile_of_40_48_or_56(m, bn, n, k, bm):
    # m33_56_token_tile_sweep_h200.json: 36 x 6144 x 4096 1.01x against 0.82x in a tile of 64,
    # 44 x 5120 x 5120 0.90x against 0.78x, 36 x 12288 x 4096 0.965x against 0.907x (weights of
    # 2560-4224 rows with K <= 4096 take the same tiles unsplit: test_the_h200_has_decode_rules_of_its_own;
    # 49-56 rows of 5632-7168-row weights with K = 4096 run clusters of four on 64 tokens instead)
    for dtype in ("bfloat16", "float16"):
        rule = dispatch.choose(90, dtype, m, n, k, layouts=("row", "col"), device="NVIDIA H200")
        assert rule.kernel == WGMMA and rule.device == "H200"
        assert rule.params == {"BM": bm, "BK": 128, "STAGES": 6 if bm == 64 else 4, "IN_FLIGHT": 1, "BN": bn}
    spec = catalog.get(WGMMA)
    assert spec.valid(spec.resolve(rule.params))


@pytest.mark.parametrize("m,n,k,layouts,device", [
    (57, 4096, 4096, ("row", "col"), "NVIDIA H200"),     # 57-64 rows: the tile of 64 is the narrowest
    (32, 4096, 4096, ("row", "col"), "NVIDIA H200"),     # 17-32 rows: tiles of 32
    (40, 1023, 4096, ("row", "col"), "NVIDIA H200"),     # narrower weights than measured
    (40, 4096, 1023, ("row", "col"), "NVIDIA H200"),     # shorter K than measured
    (40, 12288, 1023, ("row", "col"), "NVIDIA H200"),
    (40, 12287, 16384, ("row", "col"), "NVIDIA H200"),   # longer K than measured
    (40, 12288, 4097, ("row", "col"), "NVIDIA H200"),    # the wide weights' rule (clusters) keeps 64
    (40, 40000, 4096, ("row", "col"), "NVIDIA H200"),    # wider than measured
    (40, 4096, 4096, ("row", "row"), "NVIDIA H200"),     # the row-major B: not measured
    (40, 4096, 4096, ("row", "col"), "NVIDIA H100 80GB HBM3")])  # the H100: not measured
def test_33_to_56_tokens_keep_the_tile_of_64_outside_the_h200s_buckets_measured(m, n, k, layouts, device):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=layouts, device=device)
    assert rule.params.get("BN", 64 if m > 32 else 32) in (32, 64) or rule.kernel != WGMMA


@pytest.mark.parametrize("m,n,k", [
    (184, 127, 4096), (120, 1023, 895),  # narrower, or K shorter, than measured
    (136, 2047, 16385), (92, 1536, 16385), (120, 1024, 20000),  # narrow weights past K 16384
    (112, 14336, 4096),   # clusters of 64 x 256: 0.95x against 0.96x from 104 rows
    (80, 3072, 1023),     # the two small tiles' K bound on weights of 2048-4096 rows
    (80, 1536, 1023), (80, 1536, 16385),  # and their K bounds on narrower ones
    (104, 2560, 16385),   # 97-112 rows, K past 16384
    (104, 3584, 18944), (120, 8192, 28672), (112, 16384, 16384),  # 97-128 rows past K 16383
    (72, 3072, 1023),     # K below the gaps'
    (64, 3072, 2048), (113, 3072, 2048),                    # and their rows
    (120, 4096, 2048),    # decode/02's 64-row tiles (1.03x against 0.78x), K below the clusters sharing W
    (128, 2048, 4096),    # the same (0.88x against 0.74x), narrower than the clusters sharing W
    (192, 40960, 8192),   # wider than measured
    (128, 8192, 28672),   # longer K than measured
    (193, 6144, 4096), (64, 6144, 4096),  # outside the rows
    (1024, 5120, 16384), (40, 4608, 20480)])  # and there past K 16383, at the widths of 128-row tiles
def test_the_h200_keeps_its_other_choices_outside_the_65_to_192_row_buckets_measured(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert (rule.kernel, rule.params) not in _H200_65_TO_192_ROWS.values() and _h200_at_65_to_192_rows(m, n, k) is None


@pytest.mark.parametrize("m,n,k", [
    (1024, 14336, 4096), (1024, 14336, 2048), (1024, 14336, 8192), (1024, 11008, 4096), (1024, 5120, 4096),
    (768, 14336, 4096), (512, 28672, 4096), (1000, 14336, 4096), (384, 14336, 4096), (512, 5120, 4096),
    (896, 16384, 4096)])
def test_the_h200_takes_128_x_176_tiles_from_384_to_1024_rows_where_they_fill_the_waves(m, n, k):
    # docs/results/hopper_bn176_sweep_h200.json, two runs, bf16: 1024 x 14336 x 4096 0.964x / 0.966x
    # cuBLAS against 0.925x / 0.926x in held single blocks of 128 x 256; 1024 x 5120 x 4096 0.890x
    # against 0.819x; hopper_bn176_rule_check_h200.json, shapes it was not drawn from: 384 x 14336 x
    # 4096 0.925x against 0.839x. The H100 keeps its rules (not measured there), and so do the other
    # layouts.
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == {"BN": 176}
    assert dispatch.choose(90, "float16", m, n, k, layouts=("row", "col"), device="NVIDIA H200").params == {"BN": 176}
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100).params != {"BN": 176}
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "row"), device="NVIDIA H200").params != {"BN": 176}


@pytest.mark.parametrize("m,n,k", [
    (3072, 14336, 4096), (3072, 14336, 8192), (3072, 14336, 2048), (2560, 13824, 4096), (2560, 13824, 8192),
    (3584, 12288, 4096), (6144, 5120, 4096)])
def test_the_h200_takes_clusters_of_128_x_176_tiles_from_2048_rows_where_they_fill_the_cluster_waves(m, n, k):
    # docs/results/hopper_bn176_clusters_h200.json, two runs, bf16: 3072 x 14336 x 4096 0.961x /
    # 0.962x cuBLAS against 0.929x / 0.931x in clusters of 128 x 256; on shapes the rule was not
    # drawn from (hopper_bn176_cluster_rule_check_h200.json), 2560 x 13824 x 4096 1.032x twice
    # against 0.987x / 0.985x. The H100 keeps its rules (not measured there).
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == {"BN": 176, "CLUSTER": 2}
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100).params != rule.params
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "row"), device="NVIDIA H200").params != rule.params


@pytest.mark.parametrize("m,n,k", [
    (4096, 14336, 4096),   # 99.4% against 97.0%: 0.999x / 0.990x against 1.015x / 1.004x
    (2560, 14336, 4096),   # 95.6%, short of 97%: 0.966x / 0.961x against 0.990x / 0.981x
    (3072, 11008, 4096),   # 95.5%: 0.940x / 0.931x against 0.999x / 0.990x
    (6144, 14336, 4096), (8192, 28672, 8192), (4096, 5120, 4096), (8192, 8192, 8192), (16384, 16384, 16384),
    (1536, 28672, 4096)])  # below 2048 rows: level (0.968x / 0.966x against 0.967x twice)
def test_the_h200_keeps_its_other_tiles_where_clusters_of_128_x_176_do_not_fill_the_waves_better(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.params.get("BN") != 176


@pytest.mark.parametrize("m,n,k", [
    (1024, 4096, 4096),    # 192 tiles of 128 x 176, 73% of two waves, against one wave of 128 x 256 97% full
    (1024, 6144, 4096),    # 128 x 192 tiles fill the waves better still (97%)
    (1024, 8192, 4096),    # 128 x 256 tiles already fill 97%
    (640, 32000, 4096),    # 98.5% against 94.7%: less than 1.05 times as full
    (1280, 14336, 4096),   # from 1280 rows 128 x 256 stayed ahead (0.951x against 0.988x)
    (2048, 11008, 4096),
    (400, 4096, 4096),     # four tile-rows of 24 tiles: 73% of a wave
    (777, 4096, 14336)])   # seven: 64%
def test_the_h200_keeps_other_tiles_where_128_x_176_does_not_fill_the_waves_better_or_has_measured_slower(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.params.get("BN") != 176


@pytest.mark.parametrize("m,n,k", [
    (520, 4096, 4096), (640, 4096, 14336),  # five tile-rows of 24 tiles: 120 of 132 SMs
    (300, 14336, 4096), (300, 28672, 8192),
    (300, 28672, 4096)])  # lost before the edge boxes (0.697x against 0.817x): its zero-filled tile-row
def test_the_h200_takes_128_x_176_tiles_from_257_rows_and_at_4096_wide_weights_where_they_fill_the_waves(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == {"BN": 176}
    assert "m257_1023_edge" in rule.note
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100).params.get("BN") != 176


@pytest.mark.parametrize("m,n,k,params", [
    (8192, 8192, 8192, {"CLUSTER": 2, "HOLD": 1}), (4096, 14336, 4096, {"CLUSTER": 2, "HOLD": 1}),
    (4096, 28672, 8192, {"HOLD": 1}), (16384, 16384, 16384, {"HOLD": 1}),
    (4096, 4096, 4096, {"CLUSTER": 2, "HOLD": 1}), (4096, 6144, 4096, {"CLUSTER": 2, "HOLD": 1}),
    (3072, 4096, 4096, {"CLUSTER": 2, "HOLD": 1}), (1536, 8192, 8192, {"CLUSTER": 2, "HOLD": 1}), (2048, 4096, 4096, {}),
    (1024, 16384, 4096, {"HOLD": 1}), (1024, 14336, 4096, {"HOLD": 1}), (512, 14336, 4096, {})])
def test_the_h100_and_h200_store_each_tile_beside_the_next_where_the_sms_run_more_than_two(m, n, k, params):
    # docs/results/hopper_hold_rule_h100.json (six tiles a SM or more): the llm suite's median
    # 0.992x / 0.993x cuBLAS against 0.990x / 0.988x; hopper_hold_mid_rule_h100.json (more than two,
    # clusters): 4096^3 0.994x / 0.995x against 0.981x / 0.980x; hopper_hold_single_h100.json (more
    # than two, single blocks): 1024 x 14336 x 4096 0.936x / 0.933x against 0.923x / 0.926x.
    # 512 x 14336 (224 tiles, 1.7 a SM) keeps its single blocks without.
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == params
    assert _as_on_the_h100(m, n, k, rule)


@pytest.mark.parametrize("m,n,k,params", [
    (1024, 8192, 8192, {}), (1024, 8192, 28672, {}), (1024, 14336, 8192, {}), (1536, 14336, 8192, {}),
    (1024, 6144, 8192, {"BN": 192}), (1536, 8192, 8192, {"CLUSTER": 2, "HOLD": 1}),
    (2047, 12288, 8192, {"CLUSTER": 2, "HOLD": 1}), (2048, 14336, 8192, {"CLUSTER": 2, "HOLD": 1})])
def test_the_h100_and_h200_take_single_blocks_at_long_k_where_clusters_measured_slower(m, n, k, params):
    # docs/results/hopper_single_long_k_*_h100.json, two runs: 1024 x 14336 x 8192 0.964x / 0.965x
    # cuBLAS in single blocks against 0.862x / 0.862x in clusters, 1536 x 14336 x 8192 1.018x against
    # 0.932x, 1024 x 8192 x 28672 1.003x / 1.001x against 0.989x / 0.987x; 1536 x 8192 x 8192 and
    # 2047 x 12288 x 8192 keep the clusters (level or ahead there); 128 x 192 tiles still come first.
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == params
    assert _as_on_the_h100(m, n, k, rule)


def test_clusters_end_part_full_counts_the_waves_of_256_x_256_units_on_half_the_sms():
    assert dispatch.clusters_end_part_full(1024, 5120, 4096)  # 80 units: one wave of 66, then 14
    assert dispatch.clusters_end_part_full(2560, 4096, 4096)  # 160 units, three waves, 81% full
    assert not dispatch.clusters_end_part_full(4096, 4096, 4096)  # 256 units, four waves, 97% full
    assert not dispatch.clusters_end_part_full(8192, 8192, 8192)


@pytest.mark.parametrize("m,n,k,params", [
    (1024, 5120, 4096, {}), (1280, 5120, 8192, {}), (2560, 4096, 4096, {"HOLD": 1}), (3584, 4096, 4096, {"HOLD": 1}),
    (5120, 2048, 4096, {"HOLD": 1}), (2048, 11008, 4096, {"HOLD": 1}),
    (4096, 4096, 4096, {"CLUSTER": 2, "HOLD": 1}), (4096, 8192, 2048, {"CLUSTER": 2, "HOLD": 1})])
def test_the_h100_and_h200_take_single_blocks_where_clusters_would_end_on_a_part_full_wave(m, n, k, params):
    # docs/results/hopper_cluster_tail_h100.json: single blocks split the last wave over K, clusters
    # do not; at ten shapes whose cluster waves end 61-87% full, single blocks ran 1.4-25% faster
    # (1024 x 5120 x 4096 0.816x cuBLAS against 0.651x, 2560 x 4096 x 4096 0.910x against 0.843x).
    # Full waves keep their clusters (4096^3, the prefill's 4096 x 8192 x 2048).
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == params
    assert _as_on_the_h100(m, n, k, rule)


@pytest.mark.parametrize("n,k", [(2048, 2048), (1024, 2048), (8192, 2048), (3072, 3072)])
def test_one_token_with_k_of_2048_to_4095_takes_the_row_sweep_in_256_thread_blocks_on_an_h100(n, k):
    # docs/results/decode_sweep_rowsweep_k2048_h100.json: one vector of a row a thread at K = 2048;
    # the LM head's 32000 rows stay with rung 01 (level there).
    h100 = "NVIDIA H100 80GB HBM3"
    rule = dispatch.choose(90, "bfloat16", 1, n, k, layouts=("row", "col"), device=h100)
    assert rule.kernel == "decode/03_row_sweep"
    assert rule.params == {"THREADS": 256, "ROWS": 2, "UNROLL": 2, "L2_256B": 0, "BLOCKS": 8}
    assert dispatch.choose(90, "bfloat16", 1, 32000, k, layouts=("row", "col"), device=h100).kernel != rule.kernel


@pytest.mark.parametrize("n,k", [(4096, 4096), (6144, 4096), (14336, 4096), (2048, 8192), (8192, 28672), (100, 4096)])
def test_one_token_with_k_of_4096_or_more_takes_the_row_sweep_on_an_h100(n, k):
    # docs/results/decode_sweep_rowsweep*_h100.json: 1.5-13% faster than rung 01 at K >= 4096; at 2
    # tokens or more it lost.
    h100 = "NVIDIA H100 80GB HBM3"
    rule = dispatch.choose(90, "bfloat16", 1, n, k, layouts=("row", "col"), device=h100)
    assert rule.kernel == "decode/03_row_sweep"
    assert rule.params == {"THREADS": 512, "ROWS": 4, "UNROLL": 4, "L2_256B": 0}
    for m, kk in ((2, k), (1, 1024)):
        assert dispatch.choose(90, "bfloat16", m, n, kk, layouts=("row", "col"), device=h100).kernel != rule.kernel
    h200 = dispatch.choose(90, "bfloat16", 1, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert h200.device == "H200" and h200.params != rule.params  # the H200's own rules


@pytest.mark.parametrize("m,n,k,bm,stages,in_flight", [
    (16, 6144, 14336, 64, 4, 0), (9, 8192, 8192, 64, 8, 1), (8, 8192, 8192, 64, 8, 1), (3, 6144, 8192, 64, 8, 1),
    (16, 14336, 4096, 128, 4, 0), (9, 28672, 2048, 128, 4, 0), (16, 6144, 4096, 64, 4, 0), (9, 8191, 1024, 64, 4, 0)])
def test_a_long_k_or_a_wide_weight_with_a_few_rows_takes_the_wgmma_decode_rung_on_an_h100(m, n, k, bm, stages,
                                                                                          in_flight):
    # docs/results/decode_sweep_wgmma_cold_h100.json, decode_sweep_wgmma_cold2_h100.json: 1.01x-1.02x
    # cuBLAS where the split-K rung ran 0.97x-0.98x
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "decode/02_swap_ab_wgmma"
    assert rule.params == {"BM": bm, "BK": 128, "STAGES": stages, "IN_FLIGHT": in_flight, "STAGGER": 8}
    assert dispatch.choose(80, "bfloat16", m, n, k, layouts=("row", "col")).kernel == "decode/01_swap_ab_splitk"


@pytest.mark.parametrize("m,n,k,stages", [
    (32, 4096, 4096, 8), (17, 2048, 4096, 8), (9, 4096, 2048, 8), (16, 4096, 14336, 8), (8, 4096, 14336, 8),
    (64, 4096, 4096, 7), (33, 3072, 14336, 7), (64, 2048, 4096, 7)])
def test_a_weight_of_at_most_4224_rows_is_not_split_over_k_on_an_h100(m, n, k, stages):
    # docs/results/decode_nosplit_h100.json: 64-row tiles of such a weight would be split in two to
    # fill the SMs; unsplit with a deep ring, half the SMs read it faster. (Whether the walk over k
    # is staggered is the next test's.)
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "decode/02_swap_ab_wgmma"
    unstaggered = {key: value for key, value in rule.params.items() if key != "STAGGER"}
    assert unstaggered == {"BM": 64, "BK": 128, "STAGES": stages, "IN_FLIGHT": 1, "SPLITS": 1}


@pytest.mark.parametrize("m,n,k", [(2, 8192, 2048), (8, 10240, 2048), (5, 12287, 1025), (4, 6144, 2048)])
def test_2_to_8_rows_of_a_wide_weight_of_short_rows_take_the_sweep_on_the_tensor_cores_on_an_h100(m, n, k):
    # docs/results/decode_rowsweep_mma_ab_h100.json: 2-7% ahead of rung 01 at 8192 x 2048, behind at 16 rows
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "decode/04_row_sweep_mma"
    assert rule.params == {"THREADS": 256, "KSTEPS": 1, "STAGES": 3}
    for m, n, k in ((1, 8192, 2048), (9, 8192, 2048), (16, 10240, 1536), (17, 8192, 2048), (4, 8192, 1024), (4, 6143, 2048), (4, 12288, 2048)):
        other = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
        assert other.kernel != "decode/04_row_sweep_mma", (m, n, k)
    two = dispatch.choose(90, "bfloat16", 2, 4096, 4096, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert (two.kernel, two.params) == ("decode/04_row_sweep_mma", {"THREADS": 512, "KSTEPS": 1, "STAGES": 3})


@pytest.mark.parametrize("m,n,k", [(3, 4096, 4096), (8, 3072, 4096), (16, 4096, 4096), (9, 4224, 2049)])
def test_few_rows_of_a_4096_square_weight_keep_one_k_chunk_in_flight_a_warp_on_an_h100(m, n, k):
    # docs/results/decode_segs_h100.json: UNROLL = 1 read 4 and 16 x 4096 x 4096 2-3% faster than
    # UNROLL = 2 (4 rows) and rung 02 unsplit (16 rows); not at 1 row, nor at 6144 rows.
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert (rule.kernel, rule.params["UNROLL"], rule.params["STAGGER"]) == ("decode/01_swap_ab_splitk", 1, 8)
    for m, n, k in ((1, 4096, 4096), (4, 6144, 4096), (4, 4096, 2048), (17, 4096, 4096)):
        other = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
        assert other.params.get("UNROLL") != 1


@pytest.mark.parametrize("m,n,k", [(64, 1024, 4096), (32, 1024, 4096), (8, 4096, 4096), (32, 6144, 4096)])
def test_weights_outside_the_unsplit_buckets_keep_their_rules(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.params.get("SPLITS", 0) == 0


def test_large_m_on_an_h200_takes_the_h100_sxms_rules():
    rule = dispatch.choose(90, "bfloat16", 4096, 4096, 4096, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == {"CLUSTER": 2, "HOLD": 1}
    assert rule is dispatch.choose(90, "bfloat16", 4096, 4096, 4096, layouts=("row", "col"), device=H100)
    # another sm_90 GPU (the H100 PCIe's 114 SMs) keeps the rules every Hopper shares
    pcie = dispatch.choose(90, "bfloat16", 4096, 4096, 4096, layouts=("row", "col"), device="NVIDIA H100 PCIe")
    assert pcie.params == {"CLUSTER": 2} and pcie.device is None


@pytest.mark.parametrize("m,n,k,cluster", [
    (4096, 2048, 2048, 1),      # the Llama prefill's q, k, v and o: about two waves or less, single blocks
    (4096, 1024, 2048, 1),
    (1024, 4096, 4096, 1),
    (1024, 2048, 2048, 1),      # 1024 rows and N <= 2048: single blocks of 128 x 128
    (4096, 8192, 2048, 2),      # its gate and up projections: 2 x 1 clusters
    (8192, 2048, 2048, 2),      # about four waves
    (4096, 4096, 4096, 2),
    (8192, 8192, 8192, 2),
    (1024, 6144, 4096, 1),      # 1024 rows, a wide N, a short K: single blocks measured faster
    (16384, 16384, 16384, 1),   # from N = 16384: single blocks
    (4096, 28672, 8192, 1),
])
def test_large_m_on_hopper_runs_clusters_where_they_measured_faster(m, n, k, cluster):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"))
    assert rule.kernel == "hopper/06_tma_store_epilogue"
    assert rule.params.get("CLUSTER", 1) == cluster


@pytest.mark.parametrize("m,n,k", [(4096, 2048, 2048), (4096, 1024, 2048), (1024, 4096, 4096)])
def test_small_grids_take_single_blocks_on_hopper(m, n, k):
    # docs/results/hopper_small_grids_h100.json; on an H200, 2048^3 0.98x-0.99x cuBLAS against 0.96x in
    # 2-block clusters (hopper_rules_as_h100_h200.json)
    h100 = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert h100.params.get("CLUSTER", 1) == 1 and h100.device is None
    assert _as_on_the_h100(m, n, k, h100)


def test_one_wave_tile_makes_the_most_tiles_that_fit_one_wave():
    assert dispatch.one_wave_tile(1024, 1024, 1024) == (64, 128)     # 128 tiles, against 64 of 128 x 128
    assert dispatch.one_wave_tile(2048, 1024, 2048) == (128, 128)    # 128, against 256 of 64 x 128
    assert dispatch.one_wave_tile(1024, 4096, 4096) == (128, 256)    # 128 already: the smaller ones make more than a wave
    assert dispatch.one_wave_tile(1536, 1536, 1536) == (128, 256)    # 72, against 144 of 128 x 128
    assert dispatch.one_wave_tile(300, 2500, 3000) == (64, 128)      # ragged edges count whole tiles: 5 x 20
    # 64 x 64 where 64 x 128 make at most half a wave, up to K = 2048 (hopper_tiny_h100.json)
    assert dispatch.one_wave_tile(512, 1024, 1024) == (64, 64)   # 128, against 64 of 64 x 128
    assert dispatch.one_wave_tile(1024, 512, 2048) == (64, 64)
    assert dispatch.one_wave_tile(512, 1024, 4096) == (64, 128)  # a long K: the split K of 64 x 128 tiles
    assert dispatch.one_wave_tile(768, 768, 1024) == (64, 128)   # 72; 64 x 64 would make 144


H100 = "NVIDIA H100 80GB HBM3"


@pytest.mark.parametrize("m,n,k,params", [
    (193, 14336, 4096, {"BM": 256, "BN": 128}), (256, 12288, 8192, {"BM": 256, "BN": 128}),
    (200, 16384, 4096, {"BM": 256, "BN": 128}),                          # N 12288-16384, K 4096-8192
    (193, 8192, 28672, {"BM": 256, "BN": 128}), (240, 4096, 14336, {"BM": 256, "BN": 128}),  # K from 14336
    (193, 28672, 8192, {"BN": 176}), (256, 20480, 4096, {"BN": 176}),    # N 20480-32768, K 4096-8192
    (193, 4096, 4096, {"BN": 128}), (256, 3072, 4096, {"BN": 128})])     # N 3072-4096, K = 4096
def test_the_h200_picks_its_tiles_at_193_to_256_rows_by_the_weights_it_measured(m, n, k, params):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == params
    assert "m193_256_edge" in rule.note
    assert dispatch.choose(90, "float16", m, n, k, layouts=("row", "col"), device="NVIDIA H200").params == params


@pytest.mark.parametrize("m,n,k,layouts,device", [
    (192, 14336, 4096, ("row", "col"), "NVIDIA H200"), (257, 14336, 4096, ("row", "col"), "NVIDIA H200"),
    (200, 14336, 2048, ("row", "col"), "NVIDIA H200"), (200, 14336, 16384, ("row", "col"), "NVIDIA H200"),
    (200, 10240, 8192, ("row", "col"), "NVIDIA H200"), (200, 5120, 5120, ("row", "col"), "NVIDIA H200"),
    (200, 8192, 12288, ("row", "col"), "NVIDIA H200"), (200, 2048, 4096, ("row", "col"), "NVIDIA H200"),
    (200, 4096, 8192, ("row", "col"), "NVIDIA H200"), (200, 36864, 8192, ("row", "col"), "NVIDIA H200"),
    (200, 4096, 2048, ("row", "col"), "NVIDIA H200"), (200, 4096, 3072, ("row", "col"), "NVIDIA H200"),
    (200, 14336, 4096, ("col", "col"), "NVIDIA H200"), (200, 14336, 4096, ("row", "col"), H100)])
def test_the_h200s_193_to_256_row_tiles_stay_inside_the_rows_weights_and_layout_measured(m, n, k, layouts, device):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=layouts, device=device)
    assert "m193_256_edge" not in rule.note


@pytest.mark.parametrize("m,n,k,params", [
    (1024, 1024, 1024, {"BM": 64, "BN": 128}), (2048, 512, 2048, {"BM": 64, "BN": 128}),
    (256, 2048, 2048, {"BM": 64, "BN": 64}), (1280, 768, 1024, {"BM": 64, "BN": 128}),
    (2048, 1024, 4096, {"BN": 128}), (512, 4096, 2048, {"BN": 128}), (1920, 1024, 2048, {"BN": 128}),
    (4096, 512, 2048, {"BN": 128}), (8192, 256, 2048, {"BN": 128}), (2048, 384, 1024, {"BM": 64, "BN": 128}),
    (1024, 256, 2048, {"BM": 64, "BN": 64}), (512, 1024, 1024, {"BM": 64, "BN": 64})])
def test_a_grid_of_half_a_wave_or_less_takes_the_tile_that_fills_one_wave_best_on_the_h100_and_h200(m, n, k,
                                                                                                     params):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100)
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == params
    # Measured on the H100 SXM's 132 SMs, at K up to 4096; the H200 has as many (1024^3 0.86x cuBLAS
    # against 0.50x with 128 x 256 tiles in clusters, hopper_rules_as_h100_h200.json)
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200") is rule


@pytest.mark.parametrize("m,n,k", [(1024, 1024, 8192), (1536, 1536, 1536), (1024, 4096, 4096), (768, 4096, 4096),
                                   (4096, 1024, 2048), (2048, 2048, 2048), (192, 2048, 2048), (512, 128, 2048),
                                   (16384, 256, 2048)])
def test_a_long_k_a_fuller_grid_or_a_shape_outside_the_measured_range_keeps_the_other_rules(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100)
    assert "half a wave" not in rule.note and rule.params.get("BM", 128) == 128


@pytest.mark.parametrize("m,n,k", [(1024, 2048, 2048), (512, 1024, 8192), (1024, 2048, 8192), (257, 256, 4096)])
def test_at_most_1024_rows_and_a_narrow_n_take_128_x_128_tiles_on_the_h100(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"))
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params == {"BN": 128}
    assert dispatch.choose(90, "bfloat16", 1025, n, k, layouts=("row", "col")).params.get("BN", 256) == 256
    h100 = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=H100)
    assert h100.params.get("BN") == 128 and _as_on_the_h100(m, n, k, h100)


def test_wave_fill_is_the_tiles_over_the_blocks_of_their_waves():
    assert dispatch.wave_fill(1024, 6144, 128, 256) == 192 / 264   # 192 tiles: one wave and 60 of 132
    assert dispatch.wave_fill(1024, 6144, 128, 192) == 256 / 264
    assert dispatch.wave_fill(4096, 4096, 128, 256) == 512 / 528
    assert dispatch.wave_fill(1000, 6100, 128, 192) == 256 / 264   # ragged edges count whole tiles
    assert dispatch.wave_fill(128, 128, 128, 128) == 1 / 132


@pytest.mark.parametrize("m,n,k", [(1024, 6144, 4096), (768, 4096, 4096), (1536, 2048, 8192), (4608, 2048, 2048),
                                   (384, 8192, 4096), (1024, 6144, 8192), (896, 10752, 4096)])
def test_the_h100_takes_128_x_192_tiles_where_they_fill_the_waves_far_better(m, n, k):
    h100 = "NVIDIA H100 80GB HBM3"
    for dtype in ("bfloat16", "float16"):
        rule = dispatch.choose(90, dtype, m, n, k, layouts=("row", "col"), device=h100)
        assert rule.kernel == "hopper/06_tma_store_epilogue" and dict(rule.params) == {"BN": 192}
        assert dispatch.wave_fill(m, n, 128, 192) >= 0.9
    # Measured on the H100 SXM, whose 132 SMs the H200 has too, not its PCIe card's 114; and in the
    # Linear layout only.
    pcie = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 PCIe")
    assert pcie.params.get("BN") != 192
    assert _as_on_the_h100(m, n, k, dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=h100))
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "row"), device=h100).params.get("BN") != 192


@pytest.mark.parametrize("m,n,k", [(1024, 14336, 4096), (4096, 4096, 4096), (8192, 8192, 8192), (2048, 6144, 4096),
                                   (4096, 2048, 2048), (1024, 2048, 2048), (64, 6144, 4096), (256, 6144, 4096)])
def test_where_128_x_192_tiles_gain_less_the_h100_keeps_its_other_choices(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.params.get("BN") != 192


@pytest.mark.parametrize("m,n,k", [(65, 4096, 4096), (128, 8192, 8192), (96, 2048, 2048), (129, 14336, 4096),
                                   (192, 28672, 8192), (160, 5120, 5120)])
def test_65_to_192_rows_take_the_swapped_decode_kernel_with_128_row_tiles_on_an_h100(m, n, k):
    h100 = "NVIDIA H100 80GB HBM3"
    for dtype in ("bfloat16", "float16"):
        rule = dispatch.choose(90, dtype, m, n, k, layouts=("row", "col"), device=h100)
        assert rule.kernel == "decode/02_swap_ab_wgmma"
        assert dict(rule.params) == {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}
    assert _as_on_the_h100(m, n, k, dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device=h100))
    assert dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 PCIe").kernel != \
        "decode/02_swap_ab_wgmma"


@pytest.mark.parametrize("m,n,k", [(96, 11008, 4096), (128, 14336, 4096), (193, 4096, 4096), (256, 8192, 8192),
                                   (128, 8192, 28672), (160, 4096, 16384)])
def test_wider_weights_at_65_to_128_rows_and_193_rows_on_keep_the_hopper_ladders_tiles(m, n, k):
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H100 80GB HBM3")
    assert rule.kernel == "hopper/06_tma_store_epilogue"


def test_every_h200_token_tile_is_the_narrowest_atom_for_the_rows_it_serves():
    # Empty rows in a tile of tokens cost time beyond their bytes (docs/decode.md, "The H200 at
    # 33-56 rows"): where an H200 rule names decode/02's BN, the rows fill their tiles as tightly
    # as the atoms allow: BN is the narrowest atom that holds them in that many tiles (and, in
    # clusters sharing the tokens, that splits into the cluster's bands).
    widths = catalog.decode.TOKEN_TILES
    named = 0
    for m in range(33, 193):
        for n in (1024, 2048, 3072, 4096, 6144, 8192, 14336, 28672):
            for k in (1024, 2048, 4096, 8192, 14336):
                rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
                if rule.kernel != WGMMA or "BN" not in rule.params:
                    continue
                bn, tiles = rule.params["BN"], -(-m // rule.params["BN"])
                # clusters sharing the tokens cut their tile into CLUSTER bands of whole 8-row atoms
                cluster = rule.params.get("CLUSTER", 1)
                step = 8 * cluster if cluster > 1 and not rule.params.get("SHARE_W") else 8
                assert bn == min(b for b in widths if b % step == 0 and tiles * b >= m), (m, n, k, bn)
                named += 1
    assert named > 2000  # most of 33-192 rows on these weights


def test_the_h200s_token_tile_buckets_are_the_narrowest_atoms_the_sweeps_measured():
    assert dispatch.H200_NARROW_TOKEN_TILE == (((33, 40), 40), ((41, 48), 48), ((49, 56), 56))
    assert dispatch.H200_EXACT_TOKEN_TILE == (((65, 72), 72), ((73, 80), 80), ((81, 88), 88))
    assert dispatch.H200_TWO_SMALL_TOKEN_TILES == (((65, 80), 40), ((81, 96), 48), ((97, 112), 56))
    assert dispatch.H200_TWO_TOKEN_TILES == (((129, 144), 72), ((145, 160), 80), ((161, 176), 88),
                                             ((177, 192), 96))
    assert dispatch.narrowest_token_tiles((89, 96)) == (((89, 96), 96),)
    assert dispatch.narrowest_token_tiles((129, 192)) == (((129, 144), 144), ((145, 160), 160),
                                                          ((161, 176), 176), ((177, 192), 192))
