"""``nn.Linear`` on warpgemm: a drop-in module, and ``patch`` / ``unpatch`` for a whole model.

    model = warpgemm.patch(model)        # every nn.Linear now computes with warpgemm
    warpgemm.unpatch(model)              # and back

A patched layer keeps its parameters, buffers, hooks and ``state_dict`` (its class is swapped in
place: nothing is copied). Its forward flattens inputs of shape (..., K) to (rows, K) (a view
where the input's strides allow), multiplies by ``weight.t()`` (read in place) with the bias
fused into the kernel's epilogue on the fp16/bf16 paths, and restores the leading shape.
Inputs warpgemm does not serve (a CPU tensor, another dtype, a weight and input of different
dtypes, ...) fall back to ``torch.nn.functional.linear``; each fallback is counted, with its
reason, in :data:`fallbacks`.
"""

from __future__ import annotations

from collections import Counter

import torch
import torch.nn.functional as F

__all__ = ["Linear", "linear", "patch", "unpatch", "fallbacks"]

SERVED_DTYPES = (torch.float16, torch.bfloat16, torch.float32)

fallbacks: Counter[str] = Counter()
"""How many calls fell back to ``F.linear``, by reason. Clear it with ``fallbacks.clear()``."""


def _unserved(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None) -> str | None:
    """Why warpgemm cannot compute this linear, or None when it can."""
    if not (x.is_cuda and weight.is_cuda):
        return "not on a CUDA device"
    if x.device != weight.device:
        return "input and weight on different devices"
    if x.dtype != weight.dtype:
        return f"input {x.dtype} with weight {weight.dtype}"
    if x.dtype not in SERVED_DTYPES:
        return f"dtype {x.dtype}"
    if bias is not None and (bias.dtype != x.dtype or bias.device != x.device):
        return "bias of another dtype or device"
    if x.dim() == 0 or x.shape[-1] != weight.shape[1] or weight.dim() != 2:
        return "shapes that do not multiply"
    return None


def linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """``F.linear(x, weight, bias)`` computed by warpgemm: ``x @ weight.t() + bias``."""
    reason = _unserved(x, weight, bias)
    if reason is not None:
        fallbacks[reason] += 1
        return F.linear(x, weight, bias)
    from .api import matmul

    k = x.shape[-1]
    y = matmul(x.reshape(-1, k), weight.t(), bias=bias)
    return y.reshape(*x.shape[:-1], weight.shape[0])


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
