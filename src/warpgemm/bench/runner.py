"""Run a family's kernels over a shape suite against same-run baselines."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

import torch

from .. import catalog, dtypes
from ..api import matmul
from ..catalog import COL, KernelSpec
from ..parsing import parse_kernel
from . import ceiling, context, timing
from .suites import Case


def _short(dtype: torch.dtype) -> str:
    return dtypes.short(dtypes.name_of(dtype))


def baseline_label(math: str, dtype: torch.dtype) -> str:
    """The same-run baseline each kind of arithmetic is compared against: torch.matmul
    (cuBLAS) with the matching precision settings (catalog.MATHS)."""
    return catalog.math(math).baseline_label(dtypes.name_of(dtype))


def is_baseline(label: str) -> bool:
    return label.startswith("cuBLAS")


@dataclass(frozen=True)
class Choice:
    """A kernel with parameter overrides, as named on the command line: ``name[:P=V,...]``; or
    ``auto`` (``spec`` None): whatever ``kernel="auto"`` dispatches each shape to."""

    spec: KernelSpec | None
    params: Mapping[str, int] = field(default_factory=dict)

    @property
    def label(self) -> str:
        if self.spec is None:
            return "warpgemm auto"
        if not self.params:
            return self.spec.name
        return self.spec.name + "[" + ",".join(f"{k}={v}" for k, v in self.params.items()) + "]"


def choice_math(choice: Choice, dtype: torch.dtype) -> str:
    """The arithmetic a choice does on ``dtype`` inputs (for ``auto``: what dispatch picks)."""
    if choice.spec is not None:
        return choice.spec.math
    if dtype == torch.float32:
        return "ffma" if torch.get_float32_matmul_precision() == "highest" else "tf32"
    if dtype == torch.int8:
        return "i8i32"
    return "f16f32"


def parse_choice(text: str, family: str | None = None) -> Choice:
    """``sgemm/08_tf32_mma:STAGES=2`` -> Choice. A bare rung prefix (``08``) is looked up in
    ``family``; ``auto`` is the dispatch."""
    if text == "auto":
        return Choice(None)
    name, params = parse_kernel(text)
    if "/" not in name and family is not None:
        matches = [s for s in catalog.kernels(family) if s.name.split("/", 1)[1].startswith(name)]
        if len(matches) != 1:
            raise ValueError(f"{text!r} matches {len(matches)} kernels of {family}")
        spec = matches[0]
    else:
        spec = catalog.get(name)
    if spec.called_by is not None:
        raise ValueError(f"{spec.name} runs through {spec.called_by}, not warpgemm.matmul: the bench times "
                         f"GEMMs (scripts/scaled_bench.py times the scaled product)")
    spec.resolve(params)  # validates names
    return Choice(spec, params)


def default_choices(family: str) -> list[Choice]:
    """Every rung of ``family`` at its defaults, plus the family record's bench variants."""
    choices = [Choice(s) for s in catalog.kernels(family) if s.called_by is None]
    choices += [Choice(catalog.get(name), dict(p)) for name, p in catalog.family(family).bench_variants]
    return choices


@contextlib.contextmanager
def _matmul_flags(math: str) -> Iterator[None]:
    """cuBLAS precision settings for the baseline of ``math``: TF32 and fp16 accumulation as
    its record says (fp16 accumulation where this torch offers the switch)."""
    record = catalog.math(math)
    flags = torch.backends.cuda.matmul
    old = (flags.allow_tf32, getattr(flags, "allow_fp16_accumulation", False))
    flags.allow_tf32 = record.allow_tf32
    if hasattr(flags, "allow_fp16_accumulation"):
        flags.allow_fp16_accumulation = record.fp16_accumulation
    try:
        yield
    finally:
        flags.allow_tf32 = old[0]
        if hasattr(flags, "allow_fp16_accumulation"):
            flags.allow_fp16_accumulation = old[1]


