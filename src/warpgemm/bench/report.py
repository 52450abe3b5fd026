"""Reports of benchmark results: the terminal table, JSON files, plots, README tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

_RULE = "-" * 96


def case_table(rows: list[dict[str, Any]]) -> str:
    """One shape's block of the text report: time, TFLOP/s, error and ratio to the baseline
    of every kernel and baseline."""
    r0 = rows[0]
    head = (f"M={r0['m']}, N={r0['n']}, K={r0['k']}, A {r0['a_layout']}-major, "
            f"B {r0['b_layout']}-major")
    lines = [_RULE, head.center(96), _RULE,
             f"{'kernel':>36} {'time ms':>10} {'TFLOP/s':>9} {'x base':>8}  {'baseline':<12} {'rel err':>9}"]
    for r in rows:
        ratio = f"{r['speedup']:.3f}" if "speedup" in r else "1"
        base = r["baseline"] or "(baseline)"
        lines.append(f"{r['kernel']:>36} {r['median_ms']:>10.4f} {r['tflops']:>9.2f} "
                     f"{ratio:>8}  {base:<12} {r['rel_err']:>9.2e}")
    return "\n".join(lines)


def bandwidth_table(result: dict[str, Any]) -> str:
    """For small-M results: each kernel's reading of B in GB/s (graph replays, cold B) and as a
    fraction of the device's read bandwidth measured in the same run."""
    bw = result.get("context", {}).get("read_bandwidth_gbps")
    rows = result["results"]
    lines = [f"B read at (GB/s{', fraction of the measured ' + f'{bw:.0f} GB/s' if bw else ''}):"]
    for r in rows:
        frac = f" ({r['weight_gbps'] / bw:.2f})" if bw else ""
        t = r.get("graph_ms", r["median_ms"]) * 1e3
        ratio = f" {r['graph_speedup']:.2f}x" if "graph_speedup" in r else ""
        lines.append(f"  {r['m']:>3}x{r['n']}x{r['k']} {r['kernel']:<28} {t:8.2f} us {r['weight_gbps']:8.0f}{frac}{ratio}")
    return "\n".join(lines)


def write_json(result: dict[str, Any], path: str | Path) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(result, indent=1, sort_keys=False) + "\n")


def load(paths: Iterable[str | Path]) -> list[dict[str, Any]]:
    return [json.loads(Path(p).read_text()) for p in paths]


def _case_label(r: dict[str, Any]) -> str:
    lay = (r["a_layout"][0] + r["b_layout"][0]).upper()
    if r["m"] == r["n"] == r["k"]:
        return f"{r['m']}^3 {lay}"
    return f"{r['m']}x{r['n']}x{r['k']} {lay}"


def plot(result: dict[str, Any], path: str | Path) -> None:
    """TFLOP/s of every kernel and baseline against shape, one line each."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["results"]
    cases = list(dict.fromkeys(_case_label(r) for r in rows))
    kernels = list(dict.fromkeys(r["kernel"] for r in rows))
    fig, ax = plt.subplots(figsize=(max(7, 1.1 * len(cases) + 3), 5))
    for name in kernels:
        ys = {_case_label(r): r["tflops"] for r in rows if r["kernel"] == name}
        style = "--" if name.startswith("cuBLAS") else "-"
        ax.plot(range(len(cases)), [ys.get(c, float("nan")) for c in cases], style, marker="o",
                label=name, linewidth=2.5 if style == "--" else 1.5)
    ax.set_xticks(range(len(cases)), cases, rotation=30, ha="right")
    ax.set_ylabel("TFLOP/s")
    ctx = result["context"]
    ax.set_title(f"warpgemm {result['family']} / {result['suite']} on {ctx['gpu']}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def power_table(result: dict[str, Any]) -> str:
    """scripts/power_draw.py's results: sustained TFLOP/s, SM clock and board power per workload."""
    out = ["| workload | dtype | input data | TFLOP/s | SM clock (MHz) | board power (W) |",
           "|---|---|---|---:|---:|---:|"]
    for r in result["results"]:
        out.append(f"| {r['workload']} | {r['dtype']} | {r['data']} | {r['tflops']:.1f} | "
                   f"{r.get('clock_mhz', float('nan')):.0f} | {r.get('power_w', float('nan')):.0f} |")
    ctx = result["context"]
    out += ["", f"Each workload back to back for {result['seconds']:g} s; clock and power are medians of "
                f"nvidia-smi samples every 50 ms. {ctx['gpu']}, {ctx['sm_count']} SMs, driver {ctx['driver']}, "
                f"CUDA {ctx['cuda_torch']}, torch {ctx['torch']}, {ctx['date'][:10]}."]
    return "\n".join(out)


