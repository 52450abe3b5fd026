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
COPY_BOTH = "igemm/09_transposing_both"
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
IN_PLACE = [(WGMMA, "row", "col"), (COPY_A, "col", "col"), (SWAP_B, "row", "row"), (COPY_BOTH, "col", "row")]


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
@pytest.mark.parametrize("kernel,la,lb,params", [
    *((kernel, la, lb, params) for kernel, la, lb in IN_PLACE[1:3]
      for params in ({"BK": 256, "BN": 128, "STAGES": 2}, {"BN": 128, "STAGES": 3, "GROUP": 16},
                     {"BN": 64, "STAGES": 2, "SPLITS": 4})),
    # rung 09 copies B too: BK = 128, BN = 128 or 256
    *((COPY_BOTH, "col", "row", params) for params in ({"BN": 256, "STAGES": 2}, {"BN": 128, "STAGES": 3, "GROUP": 16},
                                                       {"BN": 128, "STAGES": 2, "SPLITS": 4}))])
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
    # and all 16 of a thread's k rows. Then the same with the roles exchanged (A the identity, B
    # the scattered one), for the kernels that copy B.
    m, k = 256, 256
    a = torch.zeros((m, k), dtype=torch.int8)
    rows = torch.arange(m)
    a[rows, (rows * 37 + 11) % k] = 1
    a[rows, (rows * 5 + 3) % k] = -2
    eye = torch.eye(k, dtype=torch.int8)

    def on_device(t: torch.Tensor, layout: str) -> torch.Tensor:
        return t.cuda() if layout == "row" else t.t().contiguous().cuda().t()

    out = warpgemm.matmul(on_device(a, la), on_device(eye, lb), kernel=kernel)
    assert torch.equal(out.cpu(), a.to(torch.int32))
    b = a.t().contiguous()  # (k, m): column c of B has its entries at rows c * 37 + 11 ... of A
    out = warpgemm.matmul(on_device(eye, la), on_device(b, lb), kernel=kernel)
    assert torch.equal(out.cpu(), b.to(torch.int32))


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
                                           ("col", "row", COPY_BOTH)])
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
                                           ("col", "row", COPY_BOTH)])
def test_the_rules_send_each_int8_layout_to_the_kernel_that_reads_it(la, lb, kernel):
    from warpgemm import dispatch

    assert dispatch.choose(90, "int8", 4096, 4096, 4096, layouts=(la, lb)).kernel == kernel
    assert (la, lb) in catalog.get(kernel).layouts  # read in place: no copy in global memory


