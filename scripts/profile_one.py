#!/usr/bin/env python3
"""Run one warpgemm kernel on one problem a few times, for a profiler to look at.

    ncu -k regex:sgemm_tf32 -c 1 python scripts/profile_one.py sgemm/08_tf32_mma 4096 4096 4096
    python scripts/profile_one.py hgemm/07_tuned 8192 8192 8192 --dtype bfloat16 --b-layout col -p STAGES=4
"""

from __future__ import annotations

import argparse

import torch

import warpgemm


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("kernel")
    ap.add_argument("m", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("k", type=int)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--a-layout", default="row", choices=("row", "col"))
    ap.add_argument("--b-layout", default="row", choices=("row", "col"))
    ap.add_argument("-p", "--param", action="append", default=[])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    dtype = getattr(torch, args.dtype)

    def operand(r: int, c: int, layout: str) -> torch.Tensor:
        t = torch.randn((r, c) if layout == "row" else (c, r), device="cuda").to(dtype)
        return t if layout == "row" else t.t()

    a, b = operand(args.m, args.k, args.a_layout), operand(args.k, args.n, args.b_layout)
    params = {k: int(v) for k, v in (p.split("=") for p in args.param)}
    for _ in range(args.runs):
        warpgemm.matmul(a, b, kernel=args.kernel, **params)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
