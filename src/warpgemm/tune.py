"""The autotuner: for one kernel and one problem, try the parameter choices of the kernel's
tuning space on this GPU and remember the fastest, on disk, per device.

``warpgemm.matmul`` then runs a kernel whose spec says ``autotune=True`` with the remembered
choice for that exact problem (shape, dtypes, layouts), and with the spec's defaults where
nothing was tuned yet. ``warpgemm tune`` (or :func:`tune`) fills the table.
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from . import catalog
from .catalog import KernelSpec
from .errors import CompileError
from .runtime.cache import cache_root

_BATCH = 5
_lock = threading.RLock()  # re-entered: tune() holds it while _read() takes it
_loaded: dict[Path, tuple[float, dict[str, Any]]] = {}


@dataclass(frozen=True)
class Problem:
    m: int
    n: int
    k: int
    in_dtype: str
    out_dtype: str
    a_layout: str
    b_layout: str

    def key(self, spec: KernelSpec) -> str:
        return (f"{spec.name}|{self.in_dtype}->{self.out_dtype}|{self.a_layout[0]}{self.b_layout[0]}"
                f"|{self.m}x{self.n}x{self.k}")


def _device_tag() -> str:
    import torch

    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    name = "".join(ch if ch.isalnum() else "_" for ch in props.name)
    return f"{name}_sm{props.major}{props.minor}_{props.multi_processor_count}sm"


def table_path() -> Path:
    """Where this device's choices are kept: ``<cache>/tuning/<device>.json``."""
    return cache_root() / "tuning" / f"{_device_tag()}.json"


_paths: dict[tuple[str, int], Path] = {}


def _table_path_cached() -> Path:
    import torch

    key = (os.environ.get("WARPGEMM_CACHE", ""), torch.cuda.current_device())
    path = _paths.get(key)
    if path is None:
        path = _paths[key] = table_path()
    return path


_RECHECK_SECONDS = 1.0
_checked: dict[Path, float] = {}


def _read(path: Path, *, fresh: bool = False) -> dict[str, Any]:
    """The table at ``path``; re-read when its file changed, checked at most once a second on
    the launch path (``fresh`` checks now)."""
    now = time.monotonic()
    with _lock:
        hit = _loaded.get(path)
        if hit and not fresh and now - _checked.get(path, 0.0) < _RECHECK_SECONDS:
            return hit[1]
        _checked[path] = now
    try:
        mtime = path.stat().st_mtime
    except OSError:
        with _lock:
            _loaded[path] = (-1.0, {})
        return {}
    with _lock:
        hit = _loaded.get(path)
        if hit and hit[0] == mtime:
            return hit[1]
    try:
        table = json.loads(path.read_text())
        if not isinstance(table, dict):
            table = {}
    except (OSError, ValueError):
        table = {}  # an unreadable table is treated as empty, and rewritten by the next tune
    with _lock:
        _loaded[path] = (mtime, table)
    return table


