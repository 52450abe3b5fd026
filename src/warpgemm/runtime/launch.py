"""Launch compiled kernels on torch's current CUDA stream.

Two paths, one interface (:func:`launch`):

- the common one, tensors and numpy scalars only, no cluster: ``cuda.core.launch``, with the
  launch configuration and the stream wrapper cached;
- kernels that take an opaque parameter block by value (a ``CUtensorMap``: 128 bytes, 64-byte
  aligned), are launched in thread-block clusters or as programmatic dependent launches:
  ``cuLaunchKernelEx`` from ``cuda.bindings``, with the argument array built here. cuda.core
  passes no structs by value.

Programmatic dependent launch (sm_90 on). A kernel whose spec says ``dependent_launch`` waits
(``griddepcontrol.wait``) before it touches global memory another grid may use, setting up only
shared memory before that, and then lets the next grid launch (``griddepcontrol.
launch_dependents``). Launched with the programmatic-stream-serialization attribute, it may start
while the kernel before it in the stream finishes: its blocks are launched and set up while that
kernel's last blocks run and its memory is flushed. The results are the same; what it saves is
the gap between two kernels, which is a large part of a decode GEMM's few microseconds.
CUDA-graph capture keeps the dependency as a programmatic edge. ``WARPGEMM_DEPENDENT_LAUNCH=0``
in the environment (read at import) or :func:`set_dependent_launch` turns it off.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any, Callable, Sequence

import numpy as np

from .compiler import CompiledKernel
from .cuda_core import cuda_core

_streams: dict[int, Any] = {}
_configs: dict[tuple, Any] = {}
_cuda_core: tuple[Any, Any, Any] | None = None
_resident: dict[tuple, int] = {}
_thread = threading.local()
_dependent_launch = os.environ.get("WARPGEMM_DEPENDENT_LAUNCH", "1") != "0"


def set_dependent_launch(enabled: bool) -> None:
    """Launch kernels that allow it as programmatic dependent launches (the default), or not.
    Launchers made before the change keep their setting: clear the plan cache
    (``warpgemm.plan.clear``) for the change to reach repeated calls."""
    global _dependent_launch
    _dependent_launch = bool(enabled)


def dependent_launch_enabled() -> bool:
    """Whether kernels that allow it are launched as programmatic dependent launches."""
    return _dependent_launch


def _dependent(kernel: CompiledKernel, requested: bool) -> bool:
    """Whether to launch ``kernel`` as a programmatic dependent launch: it allows it, the switch
    is on, and it was compiled for sm_90 or later (where griddepcontrol exists)."""
    if not (requested and _dependent_launch):
        return False
    digits = "".join(ch for ch in kernel.arch if ch.isdigit())
    return bool(digits) and int(digits) >= 90


def _bind_context(device: int) -> None:
    """Make ``device``'s primary context current on this thread, once per thread and device.

    Driver-API launches need a current context, and a thread that has made no CUDA runtime
    call of its own has none: autograd's device threads, which run the backward pass, are
    such threads."""
    cuda_core().Device(device).set_current()
    _thread.device = device


def _cuda_core_api() -> tuple[Any, Any, Any]:
    """(LaunchConfig, Stream, launch) from cuda.core, imported on the first launch only."""
    global _cuda_core
    if _cuda_core is None:
        core = cuda_core()
        _cuda_core = (core.LaunchConfig, core.Stream, core.launch)
    return _cuda_core


_SCALAR_TYPES = (np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64)
_CTYPES = {np.int32: ctypes.c_int32, np.uint32: ctypes.c_uint32, np.int64: ctypes.c_int64,
           np.uint64: ctypes.c_uint64, np.float32: ctypes.c_float, np.float64: ctypes.c_double}


class ParamBlock:
    """An opaque kernel parameter passed by value, such as a ``CUtensorMap`` (the kernel declares
    it ``const __grid_constant__ CUtensorMap``). ``data`` is copied; the kernel's declaration
    decides its alignment (64 bytes for a tensor map) and must match its size."""

    __slots__ = ("data", "_buf")

    def __init__(self, data: bytes | bytearray | memoryview, align: int = 64) -> None:
        data = bytes(data)
        if not data:
            raise ValueError("a parameter block needs at least one byte")
        if align & (align - 1) or align < 1:
            raise ValueError(f"alignment must be a power of two, got {align}")
        self.data = data
        # A buffer of the block's size whose address is `align`-aligned: the driver copies the
        # bytes, but an aligned source is what a struct of that alignment would be.
        raw = (ctypes.c_ubyte * (len(data) + align))()
        offset = -ctypes.addressof(raw) % align
        self._buf = (raw, (ctypes.c_ubyte * len(data)).from_buffer(raw, offset))
        ctypes.memmove(self._buf[1], data, len(data))

    @property
    def address(self) -> int:
        return ctypes.addressof(self._buf[1])

    def __len__(self) -> int:
        return len(self.data)


def _current_stream(device: int | None = None):
    """A cuda.core Stream for torch's current stream (of ``device``, default the current one),
    looked up on every call so that ``torch.cuda.stream(...)`` and CUDA-graph capture see the
    launch on their stream."""
    import torch

    handle = (torch.cuda.current_stream().cuda_stream if device is None
              else torch._C._cuda_getCurrentRawStream(device))
    stream = _streams.get(handle)
    if stream is None:
        stream = _streams[handle] = _cuda_core_api()[1].from_handle(handle)
    return stream


class _NeedsDriver(Exception):
    """Raised by _marshal for a ParamBlock: the launch takes the driver path."""


def _marshal(arg: Any, index: int) -> Any:
    import torch

    if isinstance(arg, torch.Tensor):
        if not arg.is_cuda:
            raise TypeError(f"kernel argument {index} is a CPU tensor; kernels take CUDA tensors")
        return arg.data_ptr()
    if isinstance(arg, _SCALAR_TYPES):
        return arg
    if isinstance(arg, ParamBlock):
        raise _NeedsDriver
    raise TypeError(
        f"kernel argument {index} has type {type(arg).__name__}; pass tensors, ParamBlocks, or "
        "scalars as numpy types of the exact C type (np.int32, np.float32, ...), never Python int/float")


def _refuse_shape(kernel: CompiledKernel, grid: tuple[int, ...], block: tuple[int, ...]) -> None:
    if min(grid) < 1 or min(block) < 1:
        raise ValueError(f"{kernel.name_expression}: empty launch grid={grid} block={block}")
    if grid[1] > 65535 or grid[2] > 65535:
        raise ValueError(f"{kernel.name_expression}: grid {grid} exceeds 65535 blocks in y or z")


def launch(kernel: CompiledKernel, grid: Sequence[int], block: Sequence[int], args: Sequence[Any],
           shared_bytes: int = 0, device: int | None = None,
           cluster: Sequence[int] | None = None, dependent: bool = False) -> None:
    """Launch ``kernel`` with ``grid`` x ``block`` threads (``grid`` counts blocks, also with a
    cluster) and ``shared_bytes`` of dynamic shared memory on the current torch stream of
    ``device`` (default: the current device, which must be ``device`` when given). ``args`` are
    CUDA tensors, numpy scalars and :class:`ParamBlock` s; ``cluster`` is the thread-block
    cluster shape, which must divide the grid. ``dependent``: the kernel allows a programmatic
    dependent launch (its spec's ``dependent_launch``)."""
    grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
    block = tuple(int(b) for b in block) + (1,) * (3 - len(block))
    if min(grid) < 1 or min(block) < 1 or grid[1] > 65535 or grid[2] > 65535:
        _refuse_shape(kernel, grid, block)
    if device is None:
        import torch

        device = torch.cuda.current_device()
    if getattr(_thread, "device", None) != device:
        _bind_context(device)
    fn = kernel.function(device)
    kernel.ensure_dynamic_smem(shared_bytes, device)
    dependent = _dependent(kernel, dependent)
    marshalled = None
    if cluster is None and not dependent:
        try:
            marshalled = [_marshal(a, i) for i, a in enumerate(args)]
        except _NeedsDriver:
            marshalled = None
    if marshalled is None:
        _launch_driver(kernel, fn, grid, block, args, int(shared_bytes), cluster, dependent)
        return
    LaunchConfig, _, cuda_launch = _cuda_core_api()
    key = (grid, block, int(shared_bytes))
    config = _configs.get(key)
    if config is None:
        config = _configs[key] = LaunchConfig(grid=grid, block=block, shmem_size=int(shared_bytes))
    cuda_launch(_current_stream(), config, fn, *marshalled)


def _driver_config(grid: Sequence[int], block: Sequence[int], shared_bytes: int,
                   cluster: Sequence[int] | None, dependent: bool = False) -> Any:
    """A ``CUlaunchConfig`` (stream unset) with a cluster-dimension attribute when ``cluster``
    is given, and the programmatic-stream-serialization attribute when ``dependent``."""
    from cuda.bindings import driver as cu

    cfg = cu.CUlaunchConfig()
    cfg.gridDimX, cfg.gridDimY, cfg.gridDimZ = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
    cfg.blockDimX, cfg.blockDimY, cfg.blockDimZ = tuple(int(b) for b in block) + (1,) * (3 - len(block))
    cfg.sharedMemBytes = int(shared_bytes)
    attrs = []
    if cluster is not None:
        attr = cu.CUlaunchAttribute()
        attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = (
            tuple(int(c) for c in cluster) + (1,) * (3 - len(cluster)))
        attrs.append(attr)
    if dependent:
        attr = cu.CUlaunchAttribute()
        attr.id = cu.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        attr.value.programmaticStreamSerializationAllowed = 1
        attrs.append(attr)
    cfg.attrs = attrs
    cfg.numAttrs = len(attrs)
    return cfg


class Prepared:
    """One call's arguments of a :class:`DriverLaunch`, marshalled once: the ``void**`` array
    and what its entries point to (parameter blocks, ctypes holders), kept alive with it."""

    __slots__ = ("argv", "holders")

    def __init__(self, argv: Any, holders: list[Any]) -> None:
        self.argv, self.holders = argv, holders


def _arg_types(args: Sequence[Any]) -> list[Any]:
    """Each argument's kind for a ``void**`` launch, checking it: None for a parameter block, a
    64-bit address for a tensor, the exact C type for a numpy scalar."""
    import torch

    types: list[Any] = []
    for i, a in enumerate(args):
        if isinstance(a, ParamBlock):
            types.append(None)
            continue
        value = _marshal(a, i)  # checks a tensor (CUDA, ...) or the scalar's type
        types.append(ctypes.c_uint64 if isinstance(a, torch.Tensor) else _CTYPES[type(value)])
    return types


def _prepare(args: Sequence[Any], types: Sequence[Any]) -> Prepared:
    """``args`` (of kinds ``types``, from :func:`_arg_types`) as a ``void**`` array."""
    holders: list[Any] = []
    for a, t in zip(args, types):
        if t is None:
            holders.append(a)
        elif t is ctypes.c_uint64 and not isinstance(a, (np.integer, int)):
            holders.append(t(a.data_ptr()))
        else:
            holders.append(t(a))
    argv = (ctypes.c_void_p * max(len(holders), 1))(
        *[h.address if t is None else ctypes.addressof(h) for h, t in zip(holders, types)])
    return Prepared(argv, holders)


def _launch_driver(kernel: CompiledKernel, fn: Any, grid: tuple[int, ...], block: tuple[int, ...],
                   args: Sequence[Any], shared_bytes: int, cluster: Sequence[int] | None,
                   dependent: bool = False) -> None:
    """``cuLaunchKernelEx`` with a ``void**`` of argument addresses: the path for parameter
    blocks passed by value, cluster launches and programmatic dependent launches."""
    import torch
    from cuda.bindings import driver as cu

    prepared = _prepare(args, _arg_types(args))

    if cluster is not None:
        shape = tuple(int(c) for c in cluster) + (1,) * (3 - len(cluster))
        if any(g % c for g, c in zip(grid, shape)):
            raise ValueError(f"{kernel.name_expression}: cluster {shape} does not divide grid {grid}")
    cfg = _driver_config(grid, block, shared_bytes, cluster, dependent)
    cfg.hStream = cu.CUstream(torch.cuda.current_stream().cuda_stream)
    (err,) = cu.cuLaunchKernelEx(cfg, fn.handle, ctypes.addressof(prepared.argv), 0)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"{kernel.name_expression}: cuLaunchKernelEx failed: {err.name} "
                           f"(grid {grid}, block {block}, cluster {cluster}, {shared_bytes} B shared, "
                           f"dependent launch {dependent})")


