#!/usr/bin/env python3
"""Where a GEMM's time goes between kernels: for each shape, the GPU timeline (CUPTI, through
torch.profiler) of warpgemm.matmul and torch.matmul in three sequences, all queued behind a hold
so that the host never starves the GPU:

  after cuBLAS   cuBLAS, warpgemm, cuBLAS, warpgemm, ... (the order `warpgemm bench` times them in)
  alone          warpgemm, warpgemm, ...                 (back to back: a dependent launch overlaps)
  after add      add, warpgemm, add, warpgemm, ...       (an elementwise kernel before each, as in a model)

For each sequence, per kernel: the median of its duration on the timeline and of the gap from the
end of the kernel before it to its start (negative: it started early, as a programmatic dependent
launch does), and the median period (start to start of the same kernel, over the sequence). Run
with dependent launches on and off (``--dependent both``). Inputs rotate over enough sets that
every launch reads operands cold in L2.

    python scripts/launch_gap.py [--shapes 4096x2048x2048 ...] [--reps 20] [--dependent on|off|both]
    python scripts/launch_gap.py --switch [--shapes 4096x1024x2048] [--json F]
    python scripts/launch_gap.py --events [--shapes 1024x4096x4096 ...] [--reps 30] [--json F]

``--events`` times cuBLAS and warpgemm as ``warpgemm bench`` does (``timing.interleaved``: events
around each launch, rounds behind a hold, in a balanced order) under the profiler, and
sets each launch's event time beside its kernel's duration on the timeline, per candidate and
per place in the round: what the events add to the kernel, and what going first or second does
to it, with dependent launches on and off, for ``auto`` and rung 06 in single blocks and in
2-block clusters.

``--switch`` measures what a change of kernel costs instead: on each shape, rung 06 (CLUSTER = 1)
alone, then in one rotation with a second function of rung 06 (GROUP = 16, another
instantiation of the same source), with cuBLAS between the two, with itself on other data, and
with cuBLAS only; cuBLAS with another cuBLAS kernel (another shape); and two instantiations of
decode/01 at 1 x 4096 x 4096. Each kernel's median duration on the timeline, dependent launches
off. The first two runs of each kernel in a rotation are left out of the medians.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import tempfile

import torch

import warpgemm
from warpgemm import plan
from warpgemm.bench import context, timing
from warpgemm.parsing import parse_shape

launch = importlib.import_module("warpgemm.runtime.launch")  # the module (warpgemm.runtime.launch is also a function)


def cold_sets(m: int, n: int, k: int) -> list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """Input sets (A (M, K) row-major, B = W.t() of an (N, K) weight, and an (M, N) tensor for an
    elementwise kernel), bf16, as many as ``timing.sets_needed`` asks for this GPU's L2: a launch
    on set i % len(sets) reads operands that are cold in L2."""
    l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
    return _sets(m, n, k, timing.sets_needed(2 * (m * k + n * k + 2 * m * n), l2, 2))


def _sets(m: int, n: int, k: int, count: int) -> list[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    return [(torch.randn(m, k, device="cuda", dtype=torch.bfloat16),
             torch.randn(n, k, device="cuda", dtype=torch.bfloat16).t(),
             torch.randn(m, n, device="cuda", dtype=torch.bfloat16)) for _ in range(count)]


def _timeline(sequence, reps: int) -> list[dict]:
    """The kernels of ``reps`` runs of ``sequence`` (a list of (label, fn(i))), queued behind a hold,
    as dicts of label, start and end in microseconds."""
    for label, fn in sequence:  # warm: compiles and plans outside the profile
        fn(0)
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        timing.hold(20.0)
        for i in range(reps):
            for label, fn in sequence:
                fn(i)
        torch.cuda.synchronize()
    kernels = _trace_kernels(prof)
    labels = [label for _ in range(reps) for label, _ in sequence]
    if len(kernels) != len(labels):
        raise RuntimeError(f"expected {len(labels)} kernels on the timeline, found {len(kernels)}: "
                           f"{sorted({k['name'][:40] for k in kernels})}")
    return [{"label": lb, "start": k["ts"], "end": k["ts"] + k["dur"], "name": k["name"]}
            for lb, k in zip(labels, kernels)]


def _trace_kernels(prof: torch.profiler.profile) -> list[dict]:
    """The kernels on a profile's GPU timeline in start order, the holds left out."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "trace.json")
        prof.export_chrome_trace(path)
        events = json.load(open(path))["traceEvents"]
    kernels = sorted((e for e in events if e.get("cat") == "kernel"), key=lambda e: e["ts"])
    return [k for k in kernels if "spin_kernel" not in k["name"] and "sleep" not in k["name"].lower()]


