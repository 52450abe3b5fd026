"""The scaled int8 product (W8A8): ``warpgemm.scaled_matmul`` computes
``(a @ b) * scale_a[:, None] * scale_b[None, :] + bias`` with the int8 product exact and the rest
in fp32, rounded once; checked against a float64 reference of the same formula on fresh
full-range operands. ``nn.Int8Linear`` quantises a Linear per channel and its input per token."""

from __future__ import annotations

import contextlib

import pytest
import torch

import warpgemm
from warpgemm.nn import Int8Linear, quantize_rows


def _on_hopper() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


needs_hopper = pytest.mark.skipif("not _on_hopper()", reason="the s8 wgmma kernels run on compute capability 9.0")
TOL = {torch.bfloat16: 8e-3, torch.float16: 1e-3, torch.float32: 1e-6}


def _int8(rows: int, cols: int, device: str = "cuda") -> torch.Tensor:
    return torch.randint(-128, 128, (rows, cols), dtype=torch.int8, device=device)


def _reference(a, b, scale_a, scale_b, bias):
    exact = (a.cpu().long() @ b.cpu().long()).double()
    out = exact * scale_a.cpu().double().reshape(-1, 1) * scale_b.cpu().double().reshape(1, -1)
    return out + bias.cpu().double() if bias is not None else out


def _poisoned(m: int, n: int, dtype: torch.dtype) -> torch.Tensor:
    return torch.full((m, n), float("nan"), dtype=dtype, device="cuda")


@contextlib.contextmanager
def _shape_params(spec, rule):
    """``spec`` (frozen) with ``rule`` as its shape rule for the duration."""
    kept = spec.shape_params
    object.__setattr__(spec, "shape_params", rule)
    try:
        yield
    finally:
        object.__setattr__(spec, "shape_params", kept)


def _scaled_calls(m, n, k, out_dtype, calls=1):
    """``calls`` scaled products of fresh full-range operands with per-token and per-channel
    scales and a bias, each into a freshly poisoned output, and their float64 reference."""
    a, b = _int8(m, k), _int8(n, k).t()
    scale_a, scale_b = torch.rand(m, device="cuda") * 1e-2 + 1e-4, torch.rand(n, device="cuda") * 1e-2 + 1e-4
    bias = torch.randn(n, device="cuda")
    outs = []
    for _ in range(calls):
        _poisoned(m, n, out_dtype)  # freed at once: most likely the output's memory
        outs.append(warpgemm.scaled_matmul(a, b, scale_a, scale_b, bias, out_dtype=out_dtype))
    return outs, _reference(a, b, scale_a, scale_b, bias)


def _rel(out, ref):
    return float(torch.linalg.vector_norm(out.cpu().double() - ref) / torch.linalg.vector_norm(ref).clamp_min(1e-30))


@pytest.mark.parametrize("bad,match", [
    (dict(scale_a=torch.ones(3)), "scale_a must hold one value or one per row of a"),
    (dict(scale_b=torch.ones(5, 2)), "scale_b must hold one value or one per column of b"),
    (dict(scale_a=torch.ones(8, dtype=torch.int32)), "scale_a must be a floating tensor"),
    (dict(bias=torch.ones(7)), "bias must be 1-D with N = 6 values"),
    (dict(out_dtype=torch.int32), "out_dtype must be one of"),
    (dict(a=torch.ones(8, 4)), "a must be int8"),
])
def test_bad_arguments_get_an_error_that_names_the_constraint(bad, match):
    args = dict(a=_int8(8, 4, "cpu"), b=_int8(4, 6, "cpu"), scale_a=torch.ones(8), scale_b=torch.ones(6),
                bias=None, out_dtype=torch.bfloat16)
    args.update(bad)
    with pytest.raises((TypeError, ValueError), match=match):
        warpgemm.scaled_matmul(**args)


