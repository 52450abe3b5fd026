"""The scaled int8 product (W8A8): ``warpgemm.scaled_matmul``.

Quantised inference keeps weights in int8 with one fp32 scale per output channel and quantises
each token's activations with a scale of its own. ``scaled_matmul`` computes, from the int8
operands and their scales,

    out = (a @ b) * scale_a[:, None] * scale_b[None, :] + bias

with the int8 product summed exactly in int32, then the scaling and the bias in fp32 and one
rounding to ``out_dtype``, all in the int8 kernel's epilogue: ``igemm/07_scaled_tma_store``,
which stores through shared memory and TMA behind the next tile's main loop; up to 64 rows of
``a``, ``igemm/06_scaled_swap_ab``, which streams the weight once through the wgmma pipeline; up
to ``GEMV_MAX_M`` rows and ``GEMV_MAX_N`` channels (and before sm_90 up to 64 rows),
``igemm/08_scaled_swap_ab_splitk``, which streams it with mma.sync fragments read straight from
global memory. The call is the registered op ``torch.ops.warpgemm.scaled_mm``, with a fake implementation, so it
traces under ``torch.compile``.
"""

from __future__ import annotations

from typing import Any

import torch

from . import api, catalog, dtypes, torch_ops  # noqa: F401  (torch_ops registers warpgemm::scaled_mm)
from .catalog.igemm import Scales

KERNEL = "igemm/07_scaled_tma_store"
DECODE_KERNEL = "igemm/06_scaled_swap_ab"
DECODE_MAX_M = 64
"""Up to this many rows of ``a`` (tokens), the swap-AB kernel: the weight streamed once, on
wgmma's M side."""
GEMV_KERNEL = "igemm/08_scaled_swap_ab_splitk"
GEMV_MAX_M = 16
GEMV_MAX_N = 12287
"""Up to GEMV_MAX_M rows of ``a`` and GEMV_MAX_N columns of ``b``, the split-K kernel (on sm_90;
before sm_90, for every M up to 64, the only one there is). Measured on an H100
(scripts/scaled_bench.py --compare, docs/results/scaled_h100.json): at 4096 x 4096 it takes
7.8-8.6 us for 1-16 rows against the swap-AB kernel's 10.1-10.2 us; at 14336 x 4096 the two are
even at one row (22.6 and 22.9 us) and the swap-AB kernel is ahead from 4 rows on (23.2 against
23.4 us, 23.5 against 26.5 us at 16)."""
WHO = "warpgemm.scaled_matmul"
OUT_DTYPES = (torch.bfloat16, torch.float16, torch.float32)


def scaled_matmul(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor, scale_b: torch.Tensor,
                  bias: torch.Tensor | None = None, out_dtype: torch.dtype = torch.bfloat16,
                  out: torch.Tensor | None = None) -> torch.Tensor:
    """``(a @ b) * scale_a[:, None] * scale_b[None, :] + bias`` for int8 ``a`` (M, K) and ``b``
    (K, N), rounded once to ``out_dtype`` (bfloat16, float16 or float32).

    ``scale_a`` is one value per row of ``a`` (per token: shape (M,) or (M, 1)) or a single value;
    ``scale_b`` one per column of ``b`` (per output channel: (N,) or (1, N)) or a single value;
    ``bias`` N values. Scales and bias may be any floating dtype; the kernel reads them in fp32.
    The int8 product is exact (int32 sums: K <= 131071 for full-range operands). Up to 64 rows
    of ``a`` run on compute capability 8.0 and later (the split-K mma.sync kernel); more need 9.0
    (the s8 wgmma kernels). ``out``, when given, is a contiguous (M, N) tensor of ``out_dtype`` on
    ``a``'s device that the kernel writes (under ``torch.compile``, the op's result is copied
    into it).
    """
    if out is None:
        return torch.ops.warpgemm.scaled_mm(a, b, scale_a, scale_b, bias, out_dtype)
    if torch.compiler.is_compiling():
        return out.copy_(torch.ops.warpgemm.scaled_mm(a, b, scale_a, scale_b, bias, out_dtype))
    return scaled_impl(a, b, scale_a, scale_b, bias, out_dtype, out)


