"""The public entry points: ``matmul``, ``kernels`` and ``compile``.

A ``matmul`` call: validate the operands; pick the kernel (``dispatch``) and its parameters
(``tuning.table``); make the operands readable in place (``operands``); take the kernel
instance (``KernelSpec.instance``), which owns the launch; launch.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any, Mapping

import torch

from . import autocast, catalog, dispatch, dtypes, plan, torch_ops
from .autocast import enabled as _autocast_enabled
from .int4 import Packed as _Packed4
from .catalog import KernelInstance, KernelSpec, Workspace
from .errors import NoDeviceError
from .operands import Operand, detect, prepare
from .runtime import CompiledKernel, compile_kernel, launch
from .runtime.launch import DriverLaunch, blocks_that_fit, planned_args, resident_blocks, zeroed_counters
from .runtime.device import arch_of, current_arch, current_capability, device_name, has_device, require_arch, sm_count
from .tuning import table

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
    if in_dtype is not None and in_dtype not in spec.in_dtypes:
        raise ValueError(f"{name}: in_dtype must be one of {', '.join(spec.in_dtypes)}, got {in_dtype!r}")
    if out_dtype is not None and out_dtype not in spec.out_dtypes:
        raise ValueError(f"{name}: out_dtype must be one of {', '.join(spec.out_dtypes)}, got {out_dtype!r}")
    inst = spec.instance(a_layout, b_layout, in_dtype, out_dtype, params)
    require_arch(name, spec.min_capability, arch or current_arch(), spec.arch_specific)
    return compile_kernel(inst.source, inst.name_expression, arch)


@functools.lru_cache(maxsize=None)
def _outputs() -> dict[str, tuple[str, ...]]:
    """Input dtype name -> every output dtype some kernel writes for it."""
    outs: dict[str, dict[str, None]] = {}
    for spec in catalog.CATALOG:
        if spec.called_by is not None:  # not reached through matmul
            continue
        for din, douts in spec.outputs.items():
            outs.setdefault(din, {}).update(dict.fromkeys(douts))
    return {din: tuple(d) for din, d in outs.items()}


@functools.lru_cache(maxsize=None)
def _supported_dtypes() -> tuple[torch.dtype, ...]:
    return tuple(dtypes.torch_dtype(name) for name in _outputs())


def _check_operands(a: Any, b: Any, who: str = "warpgemm.matmul") -> None:
    """Two 2-D tensors of one supported dtype whose inner dimensions agree; errors name ``who``."""
    for label, t in (("a", a), ("b", b)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{who}: {label} must be a torch.Tensor, got {type(t).__name__}")
    for label, t in (("a", a), ("b", b)):
        if t.dim() != 2:
            raise ValueError(f"{who}: {label} must be 2-D, got {t.dim()}-D with shape "
                             f"{tuple(t.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"{who}: a and b must have the same dtype, got {a.dtype} and {b.dtype}")
    if a.dtype not in _supported_dtypes():
        names = ", ".join(str(d) for d in _supported_dtypes())
        raise TypeError(f"{who}: dtype {a.dtype} is not supported (supported: {names})")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"{who}: inner dimensions differ: a is {tuple(a.shape)}, "
                         f"b is {tuple(b.shape)} (a.shape[1] must equal b.shape[0])")
    for label, t in (("a", a), ("b", b)):
        if any(s > _INT32_MAX for s in t.shape):
            raise ValueError(f"{who}: {label} has a dimension over 2**31-1: {tuple(t.shape)}")


def _check_out_dtype(in_name: str, out_dtype: Any) -> str | None:
    """The output dtype's name, checked against what any kernel writes for ``in_name`` inputs;
    None when the caller left it to the kernel."""
    if out_dtype is None:
        return None
    if not isinstance(out_dtype, torch.dtype):
        raise TypeError(f"warpgemm.matmul: out_dtype must be a torch.dtype, got {out_dtype!r}")
    out_name = dtypes.name_of(out_dtype)
    allowed = _outputs()[in_name]
    if out_name not in allowed:
        raise ValueError(f"warpgemm.matmul: {in_name} inputs produce {' or '.join(allowed)}, not {out_dtype}")
    return out_name


def _spec_for(kernel: str, capability: int, in_name: str, m: int, n: int, k: int,
              la: tuple[str, int] | None, lb: tuple[str, int] | None) -> tuple[KernelSpec, Mapping[str, int]]:
    """The spec to run and the dispatch rule's parameters (empty for a named kernel)."""
    if kernel != "auto":
        return catalog.get(kernel), {}
    layouts = (la[0] if la else catalog.ROW, lb[0] if lb else catalog.ROW)
    rule = dispatch.choose_auto(capability, in_name, m, n, k, layouts, device_name(torch.cuda.current_device()))
    return catalog.get(rule.kernel), rule.params


