"""torch.ops.warpgemm.mm: the registered op under torch.compile, CUDA graphs and autograd."""

from __future__ import annotations

import threading
from typing import Any, Callable

import pytest
import torch

import warpgemm
import warpgemm.api  # noqa: F401  (registers torch.ops.warpgemm)
from warpgemm import plan

from conftest import HAS_GPU


def _rel(x: torch.Tensor, ref: torch.Tensor) -> float:
    return float(torch.linalg.vector_norm(x.double() - ref.double()) / torch.linalg.vector_norm(ref.double()))


def test_the_op_is_registered_with_its_schema():
    import warpgemm.api  # noqa: F401  (registers the op)

    schema = str(torch.ops.warpgemm.mm.default._schema)
    assert schema.startswith("warpgemm::mm(Tensor a, Tensor b, Tensor? bias=None, ScalarType? out_dtype=None, str kernel_name")


def test_the_fake_implementation_gives_shape_and_dtype_without_a_device():
    from torch._subclasses.fake_tensor import FakeTensorMode

    import warpgemm.api  # noqa: F401

    with FakeTensorMode():
        a, b = torch.empty(7, 5, dtype=torch.bfloat16), torch.empty(5, 3, dtype=torch.bfloat16)
        c = torch.ops.warpgemm.mm(a, b)
        assert c.shape == (7, 3) and c.dtype == torch.bfloat16
        assert torch.ops.warpgemm.mm(a, b, None, torch.float32).dtype == torch.float32
        with pytest.raises(ValueError, match="inner dimensions differ"):
            torch.ops.warpgemm.mm(a, torch.empty(4, 3, dtype=torch.bfloat16))


class _cuda_autocast:
    """CUDA autocast switched on directly, for fake CUDA tensors: ``torch.autocast("cuda")`` turns
    itself off where torch sees no CUDA device."""

    def __init__(self, dtype: torch.dtype):
        self.dtype = dtype

    def __enter__(self):
        self.was = torch.is_autocast_enabled("cuda"), torch.get_autocast_dtype("cuda")
        torch.set_autocast_enabled("cuda", True)
        torch.set_autocast_dtype("cuda", self.dtype)

    def __exit__(self, *exc):
        torch.set_autocast_enabled("cuda", self.was[0])
        torch.set_autocast_dtype("cuda", self.was[1])


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_under_autocast_the_op_called_directly_computes_in_the_autocast_dtype_as_aten_mm(dtype):
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a, b = torch.empty(7, 5, device="cuda"), torch.empty(5, 3, device="cuda")
        bias = torch.empty(3, device="cuda")
        with _cuda_autocast(dtype):
            assert torch.mm(a, b).dtype == dtype
            assert torch.ops.warpgemm.mm(a, b, bias).dtype == dtype
            # an explicit output dtype is kept; the operands are still cast
            assert torch.ops.warpgemm.mm(a, b, None, torch.float32).dtype == torch.float32
            # float64 is not autocast, as in torch: warpgemm's own error names it
            with pytest.raises(TypeError, match="float64 is not supported"):
                torch.ops.warpgemm.mm(a.double(), b.double())
        assert torch.ops.warpgemm.mm(a, b).dtype == torch.float32  # outside the region: as given


