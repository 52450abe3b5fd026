"""The one table of element types: each dtype's torch name, C++ spelling in the kernels, short
label and size. Import-light: torch is imported only by :func:`torch_dtype` and :func:`name_of`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DType:
    name: str
    """torch's name, ``torch.<name>``: ``float32``, ``bfloat16``, ..."""
    cxx: str
    """The type in kernel sources (``kernels/common/types.cuh``)."""
    short: str
    """The label in tables and benchmark results: ``fp32``, ``bf16``, ..."""
    bytes: int
    """Bytes per element; for the 4-bit types, bytes per stored unit of two elements."""


DTYPES: dict[str, DType] = {d.name: d for d in (
    DType("float32", "float", "fp32", 4),
    DType("float16", "wg::half_t", "fp16", 2),
    DType("bfloat16", "wg::bf16_t", "bf16", 2),
    DType("int8", "wg::int8_t", "int8", 1),
    DType("int32", "int", "int32", 4),
    # 4-bit integers, two to a byte (warpgemm.int4.Packed): signed (s4) and unsigned (u4).
    DType("int4", "wg::s4x2_t", "s4", 1),
    DType("uint4", "wg::u4x2_t", "u4", 1),
)}


def get(name: str) -> DType:
    """The dtype called ``name`` (torch's name, e.g. ``"bfloat16"``)."""
    try:
        return DTYPES[name]
    except KeyError:
        raise ValueError(f"unknown dtype {name!r}; warpgemm knows {', '.join(DTYPES)}") from None


_names: dict[Any, str] = {}


def name_of(dtype: Any) -> str:
    """torch's name of a ``torch.dtype`` (``torch.bfloat16`` -> ``"bfloat16"``)."""
    name = _names.get(dtype)
    if name is None:
        name = _names[dtype] = str(dtype).removeprefix("torch.")
    return name


_torch_dtypes: dict[str, Any] = {}


def torch_dtype(name: str) -> Any:
    """The ``torch.dtype`` called ``name``."""
    dtype = _torch_dtypes.get(name)
    if dtype is None:
        import torch

        dtype = getattr(torch, name, None)
        if not isinstance(dtype, torch.dtype):
            raise ValueError(f"torch has no dtype {name!r}")
        _torch_dtypes[name] = dtype
    return dtype


def short(name: str) -> str:
    """``"bfloat16"`` -> ``"bf16"``."""
    return get(name).short
