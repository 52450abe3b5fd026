"""warpgemm.matmul: what it accepts, what it refuses, and that every kernel computes A @ B.

GPU tests draw fresh random inputs, poison the output with NaN, and compare against a float64
reference by ||out - ref|| / ||ref||.
"""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import catalog
from warpgemm.errors import KernelNotFoundError, NoDeviceError

from conftest import HAS_GPU

TOL = {"ffma": 1e-5, "tf32": 2e-3}

RAGGED = [(1, 1, 1), (17, 33, 65), (1000, 1000, 1000), (4097, 4095, 4093), (3000, 5000, 7),
          (7, 3000, 5000), (8191, 129, 4099), (255, 8193, 1023)]
CUBES = [(128, 128, 128), (256, 256, 256), (1024, 1024, 1024)]
LAYOUTS = [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")]


# -- refused before any launch (these run without a GPU) -------------------------------------

def test_the_packages_lazy_names_are_found_once_and_then_kept():
    from warpgemm import api

    assert warpgemm.matmul is api.matmul
    assert vars(warpgemm)["matmul"] is api.matmul  # a module attribute now: no lookup a call
    with pytest.raises(AttributeError, match="no attribute 'mat_mul'"):
        warpgemm.mat_mul


def test_non_tensors_are_a_type_error():
    with pytest.raises(TypeError, match="a must be a torch.Tensor"):
        warpgemm.matmul([[1.0]], torch.ones(1, 1))


def test_non_2d_inputs_are_a_value_error_naming_the_shape():
    with pytest.raises(ValueError, match=r"b must be 2-D, got 3-D with shape \(2, 3, 4\)"):
        warpgemm.matmul(torch.ones(4, 2), torch.ones(2, 3, 4))


@pytest.mark.parametrize("dtype", [torch.float64, torch.int32, torch.complex64])
def test_unsupported_dtypes_are_a_type_error(dtype):
    with pytest.raises(TypeError, match=f"dtype {dtype} is not supported"):
        warpgemm.matmul(torch.ones(2, 2, dtype=dtype), torch.ones(2, 2, dtype=dtype))


def test_mixed_dtypes_are_a_type_error():
    with pytest.raises(TypeError, match="same dtype"):
        warpgemm.matmul(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64))


def test_mismatched_inner_dimensions_are_a_value_error():
    with pytest.raises(ValueError, match=r"inner dimensions differ: a is \(4, 5\), b is \(6, 7\)"):
        warpgemm.matmul(torch.ones(4, 5), torch.ones(6, 7))


def test_an_unknown_kernel_name_is_refused():
    with pytest.raises(KernelNotFoundError, match="no kernel named 'sgemm/00_magic'"):
        warpgemm.matmul(torch.ones(2, 2), torch.ones(2, 2), kernel="sgemm/00_magic")


def test_template_parameters_need_an_explicit_kernel():
    with pytest.raises(TypeError, match="explicit kernel"):
        warpgemm.matmul(torch.ones(2, 2), torch.ones(2, 2), STAGES=2)


def test_float32_output_only_for_float32_inputs():
    with pytest.raises(ValueError, match="float32 inputs produce float32"):
        warpgemm.matmul(torch.ones(2, 2), torch.ones(2, 2), out_dtype=torch.float16)


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a CUDA device")
def test_without_a_gpu_valid_input_is_a_runtime_error_saying_so():
    with pytest.raises(NoDeviceError, match="needs a CUDA device") as info:
        warpgemm.matmul(torch.ones(2, 3), torch.ones(3, 4))
    assert isinstance(info.value, RuntimeError)


@pytest.mark.gpu
def test_cpu_tensors_are_a_value_error():
    with pytest.raises(ValueError, match="a is on cpu"):
        warpgemm.matmul(torch.ones(2, 3), torch.ones(3, 4, device="cuda"))


@pytest.mark.gpu
@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_tensors_on_different_devices_are_a_value_error():
    with pytest.raises(ValueError, match="share one device"):
        warpgemm.matmul(torch.ones(2, 3, device="cuda:0"), torch.ones(3, 4, device="cuda:1"))


@pytest.mark.gpu
def test_a_wrong_out_tensor_is_a_value_error():
    a, b = torch.randn(4, 5, device="cuda"), torch.randn(5, 6, device="cuda")
    with pytest.raises(ValueError, match=r"out must be \(4, 6\)"):
        warpgemm.matmul(a, b, out=torch.empty(6, 4, device="cuda"))
    with pytest.raises(ValueError, match="contiguous"):
        warpgemm.matmul(a, b, out=torch.empty(6, 4, device="cuda").t())


# -- correctness on the GPU -----------------------------------------------------------------

def _operand(rows: int, cols: int, layout: str) -> torch.Tensor:
    if layout == "row":
        return torch.randn(rows, cols, device="cuda")
    return torch.randn(cols, rows, device="cuda").t()


def _check(kernel: str, m: int, n: int, k: int, la: str, lb: str, **params) -> None:
    spec = catalog.get(kernel)
    a, b = _operand(m, k, la), _operand(k, n, lb)
    out = torch.full((m, n), float("nan"), device="cuda")
    result = warpgemm.matmul(a, b, kernel=kernel, out=out, **params)
    assert result is out
    ref = a.double() @ b.double()
    assert not torch.isnan(out).any(), f"{kernel} left unwritten (NaN) elements"
    err = float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref))
    assert err <= TOL[spec.math], f"{kernel} {m}x{n}x{k} {la}/{lb}: rel err {err:.2e}"