@pytest.mark.parametrize("bk", [128, 256])
@pytest.mark.parametrize("row0", [0, 64, 128, 192])
def test_the_transposing_copy_is_free_of_bank_conflicts_on_the_bank_model(row0, bk):
    # The addresses of sm90/transposing_copy.cuh, per warp and instruction, for a warpgroup that
    # copies the 64 rows from row0: a consumer's rows of A (row0 = 0, 64) or a band of B's (rung
    # 09, BN = 256: row0 = 0 .. 192), which it writes at row0 * 128 in B's target. 16 four-byte
    # loads from the MN-major tile (one 128-byte row per k under Swizzle<3,4,3>, 128 rows of mn a
    # slab, each lane reading its rows in the order j ^ f) and 4 sixteen-byte stores into the
    # K-major tile.
    from warpgemm.layout.banks import bank_conflicts

    for warp in range(4):
        lanes = range(32)
        kb = [4 * (warp >> 1) + (l & 3) for l in lanes]
        m4 = [8 * (warp & 1) + (l >> 2) for l in lanes]
        f = [2 * (l & 3) for l in lanes]
        mn = [row0 + 4 * m for m in m4]
        for p in range(bk // 128):
            for j in range(16):
                k = [128 * p + 16 * kb[l] + (j ^ f[l]) for l in lanes]
                loads = [(mn[l] // 128) * bk * 128 + k[l] * 128 + ((((mn[l] % 128) >> 4) ^ (k[l] & 7)) << 4)
                         + (mn[l] & 15) for l in lanes]
                assert bank_conflicts(loads, 4).conflict_free, (warp, p, j)
            for i in range(4):
                r = [4 * m4[l] + i for l in lanes]
                stores = [row0 * 128 + p * 64 * 128 + r[l] * 128 + ((kb[l] ^ (r[l] & 7)) << 4) for l in lanes]
                assert bank_conflicts(stores, 16).conflict_free, (warp, p, i)
    # The same loads in plain k order would conflict: the rotation is what the test sees.
    k = [16 * (4 + (l & 3)) for l in range(32)]
    plain = [k[l] * 128 + (((4 * (l >> 2) >> 4) ^ (k[l] & 7)) << 4) + ((4 * (l >> 2)) & 15) for l in range(32)]
    assert not bank_conflicts(plain, 4).conflict_free


@pytest.mark.parametrize("bk", [128, 256])
@pytest.mark.parametrize("row0", [0, 64, 128, 192])
def test_the_transposing_copys_offsets_are_a_lane_word_xor_a_key(row0, bk):
    # TransposingCopy8::Lane keeps two words a thread, `load` and `store`, and each of a copy's 16
    # loads and 4 stores is one of them xor a constant (load_key(j) = 128 j + 16 (j % 8), store_key(i)
    # = 144 i): the same offsets as the formulas the bank-model test above reads, for every thread.
    slab = bk * 128  # a slab of the MN-major source: one 128-byte row per k
    for tid in range(128):
        warp, lane = tid >> 5, tid & 31
        kb, m4, f = 4 * (warp >> 1) + (lane & 3), 8 * (warp & 1) + (lane >> 2), 2 * (lane & 3)
        mn = row0 + 4 * m4
        chunk = (mn % 128) >> 4
        load = (mn // 128) * slab + (mn & 15) + 2048 * kb + ((144 * f) ^ (16 * chunk))
        store = 512 * m4 + 16 * (kb ^ (4 * (m4 & 1)))
        for j in range(16):
            k = 16 * kb + (j ^ f)
            assert load ^ (128 * j + 16 * (j & 7)) == (mn // 128) * slab + k * 128 + ((chunk ^ (k & 7)) << 4) + (mn & 15)
        for i in range(4):
            r = 4 * m4 + i
            assert store ^ (144 * i) == r * 128 + ((kb ^ (r & 7)) << 4)


# ---------------------------------------------------------------------------------------------
# igemm/01_mma_sync_s8: mma.sync m16n8k32, any layout, any GPU from sm_80
# ---------------------------------------------------------------------------------------------

MMA_SYNC = "igemm/01_mma_sync_s8"


def _has_mma_sync_s8() -> bool:
    return torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)


needs_sm80 = pytest.mark.skipif("not _has_mma_sync_s8()",
                                reason="mma.sync m16n8k32 needs compute capability 8.0 or newer")


@pytest.mark.gpu
@needs_sm80
@pytest.mark.parametrize("la,lb", LAYOUTS)
@pytest.mark.parametrize("m,n,k", RAGGED)
def test_the_mma_sync_kernel_is_exact_on_ragged_shapes_in_every_layout(m, n, k, la, lb):
    a, b = _int8(m, k, la), _int8(k, n, lb)
    out = torch.full((m, n), POISON, dtype=torch.int32, device="cuda")
    warpgemm.matmul(a, b, kernel=MMA_SYNC, out=out)
    assert torch.equal(out.cpu(), _exact(a, b))


@pytest.mark.gpu
@needs_sm80
@pytest.mark.parametrize("la,lb", LAYOUTS)
@pytest.mark.parametrize("params", [{"BM": 128, "BN": 128, "WM": 32, "STAGES": 3, "SWIZZLE": 1},
                                    {"BM": 64, "BN": 256, "WM": 32, "STAGES": 5, "SWIZZLE": 8},
                                    {"BM": 128, "BN": 256, "STAGES": 3}])
@pytest.mark.parametrize("m,n,k", [(129, 257, 385), (300, 700, 3001), (64, 64, 128)])
def test_the_mma_sync_kernel_is_exact_for_other_tiles_and_stages(m, n, k, la, lb, params):
    a, b = _int8(m, k, la), _int8(k, n, lb)
    out = torch.full((m, n), POISON, dtype=torch.int32, device="cuda")
    warpgemm.matmul(a, b, kernel=MMA_SYNC, out=out, **params)
    assert torch.equal(out.cpu(), _exact(a, b))


@pytest.mark.gpu
@needs_sm80
@pytest.mark.parametrize("la,lb", LAYOUTS)
def test_the_mma_sync_kernel_moves_every_byte_to_its_place(la, lb):
    # A with two marked entries a row times the identity: the product is A, so every (row, k) of the
    # landed and turned tiles is seen on its own; then the identity times B checks B's the same way.
    m, k = 256, 384
    a = torch.zeros((m, k), dtype=torch.int8)
    rows = torch.arange(m)
    a[rows, (rows * 37 + 11) % k] = 1
    a[rows, (rows * 5 + 3) % k] = -2
    eye = torch.eye(k, dtype=torch.int8)

    def put(t: torch.Tensor, layout: str) -> torch.Tensor:
        return t.cuda() if layout == "row" else t.t().contiguous().cuda().t()

    assert torch.equal(warpgemm.matmul(put(a, la), put(eye, lb), kernel=MMA_SYNC).cpu(), a.to(torch.int32))
    bt = a.t().contiguous()  # (k, m): the same marks as a B
    assert torch.equal(warpgemm.matmul(put(torch.eye(k, dtype=torch.int8), la), put(bt, lb), kernel=MMA_SYNC).cpu(),
                       bt.to(torch.int32))


@pytest.mark.gpu
@needs_sm80
def test_the_mma_sync_kernel_reads_misaligned_and_strided_operands_through_the_api():
    # Leading dimensions that are not multiples of 16 bytes and an odd offset: the API copies them.
    base_a, base_b = _int8(130, 301), _int8(300, 97, "col")
    a, b = base_a[1:, 1:], base_b[:, 1:]
    out = warpgemm.matmul(a, b, kernel=MMA_SYNC)
    assert torch.equal(out.cpu(), _exact(a, b))


@pytest.mark.gpu
@needs_sm80
def test_the_mma_sync_sums_are_exact_up_to_the_int32_bound():
    k = 131071
    a = torch.full((64, k), -128, dtype=torch.int8, device="cuda")
    b = torch.full((64, k), -128, dtype=torch.int8, device="cuda").t()
    assert (warpgemm.matmul(a, b, kernel=MMA_SYNC) == 16384 * k).all()


@pytest.mark.gpu
@pytest.mark.skipif("not _has_mma_sync_s8() or _on_hopper()", reason="auto runs this kernel off Hopper only")
@pytest.mark.parametrize("la,lb", LAYOUTS)
def test_auto_runs_the_mma_sync_kernel_for_int8_off_hopper(monkeypatch, la, lb):
    chosen = []
    real = api.run_instance
    monkeypatch.setattr(api, "run_instance", lambda inst, *rest: (chosen.append(inst.name), real(inst, *rest)))
    a, b = _int8(256, 512, la), _int8(512, 384, lb)
    out = warpgemm.matmul(a, b)
    assert chosen == [MMA_SYNC] and out.dtype == torch.int32
    assert torch.equal(out.cpu(), _exact(a, b))


def test_the_mma_sync_kernel_is_declared_for_int8_from_sm80_in_every_layout():
    from warpgemm.catalog.spec import ALL_LAYOUTS

    spec = catalog.get(MMA_SYNC)
    assert spec.outputs == {"int8": ("int32",)} and spec.math == "i8i32"
    assert spec.arch == "sm_80" and spec.min_capability == 80 and not spec.arch_specific
    assert set(spec.layouts) == set(ALL_LAYOUTS)
    assert spec.align_elems == 16 and any("131071" in c for c in spec.constraints)
    assert spec.runs_on(80) and spec.runs_on(86) and spec.runs_on(89) and spec.runs_on(90)
    p = spec.resolve()
    assert spec.valid(p) and spec.smem_bytes(p) <= 227 * 1024
    assert not spec.valid({**p, "BK": 64}) and not spec.valid({**p, "STAGES": 2})
    assert not spec.valid({**p, "BM": 128, "BN": 128})  # four warps: the in-place turn wants 8
    assert not spec.valid({**p, "BN": 256, "WM": 32})  # 16 warps: 128 registers a thread would spill
    assert all(spec.valid({**p, **v}) for v in ({"BM": 128, "BN": 128, "WM": 32}, {"BM": 64, "BN": 256, "WM": 32}))


@pytest.mark.parametrize("cap", [80, 86, 89, 100, 120])
@pytest.mark.parametrize("la,lb", LAYOUTS)
def test_the_rules_send_int8_to_the_mma_sync_kernel_off_hopper(cap, la, lb):
    from warpgemm import dispatch

    assert dispatch.choose(cap, "int8", 4096, 4096, 4096, layouts=(la, lb)).kernel == MMA_SYNC
    assert dispatch.choose(90, "int8", 4096, 4096, 4096, layouts=(la, lb)).kernel != MMA_SYNC


def test_the_s8_mma_sync_ceiling_is_measured_and_bounds_the_int8_kernels():
    from warpgemm.bench import ceiling, runner

    code, ops = ceiling.KINDS["s8 m16n8k32"]
    assert ops == 2 * 16 * 8 * 32
    assert catalog.math("i8i32").ceilings == {"int8": "s8 m16n8k32"}
    assert runner.ceiling_kind("i8i32", torch.int8) == "s8 m16n8k32"
    words = ceiling.operand_words("s8 m16n8k32", 4)
    values = words.view(torch.int8)
    assert words.numel() == 4 * 6 * 32 and values.min() < -100 and values.max() > 100  # the full range
    from warpgemm.runtime import compile_kernel

    assert compile_kernel("bench/mma_ceiling.cu", f"wg::mma_ceiling<{code}, 8, 4>", "sm_80").spill_bytes == 0


def test_the_bench_runs_the_mma_sync_kernel():
    from warpgemm.bench import runner

    assert MMA_SYNC in [c.label for c in runner.default_choices("igemm")]
    assert runner.parse_choice("01:STAGES=3", "igemm").spec.name == MMA_SYNC


@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_the_mma_sync_kernel_compiles_with_other_tiles_without_spills(arch):
    for la, lb in (("row", "col"), ("col", "row")):
        k = warpgemm.compile(MMA_SYNC, arch, a_layout=la, b_layout=lb, BM=128, BN=128, WM=32, STAGES=3)
        assert k.spill_bytes == 0 and k.registers <= 255, k.log


# The pieces the kernel is built from, modelled byte by byte on the CPU (the same formulas as
# sm80/smem_layout.cuh, sm80/transposing_copy.cuh and sm80/warp_reader.cuh).

def _swizzle_343(offset: int) -> int:
    return offset ^ ((offset >> 3) & 0x70)


def _kmajor(mn: int, k: int) -> int:
    """SwizzledSmem<true, MN, 128, 1>: one 128-byte row of k per mn under Swizzle<3,4,3>."""
    return _swizzle_343(mn * 128 + k)


def _landing(mn: int, k: int) -> int:
    """MnMajorLanding8<MN, 128>: region mn / 16 in the 16 lines its K-major rows take."""
    rho = mn // 16
    return 2048 * rho + 128 * (k // 8) + 16 * ((k % 8) ^ (k // 16 % 8) ^ (4 * (rho % 2))) + mn % 16


def _landing_chunk(c: int) -> tuple[int, int]:
    """The (mn, k) of chunk c in MnMajorLanding8's storage order."""
    return 16 * (c % 2 + 2 * (c // 256)), c // 2 % 128


def _transpose4x4(x: list[int]) -> list[int]:
    """common/byte_transpose.cuh: x[e] = bytes (row e, columns 0..3) -> y[i] = column i."""
    return [sum(((x[e] >> (8 * i)) & 0xFF) << (8 * e) for e in range(4)) for i in range(4)]


def _word(smem: bytearray, addr: int) -> int:
    return int.from_bytes(smem[addr:addr + 4], "little")


@pytest.mark.parametrize("mn_rows,warps", [(256, 8), (128, 8), (64, 8), (128, 16)])
def test_the_landed_tile_turns_k_major_in_place_one_warp_a_region(mn_rows, warps):
    import random

    rng = random.Random(mn_rows * 100 + warps)
    tile = [[rng.randrange(256) for _ in range(128)] for _ in range(mn_rows)]  # tile[mn][k]
    smem = bytearray(mn_rows * 128)
    # cp.async: chunk c is 16 mn of one k, stored at the landing layout's offset.
    for c in range(mn_rows * 128 // 16):
        mn, k = _landing_chunk(c)
        for e in range(16):
            assert _landing(mn + e, k) == _landing(mn, k) + e
            smem[_landing(mn, k) + e] = tile[mn + e][k]
    assert sorted(_landing(mn, k) for mn in range(mn_rows) for k in range(128)) == list(range(mn_rows * 128))
    # Each warp turns its regions: every lane reads 16 words, then (after __syncwarp) writes 4 rows.
    for warp in range(warps):
        for rho in range(warp, mn_rows // 16, warps):
            region = 2048 * rho
            reads = {}
            for lane in range(32):
                m4, kb = lane >> 3, lane & 7
                frm = region + 256 * kb + 16 * (kb ^ (4 * (rho & 1))) + 4 * m4
                reads[lane] = [_word(smem, (frm ^ (16 * (j & 7))) + 128 * (j >> 3)) for j in range(16)]
            for lane in range(32):
                m4, kb = lane >> 3, lane & 7
                w = reads[lane]
                rows = [[0] * 4 for _ in range(4)]
                for g in range(4):
                    y = _transpose4x4(w[4 * g:4 * g + 4])
                    for i in range(4):
                        rows[i][g] = y[i]
                for i in range(4):
                    r = 4 * m4 + i
                    addr = region + 128 * r + 16 * (kb ^ (r & 7))
                    smem[addr:addr + 16] = b"".join(x.to_bytes(4, "little") for x in rows[i])
    assert all(smem[_kmajor(mn, k)] == tile[mn][k] for mn in range(mn_rows) for k in range(128))


@pytest.mark.parametrize("threads", [256, 512])
def test_the_landing_copy_and_the_turn_are_free_of_bank_conflicts_on_the_bank_model(threads):
    from warpgemm.layout.banks import bank_conflicts

    mn_rows = 256
    chunks = mn_rows * 128 // 16
    for warp in range(threads // 32):
        for i in range(chunks // threads):  # each cp.async of the warp, 16 bytes a lane
            addrs = [_landing(*_landing_chunk(32 * warp + lane + i * threads)) for lane in range(32)]
            assert bank_conflicts(addrs, 16).conflict_free, (warp, i)
    for rho in (0, 1):  # the turn's reads and writes in an even and an odd region
        region = 2048 * rho
        for j in range(16):
            addrs = []
            for lane in range(32):
                m4, kb = lane >> 3, lane & 7
                frm = region + 256 * kb + 16 * (kb ^ (4 * (rho & 1))) + 4 * m4
                addrs.append((frm ^ (16 * (j & 7))) + 128 * (j >> 3))
            assert bank_conflicts(addrs, 4).conflict_free, (rho, j)
        for i in range(4):
            addrs = [region + 128 * (4 * (l >> 3) + i) + 16 * ((l & 7) ^ ((4 * (l >> 3) + i) & 7)) for l in range(32)]
            assert bank_conflicts(addrs, 16).conflict_free, (rho, i)


def test_ldmatrix_on_a_k_major_int8_tile_gives_the_m16n8k32_fragments():
    # ldmatrix.x4 (no transpose) of a 16-row block of 16-byte rows: matrix q's rows are given by lanes
    # 8q..8q+7 and lane (g, t) gets bytes 4t..4t+3 of row g of each matrix in register q. The
    # WarpReader's row addresses (ldsm_lane_coord with 16 values of k a row) must make those
    # registers the atom's A and B fragments.
    from warpgemm.layout.atoms import mma_atom

    atom = mma_atom("SM80_16x8x32_S32S8S8S32_TN")

    def lane_coord(is_a: bool, lane: int) -> tuple[int, int]:
        q, r = lane >> 3, lane & 7
        mn_half, k_half = ((q & 1), (q >> 1)) if is_a else ((q >> 1), (q & 1))
        return mn_half * 8 + r, k_half * 16

    for lane in range(32):
        g, t = lane // 4, lane % 4
        for reg in range(4):
            for e in range(4):
                mn0, k0 = lane_coord(True, 8 * reg + g)  # the row lane g of matrix `reg` reads
                idx = atom.layout_a_tv(lane, e + 4 * reg)
                assert (idx % 16, idx // 16) == (mn0, k0 + 4 * t + e)
        for reg in range(2):  # b[0], b[1] of n8 tile 0 are matrices 0 and 1
            for e in range(4):
                mn0, k0 = lane_coord(False, 8 * reg + g)
                idx = atom.layout_b_tv(lane, e + 4 * reg)
                assert (idx % 8, idx // 8) == (mn0, k0 + 4 * t + e)