def _occupancy(key: tuple, kernel: CompiledKernel, shared_bytes: int, device: int,
               count: Callable[[Any, Any], int]) -> int:
    """``count(driver, function)`` for ``kernel`` on ``device``, once per ``key``."""
    found = _resident.get(key)
    if found is None:
        from cuda.bindings import driver as cu

        if getattr(_thread, "device", None) != device:
            _bind_context(device)
        fn = kernel.function(device)
        kernel.ensure_dynamic_smem(shared_bytes, device)
        found = _resident[key] = count(cu, fn)
    return found


def resident_blocks(kernel: CompiledKernel, block: Sequence[int], shared_bytes: int,
                    cluster: Sequence[int], device: int) -> int:
    """How many blocks of ``kernel`` launched in ``cluster`` s run at once on ``device``: the
    most active clusters times the cluster size (``cuOccupancyMaxActiveClusters``).

    A persistent grid of clusters must not ask for more: a cluster needs all its blocks in one
    GPC, so fewer than SMs / cluster-size clusters may fit, and the clusters over the limit
    would run as a second wave after the rest have finished all their tiles."""
    shape = tuple(int(c) for c in cluster) + (1,) * (3 - len(cluster))

    def count(cu: Any, fn: Any) -> int:
        err, clusters = cu.cuOccupancyMaxActiveClusters(fn.handle, _driver_config(shape, block, shared_bytes, shape))
        if err != cu.CUresult.CUDA_SUCCESS or clusters < 1:
            raise RuntimeError(f"{kernel.name_expression}: no cluster of {shape} blocks with {shared_bytes} B "
                               f"of shared memory fits on device {device} "
                               f"(cuOccupancyMaxActiveClusters: {err.name}, {clusters})")
        return int(clusters) * shape[0] * shape[1] * shape[2]
    key = (kernel.name_expression, kernel.arch, tuple(block), int(shared_bytes), tuple(cluster), device)
    return _occupancy(key, kernel, shared_bytes, device, count)


