"""``kernel="auto"``: which kernel, with which parameters, for a problem, as data.

The rules are a table keyed by the device's compute capability (and, where one GPU of a
capability needs choices of its own, its name), the input dtype (and, for float32, the precision
torch asks for), and buckets of M, N and K. The first rule that matches wins, so specific rules
come before general ones. A rule's ``params`` are the measured choice
for its bucket; where a rule gives none, the kernel runs with its spec's defaults, or with the
tuner's remembered choice for the exact problem when the user has tuned it
(:mod:`warpgemm.tuning.table`). Rules are measured per arch and shipped with the package: a
new user gets them without tuning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from .catalog.decode import TOKEN_TILES

INF = 2**31 - 1


@dataclass(frozen=True)
class Rule:
    """Problems of ``dtype`` inputs on a device of compute capability in ``capability`` (a
    closed range), with M, N and K in the given closed ranges, run ``kernel``."""

    kernel: str
    dtype: str
    """Input dtype, torch's name."""
    capability: tuple[int, int] = (0, INF)
    m: tuple[int, int] = (0, INF)
    n: tuple[int, int] = (0, INF)
    k: tuple[int, int] = (0, INF)
    layouts: tuple[tuple[str, str], ...] | None = None
    """The (A, B) operand layouts the rule applies to, as ``detect`` finds them (None: any), for
    kernels that read some layouts only."""
    precision: str | None = None
    """For float32 inputs: ``"ffma"`` (``torch.get_float32_matmul_precision() == "highest"``)
    or ``"tf32"`` (``"high"`` or ``"medium"``); None matches both."""
    params: Mapping[str, int] = field(default_factory=dict)
    """Parameters measured best for the bucket; empty: the spec's defaults."""
    device: str | tuple[str, ...] | None = None
    """A part of the device's name (``torch.cuda.get_device_name``) the rule was measured for, as
    ``"H200"``, or several such parts, one for each GPU it was measured on: GPUs of one compute
    capability whose memory differs (the H100's HBM3 and the H200's HBM3e) want different small-M
    parameters. None: any device of the capability."""
    shape: Callable[[int, int, int], bool] | None = None
    """A further condition on (M, N, K) inside the buckets, for a choice that follows from tile
    arithmetic (how full the last wave is), not from the size alone. None: every shape in them."""
    note: str = ""
    """Where the rule comes from (a measurement, or why it is a fallback)."""

    def serves(self, capability: int, dtype: str, precision: str | None, device: str = "") -> bool:
        """Whether the rule applies to ``dtype`` inputs at ``precision`` on a device of compute
        ``capability`` named ``device``, whatever the shape."""
        return (self.dtype == dtype and (self.precision is None or self.precision == precision)
                and self.capability[0] <= capability <= self.capability[1]
                and (self.device is None or any(part in device for part in _parts(self.device))))

    def fits(self, m: int, n: int, k: int, layouts: tuple[str, str] | None = None) -> bool:
        """Whether the problem's M, N, K and operand layouts fall in the rule's buckets."""
        return (self.m[0] <= m <= self.m[1] and self.n[0] <= n <= self.n[1] and self.k[0] <= k <= self.k[1]
                and (self.layouts is None or layouts in self.layouts)
                and (self.shape is None or self.shape(m, n, k)))


def _parts(names: str | tuple[str, ...]) -> tuple[str, ...]:
    return (names,) if isinstance(names, str) else names


_LINEAR = (("row", "col"),)  # A (M, K) row-major, B = W.t() of an (N, K) weight

_EITHER_B = (("row", "col"), ("row", "row"))  # A row-major, B = W.t() or a row-major B

_H200 = "H200"  # the H200 and the GH200: HBM3e, 4.2 TB/s measured read bandwidth against the H100's 3.0

_H100_SXM = "H100 80GB HBM3"  # the H100 SXM (132 SMs), not the PCIe card (114 SMs)

# The Hopper ladder's rules from 65 rows were measured on the H100 SXM, and most follow from tile
# arithmetic on its 132 SMs, which the H200 has too. On an H200 they were faster than the rules it
# had before on the square and llm suites (docs/results/hopper_rules_as_h100_h200.json: two rounds
# each, alternating in processes of their own, scripts/rules_as.py; x cuBLAS, H100 rules against
# the H200's before): square medians 1.004x / 1.010x against 1.000x / 0.993x (bf16) and 1.007x /
# 1.008x against 1.000x / 0.999x (fp16), the llm suite's from 1024 rows 0.994x / 0.998x against
# 0.986x / 0.990x; 1024^3 0.86x against 0.50x, 2048^3 0.98x-0.99x against 0.96x, 1024 x 6144 x
# 4096 0.977x against 0.867x, 128 x 4096 x 4096 0.85x against 0.76x. No shape was slower on the
# mean of its two rounds (8192^3 in the Linear layout: 1.012x and 1.031x against 1.018x twice).
_132_SMS = (_H100_SXM, _H200)


