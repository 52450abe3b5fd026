"""The Hopper ladder (hopper/01..): wgmma fed by TMA, sm_90a only.

On the CPU: the tensor maps each operand layout gets, the TMA rules checked with errors that
name them, the arch-specific target, and the compile: every rung, layout and dtype pair compiles
for sm_90a without spills and without ptxas's serialised-wgmma warnings. The model at the end
checks the shared-memory addressing the kernels use: what TMA writes with the 128-byte swizzle
is what wgmma's descriptors read.

On an H100 or H200: every rung on the ragged and layouts suites against float64, with the
output poisoned with NaN, the bias in the epilogue, and HGMMA in the SASS.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

import warpgemm
from warpgemm import catalog, dispatch
from warpgemm.catalog import hopper
from warpgemm.layout import Swizzle
from warpgemm.runtime import tensor_map

RUNGS = [s.name for s in catalog.kernels("hopper")]
LAYOUTS = [("row", "row"), ("row", "col"), ("col", "row"), ("col", "col")]
DTYPE_PAIRS = [("float16", "float16"), ("bfloat16", "bfloat16"), ("float16", "float32"),
               ("bfloat16", "float32")]


# -- arch ------------------------------------------------------------------------------------

def test_the_hopper_rungs_run_on_compute_capability_9_0_only():
    for name in RUNGS:
        spec = catalog.get(name)
        assert spec.arch == "sm_90a" and spec.arch_specific
        assert spec.runs_on(90) and not spec.runs_on(80) and not spec.runs_on(100)
    assert catalog.get("hgemm/07_tuned").runs_on(100)
    assert set(RUNGS) <= {s.name for s in catalog.kernels(arch="sm_90a")}
    assert not set(RUNGS) & {s.name for s in catalog.kernels(arch="sm_100a")}


def test_compiling_a_hopper_rung_for_another_arch_is_refused():
    with pytest.raises(ValueError, match=r"arch-specific instructions of sm_90a; asked for sm_90\b"):
        warpgemm.compile(RUNGS[0], "sm_90")
    with pytest.raises(ValueError, match="asked for sm_80"):
        warpgemm.compile(RUNGS[0], "sm_80")


# -- tensor maps -----------------------------------------------------------------------------

@pytest.mark.parametrize("layout,k_major,dims,box", [
    # A (M=300, K=200), lda = 208: row-major is K-major, boxes of 64 k by BM rows.
    ("row", True, (200, 300), (64, 128)),
    # A column-major (M-major): boxes of 64 m by BK k.
    ("col", False, (300, 200), (64, 64)),
])
def test_an_operand_map_puts_the_contiguous_dimension_first(layout, k_major, dims, box):
    m = tensor_map.operand_map("bfloat16", 300, 200, layout, 304 if layout == "col" else 208, k_major,
                               mn_tile=128, bk=64)
    assert m.dims == dims and m.box == box
    assert m.outer_stride_bytes == 2 * (304 if layout == "col" else 208)


def test_b_maps_follow_the_same_rule():
    # B (K=200, N=96): column-major is K-major (the nn.Linear layout, W (N, K) row-major).
    m = tensor_map.operand_map("float16", 200, 96, "col", 200, True, mn_tile=256, bk=64)
    assert m.dims == (200, 96) and m.box == (64, 256)
    m = tensor_map.operand_map("float16", 200, 96, "row", 96, False, mn_tile=256, bk=64)
    assert m.dims == (96, 200) and m.box == (64, 64)


def test_a_single_row_gets_a_legal_stride_it_never_uses():
    m = tensor_map.operand_map("bfloat16", 1, 5, "row", 5, True, mn_tile=64, bk=64)
    assert m.dims == (5, 1) and m.outer_stride_bytes == 16
    tensor_map.check(m, 0x1000)


@pytest.mark.parametrize("change,message", [
    (dict(address=0x1008), "16-byte aligned base"),
    (dict(outer_stride_bytes=2 * 1001), "multiple of 16 bytes"),
    (dict(box=(64, 300)), "1..256 elements"),
    (dict(box=(128, 64)), "at most 128 bytes"),
])
def test_the_tma_rules_are_checked_by_name(change, message):
    fields = dict(dtype="bfloat16", dims=(1000, 1000), outer_stride_bytes=2048, box=(64, 128))
    address = change.pop("address", 0x1000)
    fields.update(change)
    with pytest.raises(ValueError, match=message):
        tensor_map.check(tensor_map.TileMap(**fields), address)


def test_an_output_map_takes_slabs_of_64_rows_by_128_bytes():
    m = tensor_map.output_map("bfloat16", 1000, 520, 520)
    assert (m.dims, m.outer_stride_bytes, m.box) == ((520, 1000), 1040, (64, 64))
    assert tensor_map.output_map("float32", 1000, 520, 520).box == (32, 64)
    assert tensor_map.fits(m, 0x10000)


def test_a_c_that_tma_cannot_store_to_is_recognised():
    # Rows 2 * 33 bytes apart, or a base off the 16-byte grid: rung 06 then stores directly.
    assert not tensor_map.fits(tensor_map.output_map("bfloat16", 100, 33, 33), 0x10000)
    assert not tensor_map.fits(tensor_map.output_map("float32", 100, 64, 64), 0x10004)


def test_the_tma_abi_passes_two_maps_then_the_ladder_arguments():
    spec = catalog.get(RUNGS[0])
    assert spec.fused_bias and spec.align_elems == 8
    assert spec.layouts == tuple(LAYOUTS)


# -- compile ---------------------------------------------------------------------------------

COMPILE_CASES = [(name, la, lb, dt) for name in RUNGS for la, lb in LAYOUTS for dt in DTYPE_PAIRS]


@pytest.mark.parametrize("name,la,lb,dtypes", COMPILE_CASES,
                         ids=[f"{n.split('/')[1]}-{la[0]}{lb[0]}-{d[0]}to{d[1]}" for n, la, lb, d in COMPILE_CASES])
def test_every_rung_compiles_for_sm90a_without_spills_or_serialised_wgmma(name, la, lb, dtypes):
    k = warpgemm.compile(name, "sm_90a", a_layout=la, b_layout=lb, in_dtype=dtypes[0], out_dtype=dtypes[1])
    assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
    # C7510: a wgmma pipeline crosses a function call; C7511/C7515: registers or non-wgmma
    # instructions force ptxas to serialise the wgmma.
    assert not re.search(r"C75\d\d|wgmma.*serializ", k.log), k.log
    spec = catalog.get(name)
    assert spec.smem_bytes(spec.resolve()) <= 227 * 1024


@pytest.mark.parametrize("la,lb", LAYOUTS)
def test_128_x_192_tiles_compile_in_every_layout_without_spills_or_serialised_wgmma(la, lb):
    k = warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout=la, b_layout=lb, BN=192)
    assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
    assert not re.search(r"C75\d\d|wgmma.*serializ", k.log), k.log


H200_CHOICES = {"64x128-clusters": dispatch._H200_64X128_C2, "64x256-clusters": dispatch._H200_64X256_C2,
                "128x64-eight-stages": dispatch._H200_128X64_S8}
"""Rung 06's choices in the H200's rules for 65-128 rows: compiled here, and run on every ragged
shape in every layout below (TILE_VARIANTS)."""


@pytest.mark.parametrize("params", H200_CHOICES.values(), ids=H200_CHOICES)
def test_the_h200s_choices_at_65_to_128_rows_compile_without_spills_or_serialised_wgmma(params):
    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert spec.valid(spec.resolve(params)) and spec.smem_bytes(spec.resolve(params)) <= 227 * 1024
    for out in ("bfloat16", "float32"):
        k = warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout="row", b_layout="col",
                             in_dtype="bfloat16", out_dtype=out, **params)
        assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
        assert not re.search(r"C75\d\d|wgmma.*serializ", k.log), k.log


HELD = [{"HOLD": 1}, {"HOLD": 1, "CLUSTER": 2}, {"HOLD": 1, "BN": 192}, {"HOLD": 1, "BM": 256, "BN": 128},
        {"HOLD": 1, "BM": 256, "BN": 128, "CLUSTER": 2}]
HELD_IDS = ["single", "clusters", "128x192", "256x128", "256x128-clusters"]


@pytest.mark.parametrize("params", HELD, ids=HELD_IDS)
@pytest.mark.parametrize("la,lb", LAYOUTS)
def test_holding_the_sums_for_the_next_tiles_wgmma_compiles_without_spills_or_serialised_wgmma(params, la, lb):
    # HOLD = 1 keeps a tile's sums as 16-bit pairs (64 registers a thread) through the next tile's
    # main loop and stages them beside its wgmma: no spill, and no code that makes ptxas serialise
    # the wgmma (C7510-C7515).
    for out in ("bfloat16", "float32"):  # fp32 C takes the plain epilogue
        k = warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout=la, b_layout=lb,
                             in_dtype="bfloat16", out_dtype=out, **params)
        assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
        assert not re.search(r"C75\d\d|wgmma.*serializ", k.log), k.log


def test_holding_is_refused_by_name_outside_zero_and_one():
    from warpgemm.errors import CompileError

    with pytest.raises(CompileError, match=r"HOLD = 0 \(store each tile"):
        warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout="row", b_layout="col", HOLD=2)
    assert not catalog.get("hopper/06_tma_store_epilogue").valid(
        catalog.get("hopper/06_tma_store_epilogue").resolve({"HOLD": 2}))


@pytest.mark.parametrize("name", RUNGS)
def test_every_point_of_a_rungs_tuning_space_that_is_valid_compiles(name):
    spec = catalog.get(name)
    import itertools

    keys = list(spec.tuning)
    compiled = set()
    for values in itertools.product(*(spec.tuning[k] for k in keys)):
        p = spec.resolve(dict(zip(keys, values)))
        template = tuple(v for key, v in p.items() if key not in spec.host_params)
        if spec.valid(p) and template not in compiled:
            compiled.add(template)
            k = warpgemm.compile(name, "sm_90a", a_layout="row", b_layout="col", **dict(zip(keys, values)))
            assert k.spill_bytes == 0, (p, k.log)


@pytest.mark.parametrize("name,params", [("hopper/03_warp_specialized", {"BN": 128}), ("hopper/04_persistent", {"BN": 128}),
                                         ("hopper/05_cluster_multicast", {"BN": 128}), ("igemm/02_wgmma_s8", {"BN": 128}),
                                         ("decode/02_swap_ab_wgmma", {"BN": 32, "STAGES": 2})])
def test_256_row_tiles_are_refused_by_name_where_the_launch_assumes_64_row_consumers(name, params):
    # These launch 128 * (1 + BM / 64) threads, two warpgroups too many for the two 128-row
    # consumers of a 256-row tile: without the static_assert the extra warps would wait for ever.
    # (Rung 06 sizes its launch by its consumers and takes 256 x 128 tiles.)
    from warpgemm.errors import CompileError

    with pytest.raises(CompileError, match=r"BM = 64 or 128: one or two consumer warpgroups"):
        warpgemm.compile(name, "sm_90a", a_layout="row", b_layout="col", BM=256, **params)


@pytest.mark.parametrize("params", [{}, {"CLUSTER": 2}, {"BM": 256, "BN": 128}, {"BN": 128, "CLUSTER": 2},
                                    {"CLUSTER": 4}, {"STREAM_K": 1}],
                         ids=["single", "clusters", "256x128", "128x128-clusters", "clusters-of-4", "stream-k"])
def test_rung_06_carries_one_copy_of_its_epilogue_and_no_unrolled_fallback(params):
    # Two large kernels of ours one after the other evict each other's instructions: with 130 KB
    # of code each, 5 us a launch at 4096 x 1024 x 2048 on an H100; with 33 KB, nothing
    # (docs/benchmarking.md). The split reduction calls the epilogue once, and a C that TMA
    # cannot store to is copied from the staged slabs in a rolled loop, so rung 06 stays small.
    k = warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout="row", b_layout="col",
                         in_dtype="bfloat16", out_dtype="bfloat16", **params)
    assert k.code_bytes <= 48 * 1024, k.code_bytes


# -- the shared-memory model -----------------------------------------------------------------
# TMA writes box element (i, r) (i along the contiguous dimension, r the row) of a slab whose
# base is 1024-byte aligned at byte r * 128 + i * size, swizzled: Swizzle<3,4,3> on the byte
# address XORs its 16-byte chunk (bits 4..6) with its row within 8 (bits 7..9).
#
# wgmma reads an operand of a descriptor (start, LBO, SBO) at these (unswizzled) addresses, then
# applies the same swizzle (CuTe's canonical GMMA layouts, mma_traits_sm90_gmma.hpp):
#   K-major:  element (mn, k) of the 64 x 16 (or N x 16) operand:
#             start + (mn % 8) * 128 + (mn // 8) * SBO + k * size
#   MN-major: start + (mn % ATOM) * size + (mn // ATOM) * LBO + (k % 8) * 128 + (k // 8) * SBO
#
# The kernels' descriptors (sm90/smem_operand.cuh, SwizzledOperand::desc) are, for the wgmma at
# rows [mn0, mn0 + 64) and k-step kk of a tile:
#   K-major:  start = (kk // ATOM) * SLAB + mn0 * 128 + (kk % ATOM) * size, LBO = 16, SBO = 1024
#   MN-major: start = (mn0 // ATOM) * SLAB + kk * 128,                      LBO = SLAB, SBO = 1024

SW128 = Swizzle(3, 4, 3)


def _tma_tile(mn: int, bk: int, k_major: bool, size: int) -> dict[int, tuple[int, int]]:
    """Byte address -> (mn, k) of every element TMA writes for one MN x BK operand tile."""
    atom = 128 // size
    rows = mn if k_major else bk
    slab = rows * 128
    placed = {}
    for a in range(mn):
        for k in range(bk):
            i, r, j = (k % atom, a, k // atom) if k_major else (a % atom, k, a // atom)
            placed[SW128(j * slab + r * 128 + i * size)] = (a, k)
    return placed


def _wgmma_reads(start: int, lbo: int, sbo: int, rows: int, kstep: int, k_major: bool,
                 size: int) -> dict[tuple[int, int], int]:
    atom = 128 // size
    out = {}
    for a in range(rows):
        for k in range(kstep):
            if k_major:
                addr = start + (a % 8) * 128 + (a // 8) * sbo + k * size
            else:
                addr = start + (a % atom) * size + (a // atom) * lbo + (k % 8) * 128 + (k // 8) * sbo
            out[(a, k)] = SW128(addr)
    return out


def _kernel_descriptor(mn0: int, kk: int, mn: int, bk: int, k_major: bool, size: int) -> tuple[int, int, int]:
    atom = 128 // size
    slab = (mn if k_major else bk) * 128
    if k_major:
        return (kk // atom) * slab + mn0 * 128 + (kk % atom) * size, 16, 1024
    return (mn0 // atom) * slab + kk * 128, slab, 1024


@pytest.mark.parametrize("mn,bk,k_major,size,rows", [
    (128, 64, True, 2, 64),     # A of rung 02, row-major: the two warpgroups' m64 operands
    (128, 64, False, 2, 64),    # A column-major
    (256, 64, True, 2, 256),    # B, column-major (the Linear layout), one N = 256 operand
    (256, 64, False, 2, 256),   # B row-major
    (64, 128, True, 2, 64),     # BK = 128: two slabs of k
    (128, 128, True, 1, 64),    # int8, K-major (ATOM = 128 elements)
])
def test_what_wgmma_reads_through_the_descriptors_is_what_tma_wrote(mn, bk, k_major, size, rows):
    placed = _tma_tile(mn, bk, k_major, size)
    kstep = 32 // size  # 16 elements of 16-bit types, 32 of 8-bit
    for mn0 in range(0, mn, rows):
        for kk in range(0, bk, kstep):
            start, lbo, sbo = _kernel_descriptor(mn0, kk, mn, bk, k_major, size)
            assert start % 16 == 0
            for (a, k), addr in _wgmma_reads(start, lbo, sbo, rows, kstep, k_major, size).items():
                assert placed[addr] == (mn0 + a, kk + k), (mn0, kk, a, k)


# -- on the GPU ------------------------------------------------------------------------------

def _on_hopper() -> bool:
    import torch

    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


needs_hopper = pytest.mark.skipif("not _on_hopper()", reason="the Hopper rungs run on compute capability 9.0 only")

RAGGED = [(1, 1, 1), (17, 33, 65), (1000, 1000, 1000), (4097, 4095, 4093), (3000, 5000, 7),
          (7, 3000, 5000), (8191, 129, 4099), (255, 8193, 1023), (128, 256, 64), (129, 257, 65)]
GPU_CASES = [(rung, shape, lay, DTYPE_PAIRS[(si + li) % 4])
             for rung in RUNGS for si, shape in enumerate(RAGGED) for li, lay in enumerate(LAYOUTS)]


def _torch_dtype(name: str):
    import torch

    return getattr(torch, name)


def _check(kernel: str, m: int, n: int, k: int, la: str, lb: str, dtypes: tuple[str, str], bias: bool = False,
           no_copy: bool = False, **params: int) -> None:
    from test_hgemm import TOL, _operand, _rel_err
    import torch
    from warpgemm.operands import prepare

    dt, odt = _torch_dtype(dtypes[0]), _torch_dtype(dtypes[1])
    a, b = _operand(m, k, la, dt), _operand(k, n, lb, dt)
    if no_copy:
        assert not prepare(a, {"row", "col"}, 8).copied and not prepare(b, {"row", "col"}, 8).copied
    c_bias = torch.randn(n, device="cuda").to(dt) if bias else None
    out = torch.full((m, n), float("nan"), dtype=odt, device="cuda")
    warpgemm.matmul(a, b, kernel=kernel, out=out, out_dtype=odt, bias=c_bias, **params)
    torch.cuda.synchronize()
    assert not torch.isnan(out).any(), f"{kernel} left unwritten (NaN) elements"
    ref = a.double() @ b.double() + (c_bias.double() if bias else 0)
    err = _rel_err(out, ref)
    assert err <= TOL[odt], f"{kernel} {m}x{n}x{k} {la}/{lb} {dtypes}: rel err {err:.2e}"


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel,shape,layouts,dtypes", GPU_CASES,
                         ids=[f"{c[0].split('/')[1]}-{'x'.join(map(str, c[1]))}-{c[2][0][0]}{c[2][1][0]}-"
                              f"{c[3][0]}to{c[3][1]}" for c in GPU_CASES])
def test_every_rung_matches_float64_on_ragged_shapes(kernel, shape, layouts, dtypes):
    _check(kernel, *shape, *layouts, dtypes)


TALL_TILES = [(cluster, shape, lay, DTYPE_PAIRS[(si + li) % 4], si % 2 == 0)
              for cluster in (1, 2) for si, shape in enumerate(RAGGED) for li, lay in enumerate(LAYOUTS)]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("cluster,shape,layouts,dtypes,bias", TALL_TILES)
def test_256_row_tiles_whose_two_consumers_take_128_rows_each_match_float64(cluster, shape, layouts, dtypes, bias):
    # BM = 256: each consumer warpgroup issues two m64 wgmma a k-step and stores two 64-row blocks
    _check("hopper/06_tma_store_epilogue", *shape, *layouts, dtypes, bias=bias, BM=256, BN=128, CLUSTER=cluster)


RAGGED_EVERY_LAYOUT = [(shape, lay, DTYPE_PAIRS[(si + li) % 4], si % 2 == 1)
                       for si, shape in enumerate(RAGGED) for li, lay in enumerate(LAYOUTS)]
"""Every ragged shape in every layout, the dtypes and the bias turning with them."""


TILE_VARIANTS = {
    # CLUSTER = 4: each block loads a quarter of the B tile and multicasts it to the other three;
    # a unit is 512 rows, so ragged M leaves whole blocks past C's last row (zeros in, nothing out)
    "clusters-of-four": {"CLUSTER": 4},
    # BM = 64: one consumer warpgroup a block (256 threads), the tiles dispatch gives small grids
    "64x128-one-consumer": {"BM": 64, "BN": 128},
    # BM = 64, BN = 64: the smallest tile, which dispatch gives the smallest grids
    "64x64-one-consumer": {"BM": 64, "BN": 64},
    # BN = 192: three 64-wide slabs of B a k-tile (a row-major B in three MN-major slabs), one
    # m64n192k16 a consumer and k-step, and three 64-column slabs of C through the staging buffers
    "128x192": {"BN": 192},
    # The H200's choices at 65-128 rows (warpgemm/dispatch.py, H200_CHOICES above): clusters of
    # 64 x 128 and 64 x 256 tiles (two tile rows share B, multicast) with seven and five stages;
    # 128 x 64 with eight
    **{f"h200-{name}": params for name, params in H200_CHOICES.items()},
}
"""Rung 06's tile and cluster choices beyond its defaults, each checked on every ragged shape in
every layout."""


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k", [
    (97, 5121, 1000), (127, 8191, 8193), (100, 6000, 64),     # clusters of 64 x 128
    (65, 12289, 520), (96, 16383, 4097), (70, 12300, 18001),  # clusters of 64 x 256 (any K)
    (97, 4096, 14337), (128, 4096, 16383)])                   # 128 x 64, eight stages
def test_the_h200s_choices_at_65_to_128_rows_match_float64_on_ragged_linear_problems(m, n, k):
    # what auto runs on an H200 in each bucket of its rung-06 rules at 65-128 rows, on ragged N and
    # K with the bias (the kernel is the same on any Hopper)
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and rule.params["BM"] in (64, 128)
    for dtypes in (("bfloat16", "bfloat16"), ("float16", "float32")):
        _check(rule.kernel, m, n, k, "row", "col", dtypes, bias=True, **rule.params)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k,note", [
    (193, 14343, 4100, "m193_256_edge"), (256, 12289, 8191, "m193_256_edge"),   # 256 x 128, N 12288-16384
    (201, 8191, 28673, "m193_256_edge"), (255, 4097, 14337, "m193_256_edge"),   # 256 x 128, K from 14336
    (193, 28679, 8185, "m193_256_edge"), (247, 20481, 4097, "m193_256_edge"),   # 128 x 176
    (199, 4095, 4096, "m193_256_edge"), (256, 3073, 4096, "m193_256_edge"),     # 128 x 128 (K = 4096)
    (521, 4096, 4093, "m257_1023_edge"), (639, 4096, 14335, "m257_1023_edge"),  # 128 x 176 from 257 rows
    (257, 14343, 4100, "m257_1023_edge"), (383, 28679, 8191, "m257_1023_edge")])
def test_the_h200s_choices_drawn_with_the_edge_boxes_match_float64_on_ragged_linear_problems(m, n, k, note):
    # what auto runs on an H200 in each bucket of its rung-06 rules at 193-256 rows and of its 128 x
    # 176 tiles from 257 rows, on ragged rows of A (boxes that stop at the edge), N and K, with the bias
    rule = dispatch.choose(90, "bfloat16", m, n, k, layouts=("row", "col"), device="NVIDIA H200")
    assert rule.kernel == "hopper/06_tma_store_epilogue" and note in rule.note
    for dtypes in (("bfloat16", "bfloat16"), ("float16", "float32")):
        _check(rule.kernel, m, n, k, "row", "col", dtypes, bias=True, **rule.params)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("variant", TILE_VARIANTS)
@pytest.mark.parametrize("shape,layouts,dtypes,bias", RAGGED_EVERY_LAYOUT)
def test_each_tile_variant_matches_float64_on_ragged_shapes_in_every_layout(variant, shape, layouts, dtypes, bias):
    _check("hopper/06_tma_store_epilogue", *shape, *layouts, dtypes, bias=bias, **TILE_VARIANTS[variant])


# -- A's ragged last tile-row: boxes that stop at the tensor's edge (rung 06, A_EDGE) -----------

@pytest.mark.parametrize("m,bm,edge", [
    (193, 128, (128, 72)),   # 65 rows: 72-row boxes, 7 rows of zero fill
    (256, 128, None),        # every tile-row full: A's own map
    (1, 128, (0, 8)),        # one row, one tile-row: 8-row boxes
    (300, 256, (256, 48)),
    (1000, 64, (960, 40)),
    (8, 64, (0, 8))])
def test_a_ragged_last_tile_row_loads_boxes_of_its_rows_rounded_up_to_eight(m, bm, edge):
    assert hopper.a_edge(m, bm) == edge


def test_the_edge_boxes_are_a_host_parameter_and_out_of_range_is_refused_by_name():
    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert spec.resolve({})["A_EDGE"] == 1
    on = spec.instance("row", "col", "bfloat16", "bfloat16")
    off = spec.instance("row", "col", "bfloat16", "bfloat16", params={"A_EDGE": 0})
    assert on.name_expression == off.name_expression  # one kernel: the host passes the maps
    with pytest.raises(ValueError, match=r"A_EDGE = 0 \(every tile-row of A loads full-height boxes\)"):
        spec.instance("row", "col", "bfloat16", "bfloat16", params={"A_EDGE": 2})


EDGE_ROWS = [1, 7, 8, 9, 63, 65, 121, 127]
"""Rows of A's last tile-row (modulo BM): under, at and past one 8-row swizzle atom, and one short
of BM."""
EDGE_TILES = {
    "128x256": {}, "128x128": {"BN": 128}, "128x128-clusters": {"BN": 128, "CLUSTER": 2},
    "64x128": {"BM": 64, "BN": 128}, "256x128": {"BM": 256, "BN": 128},
    "held": {"HOLD": 1}, "stream-k": {"STREAM_K": 1, "BN": 128}, "split": {"SPLITS": 3, "BN": 128},
}
"""Rung 06's tilings, clusters, held sums and tail splits, each with a ragged last tile-row."""


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("a_edge", [1, 0])
@pytest.mark.parametrize("tile", EDGE_TILES)
@pytest.mark.parametrize("ri,rows", list(enumerate(EDGE_ROWS)))
def test_a_ragged_last_tile_row_matches_float64_with_edge_boxes_and_with_full_height_ones(a_edge, tile, ri, rows):
    # Past M, a stage keeps rows of earlier k-tiles (A_EDGE = 1) or TMA's zeros (A_EDGE = 0); only
    # rows of C past M read them, and nothing is stored there. A K-major A, with the bias, in
    # every dtype pair; the M-major A passes A's own map whatever A_EDGE says.
    params = {"A_EDGE": a_edge, **EDGE_TILES[tile]}
    bm = params.get("BM", 128)
    m = (ri % 3) * bm + rows % bm  # 0-2 full tile-rows, then the ragged one
    la = "row" if ri % 4 else "col"
    _check("hopper/06_tma_store_epilogue", m, 1000 + 8 * ri, 777 + 64 * ri, la, "col", DTYPE_PAIRS[ri % 4],
           bias=True, **params)


