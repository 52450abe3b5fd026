"""The small-M (decode) kernels: A @ W.t() for M <= 64, any N and K, fp16/bf16 in, fp16/bf16/fp32
out, with the bias fused, the same bits on every run; and kernel="auto" sends decode shapes to them.
Rung 02 (Hopper's pipeline, swapped) also reads a row-major B and any M.

Fresh random inputs every time, the output poisoned with NaN, a float64 reference."""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import dispatch
from warpgemm.catalog.decode import TOKEN_TILES

pytestmark = pytest.mark.gpu

KERNEL = "decode/01_swap_ab_splitk"
WGMMA = "decode/02_swap_ab_wgmma"
SWEEP = "decode/03_row_sweep"
SWEEP_MMA = "decode/04_row_sweep_mma"


def _on_hopper() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


needs_hopper = pytest.mark.skipif("not _on_hopper()", reason="decode/02 runs on compute capability 9.0 only")
MS = [1, 2, 7, 8, 9, 16, 31, 33, 64]
# K runs in chunks of 32 (4 lanes x 8 elements): K = 1, primes (97, 4093), a chunk +-1 (31, 33),
# an odd count of whole chunks (2080 = 65 x 32), and a K whose rows are not 16-byte aligned.
NKS = [(1, 8), (17, 65), (100, 4096), (4095, 1000), (4096, 4096), (257, 33),
       (255, 1), (64, 97), (1000, 4093), (33, 31), (129, 2080)]
TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 2e-3}


def _linear_operands(m: int, n: int, k: int, dtype: torch.dtype):
    x = torch.randn(m, k, device="cuda").to(dtype)
    w = torch.randn(n, k, device="cuda").to(dtype) / k ** 0.5
    return x, w


def _rel(out: torch.Tensor, ref: torch.Tensor) -> float:
    return float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref).clamp_min(1e-30))


@pytest.mark.parametrize("kernel,m", [(KERNEL, m) for m in MS] + [(SWEEP, m) for m in (1, 2, 3, 4, 5, 8)]
                         + [(SWEEP_MMA, m) for m in (1, 2, 7, 8, 9, 16)])
@pytest.mark.parametrize("n,k", NKS)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_small_m_is_correct_for_any_n_and_k(kernel, m, n, k, dtype):
    # Rung 03 (the row sweep) holds up to 8 tokens; a row's last partial vector is read element by
    # element. Rung 04 (the sweep on the tensor cores) holds up to 16 and zero-fills past K.
    x, w = _linear_operands(m, n, k, dtype)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    warpgemm.matmul(x, w.t(), kernel=kernel, out=out)
    torch.cuda.synchronize()
    assert _rel(out, x.double() @ w.double().t()) < TOL[dtype]


@pytest.mark.parametrize("out_dtype", [None, torch.float32])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_the_bias_is_added_in_fp32_before_the_one_rounding(dtype, out_dtype):
    m, n, k = 5, 1000, 1536
    x, w = _linear_operands(m, n, k, dtype)
    bias = torch.randn(n, device="cuda").to(dtype)
    out = warpgemm.matmul(x, w.t(), kernel=KERNEL, bias=bias, out_dtype=out_dtype)
    ref = x.double() @ w.double().t() + bias.double()
    assert out.dtype == (out_dtype or dtype)
    assert _rel(out, ref) < TOL[out.dtype]
    if out_dtype is torch.float32:  # fp32 out: only the fp32 sums' rounding, far below bf16's
        assert _rel(out, ref) < 1e-5


@pytest.mark.parametrize("l2_256b", [0, 1])
@pytest.mark.parametrize("ksplit", [2, 4, 7])
@pytest.mark.parametrize("m,n,k", [(1, 1, 8), (3, 100, 4096), (20, 1000, 1000), (64, 2048, 2049), (8, 2048, 2048),
                                   (1, 257, 1), (5, 300, 97), (7, 1000, 4093), (33, 129, 2080)])
def test_k_split_across_blocks_is_correct(ksplit, m, n, k, l2_256b):
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.empty((m, n), device="cuda", dtype=torch.float32)
    for launch in range(2):  # the second launch finds the counters reset by the first
        out.fill_(float("nan"))
        warpgemm.matmul(x, w.t(), kernel=KERNEL, out=out, out_dtype=torch.float32, bias=bias, KSPLIT=ksplit,
                        L2_256B=l2_256b)
        assert _rel(out, x.double() @ w.double().t() + bias.double()) < 1e-5, f"launch {launch}"