def _tiles(m: int, n: int, bm: int, bn: int) -> int:
    """How many BM x BN tiles cover an M x N output (ragged edges count whole tiles)."""
    return -(-m // bm) * -(-n // bn)


def wave_fill(m: int, n: int, bm: int, bn: int, sms: int = 132) -> float:
    """How full the waves of BM x BN tiles are on ``sms`` SMs, one tile a block: the tiles over
    the blocks of the waves they take (1.0 when the last wave is full)."""
    tiles = _tiles(m, n, bm, bn)
    return tiles / (-(-tiles // sms) * sms)


def fills_waves_better(m: int, n: int, bm: int, bn: int, slots: int, at_least: float, times: float) -> bool:
    """Whether BM x BN units fill their waves on ``slots`` places (SMs, or cluster slots for units
    of a cluster's tiles) to at least ``at_least`` and ``times`` as full as BM x 256 units do: the
    test of the narrower-tile rules below."""
    fill = wave_fill(m, n, bm, bn, slots)
    return fill >= at_least and fill >= times * wave_fill(m, n, bm, 256, slots)


def _fuller_waves_at_bn192(m: int, n: int, k: int) -> bool:
    """Whether 128 x 192 tiles fill the H100 SXM's 132 SMs to at least 90% of their waves and 1.2
    times as full as 128 x 256 tiles do (1024 x 6144: 256 tiles of 128 x 192, 97%, against 192 of
    128 x 256, 73%)."""
    return fills_waves_better(m, n, 128, 192, 132, 0.9, 1.2)


def fuller_waves_at_bn176(m: int, n: int, k: int, sms: int = 132) -> bool:
    """Whether 128 x 176 tiles fill the waves of ``sms`` SMs to at least 90% and 1.05 times as full
    as 128 x 256 tiles do (1024 x 14336: 656 tiles of 128 x 176, 99%, against 448 of 128 x 256,
    85%; 1024 x 11008: 95% against 87%). 176 is cuBLAS's width at 1024 x 14336."""
    return fills_waves_better(m, n, 128, 176, sms, 0.9, 1.05)


def fuller_cluster_waves_at_bn176(m: int, n: int, k: int, sms: int = 132) -> bool:
    """Whether 2-block clusters of 128 x 176 tiles (a 256 x 176 unit each, ``sms / 2`` units a
    wave) fill their waves to at least 97% and 1.05 times as full as clusters of 128 x 256 tiles do
    (3072 x 14336: 984 units, 99.4%, against 672, 92.6%; 2560 x 13824: 99.7% against 90.9%).
    Clusters take no K split of the last wave, so their fill is what they run."""
    return fills_waves_better(m, n, 256, 176, sms // 2, 0.97, 1.05)


def more_than_two_tiles_a_block(m: int, n: int, k: int, sms: int = 132) -> bool:
    """Whether 128 x 256 tiles give ``sms`` SMs more than two each on average (3072 x 4096: 384
    tiles, 2.9 a SM; 2048 x 4096: 256, 1.9): there rung 06 stores each tile while the next one
    multiplies (``HOLD = 1``), which gained at 2.9 tiles a SM and more and was level or slower at
    two or fewer (docs/results/hopper_hold_mid_h100.json, hopper_hold_single_h100.json)."""
    return _tiles(m, n, 128, 256) > 2 * sms


def clusters_end_part_full(m: int, n: int, k: int, sms: int = 132) -> bool:
    """Whether 2-block clusters of 128 x 256 tiles (a 256 x 256 unit each, ``sms / 2`` units a wave)
    leave their last wave less than 90% full. Clusters take no K split of the last wave; single
    blocks do (catalog.hopper.last_wave), so there single blocks run the tail on every SM
    (1024 x 5120: 80 units, one wave 61% full; 2560 x 4096: 160, three waves 81% full)."""
    return wave_fill(m, n, 256, 256, sms // 2) < 0.9


def _clusters_end_part_full_many_tiles(m: int, n: int, k: int) -> bool:
    """:func:`clusters_end_part_full` where single blocks would also hold their tiles
    (:func:`more_than_two_tiles_a_block`)."""
    return clusters_end_part_full(m, n, k) and more_than_two_tiles_a_block(m, n, k)


def pairs_of_w_tiles_fill_their_waves(m: int, n: int, k: int, sms: int = 132) -> bool:
    """Whether decode/02's 2-block clusters of 128-row tiles of W (a pair covers 256 rows of W,
    ``sms / 2`` pairs a wave) make more than one wave and fill their last one to at least 75%: the
    clusters take no K split of it (28672 rows: 112 pairs on 66 clusters, 85%; 26624: 104, 79%;
    32000: 125, 95%; not 24576: 96, 73%, nor 22016: 86, 65%)."""
    return _tiles(256, n, 256, 256) > sms // 2 and wave_fill(256, n, 256, 256, sms // 2) >= 0.75


def one_wave_tile(m: int, n: int, k: int, sms: int = 132) -> tuple[int, int]:
    """Of rung 06's 128 x 256, 128 x 128 and 64 x 128 tiles, and 64 x 64 where K <= 2048, the one
    that makes the most tiles within one wave of ``sms`` SMs (128 x 256 where none of the smaller
    ones does better): on a grid of half a wave or less, a smaller tile puts more SMs to work
    (2048 x 1024: 128 tiles of 128 x 128 against 64 of 128 x 256; 1024 x 1024: 128 of 64 x 128
    against 64 of 128 x 128; 512 x 1024 x 1024: 128 of 64 x 64 against 64 of 64 x 128). Past K =
    2048 the 64 x 128 tiles' split K does as well as 64 x 64 tiles or better
    (docs/results/hopper_tiny_h100.json)."""
    best, most = (128, 256), _tiles(m, n, 128, 256)
    for bm, bn in ((128, 128), (64, 128), (64, 64)):
        if (bm, bn) == (64, 64) and k > 2048:
            continue
        tiles = _tiles(m, n, bm, bn)
        if most < tiles <= sms:
            best, most = (bm, bn), tiles
    return best


_H200_A = {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "SPLITS": 1, "STAGGER": 8}
_H200_B = {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "SPLITS": 1, "STAGGER": 8}
_H200_D = {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1, "SPLITS": 1, "STAGGER": 8}
_H200_G = {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "SPLITS": 0, "STAGGER": 8}
# 64-row tiles of 64 k, 8 stages, 16 tokens: 2-16 rows of 4225-12287-row weights with K >= 12288.
_H200_64K_16 = {"BM": 64, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1, "BN": 16}
# Rung 02 in clusters of two tiles of 32 tokens on one tile of W, which they share (SHARE_W).
_H200_SHARED_W = {"BM": 64, "BN": 32, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "STAGGER": 1, "CLUSTER": 2,
                  "SHARE_W": 1}
# Rung 01's choice for 1-8 rows of most weights on the H200 (decode_sweep_h200.json), walked in step
# or staggered.
_H200_RUNG01 = {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1}
# Rung 06's choices for 97-128 rows, and 65-96 rows of 12288-16384-row weights, on the H200 (the
# rules that use them say where they come from).
_H200_64X128_C2 = {"BM": 64, "BN": 128, "STAGES": 7, "CLUSTER": 2, "IN_FLIGHT": 1}
_H200_64X256_C2 = {"BM": 64, "BN": 256, "STAGES": 5, "CLUSTER": 2}
_H200_128X64_S8 = {"BM": 128, "BN": 64, "STAGES": 8}

# decode/02 with every token in one tile (wgmma m64nBNk16 with BN the narrowest atom that holds
# them) on the H200 at 65-96 and 129-192 rows: (rows, BN, the deepest ring of 64-row tiles of W
# (BK 64) that fits, that of 128-row tiles). STAGES as hopper.smem_bytes allows in 227 KiB.
H200_ONE_TOKEN_TILE = (((65, 96), 96, 8, 8), ((129, 144), 144, 8, 6), ((145, 160), 160, 8, 6),
                       ((161, 176), 176, 7, 5), ((177, 192), 192, 7, 5))


def narrowest_token_tiles(rows: tuple[int, int], tiles: int = 1) -> tuple[tuple[tuple[int, int], int], ...]:
    """decode/02's token tiles for the row counts in ``rows`` held in ``tiles`` tiles each: the
    ``(rows, BN)`` buckets in which BN is the narrowest wgmma atom (``catalog.decode.TOKEN_TILES``)
    that holds the bucket's rows in that many tiles. Empty rows in a tile cost time beyond their
    bytes (docs/decode.md, "The H200 at 33-56 rows"), so the H200's rules take these widths."""
    lo, hi = rows
    buckets = []
    while lo <= hi:
        bn = min(b for b in TOKEN_TILES if tiles * b >= lo)
        top = min(hi, tiles * bn)
        buckets.append(((lo, top), bn))
        lo = top + 1
    return tuple(buckets)


# The deepest ring of 128 k a stage that fits in 227 KiB beside 64-row tiles of W, by token tile.
_DEEPEST_128K_RING = {64: 7, 72: 6, 80: 6, 88: 5, 96: 5}

# decode/02 with the tokens in two tiles at 129-192 rows of a weight of at most 4096 rows on the
# H200 (BN 72, 80, 88 or 96).
H200_TWO_TOKEN_TILES = narrowest_token_tiles((129, 192), tiles=2)

# The same at 65-112 rows of a weight of 1024-4096 rows (BN 40, 48 or 56).
H200_TWO_SMALL_TOKEN_TILES = narrowest_token_tiles((65, 112), tiles=2)

# decode/02 with every token in one tile at 65-88 rows of a wide weight on the H200 (BN 72, 80 or
# 88), narrower than H200_ONE_TOKEN_TILE's 96 where the tokens leave 9-31 rows of it empty.
H200_EXACT_TOKEN_TILE = narrowest_token_tiles((65, 88))

# The same at 33-56 rows (BN 40, 48 or 56), narrower than decode/02's default tile of 64 tokens.
H200_NARROW_TOKEN_TILE = narrowest_token_tiles((33, 56))

# K past 16383 at 65-96 and 129-192 rows of weights of 2048-32768 rows on the H200 (the down
# projections of large models: 3584 x 18944, 5120 x 27648, 8192 x 28672): the rules whose notes
# name this file take K without a bound, each with the choice it makes at K = 16383, where the
# ladder's 128 x 128 tiles ran (the bound came from one H100 shape, 128 x 8192 x 28672). A tile of
# 128 tokens holds 129-192 rows only in two tile-rows, the second nearly empty. Swept at 72-184
# rows on eleven weights (docs/results/k_past_16383_sweep_h200.json, graph replays, cold weights,
# two placements, x cuBLAS): the 128 x 128 tiles ran 0.38x-0.68x cuBLAS at 129-192 rows, the
# rules' choices 0.87x-1.01x; at 65-96 rows 0.75x-1.02x against 0.90x-1.13x, behind at one of 20
# (88 x 5120 x 27648, 0.90x against 0.93x; the rule after this one now takes that weight). Checked
# at 68-190 rows on eight weights they were not drawn from, to 16384 x 53248
# (k_past_16383_check_h200.json): ahead at all 64, by 0.19x-0.63x at 129-192 rows (132 x 16384 x
# 53248 1.07x against 0.43x) and 0.01x-0.40x at 65-96 (68 x 10240 x 24576 1.05x against 0.65x;
# level at 94 x 4608 x 20480). At 97-128 rows the 128 x 128 tiles hold the tokens in one tile-row
# and stay: 0.92x-0.99x, ahead of or within 0.06x of every other choice measured.
_K_PAST_16383 = "K past 16383: k_past_16383_*_h200.json"


def _h200_one_token_tile(bn: int, bm: int, stages: int) -> dict[str, int]:
    """decode/02's parameters for tiles of ``bm`` rows of W by ``bn`` tokens, a k-tile of 64 and a
    k-tile of wgmma in flight, single blocks; the last wave split where the cost model of
    ``catalog.hopper.last_wave`` finds it pays (SPLITS = 0)."""
    return {"BM": bm, "BN": bn, "BK": 64, "STAGES": stages, "IN_FLIGHT": 1}

RULES: tuple[Rule, ...] = (
    # fp16 / bf16 with one row (a token) and K >= 2048 on an H200: rung 03, the grid sweeping W, in
    # blocks of 256 threads, 8 a SM, 2 rows a pass (one 16-byte vector of a row a thread at K =
    # 2048). Rungs 03 and 04 came after the H200's decode rules below, which had never timed them.
    # Swept on an H200 over rung 03's block shapes at 20 weights of 1024-32000 rows with K of
    # 1024-28672, cuBLAS and the rules before in the same rounds (scripts/decode_sweep.py, graph
    # replays, cold weights, two placements each; docs/results/row_sweep_m1_blocks_h200.json), x
    # cuBLAS against the rules before (rung 01): 1.37x against 1.22x at 4096 x 4096, 1.17x against
    # 0.98x at 6144 x 4096, 1.06x against 0.97x at 8192 x 8192, 1.08x against 1.01x at 14336 x 4096,
    # 1.12x against 0.95x at 12288 x 4096, 1.61x against 1.30x at 2048 x 2048: ahead at all 19
    # weights with K >= 2048, and the fastest block shape or within 0.03x of it at each but 1024 x
    # 4096 (1.88x against 1.96x with 4 blocks a SM). Ten of them ran in an earlier sweep too
    # (row_sweep_m1_check_h200.json): ahead at all ten there. At K = 1024 rung 01 stays ahead (4096
    # x 1024: 1.25x against 1.33x).
    *(Rule("decode/03_row_sweep", dt, capability=(90, 90), layouts=_LINEAR, m=(1, 1), n=(1024, INF),
           k=(2048, INF), params={"THREADS": 256, "ROWS": 2, "UNROLL": 2, "L2_256B": 0, "BLOCKS": 8},
           device=_H200, note="measured on an H200 by scripts/decode_sweep.py (docs/results/row_sweep_m1_*_h200.json)")
      for dt in ("bfloat16", "float16")),
    # fp16 / bf16 with 2-8 rows and K of 2049-4096 (2-4 rows from K = 1536) on an H200: rung 04,
    # the sweep on the tensor cores, two stages a warp, its threads following K (one 16-byte chunk
    # of a row a thread). Swept at 2 / 4 / 8 / 16 rows of five weights and checked at 2-8 rows of
    # fifteen others (docs/results/row_sweep_mma_*_h200.json), x cuBLAS against the rules before:
    # 4096 x 4096 1.25x / 1.20x / 1.17x against 1.15x / 1.13x / 1.10x at 2 / 4 / 8 rows; 6144 x 4096
    # 1.13x / 1.09x / 1.06x against 0.99x / 0.98x / 0.99x; 11008 x 4096 1.06x-1.03x against 0.93x;
    # 5120 x 4096 1.09x-1.00x against 0.92x-0.90x; 2 x 8192 x 2048 1.11x against 0.94x. Behind at K =
    # 8192 (two k-steps of the tokens' fragments: 0.82x-0.87x against 0.96x-0.97x at 8192 x 8192), at
    # 16 rows, at K = 1024, and at 8 rows of K <= 2048 (8 x 8192 x 2048 0.96x against 1.01x).
    *(Rule("decode/04_row_sweep_mma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(1024, INF), k=k,
           params={"STAGES": 2}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/row_sweep_mma_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, k in (((2, 4), (1536, 4096)), ((5, 8), (2049, 4096)))),
    # fp16 / bf16 with 2-4 or 8 rows of a weight of 4096-4224 rows or of 12288 and more, with K past
    # 4096, on an H200: rung 01 as the rules below give it, its walk over k staggered in 8 bands
    # (docs/decode.md, "In step"). Swept at 2, 4 and 8 rows of five weights and checked at 2, 3, 5
    # and 8 rows of eight others and at 4-7 rows of four (docs/results/stagger_m*_h200.json), x
    # cuBLAS against the walk in step: 4096 x 11008 1.15x / 1.13x / 1.12x against 1.12x / 1.10x /
    # 1.08x at 2 / 4 / 8 rows, 4096 x 14336 1.05x / 1.03x / 1.03x against 1.02x / 1.00x / 0.98x,
    # 28672 x 8192 1.00x / 1.00x / 0.97x against 0.98x / 0.97x / 0.92x, 8 x 32000 x 8192 1.00x
    # against 0.95x: ahead at 29 of the 30 shapes in these bounds, level at one. At 5-7 rows it was
    # behind at every weight (5 x 4096 x 14336 0.95x against 1.00x), for a reason not found; and at
    # weights of 2048 rows and of 4225-12287 (8192 x 8192, 8192 x 28672) it was not ahead.
    *(Rule("decode/01_swap_ab_splitk", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=(4097, INF),
           params={**_H200_RUNG01, "STAGGER": 8}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/stagger_m*_h200.json)")
      for dt in ("bfloat16", "float16") for m in ((2, 4), (8, 8)) for n in ((4096, 4224), (12288, INF))),
    # fp16 / bf16 with 49-64 rows of a weight of 2048-4224 rows with K of 2048-4096 on an H200: rung
    # 02 in clusters of two tiles of 32 tokens sharing W (SHARE_W), 64-row tiles of W in 128-column
    # k-tiles, eight stages: 64 tiles of W (4096 rows) run on 128 blocks with W read once and no K
    # split. Swept at 50-64 rows of eight weights (docs/results/share_w_m44_64_h200.json), x cuBLAS
    # against the rules before: 64 x 4096 x 4096 1.05x against 0.98x, 60 x 3072 x 3072 1.03x
    # against 0.91x, 60 x 2560 x 4096 1.00x against 0.88x; ahead at every shape in these bounds.
    # Behind at 44 rows (4096 x 4096 0.96x against 1.03x: one tile of 48 tokens holds them all),
    # at 50-56 rows of 4096 x 1024, and at 5120 x 5120 and 6144 x 4096 (more clusters than SMs).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=(49, 64), n=(2048, 4224),
           k=(2048, 4096), params=_H200_SHARED_W, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/share_w_*_h200.json)")
      for dt in ("bfloat16", "float16")),
    # fp16 / bf16 with 65-192 rows of a weight of 3072-4224 rows on an H200: the same clusters, on
    # two tiles of the narrowest width that holds half the rows, seven stages up to 56 tokens a
    # tile, six at 64 and 72, five wider.
    #   * 65-128 rows (tiles of 40-64) with K of 3072-14336. Swept at 72, 96, 112 and 128 rows of
    #     seven weights (docs/results/share_w_m72_128_h200.json), x cuBLAS against the rules before
    #     (the same two tiles in blocks of their own, or one tile, or rung 06): 72 x 4096 x 4096
    #     1.04x against 0.88x, 96 x 4096 x 4096 1.23x against 1.07x, 128 x 4096 x 14336 1.03x
    #     against 0.98x; ahead at every shape in these bounds, and at all 32 shapes of a check on
    #     eight other weights in both types (share_w_m72_128_check_*_h200.json), by 0.011x or more.
    #   * 129-192 rows (tiles of 72-96) with K of 3072-8192. Swept at 136, 160, 176 and 192 rows of
    #     five weights (docs/results/share_w_m136_192_h200.json), against the same two tiles in
    #     blocks of their own: 136 x 4096 x 4096 1.13x against 1.01x, 160 x 3584 x 8192 1.05x
    #     against 0.99x, 192 x 4096 x 4096 1.24x against 1.17x; 192 x 3072 x 3072 level (0.937x
    #     against 0.936x); ahead at all 24 shapes of a check on six other weights in both types
    #     (share_w_m136_192_check_*_h200.json), by 0.017x or more. Behind at K = 14336 from 160 rows.
    # Behind at 2048 rows and from 6144 (the pairs outnumber the SMs).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(3072, 4224), k=k,
           params={**_H200_SHARED_W, "BN": bn, "STAGES": 7 if bn < 64 else 6 if bn <= 72 else 5}, device=_H200,
           note=f"measured on an H200 by scripts/decode_sweep.py (docs/results/{sweep}*_h200.json)")
      for dt in ("bfloat16", "float16")
      for rows, k, sweep in (((65, 128), (3072, 14336), "share_w_m72_128"), ((129, 192), (3072, 8192), "share_w_m136_192"))
      for m, bn in narrowest_token_tiles(rows, tiles=2)),
    # fp16 / bf16 with 17-32 and 49-64 rows of a weight of 5632-7168 rows with K of 3969-4096 (32
    # k-tiles of 128) on an H200: rung 02 in clusters of four 64-row tiles of W sharing the tokens'
    # tile (as cuBLAS runs 64 x 6144 x 4096), staggered in 8 bands, six stages: 88-112 tiles of W
    # on 22-28 clusters. Swept at 20-64 rows of eight weights of 4608-7680 rows
    # (docs/results/cluster4_check_h200.json), x cuBLAS against the rules before: 64 x 6144 x 4096
    # 0.970x against 0.953x, 32 x 5632 x 4096 0.960x against 0.927x, 28 x 7168 x 4096 1.035x
    # against 1.017x; behind at 33-48 rows (one tile of 40 or 48 tokens holds them) and at 4608
    # and 7680 rows; level at 5120 rows and with K of 5120. Checked at 18-30 and 50-62 rows of
    # six other weights (cluster4_rule_check_*_h200.json): ahead at every shape with K = 4096 in
    # both types, by 0.015x-0.046x; level or behind with K of 3072 and 3584, which it leaves out.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(5632, 7168),
           k=(3969, 4096), params={"BM": 64, "BN": bn, "BK": 128, "STAGES": 6, "IN_FLIGHT": 1, "STAGGER": 8,
                                  "CLUSTER": 4}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/cluster4_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in (((17, 32), 32), ((49, 64), 64))),
    # fp16 / bf16 with 33-64 rows of a weight of 3072-4224 rows with K of 1024-4096 on an H200: rung
    # 02 unsplit and staggered, as at 17-32 rows (_H200_B's walk, with the narrow token tile from 33
    # rows), where the rules below split the last wave. A weight of 4096 rows makes 64 tiles of 64
    # rows: unsplit they leave half the SMs idle, and still finish first. Swept at 40, 48, 56 and 64
    # rows of seven weights and checked at 36, 44, 52 and 60 rows of eight
    # (docs/results/unsplit_m33_64_*_h200.json), x cuBLAS against the rules before: 4096 x 4096
    # 1.24x / 1.22x / 1.00x / 0.97x against 1.09x / 1.08x / 0.90x / 0.88x at 40 / 48 / 56 / 64
    # rows; 4096 x 2048 0.99x-1.06x against 0.82x-0.88x; 3072 x 3072 0.96x-1.26x against
    # 0.79x-1.07x; ahead at all 36 shapes in these bounds. Behind at K >= 8192 (2048 x 8192:
    # 0.78x-0.85x against 1.00x-1.05x), at 1024 rows, and at 5120 x 5120 and 6144 x 4096 (64 rows:
    # 0.83x against 0.88x, 0.92x against 0.95x); from 0.012x behind to 0.026x ahead at 2048 rows.
    # At 2560 rows ahead by 0.04x-0.06x, but in a later check (docs/results/small_m_rules_check_h200.json)
    # behind at 50 and 62 rows of 2816 x 4096 by 0.013x-0.021x, in both types, so the rule starts at
    # 3072 rows (48 tiles), where it was ahead by 0.088x or more at every shape of both runs.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(3072, 4224), k=(1024, 4096),
           params={**_H200_B, "STAGES": 6, "BN": bn}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/unsplit_m33_64_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in (*H200_NARROW_TOKEN_TILE, ((57, 64), 64))),
    # fp16 / bf16 decode on an H200, 2-32 rows: rung 02, staggered. Swept in the turned order on an
    # H200 over 32 choices of rung 02 at the decode suite's seven weights and M = 1 / 2 / 4 / 8 / 16
    # / 32 / 64 (scripts/decode_sweep.py, graph replays, cold weights, cuBLAS and the rules before
    # in the same rounds; docs/results/decode_sweep_wgmma_turned_h200.json). x cuBLAS, this rule
    # against the rules before:
    #   * 2-8 rows, N >= 4225 and K <= 4096, or N 4225-12287 and K > 4096 (128-row tiles, no
    #     wgmma in flight): 0.95-0.98x against 0.85-0.96x at 6144 x 4096, 14336 x 4096, 8192 x
    #     8192 and 8192 x 28672 (8 x 8192 x 8192: 0.946x against 0.856x);
    #   * 9-16 rows: 0.98x against 0.76x at 14336 x 4096 (128-row tiles), 0.98x against 0.75x at
    #     28672 x 8192 (unsplit 64-row tiles), 0.97x against 0.81x at 8192 x 8192, 1.22x against
    #     1.03x at 4096 x 4096, 1.00x against 0.84x at 6144 x 4096, 1.01x-1.02x against 0.98x at
    #     4096 x 14336. At 8192 x 28672 the rule before kept its lead (1.01x against 0.99x), and
    #     N of 4225-12287 with K >= 12288 keeps it (64 k a k-tile, 8 stages);
    #   * 17-32 rows where N <= 4224, or N >= 12288: 1.27x against 1.08x at 4096 x 4096, 1.03x
    #     against 1.00x at 4096 x 14336, 0.99x against 0.96-0.97x at 14336 x 4096 and 28672 x 8192.
    # Where the sweep found no gain (one row; 2-8 rows of the narrow weights and of 28672 x 8192,
    # where rung 01 ran up to 1.16x; 33-64 rows) the rules below stay. One sweep, 7 rounds a
    # candidate: differences under 2% are within its noise.
    # At 9-16 rows the tokens take a tile of 16 (wgmma m64n16k16), the narrowest atom that holds
    # them, where the sweep had 32: each choice with BN = 16 against itself with 32 (the rules
    # before, in the same rounds; docs/results/token_tile16_m12_16_h200.json, twelve weights, five
    # of them new to these rules), x cuBLAS: ahead at 23 of 24 shapes, by up to 0.09x (12 x 4096 x
    # 4096 1.275x against 1.184x, 16 x 10240 x 8192 0.948x against 0.895x, 16 x 6144 x 4096 1.028x
    # against 1.005x), level at one (12 x 12288 x 4096 1.011x against 1.015x). At 2-8 rows of
    # weights of 4225-12287 rows with K past 4096 too (token_tile16_m2_8_*_h200.json): with K up to
    # 12287, the 128-row tiles with 16 tokens against 32 were ahead at 23 of 26 shapes (8 x 8192 x
    # 8192 0.974x against 0.961x, 3 x 9216 x 5120 1.087x against 1.056x), level at two and 0.016x
    # behind at one (3 x 11008 x 6144); with K of 12288 or more, 64-row tiles of 64 k, 8 stages and
    # 16 tokens (as at 9-16 rows there) were ahead of the rules before by 0.02x-0.18x at all 13
    # shapes (2 x 4352 x 16384 0.982x against 0.798x, 8 x 8192 x 28672 1.022x against 0.995x). At
    # 2-8 rows with K up to 4096 (rung 04 takes most of them) the tokens keep a tile of 32: not
    # measured with 16. Weights of 4225-4864 rows make only 34-38 tiles of 128 rows: there 2-8 rows
    # with K of 4097-12287 take 64-row tiles of 64 k in 16 stages, unsplit and staggered, ahead of
    # the 128-row tiles at all 25 shapes of five weights (token_tile16_m2_8_bm64*_h200.json; 2 x
    # 4352 x 8192 1.158x against 0.917x, 7 x 4864 x 9216 0.976x against 0.928x); at 5120 rows
    # mixed (5120 x 5120 0.013x ahead at 2 rows, up to 0.048x behind at 4-8), at 5632 and more
    # behind.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k, params=p,
           device=_H200, note="measured on an H200 by scripts/decode_sweep.py (decode_sweep_wgmma_turned_h200.json; "
                               "16-token tiles: token_tile16_*_h200.json)")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (
          ((2, 8), (4225, INF), (0, 4096), _H200_A),
          ((2, 8), (4225, 4864), (4097, 12287),
           {"BM": 64, "BK": 64, "STAGES": 16, "IN_FLIGHT": 1, "SPLITS": 1, "STAGGER": 8, "BN": 16}),
          ((2, 8), (4225, 12287), (4097, 12287), {**_H200_A, "BN": 16}),
          ((2, 8), (4225, 12287), (12288, INF), _H200_64K_16),
          ((9, 16), (12288, INF), (0, 4096), {**_H200_A, "BN": 16}),
          ((9, 16), (12288, INF), (4097, INF), {**_H200_G, "BN": 16}),
          ((9, 16), (4225, 12287), (0, 4096), {**_H200_A, "BN": 16}),
          ((9, 16), (4225, 12287), (12288, INF), _H200_64K_16),
          ((9, 16), (0, INF), (0, INF), {**_H200_B, "BN": 16}),
          ((17, 32), (0, 4224), (0, INF), _H200_B),
          ((17, 32), (12288, INF), (0, 4096), _H200_D),
          ((17, 32), (12288, INF), (4097, INF), _H200_G),
      )),
    # fp16 / bf16 decode on an H200 (scripts/decode_sweep.py, docs/results/decode_sweep_h200.json):
    # its faster memory wants more rows of W a block where N is large (9-16 rows: the rules above).
    # The H100's rules below are measured on an H100 and serve every other sm_90.
    *(Rule(kernel, dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k, params=p, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for kernel, m, n, k, p in (
          ("decode/01_swap_ab_splitk", (1, 8), (6144, 12287), (0, 4096),
           {"ROW_GROUPS": 2, "WARPS": 16, "UNROLL": 2, "L2_256B": 1}),
          ("decode/01_swap_ab_splitk", (1, 8), (12288, INF), (0, 4096),
           {"ROW_GROUPS": 2, "WARPS": 8, "UNROLL": 2, "L2_256B": 1}),
          ("decode/01_swap_ab_splitk", (1, 8), (0, INF), (0, INF), _H200_RUNG01),
      )),
    # fp16 / bf16 with 33-64 rows of a wide weight (N 12288-32768) with K of 4097-8192 on an H200,
    # the Linear layout: 128-row tiles of W (the rule below's choice at K <= 4096) where the rule
    # below gave 64-row tiles, in clusters of two sharing the tokens (staggered) where the pairs
    # fill their waves (pairs_of_w_tiles_fill_their_waves), else single blocks with the split last
    # wave. Swept at 33-64 rows (scripts/decode_sweep.py, graph replays, cold weights, two
    # placements each, x cuBLAS, the rules before in the same rounds;
    # docs/results/m33_64_wide_sweep_h200.json): 33 x 14336 x 8192 0.97x against 0.79x, 40 x 16384
    # x 8192 0.98x against 0.88x, 40 x 12288 x 6144 1.01x against 0.95x; in clusters 33 x 28672 x
    # 8192 1.00x against 0.83x, 64 x 28672 x 6144 1.06x against 1.04x (single blocks there lost at
    # 48-64 rows: 1.00x against 1.03x). Checked on seven weights it was not drawn from
    # (docs/results/m33_64_wide_rule_check_h200.json): 36 x 13824 x 5120 0.95x against 0.78x, 36 x
    # 32000 x 8192 0.98x against 0.82x; level to 2% slower at 52-60 rows of 12288 x 8192 and 24576
    # x 8192. Then on six more (m33_64_wide_rule_check2_h200.json): 34 x 14336 x 6144 0.92x against
    # 0.77x, 34 x 30720 x 8192 1.01x against 0.83x, 42 x 29568 x 8192 0.98x against 0.91x; 1-3%
    # slower at 50-64 rows of 18432 x 8192 and 20480 x 6144. The two checks set the clusters'
    # condition: where the pairs fill their last wave 65% (22016 rows of W) the clusters ran 0.87x
    # against 0.92x-0.94x for single blocks, at 73% (24576) 0.91x against 0.90x-0.92x, at 79%
    # (26624) 0.99x-1.04x against 0.93x-0.97x.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=(33, 64), n=(12288, 32768),
           k=(4097, 8192), params=p, device=_H200, shape=shape,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m33_64_wide_*_h200.json)")
      for dt in ("bfloat16", "float16")
      for shape, p in ((pairs_of_w_tiles_fill_their_waves,
                        {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1, "CLUSTER": 2, "STAGGER": 8}),
                       (None, {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}))),
    # fp16 / bf16 with 33-56 rows in the Linear layout on the H200: the next rule's tiles of W with
    # the tokens in the narrowest tile that holds them (40, 48 or 56) rather than the default 64,
    # whose 8-31 empty rows slowed the kernel as at 65-88 rows (36 x 6144 x 4096: 21.1 us in a tile
    # of 64, 17.1 us in one of 40). Swept at 36, 40, 44, 48, 52 and 56 rows on nine weights
    # (docs/results/m33_56_token_tile_sweep_h200.json, graph replays, cold weights, two placements,
    # x cuBLAS, the next rule in the same rounds): ahead or level at every shape, most at 33-44
    # rows: 36 x 6144 x 4096 1.01x against 0.82x, 36 x 8192 x 8192 1.00x against 0.83x, 36 x 5120 x
    # 5120 0.91x against 0.74x, 40 x 4096 x 4096 1.11x against 1.03x, 44 x 5120 x 5120 0.90x
    # against 0.78x, 36 x 12288 x 4096 (128-row tiles of W) 0.965x against 0.907x; at 48-56 rows
    # from 0.001x behind (52 x 12288 x 4096) to 0.056x ahead (48 x 1024 x 4096). Seven stages were
    # level with six. Checked at 34, 38, 43, 46, 50 and 54 rows on eight weights it was not drawn
    # from (2048 x 2048 to 32000 x 4096; m33_56_token_tile_check_h200.json): ahead at 42 of 48 by
    # 0.01x-0.19x, level at six, never behind (34 x 7168 x 4096 1.01x against 0.82x, 38 x 11008 x
    # 4096 0.96x against 0.85x). The row-major B and the clusters of the rule above (K past 4096 at
    # N from 12288) were not measured and keep the tile of 64. K of 1024-2047: the next rule.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k,
           params={**p, "BN": bn}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m33_56_token_tile_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in H200_NARROW_TOKEN_TILE
      for n, k, p in (((12288, 32768), (2048, 4096), {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}),
                      ((1024, 12287), (2048, 16383), {"BM": 64, "BK": 128, "STAGES": 6, "IN_FLIGHT": 1}))),
    # The same narrow tiles of tokens at 33-56 rows with K of 1024-2047, where the rule below ran
    # the default tile of 64, with the tiles of W the rule above takes by N. Swept at 40 rows
    # (docs/results/m33_56_short_k_sweep_h200.json): 40 x 4096 x 1024 0.85x against 0.75x, 40 x
    # 8192 x 1536 1.08x against 0.97x; checked at 34, 45 and 53 rows on five weights of 1024-10240
    # rows (m33_56_short_k_check_h200.json): ahead at all 15 by 0.02x-0.15x (34 x 6144 x 1024 1.04x
    # against 0.89x), least at 53 rows. On weights of 12288-28672 rows the narrow tile on 128-row
    # tiles of W was ahead or level at 36 and 52 rows (m33_56_wide_short_k_sweep_h200.json: 0.01x-
    # 0.05x ahead at 36 rows, 0.00x-0.01x at 52) and, checked at 34, 44 and 55 rows on five other
    # weights (m33_56_wide_short_k_check_h200.json), ahead at 8 of 15 by 0.02x-0.08x (34 x 12288 x
    # 2000 0.96x against 0.87x), level at 7, never behind by more than 0.004x. Weights under 1024
    # rows keep the tile of 64: the narrow tile was ahead at four of six but behind at 512 x 2048
    # and 768 x 2048 by 0.04x-0.10x (m33_56_small_n_sweep_h200.json), where the last-wave cost
    # model splits K eight ways for it, four for the tile of 64.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=(1024, 2047),
           params={**p, "BN": bn}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m33_56_short_k_*_h200.json, "
                "m33_56_wide_short_k_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in H200_NARROW_TOKEN_TILE
      for n, p in (((12288, 32768), {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}),
                   ((1024, 12287), {"BM": 64, "BK": 128, "STAGES": 6, "IN_FLIGHT": 1}))),
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_EITHER_B, m=(17, 64), n=n, k=k, params=p,
           device=_H200, note="measured on an H200 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for n, k, p in (((12288, INF), (0, 4096), {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}),
                      ((0, INF), (0, INF), {"BM": 64, "BK": 128, "STAGES": 6, "IN_FLIGHT": 1}))),
    # fp16 / bf16 with one row (a token) and K >= 4096 on Hopper (the H100; the H200 has its own
    # above): rung 03, the grid sweeping W. Swept on an H100 against rung 01 as the rules ran it,
    # two placements a candidate (scripts/decode_sweep.py, docs/results/decode_sweep_rowsweep_h100.json,
    # decode_sweep_rowsweep2_h100.json; 8 rows a pass): 13.36 against 13.56 us at 4096 x 4096, 18.92
    # against 20.05 at 6144 x 4096, 41.10 against 42.30 at 14336 x 4096, 41.66 against 42.97 at 4096 x
    # 14336, 46.54 against 47.80 at 8192 x 8192, 13.34 against 15.10 at 2048 x 8192, 153.3 against
    # 155.5 at 28672 x 8192 and 154.3 against 161.0 at 8192 x 28672. Then 4 rows a pass, one group of
    # 4 in flight (decode_sweep_rowsweep3_h100.json): 13.04 against 13.32 us for 8 rows at 4096 x 4096,
    # 18.80 against 18.96 at 6144 x 4096, 46.13 against 46.50 at 8192 x 8192. At K = 2048 half of its
    # 512 threads find no vector of a row: it lost at 8192 and 32000 x 2048, and rung 01 keeps K <
    # 4096; at 2 or more tokens it lost at most shapes (fp32 FMA, 4 tokens: 19.1 against 13.7 us).
    # And at K = 2048 to 4095 with 256-thread blocks, 8 a SM, 2 rows a pass (one vector of a row a
    # thread at K = 2048; decode_sweep_rowsweep_k2048_h100.json): 4.59 against 5.14 us at 2048 x 2048,
    # 3.23 against 3.80 at 1024 x 2048, 13.20 against 14.27 at 8192 x 2048, 8.71 against 9.05 at
    # 3072 x 3072; level at 32000 x 2048 (45.21 against 45.07), where rung 01 keeps N >= 16384.
    *(Rule("decode/03_row_sweep", dt, capability=(90, 90), layouts=_LINEAR, m=(1, 1), n=n, k=k, params=p,
           note="measured on an H100 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for n, k, p in (((0, INF), (4096, INF), {"THREADS": 512, "ROWS": 4, "UNROLL": 4, "L2_256B": 0}),
                      ((0, 16383), (2048, 4095), {"THREADS": 256, "ROWS": 2, "UNROLL": 2, "L2_256B": 0, "BLOCKS": 8}))),
    # fp16 / bf16 with 2..8 rows on Hopper (the H100; the H200 has its own above): rung 04, the
    # sweep on the tensor cores, where a sweep on an H100 put it ahead of every other choice
    # (scripts/decode_sweep.py, docs/results/decode_sweep_rowsweep_mma_h100.json; auto as the rules
    # before ran it, us): at 8192 x 2048, 13.33 / 13.32 / 13.93 against 14.42 / 14.27 / 14.29 at 2 /
    # 4 / 8 tokens with 3 stages; at 4096 x 4096 and 2 tokens, 13.16 against 13.64. Then against
    # rung 01 as it ran there, two placements each (decode_rowsweep_mma_ab_h100.json): 13.24 /
    # 13.29 / 13.97 against 14.20 / 14.26 / 14.29 us. Not at 16 tokens (15.14 against 14.85 us in
    # that run), nor at 4-16 tokens of 4096 x 4096 or 2048 x 2048: every block reads all the tokens'
    # fragments at its start (docs/decode.md, "Rung 04"). At 6144 x 2048 too, two placements each
    # (decode_sweep_rowsweep_mma_k2048_h100.json): 10.24 / 10.29 / 11.18 against 11.19 / 11.67 /
    # 11.78 us at 2 / 4 / 8 tokens; level at 16384 x 2048, behind at 32000 and 1024 x 2048.
    *(Rule("decode/04_row_sweep_mma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k, params=p,
           note="measured on an H100 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (
          ((2, 8), (6144, 12287), (1025, 2048), {"THREADS": 256, "KSTEPS": 1, "STAGES": 3}),
          ((2, 2), (2049, 4224), (2049, 4096), {"THREADS": 512, "KSTEPS": 1, "STAGES": 3}),
      )),
    # fp16 / bf16 with 2..16 rows of a weight of 2049-4224 rows and K 2049-4096 on Hopper (the H100;
    # the H200 has its own above): rung 01 with one k chunk of W in flight a warp (UNROLL = 1),
    # staggered, with the 256-byte L2 fetch. In three of four sweeps on an H100, two placements a
    # candidate (docs/results/decode_segs_h100.json), 4 x 4096 x 4096 took 13.57-13.62 us against
    # 13.94-13.99 us for the rule before (UNROLL = 2), and 16 x 4096 x 4096 14.14-14.15 us against
    # 14.52-14.53 us for rung 02 unsplit (the rule below); in the fourth, every candidate ran
    # 0.3 us behind `auto`, UNROLL = 1 too. At 1 row it was no faster, and at 6144 x 4096 slower.
    *(Rule("decode/01_swap_ab_splitk", dt, capability=(90, 90), layouts=_LINEAR, m=(2, 16), n=(2049, 4224),
           k=(2049, 4096), params={"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 1, "L2_256B": 1, "STAGGER": 8},
           note="measured on an H100 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")),
    # fp16 / bf16 decode on Hopper (the H100; the H200 has its own above), where W has at most
    # 4224 rows: rung 02 with no K split and a deep ring. At 64-row tiles such a weight makes at
    # most 66 tiles, and the persistent schedule would split each one's K range in two to fill the
    # SMs; a split costs a partial-sum round trip at the end of every tile, while one SM with 8
    # stages (7 at 64 tokens) and a k-tile of wgmma in flight keeps 112-128 KB of W in flight, and
    # half the SMs read the weight as fast as all of them. Swept cold on an H100, two placements a
    # candidate (docs/results/decode_nosplit_h100.json): 32 x 4096 x 4096 1.04x cuBLAS (0.92x
    # split), 64 x 4096 x 4096 1.00x (0.88x), 16 x 4096 x 4096 1.18x, 32 x 2048 x 4096 1.18x
    # (1.05x), 32 x 4096 x 14336 1.06x (1.01x); in exploratory runs also 32 x 3072 x 4096 1.27x,
    # 32 x 4096 x 2048 1.06x (0.86x) and 8 x 4096 x 14336 1.04x (rung 01: 1.02x). At 3-8 rows with
    # K >= 12288 the walk over k is staggered in 8 bands: two placements a candidate on an H100
    # (docs/results/decode_sweep_nosplit_stagger_h100.json), 43.58 / 43.16 / 43.43 us at 3 / 4 / 6
    # x 4096 x 14336 against 46.43 / 45.45 / 44.30 us in step (cuBLAS 45.39-45.51), and level at 8
    # rows (43.54 against 43.68); rung 01 ran 43.1-43.7 us there (decode_sweep_rung01_k14336_h100.json).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k, params=p,
           note="measured on an H100 (docs/results/decode_nosplit_h100.json)")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (
          ((9, 32), (2048, 4224), (0, INF), {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "SPLITS": 1}),
          ((3, 8), (2048, 4224), (12288, INF),
           {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "SPLITS": 1, "STAGGER": 8}),
          ((33, 64), (2048, 4224), (0, INF), {"BM": 64, "BK": 128, "STAGES": 7, "IN_FLIGHT": 1, "SPLITS": 1}),
      )),
    # fp16 / bf16 with 9..16 rows (3..8 at N >= 6144) and a long K, or 9..16 rows of a wide, short
    # weight, on Hopper (the H100; the H200 has its own above): rung 02, whose tokens' tile is read
    # once per 64 or 128 rows of W. Swept cold on an H100 (scripts/decode_sweep.py,
    # docs/results/decode_sweep_wgmma_cold_h100.json, decode_sweep_wgmma_cold2_h100.json): 1.02x /
    # 1.01x / 1.01x cuBLAS at 16 x 4096 x 14336 / 16 x 8192 x 8192 / 16 x 14336 x 4096 and 1.00x at
    # 4 x 8192 x 8192, where rung 01 ran 0.97x-0.98x; 8 stages and a k-tile of wgmma in flight at K
    # below 12288 (docs/results/decode_wgmma_rule_check3_h100.json: 1.003x-1.007x for 4-16 rows of
    # 8192 x 8192, against 0.992x-0.994x with 4 stages and none in flight); 9-16 rows of a weight of
    # 4225-8191 rows and K <= 4096 (docs/results/decode_6144_h100.json: 1.09x at 16 x 6144 x 4096,
    # where rung 01 ran 0.94x). These rules and the ones for 17..64 rows below stagger the tiles'
    # walks over k in 8 bands (STAGGER; docs/decode.md, "In step"): 0.6%-1.8% at 16 and 64 x 8192
    # x 8192, none lost.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k, params=p,
           note="measured on an H100 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (
          ((9, 16), (0, 12287), (12288, 16383), {"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
          ((9, 16), (0, 12287), (8192, 12287), {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "STAGGER": 8}),
          ((3, 8), (6144, 12287), (8192, 12287), {"BM": 64, "BK": 128, "STAGES": 8, "IN_FLIGHT": 1, "STAGGER": 8}),
          ((3, 8), (6144, 12287), (12288, 16383), {"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
          ((9, 16), (12288, INF), (0, 4096), {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
          ((9, 16), (4225, 8191), (0, 4096), {"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
      )),
    # fp16 / bf16 with 17..64 rows on Hopper: swap AB on the wgmma pipeline, where the first decode
    # kernel's loads of A outnumber those of W. Parameters from scripts/decode_sweep.py on an H100
    # (docs/results/decode_sweep_wgmma_h100.json): 64-row tiles below N = 12288, 128-row above.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_EITHER_B, m=(17, 64), n=n, params=p,
           note="measured on an H100 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for n, p in (((0, 12287), {"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0, "STAGGER": 8}),
                   ((12288, INF), {"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1, "STAGGER": 8}))),
    # fp16 / bf16 with few rows (decode), in the Linear layout: the small-M kernel streams W once.
    # Parameters from scripts/decode_sweep.py on an H100 (docs/results/decode_sweep_h100.json,
    # decode_sweep_small_n_h100.json, decode_sweep_large_m_h100.json, decode_sweep_l2_h100.json;
    # the wide, short-K weights and 9-16 rows of the 8192 x 8192 one re-measured with every
    # candidate on weights of its own, docs/results/decode_sweep_cold_h100.json). Up to 8 rows the
    # walk over k is staggered in 8 bands: measured with one row group of 16 warps
    # (docs/results/decode_stagger_h100.json: 1-3% at 1-8 x 4096 x 4096, 8192 x 8192 and 14336 x
    # 4096, slower at 16 rows) and carried to the other bucket choices up to 8 rows. For 1-8 rows of
    # 8192-12287 x <= 2048 (a Llama MLP's gate and up projections at hidden size 2048), the 256-byte
    # L2 fetch too: on three placements a candidate, 14.1-14.4 us against 14.6-14.9 us without at
    # 8192 x 2048 and 16.6-16.7 against 17.2-17.4 at 10240 x 2048, where cuBLAS took 14.4-14.5 and
    # 17.5-17.7 (docs/results/decode_sweep_k2048_h100.json). For 9-16 rows there, the same two
    # (docs/results/decode_sweep_16_k2048_h100.json, two placements a candidate): 13.89 / 14.34 us
    # at 9 / 16 x 8192 x 2048 and 16.55 / 16.98 at 10240 x 2048, 1.00x-1.05x cuBLAS, where the rule
    # before (neither) ran 0.80x-0.99x, its speed hanging on where the weight lay.
    *(Rule("decode/01_swap_ab_splitk", dt, capability=(80, INF), layouts=_LINEAR, m=m, n=n, k=k, params=p,
           note="measured on an H100 by scripts/decode_sweep.py")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (
          ((1, 8), (12288, INF), (0, 4096), {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
          ((9, 16), (12288, INF), (0, 4096), {"ROW_GROUPS": 4, "WARPS": 8, "UNROLL": 1, "L2_256B": 1}),
          ((9, 16), (8192, 12287), (2049, INF), {"ROW_GROUPS": 4, "WARPS": 16, "UNROLL": 1, "L2_256B": 1}),
          ((1, 8), (8192, 12287), (0, 2048), {"ROW_GROUPS": 1, "WARPS": 8, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
          ((9, 16), (8192, 12287), (0, 2048), {"ROW_GROUPS": 1, "WARPS": 8, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
          ((1, 8), (0, 2048), (0, INF), {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 4, "L2_256B": 1, "STAGGER": 8}),
          ((9, 16), (0, 2048), (0, INF), {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 4, "L2_256B": 1}),
          ((1, 8), (0, INF), (0, INF), {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1, "STAGGER": 8}),
          ((9, 16), (0, INF), (0, INF), {"ROW_GROUPS": 1, "WARPS": 16, "UNROLL": 2, "L2_256B": 1}),
          ((17, 32), (8192, INF), (0, INF), {"ROW_GROUPS": 4, "WARPS": 16, "UNROLL": 2}),
          ((17, 32), (0, 8191), (0, INF), {"ROW_GROUPS": 2, "WARPS": 16, "UNROLL": 2}),
          ((33, 64), (8192, INF), (0, INF), {"ROW_GROUPS": 4, "WARPS": 8, "UNROLL": 2}),
          ((33, 64), (0, 8191), (0, INF), {"ROW_GROUPS": 2, "WARPS": 16, "UNROLL": 2}),
      )),
    # A row-major B on Hopper with 1..16 rows: the first decode kernel reads only B = W.t().
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=(("row", "row"),), m=(1, 16),
           params={"BM": 64, "BK": 128, "STAGES": 4, "IN_FLIGHT": 0},
           note="the Hopper decode kernel, the only one that reads a row-major B")
      for dt in ("bfloat16", "float16")),
    # float32, FMA precision: the cp.async FFMA rung where cp.async exists.
    Rule("sgemm/07_cp_async", "float32", capability=(80, INF), precision="ffma",
         note="the fastest FFMA rung on the H200 (docs/results/sgemm_square.json)"),
    Rule("sgemm/06_k16_double_buffer", "float32", capability=(75, 79),
         note="no cp.async or TF32 before sm_80: the fastest FFMA rung without them"),
    # float32 with TF32 allowed.
    Rule("sgemm/08_tf32_mma", "float32", capability=(80, INF), precision="tf32",
         note="the TF32 tensor-core rung"),
    # fp16 / bf16 with 129-192 rows of a weight of 2048-4096 rows, K up to 8192, in the Linear layout
    # on the H200: decode/02 with the tokens in two tiles (BN 72, 80, 88 or 96) and 64-row tiles of
    # W, eight stages. N / 64 tiles of W by two of tokens make 64-128 blocks, a wave, where one tile
    # of tokens (the next rule) makes 32-64 and splits K to fill it; each tile of W crosses from L2
    # twice, the tokens' half tiles 9-12 KiB a stage. Swept at 136-184 rows at 4096 x 4096
    # (docs/results/m129_192_two_tiles_sweep_h200.json: 1.01x-1.05x cuBLAS against 0.89x-0.92x for
    # the rules before; thirteen stages gave no more than eight), then checked at 144-192 rows on
    # five weights (m129_192_two_tiles_check_h200.json), against one tile and the rules before in
    # the same rounds: ahead of the rules before at all 20 and of one tile at 19, level with it at
    # 144 x 4096 x 8192 (1.05x both); 144 x 2048 x 8192 0.96x against 0.66x, 160 x 4096 x 2048
    # 0.98x against 0.68x, 192 x 4096 x 8192 1.28x against 1.23x. At K = 11008 one tile was
    # ahead (0.96x-1.22x against 1.00x-1.25x), so longer K keeps the next rule. At 97-128 rows the
    # rules there were level or ahead at most shapes (120 x 2048 x 4096 0.97x against 1.11x).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(2048, 4096), k=(0, 8192),
           params={"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m129_192_two_tiles_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in H200_TWO_TOKEN_TILES),
    # fp16 / bf16 with 65-112 rows of a weight of 2048-4096 rows with K of 2048-4096, in the Linear
    # layout on the H200: the same two tiles of tokens (BN 40, 48 or 56, the narrowest that holds
    # half of them), 64-row tiles of W, eight stages, where the rules below ran before (one tile of
    # 96 tokens at N = 4096 and 65-96 rows). Swept at 72, 88, 96, 104 and 112 rows on six weights
    # (docs/results/m65_112_two_tiles_sweep_h200.json, graph replays, cold weights, two placements,
    # x cuBLAS, the rules before in the same rounds): ahead at all 20 shapes in the rule, by 0.02x
    # to 0.33x; for example 72 x 3072 x 4096 1.04x against 0.71x, 104 x 4096 x 2048 0.93x against
    # 0.69x, 112 x 4096 x 4096 1.10x against 0.94x, 96 x 4096 x 4096 1.07x against 1.02x, 88 x
    # 4096 x 4096 0.88x against 0.86x. At K = 8192 it was ahead at 72, 104 and 112 rows but behind
    # at 88 and 96 (0.96x against 1.06x), and at N = 6144 behind everywhere (0.75x-0.76x against
    # 0.77x-0.95x), so those keep the rules below. Twelve stages were ahead of eight at 3072 x
    # 4096 by 5-8%, behind at 2048 x 4096 and 4096 x 2048 by 1-4%. Checked at 68, 84, 100 and 108
    # rows on six weights it was not drawn from (2048^2, 2560^2, 3072^2, 3584^2, 4096 x 3072, 2560 x
    # 4096; m65_112_two_tiles_check_h200.json): ahead of the rules before at all 24, by 0.08x to
    # 0.38x (68 x 3072 x 3072 1.12x against 0.74x, 84 x 3584 x 3584 0.85x against 0.66x, 108 x 4096
    # x 3072 0.90x against 0.73x), 0.84x-1.12x cuBLAS. At 113-128 rows two tiles of 64 were level or
    # behind (m129_192_two_tiles_check_h200.json: 120 x 2048 x 4096 0.97x against 1.11x).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(2048, 4096),
           k=(2048, 4096), params={"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_112_two_tiles_sweep_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in H200_TWO_SMALL_TOKEN_TILES),
    # The same two tiles of 40-56 tokens at 65-112 rows of a weight of 1024-2047 rows (the key and
    # value projections of grouped-query attention; small models), with K of 1024-8192, where the
    # H100's decode/02 rule below ran before (128-row tiles of W: 8-16 of them, the K split filling
    # the wave). Swept at 68, 84, 100 and 110 rows on seven weights of 1024-1792 rows
    # (docs/results/m65_112_narrow_two_tiles_sweep_h200.json, graph replays, cold weights, two
    # placements, x cuBLAS, the rules before in the same rounds): ahead at all 24 shapes with K up to
    # 8192, for example 68 x 1024 x 4096 1.13x against 0.81x, 68 x 1536 x 1536 0.92x against 0.64x,
    # 84 x 1792 x 4096 0.97x against 0.78x, 110 x 1024 x 8192 0.95x against 0.81x, 100 x 1024 x 1024
    # 0.77x against 0.66x. At 1536 x 8960 behind the rules before at 100-110 rows (0.84x-0.89x
    # against 0.85x-0.91x), and one tile of 72-88 was ahead at 68-84 rows (0.92x-0.95x against
    # 0.84x-0.85x), so K past 8192 keeps the rules below. Checked at 66, 78, 94 and 106 rows on six
    # weights it was not drawn from (1024 x 1536 to 1920 x 2048 and 1152 x 8192;
    # m65_112_narrow_two_tiles_check_h200.json): ahead at all 24 by 0.11x-0.30x, 0.83x-1.17x cuBLAS
    # (66 x 1024 x 3072 1.14x against 0.84x, 78 x 1920 x 2048 0.97x against 0.71x). N below 1024
    # and K below 1024 were not measured.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(1024, 2047),
           k=(1024, 8192), params={"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_112_narrow_two_tiles_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in H200_TWO_SMALL_TOKEN_TILES),
    # The same at 113-192 rows of a weight of 1024-2047 rows: two tiles of 64-96 tokens, where the
    # H100's decode/02 rule ran (two or three tiles of 64 on 128-row tiles of W). Up to K = 3072
    # unsplit, 128 k a stage, the deepest ring that fits; beyond, the split last wave with eight
    # stages of 64 k. Swept at 120, 136, 160 and 184 rows on four weights
    # (docs/results/m113_192_narrow_two_tiles_sweep_h200.json): the split two tiles ahead of the
    # rules before at all 16 by 0.06x-0.24x (120 x 1024 x 4096 1.07x against 0.85x, 160 x 1024 x
    # 8192 1.21x against 1.07x); the unsplit ones further ahead at 120 x 1536 x 1536 (1.11x, against
    # 0.82x for the split and 0.67x for the rules before). Checked three times on weights they were not drawn from, the bounds moving with
    # each: the unsplit tiles ahead of the split at K of 1024-3072 (by 0.13x-0.32x at 1024-2048,
    # 0.03x-0.06x at 2560-3072), behind from K = 4096 (0.02x-0.04x there, 0.10x-0.35x at
    # 5120-8192; m113_192_narrow_two_tiles_check_h200.json, _check2); seven stages ahead of five
    # at BN 64 by 0.05x-0.11x (_rings). As shipped (_check3, 114-180 rows on six weights): ahead
    # of the rules before at all 24 by 0.03x-0.47x (140 x 1024 x 1024 1.10x against 0.63x, 114 x
    # 1792 x 1792 1.11x against 0.69x, 140 x 1280 x 7168 0.95x against 0.76x). Past K = 8192 the
    # split two tiles carry on at 129-192 rows (a rule below, m65_192_narrow_long_k); the unsplit
    # ones ran 0.02x-0.24x behind the rules before at 1536 x 8960.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(1024, 2047), k=k,
           params={"BM": 64, "BN": bn, **p}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m113_192_narrow_two_tiles_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in narrowest_token_tiles((113, 192), 2)
      for k, p in (((1024, 3072), {"BK": 128, "STAGES": _DEEPEST_128K_RING[bn], "IN_FLIGHT": 1, "SPLITS": 1}),
                   ((3073, 8192), {"BK": 64, "STAGES": 8, "IN_FLIGHT": 1}))),
    # The gaps the two rules above left at 65-112 rows of weights of 2048-4096 rows, where the H100's
    # decode/02 rule ran (two tiles of 64 tokens on 128-row tiles of W): K of 1024-2047 at 65-112
    # rows and K of 4097-8192 at 97-112 take the two tiles of 40-56; K from 4097 at 65-88 rows (N to
    # 4095; measured to 16383, and past it as _K_PAST_16383 says) one tile of 72-88 (the next rule's
    # choice from N = 4096). Swept at 72, 88 and 104
    # rows on seven weights (docs/results/m65_112_k_gap_sweep_h200.json, graph replays, cold
    # weights, two placements, x cuBLAS, the rules before in the same rounds): two tiles at 72 x
    # 3072 x 1536 1.02x against 0.61x, 88 x 2048 x 1024 0.86x against 0.62x, 104 x 3072 x 1536 0.98x
    # against 0.65x, 104 x 3072 x 8192 0.92x against 0.85x; one tile at 72 x 3072 x 8192 0.97x against
    # 0.61x, 72 x 3584 x 14336 1.01x against 0.70x, 88 x 2560 x 10240 1.00x against 0.84x. At 104
    # rows with K of 10240-14336 the two tiles of 56 on the H100's 128-row tiles of W ran 0.93x and
    # 0.89x, against 0.81x and 0.84x on 64-row tiles and 0.91x and 0.85x for the rule below, which
    # keeps them. (89-96 rows with K past 4096, N to 4095: the next rule.) Checked on
    # weights and rows they were not drawn from (m65_112_k_gap_check_h200.json): two tiles at K of
    # 1024-1536 ahead at all 15 by 0.19x-0.52x (68 x 2560 x 1024 1.14x against 0.63x, 108 x 4096 x
    # 1280 0.98x against 0.63x); at 97-112 rows with K of 5120-7168 ahead at six of eight by
    # 0.06x-0.10x, level at 100 x 2560 x 6144, 0.007x behind at 110 x 2560 x 6144 (0.829x against
    # 0.835x); one tile at K of 5120-12288 ahead at all 10 by 0.14x-0.30x (70 x 3840 x 6144 1.07x
    # against 0.77x).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k,
           params={"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_112_k_gap_*_h200.json; "
                f"{_K_PAST_16383})")
      for dt in ("bfloat16", "float16")
      for rows, bn, n, k in (*((m, bn, (2048, 4096), (1024, 2047)) for m, bn in H200_TWO_SMALL_TOKEN_TILES),
                             *((m, bn, (2048, 4096), (4097, 8192)) for m, bn in narrowest_token_tiles((97, 112), 2)),
                             *((m, bn, (2048, 4095), (4097, INF)) for m, bn in H200_EXACT_TOKEN_TILE))
      for m in (rows,)),
    # One tile of 96 tokens at 89-96 rows of a weight of 2048-4095 rows with K from 4097 (measured to
    # 16383, and past it as _K_PAST_16383 says), the gap
    # above's one tile carried to the rows it left (where the H100's decode/02 rule ran). Swept at 90
    # and 94 rows on four weights (docs/results/m89_96_k_past_4096_sweep_h200.json): ahead at all
    # eight by 0.12x-0.22x, 90 x 2560 x 10240 0.99x against 0.83x, 94 x 3072 x 8192 0.85x against
    # 0.66x, 90 x 3584 x 14336 1.02x against 0.80x; two tiles of 48 ran 0.78x-0.95x. Checked at 89,
    # 93 and 96 rows on five weights it was not drawn from (m89_96_k_past_4096_check_h200.json):
    # ahead at all 15 by 0.02x-0.20x (89 x 3840 x 8192 1.02x against 0.82x, 89 x 2304 x 12288 0.97x
    # against 0.78x), least at 3072 x 16383 (0.64x-0.65x against 0.62x-0.63x); 128-row tiles of W
    # behind at all 15.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(2048, 4095),
           k=(4097, INF), params={"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m89_96_k_past_4096_*_h200.json; "
                f"{_K_PAST_16383})")
      for dt in ("bfloat16", "float16") for m, bn in narrowest_token_tiles((89, 96))),
    # K past 16383 at 65-96 and 129-192 rows of weights of 4225-5632 rows (5120 x 27648, the down
    # projection of a 32B model): the next rules' one tile of tokens on 128-row tiles of W rather
    # than 64-row ones. There 64-row tiles make 67-88 tiles for 132 SMs, too many to split two
    # ways and too few to fill them (catalog.hopper.last_wave), where 128-row tiles split three
    # ways keep 102-132 busy. Drawn from the K-past-16383 sweep and its check (one tile on 128-row
    # tiles was a candidate in both; docs/results/k_past_16383_*_h200.json): ahead of the 64-row
    # tiles at 21 of 22 shapes at 4608 and 5120 rows, by 0.01x-0.08x at 65-96 rows (88 x 5120 x
    # 27648 0.98x against 0.90x) and 0.07x-0.14x at 129-192 rows (190 x 5120 x 25600 0.97x against
    # 0.82x), level at 72 x 5120 x 16384 (1.00x both). Checked at 66-180 rows on six weights it was
    # not drawn from (4352 x 20480 to 5632 x 17408, 4480 x 32768;
    # docs/results/k_past_16383_bm128_check_h200.json): ahead of the 64-row tiles at all 42, by
    # 0.01x-0.08x at 65-96 rows and 0.03x-0.21x at 129-192 (162 x 5376 x 24576 0.97x against 0.76x).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(4225, 5632),
           k=(16384, INF), params=_h200_one_token_tile(bn, 128, stages), device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/k_past_16383_*_h200.json, "
                "k_past_16383_bm128_check_h200.json)")
      for dt in ("bfloat16", "float16")
      for m, bn, stages in (*((m, bn, 8) for m, bn in narrowest_token_tiles((65, 96))),
                            *((m, bn, wide) for m, bn, _, wide in H200_ONE_TOKEN_TILE if m[0] > 96))),
    # fp16 / bf16 with 65-88 rows of a weight of 4096-12287 or 16385-32768 rows in the Linear layout
    # on the H200: the next rule's one tile of tokens, narrowed to the narrowest atom that holds them
    # (72, 80 or 88 where it took 96). The same kernel with the same tiles of W, at the same bytes,
    # ran slower the emptier its tile of 96 (72 x 8192 x 8192: 44.8 us at 72 rows, 38.7 us at 88,
    # 37.8 us with a tile of 72). Swept at 68, 72, 76, 80, 84 and 88 rows on up to nine weights
    # (docs/results/m65_88_exact_token_tile_sweep_h200.json, graph replays, cold weights, two
    # placements, x cuBLAS, the rule below in the same rounds): ahead or level at every shape,
    # most where the tile of 96 was emptiest: 68 x 6144 x 4096 0.93x against 0.70x, 68 x 8192 x
    # 8192 0.98x against 0.78x, 68 x 10240 x 8192 1.10x against 0.87x, 76 x 5120 x 5120 0.91x
    # against 0.73x, 80 x 6144 x 4096 0.94x against 0.89x, 84 x 5120 x 5120 0.91x against 0.86x,
    # 68 x 32000 x 4096 (128-row tiles of W) 1.01x against 0.98x; level at 84 x 22016 x 8192
    # (0.95x both). Checked at 66, 71, 74, 79, 82 and 87 rows on six weights it was not drawn from
    # (4096 x 8192 to 28672 x 8192; m65_88_exact_token_tile_check_h200.json): ahead at 28 of 36 by
    # 0.01x-0.25x, level (within 0.01x) at 8, never behind; 66 x 6144 x 6144 0.92x against 0.68x, 71
    # x 7168 x 4096 0.98x against 0.78x, 66 x 4096 x 8192 1.05x against 0.86x. At 89-96 rows the
    # tile of 96 is the narrowest.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=(0, INF),
           params=_h200_one_token_tile(bn, bm, 8), device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_88_exact_token_tile_*_h200.json; "
                f"{_K_PAST_16383})")
      for dt in ("bfloat16", "float16") for m, bn in H200_EXACT_TOKEN_TILE
      for n, bm in (((4096, 12287), 64), ((16385, 32768), 128))),
    # fp16 / bf16 with 65-96 and 129-192 rows in the Linear layout on the H200: decode/02 with every
    # token in one tile, BN the narrowest wgmma atom that holds them (96 at 65-96 rows, where the
    # rule above now takes 72-88 at 65-88; 144, 160, 176 or 192 at 129-192), so that each tile of W
    # crosses from L2 into shared memory once (in tiles of 64 tokens it crossed two or three times).
    # Narrower weights take 64-row tiles of W
    # with the deepest ring that fits (7-8 stages of 64 k), wider ones 128-row tiles (5-8 stages),
    # which make fewer, fuller tiles. Between the weights measured, the bounds were put at N =
    # 8192 | 8193 (129-192 rows; measured 8192 and 10240) and 12287 | 12288, 16384 | 16385 (65-96
    # rows; measured 10240, 12288-16384 and 22016). Swept on an H200 at 72-184 rows on six
    # weights, five tilings of W each (scripts/decode_sweep.py, graph replays, cold weights, two
    # placements, x cuBLAS, the rules before in the same rounds;
    # docs/results/m129_192_wide_tokens_first_sweep_h200.json, m65_192_wide_tokens_sweep_h200.json),
    # then checked at 80-192 rows on eight weights it was not drawn from
    # (m65_192_wide_tokens_check_h200.json), which also set the N bounds. Against the rules before
    # (rung 06 in 64 x 192 tiles; the H100's decode/02 rule at N = 4096; 64 x 128 clusters):
    #   * 129-192 rows, N 4096-8192, 64-row tiles: 136 x 4096 x 4096 0.92x against 0.66x, 136 x
    #     8192 x 8192 0.94x against 0.66x, 152 x 4096 x 14336 0.98x against 0.76x, 168 x 6144 x
    #     4096 1.22x against 1.05x; checked: 144 x 5120 x 5120 0.99x against 0.73x, 160 x 7168 x
    #     4096 0.92x against 0.71x, 176 x 4096 x 11008 1.07x against 0.89x. Behind at one of 28:
    #     184 x 4096 x 4096 0.93x against 0.95x (level at 192 x 5120 x 5120, 0.91x).
    #   * 129-192 rows, N 8193-32768, 128-row tiles: 136 x 28672 x 8192 0.95x against 0.50x, 184 x
    #     14336 x 4096 0.96x against 0.83x; checked: 144 x 10240 x 8192 1.30x against 0.94x, 160 x
    #     22016 x 8192 0.89x against 0.57x, 192 x 12288 x 4096 1.14x against 0.99x, 176 x 32000 x
    #     4096 0.98x against 0.68x. Behind at one of 28: 192 x 10240 x 8192 0.92x against 0.93x
    #     (the 64-row tiles ran 0.97x there). The clusters of two were ahead at some (32000 x 4096)
    #     and far behind at 22016 x 8192 (0.72x-0.76x).
    #   * 65-96 rows, N 4096-12287, 64-row tiles of W by 96 tokens: 96 x 4096 x 4096 1.04x against
    #     0.89x, 72 x 4096 x 14336 0.96x against 0.90x, 96 x 8192 x 8192 1.00x against 0.93x;
    #     checked: 80 x 4096 x 11008 1.03x against 0.88x, 88 x 5120 x 5120 0.89x against 0.74x, 80 x
    #     10240 x 8192 1.04x against 0.80x. Ahead at all 16 measured.
    #   * 65-96 rows, N 16385-32768, 128-row tiles by 96 tokens: 72 x 28672 x 8192 0.98x against
    #     0.74x; checked: 80 x 22016 x 8192 0.92x against 0.78x, 88 x 32000 x 4096 0.97x against
    #     0.88x. Ahead at all 6. At 12288-16384 rows of W the clusters of 64 x 256 tiles below stay:
    #     there the three tilings ran 0.89x-0.91x against 0.89x (80 x 12288 x 4096) and 0.90x-0.95x
    #     against 0.94x (88 x 13824 x 5120).
    # (At N = 4096 with K up to 8192 the two-tile rules above take over at 129-192 rows, 184 x 4096
    # x 4096 too, and with K of 2048-4096 at 65-96 rows, 96 x 4096 x 4096 too.)
    # 97-128 rows keep the rules below: there tiles of 128 tokens were level or behind them at most
    # shapes (112 x 8192 x 8192 0.96x against 1.01x, 104 x 7168 x 4096 0.79x against 0.94x).
    # bf16 measured; fp16 runs the same kernel at the same bytes. The H100 keeps its rules (not
    # measured there).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=(0, INF),
           params=_h200_one_token_tile(bn, bm, stages), device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_192_wide_tokens_*_h200.json; "
                f"{_K_PAST_16383})")
      for dt in ("bfloat16", "float16")
      for m, bn, deep, wide in H200_ONE_TOKEN_TILE
      for n, bm, stages in ((((4096, 8192), 64, deep), ((8193, 32768), 128, wide)) if m[0] > 96 else
                            (((4096, 12287), 64, deep), ((16385, 32768), 128, wide)))),
    # fp16 / bf16 with K of 8193-16384 (at 129-192 rows, any K from 8193: _K_PAST_16383) at 97-192
    # rows of a weight of 2048-4095 rows in the Linear layout on the H200, past the two-tile rules'
    # K, where the H100's decode/02 rule ran (two or three tiles of 64 tokens on 128-row tiles of
    # W): at 129-192 rows the one tile of the rule above on 64-row tiles of W; at 97-112 rows two
    # tiles of 56 on the H100's 128-row tiles, on weights from 1024 rows (the next rule's sweep
    # measured those).
    # Swept at 104, 144, 176 and 192 rows on four weights (2048 x 16384 to 3584 x 14336;
    # docs/results/m97_192_long_k_sweep_h200.json): one tile ahead of the rules before at all 12 by
    # 0.05x-0.38x (144 x 3584 x 14336 0.96x against 0.58x, 192 x 3072 x 11008 1.03x against 0.84x)
    # and of the better of two tiles on either tiling of W at 11 by 0.01x-0.06x, level at 192 x
    # 2048 x 16384; at 104 rows two tiles of 56 on 128-row tiles ahead at all four by 0.03x-0.07x
    # (104 x 2048 x 16384 0.91x against 0.84x), of 64-row tiles at all four and of one tile of 128
    # at three (level at 104 x 2048 x 16384). Checked at 100-184 rows on five weights it was not drawn
    # from (m97_192_long_k_check_h200.json): two tiles of 56 ahead at all 10 by 0.02x-0.07x (100 x
    # 3328 x 10240 0.91x against 0.84x); one tile ahead at all 15 by 0.02x-0.48x (136 x 3840 x 16000
    # 0.98x against 0.50x), of two tiles on 128-row tiles at 11, level at 3, behind them at 184 x
    # 2304 x 12288 (0.936x against 0.955x).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k,
           params=p, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m97_192_long_k_*_h200.json, "
                f"m65_192_narrow_long_k_sweep_h200.json; {_K_PAST_16383})")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (*((m, (1024, 4095), (8193, 16384), {"BM": 128, "BN": bn, "BK": 128, "STAGES": 4,
                                                              "IN_FLIGHT": 1})
                           for m, bn in narrowest_token_tiles((97, 112), 2)),
                         *((m, (2048, 4095), (8193, INF), _h200_one_token_tile(bn, 64, deep))
                           for m, bn, deep, _ in H200_ONE_TOKEN_TILE if m[0] > 96))),
    # The same K of 8193-16384 on weights of 1024-2047 rows (the key and value projections of
    # grouped-query attention, a small model's down projection: 1536 x 8960), where the H100's
    # decode/02 rule ran: one tile of 72-88 tokens at 65-88 rows, two tiles of 72-96 split over K at
    # 129-192 (the narrow weights' rule past K = 8192); at 97-112 rows the rule above reaches these
    # weights with its two tiles of 56 on 128-row tiles of W. One run at 68, 84, 104, 120, 144 and 176 rows on six
    # weights (docs/results/m65_192_narrow_long_k_sweep_h200.json), the rules drawn from three
    # (1536 x 8960, 1024 x 11008, 2047 x 14336) and held to the other three (1280 x 10240, 1792 x
    # 12288, 1152 x 16384), chosen before the run: at 65-88 rows ahead of the rules before at all
    # ten by 0.10x-0.27x (held out 0.12x-0.27x; 68 x 1792 x 12288 0.95x against 0.72x), at 97-112
    # at all five by 0.02x-0.13x (held out 0.02x-0.13x), at 129-192 at all ten by 0.05x-0.25x
    # (held out 0.06x-0.25x; 144 x 1152 x 16384 0.91x against 0.66x). At N = 2047 cuBLAS runs
    # slowly (every candidate 2.6x-6.3x its speed), so those shapes count in no range though they
    # agree. (89-96 and 113-128 rows: the next rule.)
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(1024, 2047),
           k=(8193, 16384), params=p, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_192_narrow_long_k_sweep_h200.json)")
      for dt in ("bfloat16", "float16")
      for m, p in (*((m, _h200_one_token_tile(bn, 64, 8)) for m, bn in H200_EXACT_TOKEN_TILE),
                   *((m, {"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1})
                     for m, bn in narrowest_token_tiles((129, 192), 2)))),
    # The rows the rule above left, where the H100's decode/02 rule still ran: at 89-96 rows its one
    # tile, here of 96 tokens; at 113-128 rows its two split tiles (of 64) on weights of 1024-1439
    # rows, and one tile of 128 tokens on weights of 1440-2047 rows. One sweep at 90, 96, 114, 120
    # and 128 rows on seven weights (1024 x 11008 to 1920 x 14336), then one at 92, 116 and 124 rows
    # on seven more (1088 x 12288 to 1984 x 13824) that put the bound on N between 1408 (two tiles
    # ahead) and 1472 (one tile ahead); docs/results/m89_128_narrow_long_k_sweep_h200.json, graph
    # replays, cold weights, two placements, x cuBLAS, the rules before in the same rounds. Against
    # them: one tile of 96 ahead at all 21 shapes by 0.07x-0.22x (90 x 1024 x 16384 0.90x against
    # 0.69x), though two split tiles of 48 were ahead of it at five shapes of three weights of
    # 1024-1280 rows with K up to 11008 (by 0.01x-0.08x; and by 0.008x at 96 x 1024 x 16384); at
    # 113-128 rows two tiles ahead at all 20 shapes of 1024-1408 rows by 0.03x-0.22x (120 x 1024 x
    # 16384 0.93x against 0.71x), one tile of 128 at all 15 of 1472-1984 rows by 0.01x-0.12x (124 x
    # 1472 x 16384 0.90x against 0.79x). (At 1152 x 16384 one tile of 128 ran 0.01x ahead of the two
    # tiles, which the bound gives it.)
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=(8193, 16384),
           params=p, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m89_128_narrow_long_k_sweep_h200.json)")
      for dt in ("bfloat16", "float16")
      for m, n, p in (*((m, (1024, 2047), _h200_one_token_tile(bn, 64, 8)) for m, bn in narrowest_token_tiles((89, 96))),
                      *((m, (1024, 1439), {"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1})
                        for m, bn in narrowest_token_tiles((113, 128), 2)),
                      ((113, 128), (1440, 2047), _h200_one_token_tile(128, 64, 8)))),
    # 65-192 rows of weights of 128-1023 rows (the key and value projections of small models with
    # grouped-query attention: 512 x 3584, 256 x 3584, 128 x 896), where the H100's decode/02 rule
    # ran: two tiles of tokens on 64-row tiles of W, eight stages of 64 k, the last wave split (the
    # choice of the rules above at 113-192 rows of weights of 1024-2047 rows past K 3072). With 2-16
    # tiles of W, each tile's K is split over several SMs either way; the narrow token tiles make
    # each part carry half the tokens' bytes. One run at 80, 120 and 160 rows on six weights of
    # 512-1000 rows (512 x 3584 to 1000 x 14336; docs/results/m65_192_narrow_weights_sweep_h200.json,
    # graph replays, cold weights, two placements, x cuBLAS, the rules before in the same rounds):
    # ahead at all 18 by 0.07x-0.29x (80 x 896 x 4864 1.08x against 0.78x, 120 x 896 x 896 0.76x
    # against 0.62x), and ahead of one tile of all the tokens at all 18. Checked at 68-188 rows on
    # six others (m65_192_narrow_weights_check_h200.json): ahead at all 24 by 0.04x-0.37x. Then at 80
    # and 140 rows on six weights of 128-448 rows (m65_192_narrow_weights_under_512_sweep_h200.json):
    # ahead at all 12 by 0.08x-0.23x (80 x 256 x 3584 1.17x against 0.95x, 140 x 128 x 896 0.74x
    # against 0.63x); checked at 68-188 rows on six weights it was not drawn from
    # (m65_192_narrow_weights_under_512_check_h200.json): ahead at all 24 by 0.015x-0.23x (68 x 128 x
    # 4096 1.09x against 0.86x), least at 188 rows.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=(128, 1023), k=(896, 16384),
           params={"BM": 64, "BN": bn, "BK": 64, "STAGES": 8, "IN_FLIGHT": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_192_narrow_weights_*_h200.json)")
      for dt in ("bfloat16", "float16") for m, bn in narrowest_token_tiles((65, 192), 2)),
    # fp16 / bf16 with 65-128 rows in the Linear layout on the H200, where the rule above does not
    # reach: rung 06 in tiles of 64 rows with deep rings. Here the weight is read from HBM about
    # once, and what sets the speed is how many of its bytes each SM keeps in flight and how full
    # the one wave is: the H100's choices below (decode/02 with 128-row tiles of W, four stages;
    # 128 x 128 tiles) ran 0.52x-0.97x cuBLAS. Swept on an H200 at 80-192 rows over 35 choices of
    # rung 06 (scripts/decode_sweep.py, graph replays, cold weights, x cuBLAS, the rules before in
    # the same rounds; docs/results/m65_192_sweep_h200.json, m65_192_sweep2_h200.json), then checked
    # at 72-184 rows on eight weights it was not drawn from, two placements each
    # (m65_192_rule_check_h200.json), which also set the bounds on N and K. (Its 64 x 192 tiles at
    # 129-192 rows, and 128 x 128 tiles at 65-96 rows of N = 4096 and K of 11008-16383, gave way
    # to the rule above.) This rule against the rules before:
    #   * 97-128 rows, N 5120-8192: 2-block clusters of 64 x 128 tiles (the two tile rows share
    #     each tile of W, multicast), seven stages, a k-tile in flight: 112 x 8192 x 8192 1.01x
    #     against 0.87x, 128 x 6144 x 4096 0.90x against 0.84x; checked: 120 x 8192 x 2048 1.06x
    #     against 0.93x. (The rule measured from 65 rows; the rule above takes 65-96.)
    #   * 65-96 rows, N 12288-16384: clusters of 64 x 256 tiles, five stages: 80 x 14336 x 4096
    #     0.94x against 0.82x; checked: 72 x 12288 x 4096 0.89x against 0.70x, 88 x 16384 x 4096
    #     0.96x against 0.89x. From 104 rows level or behind the 128 x 128 tiles below (112 x
    #     14336 x 4096 0.95x against 0.96x).
    #   * 97-128 rows, N = 4096 with K of 11008-16383 (the down projection's shape): 128 x 64 tiles
    #     with eight stages (112 x 4096 x 14336 1.01x against 0.93x, 128 x 4096 x 14336 1.00x
    #     against 0.94x; checked 120 x 4096 x 11008 1.04x against 0.97x), ahead of decode/02's
    #     64-row tiles of the next rule there.
    # bf16 measured; fp16 runs the same kernel at the same bytes. The H100 keeps its rules (not
    # measured there).
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=k, params=p,
           device=_H200, note="measured on an H200 by scripts/decode_sweep.py (docs/results/m65_192_*_h200.json; "
                               f"{_K_PAST_16383})")
      for dt in ("bfloat16", "float16")
      for m, n, k, p in (
          ((97, 128), (4096, 4096), (11008, 16383), _H200_128X64_S8),
          ((97, 128), (5120, 8192), (0, 16383), _H200_64X128_C2),
          ((65, 96), (12288, 16384), (0, INF), _H200_64X256_C2),
      )),
    # fp16 / bf16 with 113-128 rows and N of 2048-4096 in the Linear layout on the H200: decode/02
    # with 64-row tiles of W, seven stages, a k-tile of wgmma in flight and the last wave split.
    # Two 64-token tiles (the second at least three quarters full) on N / 64 tiles of W make 64-128
    # blocks, where the 128-row tiles of the H100's rule below make half as many. Swept on an H200
    # (scripts/decode_sweep.py, graph replays, cold weights, two placements each, x cuBLAS;
    # docs/results/decode_sweep_m128_h200.json): 128 x 4096 x 4096 1.03x against 0.87x for the rule
    # below, 128 x 4096 x 14336 0.95x against 0.92x; at 96 rows and at N of 6144 and 8192 the rule
    # below stayed ahead. Checked on shapes it was not drawn from
    # (docs/results/decode_m128_rule_check_h200.json): at 120 and 128 rows faster at all ten
    # (2048 x 4096 1.09x-1.10x against 0.85x-0.86x, 3072 x 4096 0.88x-0.90x against 0.74x, 4096 x
    # 2048 1.01x-1.03x against 0.75x-0.78x, 4096 x 8192 1.03x against 0.97x-0.99x, 4096 x 11008
    # 0.96x against 0.93x-0.94x); at 112 rows faster at three of five, level at 4096 x 8192 and
    # 0.8% slower at 4096 x 11008; at 80-104 rows slower at most shapes.
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=(113, 128), n=(2048, 4096),
           k=(0, 16383), params={"BM": 64, "BK": 128, "STAGES": 7, "IN_FLIGHT": 1, "SPLITS": 1}, device=_H200,
           note="measured on an H200 by scripts/decode_sweep.py (docs/results/decode_sweep_m128_h200.json)")
      for dt in ("bfloat16", "float16")),
    # fp16 / bf16 with 65-192 rows in the Linear layout on the H100 SXM: decode/02 (swap AB, W on
    # wgmma's M side, the tokens in tiles of 64 on its N side) with 128-row tiles of W, rather
    # than the Hopper ladder's 128 x 128 tiles, whose one or two tile-rows leave the SMs short of
    # work. scripts/decode_sweep.py, graph replays, cold weights, two placements each, x cuBLAS
    # (docs/results/decode_sweep_m128_h100.json at M = 96, 128, 192, 256; the rule then checked
    # at M = 80, 112, 160, 176 on other weights, docs/results/decode_m128_rule_check_h100.json):
    #   * 129-192 rows, every N: faster at all 21 shapes measured, 0.64x-0.98x cuBLAS against
    #     0.51x-0.95x (160 x 5120 x 5120: 0.79x against 0.51x);
    #   * 65-128 rows with N <= 8192: faster at 15 of 18, level at one, slower at 96 x 8192 x 8192
    #     (0.90x against 0.92x) and 80 x 5120 x 5120 (0.73x against 0.77x); 128 x 6144 x 4096
    #     0.93x against 0.79x, 112 x 4096 x 4096 0.80x against 0.71x. Wider weights at 65-128 rows
    #     keep the 128 x 128 tiles (N = 11008: 0.83x-0.89x against 0.93x-0.97x; 14336: 1.00x
    #     against 0.85x-0.96x).
    # At 256 rows the 128 x 128 tiles were faster everywhere but 4096 x 4096. K to 16383: the
    # llm suite's 128 x 8192 x 28672 ran 1.018x cuBLAS on decode/02, 1.056x on the 128 x 128
    # tiles in the run before (docs/results/hopper_llm_auto_m128_h100.json,
    # hopper_llm_auto_bn192_h100.json).
    *(Rule("decode/02_swap_ab_wgmma", dt, capability=(90, 90), layouts=_LINEAR, m=m, n=n, k=(0, 16383),
           params={"BM": 128, "BK": 128, "STAGES": 4, "IN_FLIGHT": 1}, device=_132_SMS,
           note="measured on an H100 by scripts/decode_sweep.py (docs/results/decode_sweep_m128_h100.json)")
      for m, n in (((65, 128), (0, 8192)), ((129, 192), (0, INF))) for dt in ("bfloat16", "float16")),
    # fp16 / bf16 with 193-256 rows in the Linear layout on the H200, since rung 06 loads A's ragged
    # last tile-row through boxes that stop at the edge (docs/hopper.md, "A's ragged last
    # tile-row"): the H100's choices there (128 x 128 tiles; 64 x 128 on grids of half a wave or
    # less) gave way, in a sweep of eight tilings at 193, 208, 224 and 248 rows of eight weights
    # (scripts/decode_sweep.py, graph replays, cold weights, two placements, x cuBLAS;
    # docs/results/m193_256_edge_sweep_h200.json), to
    #   * 256 x 128 tiles (one tile-row) at N 12288-16384 with K 4096-8192 (14336 x 4096: 0.83x-0.97x
    #     against 0.69x-0.80x) and at N 4096-8192 with K from 14336 (8192 x 28672: 0.84x-0.98x
    #     against 0.78x-0.91x; 4096 x 14336 0.82x-0.99x against 0.80x-0.96x);
    #   * 128 x 176 tiles at N 20480-32768 with K 4096-8192 (28672 x 8192: 0.87x-1.04x against
    #     0.80x-0.94x);
    #   * 128 x 128 tiles where 64 x 128 ran, at N 3072-4096 with K = 4096 (4096 x 4096:
    #     0.78x-0.88x against 0.75x-0.84x).
    # Checked at 196, 216, 232 and 256 rows of twelve weights they were not drawn from, against
    # the choices before them in the same rounds (docs/results/m193_256_edge_check_h200.json):
    # ahead at all 36 shapes of the first three buckets, by 0.007x-0.21x (13824 x 5120 0.82x-1.00x
    # against 0.69x-0.83x; 22016 x 4096 at 216 rows 1.32x against 1.11x; 4096 x 16384 by
    # 0.02x-0.04x), and at 3072 x 4096 by 0.05x-0.06x. At 24576 x 6144 and 32768 x 8192 the 128 x
    # 256 tiles led the 128 x 176 ones by 0.03x-0.05x; not taken (one rule for both widths was
    # not found). With K of 2048 and 3072 at N = 4096 the 64 x 128 tiles stayed ahead (by
    # 0.10x-0.11x and 0.01x-0.03x), so the last bucket takes K = 4096 only.
    # bf16 measured; fp16 runs the same kernel at the same bytes.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), layouts=_LINEAR, m=(193, 256), n=n, k=k,
           params=p, device=_H200, note="measured on an H200 by scripts/decode_sweep.py "
                                        "(docs/results/m193_256_edge_*_h200.json)")
      for dt in ("bfloat16", "float16")
      for n, k, p in (
          ((12288, 16384), (4096, 8192), {"BM": 256, "BN": 128}),
          ((4096, 8192), (14336, INF), {"BM": 256, "BN": 128}),
          ((20480, 32768), (4096, 8192), {"BN": 176}),
          ((3072, 4096), (4096, 4096), {"BN": 128}),
      )),
    # fp16 / bf16 on Hopper (sm_90): wgmma fed by TMA, persistent, TMA-store epilogue.
    # Grids of half a wave or less (H100 SXM, 193-8192 rows, N of 256-4096, K up to 4096): the tile
    # of rung 06 that makes the most tiles within one wave (one_wave_tile), single blocks. Against
    # the rules before it in the same rounds (bf16 and fp16, x cuBLAS in CUDA-graph replays;
    # docs/results/hopper_small_sweep_h100.json, hopper_mid_sweep_h100.json, hopper_edge_*_h100.json,
    # hopper_one_wave_*_h100.json, hopper_narrow_*_h100.json): 64 x 128 at 1024^3 0.87x against
    # 0.51x, at 1280 x 768 x 1024 0.90x against 0.49x, at 2048 x 384 x 1024 0.82x against 0.45x;
    # 128 x 128 at 2048 x 1024 x 2048 0.93x against 0.60x, at 4096 x 512 x 2048 0.86x against 0.58x,
    # at 6144 x 256 x 1024 0.88x against 0.60x. Longer K keeps the split last wave of the rules
    # below (1024 x 1024 x 8192: 0.88x against 0.78x for 64 x 128 tiles). Where 64 x 128 tiles make
    # 66 or fewer and K <= 2048, 64 x 64 tiles (docs/results/hopper_tiny_h100.json, bf16 / fp16,
    # events / graphs): 512 x 1024 x 1024 0.89x / 0.92x against 0.71x / 0.62x, 384 x 1024 x 1024
    # 0.90x / 0.90x against 0.68x / 0.61x, 1024 x 512 x 2048 0.79x / 0.80x against 0.70x / 0.70x,
    # 256 x 2048 x 2048 0.75x / 0.76x against 0.66x / 0.69x.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(193, 8192), n=(256, 4096), k=(0, 4096),
           params=params, device=_132_SMS, shape=lambda m, n, k, tile=tile: one_wave_tile(m, n, k) == tile,
           note=f"the Hopper ladder's last rung with {tile[0]} x {tile[1]} tiles on a grid of half a wave or "
                "less (docs/results/hopper_one_wave_*_h100.json, hopper_tiny_h100.json)")
      for tile, params in (((64, 128), {"BM": 64, "BN": 128}), ((128, 128), {"BN": 128}),
                           ((64, 64), {"BM": 64, "BN": 64}))
      for dt in ("bfloat16", "float16")),
    # Few tile-rows: 128 x 128 tiles make twice the tiles of 128 x 256 (and the last wave's K
    # split covers the rest): at M = 128 in the llm suite, a median 1.16x the 128 x 256 tile's
    # speed on the H100 (CUDA-graph replays where measured; docs/results/hopper_llm_h100.json).
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(65, 256), params={"BN": 128},
           note="the Hopper ladder's last rung with 128 x 128 tiles (docs/results/hopper_llm_*.json)")
      for dt in ("bfloat16", "float16")),
    # 257 rows or more where 128 x 192 tiles fill the waves far better than 128 x 256 (at least
    # 90% of them and 1.2 times as full, _fuller_waves_at_bn192): single blocks of 128 x 192. On
    # the H100 SXM every such shape measured was 1.06-1.35x faster than the choice of the rules
    # below, single blocks or clusters, and 0.90-1.05x cuBLAS (0.95-1.06x as CUDA-graph replays):
    # 1024 x 6144 x 4096 0.994x against 0.854x, 768 x 4096 x 4096 0.973x against 0.767x, 1536 x
    # 2048 x 8192 1.009x against 0.780x, 4608 x 2048 x 2048 0.963x against 0.722x (bf16, events;
    # 19 shapes of M 384-4608, N 2048-14336, K 2048-8192, and three in fp16;
    # docs/results/hopper_bn192_check_h100.json, hopper_bn192_check2_h100.json,
    # hopper_bn192_check_fp16_h100.json). Where the fill gains
    # less (1024 x 14336 x 4096: 91% against 85%) 128 x 256 stayed faster (0.961x against 0.942x).
    # Measured in the Linear layout only (B = W.t()): the other layouts keep the rules below.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), layouts=_LINEAR, m=(257, INF), n=(2048, 16383),
           params={"BN": 192}, device=_132_SMS, shape=_fuller_waves_at_bn192,
           note="the Hopper ladder's last rung with 128 x 192 tiles where they fill the waves "
                "(docs/results/hopper_bn192_check*_h100.json)")
      for dt in ("bfloat16", "float16")),
    # 384 to 1024 rows on the H200 where 128 x 176 tiles fill the waves (at least 90% of them and
    # 1.05 times as full as 128 x 256, fuller_waves_at_bn176), in the Linear layout: single blocks
    # of 128 x 176 (B read K-major in place). Drawn from two runs, bf16, x cuBLAS, against the rules
    # below (docs/results/hopper_bn176_sweep_h200.json): 1024 x 14336 x 4096 0.964x / 0.966x against
    # 0.925x / 0.926x, 1024 x 14336 x 2048 0.926x / 0.927x against 0.857x / 0.861x, 1024 x 11008 x
    # 4096 0.945x / 0.941x against 0.892x / 0.888x, 1024 x 5120 x 4096 0.890x / 0.888x against 0.819x
    # / 0.818x, 768 x 14336 x 4096 0.942x twice against 0.891x twice, 512 x 28672 x 4096 0.953x /
    # 0.956x against 0.926x / 0.930x; fp16 at 1024 x 14336 x 4096 0.967x against 0.929x. From 1280
    # rows the 128 x 256 tiles of the rules below (clusters or held single blocks) stayed ahead at
    # every shape measured, even where 176 filled the waves better (1280 x 8192 x 4096 0.877x
    # against 0.929x, 2048 x 11008 x 4096 0.980x against 1.017x). Checked on shapes it was not
    # drawn from (docs/results/hopper_bn176_rule_check_h200.json, two runs): 384 x 14336 x 4096
    # 0.925x twice against 0.839x / 0.835x, 512 x 5120 x 4096 0.977x / 0.975x against 0.731x /
    # 0.733x, 1000 x 14336 x 4096 0.969x / 0.967x against 0.928x twice, 896 x 16384 x 4096 0.969x /
    # 0.967x against 0.926x / 0.924x; level at 768 x 28672 x 4096 (1.023x twice against 1.027x);
    # fp16 0.931x against 0.845x at 384 x 14336. Below 384 rows (a part tile row of three) it lost:
    # 300 x 28672 x 4096 0.697x against 0.817x, before the edge boxes (the next rule). Not measured
    # on the H100.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), layouts=_LINEAR, m=(384, 1024), n=(4097, INF),
           params={"BN": 176}, device=_H200, shape=fuller_waves_at_bn176,
           note="the Hopper ladder's last rung with 128 x 176 tiles where they fill the waves "
                "(docs/results/hopper_bn176_sweep_h200.json, hopper_bn176_rule_check_h200.json)")
      for dt in ("bfloat16", "float16")),
    # The same test from 257 rows and at N = 4096, since rung 06 loads a ragged last tile-row
    # through boxes that stop at A's edge (docs/hopper.md, "A's ragged last tile-row"): the loss at
    # 300 x 28672 x 4096 above was that tile-row's zero fill. In a sweep of nine tilings at 300-1000
    # rows of eight weights with the edge boxes (docs/results/m257_1023_edge_sweep_h200.json), the
    # test fired at four shapes the rule above left out, and 128 x 176 led there: 520 and 640 x 4096
    # x 4096 0.81x / 0.93x against 0.61x / 0.70x, the same rows of 4096 x 14336 0.79x / 0.92x
    # against 0.57x / 0.66x, 300 x 14336 x 4096 0.85x against 0.77x, 300 x 28672 x 8192 0.86x
    # against 0.80x. Checked where it fires on weights the sweep had not measured, against the
    # choices before in the same rounds (docs/results/m257_1023_edge_check_*_h200.json): ahead at
    # all 27 shapes, at 530-640 rows of 4096-wide weights with K of 2048-11008 by 0.20x-0.23x
    # (640 x 4096 x 2048 0.95x against 0.72x), at 264-380 rows of 7168-29568-row weights by
    # 0.03x-0.24x (380 x 7168 x 8192 0.96x against 0.72x; 264-380 x 28672 x 4096, where it had
    # lost, by 0.04x). 128 x 192 tiles led it by 0.01x-0.02x at 29568 x 8192.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), layouts=_LINEAR, m=(257, 1024), n=(4096, INF),
           params={"BN": 176}, device=_H200, shape=fuller_waves_at_bn176,
           note="the Hopper ladder's last rung with 128 x 176 tiles where they fill the waves, from 257 rows "
                "(docs/results/m257_1023_edge_*_h200.json)")
      for dt in ("bfloat16", "float16")),
    # 2048 rows or more on the H200 where 2-block clusters of 128 x 176 tiles fill their waves (at
    # least 97% and 1.05 times as full as clusters of 128 x 256, fuller_cluster_waves_at_bn176), in
    # the Linear layout. Drawn from 3072 x 14336, two runs, bf16, x cuBLAS, against the 128 x 256
    # clusters of the rules below (docs/results/hopper_bn176_clusters_h200.json): 0.961x / 0.962x
    # against 0.929x / 0.931x at K = 4096, 0.970x / 0.972x against 0.943x / 0.948x at K = 8192.
    # Where they fill no better they lost (4096 x 14336 x 4096 0.999x / 0.990x against 1.015x /
    # 1.004x, 3072 x 11008 x 4096 0.940x / 0.931x against 0.999x / 0.990x). Checked on shapes the
    # rule was not drawn from (hopper_bn176_cluster_rule_check_h200.json): 2560 x 13824 x 4096
    # 1.032x twice against 0.987x / 0.985x, 2560 x 13824 x 8192 1.051x / 1.024x against 0.990x /
    # 0.980x, 3584 x 12288 x 4096 0.956x / 0.957x against 0.933x / 0.931x, 6144 x 5120 x 4096
    # 0.971x twice against 0.947x / 0.948x, 3072 x 14336 x 2048 0.934x / 0.931x against 0.918x /
    # 0.906x. Through the rule (auto), one run (hopper_bn176_cluster_rule_auto_h200.json): fp16
    # 3072 x 14336 x 4096 0.950x against 0.927x, 2560 x 13824 x 4096 0.994x against 0.946x, 6144 x
    # 5120 x 4096 0.966x against 0.943x; bf16 0.955x against 0.929x and 1.036x against 0.976x. Not
    # measured on the H100.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), layouts=_LINEAR, m=(2048, INF), n=(4097, INF),
           params={"BN": 176, "CLUSTER": 2}, device=_H200, shape=fuller_cluster_waves_at_bn176,
           note="the Hopper ladder's last rung with 128 x 176 tiles in 2 x 1 clusters where they fill the waves "
                "(docs/results/hopper_bn176_clusters_h200.json, hopper_bn176_cluster_rule_*_h200.json)")
      for dt in ("bfloat16", "float16")),
    # 257 rows or more: 2 x 1 clusters (each k-tile of B multicast to two vertically adjacent
    # tiles) up to N = 16383: median 1.003x cuBLAS against 0.994x on the H100's llm suite from
    # M = 1024 (1.004x / 0.999x on the H200), 0.95x against 0.85x at the Llama prefill's 4096 x
    # 2048 x 2048 (docs/results/hopper_llm_*.json, hopper_prefill_h100.json). Single blocks where
    # they measured faster: 1024 rows with N of 6144 to 16383 and K <= 4096 (0.85x against 0.81x
    # at 1024 x 6144 x 4096), and N from 16384 (1.037x against 1.016x at 16384^3). On the H100 SXM
    # those single blocks hold their tiles where the SMs run more than two each, as the held-tile
    # rules below do (1024 x 14336 x 4096 0.944x / 0.944x against 0.933x / 0.932x;
    # docs/results/hopper_hold_single_h100.json).
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, 2047), n=(6144, 16383), k=(0, 4096),
           params={"HOLD": 1}, device=_132_SMS, shape=more_than_two_tiles_a_block,
           note="the Hopper ladder's last rung, single blocks storing each tile beside the next one's wgmma "
                "(docs/results/hopper_hold_single_h100.json)")
      for dt in ("bfloat16", "float16")),
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, 2047), n=(6144, 16383), k=(0, 4096),
           note="the Hopper ladder's last rung, single blocks (docs/results/hopper_llm_*.json)")
      for dt in ("bfloat16", "float16")),
    # Past K = 4096, single blocks (without held tiles) at up to 1024 rows for N from 6144, and up
    # to 1536 rows where N >= 12288, on the H100 SXM. Two runs, bf16, x cuBLAS, against the
    # clusters the rules took before (docs/results/hopper_single_long_k_*_h100.json): 1024 x 14336 x
    # 8192 0.964x / 0.965x (held: 0.956x / 0.957x) against 0.862x / 0.862x; 1536 x 14336 x 8192
    # 1.018x / 1.018x against 0.932x / 0.932x; 1024 x 8192 x 8192 0.980x / 0.979x against 0.969x /
    # 0.969x; 1024 x 8192 x 14336 0.987x / 0.982x against 0.971x / 0.967x; 1024 x 8192 x 28672
    # 1.003x / 1.001x against 0.989x / 0.987x. The clusters stay where they were level or ahead:
    # 1536 x 8192 x 8192 (0.969x / 0.970x against 0.961x / 0.962x) and 2047 x 12288 x 8192
    # (1.001x / 0.998x against 0.995x / 0.993x).
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=m, n=n, k=(4097, INF), device=_132_SMS,
           note="the Hopper ladder's last rung, single blocks at long K (docs/results/hopper_single_long_k_*_h100.json)")
      for m, n in (((257, 1024), (6144, 16383)), ((1025, 1536), (12288, 16383))) for dt in ("bfloat16", "float16")),
    # Single blocks also where 128 x 256 tiles make at most about two waves (M to 4096 with N to
    # 2048, M to 2048 with N to 4096): the Llama prefill's q, k, v and o projections, and 1024 x
    # 4096 x 4096. There a cluster's fixed cost (about 1.4 us a launch, docs/hopper.md) is not
    # won back. Measured once rung 06's code was small enough that two kernels of ours no longer
    # slow each other (docs/benchmarking.md): docs/results/hopper_small_grids_h100.json. On an
    # H200 too, against the 2-block clusters its rules took there before (two rounds,
    # docs/results/hopper_rules_as_h100_h200.json): 2048^3 0.984x / 0.988x cuBLAS against 0.956x /
    # 0.956x, 1024 x 4096 x 4096 0.965x / 0.964x against 0.949x / 0.947x.
    # At most 1024 rows and N up to 2048, 128 x 256 tiles make 64 or fewer: half the SMs idle.
    # 128 x 128 tiles make twice as many (H100, bf16, x cuBLAS, events / CUDA graphs, against
    # 128 x 256: 1024 x 2048 x 2048 0.89x / 0.96x against 0.59x / 0.61x, 512 x 2048 x 2048 0.73x /
    # 0.71x against 0.53x / 0.52x, 1024 x 2048 x 8192 0.87x / 0.91x against 0.82x / 0.86x;
    # docs/results/hopper_m1024_h100.json).
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, 1024), n=(0, 2048), params={"BN": 128},
           note="the Hopper ladder's last rung with 128 x 128 tiles, single blocks "
                "(docs/results/hopper_m1024_h100.json)")
      for dt in ("bfloat16", "float16")),
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=m, n=n,
           note="the Hopper ladder's last rung, single blocks for grids of about two waves or less "
                "(docs/results/hopper_small_grids_h100.json)")
      for m, n in (((257, 4096), (0, 2048)), ((257, 2048), (0, 4096))) for dt in ("bfloat16", "float16")),
    # Single blocks on the H100 SXM wherever 2-block clusters would leave their last wave less than
    # 90% full (clusters_end_part_full): single blocks split that wave's tiles over K, clusters do
    # not. One run against the clusters the rules took, at ten shapes of 61-87% fill (bf16, x
    # cuBLAS; docs/results/hopper_cluster_tail_h100.json): 1024 x 5120 x 4096 0.816x against
    # 0.651x, 1280 x 8192 x 8192 0.932x against 0.845x, 2560 x 4096 x 4096 0.910x against 0.843x,
    # 3584 x 4096 x 4096 1.002x against 0.949x, 2048 x 11008 x 4096 1.003x against 0.939x; the
    # least gain 1.4% (1280 x 5120 x 8192). Held where the SMs run more than two tiles each.
    # Measured in the Linear layout; the cause is the grid's, so the rule takes every layout.
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, INF), n=(0, 16383), params=params,
           device=_132_SMS, shape=shape,
           note="the Hopper ladder's last rung, single blocks where clusters' last wave is part full "
                "(docs/results/hopper_cluster_tail_h100.json)")
      for params, shape in (({"HOLD": 1}, _clusters_end_part_full_many_tiles), ({}, clusters_end_part_full))
      for dt in ("bfloat16", "float16")),
    # The H100 SXM stores each tile beside the next one's wgmma (HOLD = 1; docs/hopper.md, "What
    # the epilogue costs") where the SMs run more than two tiles each (more_than_two_tiles_a_block):
    # in clusters of two up to N = 16383, in single blocks from N = 16384. From six a SM: 8192^3
    # 1.025x cuBLAS against 1.020x, 4096 x 14336 x 4096 0.991x against 0.984x
    # (docs/results/hopper_hint_variants_h100.json). At 2.9-5.8 a SM in clusters, in two runs:
    # 4096^3 0.987x / 0.992x against 0.976x / 0.981x, 4096 x 4096 x 2048 0.990x / 0.993x against
    # 0.972x / 0.974x, 3072 x 4096 x 4096 0.983x / 0.980x against 0.970x / 0.968x; level at 1.9 a
    # SM (docs/results/hopper_hold_mid_h100.json). With a fused bias too, which the held epilogue
    # fetches when a tile starts: 0.9-1.7% faster than HOLD = 0 at four shapes of six or more a SM,
    # two alternations (docs/results/hopper_held_bias_h100.json), 0.7-1.4% at four of 2.9-5.8
    # (hopper_held_bias_mid_h100.json).
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, INF), n=n, params=params,
           device=_132_SMS, shape=more_than_two_tiles_a_block,
           note="the Hopper ladder's last rung storing each tile beside the next one's wgmma "
                "(docs/results/hopper_hold_rule_h100.json, hopper_hold_mid_h100.json, hopper_hold_single_h100.json)")
      for n, params in (((0, 16383), {"CLUSTER": 2, "HOLD": 1}), ((16384, INF), {"HOLD": 1}))
      for dt in ("bfloat16", "float16")),
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, INF), n=(0, 16383), params={"CLUSTER": 2},
           note="the Hopper ladder's last rung, 2 x 1 clusters (docs/results/hopper_llm_*.json)")
      for dt in ("bfloat16", "float16")),
    *(Rule("hopper/06_tma_store_epilogue", dt, capability=(90, 90), m=(257, INF),
           note="the Hopper ladder's last rung (docs/results/hopper_*.json)")
      for dt in ("bfloat16", "float16")),
    # int8 on Hopper: s8 wgmma on the Hopper pipeline. It reads A row-major and B column-major; a
    # column-major A is copied K-major inside the kernel (rung 04), a row-major B by the same kernel
    # on the swapped problem (rung 05), and both at once by rung 09.
    Rule("igemm/09_transposing_both", "int8", capability=(90, 90), layouts=(("col", "row"),),
         note="column-major A and row-major B: both copied K-major in the kernel (docs/igemm.md)"),
    Rule("igemm/04_transposing_copy", "int8", capability=(90, 90), layouts=(("col", "col"),),
         note="column-major A: the in-kernel transposing copy (docs/igemm.md)"),
    Rule("igemm/05_swap_ab_row_major_b", "int8", capability=(90, 90), layouts=(("row", "row"),),
         note="row-major B: the transposing copy on the swapped problem (docs/igemm.md)"),
    Rule("igemm/02_wgmma_s8", "int8", capability=(90, 90), note="the s8 wgmma kernel (docs/igemm.md)"),
    # int8 elsewhere (sm_80, sm_86, sm_89, and after Hopper): the mma.sync m16n8k32 kernel, every
    # layout read in place.
    Rule("igemm/01_mma_sync_s8", "int8", capability=(80, INF),
         note="the s8 mma.sync kernel, any layout (docs/igemm.md); not measured on these GPUs yet"),
    # 4-bit integers (warpgemm.int4.Packed, "int4" = s4, "uint4" = u4), A (M, K) and W (N, K) packed
    # along K. On Hopper every 4-bit mma.sync is emulated: the packed tiles are widened to 8-bit on
    # chip for the s8 / u8 wgmma instead: rung 06 (A widened into registers) where it is exact, which
    # is every K for u4 and K <= 131071 for s4 (its values widened to 16 times themselves); rung 05
    # past that. H100, scripts/int4_bench.py (docs/results/int4_widen_h100.json): rung 06 0.93x /
    # 0.94x the int8 kernel at 4096^3 / 8192^3 (s4; u4 0.94x / 0.94x), rung 05 0.72x-0.82x.
    Rule("int4/06_widen_a_to_registers", "int4", capability=(90, 90), layouts=_LINEAR, k=(0, 131071),
         note="measured on an H100 by scripts/int4_bench.py"),
    Rule("int4/06_widen_a_to_registers", "uint4", capability=(90, 90), layouts=_LINEAR,
         note="measured on an H100 by scripts/int4_bench.py"),
    Rule("int4/05_widen_to_s8_wgmma", "int4", capability=(90, 90), layouts=_LINEAR,
         note="s4 past rung 06's K bound: packed tiles widened in shared memory (docs/igemm.md)"),
    *(Rule("int4/04_mma_m16n8k64", dt, capability=(80, INF), layouts=_LINEAR,
           note="the largest 4-bit mma.sync form (docs/igemm.md); not yet measured")
      for dt in ("int4", "uint4")),
    *(Rule("int4/02_mma_m8n8k32", dt, capability=(75, 79), layouts=_LINEAR,
           note="Turing has the m8n8k32 4-bit forms only (docs/igemm.md)")
      for dt in ("int4", "uint4")),
    # fp16 / bf16: the tuned mma.sync rung (its tuning table refines it per shape).
    Rule("hgemm/07_tuned", "float16", capability=(80, INF), note="the fastest mma.sync rung"),
    Rule("hgemm/07_tuned", "bfloat16", capability=(80, INF), note="the fastest mma.sync rung"),
)


