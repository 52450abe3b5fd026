"""Run-time machinery: NVRTC compilation with a disk cache, kernel loading and launching."""

from .cache import cache_root
from .compiler import KERNELS_ROOT, CompiledKernel, compile_kernel, parse_ptxas_report
from .device import (arch_for_capability, capability_of_arch, current_arch, has_device,
                     require_device)
from .launch import ParamBlock, dependent_launch_enabled, launch, set_dependent_launch

__all__ = [
    "KERNELS_ROOT", "CompiledKernel", "ParamBlock", "arch_for_capability", "cache_root", "capability_of_arch",
    "compile_kernel", "current_arch", "dependent_launch_enabled", "has_device", "launch", "parse_ptxas_report",
    "require_device", "set_dependent_launch",
]