def test_under_autocast_the_ops_path_casts_once_a_call_without_out_and_not_one_with_it(monkeypatch):
    # warpgemm.matmul's path through the op (gradients, torch.compile): the op sees the operands
    # in the autocast dtype without out=, and as they are with it, as torch.matmul(out=) is not
    # autocast. matmul casts them, and the op then runs with autocast off, so that its autocast
    # kernel does not check them again: one cast a call. A dispatch mode below autocast records
    # the dtypes the op receives.
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.utils._python_dispatch import TorchDispatchMode

    from warpgemm import api, autocast

    class Seen(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.dtypes = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if "warpgemm" in str(func):
                self.dtypes.append((args[0].dtype, args[1].dtype))
            return func(*args, **(kwargs or {}))

    class Out:  # stands for the caller's out: takes the result
        def copy_(self, c):
            self.c = c
            return self

    casts = []
    cast = autocast.cast
    monkeypatch.setattr(autocast, "cast", lambda *t: casts.append(len(t)) or cast(*t))
    with FakeTensorMode():
        a, b = torch.empty(7, 5, device="cuda"), torch.empty(5, 3, device="cuda")
        with _cuda_autocast(torch.bfloat16), Seen() as seen:
            with monkeypatch.context() as traced:  # as under torch.compile: through the op
                traced.setattr(torch.compiler, "is_compiling", lambda: True)
                c = api.matmul(a, b)
            assert casts == [3] and seen.dtypes == [(torch.bfloat16, torch.bfloat16)]
            out = api._via_op(a, b, None, None, "auto", {}, Out())
            assert casts == [3] and seen.dtypes[1:] == [(torch.float32, torch.float32)]
    assert c.dtype == torch.bfloat16 and out.c.dtype == torch.float32


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a CUDA device")
def test_the_op_without_a_gpu_raises_warpgemms_error():
    from warpgemm.errors import NoDeviceError

    with pytest.raises(NoDeviceError):
        torch.ops.warpgemm.mm(torch.ones(2, 3), torch.ones(3, 4))


gpu = pytest.mark.gpu


@gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_opcheck(dtype):
    a = torch.randn(33, 64, device="cuda", dtype=dtype, requires_grad=True)
    b = torch.randn(64, 48, device="cuda", dtype=dtype, requires_grad=True)
    bias = torch.randn(48, device="cuda", dtype=dtype, requires_grad=True)
    torch.library.opcheck(torch.ops.warpgemm.mm.default, (a, b, bias, None, "auto", ""))
    torch.library.opcheck(torch.ops.warpgemm.mm.default, (a, b.t().contiguous().t(), None, None, "auto", ""))


@gpu
def test_compiled_fullgraph_with_dynamic_m_and_no_recompile():
    import torch._dynamo

    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()  # process-wide: other tests' compiles count there too
    w = torch.randn(256, 128, device="cuda", dtype=torch.bfloat16)

    @torch.compile(fullgraph=True, dynamic=True)
    def f(x):
        return torch.relu(warpgemm.matmul(x, w.t()))

    for m in (3, 17, 64, 200):
        x = torch.randn(m, 128, device="cuda", dtype=torch.bfloat16)
        assert _rel(f(x), torch.relu(x.double() @ w.double().t())) < 1e-2
    counters = torch._dynamo.utils.counters
    assert counters["stats"]["unique_graphs"] <= 1


@gpu
# on an H100, (1, 2048, 2048) runs the row sweep (decode/03), (4, 8192, 2048) the sweep on the
# tensor cores (decode/04)
@pytest.mark.parametrize("m,n,k", [(8, 512, 256), (1, 2048, 2048), (4, 8192, 2048)])
def test_reduce_overhead_mode_replays_cuda_graphs(m, n, k):
    import torch._dynamo

    torch._dynamo.reset()
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)

    @torch.compile(mode="reduce-overhead", fullgraph=True)
    def f(x):
        return warpgemm.matmul(x, w.t())

    for _ in range(4):
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        y = f(x).clone()
        assert _rel(y, x.double() @ w.double().t()) < 1e-2


@gpu
@pytest.mark.parametrize("shape", [(64, 96, 80), (300, 257, 129)])
def test_gradients_match_torch_in_fp32(shape):
    m, k, n = shape
    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:
        a = torch.randn(m, k, device="cuda", requires_grad=True)
        b = torch.randn(k, n, device="cuda", requires_grad=True)
        bias = torch.randn(n, device="cuda", requires_grad=True)
        g = torch.randn(m, n, device="cuda")
        warpgemm.matmul(a, b, bias=bias).backward(g)
        a2, b2, bias2 = (t.detach().double().requires_grad_() for t in (a, b, bias))
        (a2 @ b2 + bias2).backward(g.double())
        for x, ref in ((a.grad, a2.grad), (b.grad, b2.grad), (bias.grad, bias2.grad)):
            assert _rel(x, ref) < 1e-5
    finally:
        torch.set_float32_matmul_precision(old)