def blocks_that_fit(kernel: CompiledKernel, block: Sequence[int], shared_bytes: int, device: int) -> int:
    """How many blocks of ``kernel`` (no cluster) run at once on ``device``: the occupancy
    calculator's blocks a SM (``cuOccupancyMaxActiveBlocksPerMultiprocessor``) times the SMs. A
    persistent grid that fills the GPU by occupancy asks for no more."""
    from .device import sm_count

    threads = 1
    for b in block:
        threads *= int(b)

    def count(cu: Any, fn: Any) -> int:
        err, per_sm = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(fn.handle, threads, int(shared_bytes))
        if err != cu.CUresult.CUDA_SUCCESS or per_sm < 1:
            raise RuntimeError(f"{kernel.name_expression}: no block of {threads} threads with {shared_bytes} B of "
                               f"shared memory fits on device {device} "
                               f"(cuOccupancyMaxActiveBlocksPerMultiprocessor: {err.name}, {per_sm})")
        return int(per_sm) * sm_count(device)
    key = (kernel.name_expression, kernel.arch, tuple(block), int(shared_bytes), None, device)
    return _occupancy(key, kernel, shared_bytes, device, count)


def planned_args(args: Sequence[Any]) -> list[Any] | None:
    """A plan's argument template: tensors as their addresses, numpy scalars as they are; None
    when an argument cannot be planned (a parameter block, whose contents may change)."""
    try:
        return [_marshal(a, i) for i, a in enumerate(args)]
    except _NeedsDriver:
        return None