def _check_bias(bias: Any, n: int, a: torch.Tensor) -> None:
    if not isinstance(bias, torch.Tensor):
        raise TypeError(f"warpgemm.matmul: bias must be a torch.Tensor, got {type(bias).__name__}")
    if bias.dim() != 1 or bias.shape[0] != n:
        raise ValueError(f"warpgemm.matmul: bias must be 1-D with N = {n} elements, got shape {tuple(bias.shape)}")
    if bias.dtype != a.dtype:
        raise TypeError(f"warpgemm.matmul: bias must have the inputs' dtype {a.dtype}, got {bias.dtype}")
    if bias.device != a.device:
        raise ValueError(f"warpgemm.matmul: bias is on {bias.device}, the inputs on {a.device}")


def _fit_params(spec: KernelSpec, p: dict[str, int], explicit: Mapping[str, int], m: int, n: int,
                k: int) -> dict[str, int]:
    """``p`` with the parameters that follow from the shape (those not in ``explicit``: the
    caller's, the tuning table's or the dispatch rule's), checked against the largest M and K the
    kernel computes."""
    spec.fill_shape_params(p, explicit, m, n, k)
    if spec.max_m is not None and m > spec.max_m(p):
        raise ValueError(f"warpgemm.matmul: {spec.name} computes at most M = {spec.max_m(p)} rows with "
                         f"{', '.join(f'{key}={v}' for key, v in p.items())}; got M = {m}")
    if spec.max_k is not None and k > spec.max_k(p):
        raise ValueError(f"warpgemm.matmul: {spec.name} computes at most K = {spec.max_k(p)} with "
                         f"{', '.join(f'{key}={v}' for key, v in p.items())}; got K = {k}")
    return p


