#!/usr/bin/env python3
"""Sustained throughput, SM clock and board power of the mma.sync ceiling loop, rung 07 and
cuBLAS at 8192^3, on different input data; or of the GEMMs named with --gemms.

    PYTHONPATH=src python scripts/power_draw.py --json docs/results/power.json
    PYTHONPATH=src python scripts/power_draw.py --gemms auto cublas --size 4096 --seconds 3 --repeats 2

Each workload runs back to back for a few seconds while nvidia-smi samples the SM clock and the
board power every 50 ms; the first 0.8 s of each window (the clock settling) are left out, and
the GPU idles between workloads. This is the regime the interleaved benchmark avoids: it shows
what a kernel does at the board's power limit, and how much of that is the data it multiplies.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm.bench import ceiling, context, report  # noqa: E402


class Sampler:
    """nvidia-smi's SM clock (MHz), board power (W) and temperature (C), every 50 ms."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float, float, float]] = []
        self._proc = subprocess.Popen(
            ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu", "--format=csv,noheader,nounits",
             "-i", "0", "-lms", "50"], stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            try:
                clock, power, temp = (float(x) for x in line.split(","))
            except ValueError:
                continue
            self.samples.append((time.time(), clock, power, temp))

    def window(self, t0: float, t1: float) -> dict[str, float]:
        win = [s for s in self.samples if t0 < s[0] < t1]
        if not win:
            return {}
        return {"clock_mhz": statistics.median(s[1] for s in win), "power_w": statistics.median(s[2] for s in win),
                "temp_c": max(s[3] for s in win), "samples": len(win)}

    def close(self) -> None:
        self._proc.terminate()


def sustained(sampler: Sampler, fn: Callable[[], Any], flop: int, seconds: float) -> dict[str, float]:
    """Run ``fn`` back to back for ``seconds``: its mean rate and the clock and power meanwhile."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    t0, n = time.time(), 0
    start.record()
    while time.time() - t0 < seconds:
        for _ in range(5):
            fn()
        n += 5
        torch.cuda.synchronize()
    end.record()
    torch.cuda.synchronize()
    row = {"tflops": flop * n / start.elapsed_time(end) / 1e9, "launches": n}
    row.update(sampler.window(t0 + 0.8, time.time()))
    return row


def _operands(n: int, dtype: torch.dtype, data: str) -> tuple[torch.Tensor, torch.Tensor]:
    if data == "zeros":
        return torch.zeros(n, n, device="cuda", dtype=dtype), torch.zeros(n, n, device="cuda", dtype=dtype)
    gen = torch.Generator(device="cuda").manual_seed(1)
    a, b = (torch.randn(n, n, device="cuda", generator=gen).to(dtype) for _ in range(2))
    if data == "N(0,1), 7 mantissa bits":  # fp16 values that bf16 could hold in its mantissa
        a, b = ((x.view(torch.int16) & ~0x7).view(dtype) for x in (a, b))
    return a, b


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--seconds", type=float, default=2.5, help="run time of each workload")
    ap.add_argument("--size", type=int, default=8192)
    ap.add_argument("--gemms", nargs="+", metavar="KERNEL",
                    help="instead of the default workloads: these GEMMs in turn at --size^3, bf16, B = W.t() "
                         "(Linear's layout): 'cublas', 'auto' or a kernel NAME[:P=V,...]")
    ap.add_argument("--repeats", type=int, default=1, help="times through the --gemms list")
    args = ap.parse_args()
    n = args.size
    sampler = Sampler()
    time.sleep(1.0)
    rows: list[dict[str, Any]] = []

    def record(workload: str, dtype: str, data: str, fn: Callable[[], Any], flop: int) -> None:
        row = {"workload": workload, "dtype": dtype, "data": data, **sustained(sampler, fn, flop, args.seconds)}
        rows.append(row)
        print(f"{workload:<22} {dtype:<9} {data:<24} {row['tflops']:7.1f} TFLOP/s  "
              f"{row.get('clock_mhz', float('nan')):6.0f} MHz  {row.get('power_w', float('nan')):6.1f} W", flush=True)
        time.sleep(1.5)

    if args.gemms:
        a, w = _operands(n, torch.bfloat16, "N(0,1)")
        for _ in range(args.repeats):
            for who in args.gemms:
                record(f"{who} {n}^3", "bfloat16", "N(0,1)", gemm(who, a, w), 2 * n ** 3)
        return finish(sampler, rows, args)
    for kind, dtype in (("bf16 m16n8k16", "bfloat16"), ("f16 m16n8k16", "float16")):
        for operands, data in (("constant", "N(0,1), one fragment"), ("random", "N(0,1)")):
            record("mma.sync ceiling loop", dtype, data, *ceiling.loop(kind, operands=operands))
    for dtype, datas in ((torch.bfloat16, ("N(0,1)", "zeros")),
                         (torch.float16, ("N(0,1)", "N(0,1), 7 mantissa bits", "zeros"))):
        for data in datas:
            a, b = _operands(n, dtype, data)
            name = str(dtype).removeprefix("torch.")
            record(f"hgemm/07_tuned {n}^3", name, data, lambda: warpgemm.matmul(a, b, kernel="hgemm/07_tuned"),
                   2 * n ** 3)
            record(f"cuBLAS {n}^3", name, data, lambda: torch.mm(a, b), 2 * n ** 3)
            del a, b
    return finish(sampler, rows, args)


def gemm(who: str, a: torch.Tensor, w: torch.Tensor) -> Callable[[], Any]:
    """One call of A @ W.t(): cuBLAS (``cublas``) or warpgemm (``auto``, or NAME[:P=V,...])."""
    if who == "cublas":
        return lambda: torch.matmul(a, w.t())
    name, _, spec = who.partition(":")
    params = {key: int(v) for key, v in (kv.split("=") for kv in spec.split(",") if kv)}
    return lambda: warpgemm.matmul(a, w.t(), kernel=name, **params)


def finish(sampler: Sampler, rows: list[dict[str, Any]], args: argparse.Namespace) -> int:
    sampler.close()
    doc = {"family": "power", "context": context.collect(), "seconds": args.seconds, "results": rows}
    if args.json:
        report.write_json(doc, args.json)
    print(report.power_table(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
