"""TMA tensor maps for 2-D operands, built on the host with ``cuTensorMapEncodeTiled``.

A tensor map describes a matrix in global memory to the TMA unit: its base address, its two
dimensions (innermost, the contiguous one, first), the byte stride of the outer one, the box one
copy moves, and the shared-memory swizzle. Kernels take it by value
(``const __grid_constant__ wg::TmaDescriptor``), so it travels as a :class:`ParamBlock`.

The TMA's rules, checked here with errors that name them, since the driver only answers
``CUDA_ERROR_INVALID_VALUE``:

- the base address is 16-byte aligned, and the outer stride a multiple of 16 bytes;
- each box dimension is 1..256 elements, and with the 128-byte swizzle the inner box is at most
  128 bytes;
- dimensions are at most 2**32 and strides below 2**40 bytes.

Encoding costs microseconds of host time, so maps are cached by everything they encode (address,
dtype, shape, stride, box): calling again with the same tensor reuses the map.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .launch import ParamBlock

SWIZZLE_BYTES = 128
"""Every warpgemm tensor map uses the 128-byte swizzle: rows of 128 bytes, as wgmma reads them."""

_DTYPES = {"float16": "FLOAT16", "bfloat16": "BFLOAT16", "float32": "FLOAT32", "int8": "UINT8",
           "uint8": "UINT8", "int32": "INT32"}
_SIZES = {"float16": 2, "bfloat16": 2, "float32": 4, "int8": 1, "uint8": 1, "int32": 4}


@dataclass(frozen=True)
class TileMap:
    """What one 2-D tensor map encodes, in elements unless the name says bytes."""

    dtype: str
    """torch's name of the element type (``bfloat16``)."""
    dims: tuple[int, int]
    """(inner, outer): the contiguous dimension first."""
    outer_stride_bytes: int
    box: tuple[int, int]
    """(inner, outer) elements one TMA copy moves."""

    @property
    def elem_bytes(self) -> int:
        return _SIZES[self.dtype]


