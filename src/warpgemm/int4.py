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

torch has no 4-bit dtype that a GEMM can take, so :class:`Packed` says what the bytes are: a
matrix of 4-bit values packed along K, its K, and its signedness. ``warpgemm.matmul`` takes two
of them and returns the int32 product exactly::

    a = int4.Packed(int4.pack(x), k)          # A (M, K): x (M, K) values in -8..7
    w = int4.Packed(int4.pack(w_values), k)   # W (N, K), the nn.Linear layout
    c = warpgemm.matmul(a, w.t())             # (M, N) int32: x @ w_values.T

``w.t()`` is B = W^T (K, N): the same bytes, read as the transposed matrix (no copy).
"""

from __future__ import annotations

import torch

__all__ = ["pack", "unpack", "Packed"]

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


class Packed:
    """A matrix of 4-bit integers held as bytes packed along K, for :func:`warpgemm.matmul`.

    ``data`` is a 2-D torch.uint8 (or torch.int8) tensor of shape (rows, ceil(k / 2)) as
    :func:`pack` writes it, each row's bytes contiguous (its rows may be any distance apart);
    ``k`` is the number of values a row holds (default: two a byte); ``signed`` says whether the
    nibbles are s4 (-8..7) or u4 (0..15). An odd ``k`` leaves a pad nibble in each row's last byte,
    which the kernels ignore. Nothing is copied or checked on the device.

    As built, the matrix is (rows, k): the A operand, (M, K). :meth:`t` gives the same bytes as
    the (k, rows) matrix: the B operand, B = W^T for a weight W (N, K). The kernels read both
    operands packed along K, so ``matmul(a, w.t())`` with ``a`` and ``w`` as built is the one
    accepted arrangement.
    """

    __slots__ = ("data", "k", "signed", "transposed")

    def __init__(self, data: torch.Tensor, k: int | None = None, *, signed: bool = True,
                 transposed: bool = False) -> None:
        who = "warpgemm.int4.Packed"
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"{who}: data must be a torch.Tensor of packed bytes, got {type(data).__name__}")
        if data.dtype not in (torch.uint8, torch.int8):
            raise TypeError(f"{who}: data must be bytes (torch.uint8 or torch.int8, as int4.pack writes them), "
                            f"got {data.dtype}")
        if data.dim() != 2:
            raise ValueError(f"{who}: data must be 2-D (rows, ceil(k / 2) bytes), got shape {tuple(data.shape)}")
        if not isinstance(signed, bool):
            raise TypeError(f"{who}: signed must be True (s4) or False (u4), got {signed!r}")
        nbytes = data.shape[1]
        if k is None:
            k = 2 * nbytes
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise TypeError(f"{who}: k must be a non-negative int, got {k!r}")
        if nbytes != (k + 1) // 2:
            raise ValueError(f"{who}: k = {k} values take {(k + 1) // 2} bytes a row, but data has {nbytes} "
                             f"(shape {tuple(data.shape)})")
        if nbytes > 1 and data.shape[0] > 0 and data.stride(1) != 1:
            raise ValueError(f"{who}: each row's bytes must be contiguous (data.stride(1) == 1), got strides "
                             f"{tuple(data.stride())}; 4-bit values are read packed along K only "
                             "(pack the other dimension, or .contiguous() the bytes)")
        self.data = data if data.dtype is torch.uint8 else data.view(torch.uint8)
        self.k = k
        self.signed = signed
        self.transposed = transposed

    @classmethod
    def from_values(cls, values: torch.Tensor, *, signed: bool = True) -> "Packed":
        """``values`` (rows, k), any integer dtype, packed along k: ``Packed(pack(values), k)``."""
        if isinstance(values, torch.Tensor) and values.dim() != 2:
            raise ValueError(f"warpgemm.int4.Packed.from_values: values must be 2-D, got shape {tuple(values.shape)}")
        return cls(pack(values, signed=signed), values.shape[1], signed=signed)

    @property
    def rows(self) -> int:
        """Rows of the stored matrix: M for A, N for W."""
        return self.data.shape[0]

    @property
    def shape(self) -> tuple[int, int]:
        """The logical matrix's shape: (rows, k), or (k, rows) after :meth:`t`."""
        return (self.k, self.rows) if self.transposed else (self.rows, self.k)

    @property
    def device(self) -> torch.device:
        return self.data.device

    @property
    def dtype_name(self) -> str:
        """``"int4"`` (s4) or ``"uint4"`` (u4): the name the catalogue gives the input dtype."""
        return "int4" if self.signed else "uint4"

    def t(self) -> "Packed":
        """The transposed matrix: the same bytes, no copy."""
        return Packed(self.data, self.k, signed=self.signed, transposed=not self.transposed)

    @property
    def T(self) -> "Packed":  # noqa: N802 - torch's spelling
        return self.t()

    def unpack(self) -> torch.Tensor:
        """The values as a torch.int8 matrix of :attr:`shape` (a transposed view after :meth:`t`)."""
        v = unpack(self.data, signed=self.signed, size=self.k)
        return v.t() if self.transposed else v

    def __repr__(self) -> str:
        kind = "s4" if self.signed else "u4"
        return (f"Packed({kind}, shape={self.shape}, k={self.k}, bytes={tuple(self.data.shape)}"
                f"{', transposed' if self.transposed else ''}, device={self.device})")
