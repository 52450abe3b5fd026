"""The registered PyTorch ops, ``torch.ops.warpgemm.mm``, ``scaled_mm`` and ``int4_mm``: what
torch.compile, CUDA graphs and autograd see of warpgemm.

    mm(Tensor a, Tensor b, Tensor? bias=None, ScalarType? out_dtype=None, str kernel_name="auto",
       str params="") -> Tensor

(``kernel_name``, not ``kernel``: Inductor passes an op's arguments on as keywords to a function
of its own that takes ``kernel``.) ``params`` holds template parameters as ``"NAME=VALUE,..."``.
The op is registered with ``torch.library.Library.define`` and ``impl`` (the registration
that adds least to a call), with a fake implementation (shapes and dtypes only, so that torch.compile traces it without running
the launch path) and an autograd formula whose gradients are warpgemm products of the
transposes, read in place:

    dA = dC @ B^T        dB = A^T @ dC        dbias = dC summed over rows

Everything the launch path looks up (tuning table, clocks, files, environment) happens inside
the CUDA implementation, which Dynamo never traces. Inside ``torch.autocast("cuda")``, ``mm``
computes in the autocast dtype, as ``aten::mm`` does, however it is called.
"""

from __future__ import annotations

from typing import Any

import torch

from .parsing import parse_params

_lib = torch.library.Library("warpgemm", "DEF")
_lib.define("mm(Tensor a, Tensor b, Tensor? bias=None, ScalarType? out_dtype=None, str kernel_name=\"auto\", "
            "str params=\"\") -> Tensor")

_parsed: dict[str, dict[str, int]] = {}


def params_text(params: dict[str, int]) -> str:
    """Template parameters as the op's ``params`` string."""
    return ",".join(f"{k}={v}" for k, v in params.items())


def _params(text: str) -> dict[str, int]:
    found = _parsed.get(text)
    if found is None:
        found = _parsed[text] = parse_params(filter(None, text.split(",")))
    return found


def _mm_impl(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None = None,
             out_dtype: torch.dtype | None = None, kernel_name: str = "auto", params: str = "") -> torch.Tensor:
    """The op's implementation, for every device: warpgemm's own call path (plans included);
    a tensor that is not on a CUDA device gets warpgemm's error."""
    from . import api, plan

    p = _params(params)
    try:
        k = plan.key(a, b, bias, out_dtype, kernel_name, p, None)
    except AttributeError:
        k = None
    found = plan.get(k) if k is not None else None
    if found is not None:
        c = found.run(a, b, bias, None)
        if c is not None:
            return c
    return api._matmul(a, b, bias, out_dtype, kernel_name, p, None, k)


_lib.impl("mm", _mm_impl, "CUDA")
_lib.impl("mm", _mm_impl, "CPU")

_AUTOCAST_CUDA = torch._C.DispatchKeySet(torch._C.DispatchKey.AutocastCUDA)


def _mm_autocast(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None = None,
                 out_dtype: torch.dtype | None = None, kernel_name: str = "auto", params: str = "") -> torch.Tensor:
    """The op inside ``torch.autocast("cuda")``, as ``aten::mm`` there: the floating operands in the
    autocast dtype (:func:`warpgemm.autocast.cast`), then the op itself with autocast's key
    excluded. Autocast sits ahead of autograd, so the casts are recorded and gradients reach
    fp32 leaves in fp32."""
    from . import autocast

    with torch._C._ExcludeDispatchKeyGuard(_AUTOCAST_CUDA):
        a, b, bias = autocast.cast(a, b, bias)
        return torch.ops.warpgemm.mm(a, b, bias, out_dtype, kernel_name, params)


_lib.impl("mm", _mm_autocast, "AutocastCUDA")


@torch.library.register_fake("warpgemm::mm")
def _mm_fake(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None = None,
             out_dtype: torch.dtype | None = None, kernel_name: str = "auto", params: str = "") -> torch.Tensor:
    from . import api

    api._validate(a, b, bias, out_dtype, kernel_name, _params(params), need_device=False)
    dtype = out_dtype if out_dtype is not None else api.default_out_dtype(a.dtype, kernel_name)
    return a.new_empty((a.shape[0], b.shape[1]), dtype=dtype)


def _setup_context(ctx: Any, inputs: tuple, output: torch.Tensor) -> None:
    a, b, bias, _out_dtype, _kernel, _params_text = inputs
    ctx.save_for_backward(a, b)
    ctx.bias_dtype = None if bias is None else bias.dtype


def _backward(ctx: Any, grad: torch.Tensor) -> tuple:
    a, b = ctx.saved_tensors
    ga = gb = gbias = None
    g = grad if grad.dtype == a.dtype else grad.to(a.dtype)
    if ctx.needs_input_grad[0]:
        ga = torch.ops.warpgemm.mm(g, b.t(), None, a.dtype)
    if ctx.needs_input_grad[1]:
        gb = torch.ops.warpgemm.mm(a.t(), g, None, b.dtype)
    if ctx.bias_dtype is not None and ctx.needs_input_grad[2]:
        gbias = grad.sum(0).to(ctx.bias_dtype)
    return ga, gb, gbias, None, None, None


torch.library.register_autograd("warpgemm::mm", _backward, setup_context=_setup_context)


# The scaled int8 product (warpgemm.scaled_matmul): no gradient (int8 operands).
_lib.define("scaled_mm(Tensor a, Tensor b, Tensor scale_a, Tensor scale_b, Tensor? bias=None, "
            "ScalarType? out_dtype=None) -> Tensor")


def _scaled_impl(a, b, scale_a, scale_b, bias=None, out_dtype=None):
    from . import scaled

    return scaled.scaled_impl(a, b, scale_a, scale_b, bias, out_dtype)


_lib.impl("scaled_mm", _scaled_impl, "CUDA")
_lib.impl("scaled_mm", _scaled_impl, "CPU")


@torch.library.register_fake("warpgemm::scaled_mm")
def _scaled_fake(a, b, scale_a, scale_b, bias=None, out_dtype=None):
    from . import scaled

    return scaled.scaled_fake(a, b, scale_a, scale_b, bias, out_dtype)


# The 4-bit product (warpgemm.matmul with warpgemm.int4.Packed operands) under torch.compile: the
# packed bytes of A (M, ceil(k / 2)) and of W (N, ceil(k / 2)), B = W^T, with k and the
# signedness; int32 out, no gradient.
_lib.define("int4_mm(Tensor a, Tensor w, int k, bool signed, Tensor? bias=None, str kernel_name=\"auto\", "
            "str params=\"\") -> Tensor")


def _int4_operands(a: torch.Tensor, w: torch.Tensor, k: int, signed: bool) -> tuple[Any, Any]:
    from .int4 import Packed

    return Packed(a, k, signed=signed), Packed(w, k, signed=signed).t()


def _int4_impl(a, w, k, signed, bias=None, kernel_name="auto", params=""):
    from .int4_matmul import matmul

    pa, pb = _int4_operands(a, w, k, signed)
    return matmul(pa, pb, bias=bias, kernel=kernel_name, **_params(params))


_lib.impl("int4_mm", _int4_impl, "CUDA")
_lib.impl("int4_mm", _int4_impl, "CPU")


@torch.library.register_fake("warpgemm::int4_mm")
def _int4_fake(a, w, k, signed, bias=None, kernel_name="auto", params=""):
    from .int4_matmul import check

    pa, pb = _int4_operands(a, w, k, signed)
    m, n, _, _ = check(pa, pb, None, bias, kernel_name, _params(params))
    return a.new_empty((m, n), dtype=torch.int32)