# -- 128 x 176 tiles: BN no multiple of 64 ---------------------------------------------------

NARROW = {"BN": 176}
"""128 x 176 tiles (cuBLAS's width at 1024 x 14336): m64n176k16, 88 sums a thread; the last
64-column slab of C starts at column 112 and overlaps the one before; B read K-major only, in
single blocks or clusters of two (each block multicasts 88 rows of B, 11 swizzle atoms)."""
K_MAJOR_B = [lay for lay in LAYOUTS if lay[1] == "col"]


@pytest.mark.parametrize("la,lb", K_MAJOR_B)
@pytest.mark.parametrize("dtypes", DTYPE_PAIRS)
@pytest.mark.parametrize("hold", [0, 1])
@pytest.mark.parametrize("cluster", [1, 2])
def test_176_wide_tiles_compile_without_spills_or_serialised_wgmma(la, lb, dtypes, hold, cluster):
    if hold and dtypes[1] == "float32":
        pytest.skip("held sums are 16-bit pairs: an fp32 C takes the plain epilogue whatever HOLD says")
    k = warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout=la, b_layout=lb, in_dtype=dtypes[0],
                         out_dtype=dtypes[1], HOLD=hold, CLUSTER=cluster, **NARROW)
    assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
    assert not re.search(r"C75\d\d|wgmma.*serializ", k.log), k.log


