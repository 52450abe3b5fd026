#!/usr/bin/env python3
"""Time the scaled int8 product (W8A8) against the plain int8 kernel and torch's int8 and bf16
GEMMs, in the same interleaved rounds:

- large shapes (4096^3, 8192^3): `scaled_matmul` against `igemm/02_wgmma_s8` (the cost of the
  scaling epilogue) and `torch._int_mm`;
- decode shapes (M = 1 and 16, weights rotated past L2, CUDA-graph replays): `scaled_matmul`
  against cuBLAS bf16 on the same shape; with --compare, both kernels for few rows
  (igemm/08_scaled_swap_ab_splitk and igemm/06_scaled_swap_ab) with their shipped parameters;
  with --decode-space, one of them (--decode-kernel) over a space of parameters.

    python scripts/scaled_bench.py [--json out.json]
    python scripts/scaled_bench.py --decode-only --compare --decode-ms 1,4,16,32
    python scripts/scaled_bench.py --decode-kernel igemm/08_scaled_swap_ab_splitk \
        --decode-space "ROW_GROUPS=1,2;WARPS=8,16;UNROLL=2,4"
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import warpgemm  # noqa: E402
from warpgemm import catalog, plan, scaled  # noqa: E402
from warpgemm.bench import context, timing  # noqa: E402


def _int8(*shape):
    return torch.randint(-128, 128, shape, dtype=torch.int8, device="cuda")


VARIANTS = ({"BM": 64, "IN_FLIGHT": 0}, {"BM": 128, "IN_FLIGHT": 1}, {"BM": 64, "BK": 128, "STAGES": 8},
            {"BM": 128, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1}, {"BM": 64, "STAGES": 6, "IN_FLIGHT": 1})
"""Tile choices of the decode kernel that --sweep times besides the shipped one."""


LARGE_VARIANTS = (("igemm/03_scaled_epilogue", {}), ("igemm/07_scaled_tma_store", {"STAGES": 4, "BUFFERS": 1}),
                  ("igemm/07_scaled_tma_store", {"STAGES": 3, "BUFFERS": 2}),
                  ("igemm/07_scaled_tma_store", {"STAGES": 4, "BUFFERS": 1, "IN_FLIGHT": 1}))
"""Kernels and parameters for 65 rows or more that --sweep times besides the shipped one."""


@contextlib.contextmanager
def _large_kernel(name, choice):
    """scaled_matmul's kernel for 65 rows or more replaced by ``name`` with ``choice``."""
    spec = catalog.get(name)
    kernel, rule = scaled.KERNEL, spec.shape_params
    scaled.KERNEL = name
    object.__setattr__(spec, "shape_params", lambda m, n, k: dict(choice))
    plan.clear()  # a kept plan would launch the kernel it was made with
    try:
        yield
    finally:
        scaled.KERNEL = kernel
        object.__setattr__(spec, "shape_params", rule)
        plan.clear()


def _via(name, choice, call):
    def run(i):
        with _large_kernel(name, choice):
            return call(i)
    return run


DECODE_KERNELS = (scaled.GEMV_KERNEL, scaled.DECODE_KERNEL)
"""The two kernels for few rows: the split-K one up to scaled.GEMV_MAX_M rows, the swap-AB wgmma
one past it."""


