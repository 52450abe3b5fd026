"""``nn.Linear`` on warpgemm: a drop-in module, and ``patch`` / ``unpatch`` for a whole model.

    model = warpgemm.patch(model)        # every nn.Linear now computes with warpgemm
    warpgemm.unpatch(model)              # and back

A patched layer keeps its parameters, buffers, hooks and ``state_dict`` (its class is swapped in
place: nothing is copied). Its forward flattens inputs of shape (..., K) to (rows, K) (a view
where the input's strides allow), multiplies by ``weight.t()`` (read in place) with the bias
fused into the kernel's epilogue on the fp16/bf16 paths, and restores the leading shape.
Inside ``torch.autocast("cuda")`` a patched layer computes in the autocast dtype, as the
unpatched one does (:mod:`warpgemm.autocast`). Inputs warpgemm does not serve (a CPU tensor,
another dtype, a weight and input of different dtypes, ...) fall back to
``torch.nn.functional.linear``; each fallback is counted, with its reason, in :data:`fallbacks`.
"""

from __future__ import annotations

from collections import Counter

import torch
import torch.nn.functional as F

from . import autocast, plan
from .autocast import enabled as _autocast_enabled
from .api import _matmul_cast

__all__ = ["Linear", "Int8Linear", "linear", "patch", "unpatch", "fallbacks", "quantize_rows"]

SERVED_DTYPES = (torch.float16, torch.bfloat16, torch.float32)

fallbacks: Counter[str] = Counter()
"""How many calls fell back to ``F.linear``, by reason. Clear it with ``fallbacks.clear()``."""