@pytest.mark.parametrize("stagger", [2, 8, 13])
@pytest.mark.parametrize("ksplit", [1, 3])
@pytest.mark.parametrize("m,n,k", [(1, 4096, 4096), (8, 1000, 4093), (5, 300, 97), (16, 129, 2080), (2, 17, 31)])
def test_a_staggered_walk_over_k_is_correct(stagger, ksplit, m, n, k):
    # Block x starts at band x % STAGGER of the k chunks and wraps: every chunk still summed once,
    # with or without a K split across blocks and a partial last chunk.
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    warpgemm.matmul(x, w.t(), kernel=KERNEL, out=out, out_dtype=torch.float32, KSPLIT=ksplit, STAGGER=stagger)
    assert _rel(out, x.double() @ w.double().t()) < 1e-5


# Rung 03 (kernel, parameters, shapes): every block shape; 14336 rows make several passes of ROWS
# rows for every block, 4099 a partial last vector.
SWEEP_CASES = [
    (SWEEP, p, [(1, 4096, 4096), (3, 14336, 1000), (2, 33, 4099), (1, 1, 7), (4, 5000, 2048)])
    for p in ({"THREADS": 256, "ROWS": 4, "UNROLL": 2, "L2_256B": 0, "BLOCKS": 2},
              {"THREADS": 1024, "ROWS": 16, "UNROLL": 8, "BLOCKS": 1},
              {"THREADS": 512, "ROWS": 4, "UNROLL": 4, "BLOCKS": 1},
              {"THREADS": 256, "ROWS": 8, "UNROLL": 2, "BLOCKS": 8})]


def _check_sweep(kernel, params, m, n, k):
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    warpgemm.matmul(x, w.t(), kernel=kernel, out=out, out_dtype=torch.float32, bias=bias, **params)
    assert _rel(out, x.double() @ w.double().t() + bias.double()) < 1e-5


@pytest.mark.parametrize("kernel,params,m,n,k", [(kn, p, *shape) for kn, p, shapes in SWEEP_CASES for shape in shapes])
def test_the_row_sweep_is_correct_with_any_block_shape_and_several_passes(kernel, params, m, n, k):
    _check_sweep(kernel, params, m, n, k)


@pytest.mark.parametrize("out_dtype", [None, torch.float32])
def test_the_row_sweep_adds_the_bias_in_fp32_before_the_one_rounding(out_dtype):
    x, w = _linear_operands(2, 3000, 1536, torch.float16)
    bias = torch.randn(3000, device="cuda").to(torch.float16)
    out = torch.full((2, 3000), float("nan"), device="cuda", dtype=out_dtype or torch.float16)
    warpgemm.matmul(x, w.t(), kernel=SWEEP, bias=bias, out_dtype=out_dtype, out=out)
    ref = x.double() @ w.double().t() + bias.double()
    assert out.dtype == (out_dtype or torch.float16)
    assert _rel(out, ref) < (1e-5 if out_dtype is torch.float32 else TOL[torch.float16])


def test_the_row_sweep_gives_the_same_bits_on_every_run_and_refuses_more_than_8_tokens():
    x, w = _linear_operands(4, 4096, 4096, torch.bfloat16)
    first = warpgemm.matmul(x, w.t(), kernel=SWEEP)
    for _ in range(3):
        assert torch.equal(warpgemm.matmul(x, w.t(), kernel=SWEEP), first)
    x, w = _linear_operands(9, 64, 64, torch.bfloat16)
    with pytest.raises(ValueError, match="computes at most M = 8 rows"):
        warpgemm.matmul(x, w.t(), kernel=SWEEP)


def test_the_row_sweep_fills_the_gpu_by_occupancy():
    from warpgemm import catalog
    from warpgemm.runtime import compile_kernel
    from warpgemm.runtime.device import sm_count
    from warpgemm.runtime.launch import blocks_that_fit

    spec = catalog.get(SWEEP)
    inst = spec.instance("row", "col", "bfloat16", "bfloat16", spec.resolve({"TOKENS": 1, "BLOCKS": 4, "ROWS": 8}))
    kernel = compile_kernel(inst.source, inst.name_expression)
    slots = blocks_that_fit(kernel, inst.block, inst.smem_bytes, torch.cuda.current_device())
    assert slots == 4 * sm_count(torch.cuda.current_device())  # 512 threads of 32 registers: 4 a SM
    assert inst.grid(1, 4096, 4096, slots) == (512, 1, 1)  # 4096 rows in passes of 8: 512 blocks
    assert inst.grid(1, 100000, 4096, slots) == (slots, 1, 1)


# -- rung 04: the row sweep on the tensor cores ------------------------------------------------------

# (parameters, shapes): every block shape and depth on several passes (14336 rows), a partial last
# chunk and an odd K (4099, 7), rows fewer than a pass (33, 1), and two k-steps a row (K > 8 x THREADS).
SWEEP_MMA_CASES = [
    ({}, [(2, 4096, 4096), (16, 14336, 1000), (7, 33, 4099), (9, 33, 4093), (1, 1, 7), (8, 5000, 8192), (5, 3000, 6000)]),
    ({"THREADS": 256, "KSTEPS": 2, "STAGES": 6}, [(4, 14336, 4096), (3, 100, 4093), (8, 17, 2050)]),
    ({"THREADS": 512, "KSTEPS": 2, "STAGES": 2}, [(8, 14336, 8192), (2, 333, 5001)]),
    ({"TOKENS": 16, "THREADS": 128, "STAGES": 4}, [(16, 5000, 1024), (11, 77, 1000), (1, 4096, 9)]),
    ({"THREADS": 128, "KSTEPS": 1, "STAGES": 3}, [(8, 4096, 1024), (6, 300, 777)]),
]