def _baseline_runner(math: str, a_sets, b_sets) -> Callable[[int], torch.Tensor]:
    if math == "i8i32":  # torch's int8 GEMM: cuBLAS, int32 out, in whatever layouts it is given
        return lambda i: torch._int_mm(a_sets[i], b_sets[i])

    def run(i: int) -> torch.Tensor:
        with _matmul_flags(math):
            return torch.matmul(a_sets[i], b_sets[i])
    return run


def _kernel_runner(choice: Choice, a_sets, b_sets) -> Callable[[int], torch.Tensor]:
    def run(i: int) -> torch.Tensor:
        if choice.spec is None:
            return matmul(a_sets[i], b_sets[i])
        return matmul(a_sets[i], b_sets[i], kernel=choice.spec.name, **choice.params)
    return run


def _operand(rows: int, cols: int, layout: str, dtype: torch.dtype, gen: torch.Generator) -> torch.Tensor:
    shape = (rows, cols) if layout != COL else (cols, rows)
    if dtype == torch.int8:  # the full range
        t = torch.randint(-128, 128, shape, dtype=dtype, device="cuda", generator=gen)
    else:
        t = torch.randn(shape, dtype=dtype, device="cuda", generator=gen)
    return t if layout != COL else t.t()


def _own_copies(*sets: list[torch.Tensor]) -> tuple[list[torch.Tensor], ...]:
    """Copies of the input sets, the same values at other addresses, for one candidate. Every
    candidate reads its own: what one candidate's reads left in L2 is never what the next one
    reads. (With shared sets, on an H100 at 1 x 8192 x 8192 bf16, a decode kernel timed right after
    cuBLAS took 46.6 us; the same kernel after another of ours, 48.6 us.)"""
    return tuple([t.clone() for t in s] for s in sets)


def rel_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    """||out - ref|| / ||ref|| in float64; NaN if out has any NaN."""
    diff = torch.linalg.vector_norm(out.double() - ref)
    return float(diff / torch.linalg.vector_norm(ref).clamp_min(1e-300))


def ceiling_kind(math: str, dtype: torch.dtype) -> str | None:
    """The mma.sync instruction whose ceiling bounds ``math`` on ``dtype`` inputs, if any."""
    return catalog.math(math).ceilings.get(dtypes.name_of(dtype))


GRAPH_BELOW_MS = 0.15
"""Where the fastest call of a shape has a shorter median, every candidate is also timed as
CUDA-graph replays (`graph_ms`): the host's per-call work is then a large part of a call."""


def ceiling_label(kind: str) -> str:
    return f"mma.sync ceiling {kind}"


def _ceiling_kinds(choices: list[Choice], dtype: torch.dtype) -> list[str]:
    return sorted({kind for c in choices if (kind := ceiling_kind(choice_math(c, dtype), dtype)) is not None})