@gpu
def test_gradients_under_torch_compile():
    import torch._dynamo

    torch._dynamo.reset()
    a = torch.randn(40, 64, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    b = torch.randn(64, 24, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    f = torch.compile(lambda a, b: warpgemm.matmul(a, b).float().square().sum(), fullgraph=True)
    f(a, b).backward()
    a2, b2 = (t.detach().double().requires_grad_() for t in (a, b))
    (a2 @ b2).square().sum().backward()
    assert _rel(a.grad, a2.grad) < 2e-2 and _rel(b.grad, b2.grad) < 2e-2


@gpu
def test_under_autocast_the_op_called_directly_matches_matmul_and_trains_fp32_leaves():
    a = torch.randn(300, 520, device="cuda", requires_grad=True)
    b = torch.randn(520, 130, device="cuda", requires_grad=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        got = torch.ops.warpgemm.mm(a, b)
        want = warpgemm.matmul(a.detach(), b.detach())
    assert got.dtype == want.dtype == torch.bfloat16
    assert torch.equal(got, want)
    got.float().sum().backward()
    assert a.grad.dtype == b.grad.dtype == torch.float32
    ones = torch.ones(300, 130, device="cuda", dtype=torch.float64)
    ref_a = ones @ b.detach().to(torch.bfloat16).double().t()
    assert _rel(a.grad, ref_a) < 1e-2


@gpu
def test_under_autocast_the_op_called_directly_compiles_and_casts_as_in_eager():
    import torch._dynamo

    torch._dynamo.reset()
    a, b = torch.randn(96, 200, device="cuda"), torch.randn(200, 72, device="cuda")
    f = torch.compile(lambda a, b: torch.ops.warpgemm.mm(a, b), fullgraph=True)
    with torch.autocast("cuda", dtype=torch.float16):
        got, want = f(a, b), torch.ops.warpgemm.mm(a, b)
    assert got.dtype == want.dtype == torch.float16
    assert torch.equal(got, want)


@gpu
def test_under_autocast_a_call_with_out_and_gradients_is_not_autocast():
    """As in torch: out= keeps the operands' dtype, also on the op's path (taken for gradients)."""
    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:
        a = torch.randn(64, 96, device="cuda", requires_grad=True)
        b = torch.randn(96, 80, device="cuda")
        out = torch.full((64, 80), float("nan"), device="cuda")
        with torch.autocast("cuda", dtype=torch.bfloat16):
            warpgemm.matmul(a, b, out=out)
        assert _rel(out, a.detach().double() @ b.double()) < 1e-5  # fp32, not bf16 (about 3e-3)
    finally:
        torch.set_float32_matmul_precision(old)


@gpu
def test_a_repeated_call_launches_from_its_plan():
    plan.clear()
    a = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    warpgemm.matmul(a, b)
    assert plan.count() == 1
    for _ in range(3):
        a.copy_(torch.randn_like(a))
        assert _rel(warpgemm.matmul(a, b), a.double() @ b.double()) < 1e-2
    assert plan.count() == 1
    # Misaligned operands of the same problem leave the plan for the copying path.
    buf = torch.randn(64 * 64 + 1, device="cuda", dtype=torch.bfloat16)
    a_odd = buf[1:].view(64, 64)
    assert _rel(warpgemm.matmul(a_odd, b), a_odd.double() @ b.double()) < 1e-2
    # Errors are the same on the planned path.
    with pytest.raises(ValueError, match="inner dimensions differ"):
        warpgemm.matmul(a, torch.randn(65, 64, device="cuda", dtype=torch.bfloat16))


def on_four_streams(step: Callable[[int], tuple[Any, Any]], steps: int) -> list[str]:
    """Run ``step(i)`` ``steps`` times in each of four threads, thread i on its own stream;
    ``step`` returns (result, float64 reference). The failures, one line each."""
    errors: list[str] = []
    # The caller made its inputs on the default stream, which the four streams do not wait for:
    # they must be written before any thread reads them.
    torch.cuda.synchronize()

    def work(i: int) -> None:
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            for n in range(steps):
                y, ref = step(i)
                err = _rel(y, ref)
                if not err < 1e-2:
                    errors.append(f"thread {i} step {n}: {err}")
        stream.synchronize()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@gpu
def test_four_threads_on_four_streams_get_correct_results():
    w = torch.randn(1024, 512, device="cuda", dtype=torch.bfloat16)

    def step(i: int) -> tuple[Any, Any]:
        x = torch.randn(8 * (i + 1), 512, device="cuda", dtype=torch.bfloat16)
        return warpgemm.matmul(x, w.t()), x.double() @ w.double().t()

    assert not on_four_streams(step, 20)


@gpu
@pytest.mark.parametrize("m", [8, 512])
def test_four_threads_sharing_one_plan_get_their_own_results(m):
    """One problem, so one plan, launched by four threads at once on their own operands: each
    thread's addresses go to its own launch (M = 8 takes a plan of address arguments, M = 512 on
    Hopper one of tensor maps)."""
    w = torch.randn(1024, 512, device="cuda", dtype=torch.bfloat16)

    def step(i: int) -> tuple[Any, Any]:
        x = torch.randn(m, 512, device="cuda", dtype=torch.bfloat16)
        return warpgemm.matmul(x, w.t()), x.double() @ w.double().t()

    assert not on_four_streams(step, 50)
