"""warpgemm.nn: the nn.Linear drop-in, patch / unpatch, and the counted fallback."""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import nn as wnn

from conftest import HAS_GPU, replays_match_linear


def _model() -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 8, bias=False))


def test_patch_swaps_every_linear_in_place_and_keeps_the_state_dict():
    model = _model()
    before = {k: v.clone() for k, v in model.state_dict().items()}
    params = [id(p) for p in model.parameters()]
    assert warpgemm.patch(model) is model
    assert [type(m) for m in model] == [wnn.Linear, torch.nn.GELU, wnn.Linear]
    assert [id(p) for p in model.parameters()] == params
    assert model.state_dict().keys() == before.keys()
    assert all(torch.equal(model.state_dict()[k], v) for k, v in before.items())
    warpgemm.unpatch(model)
    assert [type(m) for m in model] == [torch.nn.Linear, torch.nn.GELU, torch.nn.Linear]


def test_subclasses_of_linear_with_their_own_forward_are_left_alone():
    class Scaled(torch.nn.Linear):
        def forward(self, x):
            return 2 * super().forward(x)

    model = torch.nn.Sequential(Scaled(4, 4))
    warpgemm.patch(model)
    assert type(model[0]) is Scaled


def test_what_warpgemm_does_not_serve_falls_back_and_is_counted():
    wnn.fallbacks.clear()
    model = warpgemm.patch(_model())
    x = torch.randn(3, 5, 16)  # on the CPU
    assert torch.allclose(model(x), warpgemm.unpatch(model)(x))
    assert wnn.fallbacks["not on a CUDA device"] == 2
    layer = wnn.Linear(4, 4).double()
    layer(torch.randn(2, 4, dtype=torch.float64))
    assert wnn.fallbacks["not on a CUDA device"] == 3


def test_bad_inputs_get_the_errors_an_unpatched_linear_gives():
    for bad in ([1.0, 2.0, 3.0, 4.0], torch.randn(3, 5)):
        with pytest.raises((TypeError, RuntimeError)) as plain:
            torch.nn.Linear(4, 4)(bad)
        with pytest.raises(plain.type) as patched:
            warpgemm.patch(torch.nn.Linear(4, 4))(bad)
        assert str(patched.value) == str(plain.value)


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32])
@pytest.mark.parametrize("shape", [(1, 4096), (3, 7, 4096), (64, 4096), (300, 4096)])
def test_a_patched_linear_computes_f_linear(dtype, shape):
    layer = torch.nn.Linear(4096, 1000, device="cuda", dtype=dtype)
    x = torch.randn(*shape, device="cuda", dtype=dtype)
    ref = torch.nn.functional.linear(x.double(), layer.weight.double(), layer.bias.double())
    wnn.fallbacks.clear()
    y = warpgemm.patch(layer)(x)
    assert not wnn.fallbacks and y.shape == (*shape[:-1], 1000) and y.dtype == dtype
    err = float(torch.linalg.vector_norm(y.double() - ref) / torch.linalg.vector_norm(ref))
    assert err < {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 2e-3}[dtype]


@pytest.mark.gpu
def test_mixed_dtypes_fall_back_instead_of_failing():
    wnn.fallbacks.clear()
    layer = warpgemm.patch(torch.nn.Linear(64, 32, device="cuda"))  # fp32 weight
    y = layer(torch.randn(4, 64, device="cuda", dtype=torch.bfloat16).float())
    assert y.shape == (4, 32) and not wnn.fallbacks
    with pytest.raises(RuntimeError):  # what F.linear says about mixed dtypes, unchanged
        layer(torch.randn(4, 64, device="cuda", dtype=torch.bfloat16))
    assert wnn.fallbacks["input torch.bfloat16 with weight torch.float32"] == 1


