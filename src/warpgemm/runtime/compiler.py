"""Compile kernel sources to cubin with NVRTC (through cuda.core), cached on disk.

Compiling needs no GPU and no driver: ``compile_kernel(..., arch="sm_90a")`` works on any
machine with the NVRTC wheel. Loading the cubin (``CompiledKernel.function()``) needs a device.
"""

from __future__ import annotations

import io
import re
import struct
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CompileError
from . import cache, headers
from .cuda_core import cuda_core
from .device import check_arch, current_arch, nvrtc_build

KERNELS_ROOT = Path(__file__).resolve().parent.parent / "kernels"
"""Include root of every kernel source; ``#include "arch/sm80.cuh"`` resolves against it."""

_FORMAT = "warpgemm-cubin-v1"
_STD = "c++17"
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


@dataclass
class CompiledKernel:
    """A cubin for one kernel instantiation, with ptxas's resource report."""

    source: str
    name_expression: str
    arch: str
    cubin: bytes = field(repr=False)
    mangled_name: str
    registers: int
    spill_bytes: int
    """Spill stores plus spill loads, in bytes, as ptxas reports them."""
    shared_bytes: int
    """Static shared memory per block (dynamic shared memory is chosen at launch)."""
    stack_bytes: int
    log: str = field(repr=False, default="")
    from_cache: bool = False
    compile_seconds: float = 0.0

    @property
    def code_bytes(self) -> int:
        """Bytes of machine code: the size of the cubin's ``.text.*`` sections. Every SM fetches
        the instructions it runs through its instruction caches; two large kernels that run one
        after the other evict each other's code (docs/benchmarking.md)."""
        return sum(len(data) for name, data in elf_sections(self.cubin).items() if name.startswith(".text."))

    def __post_init__(self) -> None:
        self._functions: dict[int, Any] = {}
        self._smem_limit: dict[int, int] = {}
        self._lock = threading.Lock()

    def function(self, dev_id: int | None = None):
        """The loaded ``cuda.core`` kernel on device ``dev_id`` (default: the current one),
        loaded once per device."""
        if dev_id is None:
            import torch

            dev_id = torch.cuda.current_device()
        fn = self._functions.get(dev_id)
        if fn is None:
            core = cuda_core()
            with self._lock:
                fn = self._functions.get(dev_id)
                if fn is None:
                    core.Device(dev_id).set_current()
                    fn = core.ObjectCode.from_cubin(self.cubin).get_kernel(self.mangled_name)
                    self._functions[dev_id] = fn
        return fn

    def ensure_dynamic_smem(self, nbytes: int, dev_id: int | None = None) -> None:
        """Raise the kernel's dynamic shared-memory limit to ``nbytes`` when above 48 KB."""
        if nbytes <= 48 * 1024:
            return
        import torch

        if dev_id is None:
            dev_id = torch.cuda.current_device()
        if nbytes <= self._smem_limit.get(dev_id, 0):
            return
        from cuda.bindings import driver as cu

        fn = self.function(dev_id)
        attr = cu.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        (err,) = cu.cuKernelSetAttribute(attr, nbytes, fn.handle, cu.CUdevice(dev_id))
        if err != cu.CUresult.CUDA_SUCCESS:
            optin = torch.cuda.get_device_properties(dev_id).shared_memory_per_block_optin
            raise RuntimeError(
                f"{self.name_expression}: cannot use {nbytes} bytes of dynamic shared memory "
                f"on this device (limit {optin} bytes): {err.name}")
        self._smem_limit[dev_id] = nbytes


def elf_sections(cubin: bytes) -> dict[str, bytes]:
    """The named sections of a cubin (a 64-bit little-endian ELF file). A section with no
    contents in the file (SHT_NOBITS, such as ``.nv.shared.*``) maps to its size, as 8 bytes."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names_off = heads[shstrndx][4]
    out = {}
    for name, kind, _flags, _addr, off, size, *_ in heads:
        end = cubin.index(b"\0", names_off + name)
        out[cubin[names_off + name:end].decode()] = size.to_bytes(8, "little") if kind == 8 else cubin[off:off + size]
    return out


def _read_with_includes(rel: str, seen: dict[str, str]) -> None:
    """Read ``rel`` and, recursively, every ``#include "..."`` it names, into ``seen``."""
    if rel in seen:
        return
    path = KERNELS_ROOT / rel
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise FileNotFoundError(f"kernel source {rel!r} not found under {KERNELS_ROOT}") from None
    seen[rel] = text
    for inc in _INCLUDE_RE.findall(text):
        _read_with_includes(inc, seen)


_PTXAS_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PTXAS_REGS = re.compile(r"Used (\d+) registers")
_PTXAS_SMEM = re.compile(r"(\d+) bytes smem")
_PTXAS_STACK = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")


def parse_ptxas_report(log: str, mangled_name: str) -> dict[str, int]:
    """Registers, spill bytes, static shared memory and stack of one entry in a ptxas -v log."""
    report = {"registers": 0, "spill_bytes": 0, "shared_bytes": 0, "stack_bytes": 0}
    current = None
    found = False
    for line in log.splitlines():
        m = _PTXAS_ENTRY.search(line)
        if m:
            current = m.group(1)
            found = found or current == mangled_name
            continue
        if current != mangled_name:
            continue
        if m := _PTXAS_STACK.search(line):
            report["stack_bytes"] = int(m.group(1))
            report["spill_bytes"] = int(m.group(2)) + int(m.group(3))
        if m := _PTXAS_REGS.search(line):
            report["registers"] = int(m.group(1))
        if m := _PTXAS_SMEM.search(line):
            report["shared_bytes"] = int(m.group(1))
    if not found:
        raise CompileError(f"ptxas report has no entry for {mangled_name}:\n{log}")
    return report


