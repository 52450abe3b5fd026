#!/usr/bin/env python3
"""The benchmark's ratio of ``auto`` to cuBLAS under two variants of its method, alternating in
one process; everything else is the benchmark's own ``runner.bench_case`` (bf16; the Linear
layout, B = W.t(), except where the shape is square and ``--square-layout`` asks for row-major B).

``--vary order``: the rounds turned by one place a round (what the benchmark did until the
balanced order: with cuBLAS, ``auto`` and the mma.sync ceiling loop, cuBLAS always ran right after
the ceiling loop and ``auto`` right after cuBLAS) against balanced (``timing.round_orders``: every
candidate after every other equally often).

``--vary ceiling``: the mma.sync ceiling loop taking its turn in every round, as the benchmark
has it, against rounds of cuBLAS and ``auto`` alone.

    PYTHONPATH=src python scripts/bench_method_ab.py --vary order [--shapes 1024x4096x4096 ...]
        [--repeats 2] [--json out.json]
    PYTHONPATH=src python scripts/bench_method_ab.py --vary ceiling --shapes 4096^3 8192^3 --repeats 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
from pathlib import Path
from typing import Iterator

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warpgemm.bench import context, runner, timing  # noqa: E402
from warpgemm.bench.suites import Case  # noqa: E402
from warpgemm.catalog import COL, ROW  # noqa: E402
from warpgemm.parsing import parse_shape  # noqa: E402


def turned_orders(n: int) -> list[list[int]]:
    """The order turned by one place a round: round r is r, r + 1, ... modulo n."""
    return [[(c + r) % n for c in range(n)] for r in range(n)]


@contextlib.contextmanager
def _variant(vary: str, name: str) -> Iterator[None]:
    """The benchmark with one variant of its method in force."""
    if vary == "order":
        saved, module, attr = timing.round_orders, timing, "round_orders"
        replacement = turned_orders if name == "turned" else timing.round_orders
    else:
        saved, module, attr = runner._ceiling_kinds, runner, "_ceiling_kinds"
        replacement = runner._ceiling_kinds if name == "with the ceiling loop" else (lambda choices, dtype: [])
    setattr(module, attr, replacement)
    try:
        yield
    finally:
        setattr(module, attr, saved)


VARIANTS = {"order": ("turned", "balanced"), "ceiling": ("with the ceiling loop", "without it")}


def ratio_in(vary: str, name: str, case: Case) -> dict:
    """One bench of ``auto`` at ``case`` under variant ``name``: x cuBLAS and both TFLOP/s."""
    with _variant(vary, name):
        rows = runner.bench_case(case, [runner.Choice(None)], torch.bfloat16)
    ours = next(r for r in rows if r.get("baseline"))
    base = next(r for r in rows if not r.get("baseline"))
    return {"variant": name, "speedup": ours["speedup"], "tflops": ours["tflops"], "cublas_tflops": base["tflops"],
            "graph_speedup": ours.get("graph_speedup")}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vary", choices=sorted(VARIANTS), required=True)
    ap.add_argument("--shapes", nargs="+", default=["1024x4096x4096", "1024x6144x4096", "4096x4096x4096",
                                                    "8192x8192x8192"])
    ap.add_argument("--repeats", type=int, default=2, help="alternations of the two variants at each shape")
    ap.add_argument("--square-layout", choices=["row", "col"], default="col",
                    help="B's layout at square shapes (the square suite's is row)")
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        shapes = [parse_shape(text) for text in args.shapes]
    except ValueError as e:
        ap.error(str(e))
    if not torch.cuda.is_available():
        print("bench_method_ab.py needs a CUDA GPU", file=sys.stderr)
        return 2
    first, second = VARIANTS[args.vary]
    results = []
    for m, n, k in shapes:
        b_layout = (ROW if args.square_layout == "row" else COL) if m == n == k else COL
        case = Case(m, n, k, ROW, b_layout)
        runs = [ratio_in(args.vary, name, case) for rep in range(args.repeats)
                for name in ((first, second) if rep % 2 == 0 else (second, first))]
        summary = {v: statistics.median(r["speedup"] for r in runs if r["variant"] == v) for v in (first, second)}
        results.append({"m": m, "n": n, "k": k, "b_layout": b_layout, "runs": runs, "median_speedup": summary})
        print(f"{m}x{n}x{k}: " + "; ".join(
            f"{v} " + ", ".join(f"{r['speedup']:.3f}x ({r['tflops']:.1f}; {r['cublas_tflops']:.1f})"
                               for r in runs if r["variant"] == v) for v in (first, second)), flush=True)
    if args.json:
        doc = {"context": context.collect(), "dtype": "bfloat16", "vary": args.vary,
               "method": f"runner.bench_case (auto against cuBLAS), {first} or {second}, alternating",
               "results": results}
        Path(args.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
