#!/usr/bin/env python3
"""Measure a small-M kernel's parameters on this GPU, against cuBLAS, the way the decode suite
times it: CUDA-graph replays over enough copies of the weight that every call reads it from HBM,
candidates and cuBLAS interleaved. Prints, per shape, cuBLAS and the fastest choices; writes every
timing with its context as JSON.

    python scripts/decode_sweep.py [--kernel decode/02_swap_ab_wgmma] [--ms 1 16 32 64]
        [--nk 4096x4096 14336x4096] [--space "BM=64,128;STAGES=4,8" | --cands BM=64,STAGES=8 ...]
        [--dtype bfloat16|float16] [--json out.json]

Candidates also run ``kernel="auto"`` (the shipped rules' choice; the tuning table is not read) in
the same rounds, and with ``--before TEXT`` what ``auto`` chose before the rules whose note names
TEXT (a results file, say), as "before", to check a new rule against the rules it displaced. With
``--replicates R`` every candidate (cuBLAS and auto too) runs on R sets of weight copies of its own
and is reported by the mean of the R medians: a kernel's speed can depend on where in memory its
weight lies (docs/decode.md, "In step"), and one placement a candidate can be lucky or not.
``scripts/sweep_table.py`` reads the JSON back as a table of candidates by shape.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm import catalog, dispatch  # noqa: E402
from warpgemm.bench import context, timing  # noqa: E402
from warpgemm.parsing import parse_params  # noqa: E402



def _copies(ws: list[torch.Tensor]) -> list[torch.Tensor]:
    return [w.clone() for w in ws]


def _choice_before(text: str, m: int, n: int, k: int, dtype: torch.dtype) -> dispatch.Rule:
    """The rule ``auto`` takes for a Linear M x N x K problem on this GPU without the rules whose
    note names ``text``; SystemExit when no shipped rule's note does."""
    if not any(text in (r.note or "") for r in dispatch.RULES):
        raise SystemExit(f"--before: no dispatch rule's note names {text!r}")
    from warpgemm.runtime.device import current_capability, device_name

    rules = tuple(r for r in dispatch.RULES if text not in (r.note or ""))
    return dispatch.choose(current_capability(), str(dtype).removeprefix("torch."), m, n, k, rules=rules,
                           layouts=("row", "col"), device=device_name(torch.cuda.current_device()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--kernel", default="decode/01_swap_ab_splitk")
    ap.add_argument("--ms", type=int, nargs="+", default=[1, 4, 16, 32, 64])
    ap.add_argument("--nk", nargs="+", default=["4096x4096", "14336x4096", "4096x14336", "8192x8192"])
    ap.add_argument("--space", default=None,
                    help="parameter values to try, NAME=v,v;NAME=v,... (default: the kernel's tuning space)")
    ap.add_argument("--cands", nargs="*", default=None,
                    help="explicit candidates instead of a space, each NAME=v,NAME=v,...; none (the flag alone): "
                         "only auto, and with --before what it chose before")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--replicates", type=int, default=1,
                    help="weight placements per candidate, each on copies of its own (default 1)")
    ap.add_argument("--dtype", choices=["bfloat16", "float16"], default="bfloat16",
                    help="the weights' and tokens' type (the output's too)")
    ap.add_argument("--before", metavar="TEXT", default=None,
                    help="also time auto's choice without the rules whose note names TEXT, as 'before'")
    ap.add_argument("--json")
    args = ap.parse_args()
    dtype = getattr(torch, args.dtype)
    # "auto" (and "before") here are the rules' choices: a choice `warpgemm tune` remembered in
    # this cache's tuning table would otherwise run in their place for an autotuned kernel.
    from warpgemm.tuning import table

    table.lookup = lambda spec, problem: None
    kernel = args.kernel
    spec = catalog.get(kernel)
    if args.cands is not None:
        try:
            cands = [parse_params(c.split(",")) for c in args.cands]
        except ValueError as exc:
            ap.error(f"--cands: {exc}")
    elif args.space:
        space = {kv.split("=")[0]: [int(v) for v in kv.split("=")[1].split(",")] for kv in args.space.split(";")}
    else:
        space = {name: list(values) for name, values in spec.tuning.items()}
    if args.cands is None:
        names = list(space)
        cands = [dict(zip(names, vals)) for vals in itertools.product(*space.values())]

    def shaped(p, m, n, k):
        return spec.resolve({**(spec.shape_params(m, n, k) if spec.shape_params else {}), **p})

    cands = [p for p in cands if any(spec.valid(shaped(p, m, 4096, 4096)) for m in args.ms)]
    # Compile every candidate for every M in parallel processes first.
    from warpgemm.runtime.device import current_arch
    from warpgemm.tuning.search import precompile
    from warpgemm.tuning.table import Problem

    shapes = [tuple(int(x) for x in nk.split("x")) for nk in args.nk]
    variants = {tuple(sorted(shaped(p, m, n, k).items())) for p in cands for m in args.ms for n, k in shapes}
    precompile(spec, [dict(v) for v in variants if spec.valid(dict(v))],
               Problem(1, 1, 1, args.dtype, args.dtype, "row", "col"), current_arch())
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    bw = context.read_bandwidth_gbps()
    doc = {"context": context.collect(), "read_bandwidth_gbps": bw, "kernel": kernel, "dtype": args.dtype,
           "results": []}
    print(f"{doc['context']['gpu']}: read bandwidth {bw:.0f} GB/s")
    for nk in args.nk:
        n, k = (int(x) for x in nk.split("x"))
        w_bytes = n * k * 2
        sets = timing.sets_needed(w_bytes, l2, 2)
        ws = [torch.randn(n, k, device="cuda").to(dtype) for _ in range(sets)]
        for m in args.ms:
            xs = [torch.randn(m, k, device="cuda").to(dtype) for _ in range(sets)]
            out = torch.empty(m, n, device="cuda", dtype=dtype)
            ref = (xs[0].double() @ ws[0].double().t())
            # Each candidate reads its own copies of the weights (the same values elsewhere), so
            # that what one left in L2 is never what the next reads.
            runners = {}
            reps = args.replicates
            for r in range(reps):
                runners[("cuBLAS", r)] = lambda i, w=_copies(ws): torch.matmul(xs[i], w[i].t())
                runners[("auto", r)] = lambda i, w=_copies(ws): warpgemm.matmul(xs[i], w[i].t(), out=out)
            if args.before:
                before = _choice_before(args.before, m, n, k, dtype)
                for r in range(reps):
                    runners[("before", r)] = lambda i, w=_copies(ws), rule=before: warpgemm.matmul(
                        xs[i], w[i].t(), kernel=rule.kernel, out=out, **rule.params)
            for p in cands:
                q = shaped(p, m, n, k)
                if (not spec.valid(q) or (spec.max_m is not None and m > spec.max_m(q))
                        or (spec.max_k is not None and k > spec.max_k(q))):
                    continue
                label = ",".join(f"{k_}={v}" for k_, v in p.items())
                for r in range(reps):
                    def run(i, p=p, w=_copies(ws)):
                        return warpgemm.matmul(xs[i], w[i].t(), kernel=kernel, out=out, **p)
                    runners[(label, r)] = run
            for (label, r), run in runners.items():
                if r:
                    continue
                got = run(0).double()
                err = float(torch.linalg.vector_norm(got - ref) / torch.linalg.vector_norm(ref))
                if not err < 1e-2:
                    raise SystemExit(f"{label} at {m}x{n}x{k}: wrong result (rel err {err:.2e})")
            per_call, each = timing.replayed_placements(runners, sets, args.rounds)
            base = per_call.pop("cuBLAS")
            best = sorted(per_call.items(), key=lambda kv: kv[1])
            auto = per_call["auto"]
            print(f"M={m:>2} N={n} K={k}: cuBLAS {base:6.2f} us ({w_bytes / base / 1e3:5.0f} GB/s); auto {base / auto:4.2f}x; best: "
                  + "; ".join(f"{lab} {us:6.2f} us {base / us:4.2f}x" for lab, us in best[:3]), flush=True)
            for label, us in per_call.items():
                doc["results"].append({"m": m, "n": n, "k": k, "params": label, "us": us, "cublas_us": base,
                                       "speedup": base / us, "weight_gbps": w_bytes / us / 1e3,
                                       "us_each_placement": each[label], "cublas_us_each_placement": each["cuBLAS"]})
            del xs, runners
            if args.json:  # after every shape, so that a run cut short keeps what it measured
                Path(args.json).write_text(json.dumps(doc, indent=1))
        del ws
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
