#!/usr/bin/env python3
"""Where a decode step of the Llama-architecture benchmark model spends its GPU time, patched
against unpatched: the CUDA kernels of a few greedy tokens under torch.profiler, with the static
cache and torch.compile(mode="reduce-overhead") that ``warpgemm bench model`` uses, and Dynamo's
graph and graph-break counts. With ``--prefill``: one 4 x 1024 prefill instead, its wall time
against the sum of its kernels' times (host-bound when the wall time is the larger), and the
kernels. With ``--per-gemm``: each Linear of the prefill timed alone on the very tensors the
model gave it (hooks), warpgemm against F.linear in interleaved rounds, and again on randn data
of the same shapes (the benchmark's data), to tell a kernel that is slower on these shapes
from one that is slower on this data.

    python scripts/profile_model.py [--eager | --prefill | --per-gemm]
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
    ap.add_argument("--per-gemm", action="store_true", help="each Linear of the prefill on its own")
    args = ap.parse_args()
    torch.manual_seed(0)
    unpatched = bench_model.build()
    patched = wnn.patch(copy.deepcopy(unpatched))
    if args.per_gemm:
        per_gemm(unpatched)
        return
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


def per_gemm(model: torch.nn.Module, reps: int = 20, rounds: int = 7) -> None:
    import statistics

    import torch.nn.functional as F


    seen: dict[str, tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]] = {}

    def hook(module: torch.nn.Module, inputs: tuple, output: torch.Tensor, name: str) -> None:
        kind = name.rsplit(".", 1)[-1]  # q_proj, ..., lm_head: one entry per kind (layer 0's)
        seen.setdefault(kind, (inputs[0].detach().clone(), module.weight.detach(), module.bias))

    handles = [m.register_forward_hook(lambda mod, i, o, n=n: hook(mod, i, o, n))
               for n, m in model.named_modules() if type(m) is torch.nn.Linear]
    with torch.no_grad():
        model(torch.randint(0, 32000, (4, 1024), device="cuda"))
    for h in handles:
        h.remove()

    def timed(fn) -> float:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) * 1000 / reps

    print(f"{'linear':>10} {'M x N x K':>20} {'data':>6} {'cuBLAS us':>10} {'warpgemm us':>12} {'x':>6}  |x|, |W| rms")
    total = {"model": [0.0, 0.0], "randn": [0.0, 0.0]}
    for kind, (x, w, b) in seen.items():
        x2 = x.reshape(-1, x.shape[-1])
        m, k, n = x2.shape[0], x2.shape[1], w.shape[0]
        for data in ("model", "randn"):
            xs, ws = (x2, w) if data == "model" else (torch.randn_like(x2), torch.randn_like(w))
            runs = {"cublas": lambda: F.linear(xs, ws, b), "warpgemm": lambda: wnn.linear(xs, ws, b)}
            for fn in runs.values():
                fn()
            t: dict[str, list[float]] = {key: [] for key in runs}
            for _ in range(rounds):
                for key, fn in runs.items():
                    t[key].append(timed(fn))
            c, g = statistics.median(t["cublas"]), statistics.median(t["warpgemm"])
            total[data][0] += c * (8 if kind != "lm_head" else 1)
            total[data][1] += g * (8 if kind != "lm_head" else 1)
            rms = f"{xs.float().pow(2).mean().sqrt().item():.3g}, {ws.float().pow(2).mean().sqrt().item():.3g}"
            print(f"{kind:>10} {f'{m}x{n}x{k}':>20} {data:>6} {c:10.1f} {g:12.1f} {c / g:6.3f}  {rms}")
    for data, (c, g) in total.items():
        print(f"== per-gemm {data} data: 8 layers + lm_head, cuBLAS {c / 1000:.3f} ms, warpgemm {g / 1000:.3f} ms, {c / g:.3f}x")


if __name__ == "__main__":
    main()