def _summary(tl: list[dict]) -> dict[str, dict[str, float]]:
    """Per label: median duration, gap after the kernel before it, and period, in microseconds,
    leaving out each label's first two runs."""
    out: dict[str, dict[str, float]] = {}
    for label in dict.fromkeys(e["label"] for e in tl):
        idx = [i for i, e in enumerate(tl) if e["label"] == label]
        dur = [tl[i]["end"] - tl[i]["start"] for i in idx[2:]]
        gap = [tl[i]["start"] - tl[i - 1]["end"] for i in idx[2:] if i > 0]
        period = [tl[b]["start"] - tl[a]["start"] for a, b in zip(idx[2:], idx[3:])]
        out[label] = {"duration_us": statistics.median(dur), "gap_us": statistics.median(gap),
                      "period_us": statistics.median(period) if period else float("nan")}
    return out


def switch(text: str, reps: int) -> list[dict]:
    """Durations of rung 06 and cuBLAS kernels in rotations with and without a second function of ours."""
    m, n, k = parse_shape(text)
    own = [cold_sets(m, n, k) for _ in range(3)]  # every candidate reads its own copies
    count = len(own[0])
    other = _sets(m, n + n // 2, k, count)  # cuBLAS picks another kernel for 1.5 N
    k6 = "hopper/06_tma_store_epilogue"

    def ours(j: int, **params: int):
        return lambda i: warpgemm.matmul(own[j][i % count][0], own[j][i % count][1], kernel=k6, CLUSTER=1, **params)

    c1, c1_other_data, c1_group16 = ("06", ours(2)), ("06 on other data", ours(1)), ("06 GROUP=16", ours(1, GROUP=16))
    cublas = ("cuBLAS", lambda i: torch.matmul(own[0][i % count][0], own[0][i % count][1]))
    cublas_other = ("cuBLAS, 1.5 N", lambda i: torch.matmul(other[i % count][0], other[i % count][1]))
    rotations = {"06 alone": [c1], "06 GROUP=16, 06": [c1_group16, c1], "cuBLAS, 06 GROUP=16, 06": [cublas, c1_group16, c1],
                 "06 on other data, 06": [c1_other_data, c1], "cuBLAS, 06": [cublas, c1],
                 "cuBLAS alone": [cublas], "cuBLAS 1.5 N, cuBLAS": [cublas_other, cublas]}
    return _rotations(text, rotations, reps)


def decode_switch(reps: int) -> list[dict]:
    """Two decode kernels of ours (decode/01 with and without the 256-byte L2 fetch) at
    1 x 4096 x 4096, each alone and in one rotation, 8 weights each (cold in L2)."""
    x = torch.randn(1, 4096, device="cuda", dtype=torch.bfloat16)
    weights = [[torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16).t() for _ in range(8)] for _ in range(2)]
    d1 = "decode/01_swap_ab_splitk"
    decode = ("decode/01", lambda i: warpgemm.matmul(x, weights[0][i % 8], kernel=d1))
    decode_l2 = ("decode/01 L2_256B=1", lambda i: warpgemm.matmul(x, weights[1][i % 8], kernel=d1, L2_256B=1))
    return _rotations("1x4096x4096", {"decode/01 alone": [decode], "decode/01 L2_256B=1 alone": [decode_l2],
                                      "decode/01, decode/01 L2_256B=1": [decode, decode_l2]}, reps)


def _rotations(text: str, rotations: dict, reps: int) -> list[dict]:
    """Each rotation's kernel durations, dependent launches off (the setting is restored after)."""
    was = launch.dependent_launch_enabled()
    launch.set_dependent_launch(False)
    plan.clear()
    out = []
    try:
        for name, seq in rotations.items():
            s = _summary(_timeline(seq, reps))
            out.append({"shape": text, "rotation": name, "kernels": s})
            print(f"{text} {name:30} " + "  ".join(f"{lb}: {v['duration_us']:.1f} us" for lb, v in s.items()), flush=True)
    finally:
        launch.set_dependent_launch(was)
        plan.clear()
    return out