@pytest.mark.parametrize("params,m,n,k", [(p, *shape) for p, shapes in SWEEP_MMA_CASES for shape in shapes])
def test_the_row_sweep_on_the_tensor_cores_is_correct_with_any_block_shape_and_depth(params, m, n, k):
    _check_sweep(SWEEP_MMA, params, m, n, k)


@pytest.mark.parametrize("out_dtype", [None, torch.float32])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_the_row_sweep_on_the_tensor_cores_adds_the_bias_in_fp32_before_the_one_rounding(dtype, out_dtype):
    x, w = _linear_operands(12, 3000, 1536, dtype)
    bias = torch.randn(3000, device="cuda").to(dtype)
    out = torch.full((12, 3000), float("nan"), device="cuda", dtype=out_dtype or dtype)
    warpgemm.matmul(x, w.t(), kernel=SWEEP_MMA, bias=bias, out_dtype=out_dtype, out=out)
    ref = x.double() @ w.double().t() + bias.double()
    assert _rel(out, ref) < (1e-5 if out_dtype is torch.float32 else TOL[dtype])


def test_the_row_sweep_on_the_tensor_cores_gives_the_same_bits_on_every_run_and_names_its_limits():
    x, w = _linear_operands(6, 4096, 4096, torch.bfloat16)
    first = warpgemm.matmul(x, w.t(), kernel=SWEEP_MMA)
    for _ in range(3):
        assert torch.equal(warpgemm.matmul(x, w.t(), kernel=SWEEP_MMA), first)
    x, w = _linear_operands(17, 64, 64, torch.bfloat16)
    with pytest.raises(ValueError, match="computes at most M = 16 rows"):
        warpgemm.matmul(x, w.t(), kernel=SWEEP_MMA)
    x, w = _linear_operands(4, 64, 8200, torch.bfloat16)  # two k-steps of 512 threads: K <= 8192
    with pytest.raises(ValueError, match="computes at most K = 8192"):
        warpgemm.matmul(x, w.t(), kernel=SWEEP_MMA)
    x, w = _linear_operands(12, 64, 4104, torch.bfloat16)  # 16 tokens: one k-step, K <= 4096
    with pytest.raises(ValueError, match="computes at most K = 4096"):
        warpgemm.matmul(x, w.t(), kernel=SWEEP_MMA)


def test_the_row_sweep_on_the_tensor_cores_fills_the_gpu_by_occupancy():
    from warpgemm import catalog
    from warpgemm.runtime import compile_kernel
    from warpgemm.runtime.device import sm_count
    from warpgemm.runtime.launch import blocks_that_fit

    spec = catalog.get(SWEEP_MMA)
    sms = sm_count(torch.cuda.current_device())
    for threads, per_sm in ((512, 1), (256, 2)):  # 16 warps' rings of 3 x 4 KB: 200 KB; 8 warps': 100 KB
        inst = spec.instance("row", "col", "bfloat16", "bfloat16", spec.resolve({"THREADS": threads}))
        kernel = compile_kernel(inst.source, inst.name_expression)
        slots = blocks_that_fit(kernel, inst.block, inst.smem_bytes, torch.cuda.current_device())
        assert slots == per_sm * sms
        assert inst.grid(1, 100000, 4096, slots) == (slots, 1, 1)
    assert inst.grid(1, 80, 4096, slots) == (10, 1, 1)  # 80 rows in passes of 8: 10 blocks


@pytest.mark.parametrize("ksplit,stagger", [(1, 1), (4, 1), (1, 8)])
def test_the_result_is_the_same_bits_on_every_run(ksplit, stagger):
    x, w = _linear_operands(16, 4096, 4096, torch.bfloat16)
    first = warpgemm.matmul(x, w.t(), kernel=KERNEL, KSPLIT=ksplit, STAGGER=stagger)
    for _ in range(3):
        assert torch.equal(warpgemm.matmul(x, w.t(), kernel=KERNEL, KSPLIT=ksplit, STAGGER=stagger), first)


def test_more_rows_than_the_kernel_holds_are_refused():
    x, w = _linear_operands(65, 64, 64, torch.bfloat16)
    with pytest.raises(ValueError, match="computes at most M = 64 rows"):
        warpgemm.matmul(x, w.t(), kernel=KERNEL)
    x, w = _linear_operands(20, 64, 64, torch.bfloat16)
    with pytest.raises(ValueError, match="computes at most M = 8 rows"):
        warpgemm.matmul(x, w.t(), kernel=KERNEL, TOKEN_TILES=1)