def _measured_on(ctx: dict[str, Any]) -> str:
    """Where and when a result was measured, for a table's caption, with the context's ``note``
    (what the measured code differs in from the code as it is), where it has one."""
    return (f"{ctx['gpu']}, {ctx['sm_count']} SMs, driver {ctx['driver']}, CUDA {ctx['cuda_torch']}, "
            f"torch {ctx['torch']}, {ctx['date'][:10]}" + (f" ({ctx['note']})" if ctx.get("note") else ""))


def decode_markdown_table(result: dict[str, Any]) -> str:
    """The small-M table: per shape, each kernel's time as graph replays, B read in GB/s as a
    fraction of the device's read bandwidth measured in the same run, and x cuBLAS."""
    rows = result["results"]
    ctx = result["context"]
    bw = ctx.get("read_bandwidth_gbps")
    kernels = [k for k in dict.fromkeys(r["kernel"] for r in rows)]
    by = {(r["kernel"], (r["m"], r["n"], r["k"])): r for r in rows}
    shapes = list(dict.fromkeys((r["m"], r["n"], r["k"]) for r in rows))
    lines = ["| M x N x K | " + " | ".join(f"`{k}`" for k in kernels) + " |", "|---|" + "---:|" * len(kernels)]
    for s in shapes:
        cells = []
        for k in kernels:
            r = by.get((k, s))
            if r is None:
                cells.append("")
                continue
            us = r.get("graph_ms", r["median_ms"]) * 1e3
            frac = f", {r['weight_gbps'] / bw:.0%}" if bw else ""
            ratio = f", {r['graph_speedup']:.2f}x" if "graph_speedup" in r else ""
            cells.append(f"{us:.1f} us ({r['weight_gbps']:.0f} GB/s{frac}{ratio})")
        lines.append(f"| {s[0]} x {s[1]} x {s[2]} | " + " | ".join(cells) + " |")
    lines.append("")
    read = (f" and as a fraction of the read bandwidth measured in the same run ({bw:.0f} GB/s)" if bw else "")
    lines.append(f"CUDA-graph replays with B (the weight) rotated past L2: time per call, B read in GB/s{read}, "
                 f"and x cuBLAS in the same rounds. {result['dtype']} inputs, {_measured_on(ctx)}.")
    return "\n".join(lines)


def model_markdown_table(result: dict[str, Any]) -> str:
    """The model benchmark: patched against unpatched, prefill and decode."""
    cfg, ctx = result["config"], result["context"]
    lines = ["| | unpatched (cuBLAS) | patched (warpgemm) | speed-up |", "|---|---:|---:|---:|"]
    p = result["prefill"]
    span = f" ({p['interval_95'][0]:.3f}-{p['interval_95'][1]:.3f})" if "interval_95" in p else ""
    lines.append(f"| prefill {cfg['batch']}x{cfg['prompt']} | {p['unpatched_ms']:.2f} ms | {p['patched_ms']:.2f} ms "
                 f"| {p['speedup']:.2f}x{span} |")
    for key, label, unit in (("decode_eager", "decode, eager", "token"), ("decode_graphs", "decode, CUDA graphs", "token"),
                             ("decode_step_graph", "decode step, one CUDA graph", "step")):
        if key in result:
            d = result[key]
            where = f", context {cfg['step_context']}" if unit == "step" else ""
            span = f" ({d['interval_95'][0]:.3f}-{d['interval_95'][1]:.3f})" if "interval_95" in d else ""
            lines.append(f"| {label} (batch {cfg['decode_batch']}{where}) | {d[f'unpatched_ms_per_{unit}']:.3f} "
                         f"ms/{unit} | {d[f'patched_ms_per_{unit}']:.3f} ms/{unit} | {d['speedup']:.2f}x{span} |")
    lines.append("")
    lines.append(f"Llama architecture, {cfg['layers']} layers, hidden size {cfg['hidden']}, random weights, "
                 f"{cfg['dtype']}; speed-up = median over interleaved rounds of unpatched / patched time"
                 f"{' (in brackets: a bootstrap 95% interval of that median)' if 'interval_95' in p else ''}. "
                 f"{_measured_on(ctx)}.")
    return "\n".join(lines)