@pytest.mark.gpu
def test_each_input_warpgemm_does_not_serve_is_named_for_its_reason():
    cuda, bf16 = "cuda", torch.bfloat16
    w = torch.randn(8, 16, device=cuda, dtype=bf16)
    x = torch.randn(4, 16, device=cuda, dtype=bf16)
    cases = [
        (x, w, None, None),
        (torch.randn(2, 3, 16, device=cuda, dtype=bf16), w, torch.randn(8, device=cuda, dtype=bf16), None),
        (x.float(), w.float(), None, None),
        (x.cpu(), w, None, "not on a CUDA device"),
        (x, w.cpu(), None, "not on a CUDA device"),
        (x, w, torch.randn(8, dtype=bf16), "bias of another dtype or device"),
        (x, w, torch.randn(8, device=cuda), "bias of another dtype or device"),
        (x.float(), w, None, "input torch.float32 with weight torch.bfloat16"),
        (x.double(), w.double(), None, "dtype torch.float64"),
        (torch.randn(4, 15, device=cuda, dtype=bf16), w, None, "shapes that do not multiply"),
        (torch.tensor(1.0, device=cuda, dtype=bf16), w, None, "shapes that do not multiply"),
        (x, w[None], None, "shapes that do not multiply"),
    ]
    for x, weight, bias, reason in cases:
        assert wnn._unserved(x, weight, bias) == reason


@pytest.mark.gpu
@pytest.mark.parametrize("make", [
    lambda: torch.randn(2048, device="cuda", dtype=torch.bfloat16),  # one vector
    lambda: torch.randn(5, 2048, device="cuda", dtype=torch.bfloat16),
    lambda: torch.randn(2, 3, 2048, device="cuda", dtype=torch.bfloat16),
    lambda: torch.randn(2, 16, 2048, device="cuda", dtype=torch.bfloat16),  # a kernel with tensor maps on sm_90
    lambda: torch.randn(4, 100, 2048, device="cuda", dtype=torch.bfloat16),
    lambda: torch.randn(3, 300, 2304, device="cuda", dtype=torch.bfloat16)[..., 128:2176],  # rows 2304 apart
    lambda: torch.randn(3, 2, 2048, device="cuda", dtype=torch.bfloat16).transpose(0, 1),  # flattening copies
], ids=["1d", "2d", "3d", "3d-32-rows", "3d-400-rows", "3d-strided", "3d-copied"])
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no-bias"])
def test_a_repeated_linear_runs_its_plan_on_fresh_inputs_and_stays_exact(make, with_bias):
    """The second and later calls of a problem take the plan kept for the input and the weight
    themselves (no reshapes, no transposed view); each must still compute its own inputs."""
    from warpgemm import plan

    layer = warpgemm.patch(torch.nn.Linear(2048, 1000, bias=with_bias, device="cuda", dtype=torch.bfloat16))
    with torch.no_grad():
        for call in range(3):
            x = make()
            ref = torch.nn.functional.linear(x.double(), layer.weight.double(),
                                             None if layer.bias is None else layer.bias.double())
            y = layer(x)
            assert y.shape == ref.shape and y.is_contiguous() and not y.isnan().any()
            err = float(torch.linalg.vector_norm(y.double() - ref) / torch.linalg.vector_norm(ref))
            assert err < 1e-2, (call, err)
        kept = plan.get(wnn._plan_key(x, layer.weight, layer.bias))
        flattens_in_place = x.dim() < 3 or x.reshape(-1, x.shape[-1])._is_view()
        made = plan.get(plan.key(x.reshape(-1, 2048), layer.weight.t(), layer.bias, None, "auto", {}, None))
        assert isinstance(kept, plan.Reshaped) == (flattens_in_place and made is not None)
        plan.clear()  # forgotten (a new tuning choice), the next call plans again
        assert torch.allclose(layer(x).double(), ref, rtol=2e-2, atol=2e-2)


