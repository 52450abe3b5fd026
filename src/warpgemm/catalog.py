"""The kernel catalogue: one :class:`KernelSpec` for every kernel warpgemm ships.

A spec is data. It names the CUDA source file and its kernel template, says which dtypes and
operand layouts the kernel accepts and what it requires of them, and holds the default template
parameters together with the space a tuner may search. The API, the benchmark, the compile
tests and the CLI all read the catalogue; nothing else lists kernels.

Every kernel template takes the operand layouts first, then its own parameters, in the order
of :attr:`KernelSpec.params`::

    template <bool A_ROW, bool B_ROW, int P0, int P1, ...>
    __global__ void entry(const T* A, const T* B, Tout* C, int M, int N, int K,
                          int lda, int ldb, int ldc);

``A_ROW`` means A (M x K) is row-major, ``(M,K):(lda,1)``; otherwise column-major,
``(M,K):(1,lda)``. Likewise ``B_ROW`` for B (K x N): ``(K,N):(ldb,1)`` or ``(K,N):(1,ldb)``.
C is always row-major ``(M,N):(ldc,1)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from .errors import KernelNotFoundError

ROW, COL = "row", "col"

CXX_TYPES: dict[str, str] = {"float32": "float", "float16": "wg::half_t", "bfloat16": "wg::bf16_t",
                             "int8": "wg::int8_t", "int32": "int"}
"""C++ spelling (kernels/common/types.cuh) of each torch dtype name."""
ALL_LAYOUTS: tuple[tuple[str, str], ...] = ((ROW, ROW), (ROW, COL), (COL, ROW), (COL, COL))


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class KernelSpec:
    """Everything warpgemm knows about one kernel, short of compiling it."""

    name: str
    """Catalogue name, ``family/NN_idea``, e.g. ``sgemm/05_double_buffer``."""
    family: str
    rung: int
    idea: str
    """One line: the idea this rung adds over the one before it."""
    source: str
    """CUDA source, relative to the package's ``kernels/`` directory."""
    entry: str
    """Name of the ``__global__`` function template in :attr:`source`."""
    in_dtypes: tuple[str, ...]
    """torch dtype names of A and B the kernel accepts (both operands share one dtype)."""
    out_dtypes: tuple[str, ...]
    math: str
    """Arithmetic: ``ffma`` (fp32 FMA), ``tf32`` (TF32 tensor cores), ..."""
    params: Mapping[str, int]
    """Default template parameters, in template order (after A_ROW, B_ROW)."""
    threads: Callable[[Mapping[str, int]], int]
    """Threads per block for given parameters."""
    tile: Callable[[Mapping[str, int]], tuple[int, int]]
    """(rows of C, columns of C) one block computes."""
    layouts: tuple[tuple[str, str], ...] = ALL_LAYOUTS
    """(A, B) layouts the kernel reads without a copy."""
    align_elems: int = 1
    """Required alignment, in elements, of each operand's base pointer and leading dimension.
    Inputs that do not meet it are copied into an aligned buffer before the launch."""
    constraints: tuple[str, ...] = ()
    """Human-readable statements of what the kernel requires (shown by ``warpgemm kernels``)."""
    tuning: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Values a tuner may try for each parameter."""
    smem_bytes: Callable[[Mapping[str, int]], int] = lambda p: 0
    """Dynamic shared memory per block, in bytes."""
    grid: Callable[[int, int, Mapping[str, int]], tuple[int, int, int]] | None = None
    """Grid for an (M, N) problem; default is one block per output tile, x over N, y over M."""
    spill_free: bool = True
    """The compile tests fail if ptxas reports spills for this kernel."""
    min_arch: int = 70
    """Lowest compute capability (major*10+minor) the kernel runs on."""
    autotune: bool = False
    """``matmul`` runs the tuner's remembered choice for the problem, when there is one."""
    valid: Callable[[Mapping[str, int]], bool] | None = None
    """Which combinations of the tuning space are legal (the template's static_asserts)."""
    typed: bool = False
    """The template takes the element types after the layouts:
    ``<bool A_ROW, bool B_ROW, typename T, typename TC, P0, ...>`` (T for A and B, TC for C)."""

    # -- derived ----------------------------------------------------------------------------

    def resolve(self, overrides: Mapping[str, int] | None = None) -> dict[str, int]:
        """The default parameters with ``overrides`` applied; unknown names are an error."""
        p = dict(self.params)
        for key, value in (overrides or {}).items():
            if key not in p:
                raise ValueError(
                    f"{self.name}: unknown parameter {key!r}; it takes {', '.join(p) or 'none'}")
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"{self.name}: parameter {key} must be an int, got {value!r}")
            p[key] = value
        return p

    def name_expression(self, a_row: bool, b_row: bool, params: Mapping[str, int],
                        in_dtype: str | None = None, out_dtype: str | None = None) -> str:
        """The C++ name expression NVRTC instantiates, e.g. ``sgemm_naive<true, false, 16, 16>``.
        Typed kernels also take the element types (default: the first dtypes the spec lists)."""
        args = ["true" if a_row else "false", "true" if b_row else "false"]
        if self.typed:
            args += [CXX_TYPES[in_dtype or self.in_dtypes[0]], CXX_TYPES[out_dtype or self.out_dtypes[0]]]
        args += [str(int(params[k])) for k in self.params]
        return f"{self.entry}<{', '.join(args)}>"

    def launch_grid(self, m: int, n: int, params: Mapping[str, int]) -> tuple[int, int, int]:
        if self.grid is not None:
            return self.grid(m, n, params)
        bm, bn = self.tile(params)
        return (_cdiv(n, bn), _cdiv(m, bm), 1)

    def supports_layout(self, a_layout: str, b_layout: str) -> bool:
        return (a_layout, b_layout) in self.layouts


