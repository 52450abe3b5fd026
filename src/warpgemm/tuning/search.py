"""The offline tuning search: time every legal parameter choice of a kernel on one problem on
this GPU, and remember the fastest in the tuning table (:mod:`warpgemm.tuning.table`).
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from typing import Any, Mapping

from .. import catalog, dispatch, dtypes, plan
from ..api import matmul
from ..bench import timing
from ..catalog import KernelSpec
from ..errors import CompileError
from ..operands import layout_read
from ..runtime.compiler import compile_kernel
from ..runtime.device import current_arch, current_capability, device_name, require_device
from .table import Problem, remember

_BATCH = 5


def candidates(spec: KernelSpec, b_layout: str | None = None, a_layout: str = "row",
               shape: tuple[int, int, int] | None = None) -> list[dict[str, int]]:
    """Every combination of the spec's tuning space that its ``valid`` predicate accepts; with
    ``shape`` (M, N, K), the space's values that follow from it (``KernelSpec.shape_tuning``: the
    token-tile widths of decode/02) in place of the spec's own for those names; with ``b_layout``,
    less those that would copy a B the kernel otherwise reads in place after an A in ``a_layout``
    (``KernelSpec.b_layouts_read``: rung 06's 128 x 176 tiles read a column-major B only, and
    would time a copy of any other). Clusters and stream-K never take the K split that ``SPLITS``
    sets (``catalog.hopper.last_wave``), so there the candidates that differ only in it are one
    launch, offered once, with the spec's default."""
    space = dict(spec.tuning)
    if shape is not None and spec.shape_tuning is not None:
        space.update(spec.shape_tuning(*shape))
    names = list(space)
    a_layout = layout_read(a_layout, spec.a_layouts)  # an A the kernel does not read is copied first
    in_place = b_layout is not None and b_layout in spec.b_layouts[a_layout]
    out = []
    for values in itertools.product(*(space[n] for n in names)):
        chosen = dict(zip(names, values))
        p = spec.resolve(chosen)
        if shape is not None:  # the rest of what follows from the shape, as matmul would set it
            spec.fill_shape_params(p, chosen, *shape)
        if spec.valid is not None and not spec.valid(p):
            continue
        if in_place and b_layout not in spec.b_layouts_read(a_layout, p):
            continue
        if ("SPLITS" in spec.params and p["SPLITS"] != spec.params["SPLITS"]
                and (p.get("CLUSTER", 1) > 1 or p.get("STREAM_K", 0))):
            continue
        out.append(p)
    return out


def rule_choice(spec: KernelSpec, problem: Problem, capability: int, device: str) -> dict[str, int] | None:
    """The parameters ``kernel="auto"`` runs ``spec`` with for ``problem`` on a device of compute
    ``capability`` named ``device`` (the shipped rules' measured choice), or None where the rules
    send the problem to another kernel. The tuner always times it, so that what it remembers is
    never a choice it measured slower than the one an untuned call makes (the rules take
    parameters outside the tuning space, such as rung 06's ``HOLD``)."""
    try:
        rule = dispatch.choose_auto(capability, problem.in_dtype, problem.m, problem.n, problem.k,
                                    (problem.a_layout, problem.b_layout), device)
    except ValueError:
        return None
    if rule.kernel != spec.name:
        return None
    # as matmul runs it: the rule's parameters, and those that follow from the shape where the
    # rule does not name them (decode/02's token-tile width)
    return spec.fill_shape_params(spec.resolve(rule.params), rule.params, problem.m, problem.n, problem.k)


def split_finalists(rough: list[tuple[dict[str, int], float]], finalists: int,
                    ruled: Mapping[str, int] | None = None
                    ) -> tuple[list[dict[str, int]], list[tuple[dict[str, int], float]]]:
    """The candidates to time properly, the ``finalists`` fastest of ``rough`` (parameters, rough
    time) and ``ruled`` (the rules' choice) wherever it came, so that the winner is timed against
    it in the same rounds; and the others with their rough times."""
    ranked = sorted(rough, key=lambda pt: pt[1])
    keep = [i < finalists or p == ruled for i, (p, _) in enumerate(ranked)]
    return ([p for (p, _), k in zip(ranked, keep) if k], [pt for pt, k in zip(ranked, keep) if not k])


def _compile_one(job: tuple[str, str, str]) -> str | None:
    """Compile one candidate into the disk cache and this process's kernels; the error, if any."""
    source, name_expression, arch = job
    try:
        compile_kernel(source, name_expression, arch)
    except CompileError as exc:
        return str(exc).splitlines()[0]
    return None


def precompile(spec: KernelSpec, cands: list[dict[str, int]], problem: Problem, arch: str,
               workers: int | None = None) -> list[str | None]:
    """Compile every candidate (into the disk cache and this process) before any is timed, in
    ``workers`` threads (default: one a CPU core), so that timing them afterwards compiles
    nothing. Returns each candidate's compile error, or None.

    Threads, not processes: NVRTC runs outside the GIL, so the compiles still run side by
    side, and a caller's script needs no ``if __name__ == "__main__"`` guard (worker processes
    started by ``spawn`` import the caller's main module again, running a script without the
    guard once in each worker)."""
    import concurrent.futures as cf

    instances = [spec.instance(problem.a_layout, problem.b_layout, problem.in_dtype, problem.out_dtype, p)
                 for p in cands]
    jobs = [(inst.source, inst.name_expression, arch) for inst in instances]
    workers = max(1, min(len(jobs), workers or os.cpu_count() or 1))
    if workers == 1:
        return [_compile_one(job) for job in jobs]
    with cf.ThreadPoolExecutor(workers, thread_name_prefix="warpgemm-compile") as pool:
        return list(pool.map(_compile_one, jobs))


