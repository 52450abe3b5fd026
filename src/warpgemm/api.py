"""The public entry points: ``matmul``, ``kernels`` and ``compile``."""

from __future__ import annotations

import contextlib
import functools
from typing import Any

import numpy as np
import torch

from . import catalog, tune
from .catalog import KernelSpec
from .errors import NoDeviceError
from .operands import detect, prepare
from .runtime import CompiledKernel, compile_kernel, launch
from .runtime.device import capability_of_arch, current_arch, current_capability, has_device, require_arch

_AUTO = {torch.float16: "hgemm/07_tuned", torch.bfloat16: "hgemm/07_tuned"}
# (float32 follows torch.get_float32_matmul_precision(): see _auto_kernel)
"""The kernel ``kernel="auto"`` runs for each input dtype."""
_INT32_MAX = 2**31 - 1


def kernels(family: str | None = None) -> list[KernelSpec]:
    """The catalogue: a :class:`KernelSpec` for every kernel, or for one ``family``."""
    return catalog.kernels(family)


def compile(name: str, arch: str | None = None, *, a_layout: str = "row", b_layout: str = "row",
            in_dtype: str | None = None, out_dtype: str | None = None, **params: int) -> CompiledKernel:
    """Compile catalogue kernel ``name`` for ``arch`` (default: the current device's) and
    return it, with ptxas's ``.registers``, ``.spill_bytes`` and ``.shared_bytes``.
    Works without a GPU when ``arch`` is given, e.g. ``compile("sgemm/07_cp_async", "sm_90a")``.
    ``in_dtype`` / ``out_dtype`` (torch dtype names) pick the instantiation of typed kernels."""
    spec = catalog.get(name)
    for what, dt, allowed in (("in_dtype", in_dtype, spec.in_dtypes), ("out_dtype", out_dtype, spec.out_dtypes)):
        if dt is not None and dt not in allowed:
            raise ValueError(f"{name}: {what} must be one of {', '.join(allowed)}, got {dt!r}")
    for what, layout in (("a_layout", a_layout), ("b_layout", b_layout)):
        if layout not in (catalog.ROW, catalog.COL):
            raise ValueError(f"{what} must be 'row' or 'col', got {layout!r}")
    if (a_layout, b_layout) not in spec.layouts:
        raise ValueError(f"{name} does not read A {a_layout}-major with B {b_layout}-major")
    p = spec.resolve(params)
    require_arch(name, spec.min_arch, arch or current_arch())
    return compile_kernel(spec.source, spec.name_expression(a_layout == catalog.ROW,
                                                            b_layout == catalog.ROW, p, in_dtype, out_dtype), arch)


_DTYPE_NAMES = {torch.float32: "float32", torch.float16: "float16", torch.bfloat16: "bfloat16",
                torch.int8: "int8", torch.int32: "int32"}


def _dtype_name(dtype: torch.dtype) -> str:
    name = _DTYPE_NAMES.get(dtype)
    return name if name is not None else str(dtype).removeprefix("torch.")


@functools.lru_cache(maxsize=None)
def _supported_dtypes() -> tuple[torch.dtype, ...]:
    names = {d for s in catalog.CATALOG for d in s.in_dtypes}
    return tuple(d for d in (torch.float32, torch.float16, torch.bfloat16, torch.int8)
                 if _dtype_name(d) in names)