_libcuda_symbols: dict[str, Any] = {}


def _libcuda(name: str) -> Any:
    """The driver function ``name`` through ctypes, returning a CUresult (int), or None where
    libcuda cannot be loaded or lacks it: a launch without cuda.bindings' argument conversion,
    for the plans' fast path. Looked up once.

    It has no ``argtypes``: converting each Python int through them costs more than the launch
    itself, so the callers pass ctypes objects made once (``c_uint`` dimensions, ``c_void_p``
    handles, ``byref`` configurations) and nothing else."""
    fn = _libcuda_symbols.get(name)
    if fn is None:
        try:
            fn = ctypes.CDLL("libcuda.so.1")[name]  # a function object of our own, not the cached attribute
        except (OSError, AttributeError):
            fn = False
        else:
            fn.restype = ctypes.c_int
        _libcuda_symbols[name] = fn
    return fn or None


_stream_args: dict[int, ctypes.c_void_p] = {}


def _stream_arg(handle: int) -> ctypes.c_void_p:
    """The ``CUstream`` argument for a raw stream handle, made once per stream."""
    arg = _stream_args.get(handle)
    if arg is None:
        arg = _stream_args.setdefault(handle, ctypes.c_void_p(handle or None))
    return arg


class _LaunchAttribute(ctypes.Structure):
    """``CUlaunchAttribute``: an id, padding to 8 bytes, a 64-byte value union."""

    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4), ("value", ctypes.c_uint * 16)]


