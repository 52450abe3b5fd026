#!/usr/bin/env python3
"""The benchmark's ratio of ``auto`` to cuBLAS in two orders of its rounds, alternating in one
process: turned by one place a round (what the benchmark did until the balanced order: with
cuBLAS, ``auto`` and the mma.sync ceiling loop, cuBLAS always ran right after the ceiling loop
and ``auto`` right after cuBLAS) and balanced (``timing.round_orders``: every candidate after
every other equally often). Everything else is the benchmark's own ``runner.bench_case``.

    PYTHONPATH=src python scripts/round_order_ab.py [--shapes 1024x4096x4096 4096x4096x4096 ...]
        [--repeats 2] [--json out.json]

Shapes are in the Linear layout (B = W.t()), bf16, as the llm suite's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Callable

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warpgemm.bench import context, runner, timing  # noqa: E402
from warpgemm.bench.suites import Case  # noqa: E402
from warpgemm.catalog import COL, ROW  # noqa: E402
from warpgemm.parsing import parse_shape  # noqa: E402


def turned_orders(n: int) -> list[list[int]]:
    """The order turned by one place a round: round r is r, r + 1, ... modulo n."""
    return [[(c + r) % n for c in range(n)] for r in range(n)]


ORDERS: dict[str, Callable[[int], list[list[int]]]] = {"turned": turned_orders, "balanced": timing.round_orders}


def ratio_in(order: str, case: Case) -> dict:
    """One bench of ``auto`` at ``case`` with the rounds in ``order``: x cuBLAS and both TFLOP/s."""
    real = timing.round_orders
    timing.round_orders = ORDERS[order]
    try:
        rows = runner.bench_case(case, [runner.Choice(None)], torch.bfloat16)
    finally:
        timing.round_orders = real
    ours = next(r for r in rows if r.get("baseline"))
    base = next(r for r in rows if not r.get("baseline"))
    return {"order": order, "speedup": ours["speedup"], "tflops": ours["tflops"], "cublas_tflops": base["tflops"],
            "graph_speedup": ours.get("graph_speedup")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", nargs="+", default=["1024x4096x4096", "1024x6144x4096", "4096x4096x4096",
                                                    "8192x8192x8192"])
    ap.add_argument("--repeats", type=int, default=2, help="alternations of the two orders at each shape")
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        shapes = [parse_shape(text) for text in args.shapes]
    except ValueError as e:
        ap.error(str(e))
    if not torch.cuda.is_available():
        print("round_order_ab.py needs a CUDA GPU", file=sys.stderr)
        return 2
    results = []
    for m, n, k in shapes:
        case = Case(m, n, k, ROW, COL)
        runs = []
        for rep in range(args.repeats):
            for order in (("turned", "balanced") if rep % 2 == 0 else ("balanced", "turned")):
                runs.append(ratio_in(order, case))
        summary = {o: statistics.median(r["speedup"] for r in runs if r["order"] == o) for o in ORDERS}
        results.append({"m": m, "n": n, "k": k, "runs": runs, "median_speedup": summary})
        print(f"{m}x{n}x{k}: turned " + ", ".join(f"{r['speedup']:.3f}x" for r in runs if r["order"] == "turned")
              + "; balanced " + ", ".join(f"{r['speedup']:.3f}x" for r in runs if r["order"] == "balanced"), flush=True)
    if args.json:
        doc = {"context": context.collect(), "dtype": "bfloat16", "layout": "a row-major, b = W.t()",
               "method": "runner.bench_case (auto, cuBLAS and the mma.sync ceiling loop in each round), the rounds "
                         "turned by one place or in timing.round_orders' balanced cycle, alternating",
               "results": results}
        Path(args.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
