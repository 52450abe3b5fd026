"""The kernel catalogue: one :class:`KernelSpec` for every kernel warpgemm ships, grouped in
families, with the kinds of arithmetic they do.

A spec is data: it names the CUDA source file and its kernel template, says which dtypes and
operand layouts the kernel accepts and what it requires of them, which arch it needs, and holds
the default template parameters together with the space a tuner may search.
:meth:`KernelSpec.instance` turns it into one launchable instantiation. The API, the benchmark,
the tuner, the compile tests and the CLI all read the catalogue; nothing else lists kernels.
"""

from __future__ import annotations

from ..errors import KernelNotFoundError
from .decode import DECODE, DECODE_FAMILY
from .hgemm import HGEMM, HGEMM_FAMILY
from .hopper import HOPPER, HOPPER_FAMILY
from .igemm import IGEMM, IGEMM_FAMILY
from .int4 import INT4, INT4_FAMILY
from .sgemm import SGEMM, SGEMM_FAMILY
from .spec import (ALL_LAYOUTS, COL, ROW, Family, KernelInstance, KernelSpec, Launch, Math, Step,
                   Workspace, capability_of, gemm_args, gemm_bias_args)

__all__ = [
    "ALL_LAYOUTS", "CATALOG", "COL", "FAMILIES", "MATHS", "ROW", "Family", "KernelInstance",
    "KernelSpec", "Launch", "Math", "Step", "Workspace", "capability_of", "family", "gemm_args", "gemm_bias_args", "get", "kernels",
    "math",
]

MATHS: dict[str, Math] = {m.name: m for m in (
    Math("ffma", "fp32 FMA on the CUDA cores", baseline="cuBLAS fp32"),
    Math("tf32", "TF32 tensor cores, fp32 accumulation", baseline="cuBLAS tf32", allow_tf32=True,
         ceilings={"float32": "tf32 m16n8k8"}),
    Math("f16f32", "fp16/bf16 tensor cores, fp32 accumulation", baseline="cuBLAS {dtype}",
         ceilings={"float16": "f16 m16n8k16", "bfloat16": "bf16 m16n8k16"}),
    Math("f16acc", "fp16 tensor cores, fp16 accumulation", baseline="cuBLAS fp16 (f16 acc)",
         fp16_accumulation=True, ceilings={"float16": "f16acc m16n8k16"}),
    Math("i8i32", "int8 tensor cores, int32 accumulation", baseline="cuBLAS int8 (torch._int_mm)",
         ceilings={"int8": "s8 m16n8k32"}),
    # cuBLAS has no int4 GEMM: the int4 bench (scripts/int4_bench.py) times the same logical
    # problem in int8 beside it.
    Math("i4i32", "4-bit integer tensor cores (s4/u4), int32 accumulation",
         baseline="cuBLAS int8 (torch._int_mm) on int8 operands of the same size"),
)}
"""Each kind of arithmetic, with its same-run baseline and its mma.sync ceiling."""

FAMILIES: dict[str, Family] = {f.name: f for f in (SGEMM_FAMILY, HGEMM_FAMILY, HOPPER_FAMILY, DECODE_FAMILY,
                                                    IGEMM_FAMILY, INT4_FAMILY)}
CATALOG: tuple[KernelSpec, ...] = SGEMM + HGEMM + HOPPER + DECODE + IGEMM + INT4
_BY_NAME: dict[str, KernelSpec] = {s.name: s for s in CATALOG}


def kernels(family: str | None = None, arch: str | None = None) -> list[KernelSpec]:
    """Every kernel in the catalogue, or those of one ``family``, in ladder order; with
    ``arch`` (e.g. ``"sm_80"``), only those that run on it."""
    found = list(CATALOG)
    if family is not None:
        found = [s for s in found if s.family == family]
        if not found:
            raise KernelNotFoundError(f"no kernel family {family!r}; families are {sorted(FAMILIES)}")
    if arch is not None:
        cap = capability_of(arch)
        found = [s for s in found if s.runs_on(cap)]
    return found


def get(name: str) -> KernelSpec:
    """The spec called ``name`` (e.g. ``sgemm/07_cp_async``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KernelNotFoundError(f"no kernel named {name!r}; `warpgemm kernels` lists them") from None


def family(name: str) -> Family:
    """The family record called ``name`` (``sgemm``, ``hgemm``)."""
    try:
        return FAMILIES[name]
    except KeyError:
        raise KernelNotFoundError(f"no kernel family {name!r}; families are {sorted(FAMILIES)}") from None


def math(name: str) -> Math:
    """The kind of arithmetic called ``name`` (a spec's ``math``)."""
    return MATHS[name]