class _LaunchConfig(ctypes.Structure):
    """``CUlaunchConfig``."""

    _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3), ("shared_bytes", ctypes.c_uint),
                ("stream", ctypes.c_void_p), ("attrs", ctypes.POINTER(_LaunchAttribute)),
                ("num_attrs", ctypes.c_uint)]


_CLUSTER_DIMENSION = 4
"""``CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION``; its value is ``{x, y, z}``, three unsigned ints."""

_PROGRAMMATIC_STREAM_SERIALIZATION = 6
"""``CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION``; its value is an int, 1 to allow."""


def _ex_config(grid: Sequence[int], block: Sequence[int], shared_bytes: int, cluster: Sequence[int] | None,
               dependent: bool, stream: int) -> tuple[_LaunchConfig, Any, Any]:
    """A ctypes ``CUlaunchConfig`` for ``stream`` with the cluster-dimension attribute when
    ``cluster`` is given and the programmatic-stream-serialization one when ``dependent``; the
    attribute array (returned too: the config points into it, so both are kept together); and the
    config by reference, as ``cuLaunchKernelEx`` takes it."""
    ids = ([_CLUSTER_DIMENSION] if cluster is not None else []) + (
        [_PROGRAMMATIC_STREAM_SERIALIZATION] if dependent else [])
    attrs = (_LaunchAttribute * max(1, len(ids)))()
    for attr, kind in zip(attrs, ids):
        attr.id = kind
        if kind == _CLUSTER_DIMENSION:
            for i, c in enumerate(tuple(int(c) for c in cluster) + (1,) * (3 - len(cluster))):  # type: ignore[arg-type]
                attr.value[i] = c
        else:
            attr.value[0] = 1
    cfg = _LaunchConfig()
    cfg.grid[:] = list(grid)
    cfg.block[:] = list(block)
    cfg.shared_bytes = int(shared_bytes)
    cfg.stream = stream or None
    cfg.attrs = ctypes.cast(attrs, ctypes.POINTER(_LaunchAttribute))
    cfg.num_attrs = len(ids)
    return cfg, attrs, ctypes.byref(cfg)


