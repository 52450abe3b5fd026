"""The HGEMM ladder (hgemm/01..09): every rung computes A @ B for fp16 and bf16 inputs, with an
fp16, bf16 or fp32 output, for any shape and any of the four A/B layouts.

Each case draws fresh random inputs, fills the output with NaN so that an element the kernel never
wrote shows up, and compares with the float64 product of the same (already rounded) inputs by
||out - ref|| / ||ref||. Accumulation is in fp32, so the error is essentially the rounding of
the output: about 3e-4 for fp16, 2e-3 for bf16. The limits are 2e-3 for fp16 and fp32 outputs
and 1e-2 for bf16 outputs. The fp16-accumulate variant has its own, K-dependent limit (below).
"""

from __future__ import annotations

import math

import pytest
import torch

import warpgemm
from warpgemm import catalog
from warpgemm.operands import prepare

from conftest import with_extra

pytestmark = pytest.mark.gpu

F16, BF16, F32 = torch.float16, torch.bfloat16, torch.float32
TOL = {F16: 2e-3, F32: 2e-3, BF16: 1e-2}
"""Limit on the relative Frobenius error, by output dtype, for fp32 accumulation."""

RAGGED = [(1, 1, 1), (17, 33, 65), (1000, 1000, 1000), (4097, 4095, 4093), (3000, 5000, 7),
          (7, 3000, 5000), (8191, 129, 4099), (255, 8193, 1023)]
SHAPES = RAGGED + [(128, 128, 128), (256, 256, 256)]
LAYOUTS = [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")]
DTYPES = [(F16, F16), (BF16, BF16), (F16, F32), (BF16, F32)]
"""(input dtype, output dtype): the output is the input dtype or float32."""

F32_ACC_RUNGS = [s.name for s in catalog.kernels("hgemm") if s.math != "f16acc"]
F16_ACC = "hgemm/08_f16_accumulate"


def _operand(rows: int, cols: int, layout: str, dtype: torch.dtype) -> torch.Tensor:
    if layout == "row":
        return torch.randn(rows, cols, device="cuda").to(dtype)
    return torch.randn(cols, rows, device="cuda").to(dtype).t()  # column-major: a transposed view


def _rel_err(out: torch.Tensor, ref: torch.Tensor) -> float:
    return float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref))


def _check(kernel: str, m: int, n: int, k: int, la: str, lb: str, dtype: torch.dtype,
           out_dtype: torch.dtype, tol: float | None = None, no_copy: bool = False,
           **params: int) -> None:
    a, b = _operand(m, k, la, dtype), _operand(k, n, lb, dtype)
    if no_copy:  # aligned row- or column-major operands are read in place
        align = catalog.get(kernel).align_elems
        assert not prepare(a, {"row", "col"}, align).copied and not prepare(b, {"row", "col"}, align).copied
    out = torch.full((m, n), float("nan"), dtype=out_dtype, device="cuda")
    result = warpgemm.matmul(a, b, kernel=kernel, out=out, out_dtype=out_dtype, **params)
    assert result is out
    assert not torch.isnan(out).any(), f"{kernel} left unwritten (NaN) elements"
    err = _rel_err(out, a.double() @ b.double())
    limit = TOL[out_dtype] if tol is None else tol
    assert err <= limit, (f"{kernel} {m}x{n}x{k} {la}/{lb} {dtype}->{out_dtype} {params or ''}: "
                          f"rel err {err:.2e} > {limit:.1e}")


def _id(kernel: str, shape, layouts, dtypes) -> str:
    short = {F16: "f16", BF16: "bf16", F32: "f32"}
    return (f"{kernel.split('/')[1]}-{'x'.join(map(str, shape))}-{layouts[0][0]}{layouts[1][0]}-"
            f"{short[dtypes[0]]}to{short[dtypes[1]]}")


# -- every fp32-accumulate rung, ragged shapes in every layout --------------------------------
# Each (shape, layout) pair runs once, with the dtype pair rotating so that every layout meets
# every dtype pair across the shapes.

RAGGED_CASES = [(rung, shape, lay, DTYPES[(si + li) % len(DTYPES)])
                for rung in F32_ACC_RUNGS for si, shape in enumerate(SHAPES)
                for li, lay in enumerate(LAYOUTS)]


@pytest.mark.parametrize("kernel,shape,layouts,dtypes", [with_extra(c[0], *c) for c in RAGGED_CASES],
                         ids=[_id(*c) for c in RAGGED_CASES])
