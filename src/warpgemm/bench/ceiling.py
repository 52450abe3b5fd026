"""``warpgemm bench ceiling``: the mma.sync throughput of this GPU, measured now."""

from __future__ import annotations

import statistics
from typing import Any

import numpy as np
import torch

from ..runtime import compile_kernel, launch

KINDS = {"tf32 m16n8k8": (0, 2 * 16 * 8 * 8), "f16 m16n8k16": (1, 2 * 16 * 8 * 16),
         "bf16 m16n8k16": (2, 2 * 16 * 8 * 16), "f16acc m16n8k16": (3, 2 * 16 * 8 * 16)}
"""Instruction (kind code for kernels/bench/mma_ceiling.cu, FLOP per instruction)."""
_CHAINS = 8
_WARPS_PER_SM = 32


def measure(kind: str = "tf32 m16n8k8", iters: int = 4096, runs: int = 20) -> dict[str, Any]:
    """TFLOP/s of back-to-back independent mma.sync on every SM (median of ``runs``)."""
    code, flop = KINDS[kind]
    k = compile_kernel("bench/mma_ceiling.cu", f"wg::mma_ceiling<{code}, {_CHAINS}>")
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    blocks = sms * _WARPS_PER_SM * 32 // 256
    out = torch.empty(blocks * 256, device="cuda")
    args = (out, np.int32(iters), np.uint32(0x3F800000))
    for _ in range(3):
        launch(k, (blocks, 1, 1), (256, 1, 1), args)
    times = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        launch(k, (blocks, 1, 1), (256, 1, 1), args)
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    ms = statistics.median(times)
    total = flop * _CHAINS * iters * blocks * 8  # 8 warps per block
    return {"kind": kind, "median_ms": ms, "tflops": total / ms / 1e9, "runs": runs}


def main(json_path: str | None = None) -> int:
    from . import context, report

    rows = [measure(kind) for kind in KINDS]
    for r in rows:
        print(f"mma.sync {r['kind']:<14} {r['tflops']:8.1f} TFLOP/s  ({r['median_ms']:.3f} ms)")
    if json_path:
        report.write_json({"family": "ceiling", "context": context.collect(), "results": rows}, json_path)
    return 0
