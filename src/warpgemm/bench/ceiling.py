"""``warpgemm bench ceiling``: the mma.sync throughput of this GPU, measured now."""

from __future__ import annotations

import statistics
from typing import Any, Callable

import numpy as np
import torch

from ..runtime import compile_kernel, launch

KINDS = {"tf32 m16n8k8": (0, 2 * 16 * 8 * 8), "f16 m16n8k16": (1, 2 * 16 * 8 * 16),
         "bf16 m16n8k16": (2, 2 * 16 * 8 * 16), "f16acc m16n8k16": (3, 2 * 16 * 8 * 16),
         "s8 m16n8k32": (4, 2 * 16 * 8 * 32)}
"""Instruction (kind code for kernels/bench/mma_ceiling.cu, FLOP (or integer operations) per
instruction)."""
_OPERAND_DTYPES = {"tf32 m16n8k8": torch.float32, "f16 m16n8k16": torch.float16,
                   "bf16 m16n8k16": torch.bfloat16, "f16acc m16n8k16": torch.float16,
                   "s8 m16n8k32": torch.int8}
OPERANDS = {"random": 4, "constant": 1}
"""Operand data of the loop -> fragment sets per lane. ``random``: N(0,1) values, like the
benchmark's inputs, changing from each instruction to the next (the denominator of every
"fraction of the ceiling"). ``constant``: the same N(0,1) fragment for every instruction, which
draws less power and so can run at a higher clock than any GEMM on random data."""
_CHAINS = 8
_WARPS_PER_SM = 32
OCCUPANCY_WARPS = (4, 8, 16, 32)
"""Warps per SM of the occupancy sweep: 1, 2, 4 and 8 per SM sub-partition."""
OCCUPANCY_CHAINS = (2, 4, 8)


def loop(kind: str, iters: int = 4096, *, warps_per_sm: int = _WARPS_PER_SM, chains: int = _CHAINS,
         operands: str = "random") -> tuple[Callable[[], None], int]:
    """The ceiling loop, ready to launch: (a function that launches it once, its FLOP count).
    ``warps_per_sm`` warps per SM, each with ``chains`` independent accumulator chains, on
    ``operands`` data (see OPERANDS)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if operands not in OPERANDS:
        raise ValueError(f"operands must be one of {', '.join(OPERANDS)}, got {operands!r}")
    if not 1 <= warps_per_sm <= 32 or not 1 <= chains <= 16:
        raise ValueError(f"warps_per_sm must be in [1, 32] and chains in [1, 16], got {warps_per_sm}, {chains}")
    sets = OPERANDS[operands]
    if iters < sets or iters % sets:
        raise ValueError(f"iters must be a positive multiple of {sets} for {operands} operands, got {iters}")
    code, flop = KINDS[kind]
    k = compile_kernel("bench/mma_ceiling.cu", f"wg::mma_ceiling<{code}, {chains}, {sets}>")
    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count
    # One block of warps_per_sm warps per SM (32 warps: four blocks of 256 threads per SM).
    threads = 32 * warps_per_sm if warps_per_sm < 32 else 256
    blocks = sms * 32 * warps_per_sm // threads
    out = torch.empty(blocks * threads, device="cuda")
    args = (out, operand_words(kind, sets).to("cuda"), np.int32(iters))

    def run() -> None:
        launch(k, (blocks, 1, 1), (threads, 1, 1), args)
    return run, flop * chains * iters * blocks * threads // 32


def measure(kind: str = "tf32 m16n8k8", iters: int = 4096, runs: int = 20, *,
            warps_per_sm: int = _WARPS_PER_SM, chains: int = _CHAINS,
            operands: str = "random") -> dict[str, Any]:
    """TFLOP/s of back-to-back independent mma.sync on every SM (median of ``runs``):
    ``warps_per_sm`` warps per SM, each with ``chains`` independent accumulator chains, on
    ``operands`` data (see OPERANDS)."""
    run, total = loop(kind, iters, warps_per_sm=warps_per_sm, chains=chains, operands=operands)
    for _ in range(3):
        run()
    times = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        run()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    ms = statistics.median(times)
    return {"kind": kind, "median_ms": ms, "tflops": total / ms / 1e9, "runs": runs,
            "warps_per_sm": warps_per_sm, "chains": chains, "operands": operands}


def operand_words(kind: str, sets: int) -> torch.Tensor:
    """``sets`` fragments of 6 registers for 32 lanes, as 32-bit words of N(0,1) values in the
    instruction's input type (int8: uniform over the full range, as the int8 benchmark draws
    its inputs), from a generator in a fixed state: every run sees the same data."""
    dtype = _OPERAND_DTYPES[kind]
    per_word = 4 // torch.tensor([], dtype=dtype).element_size()
    gen = torch.Generator().manual_seed(0x5EED)
    if dtype == torch.int8:
        values = torch.randint(-128, 128, (sets * 6 * 32 * per_word,), generator=gen, dtype=torch.int8)
    else:
        values = torch.randn(sets * 6 * 32 * per_word, generator=gen).to(dtype)
    return values.view(torch.int32)


def occupancy(kind: str = "bf16 m16n8k16") -> list[dict[str, Any]]:
    """The ceiling loop at each of OCCUPANCY_WARPS warps per SM and OCCUPANCY_CHAINS chains:
    how many warps, each with how much independent work, it takes to reach the peak."""
    return [measure(kind, warps_per_sm=w, chains=c) for w in OCCUPANCY_WARPS for c in OCCUPANCY_CHAINS]


def main(json_path: str | None = None, sweep: bool = False) -> int:
    from . import context, report

    rows = [measure(kind, operands=ops) for kind in KINDS for ops in OPERANDS]
    for r in rows:
        rate = "TOPS   " if r["kind"].startswith("s8") else "TFLOP/s"
        print(f"mma.sync {r['kind']:<15} {r['operands']:<8} operands {r['tflops']:8.1f} {rate}  "
              f"({r['median_ms']:.3f} ms)")
    doc: dict[str, Any] = {"family": "ceiling", "context": context.collect(), "results": rows}
    if sweep:
        doc["occupancy"] = occupancy("bf16 m16n8k16")
        full = next(r["tflops"] for r in doc["occupancy"]
                    if (r["warps_per_sm"], r["chains"]) == (_WARPS_PER_SM, _CHAINS))
        print(f"bf16 m16n8k16, random operands, by occupancy (fraction of the {_WARPS_PER_SM}-warp, "
              f"{_CHAINS}-chain rate of the sweep):")
        print(f"{'warps/SM':>9} {'chains':>7} {'TFLOP/s':>9} {'of peak':>8}")
        for r in doc["occupancy"]:
            print(f"{r['warps_per_sm']:>9} {r['chains']:>7} {r['tflops']:>9.1f} {r['tflops'] / full:>8.2f}")
    if json_path:
        report.write_json(doc, json_path)
    return 0
