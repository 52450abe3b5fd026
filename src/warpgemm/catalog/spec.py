"""The records the catalogue is made of.

- :class:`Math`: a kind of arithmetic (``ffma``, ``tf32``, ...) with its same-run baseline and
  the mma.sync instruction whose throughput bounds it.
- :class:`Family`: what a family's kernels share (dtypes, the launch shape of its kernels, the
  ABI, bench defaults), written once; :meth:`Family.spec` makes a :class:`KernelSpec` from it.
- :class:`KernelSpec`: one kernel template: its source, its parameters and their space.
- :class:`KernelInstance`: one instantiation of a spec (layouts, dtypes, parameters). It owns
  everything about the launch: source and name expression, grid, block, dynamic shared memory,
  cluster shape, the kernel arguments built from the operands, the workspace and any extra
  launches. The API, ``compile``, the tuner and the benchmark all go through it.

The catalogue imports neither torch nor CUDA: it is data and arithmetic.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, NamedTuple, Sequence

import numpy as np

from .. import dtypes
from ..runtime.device import capability_of_arch as capability_of

ROW, COL = "row", "col"
ALL_LAYOUTS: tuple[tuple[str, str], ...] = ((ROW, ROW), (ROW, COL), (COL, ROW), (COL, COL))

Params = Mapping[str, int]


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Math:
    """A kind of arithmetic, and how the benchmark judges kernels that do it."""

    name: str
    """``ffma``, ``tf32``, ``f16f32`` (16-bit inputs, fp32 accumulation), ``f16acc``."""
    description: str
    baseline: str
    """Label of the same-run baseline; ``{dtype}`` is replaced by the input's short name."""
    allow_tf32: bool = False
    """The baseline runs with ``torch.backends.cuda.matmul.allow_tf32``."""
    fp16_accumulation: bool = False
    """The baseline runs with ``allow_fp16_accumulation`` (where this torch has it)."""
    ceilings: Mapping[str, str] = field(default_factory=dict)
    """Input dtype -> the mma.sync ceiling kind (``bench.ceiling.KINDS``) that bounds it."""

    def baseline_label(self, in_dtype: str) -> str:
        return self.baseline.format(dtype=dtypes.short(in_dtype))


@dataclass(frozen=True)
class Launch:
    """One kernel launch, ready for ``runtime.launch``: which kernel, its launch shape, and its
    arguments (tensors, numpy scalars of the exact C type, and opaque parameter blocks)."""

    source: str
    name_expression: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    smem_bytes: int
    args: tuple[Any, ...]
    cluster: tuple[int, int, int] | None = None
    dependent: bool = False
    """May be a programmatic dependent launch (the spec's ``dependent_launch``)."""


@dataclass(frozen=True)
class Step:
    """A launch of an instance after its main kernel (a split-K reduction, say), described as
    data: how it is instantiated and launched for the instance's problem."""

    source: str
    name_expression: Callable[["KernelInstance"], str]
    grid: Callable[["KernelInstance", int, int, int], tuple[int, int, int]]
    block: Callable[["KernelInstance"], tuple[int, int, int]]
    args: Callable[..., tuple[Any, ...]]
    """``args(instance, a, b, c, m, n, k, workspace)`` -> the kernel's arguments."""
    smem_bytes: Callable[["KernelInstance"], int] = lambda inst: 0


def gemm_args(inst: "KernelInstance", a: Any, b: Any, c: Any, m: int, n: int, k: int,
              workspace: Any = None, bias: Any = None) -> tuple[Any, ...]:
    """The ABI of the ladder kernels:
    ``(const T* A, const T* B, TC* C, int M, int N, int K, int lda, int ldb, int ldc)``, with
    ``a``/``b`` prepared operands (``operands.Operand``) and ``c`` the row-major output."""
    return (a.tensor, b.tensor, c, np.int32(m), np.int32(n), np.int32(k), np.int32(a.ld),
            np.int32(b.ld), np.int32(c.stride(0)))