def _large_m_kernel() -> str:
    """What kernel="auto" runs for fp16 / bf16 above the decode kernel's rows on this GPU."""
    return "hopper/06_tma_store_epilogue" if torch.cuda.get_device_capability() == (9, 0) else "hgemm/07_tuned"


def _on_132_sm_hopper() -> bool:
    """An H100 SXM or an H200: the GPUs the rules measured on the H100 SXM serve (dispatch._132_SMS)."""
    return _on_hopper() and any(part in torch.cuda.get_device_name() for part in dispatch._132_SMS)


def _on_h200() -> bool:
    return _on_hopper() and "H200" in torch.cuda.get_device_name()


def _expected(m: int, b_layout: str) -> str:
    """What kernel="auto" should run for an M x 256 x 512 bf16 problem on this GPU."""
    if m > 64:  # on the H100 SXM and the H200 the Linear layout's 65-192 rows stay on decode/02
        return WGMMA if _on_132_sm_hopper() and m <= 192 and b_layout == "col" else _large_m_kernel()
    if _on_hopper():  # decode/01 up to 16 rows in the Linear layout (8 on the H200), decode/02 otherwise
        return KERNEL if m <= (8 if _on_h200() else 16) and b_layout == "col" else WGMMA
    return KERNEL if b_layout == "col" else "hgemm/07_tuned"


@pytest.mark.parametrize("m", [1, 16, 17, 64, 65, 192, 193])
def test_auto_sends_small_m_to_the_decode_kernels(m, monkeypatch):
    from warpgemm import api

    chosen = []
    real = api.run_instance
    monkeypatch.setattr(api, "run_instance", lambda inst, *rest: (chosen.append(inst.name), real(inst, *rest)))
    x, w = _linear_operands(m, 256, 512, torch.bfloat16)
    for b_layout, b in (("col", w.t()), ("row", w.t().contiguous())):
        chosen.clear()
        out = warpgemm.matmul(x, b)
        assert chosen == [_expected(m, b_layout)], b_layout
        assert _rel(out, x.double() @ w.double().t()) < 1e-2


# decode/01; on the H100 one token takes decode/03 (the row sweep, a grid sized by occupancy), two
# decode/04 (the sweep on the tensor cores) and 40 tokens decode/02; on the H200 64 and 96 tokens
# take decode/02 in clusters sharing W
@pytest.mark.parametrize("m", [1, 2, 4, *(pytest.param(m, marks=needs_hopper) for m in (40, 64, 96))])
def test_a_captured_graph_replays_the_decode_kernel(m):
    x, w = _linear_operands(m, 4096, 4096, torch.bfloat16)
    out = torch.empty(m, 4096, device="cuda", dtype=torch.bfloat16)
    warpgemm.matmul(x, w.t(), out=out)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        warpgemm.matmul(x, w.t(), out=out)
    for _ in range(2):  # a K split's counters are left zero for the next replay
        x.copy_(torch.randn_like(x))
        out.fill_(float("nan"))
        g.replay()
        torch.cuda.synchronize()
        assert _rel(out, x.double() @ w.double().t()) < 1e-2


# -- rung 02: swap AB through the Hopper pipeline -------------------------------------------------

WGMMA_SHAPES = [(1, 8, 8), (7, 100, 4096), (17, 1000, 1000), (31, 4095, 1000), (33, 4096, 4096), (64, 129, 2080),
                (64, 4096, 4096), (40, 257, 33), (64, 1, 64), (100, 300, 520)]


@needs_hopper
@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("m,n,k", WGMMA_SHAPES)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_swap_ab_wgmma_is_correct_for_any_shape_in_both_b_layouts(m, n, k, dtype, b_layout):
    x, w = _linear_operands(m, n, k, dtype)
    b = w.t() if b_layout == "col" else w.t().contiguous()
    out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    warpgemm.matmul(x, b, kernel=WGMMA, out=out)
    torch.cuda.synchronize()
    assert _rel(out, x.double() @ w.double().t()) < TOL[dtype]


@needs_hopper
@pytest.mark.parametrize("params", [{"BM": 64, "BN": 32, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0},
                                    {"BM": 128, "BN": 32, "BK": 64, "STAGES": 6},
                                    {"BM": 64, "BN": 64, "BK": 64, "STAGES": 8, "SPLITS": 1},
                                    {"BM": 64, "BN": 32, "BK": 128, "STAGES": 8, "SPLITS": 1, "STAGGER": 8},
                                    {"BM": 64, "BN": 32, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 3},
                                    {"BM": 128, "BN": 64, "BK": 64, "STAGES": 4, "STAGGER": 8}])