def test_176_wide_tiles_refuse_a_row_major_b_and_clusters_of_four_by_name():
    from warpgemm.errors import WarpgemmError

    with pytest.raises(WarpgemmError, match=r"column-major B"):
        warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout="row", b_layout="row", **NARROW)
    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert spec.valid({**spec.params, **NARROW, "CLUSTER": 2})
    assert not spec.valid({**spec.params, **NARROW, "CLUSTER": 4})  # 44 rows of B: no whole swizzle atoms


def test_176_wide_tiles_take_a_row_major_b_as_a_column_major_copy():
    import torch
    from warpgemm import api

    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert spec.b_layouts_read("row", {**spec.params, **NARROW}) == {"col"}
    assert spec.b_layouts_read("row", spec.params) == spec.b_layouts_read("row") == {"row", "col"}
    a, b = torch.randn(8, 64).to(torch.bfloat16), torch.randn(64, 32).to(torch.bfloat16)  # both row-major
    _, ob = api._operands(spec, a, b, ("row", 64), ("row", 32), {**spec.params, **NARROW})
    assert ob.layout == "col" and ob.copied and torch.equal(ob.tensor, b)
    _, ob = api._operands(spec, a, b, ("row", 64), ("row", 32), spec.params)  # 256 wide: read as it is
    assert ob.layout == "row" and not ob.copied


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("hold", [0, 1])
@pytest.mark.parametrize("cluster", [1, 2])
@pytest.mark.parametrize("shape,layouts,dtypes,bias", RAGGED_EVERY_LAYOUT)
def test_176_wide_tiles_match_float64_on_ragged_shapes_in_every_layout(hold, cluster, shape, layouts, dtypes, bias):
    _check("hopper/06_tma_store_epilogue", *shape, *layouts, dtypes, bias=bias, HOLD=hold, CLUSTER=cluster,
           **NARROW)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("n", [175, 176, 177, 352, 1000, 14336])
