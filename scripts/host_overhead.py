#!/usr/bin/env python3
"""Host time per warpgemm.matmul call on tiny problems, against torch.matmul, and where it goes:
64^3 (the mma.sync and small-M paths), one token through a 2048 x 2048 weight in the nn.Linear
layout (the decode path: small enough that the GPU keeps up with the host) and, on sm_90, 128 x
256 x 256 in the nn.Linear layout (the Hopper path, whose tensor maps are made per call); and a
patched ``nn.Linear`` on one token and on 32 tokens of a (batch, tokens, hidden) input against the
layer unpatched (what a model's eager decode pays a layer; on sm_90 the 32 tokens run a kernel
with tensor maps).

    python scripts/host_overhead.py [--repeats 7] [--calls 1000] [--profile] [--breakdown] [--edge]

Each case runs ``repeats`` times ``calls`` back-to-back eager calls, the cases taking turns
(A B C A B C ...), so that a slow spell of the host hits them all; the table gives the fastest
and the median repeat, in microseconds per call. Then the ratio to torch.matmul, paired: many
pairs of adjacent short blocks (warpgemm's calls, torch's calls, in alternating order), the ratio
of each pair, and their median and quartiles: the figure to compare against 1.0. To compare two versions of warpgemm,
run the script once with each on ``PYTHONPATH``, in turns (the registered op's namespace can be
defined once per process, so two versions cannot share one). ``--breakdown`` times the steps of a
planned call one by one (the plan key, its lookup, the output's allocation, the launch alone).
``--edge`` (sm_90) times what the tensor map of A's ragged last tile-row adds to a call whose
activation sits at an address the plan has not kept arguments for (docs/hopper.md, "A's ragged
last tile-row").
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import time

import torch

import warpgemm


def per_call_us(fn, calls: int = 1000) -> float:
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / calls * 1e6


def host_us(fn, calls: int = 20000) -> float:
    """Microseconds per call of ``fn``, best of five loops, no synchronisation (host work only)."""
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, time.perf_counter() - t)
        torch.cuda.synchronize()
    return best / calls * 1e6


def paired_ratios(ours, theirs, pairs: int = 200, block: int = 200) -> list[float]:
    """Per-call time of ``ours`` over that of ``theirs``, for ``pairs`` pairs of adjacent blocks of
    ``block`` calls each (which goes first alternates): a slow spell of the host hits both halves
    of a pair, so the ratios scatter far less than separate timings do."""
    ratios = []
    for i in range(pairs):
        first, second = (ours, theirs) if i % 2 == 0 else (theirs, ours)
        t1, t2 = per_call_us(first, block), per_call_us(second, block)
        ratios.append(t1 / t2 if i % 2 == 0 else t2 / t1)
    return ratios


def breakdown(name: str, a: torch.Tensor, b: torch.Tensor) -> None:
    """The steps of a planned ``warpgemm.matmul(a, b)`` timed one by one."""
    from warpgemm import plan

    warpgemm.matmul(a, b)
    k = plan.key(a, b, None, None, "auto", {}, None)
    found = plan.get(k)
    steps = {
        "whole call": lambda: warpgemm.matmul(a, b),
        "torch.matmul": lambda: torch.matmul(a, b),
        "torch.compiler.is_compiling()": torch.compiler.is_compiling,
        "plan.key": lambda: plan.key(a, b, None, None, "auto", {}, None),
        "plan.get": lambda: plan.get(k),
        "plan run (allocate + launch)": lambda: found.run(a, b, None, None),
        "torch.empty of the output": lambda: torch.empty(found.shape, dtype=found.dtype, device=a.device),
    }
    launcher = getattr(found, "launcher", None)
    prepared = getattr(found, "_prepared", None)
    if launcher is not None and prepared:
        last = next(reversed(prepared.values()))
        steps["launch alone (prepared)"] = lambda: launcher.launch(last, found.device)
    elif launcher is not None and hasattr(found, "_local"):
        steps["launch alone (prepared)"] = lambda: launcher.launch(found._local.prepared, found.device)
    print(f"breakdown of a planned call, {name} ({type(found).__name__}):")
    for step, fn in steps.items():
        print(f"  {step:<34} {host_us(fn):6.2f} us")


def edge_cost(calls: int = 2000) -> None:
    """Host time per call of rung 06 in 128 x 128 tiles at 200 x 256 x 256 (a last tile-row of 72
    rows) and at 256 x 256 x 256, with ``A_EDGE`` 1 and 0, each call on an activation at a new
    address: the inputs cycle through twice as many buffers as a plan keeps arguments for, so every
    call makes its tensor maps (two for A where M is ragged and A_EDGE = 1)."""
    import itertools

    from warpgemm.plan import ArgsPlan

    w = torch.randn(256, 256, device="cuda").bfloat16()
    params = {"kernel": "hopper/06_tma_store_epilogue", "BM": 128, "BN": 128}
    for m in (200, 256):
        xs = [torch.randn(m, 256, device="cuda").bfloat16() for _ in range(2 * ArgsPlan.KEEP)]
        best: dict[tuple[int, str], float] = {}
        for _ in range(3):  # the settings in turns, the fastest of three turns each
            for edge in (1, 0):
                cycle = itertools.cycle(xs)
                new = lambda: warpgemm.matmul(next(cycle), w.t(), A_EDGE=edge, **params)  # noqa: E731
                kept = lambda: warpgemm.matmul(xs[0], w.t(), A_EDGE=edge, **params)  # noqa: E731
                for where, fn in (("new address", new), ("kept address", kept)):
                    fn()
                    us = host_us(fn, calls)
                    best[edge, where] = min(best.get((edge, where), us), us)
        for edge in (1, 0):
            print(f"host time per call, rung 06 128 x 128, {m} x 256 x 256, A_EDGE = {edge}: "
                  f"new address {best[edge, 'new address']:6.2f} us, kept address {best[edge, 'kept address']:6.2f} us")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--breakdown", action="store_true", help="time the steps of a planned call one by one")
    ap.add_argument("--edge", action="store_true",
                    help="only: the host cost of the ragged tile-row's tensor map (sm_90)")
    ap.add_argument("--pairs", type=int, default=200, help="pairs of blocks for the paired ratio")
    ap.add_argument("--block", type=int, default=200, help="calls a block of the paired ratio")
    args = ap.parse_args()
    if args.edge:
        edge_cost()
        return
    a = torch.randn(64, 64, device="cuda")
    b = torch.randn(64, 64, device="cuda")
    ah, bh = a.bfloat16(), b.bfloat16()
    cases = {
        "warpgemm.matmul fp32 (sgemm/07)": lambda: warpgemm.matmul(a, b, kernel="sgemm/07_cp_async"),
        "warpgemm.matmul bf16 (auto)": lambda: warpgemm.matmul(ah, bh),
        "torch.matmul fp32": lambda: torch.matmul(a, b),
    }
    t, wt = torch.randn(1, 2048, device="cuda").bfloat16(), torch.randn(2048, 2048, device="cuda").bfloat16()
    cases["warpgemm.matmul bf16 1x2048x2048 (decode)"] = lambda: warpgemm.matmul(t, wt.t())
    cases["torch.matmul bf16 1x2048x2048"] = lambda: torch.matmul(t, wt.t())
    hopper = torch.cuda.get_device_capability() == (9, 0)
    x, w = torch.randn(128, 256, device="cuda").bfloat16(), torch.randn(256, 256, device="cuda").bfloat16()
    if hopper:
        cases["warpgemm.matmul bf16 128x256x256 (hopper)"] = lambda: warpgemm.matmul(x, w.t())
        cases["torch.matmul bf16 128x256x256"] = lambda: torch.matmul(x, w.t())
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeats):
        for name, fn in cases.items():
            times[name].append(per_call_us(fn, args.calls))
    for name, ts in times.items():
        shape = "" if re.search(r"\d+x\d+x\d+", name) else "64^3, "
        print(f"host time per call, {shape}{name:<44} min {min(ts):7.1f} us  median {statistics.median(ts):7.1f} us")
    pairs = {"64^3 bf16": (lambda: warpgemm.matmul(ah, bh), lambda: torch.matmul(ah, bh)),
             "1x2048x2048 bf16": (lambda: warpgemm.matmul(t, wt.t()), lambda: torch.matmul(t, wt.t()))}
    t32 = torch.randn(32, 2048, device="cuda").bfloat16()
    pairs["32x2048x2048 bf16"] = (lambda: warpgemm.matmul(t32, wt.t()), lambda: torch.matmul(t32, wt.t()))
    if hopper:
        pairs["128x256x256 bf16"] = (lambda: warpgemm.matmul(x, w.t()), lambda: torch.matmul(x, w.t()))
    # A model's decode step calls its layers on (batch, tokens, hidden) inputs: a patched nn.Linear
    # (flattening, the transposed weight, the bias) against the same layer unpatched.
    plain = torch.nn.Linear(2048, 2048, device="cuda", dtype=torch.bfloat16).requires_grad_(False)
    patched = warpgemm.patch(torch.nn.Linear(2048, 2048, device="cuda", dtype=torch.bfloat16)).requires_grad_(False)
    token = torch.randn(1, 1, 2048, device="cuda", dtype=torch.bfloat16)
    pairs["nn.Linear 1x1x2048 -> 2048 bf16 with bias (patched / unpatched)"] = (lambda: patched(token),
                                                                               lambda: plain(token))
    # 32 tokens: on sm_90 a kernel with tensor maps (decode/02), whose arguments a plan keeps per address.
    tokens = torch.randn(1, 32, 2048, device="cuda", dtype=torch.bfloat16)
    pairs["nn.Linear 1x32x2048 -> 2048 bf16 with bias (patched / unpatched)"] = (lambda: patched(tokens),
                                                                                lambda: plain(tokens))
    for name, (ours, theirs) in pairs.items():
        r = paired_ratios(ours, theirs, args.pairs, args.block)
        label = name if "patched" in name else f"warpgemm.matmul / torch.matmul, {name}"
        print(f"paired host-time ratio, {label}: median {statistics.median(r):.3f}x "
              f"(quartiles {statistics.quantiles(r, n=4)[0]:.3f}-{statistics.quantiles(r, n=4)[2]:.3f}x, "
              f"{len(r)} pairs of {args.block} calls)")
    if args.breakdown:
        breakdown("64^3 bf16 (auto)", ah, bh)
        breakdown("1x2048x2048 bf16 (decode)", t, wt.t())
        breakdown("32x2048x2048 bf16 (decode)", t32, wt.t())
        if hopper:
            breakdown("128x256x256 bf16 (hopper)", x, w.t())
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(2000):
            warpgemm.matmul(ah, bh)
            if hopper:
                warpgemm.matmul(x, w.t())
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