def test_every_rung_matches_float64_on_ragged_shapes(kernel, shape, layouts, dtypes):
    _check(kernel, *shape, *layouts, *dtypes)


# -- the layouts suite: every layout with every dtype pair, and one large square per rung ----

LAYOUT_CASES = [(rung, (1024, 1024, 1024), lay, dt)
                for rung in F32_ACC_RUNGS for lay in LAYOUTS for dt in DTYPES]
LAYOUT_CASES += [(rung, (4096, 4096, 4096), LAYOUTS[i % 4], DTYPES[i % 4])
                 for i, rung in enumerate(F32_ACC_RUNGS)]


@pytest.mark.parametrize("kernel,shape,layouts,dtypes", [with_extra(c[0], *c) for c in LAYOUT_CASES],
                         ids=[_id(*c) for c in LAYOUT_CASES])
def test_every_rung_reads_every_layout_without_copies(kernel, shape, layouts, dtypes):
    _check(kernel, *shape, *layouts, *dtypes, no_copy=True)


# -- the fp16-accumulate variant ---------------------------------------------------------------
# The running sum is rounded to fp16 (unit roundoff u = 2**-11) after every k16 step. The partial
# sums of K products of unit-variance inputs grow like sqrt(k), so the K/16 roundings add an error
# whose size relative to the result grows like u * sqrt(K): a model of exactly that measures about
# 0.08 * u * sqrt(K) (2.4e-3 at K = 4099). The limit allows five times the model on top of the
# output rounding, 2e-3 + 0.4 * u * sqrt(K): 2.1e-3 at K = 1, 1.5e-2 at K = 5000. A wrong
# element, by contrast, costs an error of order 1.


def _f16acc_tol(k: int) -> float:
    return 2e-3 + 0.4 * 2.0**-11 * math.sqrt(k)


F16ACC_CASES = [(F16_ACC, shape, lay, (F16, F16)) for shape in SHAPES for lay in LAYOUTS]
F16ACC_CASES += [(F16_ACC, (1024, 1024, 1024), lay, (F16, F16)) for lay in LAYOUTS]
F16ACC_CASES += [(F16_ACC, (4096, 4096, 4096), ("row", "row"), (F16, F16))]


@pytest.mark.parametrize("kernel,shape,layouts,dtypes", F16ACC_CASES,
                         ids=[_id(*c) for c in F16ACC_CASES])
def test_fp16_accumulate_matches_float64_within_its_rounding(kernel, shape, layouts, dtypes):
    _check(kernel, *shape, *layouts, *dtypes, tol=_f16acc_tol(shape[2]))


# The CuTe rung with the write-up's own atom, SM80_16x8x16_F16F16F16F16_TN: the same rounding.
CUTE = "hgemm/09_cute_tiled_mma"
CUTE_F16ACC_CASES = [(CUTE, shape, lay, (F16, F16)) for shape in SHAPES for lay in LAYOUTS]
CUTE_F16ACC_CASES += [(CUTE, (4096, 4096, 4096), ("col", "row"), (F16, F16))]


@pytest.mark.parametrize("kernel,shape,layouts,dtypes", [with_extra(CUTE, *c) for c in CUTE_F16ACC_CASES],
                         ids=[_id(*c) + "-F16_ACCUMULATE" for c in CUTE_F16ACC_CASES])
def test_the_cute_rung_with_the_fp16_accumulate_atom_matches_float64_within_its_rounding(kernel, shape, layouts,
                                                                                       dtypes):
    _check(kernel, *shape, *layouts, *dtypes, tol=_f16acc_tol(shape[2]), F16_ACCUMULATE=1)


def test_fp16_accumulate_takes_fp16_only():
    a = torch.randn(64, 64, device="cuda").to(BF16)
    with pytest.raises(TypeError, match="takes float16"):
        warpgemm.matmul(a, a, kernel=F16_ACC)
    h = a.to(F16)
    with pytest.raises(ValueError, match="writes float16"):
        warpgemm.matmul(h, h, kernel=F16_ACC, out_dtype=F32)


# -- the tuned rung: other points of its tuning space --------------------------------------------