_by_key: dict[tuple, tuple[Rule, ...]] = {}
"""(capability, dtype, precision, device name) -> the shipped rules that can match, in order: the per-call
lookup scans only these for the shape."""


def choose(capability: int, dtype: str, m: int, n: int, k: int, precision: str | None = None,
           rules: tuple[Rule, ...] | None = None, layouts: tuple[str, str] | None = None,
           device: str = "") -> Rule:
    """The first rule of ``rules`` (default: the shipped :data:`RULES`) that matches a problem of
    ``dtype`` inputs on a device of compute ``capability`` named ``device`` (its
    ``torch.cuda.get_device_name``; rules measured for a named GPU match only it) with operand
    ``layouts`` (as ``operands.detect`` finds them); ValueError when none does."""
    if rules is None:
        rules = RULES
    key = (capability, dtype, precision, device)
    found = _by_key.get(key) if rules is RULES else None
    if found is None:
        found = tuple(r for r in rules if r.serves(capability, dtype, precision, device))
        if rules is RULES:
            _by_key[key] = found
    for rule in found:
        if rule.fits(m, n, k, layouts):
            return rule
    served = sorted({r.dtype for r in rules if r.capability[0] <= capability <= r.capability[1]})
    raise ValueError(f"kernel='auto' has no kernel for {dtype} inputs on a device of compute capability "
                     f"{capability // 10}.{capability % 10}" + (f" (it serves {', '.join(served)})" if served else "")
                     + "; name a kernel with kernel=..., see `warpgemm kernels`")


def fp32_precision() -> str:
    """``"ffma"`` or ``"tf32"``: what ``torch.get_float32_matmul_precision()`` asks for."""
    import torch

    return "ffma" if torch.get_float32_matmul_precision() == "highest" else "tf32"


def choose_auto(capability: int, dtype: str, m: int, n: int, k: int, layouts: tuple[str, str],
                device: str) -> Rule:
    """The rule ``kernel="auto"`` follows: :func:`choose` with, for float32 inputs, the precision
    torch's matmul setting asks for (:func:`fp32_precision`)."""
    precision = fp32_precision() if dtype == "float32" else None
    return choose(capability, dtype, m, n, k, precision, layouts=layouts, device=device)
