"""Shared test set-up: GPU tests skip, with the reason, where there is no CUDA device, and
tests marked ``measurement`` have the GPU to themselves while they run."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

import pytest


def _has_gpu() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


HAS_GPU = _has_gpu()


def pytest_collection_modifyitems(config, items):
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason="needs a CUDA device; none is available here")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


GPU_TURNS = Path(tempfile.gettempdir()) / f"warpgemm-gpu-tests-{os.getuid() if hasattr(os, 'getuid') else 0}"
"""Where the lock files of :func:`gpu_turn` live: one pair for every test process of this user,
so that the workers of a parallel run (``pytest -n N``) and separate runs side by side share them."""


@contextlib.contextmanager
def gpu_turn(exclusive: bool, where: Path = GPU_TURNS) -> Iterator[None]:
    """Hold a turn on the GPU: shared with other tests' turns, or ``exclusive`` (no other test
    process runs a GPU test meanwhile). A measurement reads the GPU's time or latencies, and
    another process's kernels, time-sliced in, stretch them: the L2-halves probe, run in a
    14-worker suite, found all of ten runs disturbed. An exclusive request waits for the shared
    turns in progress to end and lets no new one start (it holds the gate while it waits), so a
    steady stream of short tests cannot keep it out. Without ``fcntl`` (not POSIX) the turn is
    not held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        yield
        return
    where.mkdir(parents=True, exist_ok=True)
    with open(where / "gate", "a+") as gate, open(where / "turn", "a+") as turn:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(turn, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        finally:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(turn, fcntl.LOCK_UN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Every GPU test runs (set-up, call and tear-down) in a turn on the GPU; a ``measurement``
    test in an exclusive one."""
    if not HAS_GPU or "gpu" not in item.keywords:
        yield
        return
    with gpu_turn(exclusive="measurement" in item.keywords):
        yield


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty kernel cache for this test, and no in-process memo of earlier compiles."""
    from warpgemm.runtime import compiler

    monkeypatch.setenv("WARPGEMM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(compiler, "_loaded", {})
    return tmp_path / "cache"


def load_script(name: str):
    """``scripts/<name>.py`` as a module, for the tests of the repository's scripts."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extra_installed(extra: str) -> bool:
    """Whether the optional install extra ``extra`` (``cute``: CuTe's headers) is installed."""
    from warpgemm.errors import MissingExtraError
    from warpgemm.runtime import headers

    assert extra == "cute", f"no check for the {extra!r} extra"
    try:
        headers.cute_include_paths()
    except MissingExtraError:
        return False
    return True


def with_extra(kernel: str, *values):
    """``pytest.param(*values)`` for a case of ``kernel``, skipped (with the install command as
    the reason) when the kernel needs an optional extra that is not installed."""
    from warpgemm import catalog
    from warpgemm.runtime import headers

    extra = catalog.get(kernel).extra
    marks = ()
    if extra is not None and not extra_installed(extra):
        marks = (pytest.mark.skip(reason=f"{kernel} needs the {extra} extra: {headers.INSTALL}"),)
    return pytest.param(*values, marks=marks)


def replays_match_linear(layer, static, tol: float = 1e-2, replays: int = 2) -> None:
    """Capture ``layer(static)`` in a CUDA graph on the current device, after two calls on a side
    stream (the first plans, the second runs the kept plan), then replay it on fresh contents of
    ``static`` into a NaN-poisoned output: each replay must compute F.linear in float64."""
    import torch

    with torch.no_grad():
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(2):
                layer(static)
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = layer(static)
        for _ in range(replays):
            static.copy_(torch.randn_like(static))
            out.fill_(float("nan"))
            graph.replay()
            torch.cuda.synchronize()
            ref = torch.nn.functional.linear(static.double(), layer.weight.double(), layer.bias.double())
            assert not out.isnan().any()
            assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < tol
