"""Two GPUs in one process: every entry point computes on the device its tensors are on, whichever
device is current, and leaves the current device as it found it.

A model spread over two GPUs (``device_map="auto"``, pipeline stages) calls warpgemm with tensors
on a device that is not the current one; these tests specify that this works, against float64,
with NaN-poisoned outputs, for each family of kernels, for the plan cache, for nn.Linear, CUDA
graphs, torch.compile and one thread per device. They need two CUDA devices and skip elsewhere.
"""

from __future__ import annotations

import threading

import pytest
import torch

import warpgemm
from warpgemm import int4
from warpgemm import nn as wnn

from conftest import replays_match_linear

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                       reason="needs two CUDA devices"),
]

SECOND = torch.device("cuda", 1)


@pytest.fixture(autouse=True)
def first_device_current():
    """Each test starts with device 0 current and checks that it still is at the end."""
    torch.cuda.set_device(0)
    wnn.fallbacks.clear()
    yield
    assert torch.cuda.current_device() == 0, "a call left another device current"


def _rel(got: torch.Tensor, ref: torch.Tensor) -> float:
    ref = ref.to(got.device)
    return float(torch.linalg.vector_norm(got.double() - ref) / torch.linalg.vector_norm(ref))


def _tol(dtype: torch.dtype) -> float:
    return 2e-2 if dtype in (torch.float16, torch.bfloat16) else 5e-3


# rows x N x K, chosen to reach each path on Hopper: the decode kernels (1 and 16 rows), the
# swapped 65-192-row kernel, rung 06 (single blocks and clusters, a split last wave) and ragged
# edges everywhere.
SHAPES = [(1, 4096, 4096), (16, 1000, 2048), (130, 1031, 517), (1000, 1000, 1000), (2048, 4093, 1024)]


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_matmul_on_the_second_device_while_the_first_is_current(m, n, k, dtype):
    a = torch.randn(m, k, device=SECOND, dtype=dtype)
    w = torch.randn(n, k, device=SECOND, dtype=dtype)
    bias = torch.randn(n, device=SECOND, dtype=dtype)
    out = torch.full((m, n), float("nan"), device=SECOND, dtype=dtype)
    got = warpgemm.matmul(a, w.t(), bias=bias, out=out)
    assert got is out and got.device == SECOND
    ref = a.double() @ w.double().t() + bias.double()
    assert not out.isnan().any()
    assert _rel(out, ref) < _tol(dtype)


@pytest.mark.parametrize("a_col,b_col", [(False, False), (True, True), (True, False)])
def test_every_layout_on_the_second_device(a_col, b_col):
    m, n, k = 515, 777, 641
    a = torch.randn(k, m, device=SECOND, dtype=torch.bfloat16).t() if a_col else \
        torch.randn(m, k, device=SECOND, dtype=torch.bfloat16)
    b = torch.randn(n, k, device=SECOND, dtype=torch.bfloat16).t() if b_col else \
        torch.randn(k, n, device=SECOND, dtype=torch.bfloat16)
    got = warpgemm.matmul(a, b)
    assert got.device == SECOND and not got.isnan().any()
    assert _rel(got, a.double() @ b.double()) < 2e-2


@pytest.mark.parametrize("m,n,k", [(7, 300, 129), (300, 257, 1000)])
def test_fp32_on_the_second_device(m, n, k):
    a = torch.randn(m, k, device=SECOND)
    b = torch.randn(k, n, device=SECOND)
    got = warpgemm.matmul(a, b)
    assert got.device == SECOND
    assert _rel(got, a.double() @ b.double()) < _tol(torch.float32)


@pytest.mark.parametrize("m", [1, 16, 200])
def test_scaled_int8_matmul_on_the_second_device(m):
    if torch.cuda.get_device_capability(1) < (8, 0):
        pytest.skip("the s8 kernels need compute capability 8.0")
    n, k = 1000, 1024
    a = torch.randint(-128, 128, (m, k), dtype=torch.int8, device=SECOND)
    w = torch.randint(-128, 128, (n, k), dtype=torch.int8, device=SECOND)
    sa = torch.rand(m, device=SECOND) * 1e-2 + 1e-4
    sb = torch.rand(n, device=SECOND) * 1e-2 + 1e-4
    out = torch.full((m, n), float("nan"), device=SECOND, dtype=torch.bfloat16)
    got = warpgemm.scaled_matmul(a, w.t(), sa, sb, out_dtype=torch.bfloat16, out=out)
    assert got is out and not out.isnan().any()
    ref = (a.double() @ w.double().t()) * sa.double()[:, None] * sb.double()[None, :]
    assert _rel(out, ref) < 1e-2


