"""``warpgemm.matmul`` for 4-bit operands: packed int4 x packed int4 -> int32, exactly.

``warpgemm.matmul(a, w.t())`` with ``a`` and ``w`` :class:`warpgemm.int4.Packed` comes here
(``api.matmul`` hands it over before anything else). A call: check the operands (both Packed, A
as built (M, K), B = W^T, one signedness, one K); pick the kernel (``dispatch``, dtype ``int4`` or
``uint4``) or take the named one of the ``int4`` family; give each operand 16-byte aligned rows
(in place when it has them, else a zero-padded copy; for a kernel that would multiply an odd K's
pad nibble, ``catalog.int4.CLEARS_PAD_ON_HOST``, a copy of the operand with fewer rows with the pad
cleared); launch on torch's current stream through ``api.run_instance`` (the persistent kernels'
grid, tensor maps and split workspace).

The sums are int32: exact while they fit, which any K up to ``catalog.int4.k_max(signed)``
guarantees (33554431 for s4, 9544371 for u4); longer sums wrap as int32 additions do. One kernel
has a shorter bound: int4/06 with s4 (``catalog.int4.exact_k_limit``: K <= 131071), and a longer
K named for it is refused; ``kernel="auto"`` takes int4/05 there.

Under ``torch.compile`` the call is the registered op ``torch.ops.warpgemm.int4_mm``
(:mod:`warpgemm.torch_ops`), which comes here.
"""

from __future__ import annotations

from typing import Any

import torch

from . import catalog, dispatch
from .api import run_instance
from .catalog.int4 import CALLED_BY, CLEARS_PAD_ON_HOST, exact_k_limit
from .errors import NoDeviceError
from .int4 import Packed
from .operands import Operand
from .runtime.device import current_capability, has_device

WHO = "warpgemm.matmul"
_INT32_MAX = 2**31 - 1


def check(a: Any, b: Any, out_dtype: Any = None, bias: Any = None, kernel: str = "auto",
          params: dict[str, int] | None = None) -> tuple[int, int, int, str]:
    """Every check that needs no device: (M, N, K, input dtype name ``int4`` or ``uint4``)."""
    for label, x in (("a", a), ("b", b)):
        if not isinstance(x, Packed):
            raise TypeError(f"{WHO}: with 4-bit operands both a and b must be warpgemm.int4.Packed; {label} is "
                            f"{type(x).__name__} (wrap packed bytes as int4.Packed(data, k, signed=...))")
    if a.transposed:
        raise ValueError(f"{WHO}: a must be an int4.Packed as built, (M, K) packed along K; got a transposed one "
                         f"(shape {a.shape}): 4-bit operands are read packed along K only")
    if not b.transposed:
        raise ValueError(f"{WHO}: b must be W.t() for an int4.Packed W (N, K) packed along K (B = W^T, the "
                         f"nn.Linear layout); got an untransposed one of shape {b.shape}")
    if a.signed != b.signed:
        kinds = ("s4" if a.signed else "u4", "s4" if b.signed else "u4")
        raise TypeError(f"{WHO}: mixed signedness: a is {kinds[0]}, b is {kinds[1]}; the 4-bit mma multiplies "
                        "both signed or both unsigned (repack one of them)")
    if a.k != b.k:
        raise ValueError(f"{WHO}: inner dimensions differ: a is {a.shape}, b is {b.shape} "
                         f"(a holds K = {a.k} values a row, W = b.t() holds {b.k})")
    m, n, k = a.rows, b.rows, a.k
    for label, x in (("a", a), ("b", b)):
        if max(x.shape) > _INT32_MAX:
            raise ValueError(f"{WHO}: {label} has a dimension over 2**31-1: {x.shape}")
    if out_dtype is not None and out_dtype is not torch.int32:
        raise ValueError(f"{WHO}: 4-bit inputs produce torch.int32, not {out_dtype}")
    if bias is not None:
        if not isinstance(bias, torch.Tensor):
            raise TypeError(f"{WHO}: bias must be a torch.Tensor, got {type(bias).__name__}")
        if bias.dim() != 1 or bias.shape[0] != n or bias.dtype is not torch.int32:
            raise ValueError(f"{WHO}: with 4-bit operands bias must be N = {n} int32 values, got "
                             f"{tuple(bias.shape)} {bias.dtype}")
    if kernel != "auto":
        spec = catalog.get(kernel)  # unknown names fail here
        if spec.family != "int4":
            int4_names = ", ".join(s.name for s in catalog.kernels("int4"))
            raise ValueError(f"{WHO}: {kernel} does not read 4-bit operands; the int4 kernels are {int4_names}")
    elif params:
        raise TypeError(f"{WHO}: template parameters need an explicit kernel=... name")
    return m, n, k, a.dtype_name