@pytest.mark.parametrize("m,n,k", [(9, 2048, 4096), (64, 1000, 1537), (32, 14336, 64), (20, 4096, 4093)])
def test_swap_ab_wgmma_params_and_the_split_are_correct_with_the_bias(m, n, k, params):
    _check_with_bias(m, n, k, params)


def _h200_choice(m: int, n: int, k: int) -> dispatch.Rule:
    """The rule kernel="auto" follows for bf16 in the Linear layout on an H200 (its rules are the
    H200's own whatever GPU runs the test: the kernels they choose run on any Hopper GPU)."""
    return dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")


def _check_with_bias(m: int, n: int, k: int, params: dict, kernel: str = WGMMA) -> None:
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.empty((m, n), device="cuda", dtype=torch.float32)
    # fp32 sums of K products round by about 2^-24 sqrt(K) of their size: 1e-5 up to K = 4096, more
    # beyond (a wrong or missing part is off by 1e-3 or more, or NaN)
    tol = 1e-5 * max(1.0, (k / 4096) ** 0.5)
    for launch in range(2):  # the second launch finds the split's counters reset by the first
        out.fill_(float("nan"))
        warpgemm.matmul(x, w.t(), kernel=kernel, out=out, out_dtype=torch.float32, bias=bias, **params)
        assert _rel(out, x.double() @ w.double().t() + bias.double()) < tol, f"launch {launch}"


@needs_hopper
@pytest.mark.parametrize("params", [dispatch._H200_A, dispatch._H200_B, dispatch._H200_D, dispatch._H200_G],
                         ids=["A", "B", "D", "G"])
@pytest.mark.parametrize("m,n,k", [(2, 4225, 4097), (7, 6143, 8191), (9, 12289, 1031), (16, 1000, 12289),
                                   (32, 14337, 4093)])
def test_the_h200_rules_choices_for_2_to_32_rows_are_correct_on_ragged_weights(m, n, k, params):
    # The H200's decode rules pick these for 2-32 rows (warpgemm/dispatch.py); the kernel is the
    # same on any Hopper, so they are checked here on ragged N and K, with the bias, twice.
    _check_with_bias(m, n, k, params)


@pytest.mark.parametrize("m,n,k,kernel", [
    (1, 4097, 4093, SWEEP), (1, 1025, 2048, SWEEP), (1, 8191, 14337, SWEEP), (1, 32001, 4100, SWEEP),
    (2, 1025, 1536, SWEEP_MMA), (3, 4099, 4095, SWEEP_MMA), (4, 12289, 2049, SWEEP_MMA), (5, 5121, 4096, SWEEP_MMA),
    (8, 14337, 3001, SWEEP_MMA),
    (2, 4097, 14337, KERNEL), (4, 12289, 4099, KERNEL), (8, 28673, 8191, KERNEL),  # staggered
    *(pytest.param(*shape, WGMMA, marks=needs_hopper) for shape in (
        (33, 4095, 4093), (40, 3073, 1024), (47, 3100, 2049), (56, 4224, 2047), (64, 3072, 1025)))])
def test_the_h200s_own_choices_at_1_to_8_rows_and_unsplit_tiles_at_33_to_64_are_correct_on_ragged_weights(m, n, k,
                                                                                                           kernel):
    # The H200's rules send one token with K >= 2048 to rung 03 (256 threads, 8 blocks a SM, 2 rows a
    # pass), 2-8 with K up to 4096 to rung 04 (two stages), 2-4 and 8 past K = 4096 to rung 01
    # staggered, and 33-64 rows of a 3072-4224-row weight to rung 02 unsplit; the kernels are the
    # same on any GPU they run on, so their choices are checked here on ragged N and K (a partial
    # last vector of a row, a last tile of W), with the bias, NaN-poisoned, twice.
    rule = _h200_choice(m, n, k)
    assert rule.device == "H200" and rule.kernel == kernel
    if kernel == KERNEL:
        assert rule.params["STAGGER"] == 8
    if rule.kernel == WGMMA:
        assert rule.params["SPLITS"] == 1 and m <= rule.params["BN"] < m + 8
    _check_with_bias(m, n, k, rule.params, kernel=rule.kernel)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(49, 2048, 2048), (56, 4224, 4096), (57, 4097, 3000), (64, 2049, 4095),
                                   (63, 3071, 2049), (65, 3073, 3073), (81, 4100, 14335), (100, 3500, 8191),
                                   (127, 4223, 4097), (129, 3073, 3073), (150, 4100, 8191), (192, 4224, 5000)])
def test_the_h200_rules_clusters_sharing_w_at_49_to_192_rows_are_correct_on_ragged_weights(m, n, k):
    # Two tiles of 32-96 tokens on each tile of W, in a cluster that shares W's box: the second tile
    # of tokens ragged, the last tile of W ragged, K ragged
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and rule.params["SHARE_W"] == 1 and rule.params["CLUSTER"] == 2
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(9, 12289, 4093), (16, 28673, 8200), (12, 6145, 4000), (13, 8191, 12289),
                                   (16, 4095, 4097), (10, 3001, 520), (11, 10241, 8191),
                                   (2, 8191, 8193), (5, 4353, 16385), (8, 11007, 6143), (3, 4225, 12288),
                                   (2, 4353, 8193), (7, 4864, 12287), (4, 4225, 4097)])