def _unserved(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> str | None:
    """Why warpgemm cannot compute this linear, or None when it can. Every forward pays for this
    test, so it asks the tensors only what costs them least (``is`` on dtypes, ``get_device``)."""
    if not (x.is_cuda and weight.is_cuda):
        return "not on a CUDA device"
    if x.get_device() != weight.get_device():
        return "input and weight on different devices"
    if x.dtype is not weight.dtype:
        return f"input {x.dtype} with weight {weight.dtype}"
    if x.dtype not in SERVED_DTYPES:
        return f"dtype {x.dtype}"
    if bias is not None and (bias.dtype is not x.dtype or not bias.is_cuda or bias.get_device() != x.get_device()):
        return "bias of another dtype or device"
    if weight.dim() != 2 or x.dim() == 0 or x.shape[-1] != weight.shape[1]:
        return "shapes that do not multiply"
    return None


def _plan_key(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> tuple:
    """The key of a linear's plan (:class:`warpgemm.plan.Reshaped`): the plan key of a call on the
    input and the weight themselves, marked as a linear's."""
    return ("nn.linear", plan.key(x, weight, bias, None, "auto", {}, None))


def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """``F.linear(x, weight, bias)`` computed by warpgemm: ``x @ weight.t() + bias``.

    A repeated eager call without gradients (the same shapes, strides, dtypes and devices) runs
    the flattened problem's plan on ``x`` and ``weight`` as they are, into a new (..., N) output
    (:class:`warpgemm.plan.Reshaped`): the reshapes and the transposed view cost the host more
    than the rest of the call's Python."""
    if not isinstance(x, torch.Tensor):
        return F.linear(x, weight, bias)  # its error for an input that is not a tensor, unchanged
    if _autocast_enabled():  # as F.linear under torch.autocast("cuda"): in the autocast dtype
        x, weight, bias = autocast.cast(x, weight, bias)
    # Planned: eager, and no gradient to record (the registered op's autograd needs the views).
    planned = not torch.compiler.is_compiling() and not (
        torch.is_grad_enabled() and (x.requires_grad or weight.requires_grad
                                     or (bias is not None and bias.requires_grad)))
    if planned:
        found = plan.get(_plan_key(x, weight, bias))
        if isinstance(found, plan.Reshaped):
            c = found.run(x, weight, bias)
            if c is not None:
                return c
    reason = _unserved(x, weight, bias)
    if reason is not None:
        fallbacks[reason] += 1
        return F.linear(x, weight, bias)
    wt = weight.t()
    x2 = x if x.dim() == 2 else x.reshape(-1, x.shape[-1])
    y = _matmul_cast(x2, wt, bias, None, "auto", {}, None)  # cast above, if autocast is on
    if planned and x2.data_ptr() == x.data_ptr() and (x2 is x or x2._is_view()):
        # The flattened input is a view of x (a copy would not be x's address): later calls of
        # this problem can run its plan on x and the weight directly.
        made = plan.get(plan.key(x2, wt, bias, None, "auto", {}, None))
        if isinstance(made, (plan.Plan, plan.ArgsPlan)):
            plan.put(_plan_key(x, weight, bias), plan.Reshaped(made, (*x.shape[:-1], weight.shape[0])))
    return y if x.dim() == 2 else y.reshape(*x.shape[:-1], weight.shape[0])


class Linear(torch.nn.Linear):
    """``torch.nn.Linear`` whose forward runs on warpgemm (same parameters and state_dict)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear(x, self.weight, self.bias)


def patch(model: torch.nn.Module) -> torch.nn.Module:
    """Make every ``torch.nn.Linear`` in ``model`` (the model itself included) a
    :class:`Linear`, in place, and return ``model``. Subclasses of nn.Linear with forwards of
    their own are left alone."""
    for module in model.modules():
        if type(module) is torch.nn.Linear:
            module.__class__ = Linear
    return model


def unpatch(model: torch.nn.Module) -> torch.nn.Module:
    """Undo :func:`patch`: every :class:`Linear` in ``model`` becomes a ``torch.nn.Linear``."""
    for module in model.modules():
        if type(module) is Linear:
            module.__class__ = torch.nn.Linear
    return model


def quantize_rows(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric int8 quantisation of each row of a 2-D tensor: ``(q, scale)`` with
    ``q = round(x / scale)`` in [-127, 127] and ``scale = max |row| / 127`` (fp32, one per row;
    a row of zeros gets scale 1)."""
    xf = x.float()
    amax = xf.abs().amax(dim=1)
    scale = torch.where(amax > 0, amax / 127.0, torch.ones_like(amax))
    q = torch.round(xf / scale[:, None]).clamp_(-127, 127).to(torch.int8)
    return q, scale


class Int8Linear(torch.nn.Module):
    """A Linear computed in int8 (W8A8): the weight quantised per output channel once, the input
    per token (row) at every call, their product exact in int32 and scaled back in the int8
    kernel's epilogue (:func:`warpgemm.scaled_matmul`), with the bias, rounded once to the
    input's dtype (fp16, bf16 or fp32). Make one from a trained layer with :meth:`from_float`.

    Buffers: ``weight`` (out_features, in_features) int8, ``weight_scale`` (out_features,) fp32,
    ``bias`` (out_features,) fp32 or None.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device: torch.device | str | None = None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.register_buffer("weight", torch.zeros(out_features, in_features, dtype=torch.int8, device=device))
        self.register_buffer("weight_scale", torch.ones(out_features, dtype=torch.float32, device=device))
        self.register_buffer("bias", torch.zeros(out_features, dtype=torch.float32, device=device) if bias else None)

    @classmethod
    def from_float(cls, linear: torch.nn.Linear) -> "Int8Linear":
        """The int8 layer of a ``torch.nn.Linear``: its weight quantised per output channel (the
        scale of a row of W is max |row| / 127), its bias kept in fp32."""
        w = linear.weight.detach()
        layer = cls(linear.in_features, linear.out_features, linear.bias is not None, device=w.device)
        q, scale = quantize_rows(w)
        layer.weight.copy_(q)
        layer.weight_scale.copy_(scale)
        if linear.bias is not None:
            layer.bias.copy_(linear.bias.detach().float())
        return layer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        from .scaled import scaled_matmul

        if x.shape[-1] != self.in_features:
            raise ValueError(f"Int8Linear: the input's last dimension is {x.shape[-1]}, the layer takes "
                             f"{self.in_features}")
        out_dtype = x.dtype if x.dtype in (torch.float16, torch.bfloat16, torch.float32) else torch.bfloat16
        q, scale = quantize_rows(x.reshape(-1, self.in_features))
        y = scaled_matmul(q, self.weight.t(), scale, self.weight_scale, self.bias, out_dtype=out_dtype)
        return y.reshape(*x.shape[:-1], self.out_features)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