def matmul(a: torch.Tensor, b: torch.Tensor, *, out_dtype: torch.dtype | None = None,
           bias: torch.Tensor | None = None, kernel: str = "auto", out: torch.Tensor | None = None,
           **params: int) -> torch.Tensor:
    """``a @ b`` (+ ``bias``) for 2-D CUDA tensors, computed by a warpgemm kernel; for
    :class:`warpgemm.int4.Packed` operands, the exact int32 product of 4-bit integers
    (:mod:`warpgemm.int4_matmul`).

    ``kernel="auto"`` picks the kernel and its parameters from the shipped dispatch rules
    (:mod:`warpgemm.dispatch`) for this GPU, dtype, shape and operand layout; for float32 it
    follows ``torch.get_float32_matmul_precision()``: ``"highest"`` computes in fp32 FMA,
    ``"high"`` and ``"medium"`` use TF32 tensor cores. Any catalogue name (for example
    ``"sgemm/05_double_buffer"``) runs that kernel; ``params`` override its template parameters
    (for example ``STAGES=2``). ``out_dtype`` defaults to the kernel's default output for the
    input dtype (the input dtype for floats). ``bias`` (N values of the inputs' dtype) is added
    to every row: in the kernel's epilogue, in fp32 before the one rounding, where the kernel
    has one (the fp16/bf16 paths), else after. Row- and column-major operands are read in place;
    other strides are copied first. The result is a new contiguous (M, N) tensor, or ``out``
    when given (a contiguous (M, N) CUDA tensor of the output dtype, overwritten). Inside
    ``torch.autocast("cuda")`` a call without ``out`` computes in the autocast dtype, as
    ``torch.matmul`` does (:mod:`warpgemm.autocast`). ``a`` and ``b`` share one device, which
    need not be the current one: the kernel runs there, and the current device is left as it was
    (a model split over several GPUs calls it so).

    The call is the registered op ``torch.ops.warpgemm.mm`` (``int4_mm`` for 4-bit operands): under
    ``torch.compile``, CUDA-graph capture and autograd it is that op, which autocast reaches too
    when it is called directly. An eager call that needs no gradient calls the op's
    implementation directly, and a repeated problem (same shapes, strides, dtypes, devices)
    launches from its plan (:mod:`warpgemm.plan`), without validating or choosing again.
    """
    if isinstance(a, _Packed4) or isinstance(b, _Packed4):  # 4-bit operands: their own path
        from .int4_matmul import check, matmul as int4_matmul

        if not torch.compiler.is_compiling():
            return int4_matmul(a, b, out_dtype=out_dtype, bias=bias, kernel=kernel, out=out, **params)
        check(a, b, out_dtype, bias, kernel, params)  # traced: the same errors before the op
        c = torch.ops.warpgemm.int4_mm(a.data, b.data, a.k, a.signed, bias, kernel, torch_ops.params_text(params))
        return out.copy_(c) if out is not None else c
    if out is None and _autocast_enabled():  # as torch.matmul: in the autocast dtype
        a, b, bias = autocast.cast(a, b, bias)
    return _matmul_cast(a, b, bias, out_dtype, kernel, params, out)


def _matmul_cast(a: Any, b: Any, bias: Any, out_dtype: Any, kernel: str, params: dict[str, int],
                 out: Any) -> torch.Tensor:
    """:func:`matmul` (floating or integer operands) once autocast has had its say: the operands
    are in the autocast dtype already, or not to be cast (out=, or autocast off). ``nn.linear``
    calls it on the operands it cast itself."""
    if torch.compiler.is_compiling():
        return _via_op(a, b, bias, out_dtype, kernel, params, out)
    try:
        k = plan.key(a, b, bias, out_dtype, kernel, params, out)
        grad = torch.is_grad_enabled() and (a.requires_grad or b.requires_grad
                                            or (bias is not None and bias.requires_grad))
    except AttributeError:  # not tensors: the full path says what is wrong
        k, grad = None, False
    if not grad:
        found = plan.get(k) if k is not None else None
        if found is not None:
            c = found.run(a, b, bias, out)
            if c is not None:
                return c
        return _matmul(a, b, bias, out_dtype, kernel, params, out, k)
    _validate(a, b, bias, out_dtype, kernel, params)
    return _via_op(a, b, bias, out_dtype, kernel, params, out)


def _via_op(a: Any, b: Any, bias: Any, out_dtype: Any, kernel: str, params: dict[str, int],
            out: Any) -> torch.Tensor:
    # Autocast has had its say (_matmul_cast): the operands are in its dtype already, or not to
    # be cast (a call with out= is not autocast, as in torch). So the op runs with autocast off,
    # and its autocast kernel does not check them a second time.
    with torch.autocast("cuda", enabled=False) if _autocast_enabled() else contextlib.nullcontext():
        c = torch.ops.warpgemm.mm(a, b, bias, out_dtype, kernel, torch_ops.params_text(params))
    if out is not None:
        out.copy_(c)
        return out
    return c