def test_the_h200_rules_tiles_of_16_tokens_at_2_to_16_rows_are_correct_on_ragged_weights(m, n, k):
    # wgmma m64n16k16: one tile of 16 tokens holds 2-16 rows, the last rows of it empty; 64- and
    # 128-row tiles of W, split or not, staggered or not; ragged N and K
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and rule.params["BN"] == 16
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(17, 5633, 3969), (32, 7168, 4095), (20, 6143, 4096), (49, 6145, 4001),
                                   (64, 7167, 4096), (57, 5632, 4093)])
def test_the_h200_rules_clusters_of_four_sharing_the_tokens_are_correct_on_ragged_weights(m, n, k):
    # Four 64-row tiles of W on one tile of 32 or 64 tokens, each block loading a quarter of the
    # tokens' box: the last cluster's last tiles past N, K ragged, the tokens' tile ragged
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and rule.params["CLUSTER"] == 4 and not rule.params.get("SHARE_W")
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(33, 12289, 4097), (64, 16383, 8191), (47, 20481, 6001), (63, 32767, 8192)])
def test_the_h200_rules_choices_for_33_to_64_rows_of_wide_weights_are_correct_on_ragged_weights(m, n, k):
    # 128-row tiles of W, single blocks with the split last wave or (from N = 20480) clusters of
    # two sharing the tokens, staggered; the last tile of W ragged
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and rule.params["BM"] == 128
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(65, 4225, 4093), (73, 5121, 2049), (88, 16400, 1000), (89, 6150, 8200),
                                   (66, 2049, 4097), (87, 4095, 16383),
                                   (96, 12287, 520), (80, 16385, 8191), (129, 4096, 11009),
                                   (144, 8191, 1000), (145, 8193, 4097), (160, 32767, 64), (161, 5121, 16383),
                                   (177, 10241, 2048), (192, 4100, 8193),
                                   (89, 2049, 4097), (93, 4095, 16383), (96, 3001, 9000),
                                   (136, 2817, 9000), (192, 4095, 8193), (184, 2048, 16384),
                                   (66, 1025, 8193), (88, 2047, 16384),
                                   (89, 1025, 8193), (96, 2047, 16384), (113, 1440, 8193), (128, 2047, 16000),
                                   (72, 4097, 18000), (90, 3001, 20001), (66, 16390, 16500), (136, 8193, 16385),
                                   (190, 2049, 17000), (150, 9000, 24001), (70, 4500, 16400), (180, 5632, 17001)])
def test_the_h200_rules_one_token_tile_at_65_to_128_and_129_to_192_rows_is_correct_on_ragged_weights(m, n, k):
    # every token in one tile of 72-192 (ragged: a tile of 72 holding 65 tokens), 64- or 128-row
    # tiles of W with the deepest ring that fits, the split last wave; the last tile of W ragged;
    # K past 16383 too
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and m <= rule.params["BN"] < m + 48
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(65, 2049, 2048), (80, 4095, 4093), (81, 3001, 2049), (96, 2048, 4096),
                                   (97, 4096, 3001), (112, 2050, 4095),
                                   (65, 1024, 1024), (90, 1537, 8192), (112, 2047, 1030),
                                   (70, 3001, 1025), (100, 4096, 7000), (109, 2049, 8192),
                                   (129, 2049, 4093), (144, 4096, 8192), (150, 3001, 520), (176, 4095, 64),
                                   (177, 2048, 8191), (192, 4096, 1000),
                                   (113, 1025, 1024), (128, 2047, 8192), (130, 1500, 4093), (192, 1024, 1030),
                                   (140, 1100, 3072), (160, 2047, 2000), (100, 2500, 9000), (112, 4095, 16384),
                                   (97, 1025, 12000), (130, 1100, 9000), (192, 2047, 16384),
                                   (113, 1439, 8193), (128, 1025, 16384), (120, 1100, 12000),
                                   (65, 512, 896), (100, 1000, 14337), (150, 777, 3001), (192, 1023, 16384),
                                   (70, 128, 896), (140, 300, 5000), (192, 511, 9001)])
def test_the_h200_rules_two_token_tiles_at_65_to_192_rows_of_narrow_weights_are_correct(m, n, k):
    # the tokens in two tiles (the second ragged) of 40-56 at 65-112 rows (weights of 1024-4096 rows)
    # and of 64-96 at 113-192 (weights of 1024-2047 rows from 113; of 1024-1439 at 113-128 past K
    # 8192) and at 65-192 of weights of 128-1023 rows, 64-row tiles of W (128-row ones at 97-112
    # rows past K 8192), on ragged weights
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and rule.params["BN"] in ((40, 48, 56) if m <= 112 else (64, 72, 80, 88, 96))
    assert rule.params["BN"] < m <= 2 * rule.params["BN"]
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("bn", [96, 128])
@pytest.mark.parametrize("m,n,k", [(89, 1025, 8193), (96, 2047, 16384), (113, 1536, 12289), (128, 1100, 9001),
                                   (120, 4095, 520), (1, 1000, 64)])