@pytest.mark.parametrize("k", [512, 576])
@pytest.mark.parametrize("cluster", [1, 2])
def test_176_wide_tiles_store_every_column_once_over_the_overlapping_slab(n, k, cluster):
    # N across one, two and many tiles, a tile's width +- 1, and a ragged last tile, over an even
    # and an odd number of k-tiles (8, 9): the overlap is written twice with the same values, and
    # no column is left NaN or written with another tile's sums
    _check("hopper/06_tma_store_epilogue", 200, n, k, "row", "col", ("bfloat16", "bfloat16"), bias=True,
           no_copy=True, HOLD=1, CLUSTER=cluster, **NARROW)


def test_clusters_of_four_take_256_wide_tiles_and_no_other_cluster_size_compiles():
    from warpgemm.errors import CompileError

    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert spec.valid(spec.resolve({"CLUSTER": 4}))
    assert not spec.valid(spec.resolve({"CLUSTER": 4, "BN": 128}))  # a quarter of an MN-major B is no whole slab
    assert not spec.valid(spec.resolve({"CLUSTER": 3}))
    with pytest.raises(CompileError, match=r"clusters of 1, 2 or 4 blocks along M"):
        warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout="row", b_layout="col", CLUSTER=3)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k,splits", [(300, 700, 3001, 3), (1100, 4096, 1024, 4), (257, 129, 2053, 16),
                                          (256, 4096, 4096, 0)])