def _steps(a: Any, b: Any, scale_a: Any, scale_b: Any, bias: Any, out_dtype: Any) -> tuple[int, int]:
    """Every check that needs no device; the steps of the two scales (0: one value, 1: one per
    row of A / column of B)."""
    for label, t in (("a", a), ("b", b), ("scale_a", scale_a), ("scale_b", scale_b)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{WHO}: {label} must be a torch.Tensor, got {type(t).__name__}")
    for label, t in (("a", a), ("b", b)):
        if t.dtype != torch.int8:
            raise TypeError(f"{WHO}: {label} must be int8, got {t.dtype}")
    api._check_operands(a, b, WHO)
    m, n = a.shape[0], b.shape[1]
    steps = []
    for label, t, rows, per in (("scale_a", scale_a, m, "row of a (per token)"),
                                ("scale_b", scale_b, n, "column of b (per channel)")):
        if not t.is_floating_point():
            raise TypeError(f"{WHO}: {label} must be a floating tensor, got {t.dtype}")
        per_row = (rows,), ((rows, 1) if label == "scale_a" else (1, rows))
        if not (t.numel() == 1 and t.dim() <= 2) and tuple(t.shape) not in per_row:
            raise ValueError(f"{WHO}: {label} must hold one value or one per {per}, "
                             f"i.e. {rows} values; got shape {tuple(t.shape)}")
        steps.append(0 if t.numel() == 1 else 1)
    if bias is not None:
        if not isinstance(bias, torch.Tensor) or not bias.is_floating_point():
            raise TypeError(f"{WHO}: bias must be a floating torch.Tensor")
        if tuple(bias.shape) != (n,):
            raise ValueError(f"{WHO}: bias must be 1-D with N = {n} values, got shape "
                             f"{tuple(bias.shape)}")
    if out_dtype not in OUT_DTYPES:
        raise ValueError(f"{WHO}: out_dtype must be one of {', '.join(map(str, OUT_DTYPES))}, "
                         f"got {out_dtype}")
    return steps[0], steps[1]


def _fp32(t: torch.Tensor, device: torch.device) -> torch.Tensor:
    if t.device != device:
        raise ValueError(f"{WHO}: every tensor must be on {device}, got one on {t.device}")
    return t.reshape(-1).to(torch.float32).contiguous()


def kernel_for(m: int, n: int, capability: int = 90) -> str:
    """The scaled kernel for ``m`` rows of ``a`` (tokens) and ``n`` columns of ``b`` (channels) on
    a device of compute capability ``capability`` (major * 10 + minor)."""
    if m <= DECODE_MAX_M and (capability < 90 or (m <= GEMV_MAX_M and n <= GEMV_MAX_N)):
        return GEMV_KERNEL
    return DECODE_KERNEL if m <= DECODE_MAX_M else KERNEL


def scaled_impl(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor, scale_b: torch.Tensor,
                bias: torch.Tensor | None, out_dtype: torch.dtype | None,
                out: torch.Tensor | None = None) -> torch.Tensor:
    """The op's implementation (and ``scaled_matmul``'s with ``out``): check, prepare the
    operands, launch the scaled kernel into a new tensor or ``out``."""
    from .operands import detect
    from .runtime.device import current_capability

    out_dtype = out_dtype or torch.bfloat16
    step_a, step_b = _steps(a, b, scale_a, scale_b, bias, out_dtype)
    (m, k), n = a.shape, b.shape[1]
    if out is not None:
        api._check_out(out, (m, n), out_dtype, a.device, WHO)
    api._check_devices(a, b, WHO)
    device = a.device
    with api._on_device(device):
        capability = current_capability()
        spec = catalog.get(kernel_for(m, n, capability))
        if not spec.runs_on(capability):
            raise ValueError(f"{WHO} with {m} rows of a needs {spec.needs()} ({spec.name}); this device "
                             f"is compute capability {capability // 10}.{capability % 10}")
        c = out if out is not None else torch.empty((m, n), dtype=out_dtype, device=device)
        sa, sb = _fp32(scale_a, device), _fp32(scale_b, device)
        bias32 = _fp32(bias, device) if bias is not None else None
        if m == 0 or n == 0:
            return c
        if k == 0:
            return c.copy_(bias32.expand(m, n)) if bias32 is not None else c.zero_()
        oa, ob = api._operands(spec, a, b, detect(a), detect(b))
        params = dict(spec.shape_params(m, n, k)) if spec.shape_params is not None else None
        inst = spec.instance(oa.layout, ob.layout, "int8", dtypes.name_of(out_dtype), params)
        api.run_instance(inst, oa, ob, c, m, n, k, device.index, Scales(sa, step_a, sb, step_b, bias32))
        return c


def scaled_fake(a: torch.Tensor, b: torch.Tensor, scale_a: torch.Tensor, scale_b: torch.Tensor,
                bias: torch.Tensor | None, out_dtype: torch.dtype | None) -> torch.Tensor:
    """Shapes and dtypes only, for torch.compile."""
    out_dtype = out_dtype or torch.bfloat16
    _steps(a, b, scale_a, scale_b, bias, out_dtype)
    return a.new_empty((a.shape[0], b.shape[1]), dtype=out_dtype)