def _validate(a: Any, b: Any, bias: Any, out_dtype: Any, kernel: str, params: dict[str, int],
              need_device: bool = True) -> tuple[str, str | None]:
    """Every check that needs no kernel choice; (input dtype name, output dtype name or None)."""
    _check_operands(a, b)
    in_name = dtypes.name_of(a.dtype)
    out_name = _check_out_dtype(in_name, out_dtype)
    if kernel != "auto":
        called_by = catalog.get(kernel).called_by  # unknown names fail before anything else
        if called_by is not None:
            raise ValueError(f"warpgemm.matmul: {kernel} is not a plain GEMM; call it through {called_by}")
    elif params:
        raise TypeError("warpgemm.matmul: template parameters need an explicit kernel=... name")
    if bias is not None:
        _check_bias(bias, b.shape[1], a)
    if not need_device:
        return in_name, out_name
    _check_devices(a, b)
    return in_name, out_name


def _check_devices(a: torch.Tensor, b: torch.Tensor, who: str = "warpgemm.matmul") -> None:
    """A CUDA device exists, and both operands are on one CUDA device."""
    if not has_device():
        raise NoDeviceError(f"{who} needs a CUDA device, and none is available "
                            "(torch.cuda.is_available() is False)")
    for label, t in (("a", a), ("b", b)):
        if not t.is_cuda:
            raise ValueError(f"{who}: {label} is on {t.device}; warpgemm computes on "
                             "CUDA tensors (move it with .cuda())")
    if a.device != b.device:
        raise ValueError(f"{who}: a is on {a.device} and b on {b.device}; "
                         "they must share one device")


def default_out_dtype(a_dtype: torch.dtype, kernel: str = "auto") -> torch.dtype:
    """The output dtype a call with inputs of ``a_dtype`` returns when no ``out_dtype`` is given."""
    in_name = dtypes.name_of(a_dtype)
    name = catalog.get(kernel).default_out_dtype(in_name) if kernel != "auto" else _outputs()[in_name][0]
    return dtypes.torch_dtype(name)


def _matmul(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None, out_dtype: Any, kernel: str,
            params: dict[str, int], out: torch.Tensor | None, plan_key: tuple | None) -> torch.Tensor:
    """The full path: validate, choose, prepare, launch, and keep a plan for the next call."""
    in_name, out_name = _validate(a, b, bias, out_dtype, kernel, params)
    m, k = a.shape
    n = b.shape[1]
    device = a.device
    with _on_device(device):
        capability = current_capability()
        la, lb = detect(a), detect(b)
        spec, rule_params = _spec_for(kernel, capability, in_name, m, n, k, la, lb)
        if in_name not in spec.outputs:
            raise TypeError(f"warpgemm.matmul: {spec.name} takes {', '.join(spec.in_dtypes)} "
                            f"inputs, got {in_name}")
        out_name = out_name or spec.default_out_dtype(in_name)
        if out_name not in spec.outputs[in_name]:
            raise ValueError(f"warpgemm.matmul: {spec.name} writes {', '.join(spec.outputs[in_name])}, "
                             f"not {out_name}")
        out_type = dtypes.torch_dtype(out_name)
        if out is not None:
            _check_out(out, (m, n), out_type, device)
        p, kept = table.choose(spec, _problem(m, n, k, in_name, out_name, la, lb), params, rule_params)
        if spec.shape_params is not None or spec.max_m is not None or spec.max_k is not None:
            # What the caller, the tuning table or the dispatch rule names is kept; the shape fills the rest.
            p = _fit_params(spec, p, kept, m, n, k)
        if not spec.runs_on(capability):
            raise ValueError(f"warpgemm.matmul: {spec.name} needs {spec.needs()}; this device is "
                             f"compute capability {capability // 10}.{capability % 10}")
        c = out if out is not None else torch.empty((m, n), dtype=out_type, device=device)
        if m == 0 or n == 0:
            return c
        if k == 0:
            return c.zero_() if bias is None else c.copy_(bias.expand(m, n))
        oa, ob = _operands(spec, a, b, la, lb, p)
        inst = spec.instance(oa.layout, ob.layout, in_name, out_name, p)
        fused = bias is not None and spec.fused_bias
        run_instance(inst, oa, ob, c, m, n, k, device.index, bias if fused else None)
        if bias is not None and not fused:
            c.add_(bias)
        if plan_key is not None and inst.single_launch and not (oa.copied or ob.copied):
            _keep_plan(plan_key, inst, oa, ob, c, bias if fused else None, m, n, k, device.index,
                       bias is not None and not fused)
        return c


