"""The tuning table: the parameters the tuner found fastest, per problem, per device.

The launch path reads it (:func:`choose`), so this module is import-light: it imports neither
the API nor the search, and torch only to name the device. ``warpgemm tune`` (the offline search,
:mod:`warpgemm.tuning.search`) fills it. ``warpgemm.matmul`` then runs a kernel whose spec says
``autotune=True`` with the remembered choice for that exact problem (shape, dtypes, layouts),
and with the dispatch rules' or the spec's parameters where nothing was tuned.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ..runtime.cache import cache_root

if TYPE_CHECKING:
    from ..catalog import KernelSpec

_lock = threading.RLock()  # re-entered: remember() holds it while _read() takes it
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

    def key(self, spec: "KernelSpec") -> str:
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


def lookup(spec: "KernelSpec", problem: Problem) -> dict[str, int] | None:
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


def remember(spec: "KernelSpec", problem: Problem, params: Mapping[str, int], ms: float,
             **info: Any) -> None:
    """Record ``params`` as the choice for ``problem`` in this device's table, keeping the
    other entries (the file is rewritten atomically)."""
    path = _table_path_cached()
    with _lock:
        table = dict(_read(path, fresh=True))
        table[problem.key(spec)] = {"params": dict(params), "ms": ms, **info}
        _write(path, table)
        _checked.pop(path, None)


def choose(spec: "KernelSpec", problem: Problem, overrides: Mapping[str, int],
           defaults: Mapping[str, int] | None = None) -> tuple[dict[str, int], Mapping[str, int]]:
    """The parameters ``matmul`` runs, and those of them the problem's shape must not change
    (``KernelSpec.fill_shape_params``): explicit overrides win, and are kept; otherwise, for an
    autotuned spec, the remembered choice for this problem, all of it kept, since it was timed at
    this very shape; otherwise ``defaults`` (the dispatch rule's parameters, kept) over the spec's
    defaults."""
    if overrides:
        return spec.resolve(overrides), overrides
    if spec.autotune:
        hit = lookup(spec, problem)
        if hit is not None:
            return hit, dict(hit)
    return spec.resolve(defaults), defaults or {}
