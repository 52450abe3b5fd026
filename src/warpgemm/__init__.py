"""warpgemm: hand-written GEMM kernels for NVIDIA GPUs, compiled at run time by NVRTC.

    >>> import torch, warpgemm
    >>> c = warpgemm.matmul(a, b)                      # a, b: 2-D CUDA tensors
    >>> warpgemm.kernels("sgemm")                      # the SGEMM ladder's specs
    >>> warpgemm.compile("sgemm/07_cp_async", "sm_90a").registers

The layout tools (``warpgemm.layout``) are pure Python and import neither torch nor CUDA, so
the API below is loaded lazily.
"""

from __future__ import annotations

import sys
from typing import Any

__version__ = "0.1.0"

__all__ = ["matmul", "scaled_matmul", "kernels", "compile", "patch", "unpatch", "nn", "int4", "KernelSpec",
           "CompiledKernel", "__version__"]


def __getattr__(name: str) -> Any:
    # Called only for a name the module does not hold yet: the value found is kept as a module
    # attribute, so that a hot ``warpgemm.matmul(...)`` pays for one dict lookup, not for an
    # import statement and this function (1-2 us a call).
    value = _lazy(name)
    globals()[name] = value
    return value


def _lazy(name: str) -> Any:
    if name in ("matmul", "kernels", "compile"):
        from . import api

        return getattr(api, name)
    if name == "scaled_matmul":
        from .scaled import scaled_matmul

        return scaled_matmul
    if name in ("patch", "unpatch"):
        from . import nn

        return getattr(nn, name)
    if name in ("nn", "int4"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    if name == "KernelSpec":
        from .catalog import KernelSpec

        return KernelSpec
    if name == "CompiledKernel":
        from .runtime.compiler import CompiledKernel

        return CompiledKernel
    raise AttributeError(f"module 'warpgemm' has no attribute {name!r}")


if "torch" in sys.modules:  # torch already loaded: register torch.ops.warpgemm.* now (cheap)
    from . import torch_ops as _torch_ops  # noqa: F401
