"""Third-party C++ headers a kernel may include with ``#include <...>``: CuTe and CUTLASS
(``include/`` of the ``nvidia-cutlass`` wheel) and what they include, libcu++ (``nvidia-cuda-cccl``)
and the CUDA runtime headers (``nvidia-cuda-runtime``). They come with the optional extra
``warpgemm[cute]``; every other kernel includes no header it does not ship.

Found from the installed wheels, so NVRTC needs no toolkit. The cubin cache key covers the
wheels' versions instead of the headers' text.
"""

from __future__ import annotations

import functools
import importlib.metadata as md
import importlib.util
import re
from pathlib import Path

from ..errors import MissingExtraError

INSTALL = 'pip install "warpgemm[cute]"'
PACKAGES = ("nvidia-cutlass", "nvidia-cuda-cccl", "nvidia-cuda-runtime")

CUTE_OPTIONS = {
    # CuTe declares its functions without __device__: NVRTC must take them as device code.
    "device_as_default_execution_space": True,
    # Warnings CUTLASS's headers give under NVRTC (unused or unreachable code).
    "diag_suppress": [39, 161, 174, 177, 186, 940],
}

_ANGLE_CUTE = re.compile(r"^\s*#\s*include\s*<(cute|cutlass)/", re.MULTILINE)


def uses_cute(texts: dict[str, str]) -> bool:
    """Whether any of these sources includes a CuTe or CUTLASS header."""
    return any(_ANGLE_CUTE.search(text) for text in texts.values())


def _nvidia_dirs() -> list[Path]:
    spec = importlib.util.find_spec("nvidia")
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec is not None else []


@functools.lru_cache(maxsize=None)
def cute_include_paths() -> tuple[str, ...]:
    """The include directories of the CuTe kernels; MissingExtraError, naming the install
    command, when a wheel is missing."""
    missing = []
    cutlass = importlib.util.find_spec("cutlass_library")
    cute_dir = Path(cutlass.origin).parent / "source" / "include" if cutlass and cutlass.origin else None
    if cute_dir is None or not (cute_dir / "cute" / "tensor.hpp").is_file():
        missing.append("nvidia-cutlass (CuTe)")
    # The runtime headers and libcu++ are two wheels that may sit in two site directories.
    roots = [d / "cu13" / "include" for d in _nvidia_dirs()]
    runtime = next((r for r in roots if (r / "cuda_runtime_api.h").is_file()), None)
    cccl = next((r for r in roots if (r / "cccl" / "cuda" / "std" / "type_traits").exists()), None)
    if runtime is None:
        missing.append("nvidia-cuda-runtime (the CUDA runtime headers)")
    if cccl is None:
        missing.append("nvidia-cuda-cccl (libcu++)")
    if missing:
        raise MissingExtraError(f"this kernel is written in CuTe and needs headers that are not installed: "
                                f"{', '.join(missing)}; install them with: {INSTALL}")
    cccl_version = _version("nvidia-cuda-cccl")
    if cccl_version != "none" and tuple(int(x) for x in cccl_version.split(".")[:2]) > (13, 0):
        raise MissingExtraError(f"nvidia-cuda-cccl {cccl_version} is installed, whose libcu++ clashes with "
                                f"CUTLASS 4.2's headers; CuTe kernels need the 13.0 headers: "
                                f'pip install "nvidia-cuda-cccl==13.0.*" (or {INSTALL})')
    # CUTLASS includes <cccl/cuda/std/...> and libcu++ includes <cuda/std/...>: both roots.
    paths = [str(cute_dir), str(runtime), str(cccl), str(cccl / "cccl")]  # type: ignore[operator]
    return tuple(dict.fromkeys(paths))


def versions() -> str:
    """The header wheels' versions, for the cache key."""
    return ",".join(f"{name}={_version(name)}" for name in PACKAGES)


def _version(name: str) -> str:
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return "none"