def operand_map(dtype: str, rows: int, cols: int, layout: str, ld: int, k_major: bool, mn_tile: int,
                bk: int) -> TileMap:
    """The tensor map of a GEMM operand for the 128-byte-swizzled tiles of ``sm90/smem_operand.cuh``.

    The operand is an (R, C) matrix, ``layout`` ``"row"`` ((R,C):(ld,1)) or ``"col"``
    ((R,C):(1,ld)); for A, (R, C) = (M, K), for B, (K, N). ``k_major`` says whether K is its
    contiguous dimension (A row-major, B column-major). The box is one slab of the tile: 128
    bytes of the contiguous dimension by ``mn_tile`` rows (K-major) or ``bk`` rows (MN-major).
    """
    if layout not in ("row", "col"):
        raise ValueError(f"layout must be 'row' or 'col', got {layout!r}")
    inner, outer = (cols, rows) if layout == "row" else (rows, cols)
    size = _SIZES[dtype]
    atom = SWIZZLE_BYTES // size
    box_outer = mn_tile if k_major else bk
    # A single row (or column) never steps to the next one: any 16-byte multiple will do.
    stride = ld * size if outer > 1 else -(-max(inner * size, 1) // 16) * 16
    return TileMap(dtype, (inner, outer), stride, (atom, box_outer))


def multicast_part_box(dtype: str, k_major: bool, mn_tile: int, bk: int, parts: int) -> tuple[int, int]:
    """``(mn_tile, bk)`` to give :func:`operand_map` for an operand tile that ``parts`` blocks of a
    cluster share, each loading one part and multicasting it (``load_part_multicast`` in
    ``sm90/smem_operand.cuh``): a K-major tile in bands of ``mn_tile / parts`` rows; an MN-major
    one in whole slabs of 128 bytes of MN (its box unchanged), or, with fewer slabs than parts,
    each slab in ``parts / slabs`` bands of its ``bk`` k-rows. ``parts`` = 1: the whole tile."""
    if parts == 1:
        return mn_tile, bk
    if k_major:
        return mn_tile // parts, bk
    slabs = max(1, mn_tile // (SWIZZLE_BYTES // _SIZES[dtype]))
    return (mn_tile, bk) if slabs % parts == 0 else (mn_tile, bk // (parts // slabs))


def output_map(dtype: str, rows: int, cols: int, ld: int, box_rows: int = 64) -> TileMap:
    """The tensor map of a row-major (rows, cols) output C ((rows,cols):(ld,1)) for TMA stores of
    128-byte-swizzled slabs: boxes of ``box_rows`` rows by 128 bytes."""
    size = _SIZES[dtype]
    stride = ld * size if rows > 1 else -(-max(cols * size, 1) // 16) * 16
    return TileMap(dtype, (cols, rows), stride, (SWIZZLE_BYTES // size, box_rows))


def fits(m: TileMap, address: int) -> bool:
    """Whether ``m`` at ``address`` keeps every TMA rule (:func:`check` says which it breaks)."""
    try:
        check(m, address)
    except ValueError:
        return False
    return True


def _swizzle_span(swizzle: bool | int) -> int:
    """The swizzle's span in bytes (0: none) for ``encode``'s ``swizzle``: True is 128, False none,
    or 32, 64 or 128 by number."""
    if swizzle is True:
        return SWIZZLE_BYTES
    if swizzle is False or swizzle == 0:
        return 0
    if swizzle not in (32, 64, 128):
        raise ValueError(f"a TMA swizzle spans 32, 64 or 128 bytes; got {swizzle}")
    return int(swizzle)


def check(m: TileMap, address: int, swizzle: bool | int = True) -> None:
    """ValueError naming the TMA rule that ``m`` at ``address`` breaks, if any (``swizzle``: the
    map lands its boxes under the 128-byte swizzle (True), another (32 or 64), or as they lie
    (False))."""
    if m.dtype not in _DTYPES:
        raise ValueError(f"TMA maps take {', '.join(_DTYPES)}, not {m.dtype}")
    if address % 16:
        raise ValueError(f"TMA needs a 16-byte aligned base address; this operand starts at {address:#x}")
    if m.outer_stride_bytes % 16:
        raise ValueError(f"TMA needs rows a multiple of 16 bytes apart; this operand's leading dimension is "
                         f"{m.outer_stride_bytes} bytes")
    if m.outer_stride_bytes >= 2**40:
        raise ValueError(f"TMA strides are below 2**40 bytes; got {m.outer_stride_bytes}")
    if not all(1 <= d <= 2**32 for d in m.dims):
        raise ValueError(f"TMA dimensions are 1..2**32; got {m.dims}")
    if not all(1 <= b <= 256 for b in m.box):
        raise ValueError(f"a TMA box is 1..256 elements in each dimension; got {m.box}")
    span = _swizzle_span(swizzle)
    if span and m.box[0] * m.elem_bytes > span:
        raise ValueError(f"with the {span}-byte swizzle a box row is at most {span} bytes; got "
                         f"{m.box[0]} x {m.elem_bytes} bytes")
    if not span and (m.box[0] * m.elem_bytes) % 16:
        raise ValueError(f"a TMA box without a swizzle is a multiple of 16 bytes wide; got "
                         f"{m.box[0]} x {m.elem_bytes} bytes")


_cache: OrderedDict[tuple, ParamBlock] = OrderedDict()
_CACHE_SIZE = 1024


def encode(m: TileMap, address: int, swizzle: bool | int = True) -> ParamBlock:
    """The 128-byte ``CUtensorMap`` of ``m`` at device address ``address``, as a kernel argument
    (cached: the same map at the same address is encoded once). ``swizzle``: boxes land in shared
    memory under the 128-byte swizzle (True: what wgmma's descriptors read), under the 32- or
    64-byte one (int4/06's packed A tile, 64-byte rows), or as they lie (False: tiles a kernel reads
    row by row, as int4/05's packed ones)."""
    key = (address, m, swizzle)
    block = _cache.get(key)
    if block is not None:
        _cache.move_to_end(key)
        return block
    check(m, address, swizzle)
    from cuda.bindings import driver as cu

    err, tmap = cu.cuTensorMapEncodeTiled(
        getattr(cu.CUtensorMapDataType, f"CU_TENSOR_MAP_DATA_TYPE_{_DTYPES[m.dtype]}"), 2, address,
        [cu.cuuint64_t(d) for d in m.dims], [cu.cuuint64_t(m.outer_stride_bytes)],
        [cu.cuuint32_t(b) for b in m.box], [cu.cuuint32_t(1), cu.cuuint32_t(1)],
        cu.CUtensorMapInterleave.CU_TENSOR_MAP_INTERLEAVE_NONE,
        getattr(cu.CUtensorMapSwizzle, f"CU_TENSOR_MAP_SWIZZLE_{_swizzle_span(swizzle)}B"
                if _swizzle_span(swizzle) else "CU_TENSOR_MAP_SWIZZLE_NONE"),
        cu.CUtensorMapL2promotion.CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
        cu.CUtensorMapFloatOOBfill.CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"cuTensorMapEncodeTiled failed ({err.name}) for {m} at {address:#x}")
    block = ParamBlock(_tensor_map_bytes(tmap), align=64)
    _cache[key] = block
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return block


def _tensor_map_bytes(tmap) -> bytes:
    """The 128 bytes of a cuda.bindings ``CUtensorMap``."""
    import ctypes

    return ctypes.string_at(int(tmap.getPtr()), 128)


def clear_cache() -> None:
    """Forget every encoded map. (Never needed for correctness: a map depends only on what its key
    holds, so a reused address with the same shape gets the same map.)"""
    _cache.clear()
