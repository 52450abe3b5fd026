#!/usr/bin/env python3
"""Which kernels cuBLAS runs for bf16 Linear problems (torch.matmul(x, w.t()), x of M x K, w of
N x K): their names, which carry cuBLAS's tile, stage and cluster shapes, their grids and
durations, from torch's profiler, one warmed call a shape. Writes JSON to $OUT (default .).

    python scripts/cublas_kernels.py [--shapes 64x4096x4096 ...] [--json NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile

DEFAULT = ["48x4096x4096", "56x4096x4096", "64x4096x4096", "64x6144x4096", "16x14336x4096", "32x14336x4096",
           "8x8192x8192", "4x28672x8192"]


def kernels(m: int, n: int, k: int) -> list[dict]:
    """The CUDA kernels of one warmed torch.matmul of an M x N x K bf16 Linear problem."""
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        torch.matmul(x, w.t())
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        torch.matmul(x, w.t())
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        events = json.load(open(path))["traceEvents"]
    return [{"name": e["name"], "grid": e["args"].get("grid"), "block": e["args"].get("block"), "us": e.get("dur")}
            for e in events if e.get("cat") == "kernel"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--shapes", nargs="+", default=DEFAULT, help="M x N x K, as 64x4096x4096")
    ap.add_argument("--json", default="cublas_kernels.json")
    args = ap.parse_args()
    out = {}
    for shape in args.shapes:
        m, n, k = (int(v) for v in shape.split("x"))
        out[shape] = kernels(m, n, k)
        print(shape, [(e["name"], e["grid"], e["us"]) for e in out[shape]], flush=True)
    doc = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "kernels": out}
    with open(os.path.join(os.environ.get("OUT", "."), args.json), "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
