#!/usr/bin/env python3
"""Run the scaled int8 product and the plain int8 kernel a few times on one shape, for ncu:

    ncu --clock-control none --section WarpStateStats -k regex:igemm_ python scripts/profile_scaled.py 4096

With a second argument M (at most 64, the decode sizes), A has M rows and the scaled product runs
on four weights in turn, so that each launch reads its weight from memory (cold in L2), as the
decode benchmark times it:

    ncu --clock-control none --section SpeedOfLight -k regex:igemm_scaled_swap -s 4 -c 1 python scripts/profile_scaled.py 4096 16
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402


def main() -> None:
    s = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    if len(sys.argv) > 2:
        m = int(sys.argv[2])
        x = torch.randint(-128, 128, (m, s), dtype=torch.int8, device="cuda")
        ws = [torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda") for _ in range(4)]
        sx, sw = torch.rand(m, device="cuda"), torch.rand(s, device="cuda")
        for i in range(12):
            warpgemm.scaled_matmul(x, ws[i % 4].t(), sx, sw)
        torch.cuda.synchronize()
        return
    a = torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda")
    w = torch.randint(-128, 128, (s, s), dtype=torch.int8, device="cuda")
    sa, sb, bias = torch.rand(s, device="cuda"), torch.rand(s, device="cuda"), torch.randn(s, device="cuda")
    for _ in range(3):
        warpgemm.matmul(a, w.t())
        warpgemm.scaled_matmul(a, w.t(), sa, sb, bias)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
