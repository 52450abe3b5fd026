"""Run Hopper rungs once each on small and mid-size ragged shapes, in every layout, and report
the relative error against float64: the first thing to run on a GPU after a change to a
Hopper kernel (a pipeline bug hangs rather than fails, so run each rung under `timeout`).

    python scripts/hopper_smoke.py [RUNG[:P=V,...] ...]   (default: every rung of the hopper family,
                                                            then VARIANTS)
    python scripts/hopper_smoke.py hopper/06_tma_store_epilogue:BM=256,BN=128,CLUSTER=2

Also the program compute-sanitizer runs (scripts/gpu_check.sh, step `hopper`).
"""

from __future__ import annotations

import sys

import torch

import warpgemm
from warpgemm import catalog
from warpgemm.parsing import parse_kernel

SHAPES = [(64, 128, 64), (129, 257, 65), (515, 1029, 333)]
SPLIT_SHAPE = (300, 700, 3001)
"""For the rungs that split the last wave's K range: 9 ragged tiles split 3 ways."""
LAYOUTS = [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")]
VARIANTS = ["hopper/06_tma_store_epilogue:BM=256,BN=128,CLUSTER=1",
            "hopper/06_tma_store_epilogue:BM=256,BN=128,CLUSTER=2",
            "hopper/06_tma_store_epilogue:BN=192",
            "hopper/06_tma_store_epilogue:HOLD=1", "hopper/06_tma_store_epilogue:HOLD=1,CLUSTER=2",
            "hopper/06_tma_store_epilogue:HOLD=1,BM=256,BN=128", "hopper/06_tma_store_epilogue:CLUSTER=4",
            "hopper/06_tma_store_epilogue:STREAM_K=1"]
"""Parameter choices whose code the defaults do not reach: 256-row tiles (two 128-row consumers),
128 x 192 tiles (three 64-wide slabs of B and of C), tiles stored beside the next tile's wgmma
(HOLD = 1; HOLD_SHAPE gives blocks more than one tile), clusters of four sharing B, and the
tail shared out stream-K."""
HOLD_SHAPE = (1100, 4200, 130)
"""153 tiles of 128 x 256 on 132 SMs, 3 k-tiles each: some blocks store a tile beside the next one's
wgmma, and the 4th slab after its main loop. Also the ping-pong rung's: 306 tiles of 64 x 256, two
or three a block, so that its consumers take turns."""


def _operand(rows: int, cols: int, layout: str) -> torch.Tensor:
    if layout == "row":
        return torch.randn(rows, cols, device="cuda").to(torch.bfloat16)
    return torch.randn(cols, rows, device="cuda").to(torch.bfloat16).t()


def main(names: list[str]) -> int:
    names = names or [s.name for s in catalog.kernels("hopper")] + VARIANTS
    worst = 0.0  # as a fraction of the output type's tolerance
    for text in names:
        name, chosen = parse_kernel(text)
        splits = catalog.get(name).last_wave is not None and chosen.get("CLUSTER", 1) == 1
        held = chosen.get("HOLD", 0) == 1  # held sums are 16-bit: a bf16 C
        turns = catalog.get(name).rung == 7  # ping-pong: the consumers hand turns on between tiles
        odt, tol = (torch.bfloat16, 8e-3) if held else (torch.float32, 2e-3)
        streams = chosen.get("STREAM_K", 0) == 1  # stream-K: whole tiles, then shares of the tail's k-tiles
        several = [HOLD_SHAPE] if held or turns or streams else []
        for m, n, k in SHAPES + ([SPLIT_SHAPE] if splits else []) + several:
            params = {**chosen, **({"SPLITS": 3} if (m, n, k) == SPLIT_SHAPE else {})}
            for la, lb in LAYOUTS:
                a, b = _operand(m, k, la), _operand(k, n, lb)
                out = torch.full((m, n), float("nan"), dtype=odt, device="cuda")
                warpgemm.matmul(a, b, kernel=name, out=out, out_dtype=odt, **params)
                torch.cuda.synchronize()
                ref = a.double() @ b.double()
                err = float((out.double() - ref).norm() / ref.norm())
                nan = int(torch.isnan(out).sum())
                worst = max(worst, err / tol if nan == 0 else float("inf"))
                print(f"{text:<36} {m}x{n}x{k} {la[0]}{lb[0]}  rel err {err:.2e}  unwritten {nan}", flush=True)
    print(f"worst rel err {worst:.2f} of the tolerance")
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
