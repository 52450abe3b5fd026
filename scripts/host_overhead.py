#!/usr/bin/env python3
"""Host time per warpgemm.matmul call on a tiny problem, against torch.matmul, and where it goes.

    python scripts/host_overhead.py [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import torch

import warpgemm


def per_call_us(fn, calls: int = 2000) -> float:
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / calls * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    a = torch.randn(64, 64, device="cuda")
    b = torch.randn(64, 64, device="cuda")
    ah, bh = a.bfloat16(), b.bfloat16()
    cases = {
        "warpgemm.matmul fp32 (sgemm/07)": lambda: warpgemm.matmul(a, b, kernel="sgemm/07_cp_async"),
        "warpgemm.matmul bf16 (auto)": lambda: warpgemm.matmul(ah, bh),
        "torch.matmul fp32": lambda: torch.matmul(a, b),
    }
    for name, fn in cases.items():
        print(f"host time per call, 64^3, {name:<34} {per_call_us(fn):7.1f} us")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(2000):
            warpgemm.matmul(ah, bh)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(18)


if __name__ == "__main__":
    main()