class Workspace(NamedTuple):
    """What a launch gets besides its operands: scratch memory (a uint8 tensor) and zeroed
    counters (an int32 tensor), each None when the kernel needs none, and the persistent
    schedule's K split of its last wave's tiles (:meth:`KernelInstance.last_wave`)."""

    scratch: Any = None
    counters: Any = None
    splits: int = 1


def gemm_bias_args(inst: "KernelInstance", a: Any, b: Any, c: Any, m: int, n: int, k: int,
                   workspace: Any = None, bias: Any = None) -> tuple[Any, ...]:
    """The ladder's ABI with a trailing ``const T* bias`` (N values, or null) for kernels that
    add the bias in their epilogue."""
    return gemm_args(inst, a, b, c, m, n, k) + (bias if bias is not None else NULL,)


NULL = np.uint64(0)
"""A null pointer argument."""


@dataclass(frozen=True, eq=False)
class KernelSpec:
    """Everything warpgemm knows about one kernel template, short of compiling it.

    Every kernel template takes the operand layouts first, then (when ``typed``) the element
    types, then its own parameters in the order of :attr:`params`::

        template <bool A_ROW, bool B_ROW, [typename T, typename TC,] int P0, int P1, ...>
        __global__ void entry(<the family's ABI, by default gemm_args>);

    ``A_ROW`` means A (M x K) is row-major, ``(M,K):(lda,1)``; otherwise column-major,
    ``(M,K):(1,lda)``. Likewise ``B_ROW`` for B (K x N): ``(K,N):(ldb,1)`` or
    ``(K,N):(1,ldb)``. C is row-major ``(M,N):(ldc,1)``.
    """

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
    outputs: Mapping[str, tuple[str, ...]]
    """Input dtype (A and B share one) -> the output dtypes the kernel writes for it; the first
    is the default (int8 gives int32, fp16 gives fp16)."""
    math: str
    """The arithmetic, a key of ``catalog.MATHS``."""
    params: Params
    """Default template parameters, in template order (after the layouts and types)."""
    threads: Callable[[Params], int]
    """Threads per block for given parameters."""
    tile: Callable[[Params], tuple[int, int]]
    """(rows of C, columns of C) one block computes."""
    arch: str = "sm_75"
    """The oldest NVRTC target the kernel compiles for, ``sm_80`` or ``sm_90a``: the arch axis.
    A device of a lower compute capability cannot run it."""
    layouts: tuple[tuple[str, str], ...] = ALL_LAYOUTS
    """(A, B) layouts the kernel reads without a copy."""
    align_elems: int = 1
    """Required alignment, in elements, of each operand's base pointer and leading dimension.
    Inputs that do not meet it are copied into an aligned buffer before the launch."""
    constraints: tuple[str, ...] = ()
    """Human-readable statements of what the kernel requires (shown by ``warpgemm kernels``)."""
    tuning: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    """Values a tuner may try for each parameter."""
    shape_tuning: Callable[[int, int, int], Mapping[str, tuple[int, ...]]] | None = None
    """Values a tuner may try that follow from the problem's (M, N, K), such as a small-M
    kernel's token-tile widths; for the names it gives, they replace ``tuning``'s."""
    smem_bytes: Callable[[Params], int] = lambda p: 0
    """Dynamic shared memory per block, in bytes."""
    grid: Callable[[int, int, Params], tuple[int, int, int]] | None = None
    """Grid for an (M, N) problem; default is one block per output tile, x over N, y over M."""
    cluster: Callable[[Params], tuple[int, int, int]] | None = None
    """Thread-block cluster shape, for kernels launched in clusters."""
    cluster_along_n: bool | Callable[[Params], bool] = False
    """With ``cluster`` and ``persistent``: a cluster's blocks take horizontally adjacent tiles
    (along N of C; decode/02, whose tiles are of C^T) rather than vertically adjacent ones; a
    callable says which for given parameters."""
    dependent_launch: bool = False
    """The kernel waits (griddepcontrol.wait) before it reads or writes global memory another grid
    may touch, setting up only shared memory before that, so it may be launched as a
    programmatic dependent launch on sm_90: it starts while the kernel before it in the stream
    finishes (see :mod:`warpgemm.runtime.launch`)."""
    persistent: bool = False
    """A persistent kernel: one block per SM (at most one per tile), each looping over tiles of
    C; the grid is ``min(tiles, SMs)`` on a 1-D grid."""
    fills_sms: bool = False
    """With ``persistent``: as many blocks as fit on the GPU at once (the occupancy calculator's
    blocks a SM times the SMs), not one per SM."""
    abi: Callable[..., tuple[Any, ...]] = gemm_args
    """``abi(instance, a, b, c, m, n, k, workspace, bias)`` -> the main kernel's arguments."""
    fused_bias: bool = False
    """The kernel adds a bias vector (one value per column of C) in its epilogue (its ``abi``
    passes it)."""
    shape_params: Callable[[int, int, int], Params] | None = None
    """Parameters that follow from the problem's (M, N, K), such as how many tiles of tokens a
    small-M kernel holds; explicit parameters override them."""
    max_m: Callable[[Params], int] | None = None
    """The largest M the kernel computes with these parameters (None: any)."""
    max_k: Callable[[Params], int] | None = None
    """The largest K the kernel computes with these parameters (None: any)."""
    workspace: Callable[[int, int, int, Params, int], int] | None = None
    """Bytes of scratch device memory a launch needs for an (M, N, K) problem on a device where
    ``slots`` blocks run at once (None: none); the ``abi`` gets it as ``workspace.scratch``."""
    counters: Callable[[int, int, int, Params, int], int] | None = None
    """How many int32 counters a launch needs (same arguments): zero when it starts, left zero
    when it ends (a persistent buffer per device and stream, ``runtime.launch.zeroed_counters``);
    the ``abi`` gets them as ``workspace.counters``."""
    last_wave: Callable[[int, int, int, Params, int], tuple[int, int]] | None = None
    """For a persistent kernel that can split the K range of the tiles of its last, partial wave:
    ``(tail_tiles, splits)`` for an (M, N, K) problem on ``slots`` blocks. The grid then has
    ``tiles - tail_tiles + tail_tiles * splits`` units of work (at most ``slots`` blocks)."""
    host_params: tuple[str, ...] = ()
    """Parameters read on the host only (by ``last_wave``, ``workspace``...), not template
    arguments of the kernel."""
    steps: tuple[Step, ...] = ()
    """Launches after the main kernel, in order."""
    spill_free: bool = True
    """The compile tests fail if ptxas reports spills for this kernel."""
    autotune: bool = False
    """``matmul`` runs the tuner's remembered choice for the problem, when there is one."""
    valid: Callable[[Params], bool] | None = None
    """Which combinations of the tuning space are legal (the template's static_asserts)."""
    extra: str | None = None
    """The optional install extra the kernel needs (``cute``: CuTe's headers), or None."""
    called_by: str | None = None
    """The API function that runs this kernel when ``warpgemm.matmul`` cannot (its ABI takes
    more than a GEMM's operands), e.g. ``warpgemm.scaled_matmul``: ``matmul``, the benchmark and
    the tuner refuse it by name."""
    b_layouts_of: Callable[[Params], frozenset[str] | None] | None = None
    """``b_layouts_of(params)``: the layouts of B these parameters read, where they read fewer
    than the kernel does (None: all of them). A B in another layout is copied into one of these."""
    check_params: Callable[[Params, str, str], str | None] | None = None
    """``check_params(params, in_dtype, out_dtype)``: why these parameters cannot serve these
    dtypes (a template static_assert, said before compiling), or None when they can."""
    typed: bool = False
    """The template takes the element types after the layouts:
    ``<bool A_ROW, bool B_ROW, typename T, typename TC, P0, ...>`` (T for A and B, TC for C)."""

    # -- derived once, at construction --------------------------------------------------------
    min_capability: int = field(init=False, repr=False)
    """Lowest compute capability (major*10+minor) the kernel runs on, from :attr:`arch`."""
    arch_specific: bool = field(init=False, repr=False)
    """The arch is an arch-specific target (``sm_90a``): its instructions (wgmma, setmaxnreg)
    exist on that compute capability only, not on later ones."""
    a_layouts: frozenset[str] = field(init=False, repr=False)
    """The layouts of A the kernel reads."""
    b_layouts: Mapping[str, frozenset[str]] = field(init=False, repr=False)
    """For each layout of A, the layouts of B the kernel reads with it."""
    _instances: dict = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_instances", {})
        object.__setattr__(self, "min_capability", capability_of(self.arch))
        object.__setattr__(self, "arch_specific", self.arch.endswith("a"))
        a_layouts = frozenset(la for la, _ in self.layouts)
        object.__setattr__(self, "a_layouts", a_layouts)
        object.__setattr__(self, "b_layouts", {la: frozenset(lb for x, lb in self.layouts if x == la)
                                               for la in a_layouts})

    # -- derived ----------------------------------------------------------------------------

    @property
    def in_dtypes(self) -> tuple[str, ...]:
        """torch dtype names of A and B the kernel accepts."""
        return tuple(self.outputs)

    @property
    def out_dtypes(self) -> tuple[str, ...]:
        """Every output dtype, for any input."""
        return tuple(dict.fromkeys(d for outs in self.outputs.values() for d in outs))


    def runs_on(self, capability: int) -> bool:
        """Whether a device of compute ``capability`` (major*10+minor) runs the kernel."""
        if self.arch_specific:
            return capability == self.min_capability
        return capability >= self.min_capability

    def needs(self) -> str:
        """What device the kernel needs, in words: ``sm_80 or newer``, or for an arch-specific
        kernel ``sm_90a (compute capability 9.0 exactly)``."""
        if self.arch_specific:
            return f"{self.arch} (compute capability {self.min_capability // 10}.{self.min_capability % 10} exactly)"
        return f"{self.arch} or newer"

    def default_out_dtype(self, in_dtype: str) -> str:
        return self.outputs[in_dtype][0]

    def resolve(self, overrides: Params | None = None) -> dict[str, int]:
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

    def b_layouts_read(self, a_layout: str, params: Params | None = None) -> frozenset[str]:
        """The layouts of B the kernel reads in place after an A in ``a_layout``: with ``params``,
        only those they read (``b_layouts_of``); a B in another layout is copied first."""
        layouts = self.b_layouts[a_layout]
        narrowed = self.b_layouts_of(params) if self.b_layouts_of is not None and params is not None else None
        return layouts if narrowed is None else layouts & narrowed

    def fill_shape_params(self, p: dict[str, int], explicit: Mapping[str, int], m: int, n: int,
                          k: int) -> dict[str, int]:
        """``p`` with the parameters that follow from an M x N x K problem (``shape_params``) set,
        except those in ``explicit`` (the caller's, the tuning table's, or a dispatch rule's)."""
        if self.shape_params is not None:
            p.update({key: v for key, v in self.shape_params(m, n, k).items() if key not in explicit})
        return p

    def check_types(self, in_dtype: str, out_dtype: str) -> None:
        """ValueError unless the kernel reads ``in_dtype`` and writes ``out_dtype`` for it."""
        if in_dtype not in self.outputs:
            raise ValueError(f"{self.name} takes {', '.join(self.in_dtypes)} inputs, not {in_dtype}")
        if out_dtype not in self.outputs[in_dtype]:
            raise ValueError(f"{self.name} writes {', '.join(self.outputs[in_dtype])} from {in_dtype} "
                             f"inputs, not {out_dtype}")

    def check_layouts(self, a_layout: str, b_layout: str) -> None:
        for what, layout in (("a_layout", a_layout), ("b_layout", b_layout)):
            if layout not in (ROW, COL):
                raise ValueError(f"{what} must be 'row' or 'col', got {layout!r}")
        if (a_layout, b_layout) not in self.layouts:
            raise ValueError(f"{self.name} does not read A {a_layout}-major with B {b_layout}-major")

    def instance(self, a_layout: str = ROW, b_layout: str = ROW, in_dtype: str | None = None,
                 out_dtype: str | None = None, params: Params | None = None) -> "KernelInstance":
        """The instantiation for these layouts, dtypes (default: the spec's first input dtype and
        its default output) and parameters (default: the spec's). Instances are made once and
        kept: a second call with the same arguments returns the same object."""
        key = (a_layout, b_layout, in_dtype, out_dtype, None if params is None else tuple(params.items()))
        inst = self._instances.get(key)
        if inst is None:
            inst = self._make_instance(a_layout, b_layout, in_dtype, out_dtype, params)
            self._instances[key] = inst
        return inst

    def _make_instance(self, a_layout: str, b_layout: str, in_dtype: str | None, out_dtype: str | None,
                       params: Params | None) -> "KernelInstance":
        self.check_layouts(a_layout, b_layout)
        in_dtype = in_dtype or self.in_dtypes[0]
        if out_dtype is None and in_dtype in self.outputs:
            out_dtype = self.default_out_dtype(in_dtype)
        self.check_types(in_dtype, out_dtype or "")
        p = self.resolve(params)
        why = self.check_params(p, in_dtype, out_dtype or "") if self.check_params is not None else None
        if why:
            raise ValueError(f"{self.name}: {why}")
        args = ["true" if a_layout == ROW else "false", "true" if b_layout == ROW else "false"]
        if self.typed:
            args += [dtypes.get(in_dtype).cxx, dtypes.get(out_dtype).cxx]  # type: ignore[arg-type]
        args += [str(int(p[k])) for k in self.params if k not in self.host_params]
        return KernelInstance(
            spec=self, a_layout=a_layout, b_layout=b_layout, in_dtype=in_dtype,
            out_dtype=out_dtype,  # type: ignore[arg-type]
            params=p, name_expression=f"{self.entry}<{', '.join(args)}>",
            block=(self.threads(p), 1, 1), smem_bytes=self.smem_bytes(p),
            cluster=self.cluster(p) if self.cluster is not None else None)


