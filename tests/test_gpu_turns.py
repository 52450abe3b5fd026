"""Turns on the GPU between test processes (conftest.gpu_turn): a measurement has the GPU to
itself, other GPU tests share it. Checked with processes that take turns on lock files of their
own (no GPU needed)."""

from __future__ import annotations

import multiprocessing
import sys
import time

import pytest

from conftest import gpu_turn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="turns are held with POSIX flock")


def _hold(where, exclusive: bool, after: float, hold: float, t0: float, out) -> None:
    """From ``after`` seconds past ``t0``, take a turn and keep it for ``hold`` seconds; put (when
    it was asked for, got, given back) on ``out``, in seconds past ``t0``."""
    time.sleep(max(0.0, t0 + after - time.monotonic()))
    asked = time.monotonic() - t0
    with gpu_turn(exclusive, where):
        got = time.monotonic() - t0
        time.sleep(hold)
        back = time.monotonic() - t0
    out.put((exclusive, after, asked, got, back))


def _run(tmp_path, requests: list[tuple[bool, float, float]]) -> list[tuple[float, float, float]]:
    """Each request (exclusive, after, hold) in a process of its own; their (asked, got, given
    back) times, in the order of the requests."""
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    t0 = time.monotonic() + 0.2  # every process started by then
    procs = [ctx.Process(target=_hold, args=(tmp_path, ex, after, hold, t0, out)) for ex, after, hold in requests]
    for p in procs:
        p.start()
    results = [out.get(timeout=30) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    by_request = {(ex, after): (asked, got, back) for ex, after, asked, got, back in results}
    return [by_request[(ex, after)] for ex, after, _ in requests]


def test_shared_turns_run_side_by_side(tmp_path):
    (_, got1, back1), (_, got2, _) = _run(tmp_path, [(False, 0.0, 1.0), (False, 0.25, 0.1)])
    assert got1 < got2 < back1  # the second started while the first still held its turn


def test_an_exclusive_turn_waits_for_the_shared_turns_in_progress(tmp_path):
    (_, _, back1), (asked2, got2, _) = _run(tmp_path, [(False, 0.0, 0.8), (True, 0.25, 0.1)])
    assert asked2 < back1 <= got2


def test_no_shared_turn_starts_while_an_exclusive_one_waits(tmp_path):
    # A test holds a shared turn; a measurement asks for the GPU; then another test asks: it
    # waits for the measurement, though the GPU is only shared when it asks.
    (_, _, back1), (_, got2, back2), (asked3, got3, _) = _run(
        tmp_path, [(False, 0.0, 1.0), (True, 0.25, 0.3), (False, 0.5, 0.1)])
    assert back1 <= got2 and asked3 < back1 and back2 <= got3