def targets_history_table(result: dict[str, Any]) -> str:
    """The Hopper targets run by run (scripts/targets.py --history): each figure x cuBLAS in the
    same run, in bold where it meets its target."""
    peak = result["peak_tflops"]

    def fig(row: dict[str, Any], key: str, target: float, text: str) -> str:
        if key not in row:
            return ""
        return f"**{text}**" if row[key] >= target else text

    notes = sorted({r["note"] for r in result["rows"] if r.get("note")})
    marks = dict(zip(notes, ("*", "†", "‡", "§")))
    lines = ["| run | GPU | commit | square median bf16 / fp16 | 4096^3 bf16 (TFLOP/s; cuBLAS) "
             "| 8192^3 bf16, of the peak (cuBLAS) | llm median, M >= 1024 | prefill |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        square = " / ".join(x for x in (fig(r, "median", 1.0, f"{r.get('median', 0):.4f}x"),
                                        fig(r, "median_fp16", 1.0, f"{r.get('median_fp16', 0):.4f}x")) if x)
        r4096 = fig(r, "r4096", 1.03, f"{r.get('r4096', 0):.3f}x")
        if r4096:
            r4096 += f" ({r['tflops4096']:.1f}; {r['cublas4096']:.1f})"
        p8192 = fig(r, "peak8192", 0.8, f"{r.get('peak8192', 0):.1%}")
        if p8192:
            p8192 += f" ({r['cublas_peak8192']:.1%})"
        prefill = fig(r, "prefill", 1.0, f"{r.get('prefill', 0):.3f}x")
        if prefill and r.get("prefill_interval"):
            prefill += f" ({r['prefill_interval'][0]:.3f}-{r['prefill_interval'][1]:.3f})"
        gpu = r["gpu"].removeprefix("NVIDIA ")
        run = r["run"].removeprefix("targets_").replace("run", "run ") if r["run"] != "targets" else "run 1"
        run = run.replace("_", " ") + marks.get(r.get("note"), "")
        lines.append(f"| {run} | {gpu} | {r['commit'].split()[0]} {r['date'][:10]} | {square} | {r4096} | {p8192} "
                     f"| {fig(r, 'llm_median', 1.0, format(r.get('llm_median', 0), '.4f') + 'x')} | {prefill} |")
    lines.append("")
    lines.append("x cuBLAS in the same run (`warpgemm bench hopper --kernels auto`, events; the prefill: "
                 "`warpgemm bench model`, the unpatched model, with a bootstrap 95% interval), in bold where "
                 f"the target holds: square medians and the llm median >= 1.00x, 4096^3 >= 1.03x, 8192^3 >= 80% "
                 f"of {peak:.0f} TFLOP/s, the prefill >= 1.0x. Each run's files are "
                 "docs/results/targets*_<suite>_<gpu>.json." + "".join(f" {marks[n]}: {n}." for n in notes))
    return "\n".join(lines)


