#!/usr/bin/env python3
"""Run the small-M kernel a few times on one decode shape (cold weights), for ncu:

    ncu --clock-control none --section SpeedOfLight -k regex:decode -c 1 python scripts/ncu_decode.py 1 4096 4096
    ncu ... python scripts/ncu_decode.py 8 4096 4096 decode/04_row_sweep_mma STAGES=3

Without a kernel name it runs ``kernel="auto"``; NAME=VALUE arguments are its parameters. The
name ``cublas`` runs ``torch.matmul`` instead, for the same shape under the same ncu filter
(``-k regex:"decode|nvjet|gemm"``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402


def main() -> None:
    m, n, k = (int(x) for x in sys.argv[1:4]) if len(sys.argv) > 3 else (1, 4096, 4096)
    kernel = sys.argv[4] if len(sys.argv) > 4 else "auto"
    params = {kv.split("=")[0]: int(kv.split("=")[1]) for kv in sys.argv[5:]}
    ws = [torch.randn(n, k, device="cuda").to(torch.bfloat16) for _ in range(4)]
    x = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    for i in range(8):
        if kernel == "cublas":
            torch.matmul(x, ws[i % 4].t())
        else:
            warpgemm.matmul(x, ws[i % 4].t(), kernel=kernel, **params)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
