"""The CUDA device as warpgemm sees it: is there one, which arch, which versions."""

from __future__ import annotations

import functools
import importlib.metadata as md

from ..errors import NoDeviceError


_seen_device = False
_capabilities: dict[int, tuple[int, int]] = {}


def has_device() -> bool:
    """True when torch sees at least one CUDA device (remembered once seen)."""
    global _seen_device
    if _seen_device:
        return True
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a dependency
        return False
    _seen_device = bool(torch.cuda.is_available())
    return _seen_device


def _capability() -> tuple[int, int]:
    """(major, minor) of torch's current device, looked up once per device."""
    import torch

    index = torch.cuda.current_device()
    cap = _capabilities.get(index)
    if cap is None:
        cap = _capabilities[index] = torch.cuda.get_device_capability(index)
    return cap


def require_device(what: str = "this computation") -> None:
    """Raise :class:`NoDeviceError` (a RuntimeError) unless a CUDA device is present."""
    if not has_device():
        raise NoDeviceError(
            f"warpgemm: {what} needs a CUDA device, and none is available "
            "(torch.cuda.is_available() is False). Compiling kernels and the layout tools "
            "work without one.")


def arch_for_capability(major: int, minor: int) -> str:
    """NVRTC arch for a compute capability. Hopper gets the arch-specific ``sm_90a`` so that
    wgmma and friends are available; everything else gets plain ``sm_XY``."""
    if (major, minor) == (9, 0):
        return "sm_90a"
    return f"sm_{major}{minor}"


def capability_of_arch(arch: str) -> int:
    """``sm_90a`` -> 90, ``sm_80`` -> 80."""
    digits = "".join(ch for ch in arch.removeprefix("sm_") if ch.isdigit())
    if not arch.startswith("sm_") or not digits:
        raise ValueError(f"arch must look like 'sm_80' or 'sm_90a', got {arch!r}")
    return int(digits)


@functools.lru_cache(maxsize=None)
def supported_archs() -> list[str]:
    """The ``--arch`` values the NVRTC in use compiles cubins for, oldest first.

    The base architectures come from ``nvrtcGetSupportedArchs()`` (for NVRTC 13: sm_75 up to
    sm_121). Each base from sm_90 on also has its arch-specific form (``sm_90a``, ``sm_100a``,
    ...: the features of that one chip, such as wgmma), and each base from sm_100 on its family
    form (``sm_100f``: features shared by a family of chips)."""
    from cuda.bindings import nvrtc

    err, bases = nvrtc.nvrtcGetSupportedArchs()
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:  # pragma: no cover
        raise RuntimeError(f"nvrtcGetSupportedArchs failed: {err}")
    archs = []
    for base in sorted(bases):
        archs.append(f"sm_{base}")
        if base >= 90:
            archs.append(f"sm_{base}a")
        if base >= 100:
            archs.append(f"sm_{base}f")
    return archs


def check_arch(arch: str) -> None:
    """Raise ``ValueError``, listing the valid values, unless NVRTC compiles for ``arch``."""
    archs = supported_archs()
    if arch not in archs:
        raise ValueError(f"arch {arch!r} is not one NVRTC {nvrtc_version()} compiles for; "
                         f"use one of {', '.join(archs)} (sm_80 for A100, sm_90a for H100/H200)")


def require_arch(kernel_name: str, min_capability: int, arch: str, arch_specific: bool = False) -> None:
    """Raise ``ValueError`` when ``arch`` is older than the kernel's ``min_capability``
    (major*10+minor), e.g. a cp.async kernel (80) asked for sm_75; for an ``arch_specific``
    kernel (wgmma: sm_90a), when ``arch`` is not that arch-specific target."""
    check_arch(arch)
    if arch_specific:
        want = f"sm_{min_capability}a"
        if arch != want:
            raise ValueError(f"{kernel_name} uses arch-specific instructions of {want}; asked for {arch}")
        return
    if capability_of_arch(arch) < min_capability:
        raise ValueError(f"{kernel_name} needs sm_{min_capability} or newer; asked for {arch}")


def current_arch() -> str:
    """The arch of torch's current CUDA device."""
    require_device("detecting the GPU architecture")
    return arch_for_capability(*_capability())


_archs: dict[int, str] = {}


_sms: dict[int, int] = {}

_names: dict[int, str] = {}


def device_name(index: int) -> str:
    """The name of CUDA device ``index`` (``torch.cuda.get_device_name``), looked up once per
    device: the dispatch rules measured for one GPU of a compute capability match on it."""
    name = _names.get(index)
    if name is None:
        import torch

        name = _names[index] = torch.cuda.get_device_name(index)
    return name


def sm_count(index: int) -> int:
    """The number of SMs of CUDA device ``index``, looked up once per device."""
    n = _sms.get(index)
    if n is None:
        import torch

        n = _sms[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return n


def arch_of(index: int) -> str:
    """The arch of CUDA device ``index``, looked up once per device."""
    arch = _archs.get(index)
    if arch is None:
        import torch

        require_device("detecting the GPU architecture")
        arch = _archs[index] = arch_for_capability(*torch.cuda.get_device_capability(index))
    return arch


def current_capability() -> int:
    major, minor = _capability()
    return major * 10 + minor


@functools.lru_cache(maxsize=None)
def nvrtc_version() -> str:
    from cuda.bindings import nvrtc

    err, major, minor = nvrtc.nvrtcVersion()
    if err != nvrtc.nvrtcResult.NVRTC_SUCCESS:  # pragma: no cover
        raise RuntimeError(f"nvrtcVersion failed: {err}")
    return f"{major}.{minor}"


# How much of the library's end nvrtc_build reads: its section headers and string tables, which
# differ between builds of one version.
_BUILD_TAIL_BYTES = 1 << 16


def library_identity(path: str) -> str:
    """A short name for one build of a shared library: its size and a digest of its last 64 KiB.

    A proxy for the build, cheap enough for every process: hashing the whole file (about 100 MB
    for NVRTC) would cost a tenth of a second. Copies of one build get the same name.
    """
    import hashlib
    import os

    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(max(0, size - _BUILD_TAIL_BYTES))
        tail = f.read()
    return f"{size}:{hashlib.sha256(tail).hexdigest()[:16]}"


@functools.lru_cache(maxsize=None)
def nvrtc_build() -> str:
    """Which NVRTC compiles: its version (``13.0``), then the identity of the library loaded.

    The kernel cache keys on this, not on the version alone: two builds of NVRTC 13.0 (a pip
    wheel and a toolkit's) need not emit the same machine code, and a cubin from one must not be
    served as the other's. Where the library cannot be located, the version alone.
    """
    version = nvrtc_version()
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib

        return f"{version}@{library_identity(load_nvidia_dynamic_lib('nvrtc').abs_path)}"
    except Exception:  # no pathfinder, or a library it did not find: the version still keys
        return version


def package_version(name: str) -> str | None:
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None


def driver_version() -> str | None:
    """CUDA driver API version, e.g. ``13.0``; None without a driver."""
    try:
        from cuda.bindings import driver as cu

        err, v = cu.cuDriverGetVersion()
        if err != cu.CUresult.CUDA_SUCCESS:
            return None
        return f"{v // 1000}.{(v % 1000) // 10}"
    except Exception:
        return None