@pytest.mark.parametrize("out,match", [
    (torch.empty(8, 6, dtype=torch.float32), r"out must be \(8, 6\) torch.bfloat16"),
    (torch.empty(8, 12, dtype=torch.bfloat16)[:, ::2], "out must be contiguous"),
    ("c", "out must be a torch.Tensor"),
])
def test_a_bad_out_gets_an_error_that_names_the_constraint(out, match):
    with pytest.raises((TypeError, ValueError), match=match):
        warpgemm.scaled_matmul(_int8(8, 4, "cpu"), _int8(4, 6, "cpu"), torch.ones(8), torch.ones(6), out=out)


@pytest.mark.gpu
@pytest.mark.skipif("not _on_sm80()", reason="mma.sync m16n8k32 s8 needs compute capability 8.0")
@pytest.mark.parametrize("m", [1, 16, 64, 200])
def test_scaled_matmul_writes_into_out_the_bits_it_returns(m):
    if m > 16 and not _on_hopper():
        pytest.skip("more than 16 rows run the s8 wgmma kernels (compute capability 9.0)")
    a, b = _int8(m, 512), _int8(384, 512).t()
    sa, sb, bias = torch.rand(m, device="cuda"), torch.rand(384, device="cuda"), torch.randn(384, device="cuda")
    out = torch.full((m, 384), float("nan"), dtype=torch.float16, device="cuda")
    got = warpgemm.scaled_matmul(a, b, sa, sb, bias, out_dtype=torch.float16, out=out)
    assert got is out
    assert torch.equal(out, warpgemm.scaled_matmul(a, b, sa, sb, bias, out_dtype=torch.float16))


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
@pytest.mark.parametrize("per_token,per_channel,with_bias", [(True, True, True), (False, True, False),
                                                              (True, False, True), (False, False, False)])
@pytest.mark.parametrize("m,n,k", [(1, 256, 128), (7, 13, 33), (16, 4096, 4096), (33, 1000, 2049), (64, 300, 700),
                                   (65, 300, 700), (129, 257, 385), (130, 264, 777), (200, 512, 1000),
                                   (300, 700, 3001), (1024, 1024, 4096)])
def test_scaled_matmul_matches_the_formula_in_float64(m, n, k, per_token, per_channel, with_bias, out_dtype):
    a, b = _int8(m, k), _int8(n, k).t()
    scale_a = torch.rand(m if per_token else 1, device="cuda") * 1e-2 + 1e-4
    scale_b = torch.rand(n if per_channel else 1, device="cuda") * 1e-2 + 1e-4
    bias = torch.randn(n, device="cuda").to(torch.bfloat16) if with_bias else None
    # The op allocates its output: poison a block of that size and free it, so that the caching
    # allocator most likely hands the NaNs to the output (an element left unwritten shows).
    _poisoned(m, n, out_dtype)  # freed at once
    out = warpgemm.scaled_matmul(a, b, scale_a, scale_b, bias, out_dtype=out_dtype)
    assert out.dtype == out_dtype and out.shape == (m, n)
    assert _rel(out, _reference(a, b, scale_a, scale_b, bias)) < TOL[out_dtype]


@pytest.mark.parametrize("m,n,capability,kernel", [
    (1, 4096, 90, "igemm/08_scaled_swap_ab_splitk"), (16, 12287, 90, "igemm/08_scaled_swap_ab_splitk"),
    (1, 14336, 90, "igemm/06_scaled_swap_ab"), (17, 4096, 90, "igemm/06_scaled_swap_ab"),
    (64, 4096, 80, "igemm/08_scaled_swap_ab_splitk"), (64, 14336, 89, "igemm/08_scaled_swap_ab_splitk"),
    (65, 4096, 90, "igemm/07_scaled_tma_store"), (65, 4096, 80, "igemm/07_scaled_tma_store")])
def test_the_split_k_kernel_takes_a_few_rows_on_hopper_and_every_small_m_before_it(m, n, capability, kernel):
    from warpgemm import scaled

    assert scaled.kernel_for(m, n, capability) == kernel


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,kernel", [(1, 384, "igemm/08_scaled_swap_ab_splitk"),
                                        (16, 384, "igemm/08_scaled_swap_ab_splitk"),
                                        (4, 12288, "igemm/06_scaled_swap_ab"), (17, 384, "igemm/06_scaled_swap_ab"),
                                        (64, 384, "igemm/06_scaled_swap_ab"), (65, 384, "igemm/07_scaled_tma_store"),
                                        (4096, 384, "igemm/07_scaled_tma_store")])