class DriverLaunch:
    """A driver launch set up once for a fixed grid, block, shared memory, cluster, dependent-launch
    setting and argument types, then issued with new argument values: the plans' launch.

    :meth:`prepare` marshals one call's arguments (tensor addresses, scalars, parameter blocks,
    which the driver copies at launch) into a :class:`Prepared`; :meth:`launch` issues it on
    torch's current stream. A plan keeps Prepared arguments (per address combination, or per
    thread with the addresses set in place: :meth:`set_address`), so a repeated call marshals
    nothing. The launch is the driver's ``cuLaunchKernel`` called through ctypes with arguments
    made once, or for clusters and dependent launches its ``cuLaunchKernelEx``, with one
    configuration per stream (the configuration holds the stream); where libcuda cannot be
    loaded, cuda.bindings' ``cuLaunchKernelEx``, whose configuration is updated under a lock.
    ``dependent``: the kernel allows a programmatic dependent launch (see the module's notes)."""

    __slots__ = ("kernel", "fn", "grid", "block", "shared_bytes", "cluster", "dependent", "cfg", "types",
                 "_head", "_direct", "_direct_ex", "_handle", "_lock", "_streams", "_configs")

    def __init__(self, kernel: CompiledKernel, fn: Any, grid: Sequence[int], block: Sequence[int],
                 shared_bytes: int, cluster: Sequence[int] | None, args: Sequence[Any],
                 dependent: bool = False) -> None:
        self.kernel, self.fn = kernel, fn
        self.grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        self.block = tuple(int(b) for b in block) + (1,) * (3 - len(block))
        self.shared_bytes = int(shared_bytes)
        self.cluster = None if cluster is None else tuple(int(c) for c in cluster)
        self.dependent = _dependent(kernel, dependent)
        self.cfg = _driver_config(grid, block, shared_bytes, cluster, self.dependent)
        self.types = _arg_types(args)
        plain = cluster is None and not self.dependent
        self._direct = _libcuda("cuLaunchKernel") if plain else None
        self._direct_ex = _libcuda("cuLaunchKernelEx") if not plain else None
        self._handle = ctypes.c_void_p()
        self._head: tuple[Any, ...] = ()
        if self._direct is not None or self._direct_ex is not None:
            # The loaded kernel is a context-independent CUkernel; the ctypes launches take the
            # CUfunction of it in the current context.
            from cuda.bindings import driver as cu

            err, function = cu.cuKernelGetFunction(fn.handle)
            if err == cu.CUresult.CUDA_SUCCESS:
                self._handle = ctypes.c_void_p(int(function))
                # cuLaunchKernel's leading arguments: the function, grid xyz, block xyz, shared bytes.
                self._head = (self._handle, *(ctypes.c_uint(v) for v in (*self.grid, *self.block,
                                                                          self.shared_bytes)))
            else:
                self._direct = self._direct_ex = None
        self._lock = threading.Lock()
        self._streams: dict[int, Any] = {}
        self._configs: dict[int, tuple[_LaunchConfig, Any, Any]] = {}

    def prepare(self, args: Sequence[Any]) -> Prepared:
        """Marshal ``args`` (of the types given at set-up)."""
        return _prepare(args, self.types)

    @staticmethod
    def set_address(prepared: Prepared, index: int, address: int) -> None:
        """Point argument ``index`` (a tensor's) of ``prepared`` at ``address``, in place."""
        prepared.holders[index].value = address

    def launch(self, prepared: Prepared, device: int) -> None:
        """Issue a prepared call on torch's current stream of ``device``."""
        import torch

        if getattr(_thread, "device", None) != device:
            _bind_context(device)
        handle = torch._C._cuda_getCurrentRawStream(device)
        if self._direct is not None:
            stream = _stream_args.get(handle)
            if stream is None:
                stream = _stream_arg(handle)
            err = self._direct(*self._head, stream, prepared.argv, None)
            if err:
                raise RuntimeError(f"{self.kernel.name_expression}: cuLaunchKernel failed: CUresult {err}")
            return
        if self._direct_ex is not None:
            config = self._configs.get(handle)
            if config is None:  # one per stream, made once; a dict store is atomic
                config = self._configs.setdefault(
                    handle, _ex_config(self.grid, self.block, self.shared_bytes, self.cluster, self.dependent,
                                       handle))
            err = self._direct_ex(config[2], self._handle, prepared.argv, None)
            if err:
                raise RuntimeError(f"{self.kernel.name_expression}: cuLaunchKernelEx failed: CUresult {err} "
                                   f"(grid {self.grid}, block {self.block}, cluster {self.cluster}, "
                                   f"{self.shared_bytes} B shared, dependent launch {self.dependent})")
            return
        from cuda.bindings import driver as cu

        stream = self._streams.get(handle)
        if stream is None:
            stream = self._streams[handle] = cu.CUstream(handle)
        with self._lock:
            self.cfg.hStream = stream
            (err,) = cu.cuLaunchKernelEx(self.cfg, self.fn.handle, ctypes.addressof(prepared.argv), 0)
        if err != cu.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"{self.kernel.name_expression}: cuLaunchKernelEx failed: {err.name}")

    def __call__(self, args: Sequence[Any], device: int) -> None:
        """Marshal ``args`` and launch them on torch's current stream of ``device``."""
        self.launch(self.prepare(args), device)


_counters: dict[tuple[int, int], list[Any]] = {}


def zeroed_counters(device: int, count: int) -> Any:
    """``count`` int32 counters on CUDA device ``device`` for torch's current stream, zero now,
    for kernels that leave them zero when they finish (so the buffer is made once and shared by
    every launch on the stream; launches on other streams may run at the same time, so each
    stream has its own). A larger request makes a larger buffer; earlier ones are kept, since
    captured CUDA graphs may hold their addresses."""
    import torch

    buffers = _counters.setdefault((device, torch._C._cuda_getCurrentRawStream(device)), [])
    if not buffers or buffers[-1].numel() < count:
        buffers.append(torch.zeros(max(count, 4096), dtype=torch.int32, device=f"cuda:{device}"))
    return buffers[-1][:count]