def _keep_plan(plan_key: tuple, inst: KernelInstance, oa: Operand, ob: Operand, c: torch.Tensor,
               bias: torch.Tensor | None, m: int, n: int, k: int, device: int, bias_after: bool) -> None:
    kernel = compile_kernel(inst.source, inst.name_expression, arch_of(device))
    slots = _resident(inst, kernel, device)
    workspace = _workspace(inst, m, n, k, device, slots)
    args = inst.args(oa, ob, c, m, n, k, workspace, bias)
    template = planned_args(args)
    if template is None or inst.cluster is not None:
        _keep_args_plan(plan_key, inst, kernel, slots, oa, ob, c, args, m, n, k, device, bias_after, workspace)
        return
    scratch = workspace.scratch if workspace is not None else None
    counters = workspace.counters if workspace is not None else None
    slots_of = tuple(next((i for i, x in enumerate(args) if x is t), -1) if t is not None else -1
                     for t in (oa.tensor, ob.tensor, c, bias, scratch, counters))
    if min(slots_of[:3]) < 0 or (scratch is not None and slots_of[4] < 0) or (counters is not None
                                                                              and slots_of[5] < 0):
        return
    align = inst.spec.align_elems * oa.tensor.element_size()
    launcher = DriverLaunch(kernel, kernel.function(device), inst.grid(m, n, k, slots), inst.block,
                            inst.smem_bytes, None, args, inst.spec.dependent_launch)
    plan.put(plan_key, plan.Plan(launcher, template, slots_of, (m, n), c.dtype, align, device, bias_after,
                                 0 if scratch is None else scratch.numel(),
                                 0 if counters is None else counters.numel(), plan.caller_device(plan_key)))


def _keep_args_plan(plan_key: tuple, inst: KernelInstance, kernel: CompiledKernel, slots: int, oa: Operand,
                    ob: Operand, c: torch.Tensor, args: tuple[Any, ...], m: int, n: int, k: int, device: int,
                    bias_after: bool, workspace: Workspace | None) -> None:
    """The plan of a kernel that takes tensor maps or runs in clusters: its arguments are made
    again for each call (the maps encode the operands' addresses; scratch memory comes from
    torch's allocator and counters from the stream's buffer), and it launches through a driver
    launch set up once."""
    launcher = DriverLaunch(kernel, kernel.function(device), inst.grid(m, n, k, slots),
                            inst.block, inst.smem_bytes, inst.cluster, args, inst.spec.dependent_launch)
    a_layout, a_ld, b_layout, b_ld = oa.layout, oa.ld, ob.layout, ob.ld
    make_workspace = None
    if workspace is not None:
        nbytes = 0 if workspace.scratch is None else workspace.scratch.numel()
        count = 0 if workspace.counters is None else workspace.counters.numel()
        splits = workspace.splits
        on = torch.device("cuda", device)

        def make_workspace() -> Workspace:
            return Workspace(torch.empty(nbytes, dtype=torch.uint8, device=on) if nbytes else None,
                             zeroed_counters(device, count) if count else None, splits)

    def make_args(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, bias: torch.Tensor | None,
                  ws: Workspace | None) -> tuple:
        return inst.args(Operand(a, a_layout, a_ld, False), Operand(b, b_layout, b_ld, False), c, m, n, k,
                         ws, bias)

    align = inst.spec.align_elems * oa.tensor.element_size()
    plan.put(plan_key, plan.ArgsPlan(make_args, launcher, (m, n), c.dtype, align, device, bias_after,
                                     make_workspace, plan.caller_device(plan_key)))


def _on_device(device: torch.device):
    """Make ``device`` current for the call, unless it already is (the common case)."""
    if device.index == torch.cuda.current_device():
        return contextlib.nullcontext()
    return torch.cuda.device(device)