def test_swap_ab_wgmma_one_tile_of_96_or_128_tokens_in_a_ring_of_eight_is_correct(m, n, k, bn):
    # every token in one tile (ragged up to 31 empty rows), 64-row tiles of W, eight stages of 64 k:
    # the most shared memory a one-tile ring takes (8 x (64 + 128) x 64 x 2 bytes at BN 128)
    _check_with_bias(m, n, k, {"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1})


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(33, 4097, 4093), (40, 1024, 2048), (41, 6150, 16383), (48, 12287, 2050),
                                   (49, 12288, 4095), (55, 28673, 2049), (56, 3001, 8191),
                                   (34, 1025, 1024), (50, 12287, 2047), (44, 12289, 1030)])
def test_the_h200_rules_narrow_token_tile_at_33_to_56_rows_is_correct_on_ragged_weights(m, n, k):
    # every token in one tile of 40, 48 or 56 (ragged: 33 tokens in a tile of 40), 64- or 128-row
    # tiles of W, the split last wave; the last tile of W ragged
    rule = _h200_choice(m, n, k)
    assert rule.kernel == WGMMA and rule.params["BN"] in (40, 48, 56) and m <= rule.params["BN"] < m + 8
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("m,n,k", [(113, 2049, 4093), (120, 4095, 520), (127, 3001, 8191), (128, 4096, 14337),
                                   (128, 2048, 64)])