def test_256_row_tiles_split_over_k_in_the_last_wave_match_float64(m, n, k, splits):
    _check("hopper/06_tma_store_epilogue", m, n, k, "row", "col", ("bfloat16", "bfloat16"), bias=True,
           BM=256, BN=128, CLUSTER=1, SPLITS=splits)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k,splits", [(300, 700, 3001, 3), (1024, 6144, 4096, 0), (257, 2000, 2053, 16)])
def test_128_x_192_tiles_split_over_k_in_the_last_wave_match_float64(m, n, k, splits):
    _check("hopper/06_tma_store_epilogue", m, n, k, "row", "col", ("bfloat16", "bfloat16"), bias=True,
           BN=192, SPLITS=splits)


HELD_CASES = [(params, shape, lay, DTYPE_PAIRS[(si + li + pi) % 4], (si + li) % 2 == 0)
              for pi, params in enumerate(HELD) for si, shape in enumerate(RAGGED) for li, lay in enumerate(LAYOUTS)]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("params,shape,layouts,dtypes,bias", HELD_CASES)
def test_tiles_stored_beside_the_next_tiles_wgmma_match_float64(params, shape, layouts, dtypes, bias):
    # HOLD = 1: a tile's sums wait in registers as 16-bit pairs and go out one slab a k-tile while
    # the next tile multiplies (an fp32 C takes the plain epilogue)
    _check("hopper/06_tma_store_epilogue", *shape, *layouts, dtypes, bias=bias, **params)


SINGLE_BLOCK_RULE_SHAPES = [(1031, 5119, 4099), (2563, 4093, 4097), (1021, 8191, 4103), (1531, 14333, 4111)]
SINGLE_BLOCK_RULE_CASES = [(shape, lay, DTYPE_PAIRS[(si + li) % 4], (si + li) % 2 == 0)
                           for si, shape in enumerate(SINGLE_BLOCK_RULE_SHAPES) for li, lay in enumerate(LAYOUTS)]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("shape,layouts,dtypes,bias", SINGLE_BLOCK_RULE_CASES)
def test_auto_matches_float64_where_the_h100_rules_take_single_blocks_over_clusters(shape, layouts, dtypes, bias):
    # dispatch's single blocks at long K and where the clusters' last wave is part full: ragged
    # shapes in those bands (an odd number of k-tiles, a part tile at each edge), run as auto. On
    # an H100 SXM or an H200 the rules' choice there is a single-block rung 06 (or 128 x 192 tiles,
    # which come first); elsewhere auto's own choice is checked the same way.
    import torch
    from warpgemm import dispatch

    name = torch.cuda.get_device_name()
    if any(part in name for part in dispatch._132_SMS):
        rule = dispatch.choose(90, dtypes[0], *shape, layouts=layouts, device=name)
        assert rule.kernel == "hopper/06_tma_store_epilogue" and "CLUSTER" not in rule.params, rule
    _check("auto", *shape, *layouts, dtypes, bias=bias)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k", [(4096, 4096, 64), (2048, 3000, 130), (3000, 2048, 200), (1500, 5000, 65)])
@pytest.mark.parametrize("params", HELD, ids=HELD_IDS)
def test_held_tiles_of_fewer_k_tiles_than_slabs_are_stored_whole_before_the_next_is_held(m, n, k, params):
    # Many tiles a block, each of 1-4 k-tiles: the slabs a tile's successor had no k-tile for go
    # out after its main loop, before its own sums are held
    _check("hopper/06_tma_store_epilogue", m, n, k, "row", "col", ("bfloat16", "bfloat16"), bias=True, **params)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k,splits", [(300, 700, 3001, 3), (1100, 4096, 1024, 4), (257, 129, 2053, 16),
                                          (256, 4096, 4096, 0)])
@pytest.mark.parametrize("tile", [{}, {"BM": 256, "BN": 128}, {"BN": 192}], ids=["128x256", "256x128", "128x192"])
def test_held_tiles_with_a_last_wave_split_over_k_match_float64(m, n, k, splits, tile):
    # The last unit of a split tile holds the tile's full sums; the other units hold nothing
    _check("hopper/06_tma_store_epilogue", m, n, k, "row", "col", ("bfloat16", "bfloat16"), bias=True,
           HOLD=1, CLUSTER=1, SPLITS=splits, **tile)


LAYOUT_CASES = [(rung, lay, dt) for rung in RUNGS for lay in LAYOUTS for dt in DTYPE_PAIRS]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel,layouts,dtypes", LAYOUT_CASES)
def test_every_rung_reads_every_layout_in_place(kernel, layouts, dtypes):
    _check(kernel, 1024, 1024, 1024, *layouts, dtypes, no_copy=True)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel", RUNGS)