def test_scaled_matmul_streams_the_weight_with_a_swap_ab_kernel_up_to_64_tokens(monkeypatch, m, n, kernel):
    from warpgemm import api

    chosen = []
    real = api.run_instance
    monkeypatch.setattr(api, "run_instance", lambda inst, *rest: (chosen.append(inst.name), real(inst, *rest)))
    a, b = _int8(m, 512), _int8(n, 512).t()
    scale_a, scale_b = torch.rand(m, device="cuda"), torch.rand(n, device="cuda")
    out = warpgemm.scaled_matmul(a, b, scale_a, scale_b, out_dtype=torch.float32)
    assert chosen == [kernel]
    assert _rel(out, _reference(a, b, scale_a, scale_b, None)) < TOL[torch.float32]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel,params", [("igemm/03_scaled_epilogue", {}),
                                           ("igemm/07_scaled_tma_store", {"STAGES": 4, "BUFFERS": 1}),
                                           ("igemm/07_scaled_tma_store", {"STAGES": 3, "BUFFERS": 2, "BN": 128}),
                                           ("igemm/07_scaled_tma_store", {"IN_FLIGHT": 1, "SPLITS": 4})])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("m,n,k", [(65, 264, 777), (300, 700, 3001), (1000, 1024, 1000), (256, 512, 65536)])
def test_every_large_m_scaled_kernel_matches_the_formula(monkeypatch, kernel, params, out_dtype, m, n, k):
    """Rung 03 (direct stores) and rung 07 (shared memory and TMA stores, one or two staging
    buffers, or copied from the staging by the warpgroups where C's rows are not 16-byte
    multiples apart: N = 700), with ragged edges, a K tail and a split K (the last shape: two
    tiles over 132 SMs)."""
    from warpgemm import catalog, scaled

    monkeypatch.setattr(scaled, "KERNEL", kernel)
    with _shape_params(catalog.get(kernel), lambda *_: dict(params)):
        (out,), ref = _scaled_calls(m, n, k, out_dtype)
    assert _rel(out, ref) < TOL[out_dtype]


def _on_sm80() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)


@pytest.mark.gpu
@pytest.mark.skipif("not _on_sm80()", reason="mma.sync m16n8k32 s8 needs compute capability 8.0")
@pytest.mark.parametrize("params", [{}, {"KSPLIT": 4}, {"ROW_GROUPS": 2, "WARPS": 4, "UNROLL": 4},
                                    {"WARPS": 8, "UNROLL": 8, "L2_256B": 0}, {"KSPLIT": 2, "ROW_GROUPS": 2},
                                    {"STAGGER": 8}, {"STAGGER": 3, "KSPLIT": 2}])
@pytest.mark.parametrize("out_dtype", [torch.bfloat16, torch.float16, torch.float32])
@pytest.mark.parametrize("m,n,k", [(1, 256, 128), (3, 13, 33), (8, 1000, 2049), (16, 300, 4160), (11, 4096, 64),
                                   (5, 70, 7), (33, 50, 130), (64, 96, 200), (2, 17, 65), (7, 15, 63),
                                   (9, 31, 191)])
