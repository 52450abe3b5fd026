"""Shared test set-up: GPU tests skip, with the reason, where there is no CUDA device."""

from __future__ import annotations

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
