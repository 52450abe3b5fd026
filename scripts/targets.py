#!/usr/bin/env python3
"""The performance targets of the PyTorch-integration and Hopper work, read from benchmark JSON
files: one line a target with the measured figure, cuBLAS's in the same run, and whether it
holds. Run it on the GPU machine after the benchmarks (``scripts/gpu_check.sh targets`` does
both), or here on the committed results:

    python scripts/targets.py --decode docs/results/decode_auto.json \\
        --square docs/results/hopper_square_auto_h100.json \\
        --square-fp16 docs/results/hopper_square_auto_fp16_h100.json \\
        --llm docs/results/hopper_llm_auto_h100.json --model docs/results/model.json

Any file may be left out; its targets are then not reported. Ratios are x cuBLAS for the same
problem in the same run, as the benchmark's tables show them: from the CUDA-graph replays for the
decode suite, from its timed launches for the Hopper suites.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any, Iterable

PEAK_TFLOPS = 989.0
"""The H100 SXM's and H200's dense fp16/bf16 tensor-core peak from the datasheet."""

LARGE_WEIGHTS = ((14336, 4096), (4096, 14336), (8192, 8192))
DECODE_MS = (1, 4, 16, 32, 64)

Shape = tuple[int, int, int]


def _load(path: str | None) -> dict[str, Any] | None:
    return None if path is None else json.loads(Path(path).read_text())


def _pairs(result: dict[str, Any]) -> dict[Shape, tuple[dict[str, Any], dict[str, Any]]]:
    """(cuBLAS's row, ours) for every shape of a benchmark with one kernel of ours."""
    base: dict[Shape, dict[str, Any]] = {}
    ours: dict[Shape, dict[str, Any]] = {}
    for row in result["results"]:
        shape = (row["m"], row["n"], row["k"])
        (base if row["kernel"].startswith("cuBLAS") else ours)[shape] = row
    return {s: (base[s], ours[s]) for s in ours if s in base}


def _time(row: dict[str, Any], graphs: bool) -> float:
    return row["graph_ms"] if graphs and row.get("graph_ms") else row["median_ms"]


def _ratio(pair: tuple[dict[str, Any], dict[str, Any]], graphs: bool) -> float:
    """The benchmark's own ratio where it recorded one (``graph_speedup``, ``speedup``: what its
    tables show), else cuBLAS's time over ours."""
    ours = pair[1]
    key = "graph_speedup" if graphs and ours.get("graph_ms") else "speedup"
    if key in ours:
        return ours[key]
    return _time(pair[0], graphs) / _time(ours, graphs)


def _mark(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def decode_lines(result: dict[str, Any]) -> Iterable[str]:
    pairs = _pairs(result)
    bandwidth = result["context"].get("read_bandwidth_gbps")
    ratios = {s: _ratio(p, True) for s, p in pairs.items()}
    yield (f"decode suite: median {statistics.median(ratios.values()):.3f}x cuBLAS over {len(ratios)} shapes, "
           f"lowest {min(ratios.values()):.3f}x, {sum(r < 1 for r in ratios.values())} below 1.0x")
    square = [(m, ratios.get((m, 4096, 4096))) for m in DECODE_MS]
    if all(r is not None for _, r in square):
        figures = " / ".join(f"{r:.3f}" for _, r in square)
        times = " / ".join(f"{pairs[(m, 4096, 4096)][1]['graph_ms'] * 1e3:.2f}" for m, _ in square)
        base = " / ".join(f"{pairs[(m, 4096, 4096)][0]['graph_ms'] * 1e3:.2f}" for m, _ in square)
        yield (f"decode 4096 x 4096 at M = {' / '.join(map(str, DECODE_MS))}: {figures}x "
               f"({times} us; cuBLAS {base}) >= 1.3x: {_mark(all(r >= 1.3 for _, r in square))}")
    for n, k in LARGE_WEIGHTS:
        row = [ratios.get((m, n, k)) for m in DECODE_MS]
        if all(r is not None for r in row):
            yield (f"decode {n} x {k} at M = {' / '.join(map(str, DECODE_MS))}: "
                   f"{' / '.join(f'{r:.3f}' for r in row)}x >= 1.0x: {_mark(all(r >= 1.0 for r in row))}")
    if bandwidth:
        ones = sorted((s, p[1]["weight_gbps"] / bandwidth) for s, p in pairs.items() if s[0] == 1)
        if ones:
            low = min(f for _, f in ones)
            detail = ", ".join(f"{s[1]}x{s[2]} {pairs[s][1]['weight_gbps']:.0f}" for s, _ in ones)
            yield (f"decode M = 1 read bandwidth: {low:.1%} of {bandwidth:.0f} GB/s at the lowest ({detail} GB/s) "
                   f">= 85%: {_mark(low >= 0.85)}")


def square_lines(result: dict[str, Any], dtype: str) -> Iterable[str]:
    pairs = _pairs(result)
    ratios = {s: _ratio(p, False) for s, p in pairs.items() if 2048 <= s[0] <= 16384 and s[0] == s[1] == s[2]}
    if ratios:
        median = statistics.median(ratios.values())
        yield f"square suite {dtype} (2048-16384): median {median:.4f}x >= 1.00x: {_mark(median >= 1.0)}"
    for size in (4096, 8192):
        pair = pairs.get((size, size, size))
        if pair is None:
            continue
        r = _ratio(pair, False)
        ours, base = pair[1]["tflops"], pair[0]["tflops"]
        if size == 4096:
            yield (f"{size}^3 {dtype}: {r:.3f}x ({ours:.1f} TFLOP/s; cuBLAS {base:.1f}) >= 1.03x: "
                   f"{_mark(r >= 1.03)}")
        else:
            yield (f"{size}^3 {dtype}: {ours:.1f} TFLOP/s = {ours / PEAK_TFLOPS:.1%} of {PEAK_TFLOPS:.0f} "
                   f"(cuBLAS {base:.1f}, {base / PEAK_TFLOPS:.1%}) >= 80%: {_mark(ours >= 0.8 * PEAK_TFLOPS)}")


def llm_lines(result: dict[str, Any]) -> Iterable[str]:
    pairs = _pairs(result)
    ratios = {s: _ratio(p, False) for s, p in pairs.items() if s[0] >= 1024}
    if ratios:
        median = statistics.median(ratios.values())
        low = min(ratios, key=ratios.get)
        yield (f"llm suite, M >= 1024: median {median:.4f}x over {len(ratios)} shapes, lowest {ratios[low]:.3f}x "
               f"at {low[0]}x{low[1]}x{low[2]} >= 1.00x: {_mark(median >= 1.0)}")


def model_lines(result: dict[str, Any]) -> Iterable[str]:
    for key, label, target in (("decode_graphs", "model decode, CUDA graphs", 1.0), ("prefill", "model prefill", 1.0),
                               ("decode_step_graph", "model decode step, one graph", None),
                               ("decode_eager", "model decode, eager", None)):
        if key in result:
            m = result[key]
            lo, hi = m["interval_95"]
            tail = f" >= {target:.1f}x: {_mark(m['speedup'] >= target)}" if target is not None else ""
            yield f"{label}: {m['speedup']:.3f}x the unpatched model (95% interval {lo:.3f}-{hi:.3f}){tail}"


def lines(decode: dict[str, Any] | None = None, square: dict[str, Any] | None = None,
          square_fp16: dict[str, Any] | None = None, llm: dict[str, Any] | None = None,
          model: dict[str, Any] | None = None) -> list[str]:
    """Every target line the given results allow, with the GPU of each file first."""
    out: list[str] = []
    for result, make in ((decode, decode_lines), (square, lambda r: square_lines(r, "bf16")),
                         (square_fp16, lambda r: square_lines(r, "fp16")), (llm, llm_lines), (model, model_lines)):
        if result is None:
            continue
        ctx = result.get("context", {})
        out.append(f"[{ctx.get('gpu', '?')}, warpgemm {ctx.get('warpgemm_commit', '?')}, {ctx.get('date', '?')}]")
        out.extend(make(result))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("decode", "square", "square-fp16", "llm", "model"):
        parser.add_argument(f"--{name}", metavar="JSON")
    args = parser.parse_args(argv)
    try:
        found = lines(_load(args.decode), _load(args.square), _load(args.square_fp16), _load(args.llm),
                      _load(args.model))
    except (OSError, ValueError, KeyError) as exc:
        print(f"targets: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(found) if found else "targets: no results given (see --help)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