def markdown_table(result: dict[str, Any]) -> str:
    """A markdown table: one row per kernel, one column per shape, TFLOP/s and x baseline."""
    if result.get("family") == "power":
        return power_table(result)
    if result.get("family") == "targets_history":
        return targets_history_table(result)
    if result.get("family") == "model":
        return model_markdown_table(result)
    if result.get("suite") == "decode" or result.get("family") == "decode":
        return decode_markdown_table(result)
    rows = result["results"]
    cases = list(dict.fromkeys(_case_label(r) for r in rows))
    kernels = list(dict.fromkeys(r["kernel"] for r in rows))
    by = {(r["kernel"], _case_label(r)): r for r in rows}

    def cell(name: str, case: str, key: str = "tflops", ratio: str = "speedup") -> str:
        r = by.get((name, case))
        if r is None or key not in r:
            return ""
        value = f"{r[key]:.1f}" if r[key] >= 1 else f"{r[key]:.2g}"
        return f"{value} ({r[ratio]:.2f}x)" if ratio in r else value

    def grid(case_list: list[str], key: str = "tflops", ratio: str = "speedup") -> list[str]:
        if len(case_list) <= 8:  # one row per kernel, one column per shape
            lines = ["| kernel | " + " | ".join(case_list) + " |", "|---|" + "---:|" * len(case_list)]
            return lines + [f"| `{name}` | " + " | ".join(cell(name, c, key, ratio) for c in case_list) + " |"
                            for name in kernels]
        # many shapes: one row per shape, one column per kernel
        lines = ["| shape | " + " | ".join(f"`{k}`" for k in kernels) + " |", "|---|" + "---:|" * len(kernels)]
        return lines + [f"| {c} | " + " | ".join(cell(name, c, key, ratio) for name in kernels) + " |"
                        for c in case_list]

    out = grid(cases)
    ctx = result["context"]
    unit = "TOPS (10^12 integer operations a second, 2 * M * N * K per GEMM)" if result.get("dtype") == "int8" else "TFLOP/s"
    out.append("")
    pairs = dict.fromkeys((r["math"], r["baseline"]) for r in rows if r.get("baseline"))
    against = "; ".join(f"{math} kernels against {base}" for math, base in pairs)
    dtype = f"{result['dtype']} inputs, " if result.get("dtype") else ""
    out.append(f"{unit}, and in brackets the speed relative to cuBLAS measured in the same run "
               f"({against}). {dtype}{_measured_on(ctx)}.")
    for kind in dict.fromkeys(r["ceiling_kind"] for r in rows if "ceiling_kind" in r):
        mine = [r for r in rows if r.get("ceiling_kind") == kind]
        best = max(mine, key=lambda r: r["of_ceiling"])
        lo, hi = min(r["ceiling_tflops"] for r in mine), max(r["ceiling_tflops"] for r in mine)
        span = f"{lo:.1f}" if round(lo, 1) == round(hi, 1) else f"{lo:.1f}-{hi:.1f}"
        rate = unit.split(" ")[0]  # TFLOP/s, or TOPS for integer kernels
        line = (f"The {kind} mma.sync ceiling on random operands, timed in the same rounds as the "
                f"kernels: {span} {rate}; the best fraction of it is {best['of_ceiling']:.2f}x "
                f"(`{best['kernel']}`, {_case_label(best)})")
        idle = (result.get("ceiling") or {}).get(kind)
        if idle and "tflops_after" in idle:
            line += (f". Back to back on its own before and after the run: {idle['tflops_before']:.1f} "
                     f"and {idle['tflops_after']:.1f} {rate}")
        out += ["", line + "."]
    graphed = [c for c in cases if any("graph_tflops" in r for r in rows if _case_label(r) == c)]
    if graphed:
        out += ["", "The shapes where launch overhead matters, timed again as CUDA-graph replays (the "
                    f"kernels' own speed, without the host's per-call work), {unit.split(' ')[0]} and x cuBLAS:", ""]
        out += grid(graphed, "graph_tflops", "graph_speedup")
    return "\n".join(out)


def replace_between(text: str, tag: str, body: str) -> str:
    """Replace what stands between ``<!-- tag:start -->`` and ``<!-- tag:end -->``."""
    start, end = f"<!-- {tag}:start -->", f"<!-- {tag}:end -->"
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"markers {start} ... {end} not found")
    return text[: i + len(start)] + "\n" + body.strip() + "\n" + text[j:]