def test_the_h200_rules_choice_for_113_to_128_rows_is_correct_on_ragged_weights(m, n, k):
    # 64-row tiles of W, two tiles of tokens (the second ragged), seven stages, the split last wave.
    rule = dispatch.choose(90, "bfloat16", 128, 4096, 4096, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == WGMMA and rule.params["BM"] == 64
    _check_with_bias(m, n, k, rule.params)


@needs_hopper
@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("stagger", [2, 8])
@pytest.mark.parametrize("m,n,k", [(17, 4096, 4096), (64, 300, 1000), (5, 129, 8193)])
def test_swap_ab_wgmma_staggered_walk_over_k_is_correct_in_both_b_layouts(m, n, k, stagger, b_layout):
    # Each tile row starts its k-tiles at band (row % STAGGER) of its K range and wraps, split or not.
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    b = w.t() if b_layout == "col" else w.t().contiguous()
    for splits in (0, 1):
        out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
        warpgemm.matmul(x, b, kernel=WGMMA, out=out, out_dtype=torch.float32, STAGGER=stagger, SPLITS=splits)
        assert _rel(out, x.double() @ w.double().t()) < 1e-5, f"SPLITS={splits}"


@needs_hopper
@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("m,n,k", [(65, 4096, 4096), (129, 1000, 4093), (192, 2049, 520), (128, 8192, 1000),
                                   (100, 300, 520), (191, 129, 64)])
def test_swap_ab_wgmma_computes_65_to_192_tokens_in_tiles_of_64(m, n, k, b_layout):
    # The H100's rules send 65-192 rows here with 128-row tiles of W: two or three tiles of
    # tokens, the last one ragged.
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    b = w.t() if b_layout == "col" else w.t().contiguous()
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    warpgemm.matmul(x, b, kernel=WGMMA, out=out, out_dtype=torch.float32, bias=bias,
                    BM=128, BK=128, STAGES=4, IN_FLIGHT=1)
    assert _rel(out, x.double() @ w.double().t() + bias.double()) < 1e-5


_SHARING_THE_TOKENS = [{"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0},
                       {"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8},
                       {"BM": 128, "BK": 64, "STAGES": 6, "STAGGER": 3},
                       {"CLUSTER": 4, "BM": 64, "BK": 128, "STAGES": 4, "STAGGER": 8}]
_SHARING_W = [{"SHARE_W": 1, "BM": 64, "BN": 32, "STAGES": 6, "STAGGER": 8},
              {"SHARE_W": 1, "BM": 64, "BN": 40, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0},
              {"SHARE_W": 1, "BM": 128, "BN": 32, "BK": 64, "STAGES": 6},
              {"SHARE_W": 1, "BM": 128, "BN": 64, "BK": 128, "STAGES": 4, "STAGGER": 3},
              {"CLUSTER": 4, "SHARE_W": 1, "BM": 128, "BN": 32, "BK": 64, "STAGES": 4},
              {"CLUSTER": 4, "SHARE_W": 1, "BM": 64, "BN": 32, "BK": 128, "STAGES": 6, "STAGGER": 8}]


@needs_hopper
@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("params", _SHARING_THE_TOKENS + _SHARING_W)
@pytest.mark.parametrize("m,n,k", [(64, 8192, 1000), (64, 4100, 1000), (33, 4160, 4093), (17, 64, 129),
                                   (64, 1000, 8193), (100, 300, 520), (32, 129, 64), (1, 8, 8)])
def test_swap_ab_wgmma_in_clusters_is_correct(m, n, k, params, b_layout):
    # Clusters of two (or four) tiles of W sharing the tokens, each block loading a band of the
    # tokens' box and multicasting it (a count of tiles that is not a multiple leaves the last
    # cluster's last tiles past N); or, with SHARE_W, tiles of tokens sharing W, each block loading
    # a band of W's box (of rows, K-major; of k-rows of an M-major slab, where there are fewer
    # slabs than blocks; whole slabs otherwise), the last tile of tokens ragged or wholly past M.
    # Ragged N and K, the bias, NaN-poisoned output.
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    b = w.t() if b_layout == "col" else w.t().contiguous()
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    warpgemm.matmul(x, b, kernel=WGMMA, out=out, out_dtype=torch.float32, bias=bias, **{"CLUSTER": 2, **params})
    assert _rel(out, x.double() @ w.double().t() + bias.double()) < 1e-5 * max(1.0, (k / 4096) ** 0.5)


@needs_hopper
@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("bn,bm,cluster", [(40, 64, 1), (48, 128, 2), (56, 128, 1),
                                           (72, 64, 1), (80, 128, 2), (88, 128, 1), (96, 64, 1), (128, 128, 1),
                                           (144, 128, 1), (160, 64, 2), (176, 128, 1), (192, 128, 2), (256, 64, 1),
                                           (192, 64, 2)])
@pytest.mark.parametrize("m,n,k", [(65, 4096, 4096), (144, 6145, 1000), (192, 1000, 8193), (250, 129, 520),
                                   (7, 300, 64)])
def test_swap_ab_wgmma_takes_every_token_in_one_wide_tile(m, n, k, bn, bm, cluster, b_layout):
    # BN of 96-256 tokens a tile (wgmma m64nBNk16), so that W crosses from L2 once at 65-256 rows;
    # ragged tokens, N and K, split last wave or clusters, the bias, output poisoned with NaN
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    b = w.t() if b_layout == "col" else w.t().contiguous()
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    warpgemm.matmul(x, b, kernel=WGMMA, out=out, out_dtype=torch.float32, bias=bias, BN=bn, BM=bm, BK=64,
                    STAGES=3, IN_FLIGHT=1, CLUSTER=cluster)
    assert _rel(out, x.double() @ w.double().t() + bias.double()) < 1e-5 * max(1.0, (k / 4096) ** 0.5)


@needs_hopper
@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("bn,cluster", [(bn, c) for bn in TOKEN_TILES for c in (1, 2) if c == 1 or bn % 16 == 0])
@pytest.mark.parametrize("tokens", ["one", "a tile and one"])
def test_swap_ab_wgmma_takes_one_token_or_one_past_a_tile_at_every_token_tile_width(bn, cluster, tokens, b_layout):
    # the edges of a token tile: one token in a tile of BN, and BN + 1 tokens, whose second tile
    # holds one; ragged N and K, single blocks (the split) and, where BN halves into whole swizzle
    # atoms, clusters of two; the bias, NaN-poisoned output
    m = 1 if tokens == "one" else bn + 1
    n, k = 1000 + bn, 520
    x, w = _linear_operands(m, n, k, torch.bfloat16)
    b = w.t() if b_layout == "col" else w.t().contiguous()
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
    warpgemm.matmul(x, b, kernel=WGMMA, out=out, out_dtype=torch.float32, bias=bias, BN=bn, BM=64, BK=64,
                    STAGES=3, IN_FLIGHT=1, CLUSTER=cluster)
    assert _rel(out, x.double() @ w.double().t() + bias.double()) < 1e-5


@needs_hopper
@pytest.mark.parametrize("params", [{}, {"STAGGER": 8, "SPLITS": 1, "STAGES": 7, "BK": 128, "BM": 64},
                                    {"CLUSTER": 2, "STAGGER": 8, "STAGES": 4, "BK": 128, "BM": 64},
                                    {"CLUSTER": 2, "SHARE_W": 1, "STAGGER": 8, "STAGES": 6, "BN": 32, "BM": 64}])
def test_swap_ab_wgmma_gives_the_same_bits_on_every_run(params):
    x, w = _linear_operands(48, 4096, 4096, torch.bfloat16)
    first = warpgemm.matmul(x, w.t(), kernel=WGMMA, **params)
    for _ in range(3):
        assert torch.equal(warpgemm.matmul(x, w.t(), kernel=WGMMA, **params), first)

