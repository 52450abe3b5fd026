"""Integer GEMM: int8 x int8 -> int32, exactly, for any M, N and K, checked against an exact int64
reference on fresh full-range operands with the output poisoned before the launch; the int32
accumulator's bound on K; kernel="auto" sends int8 here on Hopper."""

from __future__ import annotations

import pytest
import torch

import warpgemm
from warpgemm import api, catalog

WGMMA = "igemm/02_wgmma_s8"
COPY_A = "igemm/04_transposing_copy"
SWAP_B = "igemm/05_swap_ab_row_major_b"
POISON = -(2**31) + 12345


def _on_hopper() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


needs_hopper = pytest.mark.skipif("not _on_hopper()", reason="the s8 wgmma kernel runs on compute capability 9.0")

# M, N and K of 1, primes, a tile +-1 (128 x 256 tiles, k-tiles of 128), odd numbers of k-tiles (385 =
# 3 tiles + 1, 3001), and shapes that split the last wave.
RAGGED = [(1, 1, 1), (1, 256, 128), (7, 13, 33), (64, 128, 128), (127, 255, 127), (129, 257, 385), (515, 1029, 333),
          (16, 4096, 4096), (1000, 100, 2049), (256, 4096, 1024), (300, 700, 3001)]
LAYOUTS = [("row", "col"), ("row", "row"), ("col", "col"), ("col", "row")]


def _int8(rows: int, cols: int, layout: str = "row") -> torch.Tensor:
    shape = (rows, cols) if layout == "row" else (cols, rows)
    t = torch.randint(-128, 128, shape, dtype=torch.int8, device="cuda")
    return t if layout == "row" else t.t()