def events(text: str, reps: int, dependent: list[str]) -> list[dict]:
    """Per candidate and per place in the round (first after the hold, or second), the medians
    of event time, timeline duration and their difference, over ``reps`` cycles of interleaved
    rounds timed as ``warpgemm bench`` times them (``timing.round_orders``)."""
    m, n, k = parse_shape(text)
    sets = cold_sets(m, n, k)
    count = len(sets)
    k6 = "hopper/06_tma_store_epilogue"
    runners = {
        "cuBLAS": lambda i: torch.matmul(sets[i % count][0], sets[i % count][1]),
        "auto": lambda i: warpgemm.matmul(sets[i % count][0], sets[i % count][1]),
        "06 CLUSTER=1": lambda i: warpgemm.matmul(sets[i % count][0], sets[i % count][1], kernel=k6, CLUSTER=1),
        "06 CLUSTER=2": lambda i: warpgemm.matmul(sets[i % count][0], sets[i % count][1], kernel=k6, CLUSTER=2),
    }
    out = []
    was = launch.dependent_launch_enabled()
    try:
        for dep in dependent:
            launch.set_dependent_launch(dep == "on")
            plan.clear()
            for pick in (["cuBLAS", "auto"], ["cuBLAS", "06 CLUSTER=1"], ["cuBLAS", "06 CLUSTER=2"]):
                chosen = {label: runners[label] for label in pick}
                for fn in chosen.values():  # compile and plan outside the profile
                    fn(0)
                torch.cuda.synchronize()
                with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                    timed = timing.interleaved(chosen, count, min_rounds=reps, max_rounds=2 * reps, warmup=2)
                    torch.cuda.synchronize()
                rounds = len(timed[pick[0]].ms)
                kernels = _trace_kernels(prof)[-rounds * len(pick):]  # the timed rounds (the warm-up's come first)
                if len(kernels) != rounds * len(pick):
                    raise RuntimeError(f"{len(kernels)} kernels on the timeline for {rounds} rounds of {pick}")
                row = {"shape": text, "dependent": dep, "pair": pick, "kernels": {}}
                orders = timing.round_orders(len(pick))
                for r in range(rounds):
                    order = [pick[i] for i in orders[r % len(orders)]]
                    for place, label in enumerate(order):
                        kernel = kernels[r * len(pick) + place]
                        cell = row["kernels"].setdefault(f"{label}, {('first', 'second')[place]}",
                                                         {"event": [], "duration": [], "name": kernel["name"][:60]})
                        cell["event"].append(timed[label].ms[r] * 1e3)
                        cell["duration"].append(kernel["dur"])
                for cell in row["kernels"].values():
                    cell.update(event_us=statistics.median(cell["event"]), duration_us=statistics.median(cell["duration"]),
                                event_minus_duration_us=statistics.median(a - b for a, b in zip(cell.pop("event"),
                                                                                                cell.pop("duration"))))
                out.append(row)
                print(f"{text} dependent={dep:3} " + "  ".join(
                    f"{lb}: events {v['event_us']:.1f} dur {v['duration_us']:.1f} (+{v['event_minus_duration_us']:.1f})"
                    for lb, v in sorted(row["kernels"].items())), flush=True)
    finally:
        launch.set_dependent_launch(was)
        plan.clear()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", nargs="+", default=["4096x2048x2048", "4096x1024x2048", "4096x4096x4096"])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--dependent", choices=["on", "off", "both"], default="both")
    ap.add_argument("--json", default=None)
    ap.add_argument("--switch", action="store_true", help="what a change of kernel costs (see above)")
    ap.add_argument("--events", action="store_true", help="what events add to each kernel's time (see above)")
    args = ap.parse_args()
    try:
        shapes = [parse_shape(text) for text in args.shapes]
    except ValueError as e:
        ap.error(str(e))
    results = []
    if args.events:
        for text in args.shapes:
            results += events(text, args.reps, ["on", "off"] if args.dependent == "both" else [args.dependent])
        args.shapes = []
    if args.switch:
        for text in args.shapes:
            results += switch(text, args.reps)
        results += decode_switch(args.reps)
        args.shapes = []
    for text, (m, n, k) in zip(args.shapes, shapes):
        sets = cold_sets(m, n, k)
        x = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
        for dep in (["on", "off"] if args.dependent == "both" else [args.dependent]):
            launch.set_dependent_launch(dep == "on")
            plan.clear()
            ours = ("warpgemm", lambda i: warpgemm.matmul(sets[i % len(sets)][0], sets[i % len(sets)][1]))
            cublas = ("cuBLAS", lambda i: torch.matmul(sets[(i + 1) % len(sets)][0], sets[(i + 1) % len(sets)][1]))
            add = ("add", lambda i: torch.add(x, sets[i % len(sets)][2]))
            for name, seq in (("after cuBLAS", [cublas, ours]), ("alone", [ours]), ("after add", [add, ours]),
                              ("cuBLAS alone", [cublas]), ("cuBLAS after add", [add, cublas])):
                s = _summary(_timeline(seq, args.reps))
                results.append({"shape": text, "dependent": dep, "sequence": name, "kernels": s})
                cells = "  ".join(f"{lb}: dur {v['duration_us']:.1f} gap {v['gap_us']:+.1f} period {v['period_us']:.1f}"
                                  for lb, v in s.items())
                print(f"{text} dependent={dep:3} {name:16} {cells}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"family": "launch_gap", "context": context.collect(), "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