def bench_case(case: Case, choices: list[Choice], dtype: torch.dtype = torch.float32,
               *, min_rounds: int = 20, target_seconds: float = 1.0,
               always_graph: bool = False) -> list[dict[str, Any]]:
    """Time every choice and its baseline on one shape; one result row per choice and baseline."""
    gen = torch.Generator(device="cuda").manual_seed(hash(case) & 0xFFFF_FFFF)
    elem = torch.tensor([], dtype=dtype).element_size()
    ws = elem * (case.m * case.k + case.k * case.n + case.m * case.n)
    l2 = torch.cuda.get_device_properties(torch.cuda.current_device()).L2_cache_size
    kinds = sorted({choice_math(c, dtype) for c in choices})
    n_sets = timing.sets_needed(ws, l2, len(choices) + len(kinds))
    a_sets = [_operand(case.m, case.k, case.a_layout, dtype, gen) for _ in range(n_sets)]
    b_sets = [_operand(case.k, case.n, case.b_layout, dtype, gen) for _ in range(n_sets)]
    ref = torch.matmul(a_sets[0].double(), b_sets[0].double())

    runners: dict[str, Callable[[int], torch.Tensor]] = {}
    math_of: dict[str, str] = {}
    for kind in kinds:
        label = baseline_label(kind, dtype)
        runners[label] = _baseline_runner(kind, *_own_copies(a_sets, b_sets))
        math_of[label] = kind
    for c in choices:
        runners[c.label] = _kernel_runner(c, *_own_copies(a_sets, b_sets))
        math_of[c.label] = choice_math(c, dtype)
    errors = {label: rel_error(run(0), ref) for label, run in runners.items()}
    # The mma.sync ceiling loop takes its turn in every round, so that it runs at the clocks and
    # temperatures the kernels see: the denominator of each row's `of_ceiling`.
    loops = {kind: ceiling.loop(kind) for kind in _ceiling_kinds(choices, dtype)}
    for kind, (launch_loop, _) in loops.items():
        runners[ceiling_label(kind)] = lambda i, launch_loop=launch_loop: launch_loop()

    times = timing.interleaved(runners, n_sets, min_rounds=min_rounds, target_seconds=target_seconds)
    ceiling_tflops = {kind: flop / times.pop(ceiling_label(kind)).median_ms / 1e9
                      for kind, (_, flop) in loops.items()}
    # Where calls are short enough for launch overhead to matter, time them once more as CUDA-graph
    # replays (one graph per candidate: a call on every input set in turn), again interleaved.
    graph_times: dict[str, timing.Timings] = {}
    if always_graph or min(t.median_ms for t in times.values()) < GRAPH_BELOW_MS:
        graphs = {label: timing.capture(runners[label], n_sets) for label in times}
        graph_times = timing.interleaved({label: (lambda i, g=g: g.replay()) for label, g in graphs.items()},
                                         1, min_rounds=min_rounds, target_seconds=target_seconds / 2)
        graph_times = {label: timing.Timings(label, [ms / n_sets for ms in t.ms], t.cycle)
                       for label, t in graph_times.items()}
        del graphs
    rows = []
    for label, t in times.items():
        base_label = baseline_label(math_of[label], dtype)
        row: dict[str, Any] = {
            "m": case.m, "n": case.n, "k": case.k, "a_layout": case.a_layout,
            "b_layout": case.b_layout, "dtype": _short(dtype), "kernel": label,
            "math": math_of[label], "baseline": None if is_baseline(label) else base_label,
            "median_ms": t.median_ms, "tflops": case.flops / t.median_ms / 1e9,
            "rel_err": errors[label], "runs": len(t.ms), "input_sets": n_sets,
        }
        if label in graph_times:
            g = graph_times[label].median_ms
            row.update(graph_ms=g, graph_tflops=case.flops / g / 1e9)
        # Bytes of B (the weight, in the Linear layout) over the kernel's own time: the figure of
        # merit where reading B is the whole cost (small M).
        row["weight_gbps"] = case.k * case.n * elem / row.get("graph_ms", t.median_ms) / 1e6
        if not is_baseline(label):
            base = times[base_label]
            ratio = timing.paired_ratio(t, base)
            row.update(baseline_ms=base.median_ms, time_ratio=ratio, speedup=1.0 / ratio)
            if label in graph_times and base_label in graph_times:
                row["graph_speedup"] = 1.0 / timing.paired_ratio(graph_times[label], graph_times[base_label])
            kind = ceiling_kind(math_of[label], dtype)
            if kind in ceiling_tflops:
                row.update(ceiling_kind=kind, ceiling_tflops=ceiling_tflops[kind],
                           of_ceiling=row["tflops"] / ceiling_tflops[kind])
        rows.append(row)
    del a_sets, b_sets, ref
    torch.cuda.empty_cache()
    return rows


