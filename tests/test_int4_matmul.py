"""4-bit integer GEMM: packed int4 x packed int4 -> int32, exactly, through every warp-level 4-bit
MMA form (wmma m8n8k32, mma.sync m8n8k32, m16n8k32, m16n8k64), signed and unsigned, and on Hopper
through packed tiles widened to 8-bit for the s8 / u8 wgmma (rung 05).

On the CPU: the API's errors, the catalogue's facts, every kernel compiled for each arch it runs
on without spills, and the kernels' index arithmetic (the swizzled tile, the ldmatrix reads, the
registers each form takes from them, the accumulator layout the epilogue assumes) emulated in
Python against warpgemm.layout's atoms, which tests/test_layout_atoms.py checks against the PTX
ISA's fragment tables; rung 05's widening (its k permutation and its bank behaviour) emulated the
same way. On a GPU: exact equality with an int64 reference for every kernel on
ragged shapes with the output poisoned, and the int32 accumulator's bound on K."""

from __future__ import annotations

import random

import pytest
import torch

import warpgemm
from warpgemm import catalog, dispatch, int4
from warpgemm.catalog.int4 import CLEARS_PAD_ON_HOST, S4_HIGH_K_MAX, S4_K_MAX, U4_K_MAX, exact_k_limit
from warpgemm.errors import NoDeviceError
from warpgemm.layout import mma_atom
from warpgemm.layout.fragments import unpack_fragments

WIDEN = "int4/05_widen_to_s8_wgmma"
REGISTER_A = "int4/06_widen_a_to_registers"
KERNELS = ["int4/01_wmma_m8n8k32", "int4/02_mma_m8n8k32", "int4/03_mma_m16n8k32", "int4/04_mma_m16n8k64", WIDEN,
           REGISTER_A]
POISON = -(2**31) + 12345


def _values(rows: int, k: int, signed: bool, device: str = "cpu") -> torch.Tensor:
    lo, hi = (-8, 8) if signed else (0, 16)
    return torch.randint(lo, hi, (rows, k), dtype=torch.int8, device=device)


def _operands(m: int, n: int, k: int, signed: bool, device: str = "cpu"):
    x, w = _values(m, k, signed, device), _values(n, k, signed, device)
    return x, w, int4.Packed.from_values(x, signed=signed), int4.Packed.from_values(w, signed=signed)


# ---------------------------------------------------------------------------------------------
# The API
# ---------------------------------------------------------------------------------------------

def test_packed_says_what_the_bytes_are_and_t_is_b_equal_w_transposed():
    x = _values(5, 7, True)
    a = int4.Packed.from_values(x)
    assert a.shape == (5, 7) and a.k == 7 and a.signed and a.data.shape == (5, 4) and a.dtype_name == "int4"
    assert torch.equal(a.unpack(), x)
    bt = a.t()
    assert bt.shape == (7, 5) and bt.transposed and bt.data.data_ptr() == a.data.data_ptr() and torch.equal(bt.unpack(), x.t())
    assert bt.T.shape == (5, 7)
    u = int4.Packed(int4.pack(_values(3, 64, False), signed=False), signed=False)
    assert u.k == 64 and u.dtype_name == "uint4"