@pytest.mark.parametrize("m", [1, 64, 300])
def test_int4_matmul_on_the_second_device_is_exact(m):
    n, k = 520, 1001
    x = torch.randint(-8, 8, (m, k), dtype=torch.int8)
    w = torch.randint(-8, 8, (n, k), dtype=torch.int8)
    a = int4.Packed(int4.pack(x).to(SECOND), k)
    b = int4.Packed(int4.pack(w).to(SECOND), k)
    out = torch.full((m, n), -(2**31) + 12345, dtype=torch.int32, device=SECOND)
    got = warpgemm.matmul(a, b.t(), out=out)
    assert got is out and got.device == SECOND
    assert torch.equal(got.cpu().long(), x.long() @ w.long().t())


def test_one_problem_on_each_device_in_turn_keeps_a_plan_for_each():
    """The same shapes on device 0, then device 1, then both again: each call runs on its own
    operands' device (a plan made for one device is never launched on the other)."""
    w = {d: torch.randn(1024, 512, device=f"cuda:{d}", dtype=torch.bfloat16) for d in (0, 1)}
    for d in (0, 1, 0, 1, 1, 0):
        for m in (8, 512):
            x = torch.randn(m, 512, device=f"cuda:{d}", dtype=torch.bfloat16)
            got = warpgemm.matmul(x, w[d].t())
            assert got.device == torch.device("cuda", d)
            assert _rel(got, x.double() @ w[d].double().t()) < 2e-2


class _TwoStages(torch.nn.Module):
    """A model split in two, a stage a GPU, as a pipeline or ``device_map="auto"`` splits it."""

    def __init__(self) -> None:
        super().__init__()
        self.first = torch.nn.Linear(512, 1024, device="cuda:0", dtype=torch.bfloat16)
        self.second = torch.nn.Linear(1024, 256, device="cuda:1", dtype=torch.bfloat16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(torch.nn.functional.gelu(self.first(x)).to("cuda:1"))


@pytest.mark.parametrize("tokens", [1, 40, 700])
def test_a_patched_model_split_over_two_devices_matches_float64(tokens):
    model = _TwoStages()
    x = torch.randn(2, tokens, 512, device="cuda:0", dtype=torch.bfloat16)
    with torch.no_grad():
        want = torch.nn.functional.linear(
            torch.nn.functional.gelu(torch.nn.functional.linear(x.double(), model.first.weight.double(),
                                                                model.first.bias.double())).to("cuda:1"),
            model.second.weight.double(), model.second.bias.double())
        warpgemm.patch(model)
        for _ in range(3):  # the first call plans; later ones run the plan
            got = model(x)
            assert got.device == SECOND
            assert _rel(got, want) < 3e-2
    assert not wnn.fallbacks


def test_a_linear_fed_from_the_other_device_falls_back_and_says_why():
    """Input and weight on different devices is not warpgemm's to serve: it hands the call to
    F.linear, which raises torch's own error, and the fallback is counted under its reason."""
    layer = warpgemm.patch(torch.nn.Linear(64, 32, device="cuda:0", dtype=torch.bfloat16))
    x = torch.randn(4, 64, device=SECOND, dtype=torch.bfloat16)
    with pytest.raises(RuntimeError, match="device"):
        layer(x)
    assert wnn.fallbacks == {"input and weight on different devices": 1}


def test_a_linear_on_the_second_device_captured_in_a_cuda_graph_replays_there():
    layer = warpgemm.patch(torch.nn.Linear(2048, 1000, device=SECOND, dtype=torch.bfloat16))
    static = torch.randn(3, 2048, device=SECOND, dtype=torch.bfloat16)
    with torch.cuda.device(SECOND):
        replays_match_linear(layer, static, tol=2e-2)


def test_torch_compile_on_the_second_device():
    import torch._dynamo

    torch._dynamo.reset()
    w = torch.randn(256, 128, device=SECOND, dtype=torch.bfloat16)

    @torch.compile(fullgraph=True, dynamic=True)
    def f(x):
        return torch.relu(warpgemm.matmul(x, w.t()))

    for m in (3, 200):
        x = torch.randn(m, 128, device=SECOND, dtype=torch.bfloat16)
        got = f(x)
        assert got.device == SECOND
        assert _rel(got, torch.relu(x.double() @ w.double().t())) < 2e-2


def test_one_thread_a_device_at_once():
    """Two threads, each with its own device current, call warpgemm at the same time."""
    errors: list[str] = []

    def work(d: int) -> None:
        try:
            torch.cuda.set_device(d)
            w = torch.randn(1024, 512, device=f"cuda:{d}", dtype=torch.bfloat16)
            for i in range(30):
                x = torch.randn(8 + 97 * (i % 6), 512, device=f"cuda:{d}", dtype=torch.bfloat16)
                got = warpgemm.matmul(x, w.t())
                if got.device != torch.device("cuda", d) or _rel(got, x.double() @ w.double().t()) > 2e-2:
                    errors.append(f"device {d}, call {i}: wrong result")
        except Exception as e:  # reported below, with the thread's device
            errors.append(f"device {d}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=work, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
