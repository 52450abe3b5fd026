"""scripts/l2_halves.py: the chains its probe chases, how it splits SMs into the L2's halves, and,
on a GPU, that every SM lands in one of two halves the runs agree on."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import load_script
from warpgemm.runtime import compile_kernel

l2_halves = load_script("l2_halves")


def test_each_set_is_one_cycle_through_all_its_lines_from_line_0():
    sets = l2_halves.chains(3, 16)
    step = l2_halves.LINE_SPACING_WORDS
    for s in sets:
        seen, i = [], 0
        for _ in range(16):
            seen.append(i // step)
            i = int(s[i])
        assert i == 0 and sorted(seen) == list(range(16))
    assert not (sets[0] == sets[1]).all()  # each set its own order


def test_sms_are_split_at_the_widest_gap_in_their_extra_cycles():
    extra = {0: 1.5, 1: 88.0, 2: -0.5, 3: 91.0, 4: 2.0, 5: 84.0}
    near, far, gap = l2_halves.split_halves(extra)
    assert (near, far) == ([0, 2, 4], [1, 3, 5]) and gap == pytest.approx(82.0)


def test_the_probe_compiles_for_hopper_without_spills():
    assert compile_kernel("probes/l2_halves_probe.cu", "l2_halves_probe", "sm_90a").spill_bytes == 0


@pytest.mark.gpu
@pytest.mark.measurement
def test_on_a_gpu_every_sm_is_in_one_of_two_halves_that_the_runs_agree_on(capsys):
    import sys

    import torch

    from warpgemm.runtime.device import sm_count

    if torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("the probe reads Hopper's two L2 halves")
    argv, sys.argv = sys.argv, ["l2_halves.py", "--runs", "2", "--lines", "256"]
    try:
        assert l2_halves.main() == 0
    finally:
        sys.argv = argv
    out = capsys.readouterr().out
    sizes = [int(line.split("(")[1].split()[0]) for line in out.splitlines() if line.startswith("halves")]
    halves = [line for line in out.splitlines() if line.strip().startswith("half ")]
    assert len(halves) == 2
    listed = [int(x) for h in halves for x in h.split(":")[1].strip(" []").split(",")]
    assert len(listed) == len(set(listed)) == sm_count(0) and len(sizes) == 1  # every SM, once


def _measured_run() -> dict:
    import json
    from pathlib import Path

    doc = json.loads((Path(__file__).resolve().parent.parent / "docs/results/l2_halves_h200.json").read_text())
    run = doc["runs"][0]
    return {"reference_sm": run["reference_sm"],
            "first_pass": {int(s): v for s, v in run["first_pass"].items()},
            "second_pass": {int(s): v for s, v in run["second_pass"].items()}}


def test_a_quiet_runs_latencies_are_read_and_split_into_the_measured_halves():
    res = _measured_run()
    extra = {s: res["first_pass"][s] - res["second_pass"][s] for s in res["first_pass"]}
    near, far, _ = l2_halves.split_halves(extra)
    assert l2_halves.disturbed(res, near, far) is None
    assert (len(near) + 1, len(far)) == (66, 66)  # the reference is on its own side


@pytest.mark.parametrize("stretch", ["second_pass", "first_pass"])
def test_a_run_that_other_work_stretched_is_recognised(stretch):
    res = _measured_run()
    victim = min(res["first_pass"])
    res[stretch][victim] *= 20  # one SM's chase waited behind other work
    extra = {s: res["first_pass"][s] - res["second_pass"][s] for s in res["first_pass"]}
    near, far, _ = l2_halves.split_halves(extra)
    assert l2_halves.disturbed(res, near, far) is not None


def test_an_l2_without_halves_is_one_group_and_no_disturbance():
    res = _measured_run()
    res["first_pass"] = {s: v + (1.0 if s % 2 else -1.0) for s, v in res["second_pass"].items()}  # all near
    assert l2_halves.all_near(res)
    assert l2_halves.disturbed(res, sorted(res["first_pass"]), []) is None
    assert not l2_halves.all_near(_measured_run())  # the H200's run has a far side


def _stretched(res: dict) -> dict:
    bad = {**res, "second_pass": dict(res["second_pass"])}
    bad["second_pass"][min(bad["second_pass"])] *= 20
    return bad


def test_measuring_keeps_quiet_runs_names_their_halves_alike_and_discards_disturbed_ones(capsys):
    quiet = _measured_run()
    extra = {s: quiet["first_pass"][s] - quiet["second_pass"][s] for s in quiet["first_pass"]}
    near = set(l2_halves.split_halves(extra)[0]) | {quiet["reference_sm"]}  # the reference's side
    other = min(set(extra) - near)  # a reference on the other side: near and far swap
    base = quiet["second_pass"] | {quiet["reference_sm"]: quiet["second_pass"][other]}
    seen_from_other = {"reference_sm": other,
                       "second_pass": {s: b for s, b in base.items() if s != other},
                       "first_pass": {s: b + (84.5 if s in near else 0.0) for s, b in base.items() if s != other}}
    results = iter([quiet, _stretched(quiet), seen_from_other])
    found = l2_halves.measure(lambda: next(results), runs=2, tries=3)
    assert found is not None and found["runs_agree"]  # the second run's halves take the first's names
    assert [len(h) for h in found["halves"]] == [66, 66] and len(found["discarded"]) == 1
    assert "run 1: reference SM" in capsys.readouterr().out


def test_measuring_gives_up_after_too_many_disturbed_runs():
    bad = _stretched(_measured_run())
    assert l2_halves.measure(lambda: bad, runs=1, tries=3) is None


def test_measuring_an_l2_without_halves_gives_one_group_of_every_sm():
    res = _measured_run()
    res["first_pass"] = dict(res["second_pass"])  # every line near for every SM
    found = l2_halves.measure(lambda: res, runs=1, tries=1)
    assert found is not None and [len(h) for h in found["halves"]] == [132]
