"""``warpgemm explain``: print (and draw) the layouts behind the kernels.

Every command prints text and accepts ``--svg PATH`` / ``--png PATH``.  Run with no options,
each shows the standard example of its subject:

    warpgemm explain mma SM80_16x8x16_F16F16F16F16_TN
    warpgemm explain ldmatrix x4 [--trans]     # a 16x16 tile holding 0..255: lane 0 gets 0 1 8 9 ...
    warpgemm explain swizzle 3 3 3 --rows 16 --cols 64 --dtype f16
    warpgemm explain tiled-mma      # CuTe TiledMMA/TiledCopy for a 128x128x32 fp16 tile, thread 0
    warpgemm explain banks          # ldmatrix.x4 with and without Swizzle<3,3,3>, and the SGEMM
                                    # ladder's transposed store of A, in wavefronts
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from ..cli_args import (PLOT_EXTRA, fail, int_tuple, nonnegative_int, output_file,
                        positive_int)
from .atoms import COPY_ATOMS, MMA_ATOMS, copy_atom, ldmatrix_lane_map, ldmatrix_lane_rows, mma_atom
from .banks import DTYPE_BYTES, ldmatrix_addresses, ldmatrix_report, smem_tile, transposed_store_report
from .layout import Layout, make_layout
from .swizzle import Swizzle
from .tiled import make_tiled_copy_A, make_tiled_copy_B, make_tiled_mma

__all__ = ["register", "main", "tv_table", "LDMATRIX_ATOMS"]

# The CuTe copy atom behind each ldmatrix form, for 16-bit elements.
LDMATRIX_ATOMS = {(1, False): "SM75_U32x1_LDSM_N", (2, False): "SM75_U32x2_LDSM_N",
                  (4, False): "SM75_U32x4_LDSM_N", (1, True): "SM75_U16x2_LDSM_T",
                  (2, True): "SM75_U16x4_LDSM_T", (4, True): "SM75_U16x8_LDSM_T"}


def tv_table(tv: Layout, rows: int, cols: int, transpose: bool = False, thr_id: Layout | None = None) -> str:
    """A text grid of an ``rows x cols`` tile (column-major index) with ``T<t>V<v>`` per cell."""
    cells: dict[tuple[int, int], str] = {}
    for t in range(tv[0].size()):
        lane = thr_id(t) if thr_id is not None else t
        for v in range(tv[1].size()):
            idx = tv(t, v)
            r, c = idx % rows, idx // rows
            if transpose:
                r, c = c, r
            cells.setdefault((r, c), f"T{lane}V{v}")
    nr, nc = (cols, rows) if transpose else (rows, cols)
    width = max(len(s) for s in cells.values()) + 1
    head = " " * 4 + "".join(f"{c:>{width}}" for c in range(nc))
    lines = [head] + [f"{r:>3} " + "".join(f"{cells.get((r, c), '.'):>{width}}" for c in range(nc))
                      for r in range(nr)]
    return "\n".join(lines)


def _draw(args: argparse.Namespace, make_figure: Callable[[], Any]) -> None:
    for path in (args.svg, args.png):
        if path:
            fig = make_figure()
            fig.save(path)
            print(f"wrote {path}")


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------

def cmd_mma(args: argparse.Namespace) -> int:
    atom = mma_atom(args.name)
    m, n, k = atom.shape_mnk
    print(format(atom, "_" if args.static else ""), end="")
    print(f"  PTX:        {atom.ptx}")
    regs = atom.registers()
    print(f"  Registers:  A {regs['a']}, B {regs['b']}, C/D {regs['c']} (32-bit, per thread)\n")
    print(f"A ({m}x{k}), lane T and value V:")
    print(tv_table(atom.layout_a_tv, m, k, thr_id=atom.thr_id))
    print(f"\nB ({k}x{n}):")
    print(tv_table(atom.layout_b_tv, n, k, transpose=True, thr_id=atom.thr_id))
    print(f"\nC ({m}x{n}):")
    print(tv_table(atom.layout_c_tv, m, n, thr_id=atom.thr_id))

    def fig():
        from .draw import draw_mma_atom
        return draw_mma_atom(atom)
    _draw(args, fig)
    return 0


def cmd_ldmatrix(args: argparse.Namespace) -> int:
    num = int(args.num.lstrip("x"))
    atom = copy_atom(LDMATRIX_ATOMS[(num, args.trans)])
    kind = f"ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if args.trans else ''}.shared.b16"
    print(f"{kind}  (CuTe: {atom.name})")
    print(format(atom, "_" if args.static else ""))
    print("Lane -> row address: lane 8i+r gives row r of matrix i")
    rows = ldmatrix_lane_rows(num)
    for start in range(0, 32, 8):
        entries = [f"T{lane}:m{rows[lane][0]}r{rows[lane][1]}" if rows[lane] else f"T{lane}:-"
                   for lane in range(start, start + 8)]
        print("  " + " ".join(f"{e:<9}" for e in entries))
    # The usual example: the four matrices at the quadrants of a 16x16 row-major tile
    # holding 0..255, so that each register shows where its elements came from.
    tile = Layout((16, 16), (16, 1))
    origins = {1: [(0, 0)], 2: [(0, 0), (0, 8)], 4: [(0, 0), (0, 8), (8, 0), (8, 8)]}[num]
    print("\nRegisters for a 16x16 row-major tile holding 0..255 (matrix i at "
          + ", ".join(f"({r},{c})" for r, c in origins) + "):")
    lane_map = ldmatrix_lane_map(num, args.trans)
    for lane in args.lanes:
        vals = [tile((origins[m][0] + r, origins[m][1] + c)) for m, r, c in lane_map[lane]]
        print(f"  lane {lane:>2}: " + " ".join(str(v) for v in vals))
    rep = ldmatrix_report(tile, num)
    print(f"\nBank model for that tile (32-byte rows): {rep}")

    def fig():
        from .draw import draw_ldmatrix
        return draw_ldmatrix(num, args.trans)
    _draw(args, fig)
    return 0


def _make_swizzle(bits: int, base: int, shift: int, argument: str) -> Swizzle:
    try:
        return Swizzle(bits, base, shift)
    except ValueError as exc:
        fail(argument, f"{exc}; got {bits},{base},{shift} (3,3,3 suits 16-bit elements in "
                       "128-byte rows)")


def cmd_swizzle(args: argparse.Namespace) -> int:
    sw = _make_swizzle(args.B, args.M, args.S, "B M S")
    elem = DTYPE_BYTES[args.dtype]
    plain = smem_tile(args.rows, args.cols)
    swizzled = smem_tile(args.rows, args.cols, sw)
    print(f"{sw}: x -> x ^ ((x & {sw.yyy_mask:#x}) >> {args.S}), period {sw.size()} elements")
    print(f"  tile {plain} of {args.dtype} ({elem} bytes), swizzled: {swizzled}")
    chunk = max(1, 16 // elem)                 # elements per 16-byte chunk
    nchunks = max(1, args.cols // chunk)
    print(f"\n16-byte chunk that logical chunk c of row r lands in (chunk = {chunk} elements):")
    print("      " + " ".join(f"c{c:<2}" for c in range(nchunks)))
    for r in range(min(args.rows, 16)):
        row = [((swizzled((r, c * chunk)) - r * args.cols) // chunk) for c in range(nchunks)]
        print(f"  r{r:<3} " + " ".join(f"{x:<3}" for x in row))
    num = 4 if args.rows >= 16 and args.cols >= 16 else (2 if args.cols >= 16 else 1)
    if args.rows >= 8 and args.cols >= 8 and elem == 2:
        before = ldmatrix_report(plain, num)
        after = ldmatrix_report(swizzled, num)
        print(f"\nldmatrix.x{num} at (0,0):  before {before}\n                   after  {after}")

    def fig():
        from .draw import draw_swizzle
        return draw_swizzle(plain, swizzled, min(args.rows, 16), min(args.cols, 64), elem)
    _draw(args, fig)
    return 0


def cmd_tiled_mma(args: argparse.Namespace) -> int:
    f = "_" if args.static else ""
    atom = mma_atom(args.atom)
    try:
        tiled = make_tiled_mma(atom, make_layout(args.layout), args.perm or None)
    except ValueError as exc:
        fail("--perm", f"{exc} (with --atom {args.atom} and --layout {_csv(args.layout)})")
    if args.thread >= tiled.size:
        fail("--thread", f"expected a thread index from 0 to {tiled.size - 1} (this TiledMMA has "
                         f"{tiled.size} threads), got {args.thread}")
    m, n = args.tile_mn
    k = args.tile_k
    copies = []
    if args.copy:
        for side, make in (("A", make_tiled_copy_A), ("B", make_tiled_copy_B)):
            try:
                copies.append((side, make(copy_atom(args.copy), tiled)))
            except ValueError as exc:
                fail("--copy", f"{args.copy} does not fit this TiledMMA: {exc}; pick another "
                               "copy atom, another --perm, or --copy '' for none")
    print(format(tiled, f))
    smem_a, smem_b, smem_c = Layout((m, k), (1, m)), Layout((n, k), (1, n)), Layout((m, n), (1, m))
    thr = tiled.get_slice(args.thread)
    print(f"Thread {args.thread} (VMNK {thr.thr_vmnk}), column-major tiles A {smem_a}, B {smem_b}, C {smem_c}:")
    for name, part, frag, lay in (("A", thr.partition_A, thr.partition_fragment_A, smem_a),
                                  ("B", thr.partition_B, thr.partition_fragment_B, smem_b),
                                  ("C", thr.partition_C, thr.partition_fragment_C, smem_c)):
        print(f"  partition_{name}:          {part(lay):{f}}   (offset {getattr(thr, 'offset_' + name)(lay)})")
        print(f"  partition_fragment_{name}: {frag(lay):{f}}")
    frags = {"A": (smem_a, thr.partition_fragment_A(smem_a)), "B": (smem_b, thr.partition_fragment_B(smem_b))}
    for side, copy in copies:
        lay, frag = frags[side]
        print(f"\nTiledCopy {side} ({args.copy})")
        print(format(copy, f), end="")
        tc = copy.get_slice(args.thread)
        print(f"  partition_S: {tc.partition_S(lay):{f}}")
        print(f"  retile_D:    {tc.retile_D(frag):{f}}")

    def fig():
        from .draw import draw_tiled_mma
        return draw_tiled_mma(tiled)
    _draw(args, fig)
    return 0


def _csv(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))


def cmd_banks(args: argparse.Namespace) -> int:
    sw = _make_swizzle(*args.swizzle, "--swizzle")
    elem = DTYPE_BYTES[args.dtype]
    plain = smem_tile(args.rows, args.cols)
    swz = smem_tile(args.rows, args.cols, sw)
    print(f"ldmatrix.x4 over a row-major {args.rows}x{args.cols} {args.dtype} tile "
          f"(rows of {args.cols * elem} bytes), matrices at (0,0) (0,8) (8,0) (8,8)")
    for name, tile in (("no swizzle", plain), (str(sw), swz)):
        rep = ldmatrix_report(tile, 4, elem_bytes=elem)
        addrs = ldmatrix_addresses(tile, 4, elem_bytes=elem)
        banks = sorted({(a // 4) % 32 for a in addrs[:8] if a is not None})
        print(f"  {name:<12} {rep}; matrix 0 rows start in banks {banks}")
    print(f"\nThe SGEMM ladder's transposed store of A into s_a[{args.bk}][{args.bm} + pad] (floats), one warp")
    for pad in sorted({0, args.pad}):
        print(f"  pad {pad:<2}  {transposed_store_report(args.bm, args.bk, pad)}")

    def fig():
        from .draw import draw_swizzle
        return draw_swizzle(plain, swz, min(args.rows, 16), min(args.cols, 64), elem)
    _draw(args, fig)
    return 0


# ---------------------------------------------------------------------------------------------
# Argument parsing
# ---------------------------------------------------------------------------------------------

def _outputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--svg", metavar="PATH", type=output_file(".svg"), help="also draw it as SVG")
    p.add_argument("--png", metavar="PATH",
                   type=output_file(".png", matplotlib=(".png",), instead="or use --svg, which needs nothing"),
                   help=f"also draw it as PNG (needs matplotlib: {PLOT_EXTRA})")
    p.add_argument("--static", action="store_true", help="print CuTe's _ marks for static integers")


def _lanes(text: str) -> list[int]:
    try:
        lanes = [int(x) for x in text.split(",")]
    except ValueError:
        lanes = []
    if not lanes or any(not 0 <= lane < 32 for lane in lanes):
        raise argparse.ArgumentTypeError(
            f"expected lanes from 0 to 31 separated by commas, such as 0,1,4,31; got {text!r}")
    return lanes


def _swizzle_bms(text: str) -> tuple[int, ...]:
    return int_tuple("B,M,S", "3,3,3", low=0)(text)


def _add_commands(sub: Any) -> None:
    p = sub.add_parser("mma", help="an MMA atom's TV layouts for A, B and C")
    p.add_argument("name", nargs="?", default="SM80_16x8x16_F16F16F16F16_TN", choices=sorted(MMA_ATOMS),
                   metavar="NAME", help="CuTe atom name (default: %(default)s)")
    _outputs(p)
    p.set_defaults(func=cmd_mma)

    p = sub.add_parser("ldmatrix", help="ldmatrix lane addresses and register layout")
    p.add_argument("num", nargs="?", default="x4", choices=["x1", "x2", "x4"])
    p.add_argument("--trans", action="store_true", help="the .trans form")
    p.add_argument("--lanes", type=_lanes, default=[0, 1, 4, 31],
                   help="lanes whose registers to print (default: 0,1,4,31)")
    _outputs(p)
    p.set_defaults(func=cmd_ldmatrix)

    p = sub.add_parser("swizzle", help="a Swizzle<B,M,S> over a shared-memory tile")
    p.add_argument("B", nargs="?", type=nonnegative_int, default=3, help="bits of the mask (default: 3)")
    p.add_argument("M", nargs="?", type=nonnegative_int, default=3,
                   help="low bits kept whole, log2 of the elements in a unit (default: 3)")
    p.add_argument("S", nargs="?", type=int, default=3, help="shift of the mask (default: 3)")
    p.add_argument("--rows", type=positive_int, default=16)
    p.add_argument("--cols", type=positive_int, default=64)
    p.add_argument("--dtype", default="f16", choices=sorted(DTYPE_BYTES))
    _outputs(p)
    p.set_defaults(func=cmd_swizzle)

    p = sub.add_parser("tiled-mma", help="a TiledMMA, one thread's partitions and its TiledCopy")
    p.add_argument("--atom", default="SM80_16x8x16_F16F16F16F16_TN", choices=sorted(MMA_ATOMS), metavar="NAME",
                   help="MMA atom (default: %(default)s; `warpgemm explain mma --help` lists them)")
    p.add_argument("--layout", default=(2, 2, 1), type=int_tuple("M,N,K", "2,2,1", min_count=1),
                   help="atoms along M,N,K (default: 2,2,1)")
    p.add_argument("--perm", default=(32, 32, 16), type=int_tuple("M,N,K", "32,32,16", min_count=1, empty=True),
                   help="permutation tile M,N,K, or '' for none (default: 32,32,16)")
    p.add_argument("--tile-mn", default=(128, 128), type=int_tuple("MxN", "128x128"),
                   help="the M x N block tile (default: 128x128)")
    p.add_argument("--tile-k", type=positive_int, default=32, help="the K of the block tile (default: %(default)s)")
    p.add_argument("--thread", type=nonnegative_int, default=0, help="the thread to partition for (default: 0)")
    p.add_argument("--copy", default="SM75_U16x8_LDSM_T", choices=["", *COPY_ATOMS], metavar="ATOM",
                   help="copy atom for A and B, or '' for none (default: %(default)s)")
    _outputs(p)
    p.set_defaults(func=cmd_tiled_mma)

    p = sub.add_parser("banks", help="shared-memory bank conflicts of ldmatrix and of a transposed store")
    p.add_argument("--swizzle", default=(3, 3, 3), type=_swizzle_bms, help="B,M,S (default: 3,3,3)")
    p.add_argument("--rows", type=positive_int, default=16)
    p.add_argument("--cols", type=positive_int, default=64)
    p.add_argument("--dtype", default="f16", choices=["f16", "bf16"])
    p.add_argument("--bm", type=positive_int, default=128,
                   help="BM of the SGEMM ladder's s_a[BK][BM + pad] (default: %(default)s)")
    p.add_argument("--bk", type=positive_int, default=8, help="its BK (default: %(default)s)")
    p.add_argument("--pad", type=nonnegative_int, default=4, help="padding to compare with (default: %(default)s)")
    _outputs(p)
    p.set_defaults(func=cmd_banks)


def register(subparsers: Any) -> None:
    """Add the ``explain`` command (with its sub-commands) to an argparse ``subparsers``."""
    p = subparsers.add_parser("explain", help="print and draw layouts: mma, ldmatrix, swizzle, tiled-mma, banks",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="explain_command", metavar="WHAT", required=True)
    _add_commands(sub)


def main(argv: list[str] | None = None) -> int:
    """``warpgemm explain ARGS``: the same command, errors reported the same way."""
    from ..cli import main as cli_main

    return cli_main(["explain", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