@contextlib.contextmanager
def _decode_tiles(kernel, choice):
    """scaled_matmul's kernel for few rows replaced by ``kernel`` (one of DECODE_KERNELS), with
    ``choice`` over its shape rule's parameters."""
    spec = catalog.get(kernel)
    rule, gemv_max_m = spec.shape_params, scaled.GEMV_MAX_M
    gemv_max_n = scaled.GEMV_MAX_N
    scaled.GEMV_MAX_M, scaled.GEMV_MAX_N = ((scaled.DECODE_MAX_M, 1 << 31) if kernel == scaled.GEMV_KERNEL
                                            else (0, 0))
    object.__setattr__(spec, "shape_params", lambda m, n, k: {**rule(m, n, k), **choice})
    plan.clear()  # a kept plan would launch the choice it was made with
    try:
        yield
    finally:
        object.__setattr__(spec, "shape_params", rule)
        scaled.GEMV_MAX_M, scaled.GEMV_MAX_N = gemv_max_m, gemv_max_n
        plan.clear()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json")
    ap.add_argument("--sweep", action="store_true",
                    help="also time the decode kernel (igemm/06_scaled_swap_ab) with each tile choice of VARIANTS, "
                         "and the large shapes' kernels of LARGE_VARIANTS")
    ap.add_argument("--decode-space", default=None,
                    help="time the decode kernel with every choice of NAME=v,v;NAME=v,... (e.g. "
                         "\"BK=128,256;STAGES=4,6,8\") instead of VARIANTS; implies --decode-only")
    ap.add_argument("--decode-kernel", default=None, choices=DECODE_KERNELS,
                    help="the kernel --decode-space and --sweep vary (default: the one scaled_matmul picks at "
                         "each M)")
    ap.add_argument("--decode-ms", default="1,16", help="rows of a at the decode shapes (default 1,16)")
    ap.add_argument("--compare", action="store_true",
                    help="also time, at each decode shape, both DECODE_KERNELS with their shipped parameters")
    ap.add_argument("--decode-only", action="store_true", help="time the decode shapes only")
    args = ap.parse_args()
    variants: tuple[dict[str, int], ...] = VARIANTS if args.sweep else ()
    if args.sweep and not args.decode_space:
        args.decode_kernel = scaled.DECODE_KERNEL  # VARIANTS are its tiles
    if args.decode_space:
        space = {kv.split("=")[0]: [int(v) for v in kv.split("=")[1].split(",")] for kv in args.decode_space.split(";")}
        variants = tuple(dict(zip(space, vals)) for vals in itertools.product(*space.values()))
        args.decode_only = True
    decode_ms = [int(m) for m in args.decode_ms.split(",")]
    if variants:  # compile every decode choice in parallel processes first
        from warpgemm.runtime.device import current_arch
        from warpgemm.tuning.search import precompile
        from warpgemm.tuning.table import Problem

        for name in {args.decode_kernel or scaled.kernel_for(m, n) for m in decode_ms for n in (4096, 14336)}:
            spec = catalog.get(name)
            choices = {tuple(sorted(spec.resolve({**spec.shape_params(m, n, 4096), **v}).items()))
                       for v in variants for m in decode_ms for n in (4096, 14336)}
            precompile(spec, [dict(c) for c in choices if spec.valid(dict(c))],
                       Problem(1, 1, 1, "int8", "bfloat16", "row", "col"), current_arch())
    doc = {"context": context.collect(), "large": [], "decode": []}
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    for s in () if args.decode_only else (4096, 8192):
        sets = timing.sets_needed(2 * s * s + 4 * s * s, l2, 3)
        a = [_int8(s, s) for _ in range(sets)]
        w = [_int8(s, s) for _ in range(sets)]
        sa, sb = torch.rand(s, device="cuda") * 1e-2, torch.rand(s, device="cuda") * 1e-2
        bias = torch.randn(s, device="cuda")
        runners = {
            "torch._int_mm": lambda i: torch._int_mm(a[i], w[i].t()),
            "igemm/02_wgmma_s8": lambda i: warpgemm.matmul(a[i], w[i].t()),
            "scaled_matmul": lambda i: warpgemm.scaled_matmul(a[i], w[i].t(), sa, sb, bias),
        }
        for name, choice in LARGE_VARIANTS if args.sweep else ():
            runners[f"{name} {choice}"] = _via(name, choice, runners["scaled_matmul"])
        for r in runners.values():
            r(0)
        t = timing.interleaved(runners, sets, min_rounds=30)
        row = {"m": s, "n": s, "k": s, **{k: v.median_ms for k, v in t.items()},
               "scaled_over_plain": timing.paired_ratio(t["scaled_matmul"], t["igemm/02_wgmma_s8"]),
               "plain_speedup_vs_int_mm": 1 / timing.paired_ratio(t["igemm/02_wgmma_s8"], t["torch._int_mm"])}
        doc["large"].append(row)
        print(f"{s}^3: _int_mm {t['torch._int_mm'].median_ms:.4f} ms, igemm/02 {t['igemm/02_wgmma_s8'].median_ms:.4f} ms, "
              f"scaled {t['scaled_matmul'].median_ms:.4f} ms; scaled / plain = {row['scaled_over_plain']:.3f}", flush=True)
        for label in t:
            if label.startswith("igemm/0") and label != "igemm/02_wgmma_s8":
                ratio = timing.paired_ratio(t[label], t["igemm/02_wgmma_s8"])
                row.setdefault("variants", {})[label] = {"ms": t[label].median_ms, "over_plain": ratio}
                print(f"    {label}: {t[label].median_ms:.4f} ms, / plain = {ratio:.3f}", flush=True)
    for n, k in ((4096, 4096), (14336, 4096)):
        # Sets enough for the int8 weight, which one graph re-reads: a graph that follows another
        # of the same kernel must not find the weight in L2 (the bf16 one, twice as large, is
        # colder still).
        sets = timing.sets_needed(n * k, l2, 2)
        w8 = [_int8(n, k) for _ in range(sets)]
        wb = [torch.randn(n, k, device="cuda").to(torch.bfloat16) for _ in range(sets)]
        sb = torch.rand(n, device="cuda") * 1e-2
        for m in decode_ms:
            x8, xb = _int8(m, k), torch.randn(m, k, device="cuda").to(torch.bfloat16)
            sa = torch.rand(m, device="cuda") * 1e-2
            runners = {"cuBLAS bf16": lambda i: torch.matmul(xb, wb[i].t()),
                       "scaled_matmul": lambda i: warpgemm.scaled_matmul(x8, w8[i].t(), sa, sb)}
            graphs = {}
            for label, r in runners.items():
                r(0)
                graphs[label] = timing.capture(r, sets)
            kept = []
            extra = [(name, {}) for name in DECODE_KERNELS] if args.compare else []
            extra += [(args.decode_kernel or scaled.kernel_for(m, n), v) for v in variants]
            for name, v in extra:
                spec = catalog.get(name)
                if not spec.valid(spec.resolve({**spec.shape_params(m, n, k), **v})):
                    continue
                own = [w.clone() for w in w8]  # its own copies: never what the graph before it read
                kept.append(own)  # alive while its graph replays

                def call(i, own=own):
                    return warpgemm.scaled_matmul(x8, own[i].t(), sa, sb)
                with _decode_tiles(name, v):
                    call(0)
                    graphs[f"{name.split('_')[0]} {v}"] = timing.capture(call, sets)
            t = timing.interleaved({label: (lambda i, g=g: g.replay()) for label, g in graphs.items()}, 1,
                                   min_rounds=15, max_rounds=15)
            us = {label: v.median_ms / sets * 1e3 for label, v in t.items()}
            row = {"m": m, "n": n, "k": k, "kernel": scaled.kernel_for(m, n), "us": us,
                   "speedup": us["cuBLAS bf16"] / us["scaled_matmul"],
                   "weight_gbps": n * k / (us["scaled_matmul"] * 1e3)}
            doc["decode"].append(row)
            print(f"W8A8 decode {m}x{n}x{k}: cuBLAS bf16 {us['cuBLAS bf16']:.1f} us, scaled_matmul "
                  f"{us['scaled_matmul']:.1f} us ({row['weight_gbps']:.0f} GB/s of int8 weight): "
                  f"{row['speedup']:.2f}x", flush=True)
            for label in graphs:
                if label.startswith("igemm/0"):
                    print(f"    {label}: {us[label]:.1f} us ({us['cuBLAS bf16'] / us[label]:.2f}x)", flush=True)
            del graphs, kept
    if args.json:
        Path(args.json).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
