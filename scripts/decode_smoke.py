#!/usr/bin/env python3
"""The row sweeps (decode/03 in fp32 FMA, decode/04 on the tensor cores) and, on compute
capability 9.0, decode/02 in clusters of two (the tokens or W multicast), on ragged shapes and block
shapes, each checked against float64: a short run for compute-sanitizer (memcheck,
racecheck), as scripts/gpu_check.sh's decode step runs it.

    compute-sanitizer --tool memcheck --error-exitcode 9 python scripts/decode_smoke.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402

CASES = [  # (kernel, M, N, K, params): a partial last vector, several passes, block shapes, 8 and 16 tokens
    ("decode/03_row_sweep", 1, 4096, 4096, {}), ("decode/03_row_sweep", 3, 1000, 4099, {}),
    ("decode/03_row_sweep", 1, 14336, 1000, {"ROWS": 8}), ("decode/03_row_sweep", 8, 33, 31, {}),
    ("decode/03_row_sweep", 2, 5000, 2048, {"THREADS": 256, "ROWS": 2, "UNROLL": 2}),
    ("decode/03_row_sweep", 1, 7, 100003, {"THREADS": 1024, "BLOCKS": 1}),
    ("decode/04_row_sweep_mma", 4, 4096, 4096, {}), ("decode/04_row_sweep_mma", 7, 1000, 4099, {}),
    ("decode/04_row_sweep_mma", 16, 3000, 1000, {}), ("decode/04_row_sweep_mma", 8, 2000, 8192, {}),
    ("decode/04_row_sweep_mma", 2, 5000, 2048, {"THREADS": 256, "KSTEPS": 1, "STAGES": 6}),
    ("decode/04_row_sweep_mma", 12, 33, 31, {"THREADS": 128, "STAGES": 2}),
]
HOPPER_CASES = [  # an odd count of W's tiles (the last cluster's second tile past N), stagger, 128-row tiles
    ("decode/02_swap_ab_wgmma", 64, 4160, 1000, {"CLUSTER": 2, "BM": 64, "BK": 128, "STAGES": 4, "STAGGER": 8}),
    ("decode/02_swap_ab_wgmma", 20, 1000, 4093, {"CLUSTER": 2, "BM": 128, "BK": 64, "STAGES": 4}),
    # clusters sharing W: a ragged second tile of tokens, and four tiles of tokens on 128-row tiles
    ("decode/02_swap_ab_wgmma", 40, 4160, 1000, {"CLUSTER": 2, "SHARE_W": 1, "BM": 64, "BN": 32, "STAGES": 6,
                                                 "STAGGER": 8}),
    ("decode/02_swap_ab_wgmma", 100, 300, 520, {"CLUSTER": 2, "SHARE_W": 1, "BM": 128, "BN": 32, "STAGES": 4}),
    # clusters of four: sharing the tokens (the last cluster's last tiles past N), and sharing W
    ("decode/02_swap_ab_wgmma", 64, 4160, 1000, {"CLUSTER": 4, "BM": 64, "BK": 128, "STAGES": 4, "STAGGER": 8}),
    ("decode/02_swap_ab_wgmma", 100, 1000, 520, {"CLUSTER": 4, "SHARE_W": 1, "BM": 64, "BN": 32, "BK": 128,
                                                 "STAGES": 4}),
]


def main() -> int:
    gen = torch.Generator(device="cuda").manual_seed(0)
    hopper = torch.cuda.get_device_capability() == (9, 0)
    for kernel, m, n, k, params in CASES + (HOPPER_CASES if hopper else []):
        x = torch.randn(m, k, device="cuda", generator=gen).to(torch.bfloat16)
        w = torch.randn(n, k, device="cuda", generator=gen).to(torch.bfloat16)
        bias = torch.randn(n, device="cuda", generator=gen).to(torch.bfloat16)
        out = warpgemm.matmul(x, w.t(), kernel=kernel, bias=bias, out_dtype=torch.float32, **params)
        ref = x.double() @ w.double().t() + bias.double()
        err = float((out.double() - ref).norm() / ref.norm())
        if not err < 1e-5:
            print(f"{kernel} {m}x{n}x{k} {params}: relative error {err:.2e}")
            return 1
        print(f"ok {kernel} {m}x{n}x{k} {params}: relative error {err:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