SGEMM_CASES = [(spec.name, shape, lay) for spec in catalog.kernels("sgemm")
               for shape in RAGGED + CUBES for lay in LAYOUTS]


@pytest.mark.gpu
@pytest.mark.parametrize("kernel,shape,layouts", SGEMM_CASES,
                         ids=[f"{n.split('/')[1]}-{'x'.join(map(str, s))}-{l[0][0]}{l[1][0]}"
                              for n, s, l in SGEMM_CASES])
def test_every_sgemm_rung_matches_float64_on_every_shape_and_layout(kernel, shape, layouts):
    _check(kernel, *shape, *layouts)


TF32_VARIANTS = [dict(STAGES=2), dict(STAGES=4), dict(SWIZZLE=1), dict(BK=16)]


@pytest.mark.gpu
@pytest.mark.parametrize("params", TF32_VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("shape", [(1, 1, 1), (17, 33, 65), (4097, 4095, 4093), (7, 3000, 5000),
                                   (255, 8193, 1023)])
@pytest.mark.parametrize("layouts", LAYOUTS, ids=lambda l: l[0][0] + l[1][0])
def test_tf32_rung_variants_match_float64(params, shape, layouts):
    _check("sgemm/08_tf32_mma", *shape, *layouts, **params)


@pytest.mark.gpu
def test_strided_views_that_are_neither_layout_are_copied_and_correct():
    a = torch.randn(300, 400, device="cuda")[::3, ::2]
    b = torch.randn(600, 150, device="cuda")[::3, 1::2]
    out = warpgemm.matmul(a, b, kernel="sgemm/07_cp_async")
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-5


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(0, 5, 3), (4, 0, 3), (4, 5, 0), (0, 0, 0)])
def test_empty_dimensions_behave_like_torch_matmul(m, n, k):
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    out = warpgemm.matmul(a, b)
    expected = torch.matmul(a, b)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    assert torch.equal(out, expected)


@pytest.mark.gpu
@pytest.mark.parametrize("precision,kernel", [("highest", "sgemm/07_cp_async"),
                                              ("high", "sgemm/08_tf32_mma"),
                                              ("medium", "sgemm/08_tf32_mma")])
def test_auto_follows_float32_matmul_precision(precision, kernel, monkeypatch):
    from warpgemm import api

    chosen = []
    real_run = api.run_instance
    monkeypatch.setattr(api, "run_instance", lambda inst, *rest: (chosen.append(inst.name), real_run(inst, *rest)))
    old = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(precision)
    try:
        a, b = torch.randn(64, 96, device="cuda"), torch.randn(96, 80, device="cuda")
        out = warpgemm.matmul(a, b)
    finally:
        torch.set_float32_matmul_precision(old)
    assert chosen == [kernel]
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < TOL[
        catalog.get(kernel).math]


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_auto_runs_the_shipped_half_precision_kernel_of_this_arch(dtype, monkeypatch):
    from warpgemm import api

    chosen = []
    real_run = api.run_instance
    monkeypatch.setattr(api, "run_instance", lambda inst, *rest: (chosen.append(inst.name), real_run(inst, *rest)))
    a = torch.randn(200, 96, device="cuda").to(dtype)
    b = torch.randn(96, 136, device="cuda").to(dtype)
    out = warpgemm.matmul(a, b)
    expected = "hopper/06_tma_store_epilogue" if torch.cuda.get_device_capability() == (9, 0) else "hgemm/07_tuned"
    assert chosen == [expected] and out.dtype == dtype
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_under_autocast_matmul_computes_in_the_autocast_dtype_as_torch_matmul(dtype):
    a, b = torch.randn(300, 520, device="cuda"), torch.randn(520, 130, device="cuda")
    bias = torch.randn(130, device="cuda")
    with torch.autocast("cuda", dtype=dtype):
        want = torch.matmul(a, b)
        got = warpgemm.matmul(a, b, bias=bias)
    assert got.dtype == want.dtype == dtype
    ref = a.to(dtype).double() @ b.to(dtype).double() + bias.to(dtype).double()
    assert float(torch.linalg.vector_norm(got.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-2


@pytest.mark.gpu
def test_under_autocast_a_call_with_out_is_not_autocast():
    """As in torch, an explicit out= keeps the call in the operands' dtype."""
    a, b = torch.randn(64, 96, device="cuda"), torch.randn(96, 80, device="cuda")
    out = torch.full((64, 80), float("nan"), device="cuda")
    with torch.autocast("cuda", dtype=torch.bfloat16):
        got = warpgemm.matmul(a, b, out=out)
    assert got is out and not out.isnan().any()
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 5e-3


def test_autocast_casts_only_floating_cuda_tensors_other_than_float64():
    from warpgemm import autocast

    cpu = torch.randn(2, 2)
    ints = torch.ones(2, dtype=torch.int8)
    assert all(x is y for x, y in zip(autocast.cast(cpu, ints, None, 3), (cpu, ints, None, 3)))