def _problem(m: int, n: int, k: int, in_name: str, out_name: str, la: tuple[str, int] | None,
             lb: tuple[str, int] | None) -> table.Problem:
    return table.Problem(m, n, k, in_name, out_name, la[0] if la else catalog.ROW, lb[0] if lb else catalog.ROW)


def _check_out(out: Any, shape: tuple[int, int], dtype: torch.dtype, device: torch.device,
               who: str = "warpgemm.matmul") -> None:
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"{who}: out must be a torch.Tensor, got {type(out).__name__}")
    if tuple(out.shape) != shape or out.dtype != dtype or out.device != device:
        raise ValueError(f"{who}: out must be {shape} {dtype} on {device}, got "
                         f"{tuple(out.shape)} {out.dtype} on {out.device}")
    if not out.is_contiguous():
        raise ValueError(f"{who}: out must be contiguous (row-major)")


def _operands(spec: KernelSpec, a: torch.Tensor, b: torch.Tensor, la: tuple[str, int] | None,
              lb: tuple[str, int] | None, params: Mapping[str, int] | None = None) -> tuple[Operand, Operand]:
    """A and B as the kernel reads them (with ``params``, where they narrow B's layouts): in place
    where their layout (``la``, ``lb``: what ``detect`` found) and alignment allow."""
    oa = prepare(a, spec.a_layouts, spec.align_elems, la)
    ob = prepare(b, spec.b_layouts_read(oa.layout, params), spec.align_elems, lb)
    return oa, ob


def _workspace(inst: KernelInstance, m: int, n: int, k: int, device: int, slots: int) -> Workspace | None:
    """Scratch memory, zeroed counters and the last wave's split, where the instance needs them
    (``slots``: the blocks that run at once)."""
    nbytes = inst.workspace_bytes(m, n, k, slots)
    count = inst.counters_needed(m, n, k, slots)
    if not nbytes and not count:
        return None
    scratch = torch.empty(nbytes, dtype=torch.uint8, device=f"cuda:{device}") if nbytes else None
    return Workspace(scratch, zeroed_counters(device, count) if count else None,
                     inst.last_wave(m, n, k, slots)[1])


def _resident(inst: KernelInstance, kernel: CompiledKernel, device: int) -> int:
    """How many blocks of ``inst`` run at once on ``device``: the most a persistent grid
    launches. One per SM, except for cluster launches, where fewer may fit, and for kernels that
    fill the SMs by occupancy (``fills_sms``)."""
    if inst.cluster is None:
        if inst.spec.fills_sms:
            return blocks_that_fit(kernel, inst.block, inst.smem_bytes, device)
        return sm_count(device)
    return resident_blocks(kernel, inst.block, inst.smem_bytes, inst.cluster, device)


def run_instance(inst: KernelInstance, a: Operand, b: Operand, c: torch.Tensor, m: int, n: int, k: int,
                 device: int, bias: torch.Tensor | None = None) -> None:
    """Launch every kernel of ``inst`` for prepared operands on CUDA device ``device`` (the
    current one) and torch's current stream, with a workspace when the instance needs one.
    ``bias`` goes to kernels that add it in their epilogue."""
    arch = arch_of(device)
    kernel = compile_kernel(inst.source, inst.name_expression, arch)
    slots = _resident(inst, kernel, device)
    workspace = _workspace(inst, m, n, k, device, slots)
    if inst.single_launch:
        launch(kernel, inst.grid(m, n, k, slots), inst.block, inst.args(a, b, c, m, n, k, workspace, bias),
               shared_bytes=inst.smem_bytes, device=device, cluster=inst.cluster,
               dependent=inst.spec.dependent_launch)
        return
    for step in inst.launches(a, b, c, m, n, k, workspace, bias, slots):
        kernel = compile_kernel(step.source, step.name_expression, arch)
        launch(kernel, step.grid, step.block, step.args, shared_bytes=step.smem_bytes, device=device,
               cluster=step.cluster, dependent=step.dependent)