@pytest.mark.parametrize("shape", [(1000, 1000, 1000), (255, 8193, 1023), (4097, 130, 65)])
def test_every_rung_adds_the_bias_in_its_epilogue(kernel, shape):
    _check(kernel, *shape, "row", "col", ("bfloat16", "bfloat16"), bias=True)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel", RUNGS)
def test_every_point_of_the_tuning_space_is_correct(kernel):
    import itertools

    spec = catalog.get(kernel)
    keys = list(spec.tuning)
    for values in itertools.product(*(spec.tuning[k] for k in keys)):
        p = dict(zip(keys, values))
        if spec.valid(spec.resolve(p)):  # few tiles and a long K: the persistent rungs split the last wave
            _check(kernel, 500, 1000, 3000, "row", "col", ("bfloat16", "bfloat16"), **p)


SPLIT_RUNGS = [name for name in RUNGS if catalog.get(name).last_wave is not None]
# (M, N, K, SPLITS): one tile split 7 ways; 9 ragged tiles split 3 ways; a full wave and then 12
# tiles split 4 ways; 2 k-tiles, the second ragged, one per part; the cost model's choice; a
# single element of C; tiles + 1 and tiles - 1 with an odd, ragged count of k-tiles.
SPLIT_CASES = [(100, 200, 3000, 7), (300, 700, 3001, 3), (1100, 4096, 1024, 4), (200, 300, 65, 16),
               (128, 4096, 4096, 0), (1, 1, 4099, 5), (129, 257, 1031, 3), (127, 255, 2053, 16)]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel", SPLIT_RUNGS)
@pytest.mark.parametrize("m,n,k,splits", SPLIT_CASES)
@pytest.mark.parametrize("layouts", LAYOUTS)
def test_a_split_last_wave_matches_float64_with_the_bias_in_every_layout(kernel, m, n, k, splits, layouts):
    if splits == 0:  # the cost model's own choice splits this shape
        assert catalog.get(kernel).instance(*layouts, "bfloat16").last_wave(m, n, k, 132)[1] > 1
    for i, dtypes in enumerate(DTYPE_PAIRS[:2] if layouts[0] == "row" else DTYPE_PAIRS[2:]):
        _check(kernel, m, n, k, *layouts, dtypes, bias=i == 0, SPLITS=splits)


def _same_bits_every_run_in_another_order(kernel: str, m: int, n: int, k: int, **shared: int) -> None:
    """Six runs of ``kernel`` with the K ranges of some tiles shared out (``shared``: SPLITS or
    STREAM_K) give the same bits; the whole tiles (SPLITS = 1) sum in another order, to the same
    values within fp32 rounding; and every arrival counter is left zero for the next launch."""
    import torch
    from warpgemm.runtime.launch import _counters

    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16).t()
    runs = [warpgemm.matmul(a, b, kernel=kernel, out_dtype=torch.float32, **shared) for _ in range(6)]
    torch.cuda.synchronize()
    assert all(torch.equal(runs[0], r) for r in runs[1:])
    whole = warpgemm.matmul(a, b, kernel=kernel, out_dtype=torch.float32, SPLITS=1)
    assert not torch.equal(runs[0], whole)  # the shares really ran: another order of the sums
    assert torch.allclose(runs[0], whole, rtol=1e-4, atol=1e-3)
    assert all(int(buf.abs().sum()) == 0 for bufs in _counters.values() for buf in bufs)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel", SPLIT_RUNGS)
def test_a_split_last_wave_gives_the_same_bits_every_run_and_leaves_its_counters_zero(kernel):
    _same_bits_every_run_in_another_order(kernel, 300, 700, 3001, SPLITS=5)


@pytest.mark.gpu
@needs_hopper
def test_split_launches_on_four_streams_at_once_get_correct_results():
    import torch
    from test_torch_ops import on_four_streams

    b = torch.randn(2048, 4096, device="cuda", dtype=torch.bfloat16).t()

    def step(i: int):
        a = torch.randn(100 + 30 * i, 4096, device="cuda", dtype=torch.bfloat16)
        return warpgemm.matmul(a, b, kernel="hopper/06_tma_store_epilogue", SPLITS=4), a.double() @ b.double()

    assert not on_four_streams(step, 10)


@pytest.mark.gpu
@needs_hopper
def test_unaligned_inputs_take_the_aligned_copy_and_stay_correct():
    import torch
    from test_hgemm import TOL, _rel_err

    a = torch.randn(300, 402, device="cuda").to(torch.float16)[:, 1:]   # odd leading dimension, offset base
    b = torch.randn(802, 300, device="cuda").to(torch.float16)[::2, ::2]  # neither row- nor column-major
    for kernel in RUNGS:
        out = warpgemm.matmul(a, b, kernel=kernel)
        assert _rel_err(out, a.double() @ b.double()) <= TOL[torch.float16], kernel


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("n,offset", [(1029, 0), (1024, 1), (1000, 0)])
@pytest.mark.parametrize("tile", [{}, {"BM": 256, "BN": 128}, {"CLUSTER": 2}, {"CLUSTER": 4}, {"SPLITS": 3},
                                  {"HOLD": 1}, {"HOLD": 1, "SPLITS": 3}])
def test_a_c_that_tma_cannot_store_to_is_stored_by_the_warpgroups_and_nothing_else_is_written(n, offset, tile):
    # Rung 06 stores C with TMA where C's rows are 16-byte multiples apart and its base is
    # 16-byte aligned. Otherwise (an odd N, or an output that starts one element into its
    # buffer) the warpgroups copy the staged slabs themselves: masked at C's edges, with the
    # bias, after a split K too, and nothing outside C is touched.
    import torch
    from test_hgemm import TOL, _rel_err

    m, k = 515, (4000 if "SPLITS" in tile else 333)  # 5 x 4 or 5 x 5 tiles of 128 x 256: a split last wave
    kernel = [name for name in RUNGS if "06_" in name][0]
    for dt in (torch.bfloat16, torch.float32):
        a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        b = torch.randn(n, k, device="cuda").to(torch.bfloat16).t()
        bias = torch.randn(n, device="cuda").to(torch.bfloat16)
        buf = torch.full((offset + m * n + 64,), float("nan"), dtype=dt, device="cuda")
        out = buf[offset:offset + m * n].view(m, n)
        warpgemm.matmul(a, b, kernel=kernel, out=out, out_dtype=dt, bias=bias, **tile)
        torch.cuda.synchronize()
        assert not torch.isnan(out).any()
        ref = a.double() @ b.double() + bias.double()
        assert _rel_err(out, ref) <= TOL[dt], (n, offset, dt, tile)
        assert torch.isnan(buf[:offset]).all() and torch.isnan(buf[offset + m * n:]).all(), (n, offset, dt, tile)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("kernel", [name for name in RUNGS if "05_" in name or "06_" in name])
