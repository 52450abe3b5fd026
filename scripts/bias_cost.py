#!/usr/bin/env python3
"""What the fused bias costs: ``warpgemm.matmul(a, b, bias=bias)`` against the same call without
it, and both against cuBLAS (``torch.mm`` and ``torch.addmm``), bf16, b = W.t() (Linear's
layout), in the bench's interleaved rounds on cold inputs.

    python scripts/bias_cost.py [--shapes 4096x4096x4096 8192x8192x8192] [--json out.json]

Prints, per shape, each candidate's median time and the ratios cuBLAS / warpgemm without and
with the bias, and warpgemm's own time with the bias over its time without.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm.bench import context, timing  # noqa: E402


def parse_shape(text: str) -> tuple[int, int, int]:
    try:
        m, n, k = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a shape is MxNxK, e.g. 4096x4096x4096, not {text!r}") from None
    if min(m, n, k) < 1:
        raise argparse.ArgumentTypeError(f"M, N and K are at least 1: {text!r}")
    return m, n, k


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", nargs="+", type=parse_shape,
                    default=[(4096, 4096, 4096), (8192, 8192, 8192), (2048, 14336, 4096)])
    ap.add_argument("--json")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("bias_cost.py needs a CUDA GPU", file=sys.stderr)
        return 2
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    doc = {"context": context.collect(), "dtype": "bfloat16", "layout": "a row-major, b = W.t()",
           "method": "interleaved rounds (the bench's, timing.round_orders), cold inputs; medians over cycles",
           "results": []}
    print(doc["context"]["gpu"], flush=True)
    for m, n, k in args.shapes:
        set_bytes = 2 * (m * k + n * k + n) + 2 * m * n
        sets = timing.sets_needed(set_bytes, l2, 4)
        a = [torch.randn(m, k, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
        w = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
        bias = [torch.randn(n, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
        runners = {
            "cublas": lambda i: torch.mm(a[i], w[i].t()),
            "cublas_bias": lambda i: torch.addmm(bias[i], a[i], w[i].t()),
            "warpgemm": lambda i: warpgemm.matmul(a[i], w[i].t()),
            "warpgemm_bias": lambda i: warpgemm.matmul(a[i], w[i].t(), bias=bias[i]),
        }
        got = runners["warpgemm_bias"](0).double()
        want = torch.addmm(bias[0].double(), a[0].double(), w[0].double().t())
        err = ((got - want).abs().max() / want.abs().max()).item()
        t = timing.interleaved(runners, sets)
        row = {"shape": [m, n, k], "ms": {label: t[label].median_ms for label in runners},
               "cublas_over_warpgemm": timing.paired_ratio(t["cublas"], t["warpgemm"]),
               "cublas_bias_over_warpgemm_bias": timing.paired_ratio(t["cublas_bias"], t["warpgemm_bias"]),
               "warpgemm_bias_over_warpgemm": timing.paired_ratio(t["warpgemm_bias"], t["warpgemm"]),
               "max_relative_error_with_bias": err}
        doc["results"].append(row)
        us = {label: 1e3 * v for label, v in row["ms"].items()}
        print(f"{m}x{n}x{k}: cuBLAS {us['cublas']:.1f} us, +bias {us['cublas_bias']:.1f} us; warpgemm "
              f"{us['warpgemm']:.1f} us, +bias {us['warpgemm_bias']:.1f} us; ratio to cuBLAS "
              f"{row['cublas_over_warpgemm']:.3f}x, with bias {row['cublas_bias_over_warpgemm_bias']:.3f}x; "
              f"bias costs warpgemm {row['warpgemm_bias_over_warpgemm']:.3f}x (error {err:.1e})", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
