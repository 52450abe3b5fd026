"""Pack matrices into per-lane MMA registers and back, through an atom's TV layouts.

``pack_fragments(atom, "a", A)`` gives, for each of the 32 lanes, the 32-bit registers that
hold its part of ``A`` (an ``M x K`` matrix, indexed ``A[m][k]``); ``B`` is indexed
``B[k][n]`` and ``C`` ``C[m][n]``.  Values fill each register from the low bits up, in value
order.  This is how the GPU probes feed ``mma.sync`` and read its result.
"""

from __future__ import annotations

import struct
from typing import Any, Sequence

from .atoms import MMAAtom

__all__ = ["encode", "decode", "pack_fragments", "unpack_fragments", "BITS"]

BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s32": 32, "s8": 8, "s4": 4, "u4": 4}


def encode(value: Any, dtype: str) -> int:
    """The bit pattern of ``value`` as a ``dtype`` element (integers must be in range; floats
    are rounded to nearest even, so pass exactly representable values)."""
    if dtype == "f16":
        return struct.unpack("<H", struct.pack("<e", float(value)))[0]
    if dtype in ("f32", "tf32"):
        return struct.unpack("<I", struct.pack("<f", float(value)))[0]
    if dtype == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
        return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    if dtype in ("s8", "s4", "s32"):
        n = BITS[dtype]
        v = int(value)
        if not -(1 << (n - 1)) <= v < (1 << (n - 1)):
            raise ValueError(f"{v} does not fit in {dtype}")
        return v & ((1 << n) - 1)
    if dtype == "u4":
        v = int(value)
        if not 0 <= v < 16:
            raise ValueError(f"{v} does not fit in {dtype}")
        return v
    raise ValueError(f"unknown dtype {dtype!r}")


def decode(bits: int, dtype: str) -> Any:
    """The value of a ``dtype`` element from its bit pattern."""
    if dtype == "f16":
        return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
    if dtype in ("f32", "tf32"):
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if dtype == "bf16":
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    if dtype in ("s8", "s4", "s32"):
        n = BITS[dtype]
        bits &= (1 << n) - 1
        return bits - (1 << n) if bits >> (n - 1) else bits
    if dtype == "u4":
        return bits & 0xF
    raise ValueError(f"unknown dtype {dtype!r}")


def _operand(atom: MMAAtom, operand: str):
    m, n, k = atom.shape_mnk
    if operand == "a":
        return atom.layout_a_tv, atom.a_type, m, lambda i, j: (i, j)          # A[m][k]
    if operand == "b":
        return atom.layout_b_tv, atom.b_type, n, lambda i, j: (j, i)          # B[k][n], index n + N*k
    if operand == "c":
        return atom.layout_c_tv, atom.c_type, m, lambda i, j: (i, j)          # C[m][n]
    raise ValueError("operand is 'a', 'b' or 'c'")


def pack_fragments(atom: MMAAtom, operand: str, matrix: Any,
                   regs: list[list[int]] | None = None, lane_offset: int = 0) -> list[list[int]]:
    """Per-lane registers holding ``matrix`` as operand ``operand`` of ``atom``.

    ``lane_offset`` shifts the atom's lanes (SM70's quad-pair ``q`` is ``lane_offset = 4q``);
    pass ``regs`` to fill several quad-pairs into one set of registers.
    """
    tv, dtype, rows, where = _operand(atom, operand)
    bits = BITS[dtype]
    per_reg = 32 // bits
    nregs = tv[1].size() // per_reg
    if regs is None:
        regs = [[0] * nregs for _ in range(32)]
    for t in range(tv[0].size()):
        lane = atom.thr_id(t) + lane_offset
        for v in range(tv[1].size()):
            idx = tv(t, v)
            r, c = where(idx % rows, idx // rows)
            regs[lane][v // per_reg] |= encode(matrix[r][c], dtype) << (bits * (v % per_reg))
    return regs


def unpack_fragments(atom: MMAAtom, operand: str, regs: Sequence[Sequence[int]],
                     lane_offset: int = 0) -> list[list[Any]]:
    """The matrix that per-lane registers ``regs`` hold as operand ``operand`` of ``atom``."""
    tv, dtype, rows, where = _operand(atom, operand)
    m, n, k = atom.shape_mnk
    shape = {"a": (m, k), "b": (k, n), "c": (m, n)}[operand]
    out: list[list[Any]] = [[None] * shape[1] for _ in range(shape[0])]
    bits = BITS[dtype]
    per_reg = 32 // bits
    for t in range(tv[0].size()):
        lane = atom.thr_id(t) + lane_offset
        for v in range(tv[1].size()):
            idx = tv(t, v)
            r, c = where(idx % rows, idx // rows)
            word = int(regs[lane][v // per_reg]) & 0xFFFFFFFF
            out[r][c] = decode(word >> (bits * (v % per_reg)), dtype)
    return out