def _check_operands(a: Any, b: Any) -> None:
    for label, t in (("a", a), ("b", b)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"warpgemm.matmul: {label} must be a torch.Tensor, got {type(t).__name__}")
    for label, t in (("a", a), ("b", b)):
        if t.dim() != 2:
            raise ValueError(f"warpgemm.matmul: {label} must be 2-D, got {t.dim()}-D with shape "
                             f"{tuple(t.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"warpgemm.matmul: a and b must have the same dtype, got {a.dtype} and {b.dtype}")
    if a.dtype not in _supported_dtypes():
        names = ", ".join(str(d) for d in _supported_dtypes())
        raise TypeError(f"warpgemm.matmul: dtype {a.dtype} is not supported (supported: {names})")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"warpgemm.matmul: inner dimensions differ: a is {tuple(a.shape)}, "
                         f"b is {tuple(b.shape)} (a.shape[1] must equal b.shape[0])")
    for label, t in (("a", a), ("b", b)):
        if any(s > _INT32_MAX for s in t.shape):
            raise ValueError(f"warpgemm.matmul: {label} has a dimension over 2**31-1: {tuple(t.shape)}")


def _auto_kernel(dtype: torch.dtype) -> str:
    if dtype == torch.float32:
        if torch.get_float32_matmul_precision() == "highest":
            return "sgemm/07_cp_async" if current_capability() >= 80 else "sgemm/06_k16_double_buffer"
        return "sgemm/08_tf32_mma"
    return _AUTO[dtype]  # type: ignore[return-value]


def _choose(a: torch.Tensor, kernel: str, out_dtype: torch.dtype) -> KernelSpec:
    spec = catalog.get(_auto_kernel(a.dtype) if kernel == "auto" else kernel)
    dtype = _dtype_name(a.dtype)
    if dtype not in spec.in_dtypes:
        raise TypeError(f"warpgemm.matmul: {spec.name} takes {', '.join(spec.in_dtypes)} "
                        f"inputs, got {dtype}")
    return spec


def _check_out_dtype(spec: KernelSpec, out_dtype: torch.dtype) -> None:
    out = _dtype_name(out_dtype)
    if out not in spec.out_dtypes:
        raise ValueError(f"warpgemm.matmul: {spec.name} writes {', '.join(spec.out_dtypes)}, "
                         f"not {out}")


def _resolve_out_dtype(a: torch.Tensor, out_dtype: torch.dtype | None) -> torch.dtype:
    if out_dtype is None:
        return a.dtype
    if not isinstance(out_dtype, torch.dtype):
        raise TypeError(f"warpgemm.matmul: out_dtype must be a torch.dtype, got {out_dtype!r}")
    if a.dtype == torch.float32 and out_dtype != torch.float32:
        raise ValueError(f"warpgemm.matmul: float32 inputs produce float32, not {out_dtype}")
    if a.dtype in (torch.float16, torch.bfloat16) and out_dtype not in (a.dtype, torch.float32):
        raise ValueError(f"warpgemm.matmul: {a.dtype} inputs produce {a.dtype} or torch.float32, "
                         f"not {out_dtype}")
    return out_dtype


def matmul(a: torch.Tensor, b: torch.Tensor, *, out_dtype: torch.dtype | None = None,
           kernel: str = "auto", out: torch.Tensor | None = None, **params: int) -> torch.Tensor:
    """``a @ b`` for 2-D CUDA tensors, computed by a warpgemm kernel.

    ``kernel="auto"`` picks the best kernel for the dtype; for float32 it follows
    ``torch.get_float32_matmul_precision()``: ``"highest"`` computes in fp32 FMA,
    ``"high"`` and ``"medium"`` use TF32 tensor cores. Any catalogue name (for example
    ``"sgemm/05_double_buffer"``) runs that kernel; ``params`` override its template
    parameters (for example ``STAGES=2``). Row- and column-major operands are read in place;
    other strides are copied first. The result is a new contiguous (M, N) tensor, or ``out``
    when given (a contiguous (M, N) CUDA tensor of the output dtype, overwritten).
    """
    _check_operands(a, b)
    out_type = _resolve_out_dtype(a, out_dtype)
    if kernel != "auto":
        catalog.get(kernel)  # unknown names fail before anything else
    elif params:
        raise TypeError("warpgemm.matmul: template parameters need an explicit kernel=... name")
    if not has_device():
        raise NoDeviceError("warpgemm.matmul needs a CUDA device, and none is available "
                            "(torch.cuda.is_available() is False)")
    for label, t in (("a", a), ("b", b)):
        if not t.is_cuda:
            raise ValueError(f"warpgemm.matmul: {label} is on {t.device}; warpgemm computes on "
                             "CUDA tensors (move it with .cuda())")
    if a.device != b.device:
        raise ValueError(f"warpgemm.matmul: a is on {a.device} and b on {b.device}; "
                         "they must share one device")

    m, k = a.shape
    n = b.shape[1]
    if out is not None:
        _check_out(out, (m, n), out_type, a.device)
    with _on_device(a.device):
        spec = _choose(a, kernel, out_type)
        _check_out_dtype(spec, out_type)
        p = tune.choose(spec, _problem(a, b, out_type), params)
        if current_capability() < spec.min_arch:
            raise ValueError(f"warpgemm.matmul: {spec.name} needs compute capability "
                             f"{spec.min_arch // 10}.{spec.min_arch % 10} or newer")
        c = out if out is not None else torch.empty((m, n), dtype=out_type, device=a.device)
        if m == 0 or n == 0:
            return c
        if k == 0:
            return c.zero_()
        _run(spec, p, a, b, c)
        return c