def spec_for(kernel: str, capability: int, in_name: str, m: int, n: int, k: int,
             params: dict[str, int]) -> tuple[catalog.KernelSpec, dict[str, int]]:
    """The spec to run and its parameters (the dispatch rule's, overridden by ``params``)."""
    if kernel != "auto":
        spec, chosen = catalog.get(kernel), dict(params)
    else:
        rule = dispatch.choose(capability, in_name, m, n, k, layouts=(catalog.ROW, catalog.COL))
        spec, chosen = catalog.get(rule.kernel), dict(rule.params)
    if not spec.runs_on(capability):
        raise ValueError(f"{WHO}: {spec.name} needs {spec.needs()}; this device is compute capability "
                         f"{capability // 10}.{capability % 10}")
    limit = exact_k_limit(spec.name, in_name == "int4")
    if limit is not None and k > limit:
        raise ValueError(f"{WHO}: {spec.name} multiplies s4 values as 16 times themselves, so its int32 sums "
                         f"are exact only up to K = {limit}; got K = {k} (kernel='auto' or "
                         f"int4/05_widen_to_s8_wgmma serve it)")
    return spec, chosen


def aligned_rows(p: Packed, clear_pad: bool = False) -> tuple[torch.Tensor, int]:
    """``p``'s bytes with a 16-byte aligned base and rows a multiple of 16 bytes apart, and that
    row distance: the bytes themselves where they are so, else a copy in a zeroed buffer. With
    ``clear_pad`` and an odd K, always a copy, whose pad nibbles (the high nibble of each row's
    last byte) are zero."""
    data = p.data
    nbytes = data.shape[1]
    pad = clear_pad and p.k % 2 == 1
    ld = data.stride(0) if data.shape[0] > 1 else -(-max(nbytes, 1) // 16) * 16
    if not pad and data.data_ptr() % 16 == 0 and ld % 16 == 0 and ld >= nbytes:
        return data, ld
    ld = -(-max(nbytes, 1) // 16) * 16
    buf = torch.zeros((data.shape[0], ld), dtype=torch.uint8, device=data.device)
    buf[:, :nbytes].copy_(data)
    if pad:
        buf[:, nbytes - 1].bitwise_and_(0x0F)
    return buf, ld


def matmul(a: Packed, b: Packed, *, out_dtype: torch.dtype | None = None, bias: torch.Tensor | None = None,
           kernel: str = "auto", out: torch.Tensor | None = None, **params: int) -> torch.Tensor:
    """``a @ b`` for ``a`` = A (M, K) and ``b`` = W.t() (W (N, K)), both :class:`~warpgemm.int4.Packed`
    of one signedness, as a new (M, N) torch.int32 tensor (or into ``out``, a contiguous (M, N)
    int32 CUDA tensor), plus ``bias`` (N int32 values) when given. ``kernel`` is ``"auto"`` or an
    ``int4/...`` name, with ``params`` for its template."""
    m, n, k, in_name = check(a, b, out_dtype, bias, kernel, params)
    if not has_device():
        raise NoDeviceError(f"{WHO} needs a CUDA device, and none is available (torch.cuda.is_available() is False)")
    device = a.device
    for label, x in (("a", a), ("b", b)):
        if x.device.type != "cuda":
            raise ValueError(f"{WHO}: {label} is on {x.device}; warpgemm computes on CUDA tensors (move the "
                             "bytes with .cuda())")
    if b.device != device or (bias is not None and bias.device != device):
        raise ValueError(f"{WHO}: the operands must share one device: a is on {device}, b on {b.device}"
                         + (f", bias on {bias.device}" if bias is not None else ""))
    if out is not None:
        if not isinstance(out, torch.Tensor):
            raise TypeError(f"{WHO}: out must be a torch.Tensor, got {type(out).__name__}")
        if tuple(out.shape) != (m, n) or out.dtype is not torch.int32 or out.device != device:
            raise ValueError(f"{WHO}: out must be ({m}, {n}) torch.int32 on {device}, got "
                             f"{tuple(out.shape)} {out.dtype} on {out.device}")
        if not out.is_contiguous():
            raise ValueError(f"{WHO}: out must be contiguous (row-major)")
    with torch.cuda.device(device):
        capability = current_capability()
        spec, chosen = spec_for(kernel, capability, in_name, m, n, k, params)
        inst = spec.instance(catalog.ROW, catalog.COL, in_name, "int32", chosen)
        c = out if out is not None else torch.empty((m, n), dtype=torch.int32, device=device)
        if m == 0 or n == 0:
            return c
        if k == 0:
            return c.zero_() if bias is None else c.copy_(bias.expand(m, n))
        # A kernel that multiplies the pad nibble gets it cleared in one operand: zero times anything.
        clear_a = spec.name in CLEARS_PAD_ON_HOST and m <= n
        clear_b = spec.name in CLEARS_PAD_ON_HOST and m > n
        (da, lda), (db, ldb) = aligned_rows(a, clear_a), aligned_rows(b, clear_b)
        oa = Operand(da, catalog.ROW, lda, da is not a.data)
        ob = Operand(db, catalog.COL, ldb, db is not b.data)
        index = device.index if device.index is not None else torch.cuda.current_device()
        run_instance(inst, oa, ob, c, m, n, k, index)
        if bias is not None:
            c.add_(bias)
        return c


__all__ = ["CALLED_BY", "aligned_rows", "check", "matmul", "spec_for"]
