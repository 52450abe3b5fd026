#!/usr/bin/env python3
"""The performance targets of the PyTorch-integration and Hopper work, read from benchmark JSON
files: one line a target with the measured figure, cuBLAS's in the same run, and whether it
holds. Run it on the GPU machine after the benchmarks (``scripts/gpu_check.sh targets`` does
both), or here on the committed results:

    python scripts/targets.py --decode docs/results/decode_auto.json \\
        --square docs/results/hopper_square_auto_h100.json \\
        --square-fp16 docs/results/hopper_square_auto_fp16_h100.json \\
        --llm docs/results/hopper_llm_auto_h100.json --model docs/results/model.json

Any file may be left out; its targets are then not reported. ``--history
docs/results/hopper_targets_history.json`` gathers every run committed there (files
``targets*_<suite>_<gpu>.json``) into the one file the README's table of runs is made from
(``scripts/update_tables.py``). Ratios are x cuBLAS for the same
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


def _square_figures(result: dict[str, Any]) -> dict[str, float]:
    pairs = _pairs(result)
    ratios = [_ratio(p, False) for s, p in pairs.items() if 2048 <= s[0] <= 16384 and s[0] == s[1] == s[2]]
    out: dict[str, float] = {"median": statistics.median(ratios)} if ratios else {}
    if (4096,) * 3 in pairs:
        pair = pairs[(4096,) * 3]
        out.update(r4096=_ratio(pair, False), tflops4096=pair[1]["tflops"], cublas4096=pair[0]["tflops"])
    if (8192,) * 3 in pairs:
        pair = pairs[(8192,) * 3]
        out.update(peak8192=pair[1]["tflops"] / PEAK_TFLOPS, cublas_peak8192=pair[0]["tflops"] / PEAK_TFLOPS)
    return out


def square_lines(result: dict[str, Any], dtype: str) -> Iterable[str]:
    fig = _square_figures(result)
    if "median" in fig:
        yield f"square suite {dtype} (2048-16384): median {fig['median']:.4f}x >= 1.00x: {_mark(fig['median'] >= 1.0)}"
    if "r4096" in fig:
        r = fig["r4096"]
        yield (f"4096^3 {dtype}: {r:.3f}x ({fig['tflops4096']:.1f} TFLOP/s; cuBLAS {fig['cublas4096']:.1f}) "
               f">= 1.03x: {_mark(r >= 1.03)}")
    if "peak8192" in fig:
        ours, base = fig["peak8192"] * PEAK_TFLOPS, fig["cublas_peak8192"] * PEAK_TFLOPS
        yield (f"8192^3 {dtype}: {ours:.1f} TFLOP/s = {fig['peak8192']:.1%} of {PEAK_TFLOPS:.0f} "
               f"(cuBLAS {base:.1f}, {fig['cublas_peak8192']:.1%}) >= 80%: {_mark(ours >= 0.8 * PEAK_TFLOPS)}")


def _llm_ratios(result: dict[str, Any]) -> dict[tuple[int, int, int], float]:
    """The llm suite's ratios from M = 1024, the rows its target counts."""
    return {s: _ratio(p, False) for s, p in _pairs(result).items() if s[0] >= 1024}


def llm_lines(result: dict[str, Any]) -> Iterable[str]:
    ratios = _llm_ratios(result)
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


def history(results: Path) -> dict[str, Any]:
    """Every targets run whose files lie in ``results`` (``<run>_<suite>_<gpu>.json``, ``run`` =
    ``targets``, ``targets_fixed_order`` or ``targets_runN``, ``suite`` = hopper_square_auto,
    hopper_square_auto_fp16, hopper_llm_auto, model): one row each, oldest first, with the Hopper
    targets' figures (a key is absent where its file or shape is)."""
    suites = {"square": "hopper_square_auto", "square_fp16": "hopper_square_auto_fp16", "llm": "hopper_llm_auto",
              "model": "model"}
    runs: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for path in results.glob("targets*.json"):
        for key, suite in sorted(suites.items(), key=lambda kv: -len(kv[1])):  # the fp16 name before its prefix
            head, sep, gpu = path.stem.rpartition(f"_{suite}_")
            if sep and (head == "targets" or head == "targets_fixed_order"
                        or (head.startswith("targets_run") and head[len("targets_run"):].isdigit())):
                runs.setdefault((head, gpu), {})[key] = json.loads(path.read_text())
                break
    rows = []
    for (run, gpu), found in runs.items():
        if "square" not in found:
            continue
        ctx = found["square"]["context"]
        row: dict[str, Any] = {"run": run, "gpu": ctx["gpu"], "commit": ctx.get("warpgemm_commit", "?"),
                               "date": ctx["date"], "driver": ctx.get("driver"), "torch": ctx.get("torch")}
        if run == "targets_fixed_order":
            row["note"] = "cuBLAS first in every round, the order the benchmark had before it turned the order"
        elif "balanced" in found["square"].get("method", {}).get("timing", ""):
            row["note"] = ("the rounds in a balanced order, every candidate after every other equally often; the runs "
                           "before turned the order by one place a round, which kept each candidate behind the same one")
        row.update(_square_figures(found["square"]))
        if "square_fp16" in found:
            row["median_fp16"] = _square_figures(found["square_fp16"]).get("median")
        if "llm" in found:
            row["llm_median"] = statistics.median(_llm_ratios(found["llm"]).values())
        if "model" in found:
            row["prefill"] = found["model"]["prefill"]["speedup"]
            row["prefill_interval"] = found["model"]["prefill"].get("interval_95")
        rows.append({k: v for k, v in row.items() if v is not None})
    rows.sort(key=lambda r: (r["date"], r["run"]))
    return {"family": "targets_history", "peak_tflops": PEAK_TFLOPS, "rows": rows}


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
    parser.add_argument("--history", metavar="JSON",
                        help="write every targets run found beside JSON (targets*_<suite>_<gpu>.json) to JSON, "
                             "one row a run, for the README's table (scripts/update_tables.py)")
    args = parser.parse_args(argv)
    if args.history:
        out = Path(args.history)
        found = history(out.parent)
        if not found["rows"]:
            print(f"targets: no targets runs in {out.parent}", file=sys.stderr)
            return 2
        out.write_text(json.dumps(found, indent=1) + "\n")
        print(f"targets: {len(found['rows'])} runs written to {out}")
        return 0
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
