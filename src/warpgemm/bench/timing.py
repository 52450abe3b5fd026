"""Interleaved timing with CUDA events, on cold inputs.

Candidates (kernels and their baselines) are timed in rounds, A B C A B C ..., so that clock
drift hits all of them alike. Each launch reads an input set that none of the launches just
before it touched: the sets rotate, and there are enough of them that the data a launch reads
has been pushed out of L2 by at least twice the L2 size of other traffic since it was last read.

Each round starts behind a hold: a kernel that keeps the GPU busy (``torch.cuda._sleep``) for
longer than the host takes to enqueue the whole round. Without it, the first candidate of a round
starts on an idle GPU and its events bracket the host's launch latency as well as the kernel (tens
of microseconds: at 4096 x 2048 x 2048 it doubled cuBLAS's time, the baseline going first). With
it, every launch of the round waits in the queue and its events bracket the kernel alone.

The rounds' orders make a balanced cycle (:func:`round_orders`): in each cycle of rounds every
candidate takes every place in the round equally often, and follows every other candidate
equally often. A kernel's time depends on its place in the round: on an H100, in rounds of cuBLAS
and rung 06, whichever ran second took 3-4 us longer at 1024 x 4096 x 4096 (48 us against 44-45
us on the kernel timeline) and 4-6 us less at 4096^3 (171-175 us against 178-182 us), for cuBLAS
and rung 06 alike. It also depends on the kernel before it, which leaves the L2 full of its
output, the clock and the power draw where its work put them. An order that only turns by one
place a round keeps each candidate behind the same one (in rounds of A, B, C: B always after A,
C after B, A after C), and with a third candidate that bias went into every ratio. Times and
ratios are therefore taken over whole cycles.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable

import torch

Runner = Callable[[int], torch.Tensor]
"""Runs one candidate on input set ``i`` and returns its output."""


@dataclass
class Timings:
    """One candidate's time in each round (``ms``, in round order), and the rounds in a cycle:
    over ``cycle`` consecutive rounds, every candidate took every place in the round equally often
    and followed every other candidate equally often (:func:`round_orders`)."""
    label: str
    ms: list[float]
    cycle: int = 1

    def cycle_ms(self) -> list[float]:
        """The mean time of each whole cycle of rounds: each place in the round's order weighs
        the same in every sample."""
        c = max(1, self.cycle)
        return [sum(self.ms[i:i + c]) / c for i in range(0, len(self.ms) - c + 1, c)]

    @property
    def median_ms(self) -> float:
        """The median over cycles of the cycle's mean time."""
        return statistics.median(self.cycle_ms())


def sets_needed(working_set_bytes: int, l2_bytes: int, candidates: int) -> int:
    """Input sets to rotate so that a set is re-read only after 2 x L2 of other traffic: of
    other sets, never only of the same set's other bytes. At least two, however large a set:
    with one, a candidate re-reads the set its predecessor just read, and what that read left in
    L2 may be just what it reads first (measured on an H100 at 1 x 14336 x 4096 bf16, one
    117 MB weight: a decode kernel timed after cuBLAS on the same weight took 39.5 us, after a
    read of another weight 48.9 us)."""
    if working_set_bytes >= 2 * l2_bytes:
        return 2
    # Between two uses of one set, (sets - 1) other sets are read, by the same or other candidates.
    return min(256, math.ceil(2 * l2_bytes / max(working_set_bytes, 1)) + 1)


_SLEEP_CYCLES = 1_000_000
_cycles_per_ms: dict[int, float] = {}


def _sleep_cycles_per_ms() -> float:
    """Clock cycles of ``torch.cuda._sleep`` per millisecond on this device, measured once (on a
    warm GPU: at a lower clock a hold only lasts longer)."""
    device = torch.cuda.current_device()
    rate = _cycles_per_ms.get(device)
    if rate is None:
        times = []
        for _ in range(3):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            torch.cuda._sleep(_SLEEP_CYCLES)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        rate = _cycles_per_ms[device] = _SLEEP_CYCLES / max(min(times), 1e-3)
    return rate


def hold(ms: float) -> None:
    """Keep the current stream's GPU busy for about ``ms`` milliseconds (at least), so that the
    launches enqueued next start back to back, whatever the host's time to enqueue them."""
    torch.cuda._sleep(int(min(ms, 50.0) * _sleep_cycles_per_ms()))