def _exact(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a @ b in int64 (on the CPU: CUDA has no int64 matmul), as int32 where it fits."""
    return (a.cpu().long() @ b.cpu().long()).to(torch.int32)


def test_int8_kernels_write_int32_and_state_the_accumulator_bound():
    spec = catalog.get(WGMMA)
    assert spec.outputs == {"int8": ("int32",)} and spec.math == "i8i32"
    assert any("131071" in c for c in spec.constraints)
    assert api.default_out_dtype(torch.int8) == torch.int32


def test_matmul_refuses_the_scaled_kernel_and_a_float_output_for_int8_by_name():
    a, b = torch.zeros(4, 32, dtype=torch.int8), torch.zeros(32, 8, dtype=torch.int8)
    with pytest.raises(ValueError, match="call it through warpgemm.scaled_matmul"):
        warpgemm.matmul(a, b, kernel="igemm/03_scaled_epilogue")
    with pytest.raises(ValueError, match="int8 inputs produce int32, not torch.bfloat16"):
        warpgemm.matmul(a, b, out_dtype=torch.bfloat16)


def test_the_bench_and_the_tuner_leave_the_scaled_kernel_to_its_own_api():
    from warpgemm.bench import runner
    from warpgemm.cli import main

    assert "igemm/03_scaled_epilogue" not in [c.label for c in runner.default_choices("igemm")]
    with pytest.raises(ValueError, match="runs through warpgemm.scaled_matmul"):
        runner.parse_choice("igemm/03_scaled_epilogue")
    assert main(["tune", "igemm/03_scaled_epilogue"]) == 2


# Each kernel with the layouts it reads in place.
IN_PLACE = [(WGMMA, "row", "col"), (COPY_A, "col", "col"), (SWAP_B, "row", "row")]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel,la,lb", IN_PLACE)
@pytest.mark.parametrize("m,n,k", RAGGED)
def test_every_int8_kernel_is_exact_on_ragged_shapes(m, n, k, kernel, la, lb):
    a, b = _int8(m, k, la), _int8(k, n, lb)
    out = torch.full((m, n), POISON, dtype=torch.int32, device="cuda")
    warpgemm.matmul(a, b, kernel=kernel, out=out)
    assert torch.equal(out.cpu(), _exact(a, b))


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel,la,lb", IN_PLACE[1:])
@pytest.mark.parametrize("params", [{"BK": 256, "BN": 128, "STAGES": 2}, {"BN": 128, "STAGES": 3, "GROUP": 16},
                                    {"BN": 64, "STAGES": 2, "SPLITS": 4}])
@pytest.mark.parametrize("m,n,k", [(129, 257, 385), (300, 700, 3001)])
def test_the_transposing_copy_is_exact_for_every_tile_choice(m, n, k, kernel, la, lb, params):
    a, b = _int8(m, k, la), _int8(k, n, lb)
    out = torch.empty((m, n), dtype=torch.int32, device="cuda")
    for launch in range(2):  # a split's counters are reset by the first launch
        out.fill_(POISON)
        warpgemm.matmul(a, b, kernel=kernel, out=out, **params)
        assert torch.equal(out.cpu(), _exact(a, b)), f"launch {launch}"


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel,la,lb", IN_PLACE[1:])
def test_the_transposing_copy_moves_every_byte_to_its_place(kernel, la, lb):
    # One 1 in A's row r at k = c and B = the identity: the product is A itself, so each
    # (r, c) position of the copied tile is seen on its own, across the swizzle's 8 row phases
    # and all 16 of a thread's k rows.
    m, k = 256, 256
    a = torch.zeros((m, k), dtype=torch.int8)
    rows = torch.arange(m)
    a[rows, (rows * 37 + 11) % k] = 1
    a[rows, (rows * 5 + 3) % k] = -2
    eye = torch.eye(k, dtype=torch.int8)
    a_dev = a.cuda() if la == "row" else a.t().contiguous().cuda().t()
    b_dev = eye.cuda() if lb == "row" else eye.t().contiguous().cuda().t()
    out = warpgemm.matmul(a_dev, b_dev, kernel=kernel)
    assert torch.equal(out.cpu(), a.to(torch.int32))


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("la,lb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", [(129, 257, 385), (1024, 1024, 1024)])
def test_int8_is_exact_in_every_layout(m, n, k, la, lb):
    a, b = _int8(m, k, la), _int8(k, n, lb)
    assert torch.equal(warpgemm.matmul(a, b).cpu(), _exact(a, b))


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("params", [{"SPLITS": 3}, {"BM": 64, "BN": 128, "BK": 256, "STAGES": 3, "IN_FLIGHT": 1},
                                    {"BN": 128, "SPLITS": 16}])
@pytest.mark.parametrize("m,n,k", [(300, 700, 3001), (64, 64, 8192), (1, 1000, 4096)])
def test_the_k_split_of_the_last_wave_adds_integers_exactly(m, n, k, params):
    a, b = _int8(m, k), _int8(k, n, "col")
    out = torch.empty((m, n), dtype=torch.int32, device="cuda")
    for launch in range(2):  # the second launch finds the counters reset by the first
        out.fill_(POISON)
        warpgemm.matmul(a, b, kernel=WGMMA, out=out, **params)
        assert torch.equal(out.cpu(), _exact(a, b)), f"launch {launch}"


@pytest.mark.gpu
@needs_hopper
def test_sums_are_exact_up_to_the_int32_bound_and_wrap_past_it():
    # Every product is (-128) * (-128) = 16384: K = 131071 sums to 2147467264 <= 2**31 - 1,
    # exactly; one more k reaches 2**31, which wraps to -2**31 like any int32 addition.
    for k, expected in ((131071, 16384 * 131071), (131072, -(2**31))):
        a = torch.full((64, k), -128, dtype=torch.int8, device="cuda")
        b = torch.full((64, k), -128, dtype=torch.int8, device="cuda").t()
        out = warpgemm.matmul(a, b, kernel=WGMMA)
        assert (out == expected).all(), k


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("la,lb,kernel", [("row", "col", WGMMA), ("col", "col", COPY_A), ("row", "row", SWAP_B),
                                           ("col", "row", WGMMA)])
def test_auto_runs_the_kernel_that_reads_each_layout_in_place_on_hopper(monkeypatch, la, lb, kernel):
    chosen = []
    real = api.run_instance
    monkeypatch.setattr(api, "run_instance", lambda inst, *rest: (chosen.append(inst.name), real(inst, *rest)))
    a, b = _int8(256, 512, la), _int8(512, 384, lb)
    out = warpgemm.matmul(a, b)
    assert chosen == [kernel] and out.dtype == torch.int32
    assert torch.equal(out.cpu(), _exact(a, b))


@pytest.mark.gpu
@needs_hopper
def test_int8_goes_through_the_registered_op_under_torch_compile():
    a, b = _int8(100, 256), _int8(256, 128, "col")
    f = torch.compile(lambda x, y: warpgemm.matmul(x, y), fullgraph=True)
    assert torch.equal(f(a, b).cpu(), _exact(a, b))


@pytest.mark.parametrize("la,lb,kernel", [("row", "col", WGMMA), ("col", "col", COPY_A), ("row", "row", SWAP_B),
                                           ("col", "row", WGMMA)])
def test_the_rules_send_each_int8_layout_to_the_kernel_that_reads_it(la, lb, kernel):
    from warpgemm import dispatch

    assert dispatch.choose(90, "int8", 4096, 4096, 4096, layouts=(la, lb)).kernel == kernel
    spec = catalog.get(kernel)
    assert (la, lb) in spec.layouts or (kernel == WGMMA and (la, lb) == ("col", "row"))


@pytest.mark.parametrize("bk", [128, 256])
@pytest.mark.parametrize("consumer", [0, 1])
def test_the_transposing_copy_is_free_of_bank_conflicts_on_the_bank_model(consumer, bk):
    # The addresses of sm90/transposing_copy.cuh for BM = 128, per warp and instruction: 16
    # four-byte loads from the MN-major tile (one 128-byte row per k under Swizzle<3,4,3>, each lane
    # reading its rows in the order j ^ f) and 4 sixteen-byte stores into the K-major tile.
    from warpgemm.layout.banks import bank_conflicts

    for warp in range(4):
        lanes = range(32)
        kb = [4 * (warp >> 1) + (l & 3) for l in lanes]
        m4 = [8 * (warp & 1) + (l >> 2) for l in lanes]
        f = [2 * (l & 3) for l in lanes]
        mn = [64 * consumer + 4 * m for m in m4]
        for p in range(bk // 128):
            for j in range(16):
                k = [128 * p + 16 * kb[l] + (j ^ f[l]) for l in lanes]
                loads = [k[l] * 128 + ((((mn[l] % 128) >> 4) ^ (k[l] & 7)) << 4) + (mn[l] & 15) for l in lanes]
                assert bank_conflicts(loads, 4).conflict_free, (warp, p, j)
            for i in range(4):
                r = [4 * m4[l] + i for l in lanes]
                stores = [p * 64 * 128 + r[l] * 128 + ((kb[l] ^ (r[l] & 7)) << 4) for l in lanes]
                assert bank_conflicts(stores, 16).conflict_free, (warp, p, i)
    # The same loads in plain k order would conflict: the rotation is what the test sees.
    k = [16 * (4 + (l & 3)) for l in range(32)]
    plain = [k[l] * 128 + (((4 * (l >> 2) >> 4) ^ (k[l] & 7)) << 4) + ((4 * (l >> 2)) & 15) for l in range(32)]
    assert not bank_conflicts(plain, 4).conflict_free
