"""Interleaved timing with CUDA events, on cold inputs.

Candidates (kernels and their baselines) are timed in rounds, A B C A B C ..., so that clock
drift hits all of them alike. Each launch reads an input set that none of the launches just
before it touched: the sets rotate, and there are enough of them that the data a launch reads
has been pushed out of L2 by at least twice the L2 size of other traffic since it was last read.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Callable

import torch

Runner = Callable[[int], torch.Tensor]
"""Runs one candidate on input set ``i`` and returns its output."""


@dataclass
class Timings:
    label: str
    ms: list[float]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.ms)


def sets_needed(working_set_bytes: int, l2_bytes: int, candidates: int) -> int:
    """Input sets to rotate so that a set is re-read only after 2 x L2 of other traffic."""
    if working_set_bytes >= 2 * l2_bytes:
        return 1
    # Between two uses of one set, (sets - 1) other sets are read, by the same or other candidates.
    return min(256, math.ceil(2 * l2_bytes / max(working_set_bytes, 1)) + 1)


def interleaved(runners: dict[str, Runner], n_sets: int, *, min_rounds: int = 20,
                max_rounds: int = 200, target_seconds: float = 1.0, warmup: int = 2) -> dict[str, Timings]:
    """Time every runner in interleaved rounds; at least ``min_rounds`` rounds, more for fast
    candidates until about ``target_seconds`` of measured time per candidate set."""
    labels = list(runners)
    slot = 0
    for _ in range(warmup):
        for label in labels:
            runners[label](slot % n_sets)
            slot += 1
    torch.cuda.synchronize()

    results = {label: Timings(label, []) for label in labels}
    rounds = min_rounds
    r = 0
    while r < rounds:
        events = []
        for label in labels:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            runners[label](slot % n_sets)
            end.record()
            slot += 1
            events.append((label, start, end))
        torch.cuda.synchronize()
        for label, start, end in events:
            results[label].ms.append(start.elapsed_time(end))
        r += 1
        if r == min_rounds:
            round_s = sum(t.median_ms for t in results.values()) / 1e3
            rounds = max(min_rounds, min(max_rounds, int(target_seconds / max(round_s, 1e-9))))
    return results


def paired_ratio(candidate: Timings, baseline: Timings) -> float:
    """Median over rounds of candidate_time / baseline_time."""
    return statistics.median(c / b for c, b in zip(candidate.ms, baseline.ms))


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