def round_orders(n: int) -> list[list[int]]:
    """The orders of one cycle of rounds for ``n`` candidates: a Williams design, in which every
    candidate takes every place equally often and follows every other candidate equally often (n
    rounds for even n; for odd n those and the same rounds reversed, 2n). Row r is the first row
    0, 1, n - 1, 2, n - 2, ... with r added to each entry, modulo n."""
    if n < 1:
        raise ValueError(f"need at least one candidate, got {n}")
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    rows = [[(c + r) % n for c in first] for r in range(n)]
    return rows + [row[::-1] for row in rows] if n % 2 and n > 1 else rows


def interleaved(runners: dict[str, Runner], n_sets: int, *, min_rounds: int = 20,
                max_rounds: int = 200, target_seconds: float = 1.0, warmup: int = 2) -> dict[str, Timings]:
    """Time every runner in interleaved rounds; at least ``min_rounds`` cycles of rounds (a
    cycle: the orders of :func:`round_orders`, one a round), more for fast candidates until about
    ``target_seconds`` of measured time per candidate set, up to ``max_rounds`` rounds where that
    is more than ``min_rounds`` cycles. Each round waits behind a :func:`hold` twice as long as the
    host took to enqueue the last one."""
    labels = list(runners)
    orders = [[labels[i] for i in row] for row in round_orders(len(labels))]
    cycle = len(orders)
    slot = 0
    host_ms = 0.0
    for _ in range(warmup):
        t0 = time.perf_counter()
        for label in labels:
            runners[label](slot % n_sets)
            slot += 1
        host_ms = (time.perf_counter() - t0) * 1e3  # the last warm-up round's: no compile in it
    torch.cuda.synchronize()
    _sleep_cycles_per_ms()

    results = {label: Timings(label, [], cycle) for label in labels}
    rounds = min_rounds * cycle
    r = 0
    while r < rounds:
        events = []
        hold(2 * host_ms + 0.05)
        t0 = time.perf_counter()
        for label in orders[r % cycle]:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            runners[label](slot % n_sets)
            end.record()
            slot += 1
            events.append((label, start, end))
        host_ms = (time.perf_counter() - t0) * 1e3
        torch.cuda.synchronize()
        for label, start, end in events:
            results[label].ms.append(start.elapsed_time(end))
        r += 1
        if r == min_rounds * cycle:
            round_s = sum(t.median_ms for t in results.values()) / 1e3
            wanted = min(max_rounds, int(target_seconds / max(round_s, 1e-9)))
            rounds = max(r, wanted // cycle * cycle)
    return results


def paired_ratio(candidate: Timings, baseline: Timings) -> float:
    """Median over cycles of rounds of candidate_time / baseline_time, each the ratio of the
    cycle's mean times (a cycle of one round: per-round ratios)."""
    return statistics.median(c / b for c, b in zip(candidate.cycle_ms(), baseline.cycle_ms()))


def capture(runner: Runner, n_sets: int) -> torch.cuda.CUDAGraph:
    """A CUDA graph of ``runner`` called on each of the ``n_sets`` input sets in turn, replayed
    once (the first replay uploads it)."""
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(n_sets):
            runner(i)
    graph.replay()
    torch.cuda.synchronize()
    return graph


def replayed_placements(runners: dict[tuple[str, int], Runner], n_sets: int,
                        rounds: int) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Per-call microseconds of candidates timed as CUDA-graph replays: each ``(label,
    placement)`` runner is captured over its ``n_sets`` input sets and replayed in ``rounds``
    interleaved rounds. Returns each label's mean over its placements and the per-placement
    medians (a placement: a candidate's own copies of the inputs, at addresses of their own)."""
    graphs = {key: capture(run, n_sets) for key, run in runners.items()}
    times = interleaved({key: (lambda i, g=g: g.replay()) for key, g in graphs.items()}, 1,
                        min_rounds=rounds, max_rounds=rounds, warmup=2)
    each: dict[str, list[float]] = {}
    for (label, _), t in times.items():
        each.setdefault(label, []).append(t.median_ms / n_sets * 1e3)
    return {label: sum(v) / len(v) for label, v in each.items()}, each
