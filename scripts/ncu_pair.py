#!/usr/bin/env python3
"""cuBLAS and warpgemm's ``auto`` on one bf16 problem in the nn.Linear layout, three calls each,
for ncu to profile side by side (gpu_check.sh's ``ncu_pair`` step):

    ncu --clock-control none --metrics ... -k regex:"nvjet|hopper_" -s 4 -c 2 \\
        python scripts/ncu_pair.py 4096 4096 4096

``--kernel NAME[:P=V,...]`` runs that catalogue kernel (with those template parameters) in place
of ``auto``, for example ``--kernel hopper/06_tma_store_epilogue:HOLD=1,CLUSTER=2``.
"""

from __future__ import annotations

import argparse

import torch

import warpgemm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for name in ("m", "n", "k"):
        ap.add_argument(name, type=int)
    ap.add_argument("--kernel", default="auto", help="NAME[:P=V,...] (default: auto)")
    args = ap.parse_args()
    name, _, spec = args.kernel.partition(":")
    params = {p.split("=")[0]: int(p.split("=")[1]) for p in spec.split(",") if p}
    a = torch.randn(args.m, args.k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(args.n, args.k, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        torch.matmul(a, w.t())
        warpgemm.matmul(a, w.t(), kernel=name, **params)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
