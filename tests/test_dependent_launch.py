"""Programmatic dependent launches (sm_90): a kernel that allows it may start while the kernel before
it in the stream finishes, and must still see that kernel's output and leave its input alone.

Each test runs a chain of GEMMs on two ping-pong buffers: call i reads buffer i % 2 (the output of
call i - 1) and writes buffer (i + 1) % 2 (the input of call i - 1). A kernel that read A before
the wait would see the previous output half-written; one that wrote C before the wait would
overwrite the previous call's input while it is read. The chain must give the same bits as the
same calls with dependent launches turned off and the stream synchronised after every call,
eagerly and as a captured CUDA graph. Fresh random data, NaN-poisoned buffers."""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import plan
from warpgemm.runtime import dependent_launch_enabled, set_dependent_launch

pytestmark = pytest.mark.gpu


def _on_hopper() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


needs_hopper = pytest.mark.skipif("not _on_hopper()", reason="dependent launches need compute capability 9.0")

# (kernel, M, K = N, params): the decode kernels (with and without a K split across blocks, whose
# counters the next launch reuses), the Hopper ladder's persistent kernels with a split last wave.
CASES = [
    ("decode/01_swap_ab_splitk", 4, 1536, {}),
    ("decode/01_swap_ab_splitk", 16, 1024, {"KSPLIT": 4}),
    ("decode/02_swap_ab_wgmma", 48, 2048, {"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0}),
    ("hopper/04_persistent", 384, 1024, {}),
    ("hopper/06_tma_store_epilogue", 640, 1152, {}),
    ("hopper/06_tma_store_epilogue", 512, 1024, {"CLUSTER": 2}),
]
CALLS = 12


@pytest.fixture
def dependent_on():
    was = dependent_launch_enabled()
    yield
    set_dependent_launch(was)
    plan.clear()


def _chain(kernel: str, x0: torch.Tensor, weights: list[torch.Tensor], params: dict, sync_each: bool,
           bufs: list[torch.Tensor]) -> None:
    bufs[0].copy_(x0)
    for i, w in enumerate(weights):
        warpgemm.matmul(bufs[i % 2], w.t(), kernel=kernel, out=bufs[(i + 1) % 2], **params)
        if sync_each:
            torch.cuda.synchronize()


def _serialised(kernel: str, x0: torch.Tensor, weights: list[torch.Tensor], params: dict,
                bufs: list[torch.Tensor]) -> torch.Tensor:
    """The chain's result with dependent launches off and the stream synchronised after each call;
    then dependent launches on, with no plan made without them."""
    set_dependent_launch(False)
    plan.clear()
    _chain(kernel, x0, weights, params, True, bufs)
    expected = bufs[CALLS % 2].clone()
    set_dependent_launch(True)
    plan.clear()
    return expected


def _setup(m: int, k: int):
    x0 = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    # Orthogonal-ish weights keep the values from growing or vanishing along the chain.
    weights = [(torch.randn(k, k, device="cuda") / k ** 0.5).to(torch.bfloat16) for _ in range(CALLS)]
    bufs = [torch.full((m, k), float("nan"), device="cuda", dtype=torch.bfloat16) for _ in range(2)]
    return x0, weights, bufs


@needs_hopper
@pytest.mark.parametrize("kernel,m,k,params", CASES, ids=[f"{c[0]}-{c[1]}x{c[2]}-{c[3]}" for c in CASES])
def test_a_chain_of_dependent_launches_gives_the_bits_of_serialised_ones(dependent_on, kernel, m, k, params):
    x0, weights, bufs = _setup(m, k)
    expected = _serialised(kernel, x0, weights, params, bufs)
    assert torch.isfinite(expected).all()
    ref = x0.double()
    for w in weights:
        ref = (ref @ w.double().t()).to(torch.bfloat16).double()
    assert float((expected.double() - ref).norm() / ref.norm()) < 0.05

    for b in bufs:
        b.fill_(float("nan"))
    _chain(kernel, x0, weights, params, False, bufs)  # eager, first calls then planned ones
    torch.cuda.synchronize()
    assert torch.equal(bufs[CALLS % 2], expected)
    for b in bufs:
        b.fill_(float("nan"))
    _chain(kernel, x0, weights, params, False, bufs)
    torch.cuda.synchronize()
    assert torch.equal(bufs[CALLS % 2], expected)


@needs_hopper
@pytest.mark.parametrize("kernel,m,k,params", CASES[::2], ids=[f"{c[0]}-{c[1]}x{c[2]}" for c in CASES[::2]])
def test_a_captured_chain_of_dependent_launches_replays_the_same_bits(dependent_on, kernel, m, k, params):
    x0, weights, bufs = _setup(m, k)
    expected = _serialised(kernel, x0, weights, params, bufs)
    _chain(kernel, x0, weights, params, False, bufs)  # compile and plan before the capture
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.stream(stream), torch.cuda.graph(graph, stream=stream):
        _chain(kernel, x0, weights, params, False, bufs)
    torch.cuda.current_stream().wait_stream(stream)
    for _ in range(3):
        for b in bufs:
            b.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(bufs[CALLS % 2], expected)