_loaded: dict[tuple[str, str, str], CompiledKernel] = {}
"""The process's one cache of compiled kernels, by (source, name expression, arch): the launch
path looks here first, so that a call costs a dictionary lookup, not a read and hash of the
sources. Everything else that needs a kernel (instances, the tuner, the benchmark) asks
:func:`compile_kernel` and keeps no kernels of its own."""
_lock = threading.Lock()


def compile_kernel(source: str, name_expression: str, arch: str | None = None) -> CompiledKernel:
    """Compile ``name_expression`` from ``source`` (relative to the kernels directory) to a
    cubin for ``arch`` (default: the current device's), using the disk cache.

    Within one process a kernel is compiled or loaded once: later edits of its source are seen
    by the next process (or after :func:`forget_loaded`)."""
    arch = arch or current_arch()
    check_arch(arch)
    key = (source, name_expression, arch)
    hit = _loaded.get(key)
    if hit is not None:
        return hit
    kernel = _compile_or_load(source, name_expression, arch)
    with _lock:
        return _loaded.setdefault(key, kernel)


_forget_hooks: list = []
"""Called by :func:`forget_loaded`: whatever keeps references to loaded kernels (launch plans)."""


def on_forget(hook) -> None:
    """Call ``hook()`` whenever :func:`forget_loaded` runs."""
    _forget_hooks.append(hook)


def forget_loaded() -> None:
    """Drop this process's kernels, so that the next call re-reads the sources."""
    with _lock:
        _loaded.clear()
    for hook in _forget_hooks:
        hook()


def _compile_or_load(source: str, name_expression: str, arch: str) -> CompiledKernel:
    files: dict[str, str] = {}
    _read_with_includes(source, files)
    options = _options(arch)
    key_parts = [_FORMAT, nvrtc_build(), arch, repr(options), name_expression]
    if headers.uses_cute(files):
        # A kernel written in CuTe: its headers come from pip wheels (the `cute` extra), and the
        # key covers their versions (their text is not read here).
        paths = headers.cute_include_paths()
        key_parts += [repr(headers.CUTE_OPTIONS), headers.versions()]
        options = {**options, **headers.CUTE_OPTIONS, "include_path": [*options["include_path"], *paths]}
    key = cache.make_key(*key_parts, *(f"{name}\0{text}" for name, text in sorted(files.items())))
    entry = cache.load(key)
    if entry is not None:
        meta, cubin = entry
        return CompiledKernel(source=source, name_expression=name_expression, arch=arch,
                              cubin=cubin, mangled_name=meta["mangled_name"],
                              registers=meta["registers"], spill_bytes=meta["spill_bytes"],
                              shared_bytes=meta["shared_bytes"], stack_bytes=meta["stack_bytes"],
                              log=meta.get("log", ""), from_cache=True)
    kernel = _compile(source, files[source], name_expression, arch, options)
    cache.store(key, {"mangled_name": kernel.mangled_name, "registers": kernel.registers,
                      "spill_bytes": kernel.spill_bytes, "shared_bytes": kernel.shared_bytes,
                      "stack_bytes": kernel.stack_bytes, "log": kernel.log,
                      "source": source, "name_expression": name_expression, "arch": arch},
                kernel.cubin)
    return kernel


def _options(arch: str) -> dict[str, Any]:
    return {"arch": arch, "std": _STD, "include_path": [str(KERNELS_ROOT)],
            # --no-cache: NVRTC's own cache drops the ptxas report on a hit; ours keeps it.
            "no_cache": True, "ptxas_options": ["-v"]}


_STATIC_ASSERT = re.compile(r'static assertion failed with "((?:[^"\\]|\\.)*)"')


def static_assertions(log: str) -> list[str]:
    """The messages of the static_asserts a compiler log reports as failed, each once, in order."""
    seen: list[str] = []
    for message in _STATIC_ASSERT.findall(log):
        if message not in seen:
            seen.append(message)
    return seen


def _compile(source: str, text: str, name_expression: str, arch: str,
             options: dict[str, Any]) -> CompiledKernel:
    core = cuda_core()
    log = io.StringIO()
    t0 = time.perf_counter()
    try:
        program = core.Program(text, code_type="c++", options=core.ProgramOptions(name=source, **options))
        obj = program.compile("cubin", name_expressions=(name_expression,), logs=log)
    except Exception as exc:  # cuda.core raises NVRTCError with the compiler log in its text
        full = f"{exc}\n{log.getvalue()}"
        broken = static_assertions(full)
        # A template parameter that breaks a kernel's static_assert (a tile size, a stage count):
        # its message first, where it names what to change; the whole log after it.
        first = (f"{name_expression} breaks its kernel's static_assert: {'; '.join(broken)}"
                 if broken else f"NVRTC failed to compile {name_expression} from {source} for {arch}")
        raise CompileError(f"{first}\n\nNVRTC's log ({source}, {arch}):\n{full}") from None
    seconds = time.perf_counter() - t0
    mangled = obj.symbol_mapping[name_expression]
    mangled = mangled.decode() if isinstance(mangled, bytes) else str(mangled)
    text_log = log.getvalue().replace("\x00", "")
    report = parse_ptxas_report(text_log, mangled)
    return CompiledKernel(source=source, name_expression=name_expression, arch=arch,
                          cubin=bytes(obj.code), mangled_name=mangled, log=text_log,
                          compile_seconds=seconds, **report)
