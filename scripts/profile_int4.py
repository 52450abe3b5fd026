#!/usr/bin/env python3
"""Run the int4 kernels that widen on chip (int4/05, int4/06) and the int8 kernel (igemm/02) a few
times on one square shape, for ncu:

    ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis \\
        --section MemoryWorkloadAnalysis --section WarpStateStats -k regex:"widen|igemm_wgmma" -s 3 -c 3 \\
        python scripts/profile_int4.py 8192 [--unsigned]
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm import int4  # noqa: E402


def main() -> None:
    s = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    signed = "--unsigned" not in sys.argv
    lo, hi = (-8, 8) if signed else (0, 16)
    x = torch.randint(lo, hi, (s, s), dtype=torch.int8, device="cuda")
    w = torch.randint(lo, hi, (s, s), dtype=torch.int8, device="cuda")
    a, b = int4.Packed.from_values(x, signed=signed), int4.Packed.from_values(w, signed=signed).t()
    for _ in range(2):
        warpgemm.matmul(a, b, kernel="int4/05_widen_to_s8_wgmma")
        warpgemm.matmul(a, b, kernel="int4/06_widen_a_to_registers")
        warpgemm.matmul(x, w.t(), kernel="igemm/02_wgmma_s8")
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
