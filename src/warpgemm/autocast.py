"""``torch.autocast`` at warpgemm's entry points.

Inside ``torch.autocast("cuda")`` torch computes ``torch.matmul`` and ``F.linear`` in the autocast
dtype (bf16 or fp16): every floating CUDA operand but a float64 one is cast to it, and the result
is of that dtype. :func:`warpgemm.matmul` and a patched ``nn.Linear`` do the same, so that a
patched model under autocast computes what the unpatched one does, at the same precision (and
not in fp32 on fp32 weights). As in torch, a call with an ``out=`` tensor is not autocast.

One difference: torch caches the cast of a parameter for the rest of the autocast region, and
warpgemm casts on every call. Where a region runs many calls on the same fp32 weights
(generating tokens inside one ``torch.autocast``), the patched model casts each weight once a
call where the unpatched one casts it once; cast the model itself (``model.bfloat16()``) to
leave no cast at all.
"""

from __future__ import annotations

import torch

__all__ = ["cast", "enabled"]

enabled = torch.is_autocast_enabled
"""Whether CUDA autocast is on: torch's own function, which the entry points call with no
argument (its cheapest form) on every call, through a name of their module (about 0.1 us less
than ``torch.is_autocast_enabled`` looked up on torch each time); :func:`cast` runs only when
it is on. torch.compile folds it as it folds torch's."""


def _cast(t: object, dtype: torch.dtype) -> object:
    if (isinstance(t, torch.Tensor) and t.is_cuda and t.is_floating_point() and t.dtype is not torch.float64
            and t.dtype is not dtype):
        return t.to(dtype)
    return t


def cast(*tensors: object) -> tuple:
    """``tensors`` as autocast would hand them to a lower-precision op: each floating CUDA tensor
    other than a float64 one in the autocast dtype; anything else (None, CPU tensors, integers,
    float64) as it is."""
    dtype = torch.get_autocast_dtype("cuda")
    return tuple(_cast(t, dtype) for t in tensors)
