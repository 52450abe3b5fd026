#!/usr/bin/env python3
"""The floor under a decode GEMM: how fast can any kernel read the weight once, timed the way the
decode suite times a GEMM (CUDA-graph replays over copies of the weight that each call reads from
HBM, every candidate on copies of its own, interleaved rounds)?

A decode GEMM at M = 1 is one pass over W. The probe kernel (kernels/probes/read_floor_probe.cu)
only reads: 16-byte L1-bypassing loads, the decode kernels' load, folded into one word that is
never stored. Over its parameters (threads a block, blocks a SM, loads in flight a thread, the
order of the reads, the 256-byte L2 fetch) its fastest time is what reading that many bytes
costs on this GPU, launch, first loads and tail included. One of its orders is the split-K decode
kernel's own walk over W, without the math. cuBLAS and ``kernel="auto"`` run in the same rounds at
each M of ``--ms``: the ratio to cuBLAS that a kernel reading W at the floor would reach.

    python scripts/read_floor.py [--nk 4096x4096 8192x8192] [--ms 1 4 16 32 64] [--rounds 15]
        [--json out.json]

With ``--launch CANDIDATE`` (a label it prints, e.g. ``THREADS=512,UNROLL=4,ORDER=0,L2_256B=1,PER_SM=4``)
it only launches that probe eight times over four weights of the first ``--nk``, for a profiler:

    ncu --clock-control none -k regex:read_floor -s 4 -c 1 python scripts/read_floor.py --launch ...
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm.bench import context, timing  # noqa: E402
from warpgemm.runtime.compiler import compile_kernel  # noqa: E402
from warpgemm.runtime.device import sm_count  # noqa: E402
from warpgemm.runtime.launch import launch  # noqa: E402

SOURCE = "probes/read_floor_probe.cu"


def configs(threads: list[int], unrolls: list[int], per_sm: list[int], staggers: list[int],
            segs: list[int]) -> list[dict[str, int]]:
    """Orders 0-2: every (THREADS, UNROLL, L2_256B, blocks a SM) with at most 2048 threads a SM.
    Order 3 (the decode kernel's walk, one block per 16 rows): THREADS up to 512 (rung 01's 16
    warps), its UNROLL (1, 2, 4), the L2 fetch, STAGGER, and SEGS (1: the kernel's 64 bytes of
    each of 8 rows a load; 8: 512 bytes of one row)."""
    out = [dict(THREADS=t, UNROLL=u, ORDER=o, L2_256B=l2, PER_SM=b)
           for o, t, u, l2, b in itertools.product((0, 1, 2), threads, unrolls, (0, 1), per_sm) if t * b <= 2048]
    out += [dict(THREADS=t, UNROLL=u, ORDER=3, L2_256B=l2, STAGGER=st, SEGS=sg)
            for t, u, l2, st, sg in itertools.product([t for t in threads if t <= 512] or [512], (1, 2, 4), (0, 1),
                                                      staggers, segs)]
    return out


def instance(c: dict[str, int]) -> str:
    return (f"read_floor_probe<{c['THREADS']}, {c['UNROLL']}, {c['ORDER']}, {c['L2_256B']}, "
            f"{c.get('STAGGER', 1)}, {c.get('SEGS', 1)}>")


def label(c: dict[str, int]) -> str:
    return ",".join(f"{k}={v}" for k, v in c.items())


def launch_only(candidate: str, nk: str, dependent: bool) -> int:
    c = {key: int(v) for key, v in (kv.split("=") for kv in candidate.split(","))}
    n, k = (int(x) for x in nk.split("x"))
    kern = compile_kernel(SOURCE, instance(c))
    grid = (n // 16 if c["ORDER"] == 3 else sm_count(0) * c["PER_SM"], 1, 1)
    ws = [torch.randn(n, k, device="cuda").to(torch.bfloat16) for _ in range(4)]
    never = torch.zeros(1, dtype=torch.int32, device="cuda")
    for i in range(8):
        launch(kern, grid, (c["THREADS"], 1, 1), (ws[i % 4], np.int64(n * k // 8), np.int64(2 * k), never),
               dependent=dependent)
    torch.cuda.synchronize()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nk", nargs="+", default=["4096x4096", "8192x8192"])
    ap.add_argument("--ms", type=int, nargs="+", default=[1, 4, 16, 32, 64])
    ap.add_argument("--threads", type=int, nargs="+", default=[512, 1024])
    ap.add_argument("--unroll", type=int, nargs="+", default=[2, 4, 8])
    ap.add_argument("--per-sm", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--stagger", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--segs", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--orders", type=int, nargs="+", default=[0, 1, 2, 3])
    ap.add_argument("--replicates", type=int, default=1,
                    help="weight placements per candidate, each on copies of its own; reported by the mean")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--dependent", type=int, default=1, help="launch the probe as a programmatic dependent launch")
    ap.add_argument("--json")
    ap.add_argument("--launch", help="only launch this candidate (a printed label), for a profiler")
    args = ap.parse_args()
    if args.launch:
        return launch_only(args.launch, args.nk[0], bool(args.dependent))

    sms = sm_count(0)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    bw = context.read_bandwidth_gbps()
    never = torch.zeros(1, dtype=torch.int32, device="cuda")
    cands = [c for c in configs(args.threads, args.unroll, args.per_sm, args.stagger, args.segs)
             if c["ORDER"] in args.orders]
    kernels = {label(c): compile_kernel(SOURCE, instance(c)) for c in cands}
    doc = {"context": context.collect(), "read_bandwidth_gbps": bw, "dependent_launch": bool(args.dependent),
           "method": "CUDA-graph replays, each candidate on weight copies of its own, rotated past L2; "
                     "interleaved rounds; per-call median", "results": []}
    print(f"{doc['context']['gpu']}: read bandwidth {bw:.0f} GB/s (a sum over 2 GiB)", flush=True)
    for nk in args.nk:
        n, k = (int(x) for x in nk.split("x"))
        w_bytes = n * k * 2
        sets = timing.sets_needed(w_bytes, l2, 2)
        base = [torch.randn(n, k, device="cuda").to(torch.bfloat16) for _ in range(sets)]
        runners = {}
        gemms = []
        reps = range(args.replicates)
        for m in args.ms:
            xs = [torch.randn(m, k, device="cuda").to(torch.bfloat16) for _ in range(sets)]
            out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
            for r in reps:
                runners[(f"cuBLAS M={m}", r)] = lambda i, w=[t.clone() for t in base], xs=xs: torch.matmul(xs[i], w[i].t())
                runners[(f"auto M={m}", r)] = lambda i, w=[t.clone() for t in base], xs=xs, out=out: \
                    warpgemm.matmul(xs[i], w[i].t(), out=out)
            gemms += [f"cuBLAS M={m}", f"auto M={m}"]
        for c in cands:
            kern = kernels[label(c)]
            grid = (n // 16 if c["ORDER"] == 3 else sms * c["PER_SM"], 1, 1)
            for r in reps:
                def run(i, w=[t.clone() for t in base], kern=kern, grid=grid, c=c):
                    launch(kern, grid, (c["THREADS"], 1, 1), (w[i], np.int64(w_bytes // 16), np.int64(2 * k), never),
                           dependent=bool(args.dependent))
                runners[(label(c), r)] = run
        for r in runners.values():  # warm up outside capture: cuBLAS's handle, the kernels' first launch
            r(0)
        torch.cuda.synchronize()
        if int(never.item()):
            raise SystemExit("the probe's fold hit its sentinel: rerun (a 2^-32 chance)")
        us, each = timing.replayed_placements(runners, sets, args.rounds)
        probes = sorted((key for key in us if key not in gemms), key=us.get)
        floor = us[probes[0]]
        walk = min((key for key in probes if "ORDER=3" in key), key=us.get, default=probes[0])
        for key in us:
            doc["results"].append({"n": n, "k": k, "weight_bytes": w_bytes, "candidate": key, "us": us[key],
                                   "us_each_placement": each[key],
                                   "gbps": w_bytes / us[key] / 1e3, "of_read_bandwidth": w_bytes / us[key] / 1e3 / bw})
        print(f"{n} x {k} ({w_bytes / 1e6:.1f} MB): read floor {floor:.2f} us ({w_bytes / floor / 1e3:.0f} GB/s, "
              f"{w_bytes / floor / 1e3 / bw:.1%} of the 2 GiB read); the decode kernel's walk alone {us[walk]:.2f} us "
              f"({walk})", flush=True)
        for m in args.ms:
            cub, auto = us[f"cuBLAS M={m}"], us[f"auto M={m}"]
            print(f"    M={m:>2}: cuBLAS {cub:6.2f} us, auto {auto:6.2f} us ({cub / auto:.3f}x); "
                  f"a read at the floor would be {cub / floor:.3f}x cuBLAS", flush=True)
        for o in [o for o in args.orders if o < 3]:
            best = [key for key in probes if f"ORDER={o}" in key][:3]
            print(f"    order {o}: " + "; ".join(f"{key} {us[key]:.2f} us" for key in best), flush=True)
        for sg in args.segs if 3 in args.orders else []:
            best = [key for key in probes if "ORDER=3" in key and f"SEGS={sg}" in key][:3]
            print(f"    order 3, SEGS={sg}: " + "; ".join(f"{key} {us[key]:.2f} us" for key in best), flush=True)
        del runners, base, xs
        torch.cuda.empty_cache()
        if args.json:
            Path(args.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