def _ceilings(choices: list[Choice], dtype: torch.dtype) -> dict[str, dict[str, Any]]:
    """The mma.sync ceilings of the chosen tensor-core kernels, back to back on an idle GPU now
    (the start of a run); ``run`` measures them again at its end. A record of the GPU's state:
    the rows' `of_ceiling` uses the ceiling timed in the rounds with the kernels."""
    kinds = _ceiling_kinds(choices, dtype)
    return {kind: {"operands": "random", "tflops_before": ceiling.measure(kind)["tflops"]} for kind in kinds}


def run(cases: list[Case], choices: list[Choice], *, suite: str, family: str,
        dtype: torch.dtype = torch.float32, progress: bool = True, min_rounds: int = 20, target_seconds: float = 1.0,
        on_case: Callable[[Case, list[dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """Benchmark ``choices`` on ``cases``; the result carries its context and method."""
    from tqdm import tqdm

    dtype_name = str(dtype).removeprefix("torch.")
    skipped = [c.label for c in choices if c.spec is not None and dtype_name not in c.spec.in_dtypes]
    choices = [c for c in choices if c.spec is None or dtype_name in c.spec.in_dtypes]
    if not choices:
        raise ValueError(f"none of the chosen kernels takes {dtype_name} inputs")
    if skipped and progress is not None:
        print(f"not run on {dtype_name} inputs (they take other dtypes): {', '.join(skipped)}")
    ctx = context.collect()
    ctx["sm_clock_mhz_before"] = context.sm_clock_mhz()
    if suite == "decode" or family == "decode":
        ctx["read_bandwidth_gbps"] = context.read_bandwidth_gbps()
    ceilings = _ceilings(choices, dtype)
    rows: list[dict[str, Any]] = []
    bar = tqdm(cases, desc=f"bench {family}/{suite}", unit="shape", disable=not progress, leave=False)
    for case in bar:
        bar.set_postfix_str(case.label)
        # Small M (the decode suite) is judged by graph replays only: an eager call's time is the
        # host's launch latency.
        case_rows = bench_case(case, choices, dtype, min_rounds=min_rounds, target_seconds=target_seconds,
                               always_graph=suite == "decode")
        rows.extend(case_rows)
        if on_case is not None:
            on_case(case, case_rows)
    ctx["sm_clock_mhz_after"] = context.sm_clock_mhz()
    if ceilings:
        for kind, c in ceilings.items():
            c["tflops_after"] = ceiling.measure(kind)["tflops"]
    return {
        "family": family, "suite": suite, "dtype": _short(dtype), "context": ctx,
        "ceiling": ceilings,
        "method": {
            "timing": "CUDA events around each call; interleaved rounds in a balanced order (a Williams "
                      "design: over a cycle of rounds, as many as candidates, twice as many for an odd count, "
                      "each candidate takes every place equally often and follows every other equally often); "
                      f"median over cycles (>= {min_rounds}) of the cycle's mean time; "
                      "ratio = median over cycles of kernel/baseline mean times",
            "cold_inputs": "rotating input sets so each launch reads data evicted from L2 "
                           "(>= 2x L2 of other traffic since its last use)",
            "inputs": "torch.randn, fresh per shape",
            "graph": f"shapes whose fastest call takes under {GRAPH_BELOW_MS} ms are also timed as CUDA-graph "
                     "replays (a graph calls the candidate once on every input set; graph_ms is per call), "
                     "interleaved; "
                     "graph_speedup = median over cycles of baseline/candidate graph times",
            "ceiling": "the mma.sync ceiling loop on random operands takes a turn in every round; "
                       "of_ceiling = kernel TFLOP/s / the loop's TFLOP/s for that shape",
            "reference": "float64 torch.matmul on the first input set",
            "baselines": "torch.matmul: fp32 with allow_tf32=False (FFMA rungs), allow_tf32=True "
                         "(TF32 rungs); fp16/bf16 with fp32 accumulation; fp16 accumulation "
                         "(allow_fp16_accumulation) for f16-accumulate kernels",
        },
        "results": rows,
    }