@dataclass
class TuneResult:
    params: dict[str, int]
    ms: float
    tried: list[tuple[dict[str, int], float | None, str]]
    """Each candidate with its time (None if it could not run) and a note: why it did not run,
    or that its time is the rough first-pass one; finalists have no note."""


def tune(name: str, m: int, n: int, k: int, *, dtype: Any = None, out_dtype: Any = None,
         a_layout: str = "row", b_layout: str = "row", runs: int = 10, finalists: int = 8,
         progress: bool = False, save: bool = True,
         space: list[Mapping[str, int]] | None = None) -> TuneResult:
    """Time every candidate of kernel ``name`` on an (m, n, k) problem on this GPU, remember the
    fastest (when ``save``), and return it with the whole trial list. Every candidate is checked
    and timed roughly; the ``finalists`` fastest, and the rules' choice, are then timed in ``runs``
    cycles of interleaved rounds (a cycle: ``bench.timing.round_orders``, in which each takes every
    place and follows every other equally often). ``space`` limits the search to these parameter
    choices (default: :func:`candidates` for this shape, and :func:`rule_choice` where
    ``kernel="auto"`` runs this kernel for the problem; those that would copy a B in ``b_layout``
    first are left out)."""
    import torch

    spec = catalog.get(name)
    cands = (candidates(spec, b_layout, a_layout, (m, n, k)) if space is None
             else [spec.resolve(p) for p in space])
    if not cands:
        raise ValueError(f"tune {name}: the search space is empty")
    require_device("tuning")
    dtype = dtype or dtypes.torch_dtype(spec.in_dtypes[0])
    out_dtype = out_dtype or dtypes.torch_dtype(spec.default_out_dtype(dtypes.name_of(dtype)))
    problem = Problem(m, n, k, dtypes.name_of(dtype), dtypes.name_of(out_dtype), a_layout, b_layout)
    ruled = None
    if space is None:
        ruled = rule_choice(spec, problem, current_capability(), device_name(torch.cuda.current_device()))
        if ruled is not None and ruled not in cands:
            cands.append(ruled)

    def operand(rows: int, cols: int, layout: str) -> torch.Tensor:
        t = torch.randn((rows, cols) if layout == "row" else (cols, rows), device="cuda").to(dtype)
        return t if layout == "row" else t.t()

    a, b = operand(m, k, a_layout), operand(k, n, b_layout)
    out = torch.empty(m, n, dtype=out_dtype, device="cuda")
    ref = (a.double() @ b.double()).to(torch.float32)
    tol = 2e-2  # a wrong candidate is off by O(1); rounding of half-precision output is far below
    tried: list[tuple[dict[str, int], float | None, str]] = []
    precompile(spec, cands, problem, current_arch())

    def captured(p: dict[str, int]) -> torch.cuda.CUDAGraph:
        # _BATCH launches in one CUDA graph: a replay costs the host one call, so that the time
        # is the kernels' even where one matmul call costs the host more than the kernel runs.
        return timing.capture(lambda _: matmul(a, b, kernel=name, out=out, **p), _BATCH)

    def replay_ms(graphs: list[torch.cuda.CUDAGraph], rounds: int) -> list[float]:
        # Median time per launch of each graph over `rounds` cycles of interleaved rounds.
        times = timing.interleaved({str(j): (lambda _, g=g: g.replay()) for j, g in enumerate(graphs)}, 1,
                                   min_rounds=rounds, max_rounds=rounds, warmup=0)
        return [t.median_ms / _BATCH for t in times.values()]

    # Pass 1: every candidate is checked against the reference and timed roughly (one replay).
    # Pass 2 times the `finalists` fastest properly: `runs` cycles of rounds in which each finalist
    # takes a turn, so that the GPU's clock and temperature drift over the pass hits them all alike.
    rough: list[tuple[dict[str, int], float]] = []
    for i, p in enumerate(cands):
        try:
            out.fill_(float("nan"))
            matmul(a, b, kernel=name, out=out, **p)
            torch.cuda.synchronize()
            err = float(torch.linalg.vector_norm(out.float() - ref) / torch.linalg.vector_norm(ref))
            if not err <= tol:
                tried.append((p, None, f"wrong result (relative error {err:.2e})"))
                continue
        except (CompileError, RuntimeError, ValueError) as exc:
            tried.append((p, None, str(exc).splitlines()[0][:200]))
            continue
        rough.append((p, replay_ms([captured(p)], 1)[0]))
        if progress:
            print(f"  [{i + 1}/{len(cands)}] {rough[-1][1]:8.3f} ms  " + " ".join(f"{k}={v}" for k, v in p.items()),
                  flush=True)
    finals, dropped = split_finalists(rough, finalists, ruled)
    for p, t in dropped:
        tried.append((p, t, "rough time only: not among the finalists"))
    if finals:
        for p, t in zip(finals, replay_ms([captured(p) for p in finals], runs)):
            tried.append((p, t, ""))
    timed = [(p, t) for p, t, note in tried if t is not None and not note]
    if not timed:
        raise RuntimeError(f"tune {name}: no candidate ran on this device for {m}x{n}x{k}")
    best, best_ms = min(timed, key=lambda pt: pt[1])
    if save:
        remember(spec, problem, best, best_ms, candidates=len(tried), runs=runs)
        plan.clear()  # calls made before the tuning keep no stale choice
    return TuneResult(best, best_ms, tried)


