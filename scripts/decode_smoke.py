#!/usr/bin/env python3
"""The row sweep (decode/03) on ragged shapes and block shapes, each checked against float64:
a short run for compute-sanitizer (memcheck, racecheck), as scripts/gpu_check.sh's decode step
runs it.

    compute-sanitizer --tool memcheck --error-exitcode 9 python scripts/decode_smoke.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402

CASES = [  # (M, N, K, params): a partial last vector, several passes, 256 and 1024 threads, 8 tokens
    (1, 4096, 4096, {}), (3, 1000, 4099, {}), (1, 14336, 1000, {"ROWS": 8}), (8, 33, 31, {}),
    (2, 5000, 2048, {"THREADS": 256, "ROWS": 2, "UNROLL": 2}), (1, 7, 100003, {"THREADS": 1024, "BLOCKS": 1}),
]


def main() -> int:
    gen = torch.Generator(device="cuda").manual_seed(0)
    for m, n, k, params in CASES:
        x = torch.randn(m, k, device="cuda", generator=gen).to(torch.bfloat16)
        w = torch.randn(n, k, device="cuda", generator=gen).to(torch.bfloat16)
        bias = torch.randn(n, device="cuda", generator=gen).to(torch.bfloat16)
        out = warpgemm.matmul(x, w.t(), kernel="decode/03_row_sweep", bias=bias, out_dtype=torch.float32, **params)
        ref = x.double() @ w.double().t() + bias.double()
        err = float((out.double() - ref).norm() / ref.norm())
        if not err < 1e-5:
            print(f"decode/03_row_sweep {m}x{n}x{k} {params}: relative error {err:.2e}")
            return 1
        print(f"ok {m}x{n}x{k} {params}: relative error {err:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