@dataclass(frozen=True, eq=False)
class KernelInstance:
    """One kernel instantiation and everything about launching it."""

    spec: KernelSpec
    a_layout: str
    b_layout: str
    in_dtype: str
    out_dtype: str
    params: Mapping[str, int]
    name_expression: str
    """The C++ name expression NVRTC instantiates, e.g. ``sgemm_naive<true, false, 16, 16>``."""
    block: tuple[int, int, int]
    smem_bytes: int
    """Dynamic shared memory of the main kernel, in bytes."""
    cluster: tuple[int, int, int] | None = None
    single_launch: bool = field(init=False, repr=False)
    """One kernel (no further steps)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "single_launch", not self.spec.steps)

    @property
    def source(self) -> str:
        return self.spec.source

    @property
    def name(self) -> str:
        return self.spec.name

    def grid(self, m: int, n: int, k: int, sms: int | None = None) -> tuple[int, int, int]:
        """The main kernel's grid for an (M, N, K) problem on a device where ``sms`` blocks run
        at once (one per SM; fewer for cluster launches, see
        :func:`warpgemm.runtime.launch.resident_blocks`). Only persistent kernels need it;
        without it they get a block per tile."""
        if self.spec.persistent:
            # Clusters of cx blocks take cx vertically adjacent tiles each: a grid of whole
            # clusters, at most one block per SM. A split last wave adds units of work.
            bm, bn = self.spec.tile(self.params)
            cx = self.cluster[0] if self.cluster is not None else 1
            along_n = self.spec.cluster_along_n
            along_n = along_n(self.params) if callable(along_n) else along_n
            units = cdiv(m, bm) * cdiv(n, cx * bn) if along_n else cdiv(m, cx * bm) * cdiv(n, bn)
            tail, splits = self.last_wave(m, n, k, sms)
            if splits < 0 and sms:  # stream-K: every block a share of the tail, of one k-tile at least
                return (min(sms, -splits * cdiv(k, self.params["BK"])), 1, 1)
            units += tail * max(splits - 1, 0)
            return (cx * max(1, min(units, (sms or cx * units) // cx)), 1, 1)
        if self.spec.grid is not None:
            return self.spec.grid(m, n, self.params)
        bm, bn = self.spec.tile(self.params)
        return (cdiv(n, bn), cdiv(m, bm), 1)

    def last_wave(self, m: int, n: int, k: int, slots: int | None) -> tuple[int, int]:
        """``(tail_tiles, splits)``: how many tiles a persistent grid of ``slots`` blocks leaves
        for its last, partial wave, and how many ways it splits each one's K range; ``(S, -S)``
        where the last S tiles are shared out stream-K. (0, 1) for kernels that do not split, and
        when ``slots`` is unknown."""
        if self.spec.last_wave is None or slots is None:
            return 0, 1
        return self.spec.last_wave(m, n, k, self.params, slots)

    def workspace_bytes(self, m: int, n: int, k: int, slots: int | None = None) -> int:
        """Bytes of scratch device memory the launches need, on a device where ``slots`` blocks
        run at once."""
        return 0 if self.spec.workspace is None else self.spec.workspace(m, n, k, self.params, slots or 0)

    def counters_needed(self, m: int, n: int, k: int, slots: int | None = None) -> int:
        """How many zeroed int32 counters the launches need."""
        return 0 if self.spec.counters is None else self.spec.counters(m, n, k, self.params, slots or 0)

    def args(self, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
             bias: Any = None) -> tuple[Any, ...]:
        """The main kernel's arguments for prepared operands ``a``, ``b``, output ``c`` and (for
        kernels with ``fused_bias``) the bias vector."""
        return self.spec.abi(self, a, b, c, m, n, k, workspace, bias)

    def launches(self, a: Any, b: Any, c: Any, m: int, n: int, k: int, workspace: Any = None,
                 bias: Any = None, sms: int | None = None) -> list[Launch]:
        """Every launch of one problem, in order: the main kernel, then the spec's steps."""
        out = [Launch(self.source, self.name_expression, self.grid(m, n, k, sms), self.block,
                      self.smem_bytes, self.args(a, b, c, m, n, k, workspace, bias), self.cluster,
                      self.spec.dependent_launch)]
        for step in self.spec.steps:
            out.append(Launch(step.source, step.name_expression(self), step.grid(self, m, n, k),
                              step.block(self), step.smem_bytes(self),
                              step.args(self, a, b, c, m, n, k, workspace, bias)))
        return out