def test_every_split_k_choice_matches_the_formula(monkeypatch, params, out_dtype, m, n, k):
    """The split-K kernel for few rows (igemm/08), up to 64 rows: ragged N, a K tail shorter than
    a 64-wide chunk (and K shorter than one), K split over warps and blocks."""
    from warpgemm import catalog, scaled

    monkeypatch.setattr(scaled, "GEMV_MAX_M", 64)
    spec = catalog.get("igemm/08_scaled_swap_ab_splitk")
    rule = spec.shape_params
    with _shape_params(spec, lambda m, n, k: {**rule(m, n, k), **params}):
        (out, again), ref = _scaled_calls(m, n, k, out_dtype, calls=2)
    assert _rel(out, ref) < TOL[out_dtype]
    assert torch.equal(out, again)  # no atomics in the sums: the same bits on every run


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m", [1, 16, 64, 65])  # the split-K kernel, the swap-AB kernel and rung 07
def test_scaled_matmul_splits_k_exactly_before_scaling(m):
    a, b = _int8(m, 65536), _int8(64, 65536).t()  # one tile: its K range split over the idle SMs
    scale_a, scale_b = torch.full((m,), 1.0, device="cuda"), torch.full((64,), 1.0, device="cuda")
    out = warpgemm.scaled_matmul(a, b, scale_a, scale_b, out_dtype=torch.float32)
    exact = (a.cpu().long() @ b.cpu().long())
    assert torch.equal(out.cpu().double(), exact.float().double())  # fp32 of the exact sum: one rounding


@pytest.mark.gpu
@needs_hopper
def test_scaled_matmul_traces_under_torch_compile():
    a, b = _int8(100, 256), _int8(128, 256).t()
    sa, sb = torch.rand(100, 1, device="cuda"), torch.rand(1, 128, device="cuda")
    f = torch.compile(lambda *t: warpgemm.scaled_matmul(*t), fullgraph=True)
    assert _rel(f(a, b, sa, sb), _reference(a, b, sa, sb, None)) < TOL[torch.bfloat16]


@pytest.mark.gpu
@needs_hopper
def test_scaled_mm_passes_opcheck():
    a, b = _int8(64, 256), _int8(128, 256).t()
    torch.library.opcheck(torch.ops.warpgemm.scaled_mm.default,
                          (a, b, torch.rand(64, device="cuda"), torch.rand(128, device="cuda"), None, torch.bfloat16))


@pytest.mark.gpu
@needs_hopper
def test_int8_linear_from_float_is_close_to_the_linear():
    torch.manual_seed(0)
    lin = torch.nn.Linear(1024, 768).cuda().to(torch.bfloat16)
    q = Int8Linear.from_float(lin)
    assert q.weight.dtype == torch.int8 and q.weight_scale.shape == (768,)
    x = torch.randn(3, 17, 1024, device="cuda").to(torch.bfloat16)
    y = q(x)
    ref = x.double() @ lin.weight.double().t() + lin.bias.double()
    assert y.shape == (3, 17, 768) and y.dtype == torch.bfloat16
    assert _rel(y, ref.cpu()) < 2e-2  # int8 quantisation of both operands, not rounding alone
    # and it is exactly scaled_matmul of the quantised operands
    xq, xs = quantize_rows(x.reshape(-1, 1024))
    assert torch.equal(y.reshape(-1, 768), warpgemm.scaled_matmul(xq, q.weight.t(), xs, q.weight_scale, q.bias))


@pytest.mark.gpu
@needs_hopper
def test_int8_linear_runs_under_torch_compile():
    lin = torch.nn.Linear(512, 384).cuda().to(torch.bfloat16)
    q = Int8Linear.from_float(lin)
    x = torch.randn(5, 512, device="cuda").to(torch.bfloat16)
    compiled = torch.compile(q, fullgraph=True)
    # Inductor fuses the per-token quantisation, which may round a few activations the other way:
    # the same product within int8 quantisation's error, not the same bits.
    assert _rel(compiled(x), q(x).cpu().double()) < 1e-2


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m", [1, 16, 64])
def test_int8_linear_replays_in_a_cuda_graph_at_decode_sizes(m):
    """Int8Linear (activation quantisation and the swap-AB W8A8 kernel) captured once and replayed
    on new inputs gives the eager call's bits."""
    torch.manual_seed(0)
    q = Int8Linear.from_float(torch.nn.Linear(1024, 768).cuda().to(torch.bfloat16))
    x = torch.randn(m, 1024, device="cuda").to(torch.bfloat16)
    q(x)  # compiles and plans outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = q(x)
    for _ in range(2):
        x.copy_(torch.randn(m, 1024, device="cuda").to(torch.bfloat16))
        y.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        assert torch.equal(y, q(x))
