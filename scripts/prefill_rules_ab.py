#!/usr/bin/env python3
"""The benchmark model's 4 x 1024 prefill under other rule sets for rung 06, in one process:
unpatched, then the patched model with the shipped rules and with each variant below, in
interleaved rounds (the order rotated every round). Each variant's launch plans are made once
(with its rules in force) and swapped in before its runs, so no round pays for planning.

    python scripts/prefill_rules_ab.py [ROUNDS] [VARIANT ...]     (default: 61 rounds, all variants)

Prints each variant's median prefill time and the median over rounds of unpatched / patched.
"""

from __future__ import annotations

import copy
import statistics
import sys

import torch

from warpgemm import dispatch, plan
from warpgemm import nn as wnn
from warpgemm.bench import model as bench_model
from warpgemm.dispatch import INF, Rule

K6 = "hopper/06_tma_store_epilogue"
_DTYPES = ("bfloat16", "float16")


def _rules(m: tuple[int, int], n: tuple[int, int], **params: int) -> list[Rule]:
    return [Rule(K6, dt, capability=(90, 90), m=m, n=n, params=params) for dt in _DTYPES]


VARIANTS: dict[str, list[Rule]] = {
    "shipped": [],
    # No clusters where the grid is about two waves or less at 128 x 256 (k and v, q and o).
    "small grids CLUSTER=1": _rules((257, 4096), (0, 2048)) + _rules((257, 2048), (0, 4096)),
    # 2-block clusters from N = 16384 (the LM head), where the shipped rules take single blocks.
    "wide CLUSTER=2": _rules((257, INF), (16384, INF), CLUSTER=2),
    "wide 256x128 CLUSTER=2": _rules((257, INF), (16384, INF), CLUSTER=2, BM=256, BN=128),
    "all CLUSTER=1": _rules((257, INF), (0, INF)),
    # The rules before single blocks for small grids: 2-block clusters there too.
    "small grids CLUSTER=2": _rules((257, 4096), (0, 2048), CLUSTER=2) + _rules((257, 2048), (0, 4096), CLUSTER=2),
    "k, v BN=128": _rules((257, INF), (0, 1024), CLUSTER=2, BN=128),
    "k, v BN=128 CLUSTER=1": _rules((257, INF), (0, 1024), BN=128),
    "q, k, v, o BN=128 CLUSTER=1": _rules((257, INF), (0, 2048), BN=128),
    "k, v 256x128": _rules((257, INF), (0, 1024), CLUSTER=2, BM=256, BN=128),
}


def main() -> None:
    if len(sys.argv) > 1 and not sys.argv[1].isdigit():
        sys.exit(f"usage: prefill_rules_ab.py [ROUNDS] [VARIANT ...]; ROUNDS is a positive integer, got {sys.argv[1]!r}")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 61
    names = sys.argv[2:] or list(VARIANTS)
    unknown = [name for name in names if name not in VARIANTS]
    if unknown or rounds < 1:
        sys.exit(f"prefill_rules_ab.py: unknown variant(s) {unknown} or ROUNDS < 1; the variants are {list(VARIANTS)}")
    torch.manual_seed(0)
    unpatched = bench_model.build()
    patched = wnn.patch(copy.deepcopy(unpatched))
    ids = torch.randint(0, unpatched.config.vocab_size, (4, 1024), device="cuda")
    shipped = dispatch.RULES
    plans = {}
    with torch.no_grad():
        for name in names:
            dispatch.RULES = tuple(VARIANTS[name]) + shipped
            dispatch._by_key.clear()
            plan._plans = {}
            patched(ids)
            torch.cuda.synchronize()
            plans[name] = plan._plans
        dispatch.RULES = shipped
        dispatch._by_key.clear()

        def variant(name: str):
            def run():
                plan._plans = plans[name]
                return patched(ids)
            return run

        runs = {"unpatched": lambda: unpatched(ids), **{name: variant(name) for name in names}}
        for fn in runs.values():
            fn()
            fn()
        times: dict[str, list[float]] = {k: [] for k in runs}
        order = list(runs)
        for r in range(rounds):
            for k in order[r % len(order):] + order[:r % len(order)]:
                times[k].append(bench_model._time_ms(runs[k]))
    for name in names:
        ratio = statistics.median(u / p for u, p in zip(times["unpatched"], times[name]))
        print(f"{name:24} median {statistics.median(times[name]):.3f} ms, unpatched / patched {ratio:.4f}")
    print(f"{'unpatched':24} median {statistics.median(times['unpatched']):.3f} ms")


if __name__ == "__main__":
    main()