def _write(path: Path, table: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump(table, f, indent=1, sort_keys=True)
    os.replace(tmp, path)


_resolved: dict[str, tuple[dict[str, Any], dict[str, int] | None]] = {}
"""Problem key -> (the table it was read from, its resolved parameters): the launch path
validates a remembered choice once per table, not on every call."""


def lookup(spec: KernelSpec, problem: Problem) -> dict[str, int] | None:
    """The remembered parameters for ``problem``, or None."""
    table = _read(_table_path_cached())
    key = problem.key(spec)
    hit = _resolved.get(key)
    if hit is not None and hit[0] is table:
        return None if hit[1] is None else dict(hit[1])
    entry = table.get(key)
    params = None
    if entry:
        try:
            params = spec.resolve(entry.get("params"))
        except (ValueError, TypeError):
            params = None  # the spec changed since; ignore the stale choice
    _resolved[key] = (table, params)
    return None if params is None else dict(params)


def candidates(spec: KernelSpec) -> list[dict[str, int]]:
    """Every combination of the spec's tuning space that its ``valid`` predicate accepts."""
    names = list(spec.tuning)
    out = []
    for values in itertools.product(*(spec.tuning[n] for n in names)):
        p = spec.resolve(dict(zip(names, values)))
        if spec.valid is None or spec.valid(p):
            out.append(p)
    return out


def _compile_one(job: tuple[str, str, str]) -> str | None:
    """Compile one candidate into the disk cache (run in a worker process); the error, if any."""
    source, name_expression, arch = job
    from .runtime.compiler import compile_kernel

    try:
        compile_kernel(source, name_expression, arch)
    except CompileError as exc:
        return str(exc).splitlines()[0]
    return None


def precompile(spec: KernelSpec, cands: list[dict[str, int]], problem: Problem, arch: str,
               workers: int | None = None) -> None:
    """Fill the disk cache with every candidate's cubin, compiling in parallel processes, so
    that timing them afterwards only loads cubins."""
    import concurrent.futures as cf
    import multiprocessing as mp

    jobs = [(spec.source, spec.name_expression(problem.a_layout == catalog.ROW,
                                               problem.b_layout == catalog.ROW, p,
                                               problem.in_dtype, problem.out_dtype), arch)
            for p in cands]
    workers = workers or min(len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        for job in jobs:
            _compile_one(job)
        return
    with cf.ProcessPoolExecutor(workers, mp_context=mp.get_context("spawn")) as pool:
        list(pool.map(_compile_one, jobs))


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
    and timed roughly; the ``finalists`` fastest are then timed in ``runs`` interleaved rounds.
    ``space`` limits the search to these parameter choices (default: :func:`candidates`)."""
    import torch

    from .api import matmul
    from .bench import timing
    from .runtime.device import require_device

    spec = catalog.get(name)
    cands = candidates(spec) if space is None else [spec.resolve(p) for p in space]
    if not cands:
        raise ValueError(f"tune {name}: the search space is empty")
    require_device("tuning")
    dtype = dtype or getattr(torch, spec.in_dtypes[0])
    out_dtype = out_dtype or dtype
    problem = Problem(m, n, k, str(dtype).removeprefix("torch."), str(out_dtype).removeprefix("torch."),
                      a_layout, b_layout)

    def operand(rows: int, cols: int, layout: str) -> torch.Tensor:
        t = torch.randn((rows, cols) if layout == "row" else (cols, rows), device="cuda").to(dtype)
        return t if layout == "row" else t.t()

    a, b = operand(m, k, a_layout), operand(k, n, b_layout)
    out = torch.empty(m, n, dtype=out_dtype, device="cuda")
    ref = (a.double() @ b.double()).to(torch.float32)
    tol = 2e-2  # a wrong candidate is off by O(1); rounding of half-precision output is far below
    tried: list[tuple[dict[str, int], float | None, str]] = []
    from .runtime.device import current_arch

    precompile(spec, cands, problem, current_arch())

    def captured(p: dict[str, int]) -> torch.cuda.CUDAGraph:
        # _BATCH launches in one CUDA graph: a replay costs the host one call, so that the time
        # is the kernels' even where one matmul call costs the host more than the kernel runs.
        return timing.capture(lambda _: matmul(a, b, kernel=name, out=out, **p), _BATCH)

    def replay_ms(graphs: list[torch.cuda.CUDAGraph], rounds: int) -> list[float]:
        # Median time per launch of each graph over `rounds` interleaved rounds.
        times = timing.interleaved({str(j): (lambda _, g=g: g.replay()) for j, g in enumerate(graphs)}, 1,
                                   min_rounds=rounds, max_rounds=rounds, warmup=0)
        return [t.median_ms / _BATCH for t in times.values()]

    # Pass 1: every candidate is checked against the reference and timed roughly (one replay).
    # Pass 2 times the `finalists` fastest properly: `runs` rounds in which each finalist takes a
    # turn, so that the GPU's clock and temperature drift over the pass hits them all alike.
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
    rough.sort(key=lambda pt: pt[1])
    for p, t in rough[finalists:]:
        tried.append((p, t, "rough time only: not among the finalists"))
    finals = [p for p, _ in rough[:finalists]]
    if finals:
        for p, t in zip(finals, replay_ms([captured(p) for p in finals], runs)):
            tried.append((p, t, ""))
    timed = [(p, t) for p, t, note in tried if t is not None and not note]
    if not timed:
        raise RuntimeError(f"tune {name}: no candidate ran on this device for {m}x{n}x{k}")
    best, best_ms = min(timed, key=lambda pt: pt[1])
    if save:
        remember(spec, problem, best, best_ms, candidates=len(tried), runs=runs)
    return TuneResult(best, best_ms, tried)


def remember(spec: KernelSpec, problem: Problem, params: Mapping[str, int], ms: float,
             **info: Any) -> None:
    """Record ``params`` as the choice for ``problem`` in this device's table, keeping the
    other entries (the file is rewritten atomically)."""
    path = _table_path_cached()
    with _lock:
        table = dict(_read(path, fresh=True))
        table[problem.key(spec)] = {"params": dict(params), "ms": ms, **info}
        _write(path, table)
        _checked.pop(path, None)


def choose(spec: KernelSpec, problem: Problem, overrides: Mapping[str, int]) -> dict[str, int]:
    """The parameters ``matmul`` runs: explicit overrides win; otherwise, for an autotuned
    spec, the remembered choice for this problem; otherwise the spec's defaults."""
    if overrides or not spec.autotune:
        return spec.resolve(overrides)
    return lookup(spec, problem) or spec.resolve()
