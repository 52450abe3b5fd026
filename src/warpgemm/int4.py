"""4-bit integers stored two to a byte: ``warpgemm.int4.pack`` and ``warpgemm.int4.unpack``.

The nibble order is the one the integer tensor-core instructions read: along the packed
dimension, element ``2i`` is the low nibble of byte ``i`` (bits 0-3) and element ``2i + 1`` its
high nibble (bits 4-7). A 32-bit mma.sync or wmma fragment register of s4/u4 values holds eight
consecutive k with the lowest k in the least significant bits, so four packed bytes of a
K-contiguous row load as one fragment register as they are, with no shuffling:

    values (k = 0..7):   3  -1   0   7  -8   2   5  -4
    bytes:               0xF3  0x70  0x28  0xC5          (little-endian: the register 0xC52870F3)

Pack a GEMM operand along K: A (M, K) to (M, ceil(K / 2)) bytes, B = W^T (K, N) as W (N, K) to
(N, ceil(K / 2)). Signed values are two's complement nibbles (-8..7), unsigned ones 0..15; an odd
length gets a zero high nibble in its last byte.

Pure torch: runs on any device. The range check reads the values' minimum and maximum back to
the host (one synchronisation per call; under ``torch.compile`` a graph break).
"""

from __future__ import annotations

import torch

__all__ = ["pack", "unpack"]

_INTEGER = (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64)


def _range(signed: bool) -> tuple[int, int]:
    return (-8, 7) if signed else (0, 15)


def pack(values: torch.Tensor, *, signed: bool = True, dim: int = -1) -> torch.Tensor:
    """``values`` (any integer dtype, each in -8..7 when ``signed``, else 0..15) packed two to a
    byte along ``dim``, as torch.uint8: element ``2i`` in the low nibble of byte ``i``, ``2i + 1``
    in the high one. The packed dimension has ``ceil(n / 2)`` bytes."""
    if not isinstance(values, torch.Tensor):
        raise TypeError(f"warpgemm.int4.pack: values must be a torch.Tensor, got {type(values).__name__}")
    if values.dtype not in _INTEGER:
        raise TypeError(f"warpgemm.int4.pack: values must have an integer dtype, got {values.dtype}")
    if values.dim() == 0:
        raise ValueError("warpgemm.int4.pack: values must have at least one dimension to pack along")
    lo, hi = _range(signed)
    if values.numel() and (int(values.min()) < lo or int(values.max()) > hi):
        raise ValueError(f"warpgemm.int4.pack: {'signed' if signed else 'unsigned'} 4-bit values must lie in "
                         f"{lo}..{hi}; got values in {int(values.min())}..{int(values.max())}")
    x = values.movedim(dim, -1).to(torch.int16) & 0xF
    if x.shape[-1] % 2:
        x = torch.nn.functional.pad(x, (0, 1))
    packed = (x[..., 0::2] | (x[..., 1::2] << 4)).to(torch.uint8)
    return packed.movedim(-1, dim).contiguous()


def unpack(packed: torch.Tensor, *, signed: bool = True, size: int | None = None, dim: int = -1) -> torch.Tensor:
    """The 4-bit values of ``packed`` (torch.uint8 or torch.int8 bytes from :func:`pack`) as
    torch.int8, sign-extended when ``signed``: ``size`` of them along ``dim`` (default: two per
    byte; pass the original length to drop an odd length's padding nibble)."""
    if not isinstance(packed, torch.Tensor):
        raise TypeError(f"warpgemm.int4.unpack: packed must be a torch.Tensor, got {type(packed).__name__}")
    if packed.dtype not in (torch.uint8, torch.int8):
        raise TypeError(f"warpgemm.int4.unpack: packed must be bytes (torch.uint8 or torch.int8), got {packed.dtype}")
    if packed.dim() == 0:
        raise ValueError("warpgemm.int4.unpack: packed must have at least one dimension")
    x = packed.movedim(dim, -1).view(torch.uint8).to(torch.int16)
    full = 2 * x.shape[-1]
    if size is None:
        size = full
    if not full - 1 <= size <= full:
        raise ValueError(f"warpgemm.int4.unpack: {x.shape[-1]} bytes hold {full - 1} or {full} values, "
                         f"not size={size}")
    nibbles = torch.stack((x & 0xF, x >> 4), dim=-1).flatten(-2)[..., :size]
    if signed:
        nibbles = nibbles - ((nibbles & 0x8) << 1)  # two's complement: 8..15 -> -8..-1
    return nibbles.to(torch.int8).movedim(-1, dim).contiguous()