def test_a_repeated_call_launches_from_a_plan_that_encodes_new_tensor_maps(kernel):
    # Tensor maps hold addresses: a plan of a Hopper rung makes them again for each call's
    # operands (new buffers, a misaligned output, a bias) and launches through its prepared
    # driver launch, also from another thread, on that thread's stream.
    import threading

    import torch
    from test_hgemm import TOL, _rel_err
    from warpgemm import plan

    plan.clear()
    m, n, k = 515, 1024, 336  # K a multiple of 8: A is read in place, so the call is planned
    w = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    bias = torch.randn(n, device="cuda").to(torch.bfloat16)
    errors: list[str] = []

    def calls() -> None:
        for step in range(4):
            a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
            buf = torch.full((m * n + step % 2,), float("nan"), dtype=torch.bfloat16, device="cuda")
            out = buf[step % 2:].view(m, n)
            warpgemm.matmul(a, w.t(), kernel=kernel, bias=bias, out=out)
            err = _rel_err(out, a.double() @ w.double().t() + bias.double())
            if not err <= TOL[torch.bfloat16]:
                errors.append(f"step {step}: rel err {err:.2e}")

    calls()
    assert plan.count() == 1  # one problem (the same shapes, strides and dtypes), one plan
    side = threading.Thread(target=lambda: (torch.cuda.set_stream(torch.cuda.Stream()), calls(),
                                            torch.cuda.synchronize()))
    side.start()
    side.join()
    assert not errors, errors
    assert plan.count() == 1


@pytest.mark.gpu  # runs with the GPU suite, on the machines that have the CUDA toolkit's cuobjdump
@pytest.mark.skipif(shutil.which("cuobjdump") is None, reason="cuobjdump (CUDA toolkit) not installed")
@pytest.mark.parametrize("kernel", RUNGS)
def test_the_sass_issues_hgmma(kernel, tmp_path):
    k = warpgemm.compile(kernel, "sm_90a", a_layout="row", b_layout="col")
    path = tmp_path / "k.cubin"
    path.write_bytes(k.cubin)
    sass = subprocess.run(["cuobjdump", "-sass", str(path)], capture_output=True, text=True, check=True).stdout
    assert "HGMMA" in sass and "UTMALDG" in sass




def test_a_persistent_rung_launches_a_block_per_sm_at_most_and_one_per_tile_at_least():
    inst = catalog.get("hopper/04_persistent").instance("row", "col", "bfloat16")
    assert inst.grid(4096, 4096, 4096, sms=132) == (132, 1, 1)   # 512 tiles of 128 x 256
    assert inst.grid(256, 512, 64, sms=132) == (4, 1, 1)         # 4 tiles, one k-tile each: no split
    assert inst.grid(1, 1, 1, sms=132) == (1, 1, 1)


# -- the last wave's K split (sm90/tile_scheduler.cuh, sm90/split_k_reduction.cuh) -----------

def test_a_full_last_wave_is_not_split():
    p = catalog.get("hopper/06_tma_store_epilogue").resolve()
    assert hopper.last_wave(128 * 12, 256 * 11, 8192, p, 132) == (0, 1)      # 132 tiles: one full wave
    assert hopper.last_wave(128 * 24, 256 * 11, 8192, p, 132) == (0, 1)      # two full waves


def test_the_tiles_of_a_partial_last_wave_are_split_over_k_onto_the_idle_sms():
    p = catalog.get("hopper/06_tma_store_epilogue").resolve()
    # M = 128, N = K = 4096: 16 tiles on 132 SMs, 64 k-tiles each. The cost model (k-tiles:
    # ceil(64 / S) + (S + 1) * 8/3 for the partial sums) is least at S = 5.
    assert hopper.last_wave(128, 4096, 4096, p, 132) == (16, 5)
    # 144 tiles: a full wave, then 12 tiles, which may take 11 SMs each.
    assert hopper.last_wave(1100, 4096, 4096, p, 132) == (12, 5)
    # A short K is not worth splitting: 16 k-tiles cost 16 unsplit, 8 + 3 * 8/3 = 16 in two.
    assert hopper.last_wave(128, 4096, 1024, p, 132) == (0, 1)


def test_a_split_is_capped_by_the_idle_sms_the_k_tiles_and_the_splits_parameter():
    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert hopper.last_wave(200, 300, 65, spec.resolve({"SPLITS": 16}), 132) == (4, 2)   # 2 k-tiles
    assert hopper.last_wave(128, 256 * 40, 8192, spec.resolve({"SPLITS": 16}), 132) == (40, 3)  # 132 // 40
    assert hopper.last_wave(128, 4096, 8192, spec.resolve({"SPLITS": 3}), 132) == (16, 3)
    assert hopper.last_wave(128, 4096, 8192, spec.resolve({"SPLITS": 1}), 132) == (0, 1)
    assert hopper.last_wave(128, 4096, 8192, spec.resolve({"CLUSTER": 2}), 132) == (0, 1)  # clusters never split


@pytest.mark.parametrize("splits", [-1, hopper.MAX_SPLITS + 1])
def test_a_splits_parameter_out_of_range_is_refused_by_name(splits):
    inst = catalog.get("hopper/06_tma_store_epilogue").instance("row", "col", "bfloat16", params={"SPLITS": splits})
    with pytest.raises(ValueError, match="SPLITS must be 0"):
        inst.grid(128, 4096, 4096, sms=132)


def test_a_split_grid_has_a_block_per_unit_of_work_and_a_workspace_for_every_unit():
    inst = catalog.get("hopper/06_tma_store_epilogue").instance("row", "col", "bfloat16", "bfloat16")
    assert inst.grid(128, 4096, 4096, sms=132) == (80, 1, 1)         # 16 tiles x 5 parts
    assert inst.workspace_bytes(128, 4096, 4096, 132) == 80 * 128 * 256 * 4
    assert inst.counters_needed(128, 4096, 4096, 132) == 16 * 2      # per tile and consumer warpgroup
    assert inst.grid(128 * 11 + 1, 4096, 8192, sms=132) == (132, 1, 1)  # 192 tiles: 132, then 60 x 2
    assert inst.workspace_bytes(4096, 4096, 4096, 132) == 0
    assert inst.counters_needed(4096, 4096, 4096, 132) == 0
    # the template ends CLUSTER, IN_FLIGHT, HOLD, STREAM_K; SPLITS is the host's
    assert "SPLITS" not in inst.name_expression and inst.name_expression.endswith(", 1, 0, 0, 0>")


# -- stream-K: the tail's k-tiles dealt out to every block (PersistentTiles<..., STREAM_K>) -----

def test_stream_k_shares_the_last_wave_or_where_it_is_small_the_last_wave_and_one_before_it():
    assert hopper.stream_k_tiles(512, 132) == 116          # 4096^3 in 128 x 256 tiles: R = 116
    assert hopper.stream_k_tiles(2048, 132) == 68          # 8192^3: R = 68, at least half a wave
    assert hopper.stream_k_tiles(8192, 132) == 8 + 132     # 16384^3: R = 8, and the wave before it
    assert hopper.stream_k_tiles(16, 132) == 16            # under one wave: every tile
    assert hopper.stream_k_tiles(528, 132) == 0            # whole waves: nothing to balance
    assert hopper.stream_k_tiles(140, 132) == 140          # R = 8 and one wave before it: all 140