@pytest.mark.parametrize("make, error, match", [
    (lambda: int4.Packed(torch.zeros(4, 2), 4), TypeError, "must be bytes"),
    (lambda: int4.Packed([1, 2], 4), TypeError, "must be a torch.Tensor"),
    (lambda: int4.Packed(torch.zeros(8, dtype=torch.uint8), 16), ValueError, "must be 2-D"),
    (lambda: int4.Packed(torch.zeros(4, 3, dtype=torch.uint8), 8), ValueError, "k = 8 values take 4 bytes"),
    (lambda: int4.Packed(torch.zeros(8, 4, dtype=torch.uint8).t(), 16), ValueError, "must be contiguous"),
    (lambda: int4.Packed(torch.zeros(4, 2, dtype=torch.uint8), 4, signed=1), TypeError, "signed must be"),
    (lambda: int4.Packed(torch.zeros(4, 2, dtype=torch.uint8), -1), TypeError, "non-negative int"),
])
def test_packed_refuses_what_is_not_packed_4bit_rows(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_matmul_names_each_constraint_of_4bit_operands():
    _, _, a, w = _operands(4, 8, 32, True)
    _, _, _, wu = _operands(4, 8, 32, False)
    _, _, a33, _ = _operands(4, 8, 33, True)
    cases = [
        ((a, torch.zeros(32, 8, dtype=torch.int8)), {}, TypeError, "both a and b must be warpgemm.int4.Packed"),
        ((a.t(), w.t()), {}, ValueError, "packed along K only"),
        ((a, w), {}, ValueError, r"b must be W.t\(\)"),
        ((a, wu.t()), {}, TypeError, "mixed signedness: a is s4, b is u4"),
        ((a33, w.t()), {}, ValueError, "inner dimensions differ"),
        ((a, w.t()), {"out_dtype": torch.float32}, ValueError, "produce torch.int32"),
        ((a, w.t()), {"kernel": "igemm/02_wgmma_s8"}, ValueError, "does not read 4-bit operands"),
        ((a, w.t()), {"kernel": "int4/99_nope"}, Exception, "no kernel named"),
        ((a, w.t()), {"BM": 64}, TypeError, "need an explicit kernel"),
        ((a, w.t()), {"bias": torch.zeros(8)}, ValueError, "N = 8 int32 values"),
    ]
    for args, kwargs, error, match in cases:
        with pytest.raises(error, match=match):
            warpgemm.matmul(*args, **kwargs)


@pytest.mark.skipif("torch.cuda.is_available()", reason="checks the error raised without a GPU")
def test_matmul_without_a_gpu_says_so():
    _, _, a, w = _operands(4, 8, 32, True)
    with pytest.raises(NoDeviceError, match="needs a CUDA device"):
        warpgemm.matmul(a, w.t())


def test_plain_matmul_refuses_the_int4_kernels_by_name():
    a, b = torch.zeros(4, 32, dtype=torch.int8), torch.zeros(32, 8, dtype=torch.int8)
    with pytest.raises(ValueError, match="call it through warpgemm.matmul with warpgemm.int4.Packed operands"):
        warpgemm.matmul(a, b, kernel="int4/04_mma_m16n8k64")


def test_the_registered_4bit_op_has_a_fake_that_gives_the_shape_and_the_errors():
    """torch.ops.warpgemm.int4_mm: the packed bytes of A and W, k and the signedness; its fake
    (what torch.compile traces) gives (M, N) int32 and int4_matmul's errors, with no device."""
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a = torch.empty((5, 4), dtype=torch.uint8)
        w = torch.empty((9, 4), dtype=torch.uint8)
        c = torch.ops.warpgemm.int4_mm(a, w, 7, True)
        assert c.shape == (5, 9) and c.dtype == torch.int32
        with pytest.raises(ValueError, match="k = 7 values take 4 bytes a row, but data has 5"):
            torch.ops.warpgemm.int4_mm(a, torch.empty((9, 5), dtype=torch.uint8), 7, True)


@pytest.mark.gpu
@pytest.mark.parametrize("signed", [True, False])
def test_int4_matmul_traces_under_torch_compile_through_the_registered_op(signed):
    x, w, a, wp = _operands(70, 90, 301, signed, "cuda")

    def f(a_bytes, w_bytes):
        return warpgemm.matmul(int4.Packed(a_bytes, 301, signed=signed), int4.Packed(w_bytes, 301, signed=signed).t())

    got = torch.compile(f, fullgraph=True)(a.data, wp.data)
    assert torch.equal(got.cpu(), _exact(x, w))


@pytest.mark.gpu
def test_int4_mm_passes_opcheck():
    x, w, a, wp = _operands(64, 48, 256, True, "cuda")
    torch.library.opcheck(torch.ops.warpgemm.int4_mm.default, (a.data, wp.data, 256, True, None, "auto", ""))


# ---------------------------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------------------------

def test_the_int4_family_has_one_rung_per_4bit_mma_form_then_the_hopper_widening_rungs():
    specs = catalog.kernels("int4")
    assert [s.name for s in specs] == KERNELS
    assert [s.arch for s in specs] == ["sm_75", "sm_75", "sm_80", "sm_80", "sm_90a", "sm_90a"]
    for s in specs:
        assert s.layouts == (("row", "col"),)
        assert s.outputs == {"int4": ("int32",), "uint4": ("int32",)} and s.math == "i4i32"
        assert s.called_by and "int4.Packed" in s.called_by
        text = " ".join(s.constraints)
        assert str(S4_K_MAX) in text and str(U4_K_MAX) in text
        assert ("emulates" in text) == (s.arch != "sm_90a")
        assert s.valid(s.resolve())
    for name in (WIDEN, REGISTER_A):
        widen = catalog.get(name)
        assert widen.persistent and widen.host_params == ("SPLITS",) and widen.name in CLEARS_PAD_ON_HOST


def test_the_register_a_rung_refuses_an_s4_k_past_its_bound_by_name():
    from warpgemm import int4_matmul

    spec, _ = int4_matmul.spec_for(REGISTER_A, 90, "int4", 1, 1, S4_HIGH_K_MAX, {})
    assert spec.name == REGISTER_A and S4_HIGH_K_MAX == 131071 and 64 * 256 * S4_HIGH_K_MAX <= 2**31 - 1
    with pytest.raises(ValueError, match="exact only up to K = 131071; got K = 131072"):
        int4_matmul.spec_for(REGISTER_A, 90, "int4", 1, 1, S4_HIGH_K_MAX + 1, {})
    assert int4_matmul.spec_for(REGISTER_A, 90, "uint4", 1, 1, 10**6, {})[0].name == REGISTER_A
    assert int4_matmul.spec_for("auto", 90, "int4", 1, 1, 10**6, {})[0].name == WIDEN  # past the bound


def test_the_k_bounds_are_the_longest_sums_that_fit_int32():
    assert S4_K_MAX == 33554431 and 64 * S4_K_MAX <= 2**31 - 1 < 64 * (S4_K_MAX + 1)
    assert U4_K_MAX == 9544371 and 225 * U4_K_MAX <= 2**31 - 1 < 225 * (U4_K_MAX + 1)


@pytest.mark.parametrize("dtype", ["int4", "uint4"])
def test_auto_runs_m16n8k64_from_sm80_the_register_a_rung_on_hopper_and_m8n8k32_on_turing(dtype):
    linear = ("row", "col")
    for cap in (80, 86, 89, 100):
        assert dispatch.choose(cap, dtype, 4096, 4096, 4096, layouts=linear).kernel == "int4/04_mma_m16n8k64"
    for m, n, k in ((1, 1, 1), (4096, 4096, 4096), (8192, 8192, 8192), (7, 28672, 8191), (5, 5, S4_HIGH_K_MAX)):
        for device in ("", "NVIDIA H100 80GB HBM3", "NVIDIA H200"):
            assert dispatch.choose(90, dtype, m, n, k, layouts=linear, device=device).kernel == REGISTER_A
    # Past rung 06's s4 bound, s4 goes to rung 05 (exact to S4_K_MAX); u4 has no such bound there.
    longer = dispatch.choose(90, dtype, 1, 1, S4_HIGH_K_MAX + 1, layouts=linear).kernel
    assert longer == (WIDEN if dtype == "int4" else REGISTER_A)
    assert dispatch.choose(75, dtype, 1, 1, 1, layouts=linear).kernel == "int4/02_mma_m8n8k32"


COMPILE_CASES = [(s.name, arch, dt) for s in catalog.kernels("int4")
                 for arch in ("sm_75", "sm_80", "sm_90a") if s.runs_on(catalog.capability_of(arch))
                 for dt in ("int4", "uint4")]


@pytest.mark.parametrize("name,arch,dtype", COMPILE_CASES, ids=[f"{n}-{a}-{d}" for n, a, d in COMPILE_CASES])
def test_every_int4_kernel_compiles_for_each_arch_without_spills(name, arch, dtype):
    k = warpgemm.compile(name, arch, a_layout="row", b_layout="col", in_dtype=dtype)
    assert k.cubin[:4] == b"\x7fELF" and k.spill_bytes == 0, k.log
    spec = catalog.get(name)
    assert spec.smem_bytes(spec.resolve()) <= (64 if arch == "sm_75" else 227) * 1024


@pytest.mark.parametrize("bn,stages", [(128, 7), (192, 7), (256, 6)])
def test_the_register_a_rungs_tiles_compile_without_spills_or_serialised_wgmma(bn, stages):
    # 256 columns fit only because the producer warpgroup gives the consumers 240 registers a thread.
    k = warpgemm.compile(REGISTER_A, "sm_90a", a_layout="row", b_layout="col", in_dtype="int4", BN=bn, STAGES=stages)
    assert k.spill_bytes == 0 and "C751" not in k.log, k.log
    assert catalog.get(REGISTER_A).resolve()["BN"] == 256


def test_a_layout_the_kernels_do_not_read_is_refused_before_compiling():
    with pytest.raises(ValueError, match="does not read A row-major with B row-major"):
        warpgemm.compile("int4/04_mma_m16n8k64", "sm_80", a_layout="row", b_layout="row")


# ---------------------------------------------------------------------------------------------
# The index arithmetic, emulated (a Python twin of sm80/packed4_tile.cuh and packed4_warp.cuh)
# ---------------------------------------------------------------------------------------------

def _swizzled(bkb: int, mn: int, b: int) -> int:
    """SwizzledPacked<MN, BKB>::offset: Sw<3,4,3> on the byte offset of (row mn, byte b)."""
    o = mn * bkb + b
    return o ^ ((o >> 3) & 0x70)


def _lane_row(lane: int) -> int:
    return 8 * ((lane >> 3) & 1) + (lane & 7)


def _lane_byte(lane: int) -> int:
    return 16 * (lane >> 4)


def _store(values: list[list[int]], bkb: int) -> bytearray:
    """A K-major packed tile of ``values`` (rows x 2*bkb nibbles) in the swizzled layout."""
    tile = bytearray(len(values) * bkb)
    for r, row in enumerate(values):
        for b in range(bkb):
            tile[_swizzled(bkb, r, b)] = (row[2 * b] & 0xF) | ((row[2 * b + 1] & 0xF) << 4)
    return tile


def _ldmatrix_x4(tile: bytearray, row_addresses: list[int]) -> list[list[int]]:
    """ldmatrix.sync.aligned.m8n8.x4.b16: lanes 8q..8q+7 give matrix q's row addresses; lane l gets
    bytes 4 (l % 4) .. + 3 of row l / 4 of each matrix, as little-endian b32 registers."""
    regs = [[0] * 4 for _ in range(32)]
    for lane in range(32):
        for q in range(4):
            addr = row_addresses[8 * q + lane // 4] + 4 * (lane % 4)
            regs[lane][q] = int.from_bytes(tile[addr:addr + 4], "little")
    return regs


def _block(tile: bytearray, bkb: int, mn0: int, j: int, s: int) -> list[list[int]]:
    """Packed4Blocks<BKB>(mn0, lane).load(r, tile, j, s) for every lane."""
    addrs = [(_swizzled(bkb, mn0 + _lane_row(l), _lane_byte(l)) ^ (32 * s)) + 16 * j * bkb for l in range(32)]
    for l in range(32):  # the one-offset rule is the layout's offset
        assert addrs[l] == _swizzled(bkb, mn0 + 16 * j + _lane_row(l), _lane_byte(l) + 32 * s)
    return _ldmatrix_x4(tile, addrs)


def _sub(values, r0: int, rows: int, k0: int, ks: int) -> list[list[int]]:
    return [row[k0:k0 + ks] for row in values[r0:r0 + rows]]


def _transpose(x):
    return [list(col) for col in zip(*x)]


FORM_CASES = [(bkb, signed) for bkb in (64, 128) for signed in (True, False)]


@pytest.mark.parametrize("bkb,signed", FORM_CASES)
def test_each_forms_registers_from_the_ldmatrix_blocks_are_its_atoms_fragments(bkb, signed):
    """For a warp at row 32 of a 64-row tile: the registers each kernel hands each mma (as its
    header comment and warp step say) hold, by the atom's TV layout, the right block of A or W."""
    rng = random.Random(bkb + signed)
    lo, hi = (-8, 7) if signed else (0, 15)
    kind = "S4S4" if signed else "U4U4"
    rows, ks, mn0 = 64, 2 * bkb, 32
    a_vals = [[rng.randint(lo, hi) for _ in range(ks)] for _ in range(rows)]
    w_vals = [[rng.randint(lo, hi) for _ in range(ks)] for _ in range(rows)]
    ta, tw = _store(a_vals, bkb), _store(w_vals, bkb)
    k64 = mma_atom(f"SM80_16x8x64_S32{kind}S32_TN")
    k32 = mma_atom(f"SM80_16x8x32_S32{kind}S32_TN")
    k8 = mma_atom(f"SM80_8x8x32_S32{kind}S32_TN")
    for s in range(bkb // 32):
        for i in range(2):  # m16 tiles (A blocks) and pairs of n8 tiles (W blocks) of the warp
            ra, rw = _block(ta, bkb, mn0, i, s), _block(tw, bkb, mn0, i, s)
            a16 = _sub(a_vals, mn0 + 16 * i, 16, 64 * s, 64)
            # int4/04: A block = a[0..3]; {r[e], r[2 + e]} = b of n8 tile 2i + e.
            assert unpack_fragments(k64, "a", ra) == a16
            for e in range(2):
                w8 = _sub(w_vals, mn0 + 16 * i + 8 * e, 8, 64 * s, 64)
                assert unpack_fragments(k64, "b", [[r[e], r[2 + e]] for r in rw]) == _transpose(w8)
            for h in range(2):
                # int4/03: {r[2h], r[2h + 1]} = a, r[2h + e] = b of n8 tile 2i + e, for k32 half h.
                assert unpack_fragments(k32, "a", [[r[2 * h], r[2 * h + 1]] for r in ra]) == \
                    _sub(a_vals, mn0 + 16 * i, 16, 64 * s + 32 * h, 32)
                for e in range(2):
                    w8 = _sub(w_vals, mn0 + 16 * i + 8 * e, 8, 64 * s + 32 * h, 32)
                    assert unpack_fragments(k32, "b", [[r[2 * h + e]] for r in rw]) == _transpose(w8)
                    # int4/02: r[2h + e] = a of rows 16i + 8e.., and the same b registers.
                    assert unpack_fragments(k8, "a", [[r[2 * h + e]] for r in ra]) == \
                        _sub(a_vals, mn0 + 16 * i + 8 * e, 8, 64 * s + 32 * h, 32)
                    assert unpack_fragments(k8, "b", [[r[2 * h + e]] for r in rw]) == _transpose(w8)


def test_the_accumulators_are_the_16x8_atoms_and_m8n8k32_sits_in_them_by_halves():
    """store_acc_16x8 writes d[2h + e] of tile (i, j) to (16i + 8h + g, 8j + 2t + e); int4/02 keeps
    the m8 tile of rows 8h.. in d[2h..2h+1]. Both agree with the atoms' C layouts."""
    c16 = mma_atom("SM80_16x8x64_S32S4S4S32_TN").layout_c_tv
    c8 = mma_atom("SM80_8x8x32_S32S4S4S32_TN").layout_c_tv
    for name in ("SM80_16x8x32_S32S4S4S32_TN", "SM80_16x8x32_S32U4U4S32_TN", "SM80_16x8x64_S32U4U4S32_TN"):
        assert str(mma_atom(name).layout_c_tv) == str(c16)
    for lane in range(32):
        g, t = lane // 4, lane % 4
        for v in range(4):
            h, e = v // 2, v % 2
            assert c16(lane, v) == (g + 8 * h) + 16 * (2 * t + e)          # (m, n) column-major in 16 x 8
            assert c8(lane, e) == g + 8 * (2 * t + e)                       # (m, n) in 8 x 8
            assert c16(lane, v) == c8(lane, e) % 8 + 8 * h + 16 * (c8(lane, e) // 8)


@pytest.mark.parametrize("bkb", [64, 128])
def test_the_ldmatrix_phases_and_copy_rows_are_free_of_bank_conflicts(bkb):
    """Each ldmatrix phase (8 row addresses of one matrix) and each line of 8 copied chunks hits 8
    different 16-byte bank groups of the swizzled tile."""
    for mn0 in (0, 16, 32, 48):
        for s in range(bkb // 32):
            addrs = [(_swizzled(bkb, mn0 + _lane_row(l), _lane_byte(l)) ^ (32 * s)) for l in range(32)]
            for q in range(4):
                assert len({(a // 16) % 8 for a in addrs[8 * q:8 * q + 8]}) == 8
    cpr = bkb // 16
    chunks = [_swizzled(bkb, c // cpr, 16 * (c % cpr)) for c in range(64 * cpr)]
    assert sorted(chunks) == list(range(0, 64 * bkb, 16))           # every chunk stored once
    for c0 in range(0, len(chunks), 8):                               # 8 consecutive threads' stores
        assert len({(a // 16) % 8 for a in chunks[c0:c0 + 8]}) == 8


@pytest.mark.parametrize("wn", [16, 32, 64, 128])
def test_the_s32_staging_swizzle_permutes_the_chunks_of_each_row(wn):
    cpr = wn // 4
    for r in range(16):
        sw = (2 * (r & 7)) & (cpr - 1)
        assert sorted(c ^ sw for c in range(cpr)) == list(range(cpr))


# ---------------------------------------------------------------------------------------------
# Rung 05's widening, emulated (a Python twin of common/nibble_widen.cuh and sm90/widening_copy.cuh)
# ---------------------------------------------------------------------------------------------

def _widen4_bytes(x: int, signed: bool) -> int:
    """widen4_bytes<SIGNED>: one nibble at the bottom of each byte of x, to s8 or u8 bytes."""
    return (((x ^ 0x08080808) + 0x78787878) ^ 0x80808080) & 0xFFFFFFFF if signed else x


def _widen_nibbles(w: int, signed: bool) -> tuple[int, int]:
    return _widen4_bytes(w & 0x0F0F0F0F, signed), _widen4_bytes((w >> 4) & 0x0F0F0F0F, signed)


def _load_address(p: int, tid: int) -> int:
    """WideningCopy::load: byte offset of thread tid's 16 bytes in pass p, in the packed rows."""
    return (32 * p + tid // 4) * 64 + 16 * (tid % 4)


def _store_addresses(p: int, tid: int) -> tuple[int, int]:
    """WideningCopy::store: byte offsets of thread tid's two 16-byte stores in the target tile."""
    r, c = 32 * p + tid // 4, tid % 4
    return r * 128 + (((2 * c) ^ (r & 7)) << 4), r * 128 + (((2 * c + 1) ^ (r & 7)) << 4)


def _widen_tile(packed: bytes, rows: int, signed: bool) -> bytearray:
    """The target tile (rows x 128 bytes, swizzled) the warpgroup's copy writes from `rows` packed
    rows of 64 bytes."""
    out = bytearray(rows * 128)
    for p in range(rows // 32):
        for tid in range(128):
            src = _load_address(p, tid)
            words = [int.from_bytes(packed[src + 4 * j:src + 4 * j + 4], "little") for j in range(4)]
            halves = [_widen_nibbles(w, signed) for w in words]
            for h, dst in enumerate(_store_addresses(p, tid)):  # the low nibbles, then the high ones
                out[dst:dst + 16] = b"".join(half[h].to_bytes(4, "little") for half in halves)
    return out


def _unswizzled(tile: bytearray, r: int, pos: int) -> int:
    """Byte `pos` of row r of a 128-byte-swizzled K-major tile (SwizzledOperand<int8_t, MN, 128, true>)."""
    chunk = (pos // 16) ^ (r % 8)
    return tile[r * 128 + 16 * chunk + pos % 16]


@pytest.mark.parametrize("signed", [True, False])
def test_the_widening_puts_value_k_of_position_p_by_the_permutation_for_any_nibbles(signed):
    """Position P of a widened row holds value (4,4,2,4):(2,8,1,32)(P) of the k-tile, as an s8 or u8
    byte, for every nibble value; every position once."""
    from warpgemm.layout import Layout

    k_of = Layout((4, 4, 2, 4), (2, 8, 1, 32))
    assert sorted(k_of(pos) for pos in range(128)) == list(range(128))
    rows = 64
    values = _values(rows, 128, signed)
    values[0, :16] = torch.arange(-8, 8) if signed else torch.arange(16)  # every nibble
    tile = _widen_tile(bytes(int4.pack(values, signed=signed).flatten().tolist()), rows, signed)
    for r in range(rows):
        got = [_unswizzled(tile, r, pos) for pos in range(128)]
        want = [values[r, k_of(pos)].item() % 256 for pos in range(128)]
        assert got == want, r


@pytest.mark.parametrize("signed", [True, False])
def test_a_and_b_widened_alike_give_the_dot_products_of_the_values(signed):
    m, n = 64, 32
    x, w = _values(m, 128, signed), _values(n, 128, signed)
    ta = _widen_tile(bytes(int4.pack(x, signed=signed).flatten().tolist()), m, signed)
    tb = _widen_tile(bytes(int4.pack(w, signed=signed).flatten().tolist()), n, signed)

    def row(tile: bytearray, r: int) -> list[int]:
        b = [_unswizzled(tile, r, pos) for pos in range(128)]
        return [v - 256 if signed and v >= 128 else v for v in b]

    wide_a, wide_b = [row(ta, r) for r in range(m)], [row(tb, r) for r in range(n)]
    got = torch.tensor([[sum(p * q for p, q in zip(a, b)) for b in wide_b] for a in wide_a])
    assert torch.equal(got, x.long() @ w.long().t())


def _register_a_bytes(packed_row: bytes, signed: bool, s: int, t: int) -> tuple[list[int], list[int]]:
    """The bytes rung 06's lane (g, t) widens for one row into A's registers of k step s, as s8 or
    u8 values: a0 (or a1), positions 4t..4t+3, and a2 (or a3), positions 16+4t..16+4t+3 (its
    widen_a): the low and the high nibbles of word t of chunk s. s4 takes the high-nibble form:
    each byte is 16 times the value."""
    w = int.from_bytes(packed_row[16 * s + 4 * t:16 * s + 4 * t + 4], "little")
    if signed:  # (w << 4) & 0xF0F0F0F0 and w & 0xF0F0F0F0, bytes read as s8
        out = []
        for bits in ((w << 4) & 0xF0F0F0F0, w & 0xF0F0F0F0):
            raw = [(bits >> (8 * b)) & 0xFF for b in range(4)]
            out.append([x - 256 if x >= 128 else x for x in raw])
        return out[0], out[1]
    return [(w >> (8 * b)) & 0xF for b in range(4)], [(w >> (8 * b + 4)) & 0xF for b in range(4)]


def _high_nibble_tile(packed: bytes, rows: int) -> bytearray:
    """Rung 06's B target for s4: int4/05's copy with each byte the nibble at the top (16 v)."""
    out = bytearray(rows * 128)
    for p in range(rows // 32):
        for tid in range(128):
            src = _load_address(p, tid)
            words = [int.from_bytes(packed[src + 4 * j:src + 4 * j + 4], "little") for j in range(4)]
            halves = [((w << 4) & 0xF0F0F0F0, w & 0xF0F0F0F0) for w in words]
            for h, dst in enumerate(_store_addresses(p, tid)):
                out[dst:dst + 16] = b"".join(half[h].to_bytes(4, "little") for half in halves)
    return out


@pytest.mark.parametrize("signed", [True, False])
def test_a_widened_into_registers_matches_b_widened_into_its_tile_position_by_position(signed):
    """Rung 06: the value each lane puts at each position of the register-A fragment is the value
    B's widening copy puts at that position of its 8-bit row (for s4 both as 16 times the value),
    so that the wgmma's sum over positions is the sum over k (times 256 for s4)."""
    rows = 32  # one pass of the copy
    x = _values(rows, 128, signed)
    packed = bytes(int4.pack(x, signed=signed).flatten().tolist())
    wide = _high_nibble_tile(packed, rows) if signed else _widen_tile(packed, rows, signed)
    rung05 = _widen_tile(packed, rows, signed)

    def row(tile: bytearray, r: int) -> list[int]:
        return [v - 256 if signed and v >= 128 else v for v in (_unswizzled(tile, r, pos) for pos in range(128))]

    for r in range(rows):
        target = row(wide, r)
        assert target == [(16 if signed else 1) * v for v in row(rung05, r)]  # rung 05's values, scaled
        for s in range(4):
            for t in range(4):
                first, second = _register_a_bytes(packed[64 * r:64 * r + 64], signed, s, t)
                assert first == target[32 * s + 4 * t:32 * s + 4 * t + 4]
                assert second == target[32 * s + 16 + 4 * t:32 * s + 20 + 4 * t]


def test_the_register_a_loads_are_free_of_bank_conflicts_under_the_64_byte_swizzle():
    """Rung 06's loads of packed A: per warp, k step and row half, lane (g, t) reads word t of the
    16-byte chunk s of row 16 w + g (+ 8) from a tile TMA lands under the 64-byte swizzle (chunk q
    of row r at q ^ (r / 2) % 4): 32 different words, one wavefront. Unswizzled, the same reads
    conflict four ways."""
    from warpgemm.layout.banks import bank_conflicts

    def address(lane: int, row: int, s: int, swizzled: bool) -> int:
        chunk = (s ^ ((row >> 1) & 3)) if swizzled else s
        return 64 * row + 16 * chunk + 4 * (lane % 4)

    for consumer in range(2):
        for warp in range(4):
            for s in range(4):
                for h in range(2):
                    rows = [64 * consumer + 16 * warp + lane // 4 + 8 * h for lane in range(32)]
                    swz = [address(lane, r, s, True) for lane, r in enumerate(rows)]
                    plain = [address(lane, r, s, False) for lane, r in enumerate(rows)]
                    assert len(set(swz)) == 32 and bank_conflicts(swz, 4).conflicts == 0
                    assert bank_conflicts(plain, 4).wavefronts == 4


def test_the_64_byte_swizzle_takes_boxes_of_at_most_64_bytes():
    """Rung 06 encodes A's packed map under the 64-byte swizzle; the TMA's rules for it are checked
    before the driver sees the map."""
    from warpgemm.catalog.int4 import packed_map
    from warpgemm.runtime import tensor_map

    tensor_map.check(packed_map(128, 4096, 2048, 128), 0x10000, swizzle=64)
    wide = tensor_map.TileMap("uint8", (2048, 128), 2048, (128, 128))
    with pytest.raises(ValueError, match="with the 64-byte swizzle a box row is at most 64 bytes"):
        tensor_map.check(wide, 0x10000, swizzle=64)
    with pytest.raises(ValueError, match="a TMA swizzle spans 32, 64 or 128 bytes"):
        tensor_map.check(wide, 0x10000, swizzle=48)


def test_the_widening_loads_and_stores_are_free_of_bank_conflicts():
    """Every warp's 16-byte loads of packed rows and 16-byte stores into the swizzled target, in
    every pass, on warpgemm.layout's bank model (8 lanes a wavefront)."""
    from warpgemm.layout.banks import bank_conflicts

    for p in range(4):  # BN / 2 = 128 rows of B: four passes (A's 64 rows: the first two)
        for warp in range(4):
            lanes = range(32 * warp, 32 * warp + 32)
            assert bank_conflicts([_load_address(p, t) for t in lanes], 16).conflicts == 0
            for s in range(2):
                assert bank_conflicts([_store_addresses(p, t)[s] for t in lanes], 16).conflicts == 0
    # Every byte of a 128-row target tile is written once.
    written = sorted(a + i for p in range(4) for t in range(128) for a in _store_addresses(p, t) for i in range(16))
    assert written == list(range(128 * 128))


def test_the_widening_rungs_shared_memory_and_the_limits_of_its_tile():
    spec = catalog.get(WIDEN)
    p = spec.resolve()
    ring = p["STAGES"] * (p["BM"] + p["BN"]) * p["BK"] // 2
    assert spec.smem_bytes(p) == ring + 1024 + 2 * (p["BM"] + p["BN"]) * p["BK"] == 197632
    assert spec.valid(spec.resolve({"STAGES": 5})) and not spec.valid(spec.resolve({"STAGES": 6}))
    assert spec.valid(spec.resolve({"BN": 128, "STAGES": 8}))
    for bad in ({"BM": 64}, {"BK": 256}, {"BN": 96}, {"STAGES": 1}, {"SPLITS": 17}):
        assert not spec.valid(spec.resolve(bad)), bad
    for choice in ({"BN": bn, "STAGES": s} for bn in spec.tuning["BN"] for s in spec.tuning["STAGES"]):
        assert spec.valid(spec.resolve(choice)), choice


def test_the_packed_maps_cover_the_bytes_of_each_row_in_64_byte_boxes():
    from warpgemm.catalog.int4 import packed_map

    m = packed_map(300, 1001, 512, 128)
    assert m.dtype == "uint8" and m.dims == (501, 300) and m.outer_stride_bytes == 512 and m.box == (64, 128)
    one = packed_map(1, 33, 17, 256)  # a single row never steps: any 16-byte multiple
    assert one.dims == (17, 1) and one.outer_stride_bytes == 32 and one.box == (64, 256)


@pytest.mark.parametrize("rows,k,offset", [(5, 33, 0), (4, 64, 0), (3, 31, 1), (1, 7, 0)])
def test_clearing_the_pad_nibble_copies_and_keeps_every_value(rows, k, offset):
    from warpgemm.int4_matmul import aligned_rows

    x = _values(rows, k, True)
    raw = torch.zeros(rows * 64 + offset, dtype=torch.uint8)[offset:offset + rows * ((k + 1) // 2)]
    packed = raw.view(rows, (k + 1) // 2)
    packed.copy_(int4.pack(x))
    if k % 2:
        packed[:, -1] |= 0xF0  # a garbage pad nibble
    p = int4.Packed(packed, k)
    data, ld = aligned_rows(p, clear_pad=True)
    assert ld % 16 == 0 and data.data_ptr() % 16 == 0 and data.stride(0) == ld
    nbytes = (k + 1) // 2
    assert torch.equal(int4.unpack(data[:, :nbytes], size=k), x)
    if k % 2:
        assert data.data_ptr() != packed.data_ptr() and int(data[:, nbytes - 1].max()) < 16
        assert int(packed[:, -1].min()) >= 0xF0  # the caller's bytes are untouched
    kept, _ = aligned_rows(p)  # without clear_pad: in place where aligned
    assert (kept.data_ptr() == packed.data_ptr()) == (offset == 0 and nbytes % 16 == 0 or rows == 1 and offset == 0)


# ---------------------------------------------------------------------------------------------
# On a GPU
# ---------------------------------------------------------------------------------------------

def _capability() -> int:
    major, minor = torch.cuda.get_device_capability()
    return 10 * major + minor


def _runs(kernel: str) -> bool:
    return catalog.get(kernel).runs_on(_capability())


def _exact(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """x @ w.T in int64 on the CPU, as int32 where it fits."""
    return (x.cpu().long() @ w.cpu().long().t()).to(torch.int32)


# 1, primes, a tile +-1 (128 x 128 tiles; k-tiles of 128 and 256 values), odd K (a pad nibble),
# K = 1, an odd number of k-tiles, tall-skinny and short-wide.
RAGGED = [(1, 1, 1), (1, 1, 2), (7, 13, 33), (127, 129, 255), (128, 128, 256), (129, 127, 257), (1, 300, 4097),
          (300, 1, 383), (515, 1029, 333), (64, 4096, 1024), (4096, 64, 768), (1000, 100, 2049), (37, 41, 31)]
CASES = [(kernel, shape, signed) for kernel in KERNELS for shape in RAGGED for signed in (True, False)]


@pytest.mark.gpu
@pytest.mark.parametrize("kernel,shape,signed", CASES,
                         ids=[f"{k.split('/')[1]}-{'x'.join(map(str, s))}-{'s4' if g else 'u4'}" for k, s, g in CASES])
def test_each_int4_kernel_is_exact_on_ragged_shapes(kernel, shape, signed):
    _assert_exact(kernel, shape, signed)


def _assert_exact(kernel: str, shape: tuple[int, int, int], signed: bool, launches: int = 1, **params: int) -> None:
    """Fresh operands, the output poisoned before each of `launches` calls, exact every time."""
    if not _runs(kernel):
        pytest.skip(f"{kernel} needs {catalog.get(kernel).needs()}")
    m, n, k = shape
    x, w, a, b = _operands(m, n, k, signed, "cuda")
    out = torch.empty((m, n), dtype=torch.int32, device="cuda")
    for _ in range(launches):
        out.fill_(POISON)
        c = warpgemm.matmul(a, b.t(), kernel=kernel, out=out, **params)
        assert c is out
        assert torch.equal(c.cpu(), _exact(x, w))


@pytest.mark.gpu
@pytest.mark.parametrize("signed", [True, False])
def test_auto_allocates_its_output_and_ignores_a_garbage_pad_nibble(signed):
    m, n, k = 129, 257, 1001
    x, w, a, b = _operands(m, n, k, signed, "cuda")
    # Bytes from elsewhere: the pad nibble of every row set, in both operands.
    pad = torch.zeros_like(a.data[:1])
    pad[0, -1] = 0xF0
    a, b = (int4.Packed(p.data | pad, k, signed=signed) for p in (a, b))
    torch.full((m, n), POISON, dtype=torch.int32, device="cuda")  # freed: likely the output's block next
    c = warpgemm.matmul(a, b.t())
    assert c.dtype == torch.int32 and c.shape == (m, n)
    assert torch.equal(c.cpu(), _exact(x, w))


@pytest.mark.gpu
@pytest.mark.parametrize("kernel", KERNELS)
def test_strided_and_misaligned_bytes_are_read_or_copied_and_bias_is_added(kernel):
    if not _runs(kernel):
        pytest.skip(f"{kernel} needs {catalog.get(kernel).needs()}")
    m, n, k = 70, 90, 512
    x, w = _values(m, k, True, "cuda"), _values(n, k, True, "cuda")
    wide = torch.zeros(m, 512, dtype=torch.uint8, device="cuda")
    wide[:, :256] = int4.pack(x)                              # rows 512 bytes apart: read in place
    shifted = torch.zeros(n * 256 + 1, dtype=torch.uint8, device="cuda")[1:].view(n, 256)
    shifted.copy_(int4.pack(w))                               # base 1 byte off: copied first
    bias = torch.randint(-1000, 1000, (n,), dtype=torch.int32, device="cuda")
    c = warpgemm.matmul(int4.Packed(wide[:, :256], k), int4.Packed(shifted, k).t(), kernel=kernel, bias=bias)
    assert torch.equal(c.cpu(), _exact(x, w) + bias.cpu())


def _full_range_k(signed: bool, k: int):
    """A row of A and a row of W whose products all take the largest magnitude: (-8)(-8) or 15 * 15."""
    v = -8 if signed else 15
    row = torch.full((1, k), v, dtype=torch.int8, device="cuda")
    p = int4.Packed.from_values(row, signed=signed)
    return p, p.t()


@pytest.mark.gpu
@pytest.mark.slow
@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("signed", [True, False])
def test_sums_are_exact_up_to_the_k_bound_and_wrap_past_it(kernel, signed):
    if not _runs(kernel):
        pytest.skip(f"{kernel} needs {catalog.get(kernel).needs()}")
    k_max, top = (S4_K_MAX, 64) if signed else (U4_K_MAX, 225)
    limit = exact_k_limit(kernel, signed)
    if limit is not None:  # rung 06 with s4: exact to its own bound, longer K refused
        a, b = _full_range_k(signed, limit)
        assert warpgemm.matmul(a, b, kernel=kernel).item() == top * limit
        a, b = _full_range_k(signed, limit + 1)
        with pytest.raises(ValueError, match=f"exact only up to K = {limit}"):
            warpgemm.matmul(a, b, kernel=kernel)
        return
    a, b = _full_range_k(signed, k_max)
    assert warpgemm.matmul(a, b, kernel=kernel).item() == top * k_max  # <= 2**31 - 1
    a, b = _full_range_k(signed, k_max + 1)
    wrapped = (top * (k_max + 1) + 2**31) % 2**32 - 2**31
    assert warpgemm.matmul(a, b, kernel=kernel).item() == wrapped


# Rung 05 beyond the shared cases: its other tiles and stage counts, the persistent grid's split
# last wave (forced and by the cost model), a K tail inside a k-tile, many tiles.
WIDEN_CASES = [
    ({}, (1000, 3000, 4096)), ({"SPLITS": 4}, (300, 600, 8192)), ({"SPLITS": 16}, (1, 1, 100001)),
    ({"BN": 128, "STAGES": 3}, (777, 555, 1999)), ({"BN": 128, "STAGES": 8}, (128, 128, 128)),
    ({"BN": 64, "STAGES": 2}, (65, 63, 160)), ({"STAGES": 5, "GROUP": 16}, (2049, 4097, 672)),
    ({"BN": 192, "SPLITS": 1}, (513, 385, 3071)),
]


@pytest.mark.gpu
@pytest.mark.parametrize("params,shape", WIDEN_CASES,
                         ids=["".join(f"{k}{v}-" for k, v in p.items()) + "x".join(map(str, s)) for p, s in WIDEN_CASES])
@pytest.mark.parametrize("signed", [True, False])
def test_the_widening_rung_is_exact_with_each_tile_and_split(params, shape, signed):
    _assert_exact(WIDEN, shape, signed, launches=2, **params)  # the split's counters are left zero for the next


# Rung 06: its tiles and stage counts, the split last wave, K tails, many tiles.
REGISTER_A_CASES = [
    ({}, (1000, 3000, 4096)), ({"SPLITS": 4}, (300, 600, 8192)), ({"SPLITS": 16}, (1, 1, 100001)),
    ({"BN": 128, "STAGES": 3}, (777, 555, 1999)), ({"BN": 128, "STAGES": 8}, (128, 128, 128)),
    ({"BN": 64, "STAGES": 2}, (65, 63, 160)), ({"STAGES": 4, "GROUP": 16}, (2049, 4097, 672)),
    ({"STAGES": 6, "SPLITS": 1}, (513, 385, 3071)), ({}, (129, 193, 129)), ({}, (256, 384, 256)),
    ({"BN": 192, "STAGES": 7}, (1000, 3000, 4096)), ({"BN": 192, "STAGES": 7, "SPLITS": 3}, (300, 700, 3001)),
    ({"BN": 256, "STAGES": 4}, (129, 257, 1153)), ({"SPLITS": 2}, (257, 513, 2049)),
]


@pytest.mark.gpu
@pytest.mark.parametrize("params,shape", REGISTER_A_CASES,
                         ids=["".join(f"{k}{v}-" for k, v in p.items()) + "x".join(map(str, s))
                              for p, s in REGISTER_A_CASES])
@pytest.mark.parametrize("signed", [True, False])
def test_the_register_a_rung_is_exact_with_each_tile_and_split(params, shape, signed):
    _assert_exact(REGISTER_A, shape, signed, launches=2, **params)


@pytest.mark.gpu
def test_auto_on_hopper_runs_the_register_a_rung():
    if _capability() != 90:
        pytest.skip("the widening rungs are kernel='auto' on compute capability 9.0 only")
    assert dispatch.choose(90, "int4", 4096, 4096, 4096, layouts=("row", "col")).kernel == REGISTER_A
    x, w, a, b = _operands(333, 4444, 1234, True, "cuda")
    assert torch.equal(warpgemm.matmul(a, b.t()).cpu(), _exact(x, w))