@pytest.mark.gpu
def test_a_patched_linear_compiles_into_one_graph_for_any_number_of_tokens():
    """torch.compile(fullgraph=True) traces the layer's forward (the served test, the flattening
    and the op) without entering the plans, and a new token count reuses the graph."""
    import torch._dynamo

    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()
    layer = warpgemm.patch(torch.nn.Linear(512, 256, device="cuda", dtype=torch.bfloat16))
    compiled = torch.compile(layer, fullgraph=True, dynamic=True)
    wnn.fallbacks.clear()
    with torch.no_grad():
        for tokens in (3, 17, 130):
            x = torch.randn(2, tokens, 512, device="cuda", dtype=torch.bfloat16)
            ref = torch.nn.functional.linear(x.double(), layer.weight.double(), layer.bias.double())
            y = compiled(x)
            assert y.shape == (2, tokens, 256)
            assert float(torch.linalg.vector_norm(y.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2
    assert not wnn.fallbacks
    assert torch._dynamo.utils.counters["stats"]["unique_graphs"] <= 1


@pytest.mark.gpu
@pytest.mark.parametrize("tokens", [1, 32, 400])
def test_a_planned_linear_captured_in_a_cuda_graph_replays_on_new_inputs(tokens):
    """The kept plan (address slots at 1 token; tensor maps made per address at 32 and 400 on
    sm_90) runs inside a capture: each replay computes what is in the static input then."""
    layer = warpgemm.patch(torch.nn.Linear(2048, 1000, device="cuda", dtype=torch.bfloat16))
    replays_match_linear(layer, torch.randn(2, tokens, 2048, device="cuda", dtype=torch.bfloat16))


@pytest.mark.gpu
def test_a_linear_with_gradients_takes_the_op_not_the_plan():
    layer = warpgemm.patch(torch.nn.Linear(256, 128, device="cuda", dtype=torch.bfloat16))
    x = torch.randn(4, 256, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    with torch.no_grad():
        layer(x.detach())  # a plan exists for the problem
    y = layer(x)
    assert y.grad_fn is not None
    y.float().sum().backward()
    assert x.grad is not None and layer.weight.grad is not None


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("tokens", [1, 300])
def test_under_autocast_a_patched_fp32_linear_computes_in_the_autocast_dtype_as_the_unpatched_one(dtype, tokens):
    """torch.autocast("cuda") runs F.linear in its dtype: the patched layer gives the same dtype,
    the product of the operands rounded to it (against float64), and no fallback."""
    wnn.fallbacks.clear()
    layer = torch.nn.Linear(1024, 700, device="cuda")
    x = torch.randn(2, tokens, 1024, device="cuda")
    with torch.no_grad(), torch.autocast("cuda", dtype=dtype):
        want = layer(x)
        warpgemm.patch(layer)
        for _ in range(2):  # the first call plans; the second runs the plan
            got = layer(x)
            assert got.dtype == want.dtype == dtype
            ref = torch.nn.functional.linear(x.to(dtype).double(), layer.weight.to(dtype).double(),
                                             layer.bias.to(dtype).double())
            assert float(torch.linalg.vector_norm(got.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2
    assert not wnn.fallbacks
    assert layer(x).dtype == torch.float32  # out of autocast: fp32 again


@pytest.mark.gpu
def test_under_autocast_gradients_reach_the_fp32_parameters():
    layer = warpgemm.patch(torch.nn.Linear(256, 128, device="cuda"))
    x = torch.randn(8, 256, device="cuda", requires_grad=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        y = layer(x)
    assert y.dtype == torch.bfloat16
    y.float().sum().backward()
    assert layer.weight.grad.dtype == torch.float32 and x.grad.dtype == torch.float32
    ones = torch.ones(8, 128, device="cuda", dtype=torch.float64)
    want = ones.t() @ x.detach().to(torch.bfloat16).double()  # dL/dW = dY^T X
    assert float(torch.linalg.vector_norm(layer.weight.grad.double() - want) / torch.linalg.vector_norm(want)) < 1e-2


@pytest.mark.gpu
def test_under_autocast_a_compiled_patched_linear_computes_in_the_autocast_dtype():
    import torch._dynamo

    torch._dynamo.reset()
    layer = warpgemm.patch(torch.nn.Linear(512, 256, device="cuda"))
    f = torch.compile(layer, fullgraph=True)
    x = torch.randn(33, 512, device="cuda")
    with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
        got = f(x)
    assert got.dtype == torch.bfloat16
    ref = torch.nn.functional.linear(x.bfloat16().double(), layer.weight.bfloat16().double(),
                                     layer.bias.bfloat16().double())
    assert float(torch.linalg.vector_norm(got.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("tokens", [1, 40, 500])
def test_a_patched_linear_under_inference_mode_runs_its_plan_and_stays_exact(tokens):
    wnn.fallbacks.clear()
    layer = warpgemm.patch(torch.nn.Linear(2048, 1000, device="cuda", dtype=torch.bfloat16))
    with torch.inference_mode():
        for _ in range(3):  # the first call plans; later ones run the plan on fresh inputs
            x = torch.randn(tokens, 2048, device="cuda", dtype=torch.bfloat16)
            got = layer(x)
            ref = torch.nn.functional.linear(x.double(), layer.weight.double(), layer.bias.double())
            assert float(torch.linalg.vector_norm(got.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2
    assert not wnn.fallbacks


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a CUDA device")
def test_without_a_gpu_the_patched_model_still_runs_on_the_cpu():
    model = warpgemm.patch(_model())
    assert model(torch.randn(2, 16)).shape == (2, 8)
