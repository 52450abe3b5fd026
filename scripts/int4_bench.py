#!/usr/bin/env python3
"""Time every int4 kernel (packed int4 x packed int4 -> int32, one per 4-bit mma form) against
warpgemm's int8 GEMM (``kernel="auto"`` on int8 operands of the same logical size, A (M, K) and
W (N, K), ``matmul(a, w.t())``), in the same interleaved rounds, s4 and u4:

    python scripts/int4_bench.py [--shapes 4096 8192] [--json out.json]

Each shape is M = N = K. The int4 operands are packed from fresh random values; the int8 ones
are drawn at the same size. The JSON has the run's context (``bench.context``) and one row per
shape and signedness: each kernel's median milliseconds and TOPS (2 M N K per GEMM), and its
speed relative to the int8 kernel measured in the same rounds (paired median). On sm_90 and later
every 4-bit mma is emulated by ptxas: those numbers measure the emulation.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm import catalog, int4  # noqa: E402
from warpgemm.bench import context, timing  # noqa: E402
from warpgemm.parsing import parse_kernel  # noqa: E402

INT8 = "int8 auto"


def _packed(rows: int, k: int, signed: bool) -> int4.Packed:
    lo, hi = (-8, 8) if signed else (0, 16)
    return int4.Packed.from_values(torch.randint(lo, hi, (rows, k), dtype=torch.int8, device="cuda"), signed=signed)


def _choice(text: str) -> tuple[str, dict[str, int]]:
    """A ``--kernels`` entry, ``NAME[:P=V,...]``: the kernel and its template parameters (names
    checked against the catalogue)."""
    name, params = parse_kernel(text)
    catalog.get(name).resolve(params)
    return name, params


def _int8(rows: int, cols: int) -> torch.Tensor:
    return torch.randint(-128, 128, (rows, cols), dtype=torch.int8, device="cuda")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", type=int, nargs="+", default=[4096, 8192], help="M = N = K of each problem")
    ap.add_argument("--kernels", nargs="+", default=None, help="int4 kernels to time, NAME or NAME:P=V,... "
                    "(default: every one that runs on this GPU)")
    ap.add_argument("--unsigned-too", action="store_true", help="also time u4 operands (default: s4 only)")
    ap.add_argument("--min-rounds", type=int, default=10)
    ap.add_argument("--json")
    args = ap.parse_args()
    try:
        choices = {label: _choice(label) for label in args.kernels or []}
    except (ValueError, KeyError) as exc:
        ap.error(f"--kernels: {exc}")
    if not torch.cuda.is_available():
        ap.error("needs a CUDA GPU")
    major, minor = torch.cuda.get_device_capability()
    kernels = args.kernels or [s.name for s in catalog.kernels("int4") if s.runs_on(10 * major + minor)]
    choices = choices or {name: (name, {}) for name in kernels}
    doc = {"context": context.collect(), "kernels": kernels, "baseline": "warpgemm.matmul int8 kernel='auto'",
           "results": []}
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    for s in args.shapes:
        for signed in (True, False) if args.unsigned_too else (True,):
            # One set: an int4 A and W (s * s / 2 bytes each), an int8 A and W, an int32 C.
            sets = timing.sets_needed(s * s + 2 * s * s + 4 * s * s, l2, len(kernels) + 1)
            a4 = [_packed(s, s, signed) for _ in range(sets)]
            w4 = [_packed(s, s, signed) for _ in range(sets)]
            a8 = [_int8(s, s) for _ in range(sets)]
            w8 = [_int8(s, s) for _ in range(sets)]
            runners = {INT8: lambda i: warpgemm.matmul(a8[i], w8[i].t())}
            for label, (name, params) in choices.items():
                runners[label] = lambda i, name=name, params=params: warpgemm.matmul(a4[i], w4[i].t(), kernel=name,
                                                                                     **params)
            for r in runners.values():
                r(0)
            t = timing.interleaved(runners, sets, min_rounds=args.min_rounds)
            ops = 2 * s * s * s
            row = {"m": s, "n": s, "k": s, "signed": signed,
                   "ms": {label: v.median_ms for label, v in t.items()},
                   "tops": {label: ops / (v.median_ms * 1e-3) / 1e12 for label, v in t.items()},
                   "speed_vs_int8": {name: 1 / timing.paired_ratio(t[name], t[INT8]) for name in kernels}}
            doc["results"].append(row)
            kind = "s4" if signed else "u4"
            print(f"{s}^3 {kind}: int8 auto {row['tops'][INT8]:.1f} TOPS; "
                  + "; ".join(f"{name} {row['tops'][name]:.1f} TOPS ({row['speed_vs_int8'][name]:.2f}x)"
                              for name in kernels), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