# ---------------------------------------------------------------------------------------------
# SGEMM ladder (fp32 in, fp32 out)
# ---------------------------------------------------------------------------------------------

_F32 = ("float32",)
_VEC4 = "16-byte aligned base pointer and leading dimension (a multiple of 4 floats); " \
        "other inputs are copied to an aligned buffer first"


def _tile_bm_bn(p: Mapping[str, int]) -> tuple[int, int]:
    return p["BM"], p["BN"]


def _threads_thread_tile(p: Mapping[str, int]) -> int:
    return (p["BM"] // p["TM"]) * (p["BN"] // p["TN"])


def _padded_tile(mn: int, bk: int) -> int:
    # Floats of one stage of an operand tile in either layout: k-contiguous rows padded by 4,
    # or mn-contiguous rows padded by 8 (both conflict-free for the mma fragment reads).
    return max(mn * (bk + 4), bk * (mn + 8))


def _swizzled_grid(m: int, n: int, p: Mapping[str, int]) -> tuple[int, int, int]:
    # Block swizzle: blocks are launched as a 1-D sequence and the kernel maps each to a tile
    # in groups of SWIZZLE tile-rows, so that consecutive blocks share A and B tiles in L2.
    return (_cdiv(n, p["BN"]) * _cdiv(m, p["BM"]), 1, 1)


_FFMA_TUNING = {"BM": (64, 128), "BN": (64, 128), "BK": (8, 16), "TM": (4, 8), "TN": (4, 8)}

SGEMM: tuple[KernelSpec, ...] = (
    KernelSpec(
        name="sgemm/01_naive", family="sgemm", rung=1,
        idea="one thread per element of C, reading A and B straight from global memory",
        source="sgemm/01_naive.cu", entry="sgemm_naive",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 16, "BN": 16},
        threads=lambda p: p["BM"] * p["BN"], tile=_tile_bm_bn,
    ),
    KernelSpec(
        name="sgemm/02_smem_sliced_k", family="sgemm", rung=2,
        idea="stage BMxBK and BKxBN slices of A and B in shared memory, reused by the block",
        source="sgemm/02_smem_sliced_k.cu", entry="sgemm_smem_sliced_k",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 32, "BN": 32, "BK": 32},
        threads=lambda p: p["BM"] * p["BN"], tile=_tile_bm_bn,
    ),
    KernelSpec(
        name="sgemm/03_thread_tile_8x8", family="sgemm", rung=3,
        idea="each thread computes a TMxTN (8x8) tile of C from registers; float4 global loads",
        source="sgemm/03_thread_tile_8x8.cu", entry="sgemm_thread_tile",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8},
        threads=_threads_thread_tile, tile=_tile_bm_bn, align_elems=4, constraints=(_VEC4,),
        tuning=_FFMA_TUNING,
    ),
    KernelSpec(
        name="sgemm/04_bank_conflict_free", family="sgemm", rung=4,
        idea="store A transposed (k-major) in shared memory so the inner loop reads float4 "
             "without bank conflicts",
        source="sgemm/04_bank_conflict_free.cu", entry="sgemm_bank_conflict_free",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8},
        threads=_threads_thread_tile, tile=_tile_bm_bn, align_elems=4, constraints=(_VEC4,),
        tuning=_FFMA_TUNING,
    ),
    KernelSpec(
        name="sgemm/05_double_buffer", family="sgemm", rung=5,
        idea="two shared-memory buffers: load the next k-slice while computing on this one",
        source="sgemm/05_double_buffer.cu", entry="sgemm_double_buffer",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8},
        threads=_threads_thread_tile, tile=_tile_bm_bn, align_elems=4, constraints=(_VEC4,),
        tuning=_FFMA_TUNING,
    ),
    KernelSpec(
        name="sgemm/06_k16_double_buffer", family="sgemm", rung=6,
        idea="a k-slice of 16: half the barriers per FLOP of the k8 double buffer",
        source="sgemm/06_k16_double_buffer.cu", entry="sgemm_k16_double_buffer",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 128, "BN": 128, "BK": 16, "TM": 8, "TN": 8},
        threads=_threads_thread_tile, tile=_tile_bm_bn, align_elems=4, constraints=(_VEC4,),
        tuning=_FFMA_TUNING,
    ),
    KernelSpec(
        name="sgemm/07_cp_async", family="sgemm", rung=7,
        idea="cp.async copies global to shared memory without passing through registers, "
             "STAGES-1 k-slices ahead",
        source="sgemm/07_cp_async.cu", entry="sgemm_cp_async",
        in_dtypes=_F32, out_dtypes=_F32, math="ffma",
        params={"BM": 128, "BN": 128, "BK": 16, "TM": 8, "TN": 8, "STAGES": 3},
        threads=_threads_thread_tile, tile=_tile_bm_bn, align_elems=4, constraints=(_VEC4,),
        tuning={**_FFMA_TUNING, "STAGES": (2, 3, 4)},
        # STAGES slices of A and B, each in its global order. The larger layout, k-contiguous
        # (rows of BK + 4 floats, 4 more per 8 rows), sizes it whatever the layouts.
        smem_bytes=lambda p: 4 * p["STAGES"] * ((p["BM"] + p["BN"]) * (p["BK"] + 4)
                                                 + 4 * (p["BM"] + p["BN"]) // 8),
        min_arch=80,
    ),
    KernelSpec(
        name="sgemm/08_tf32_mma", family="sgemm", rung=8,
        idea="TF32 tensor cores (mma.sync m16n8k8) fed by a multi-stage cp.async pipeline, "
             "with a block swizzle for L2 reuse",
        source="sgemm/08_tf32_mma.cu", entry="sgemm_tf32_mma",
        in_dtypes=_F32, out_dtypes=_F32, math="tf32",
        params={"BM": 128, "BN": 256, "BK": 32, "WM": 64, "WN": 64, "STAGES": 3, "SWIZZLE": 8},
        threads=lambda p: 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"]),
        tile=_tile_bm_bn, align_elems=4, constraints=(_VEC4,),
        tuning={"BM": (64, 128, 256), "BN": (64, 128, 256), "BK": (16, 32), "WM": (32, 64),
                "WN": (32, 64), "STAGES": (2, 3, 4), "SWIZZLE": (1, 4, 8, 16)},
        smem_bytes=lambda p: 4 * p["STAGES"] * (_padded_tile(p["BM"], p["BK"]) + _padded_tile(p["BN"], p["BK"])),
        grid=_swizzled_grid, min_arch=80,
        # The template's static_asserts, for every layout (t = threads).
        valid=lambda p: (
            p["BM"] % p["WM"] == 0 and p["BN"] % p["WN"] == 0 and p["WM"] % 16 == 0
            and p["WN"] % 16 == 0 and p["BK"] % 16 == 0 and p["STAGES"] >= 2 and p["SWIZZLE"] >= 1
            and (t := 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"])) <= 1024
            and all(mn * bk // 4 % t == 0 and t % (bk // 4) == 0 and t % (mn // 4) == 0
                    for mn, bk in ((p["BM"], p["BK"]), (p["BN"], p["BK"])))
            and p["WM"] * p["WN"] // 32 + 2 * (p["WM"] // 4 + p["WN"] // 4) + 40
            <= min(255, 65536 // t)),
    ),
)

# ---------------------------------------------------------------------------------------------
# HGEMM ladder (fp16 / bf16 in, fp32 accumulate; fp16 / bf16 / fp32 out) -- see kernels/hgemm/
# ---------------------------------------------------------------------------------------------

_HALF = ("float16", "bfloat16")
_HALF_OUT = ("float16", "bfloat16", "float32")  # the API allows the input dtype or float32
_VEC8 = "16-byte aligned base pointer and leading dimension (a multiple of 8 elements); " \
        "other inputs are copied to an aligned buffer first"
_MMA_TILE = {"BM": 256, "BN": 128, "BK": 32, "WM": 64, "WN": 64}  # seed 000's mma_base tiling


def _threads_warp_tiles(p: Mapping[str, int]) -> int:
    return 32 * (p["BM"] // p["WM"]) * (p["BN"] // p["WN"])


def _tiles_1d(m: int, n: int, p: Mapping[str, int]) -> tuple[int, int, int]:
    # One block per tile of C on a 1-D grid; the kernel maps block -> tile in swizzled order.
    return (_cdiv(n, p["BN"]) * _cdiv(m, p["BM"]), 1, 1)


def _hgemm_smem(p: Mapping[str, int], c_bytes: int = 4) -> int:
    # STAGES k-tiles of A and B (2-byte elements), or the C staging tile (BM x BN of the output
    # type; the widest, fp32, unless the kernel only writes fp16), whichever is larger.
    return max(2 * p.get("STAGES", 1) * (p["BM"] + p["BN"]) * p["BK"], c_bytes * p["BM"] * p["BN"])


def _hgemm_valid(p: Mapping[str, int]) -> bool:
    """The static_asserts of hgemm/06..08, for every layout."""
    bm, bn, bk, wm, wn = p["BM"], p["BN"], p["BK"], p["WM"], p["WN"]
    if bm % wm or bn % wn or wm % 16 or wn % 64 or bk not in (32, 64) or bm % 64 or bn % 64:
        return False
    if not 2 <= p["STAGES"] <= 5 or p["SWIZZLE"] < 1:
        return False
    t = _threads_warp_tiles(p)
    if t > 1024 or wm * wn > 64 * 64:  # at most 128 fp32 accumulators per thread
        return False
    if wm not in (16, 32) and wm % 64:  # warp tiles line up with the 64-wide swizzle panels
        return False
    if t % 64 or bk % (t // 8):  # a thread's cp.async chunks sit at fixed distances
        return False
    for mn in (bm, bn):  # each operand tile's 16-byte chunks split evenly, in either layout
        chunks = mn * bk // 8
        if chunks % t or t % (bk // 8) or t % (mn // 8):
            return False
    return _hgemm_smem(p) <= 227 * 1024


def _tuned_valid(p: Mapping[str, int]) -> bool:
    """What hgemm/07_tuned's tuner tries: legal, 4 or 8 warps, and a pipeline neither too
    shallow (2 stages of BK=32) nor needlessly deep (5 stages of BK=64)."""
    warps = _threads_warp_tiles(p) // 32
    deep_enough = p["STAGES"] * p["BK"] >= 96 and p["STAGES"] * p["BK"] <= 256
    return _hgemm_valid(p) and warps in (4, 8) and deep_enough


HGEMM: tuple[KernelSpec, ...] = (
    KernelSpec(
        name="hgemm/01_wmma", family="hgemm", rung=1,
        idea="tensor cores through wmma m16n16k16, operand tiles staged in shared memory",
        source="hgemm/01_wmma.cu", entry="hgemm_wmma", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params={"BM": 128, "BN": 128, "BK": 32, "WM": 32, "WN": 64},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        smem_bytes=lambda p: 2 * (p["BM"] + p["BN"]) * p["BK"], min_arch=80,
    ),
    KernelSpec(
        name="hgemm/02_mma_ldmatrix", family="hgemm", rung=2,
        idea="mma.sync m16n8k16 fed by ldmatrix.x4 (.trans where needed), 64x64 warp tiles, C out "
             "through shared memory",
        source="hgemm/02_mma_ldmatrix.cu", entry="hgemm_mma_ldmatrix", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params=dict(_MMA_TILE),
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        smem_bytes=_hgemm_smem, min_arch=80,
    ),
    KernelSpec(
        name="hgemm/03_block_swizzle", family="hgemm", rung=3,
        idea="block swizzle: blocks walk panels SWIZZLE tiles wide, so that running blocks share "
             "A and B in L2",
        source="hgemm/03_block_swizzle.cu", entry="hgemm_block_swizzle", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params={**_MMA_TILE, "SWIZZLE": 16},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        smem_bytes=_hgemm_smem, grid=_tiles_1d, min_arch=80,
    ),
    KernelSpec(
        name="hgemm/04_cp_async_pipeline", family="hgemm", rung=4,
        idea="a STAGES-deep cp.async ring (cp.async.wait_group) copies k-tiles behind the math",
        source="hgemm/04_cp_async_pipeline.cu", entry="hgemm_cp_async_pipeline", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params={**_MMA_TILE, "STAGES": 4, "SWIZZLE": 16},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        smem_bytes=_hgemm_smem, grid=_tiles_1d, min_arch=80,
    ),
    KernelSpec(
        name="hgemm/05_smem_swizzle", family="hgemm", rung=5,
        idea="Swizzle<3,3,3> shared-memory tiles: no bank conflicts for ldmatrix or cp.async",
        source="hgemm/05_smem_swizzle.cu", entry="hgemm_smem_swizzle", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params={**_MMA_TILE, "STAGES": 4, "SWIZZLE": 16},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        smem_bytes=_hgemm_smem, grid=_tiles_1d, min_arch=80,
    ),
    KernelSpec(
        name="hgemm/06_fragment_double_buffer", family="hgemm", rung=6,
        idea="fragments of the next k16 step load during this step's mma (across k-tiles too); "
             "zig-zag mma order",
        source="hgemm/06_fragment_double_buffer.cu", entry="hgemm_fragment_double_buffer", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params={**_MMA_TILE, "STAGES": 4, "SWIZZLE": 16},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        smem_bytes=_hgemm_smem, grid=_tiles_1d, min_arch=80,
    ),
    KernelSpec(
        name="hgemm/07_tuned", family="hgemm", rung=7,
        idea="rung 06 with tiles, warps, stages and swizzle tuned per shape; interior k-tiles "
             "copied without bounds checks",
        source="hgemm/07_tuned.cu", entry="hgemm_tuned", typed=True,
        in_dtypes=_HALF, out_dtypes=_HALF_OUT, math="f16f32",
        params={**_MMA_TILE, "BK": 64, "STAGES": 3, "SWIZZLE": 16},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8, constraints=(_VEC8,),
        tuning={"BM": (64, 128, 256), "BN": (64, 128, 256), "BK": (32, 64), "WM": (32, 64),
                "WN": (64,), "STAGES": (2, 3, 4, 5), "SWIZZLE": (1, 8, 16)},
        smem_bytes=_hgemm_smem, grid=_tiles_1d, min_arch=80, autotune=True, valid=_tuned_valid,
    ),
    KernelSpec(
        name="hgemm/08_f16_accumulate", family="hgemm", rung=8,
        idea="fp16 accumulation (mma.sync .f16.f16.f16.f16): rung 06 with the sum rounded to fp16 "
             "every k16 step",
        source="hgemm/08_f16_accumulate.cu", entry="hgemm_f16_accumulate", typed=True,
        in_dtypes=("float16",), out_dtypes=("float16",), math="f16acc",
        params={**_MMA_TILE, "STAGES": 4, "SWIZZLE": 16},
        threads=_threads_warp_tiles, tile=_tile_bm_bn, align_elems=8,
        constraints=(_VEC8, "accumulates in fp16: error grows with K; sums beyond 65504 overflow"),
        smem_bytes=lambda p: _hgemm_smem(p, c_bytes=2), grid=_tiles_1d, min_arch=80,
    ),
)

CATALOG: tuple[KernelSpec, ...] = SGEMM + HGEMM
_BY_NAME: dict[str, KernelSpec] = {s.name: s for s in CATALOG}


def kernels(family: str | None = None) -> list[KernelSpec]:
    """Every kernel in the catalogue, or those of one family, in ladder order."""
    if family is None:
        return list(CATALOG)
    found = [s for s in CATALOG if s.family == family]
    if not found:
        families = sorted({s.family for s in CATALOG})
        raise KernelNotFoundError(f"no kernel family {family!r}; families are {families}")
    return found


def get(name: str) -> KernelSpec:
    """The spec called ``name`` (e.g. ``sgemm/07_cp_async``)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KernelNotFoundError(
            f"no kernel named {name!r}; `warpgemm kernels` lists them") from None
