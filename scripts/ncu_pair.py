#!/usr/bin/env python3
"""cuBLAS and warpgemm's ``auto`` on one bf16 problem in the nn.Linear layout, three calls each,
for ncu to profile side by side (gpu_check.sh's ``ncu_pair`` step):

    ncu --clock-control none --metrics ... -k regex:"nvjet|hopper_" -s 4 -c 2 \\
        python scripts/ncu_pair.py 4096 4096 4096
"""

from __future__ import annotations

import argparse

import torch

import warpgemm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("m", "n", "k"):
        ap.add_argument(name, type=int)
    args = ap.parse_args()
    a = torch.randn(args.m, args.k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(args.n, args.k, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        torch.matmul(a, w.t())
        warpgemm.matmul(a, w.t())
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