@dataclass(frozen=True)
class Family:
    """What the kernels of one family share, written once."""

    name: str
    title: str
    bench_dtype: str
    """Input dtype ``warpgemm bench FAMILY`` uses by default."""
    square_max: int
    """Largest size of the ``square`` suite for this family."""
    defaults: Mapping[str, Any]
    """KernelSpec fields every spec of the family takes unless it says otherwise."""
    bench_variants: tuple[tuple[str, Params], ...] = ()
    """(kernel, parameters) run by default in ``warpgemm bench FAMILY`` besides every rung."""

    def spec(self, rung: int, idea: str, slug: str, entry: str, **fields: Any) -> KernelSpec:
        """A spec of this family: ``family/NN_slug`` in ``family/NN_slug.cu``, the family's
        defaults overridden by ``fields``."""
        name = f"{self.name}/{rung:02d}_{slug}"
        merged = {**self.defaults, **fields}
        unknown = set(merged) - {f.name for f in dataclasses.fields(KernelSpec)}
        if unknown:
            raise TypeError(f"{name}: unknown KernelSpec fields {sorted(unknown)}")
        return KernelSpec(name=name, family=self.name, rung=rung, idea=idea, source=f"{name}.cu",
                          entry=entry, **merged)


def family_names(specs: Sequence[KernelSpec]) -> list[str]:
    return list(dict.fromkeys(s.family for s in specs))
