"""Launch compiled kernels on torch's current CUDA stream."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .compiler import CompiledKernel

_streams: dict[int, Any] = {}
_configs: dict[tuple, Any] = {}
_cuda_core: tuple[Any, Any, Any] | None = None


def _cuda_core_api() -> tuple[Any, Any, Any]:
    """(LaunchConfig, Stream, launch) from cuda.core, imported on the first launch only."""
    global _cuda_core
    if _cuda_core is None:
        from cuda.core import LaunchConfig, Stream
        from cuda.core import launch as cuda_launch

        _cuda_core = (LaunchConfig, Stream, cuda_launch)
    return _cuda_core

_SCALAR_TYPES = (np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64)


def _current_stream():
    """A cuda.core Stream for ``torch.cuda.current_stream()``, looked up on every call so that
    ``torch.cuda.stream(...)`` and CUDA-graph capture see the launch on their stream."""
    import torch

    handle = torch.cuda.current_stream().cuda_stream
    stream = _streams.get(handle)
    if stream is None:
        stream = _streams[handle] = _cuda_core_api()[1].from_handle(handle)
    return stream


def _marshal(arg: Any, index: int) -> Any:
    import torch

    if isinstance(arg, torch.Tensor):
        if not arg.is_cuda:
            raise TypeError(f"kernel argument {index} is a CPU tensor; kernels take CUDA tensors")
        return arg.data_ptr()
    if isinstance(arg, _SCALAR_TYPES):
        return arg
    raise TypeError(
        f"kernel argument {index} has type {type(arg).__name__}; pass tensors, or scalars as "
        "numpy types of the exact C type (np.int32, np.float32, ...), never Python int/float")


def launch(kernel: CompiledKernel, grid: Sequence[int], block: Sequence[int], args: Sequence[Any],
           shared_bytes: int = 0, device: int | None = None) -> None:
    """Launch ``kernel`` with ``grid`` x ``block`` threads and ``shared_bytes`` of dynamic
    shared memory on the current torch stream of ``device`` (default: the current device,
    which must be ``device`` when given)."""
    LaunchConfig, _, cuda_launch = _cuda_core_api()
    grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
    block = tuple(int(b) for b in block) + (1,) * (3 - len(block))
    if min(grid) < 1 or min(block) < 1:
        raise ValueError(f"{kernel.name_expression}: empty launch grid={grid} block={block}")
    if grid[1] > 65535 or grid[2] > 65535:
        raise ValueError(f"{kernel.name_expression}: grid {grid} exceeds 65535 blocks in y or z")
    if device is None:
        import torch

        device = torch.cuda.current_device()
    fn = kernel.function(device)
    kernel.ensure_dynamic_smem(shared_bytes, device)
    marshalled = [_marshal(a, i) for i, a in enumerate(args)]
    key = (grid, block, int(shared_bytes))
    config = _configs.get(key)
    if config is None:
        config = _configs[key] = LaunchConfig(grid=grid, block=block, shmem_size=int(shared_bytes))
    cuda_launch(_current_stream(), config, fn, *marshalled)
