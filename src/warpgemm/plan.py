"""Launch plans: what a repeated ``matmul`` call needs, worked out once per problem.

A problem is the operands' shapes, strides, dtypes and devices, the bias and output dtype, the
kernel and its parameters (and, for float32 with ``kernel="auto"``, torch's matmul precision).
The first call of a problem validates, chooses the kernel (dispatch rules, tuning table),
compiles or loads it and keeps a :class:`Plan`: the loaded function, its launch configuration
and the kernel arguments with the operands' addresses left open. A later call of the same
problem checks the operands' alignment, allocates the output and launches: no validation, no
dispatch, no table or environment lookups.

``warpgemm.nn.linear`` keeps a second entry for its problems (:class:`Reshaped`): the same plan,
keyed by the layer's input and weight as they are, so that a repeated forward makes none of the
views (flattened input, ``weight.t()``, reshaped output) that the host pays more for than for the
rest of the call's Python.

A plan holds no compiled kernel of its own: it refers to the function the one kernel cache
(``runtime.compiler``) loaded, and :func:`clear` forgets every plan (``forget_loaded`` and a new
tuning choice call it).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

import torch

from .runtime import compiler as _compiler
from .runtime.launch import DriverLaunch, zeroed_counters

_plans: dict[tuple, "Plan | ArgsPlan | Reshaped"] = {}


class _Launcher:
    """What every plan shares: the problem's output, the alignment its operands must keep, and
    the bias added after the kernel when the kernel does not add it. Subclasses launch."""

    __slots__ = ("shape", "dtype", "align", "device", "bias_after", "foreign", "_device", "_new_output")

    def __init__(self, shape: tuple[int, int], dtype: torch.dtype, align: int, device: int, bias_after: bool,
                 caller_device: int | None = None):
        self.shape = shape
        self.dtype = dtype
        self.align = align
        """Bytes the base addresses of A and B must be a multiple of."""
        self.device = device
        self.foreign = caller_device is not None and caller_device != device
        """The operands are on another device than the one current where the plan is found (a
        problem's key holds both, :func:`key`): ``run`` makes theirs current for the launch and
        then gives the caller theirs back, as the full path does. Known when the plan is made, so
        the common case pays nothing for it."""
        self._device = torch.device("cuda", device)
        self.bias_after = bias_after
        """The kernel does not add the bias: ``run`` adds it after."""
        # new_empty of an empty tensor of the output's dtype and device: a new contiguous output
        # for one argument to parse, not torch.empty's three. The empty tensor holds no memory,
        # so it is no allocation that a CUDA-graph memory pool would have to account for.
        self._new_output = torch.empty(0, dtype=dtype, device=self._device).new_empty

    def run(self, a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None,
            out: torch.Tensor | None) -> torch.Tensor | None:
        """Launch on the operands; None, without launching, when their addresses do not meet the
        kernel's alignment (the caller takes the full path, which copies them)."""
        pa, pb = a.data_ptr(), b.data_ptr()
        if (pa | pb) % self.align:
            return None
        c = self._new_output(self.shape) if out is None else out
        if self.foreign:
            with torch.cuda.device(self._device):
                self._launch(a, b, pa, pb, c, None if self.bias_after else bias)
        else:
            self._launch(a, b, pa, pb, c, None if self.bias_after else bias)
        if self.bias_after and bias is not None:
            c.add_(bias)
        return c

    def _launch(self, a: torch.Tensor, b: torch.Tensor, pa: int, pb: int, c: torch.Tensor,
                fused: torch.Tensor | None) -> None:
        raise NotImplementedError


class Plan(_Launcher):
    """One problem's launch: ``run(a, b, bias, out)`` for operands of that problem, for kernels
    whose arguments are addresses and scalars. Each thread keeps one marshalled argument array
    (made from ``template``, the first call's arguments) and points its address arguments at
    the call's tensors in place before the launch: no marshalling per call, and no thread
    changes an array another thread is launching."""

    __slots__ = ("launcher", "template", "slots", "scratch_bytes", "counters", "_local")

    def __init__(self, launcher: DriverLaunch, template: Sequence[Any], slots: tuple[int, ...],
                 shape: tuple[int, int], dtype: torch.dtype, align: int, device: int, bias_after: bool,
                 scratch_bytes: int = 0, counters: int = 0, caller_device: int | None = None):
        super().__init__(shape, dtype, align, device, bias_after, caller_device)
        self.launcher = launcher
        self.template = list(template)
        """The arguments, tensors as addresses (:func:`~warpgemm.runtime.launch.planned_args`)."""
        self.slots = slots
        """Where the addresses of A, B, C, the bias, the scratch memory and the counters go in
        the arguments (-1: not an argument)."""
        self.scratch_bytes = scratch_bytes
        """Scratch memory each launch gets (allocated per call, from torch's caching allocator)."""
        self.counters = counters
        """Zeroed counters each launch gets (the current stream's buffer)."""
        self._local = threading.local()

    def _launch(self, a: torch.Tensor, b: torch.Tensor, pa: int, pb: int, c: torch.Tensor,
                fused: torch.Tensor | None) -> None:
        try:
            holders = self._local.prepared.holders
        except AttributeError:
            self._local.prepared = self.launcher.prepare(self.template)
            holders = self._local.prepared.holders
        ia, ib, ic, ibias, iscratch, icounters = self.slots
        holders[ia].value = pa
        holders[ib].value = pb
        holders[ic].value = c.data_ptr()
        if ibias >= 0:
            holders[ibias].value = fused.data_ptr()  # type: ignore[union-attr]
        scratch = None
        if iscratch >= 0:
            scratch = torch.empty(self.scratch_bytes, dtype=torch.uint8, device=self._device)
            holders[iscratch].value = scratch.data_ptr()
        if icounters >= 0:
            holders[icounters].value = zeroed_counters(self.device, self.counters).data_ptr()
        self.launcher.launch(self._local.prepared, self.device)
        del scratch  # back to the caching allocator, for later work on this stream


class ArgsPlan(_Launcher):
    """A plan for kernels whose arguments are made for each call's operands (tensor maps, which
    encode addresses: ``make_args``) and launched through a
    :class:`~warpgemm.runtime.launch.DriverLaunch` set up once (parameter blocks and clusters
    take the driver's launch).

    Making and marshalling the arguments costs more than the launch, and in a model the same
    few addresses come back call after call (torch's caching allocator hands the same blocks to
    the same layers), so the plan keeps the marshalled arguments of the last ``KEEP`` address
    combinations it has seen: a repeated call looks them up and launches. A map depends only on
    its address and the plan's fixed shapes and strides, so a reused address gets a correct
    map."""

    KEEP = 64

    __slots__ = ("make_args", "launcher", "workspace", "_prepared")

    def __init__(self, make_args: Callable[..., Sequence[Any]], launcher: DriverLaunch, shape: tuple[int, int],
                 dtype: torch.dtype, align: int, device: int, bias_after: bool,
                 workspace: Callable[[], Any] | None = None, caller_device: int | None = None):
        super().__init__(shape, dtype, align, device, bias_after, caller_device)
        self.make_args = make_args
        """(a, b, c, bias, workspace) -> the kernel's arguments."""
        self.launcher = launcher
        self.workspace = workspace
        """() -> this call's Workspace (scratch from torch's allocator, the stream's counters),
        or None when the kernel needs none."""
        self._prepared: dict[tuple, Any] = {}

    def _launch(self, a: torch.Tensor, b: torch.Tensor, pa: int, pb: int, c: torch.Tensor,
                fused: torch.Tensor | None) -> None:
        if self.workspace is None:
            ws = None
            key: tuple = (pa, pb, c.data_ptr(), 0 if fused is None else fused.data_ptr())
        else:
            ws = self.workspace()
            key = (pa, pb, c.data_ptr(), 0 if fused is None else fused.data_ptr(),
                   ws.scratch is not None and ws.scratch.data_ptr(),
                   ws.counters is not None and ws.counters.data_ptr())
        prepared = self._prepared.get(key)
        if prepared is None:
            # A Reshaped run passes its (..., N) output: the arguments (C's row stride, its map)
            # are those of the (M, N) view.
            c2 = c if c.dim() == 2 else c.view(self.shape)
            prepared = self.launcher.prepare(self.make_args(a, b, c2, fused, ws))
            if len(self._prepared) >= self.KEEP:
                del self._prepared[next(iter(self._prepared))]  # the oldest
            self._prepared[key] = prepared
        self.launcher.launch(prepared, self.device)
        del ws  # the scratch goes back to the caching allocator, for later work on this stream


class Reshaped:
    """A plan run with its output allocated in another shape of the same elements, for callers
    that pass the tensors the operands are views of: :func:`warpgemm.nn.linear` runs the (rows, K)
    x (K, N) problem of an input (..., K) and a weight (N, K) on the input and the weight
    themselves (the flattened input and ``weight.t()`` start at the same addresses) into a new
    (..., N) output, with none of the three views made.

    The kernels' arguments take only the operands' addresses, which the views share; the one
    thing an argument takes from a tensor's shape is C's row stride, which an :class:`ArgsPlan`
    reads from the (M, N) view of the output when it makes a new address combination's
    arguments."""

    __slots__ = ("plan", "shape")

    def __init__(self, plan: Plan | ArgsPlan, shape: tuple[int, ...]):
        self.plan = plan
        self.shape = shape

    def run(self, a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor | None:
        """As :meth:`Plan.run`, into a new output of ``shape``."""
        return self.plan.run(a, b, bias, self.plan._new_output(self.shape))


def key(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor | None, out_dtype: Any, kernel: str,
        params: dict[str, int], out: torch.Tensor | None) -> tuple:
    """The plan key of a call: the problem, and last the device current at the call
    (:func:`caller_device`). Raises AttributeError for operands that are not tensors."""
    return (kernel, tuple(params.items()) if params else (), a.shape, a.stride(), b.shape, b.stride(),
            a.dtype, b.dtype, a.get_device(), b.get_device(), out_dtype,
            None if bias is None else (bias.shape, bias.stride(), bias.dtype, bias.get_device()),
            None if out is None else (out.shape, out.stride(), out.dtype, out.get_device()),
            torch.get_float32_matmul_precision() if a.dtype is torch.float32 and kernel == "auto" else None,
            torch._C._cuda_getDevice() if a.is_cuda else -1)


def caller_device(k: tuple) -> int:
    """The device that was current when the call of key ``k`` was made (-1: not a CUDA call)."""
    return k[-1]


def get(k: tuple) -> Plan | ArgsPlan | Reshaped | None:
    return _plans.get(k)


def put(k: tuple, plan: Plan | ArgsPlan | Reshaped) -> None:
    _plans[k] = plan


def clear() -> None:
    """Forget every plan: the next call of each problem takes the full path again."""
    _plans.clear()


def count() -> int:
    return len(_plans)


_compiler.on_forget(clear)