def _on_device(device: torch.device):
    """Make ``device`` current for the call, unless it already is (the common case)."""
    if device.index == torch.cuda.current_device():
        return contextlib.nullcontext()
    return torch.cuda.device(device)


def _problem(a: torch.Tensor, b: torch.Tensor, out_type: torch.dtype) -> tune.Problem:
    la = detect(a)
    lb = detect(b)
    return tune.Problem(a.shape[0], b.shape[1], a.shape[1], _dtype_name(a.dtype), _dtype_name(out_type),
                        la[0] if la else catalog.ROW, lb[0] if lb else catalog.ROW)


def _check_out(out: Any, shape: tuple[int, int], dtype: torch.dtype, device: torch.device) -> None:
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"warpgemm.matmul: out must be a torch.Tensor, got {type(out).__name__}")
    if tuple(out.shape) != shape or out.dtype != dtype or out.device != device:
        raise ValueError(f"warpgemm.matmul: out must be {shape} {dtype} on {device}, got "
                         f"{tuple(out.shape)} {out.dtype} on {out.device}")
    if not out.is_contiguous():
        raise ValueError("warpgemm.matmul: out must be contiguous (row-major)")


_kernels: dict[tuple, CompiledKernel] = {}
"""Compiled kernels by (spec, layouts, parameters, dtypes, device): the per-call lookup."""


def _run(spec: KernelSpec, params: dict[str, int], a: torch.Tensor, b: torch.Tensor,
         c: torch.Tensor) -> None:
    m, k = a.shape
    n = b.shape[1]
    a_layouts = {la for la, _ in spec.layouts}
    oa = prepare(a, a_layouts, spec.align_elems)
    b_layouts = {lb for la, lb in spec.layouts if la == oa.layout}
    ob = prepare(b, b_layouts, spec.align_elems)
    key = (spec.name, oa.layout, ob.layout, tuple(params.values()), a.dtype, c.dtype,
           a.device.index)
    ck = _kernels.get(key)
    if ck is None:
        arch = current_arch()
        assert capability_of_arch(arch) >= spec.min_arch
        ck = _kernels[key] = compile_kernel(
            spec.source, spec.name_expression(oa.layout == catalog.ROW, ob.layout == catalog.ROW, params,
                                              _dtype_name(a.dtype), _dtype_name(c.dtype)), arch)
    launch(ck, spec.launch_grid(m, n, params), (spec.threads(params), 1, 1),
           (oa.tensor, ob.tensor, c, np.int32(m), np.int32(n), np.int32(k),
            np.int32(oa.ld), np.int32(ob.ld), np.int32(n)),
           shared_bytes=spec.smem_bytes(params), device=a.device.index)