TUNED = "hgemm/07_tuned"
TUNED_VARIANTS = [
    dict(BM=128, BN=128, BK=32, WM=64, WN=64, STAGES=3, SWIZZLE=8),    # 4 warps, 2 blocks per SM
    dict(BM=128, BN=128, BK=64, WM=32, WN=64, STAGES=2, SWIZZLE=1),    # 8 warps of 32x64, no swizzle
    dict(BM=128, BN=256, BK=32, WM=64, WN=64, STAGES=5, SWIZZLE=16),   # wide tile, deepest ring
    dict(BM=256, BN=64, BK=64, WM=64, WN=64, STAGES=3, SWIZZLE=8),     # tall tile, BK = 64
    dict(BM=64, BN=128, BK=32, WM=32, WN=64, STAGES=4, SWIZZLE=16),    # small tile for small problems
    dict(BM=64, BN=256, BK=64, WM=32, WN=64, STAGES=2, SWIZZLE=8),
]
TUNED_SHAPES = [(1, 1, 1), (17, 33, 65), (1000, 1000, 1000), (4097, 4095, 4093), (7, 3000, 5000),
                (255, 8193, 1023)]
TUNED_CASES = [(p, shape, lay, DTYPES[(vi + si + li) % len(DTYPES)])
               for vi, p in enumerate(TUNED_VARIANTS) for si, shape in enumerate(TUNED_SHAPES)
               for li, lay in enumerate(LAYOUTS)]


def test_the_tuned_variants_under_test_are_in_the_tuning_space():
    spec = catalog.get(TUNED)
    for p in TUNED_VARIANTS:
        full = spec.resolve(p)
        assert all(full[k] in spec.tuning[k] for k in spec.tuning), p
        assert spec.valid(full), p


@pytest.mark.parametrize("params,shape,layouts,dtypes", TUNED_CASES,
                         ids=[_id(TUNED, s, l, d) + "-" + ",".join(f"{k}{v}" for k, v in p.items())
                              for p, s, l, d in TUNED_CASES])
def test_tuned_rung_variants_match_float64(params, shape, layouts, dtypes):
    _check(TUNED, *shape, *layouts, *dtypes, **params)


# -- inputs and outputs the fast path does not take as they are ------------------------------------

@pytest.mark.parametrize("kernel", ["hgemm/02_mma_ldmatrix", "hgemm/06_fragment_double_buffer"])
def test_unaligned_and_strided_inputs_are_copied_and_correct(kernel):
    # A starts one element into its storage (not 16-byte aligned) with an odd leading dimension;
    # B is neither row- nor column-major. Both go through the aligned copy of the declared fallback.
    a = torch.randn(300, 402, device="cuda").to(F16)[:, 1:]
    b = torch.randn(802, 300, device="cuda").to(F16)[::2, ::2]
    out = warpgemm.matmul(a, b, kernel=kernel)
    assert _rel_err(out, a.double() @ b.double()) <= TOL[F16]


@pytest.mark.parametrize("kernel", [with_extra(r, r) for r in F32_ACC_RUNGS])
@pytest.mark.parametrize("out_dtype", [F16, F32])
def test_an_output_not_16_byte_aligned_is_written_with_narrower_stores(kernel, out_dtype):
    m, n, k = 333, 264, 100
    a, b = _operand(m, k, "row", F16), _operand(k, n, "row", F16)
    storage = torch.full((m * n + 1,), float("nan"), dtype=out_dtype, device="cuda")
    out = storage[1:].view(m, n)  # contiguous, base 2 or 4 bytes past a 16-byte boundary
    warpgemm.matmul(a, b, kernel=kernel, out=out, out_dtype=out_dtype)
    assert not torch.isnan(storage[1:]).any() and torch.isnan(storage[0])
    assert _rel_err(out, a.double() @ b.double()) <= TOL[out_dtype]


@pytest.mark.gpu
@pytest.mark.parametrize("m,n,k", [(1000, 1000, 1000), (255, 8193, 1023), (4097, 130, 65)])
@pytest.mark.parametrize("out_dtype", [None, torch.float32])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_the_tuned_rung_adds_the_bias_in_its_epilogue(m, n, k, out_dtype, dtype):
    a = torch.randn(m, k, device="cuda").to(dtype)
    w = torch.randn(n, k, device="cuda").to(dtype)
    bias = torch.randn(n, device="cuda").to(dtype)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=out_dtype or dtype)
    warpgemm.matmul(a, w.t(), bias=bias, kernel="hgemm/07_tuned", out_dtype=out_dtype, out=out)
    ref = a.double() @ w.double().t() + bias.double()
    err = float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref))
    assert err < (1e-5 if out_dtype is torch.float32 else 1e-2)  # fp32 out: added before any rounding
