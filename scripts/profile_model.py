#!/usr/bin/env python3
"""Where a decode step of the Llama-architecture benchmark model spends its GPU time, patched
against unpatched: the CUDA kernels of a few greedy tokens under torch.profiler, with the static
cache and torch.compile(mode="reduce-overhead") that ``warpgemm bench model`` uses, and Dynamo's
graph and graph-break counts. With ``--prefill``: one 4 x 1024 prefill instead, its wall time
against the sum of its kernels' times (host-bound when the wall time is the larger), and the
kernels.

    python scripts/profile_model.py [--eager | --prefill]
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warpgemm import nn as wnn  # noqa: E402
from warpgemm.bench import model as bench_model  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--eager", action="store_true", help="dynamic cache, no compile")
    ap.add_argument("--tokens", type=int, default=8)
    ap.add_argument("--prefill", action="store_true", help="a 4 x 1024 prefill instead of decode")
    args = ap.parse_args()
    torch.manual_seed(0)
    unpatched = bench_model.build()
    patched = wnn.patch(copy.deepcopy(unpatched))
    if args.prefill:
        prefill(unpatched, patched)
        return
    ids = torch.randint(0, 32000, (1, 16), device="cuda")
    kw = {} if args.eager else {"cache_implementation": "static"}
    for name, model in (("unpatched", unpatched), ("patched", patched)):
        torch._dynamo.utils.counters.clear()
        with torch.no_grad():
            for _ in range(3):
                model.generate(ids, max_new_tokens=args.tokens, min_new_tokens=args.tokens, do_sample=False,
                               pad_token_id=0, **kw)
            torch.cuda.synchronize()
            c = torch._dynamo.utils.counters
            print(f"== {name}: unique graphs {c['stats'].get('unique_graphs', 0)}, graph breaks "
                  f"{sum(c['graph_break'].values())} {dict(c['graph_break'])}, inductor "
                  f"{ {k: v for k, v in c['inductor'].items() if 'cudagraph' in k} }")
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            model.generate(ids, max_new_tokens=64, min_new_tokens=64, do_sample=False, pad_token_id=0, **kw)
            e.record()
            e.synchronize()
            print(f"   64 new tokens: {s.elapsed_time(e) / 64:.3f} ms per token")
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                model.generate(ids, max_new_tokens=args.tokens, min_new_tokens=args.tokens, do_sample=False,
                               pad_token_id=0, **kw)
                torch.cuda.synchronize()
        print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=14, max_name_column_width=70))


def prefill(unpatched: torch.nn.Module, patched: torch.nn.Module) -> None:
    ids = torch.randint(0, 32000, (4, 1024), device="cuda")
    for name, model in (("unpatched", unpatched), ("patched", patched)):
        with torch.no_grad():
            for _ in range(3):
                model(ids)
            torch.cuda.synchronize()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            model(ids)
            e.record()
            e.synchronize()
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                model(ids)
                torch.cuda.synchronize()
        events = prof.key_averages()
        busy = sum(ev.self_device_time_total for ev in events) / 1000
        print(f"== {name}: prefill {s.elapsed_time(e):.2f} ms wall, kernels {busy:.2f} ms")
        print(events.table(sort_by="self_cuda_time_total", row_limit=12, max_name_column_width=70))


if __name__ == "__main__":
    main()