def _stream_k_schedule(tiles: int, k_tiles: int, shared: int, grid: int):
    """The device's stream-K schedule (sm90/tile_scheduler.cuh), unit by unit: for each block, its
    (tile, k_begin, k_end, split, splits, slot_base) in the order it runs them."""
    full, work = tiles - shared, shared * k_tiles

    def owner(p: int) -> int:
        return ((p + 1) * grid - 1) // work

    blocks = []
    for b in range(grid):
        begin, end = b * work // grid, (b + 1) * work // grid
        units = [(u, 0, k_tiles, 0, 1, None) for u in range(b, full, grid)]
        if begin < end:
            for t in range(begin // k_tiles, (end - 1) // k_tiles + 1):
                t0 = t * k_tiles
                first, last = owner(t0), owner(t0 + k_tiles - 1)
                units.append((full + t, max(begin, t0) - t0, min(end, t0 + k_tiles) - t0, b - first,
                              last - first + 1, first + t))
        blocks.append(units)
    return blocks


@pytest.mark.parametrize("tiles,k_tiles", [(512, 64), (2048, 128), (8192, 256), (16, 64), (1, 65), (9, 47),
                                           (153, 3), (140, 1), (200, 1)])
def test_stream_k_covers_every_k_tile_once_in_block_order_and_balances_the_blocks(tiles, k_tiles):
    shared = hopper.stream_k_tiles(tiles, 132)
    grid = min(132, shared * k_tiles) if shared else min(132, tiles)  # a share is one k-tile at least
    blocks = _stream_k_schedule(tiles, k_tiles, shared, grid)
    per_tile: dict[int, list] = {}
    for b, units in enumerate(blocks):
        for tile, k0, k1, split, splits, slot in units:
            assert 0 <= k0 < k1 <= k_tiles  # no empty unit
            per_tile.setdefault(tile, []).append((k0, k1, split, splits, slot, b))
    assert sorted(per_tile) == list(range(tiles))
    slots = set()
    for tile, parts in per_tile.items():
        assert [p[0] for p in parts][0] == 0 and parts[-1][1] == k_tiles  # every k-tile, once, in order
        assert all(parts[i][1] == parts[i + 1][0] for i in range(len(parts) - 1))
        assert [p[2] for p in parts] == list(range(len(parts)))           # split = the part's place
        assert all(p[3] == len(parts) for p in parts)                      # splits = the parts
        assert [p[5] for p in parts] == sorted(p[5] for p in parts)        # parts in block order
        if len(parts) > 1:
            assert [p[4] + p[2] for p in parts] == [p[5] + tile - (tiles - shared) for p in parts]
            slots.update(p[4] + p[2] for p in parts)
    assert len(slots) == sum(len(p) for p in per_tile.values() if len(p) > 1)  # one slot a (block, tile)
    assert all(s < grid + shared for s in slots)                           # within the workspace
    loads = [sum(k1 - k0 for _, k0, k1, *_ in units) for units in blocks]
    if shared:
        assert max(loads) - min(loads) <= 1                                # every block within a k-tile


def test_a_stream_k_grid_has_a_block_per_sm_and_a_slot_for_every_block_and_tail_tile():
    inst = catalog.get("hopper/06_tma_store_epilogue").instance("row", "col", "bfloat16", "bfloat16",
                                                                params={"STREAM_K": 1})
    assert inst.name_expression.endswith(", 1, 0, 0, 1>")
    assert inst.last_wave(4096, 4096, 4096, 132) == (116, -116)
    assert inst.grid(4096, 4096, 4096, sms=132) == (132, 1, 1)
    assert inst.workspace_bytes(4096, 4096, 4096, 132) == (132 + 116) * 128 * 256 * 4
    assert inst.counters_needed(4096, 4096, 4096, 132) == 116 * 2  # per tail tile and consumer warpgroup
    assert inst.grid(128, 4096, 4096, sms=132) == (132, 1, 1)      # 16 tiles on every SM
    assert inst.grid(1, 1, 4099, sms=132) == (65, 1, 1)            # one tile of 65 k-tiles: a k-tile a block
    assert inst.last_wave(128 * 33, 4096, 4096, 132) == (0, 1)   # 528 tiles: whole waves
    assert inst.workspace_bytes(128 * 33, 4096, 4096, 132) == 0


def test_stream_k_takes_single_blocks():
    from warpgemm.errors import CompileError

    spec = catalog.get("hopper/06_tma_store_epilogue")
    assert spec.valid(spec.resolve({"STREAM_K": 1})) and not spec.valid(spec.resolve({"STREAM_K": 1, "CLUSTER": 2}))
    with pytest.raises(CompileError, match="STREAM_K = 1 .* takes CLUSTER = 1"):
        warpgemm.compile("hopper/06_tma_store_epilogue", "sm_90a", a_layout="row", b_layout="col", STREAM_K=1,
                         CLUSTER=2)


# (M, N, K): 16 x 20 = 320 tiles on 132 SMs (R = 56: the last wave and one before it); 153 tiles of
# 3 k-tiles (all shared); 9 tiles of 47 k-tiles on 132 SMs; one tile of 65 k-tiles cut 65 ways;
# 528 tiles (whole waves: no share); a ragged M, N and K with two tails.
STREAM_K_CASES = [(2000, 5000, 1000), (1100, 4200, 130), (300, 700, 3001), (1, 1, 4099), (4097, 4095, 4093),
                  (1999, 3001, 2057)]


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("m,n,k", STREAM_K_CASES)
@pytest.mark.parametrize("layouts", LAYOUTS)
def test_a_tail_shared_out_stream_k_matches_float64_with_the_bias_in_every_layout(m, n, k, layouts):
    for i, dtypes in enumerate(DTYPE_PAIRS[:2] if layouts[0] == "row" else DTYPE_PAIRS[2:]):
        _check("hopper/06_tma_store_epilogue", m, n, k, *layouts, dtypes, bias=i == 0, STREAM_K=1)


@pytest.mark.gpu
@needs_hopper
@pytest.mark.parametrize("tile", [{"HOLD": 1}, {"BM": 256, "BN": 128}, {"BN": 192}, {"BN": 128, "BM": 64}])
@pytest.mark.parametrize("m,n,k", [(2000, 5000, 1000), (300, 700, 3001)])
def test_stream_k_matches_float64_with_held_tiles_and_other_tile_shapes(tile, m, n, k):
    _check("hopper/06_tma_store_epilogue", m, n, k, "row", "col", ("bfloat16", "bfloat16"), bias=True,
           STREAM_K=1, **tile)


@pytest.mark.gpu
@needs_hopper
def test_stream_k_gives_the_same_bits_every_run_and_leaves_its_counters_zero():
    _same_bits_every_run_in_another_order("hopper/06_tma_store_epilogue", 2000, 5000, 1000, STREAM_K=1)


def test_a_cluster_rung_launches_whole_clusters_of_vertically_adjacent_tiles():
    inst = catalog.get("hopper/05_cluster_multicast").instance("row", "col", "bfloat16")
    assert inst.cluster == (2, 1, 1)
    assert inst.grid(4096, 4096, 4096, sms=132) == (132, 1, 1)   # 256 units of 256 x 256
    assert inst.grid(128, 256, 64, sms=132) == (2, 1, 1)         # one tile: its partner computes rows past M
    assert inst.grid(384, 512, 64, sms=132) == (8, 1, 1)         # 3 tile-rows: 2 units in each of 2 columns
    assert inst.grid(4096, 4096, 4096, sms=131) == (130, 1, 1)


def test_every_sm90_wrapper_assembles():
    from warpgemm.runtime import compile_kernel

    k = compile_kernel("probes/sm90_wrappers_probe.cu", "sm90_wrappers_probe", "sm_90a")
    assert k.spill_bytes == 0
