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
import statistics
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from . import catalog
from .catalog import KernelSpec
from .errors import CompileError
from .runtime.cache import cache_root

_lock = threading.Lock()
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


def _read(path: Path) -> dict[str, Any]:
    try:
        mtime = path.stat().st_mtime
    except OSError:
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


def lookup(spec: KernelSpec, problem: Problem) -> dict[str, int] | None:
    """The remembered parameters for ``problem``, or None."""
    entry = _read(table_path()).get(problem.key(spec))
    if not entry:
        return None
    params = entry.get("params")
    try:
        return spec.resolve(params)
    except (ValueError, TypeError):
        return None  # the spec changed since; ignore the stale choice


def candidates(spec: KernelSpec) -> list[dict[str, int]]:
    """Every combination of the spec's tuning space that its ``valid`` predicate accepts."""
    names = list(spec.tuning)
    out = []
    for values in itertools.product(*(spec.tuning[n] for n in names)):
        p = spec.resolve(dict(zip(names, values)))
        if spec.valid is None or spec.valid(p):
            out.append(p)
    return out


@dataclass
class TuneResult:
    params: dict[str, int]
    ms: float
    tried: list[tuple[dict[str, int], float | None, str]]
    """Each candidate with its median time (None if it could not run) and why not."""


def tune(name: str, m: int, n: int, k: int, *, dtype: Any = None, out_dtype: Any = None,
         a_layout: str = "row", b_layout: str = "row", runs: int = 10,
         progress: bool = False, save: bool = True) -> TuneResult:
    """Time every candidate of kernel ``name`` on an (m, n, k) problem on this GPU, remember the
    fastest (when ``save``), and return it with the whole trial list."""
    import torch

    from .api import matmul
    from .runtime.device import require_device

    require_device("tuning")
    spec = catalog.get(name)
    dtype = dtype or getattr(torch, spec.in_dtypes[0])
    out_dtype = out_dtype or dtype
    problem = Problem(m, n, k, str(dtype).removeprefix("torch."), str(out_dtype).removeprefix("torch."),
                      a_layout, b_layout)

    def operand(rows: int, cols: int, layout: str) -> torch.Tensor:
        t = torch.randn((rows, cols) if layout == "row" else (cols, rows), device="cuda").to(dtype)
        return t if layout == "row" else t.t()

    a, b = operand(m, k, a_layout), operand(k, n, b_layout)
    out = torch.empty(m, n, dtype=out_dtype, device="cuda")
    tried: list[tuple[dict[str, int], float | None, str]] = []
    cands = candidates(spec)
    if progress:
        from tqdm import tqdm

        cands = tqdm(cands, desc=f"tune {name} {m}x{n}x{k}", leave=False)
    for p in cands:
        try:
            for _ in range(2):
                matmul(a, b, kernel=name, out=out, **p)
            torch.cuda.synchronize()
        except (CompileError, RuntimeError, ValueError) as exc:
            tried.append((p, None, str(exc).splitlines()[0][:200]))
            continue
        times = []
        for _ in range(runs):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            matmul(a, b, kernel=name, out=out, **p)
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e))
        tried.append((p, statistics.median(times), ""))
    timed = [(p, t) for p, t, _ in tried if t is not None]
    if not timed:
        raise RuntimeError(f"tune {name}: no candidate ran on this device for {m}x{n}x{k}")
    best, best_ms = min(timed, key=lambda pt: pt[1])
    if save:
        path = table_path()
        with _lock:
            table = dict(_read(path))
            table[problem.key(spec)] = {"params": best, "ms": best_ms,
                                        "candidates": len(tried), "runs": runs}
            _write(path, table)
    return TuneResult(best, best_ms, tried)


def choose(spec: KernelSpec, problem: Problem, overrides: Mapping[str, int]) -> dict[str, int]:
    """The parameters ``matmul`` runs: explicit overrides win; otherwise, for an autotuned
    spec, the remembered choice for this problem; otherwise the spec's defaults."""
    if overrides or not spec.autotune:
        return spec.resolve(overrides)
    return lookup(spec, problem) or spec.resolve()
