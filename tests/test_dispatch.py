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
