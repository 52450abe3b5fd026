#!/usr/bin/env python3
"""Kernel durations over K at fixed M x N, from the GPU timeline (scripts/launch_gap.py's helpers,
dependent launches off): cuBLAS against rung 06 as ``auto`` runs it and in other configurations,
each kernel in a rotation of its own (no other kernel of ours: docs/benchmarking.md). The slope
over K is the main loop's rate; the intercept, what a call costs besides (launch, fill, epilogue).

    python scripts/k_sweep_timeline.py [--mn 4096x1024 4096x2048] [--ks 512 1024 2048 4096 8192]
                                       [--variants auto hopper/06_tma_store_epilogue:CLUSTER=1 ...]

After each M x N with two or more K, a line gives each kernel's least-squares fit: us per 1024 of
K (the main loop's rate) and us at K = 0 (what a call costs besides).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

import torch

import warpgemm
from warpgemm import catalog
from warpgemm.errors import WarpgemmError
from warpgemm.parsing import parse_kernel, parse_shape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from launch_gap import _summary, _timeline, cold_sets  # noqa: E402

launch = importlib.import_module("warpgemm.runtime.launch")
VARIANTS = ["auto", "hopper/06_tma_store_epilogue:BM=256,BN=128,CLUSTER=2", "hopper/06_tma_store_epilogue:CLUSTER=1",
            "hopper/06_tma_store_epilogue:CLUSTER=2,BK=128,STAGES=2"]


def fit_line(points: list[tuple[int, float]]) -> tuple[float, float]:
    """The least-squares line through (K, us) points, as (us per 1024 of K, us at K = 0)."""
    if len({k for k, _ in points}) < 2:
        raise ValueError("a line needs points at two or more K")
    n = len(points)
    mk = sum(k for k, _ in points) / n
    mt = sum(t for _, t in points) / n
    slope = sum((k - mk) * (t - mt) for k, t in points) / sum((k - mk) ** 2 for k, _ in points)
    return 1024 * slope, mt - slope * mk


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mn", nargs="+", default=["4096x1024", "4096x2048"])
    ap.add_argument("--ks", nargs="+", type=int, default=[512, 1024, 2048, 4096, 8192])
    ap.add_argument("--variants", nargs="+", default=VARIANTS, help="auto, or NAME[:P=V,...] (default: %(default)s)")
    args = ap.parse_args()
    try:
        variants = [(v, ("auto", {}) if v == "auto" else parse_kernel(v)) for v in args.variants]
        for _, (name, params) in variants:
            if name != "auto":
                catalog.get(name).resolve(params)  # an unknown kernel or parameter, refused here
    except (ValueError, WarpgemmError) as e:
        ap.error(f"--variants: {e}")
    try:
        mns = [parse_shape(f"{mn}x1")[:2] for mn in args.mn]
    except ValueError:
        ap.error(f"--mn takes MxN of positive integers such as 4096x1024, got {args.mn}")
    if any(k < 1 for k in args.ks):
        ap.error(f"--ks takes positive integers, got {args.ks}")
    if not torch.cuda.is_available():
        ap.error("it times kernels on the GPU's timeline: no CUDA device here")
    launch.set_dependent_launch(False)
    for m, n in mns:
        points: dict[str, list[tuple[int, float]]] = {}
        for k in args.ks:
            sets = cold_sets(m, n, k)
            count = len(sets)
            cells = []
            s = _summary(_timeline([("c", lambda i: torch.matmul(sets[i % count][0], sets[i % count][1]))], 20))
            times = {"cuBLAS": s["c"]["duration_us"]}
            for v, (name, params) in variants:
                run = ("w", lambda i: warpgemm.matmul(sets[i % count][0], sets[i % count][1], kernel=name, **params))
                times[v.split(":")[-1]] = _summary(_timeline([run], 20))["w"]["duration_us"]
            for label, us in times.items():
                cells.append(f"{label} {us:.1f}")
                points.setdefault(label, []).append((k, us))
            print(f"{m}x{n}x{k} us: " + " | ".join(cells), flush=True)
        if len(set(args.ks)) >= 2:
            fits = {label: fit_line(p) for label, p in points.items()}
            print(f"{m}x{n} fit: " + " | ".join(f"{label} {rate:.2f} us per 1024 of K, {at0:.1f} at K = 0"
                                                 for label, (rate, at0) in fits.items()), flush=True)


if __name__ == "__main__":
    main()
