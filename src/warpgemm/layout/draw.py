"""Drawings of layouts: TV layouts, ldmatrix address maps and shared-memory bank maps.

Every drawing is a :class:`Figure` of grid panels.  ``Figure.to_svg()`` writes SVG text with
no dependencies; ``Figure.save(path)`` picks SVG or PNG from the suffix (PNG needs matplotlib,
imported only then).
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Sequence

from .atoms import MMAAtom, ldmatrix_lane_map
from .banks import BANK_BYTES, NUM_BANKS, ldmatrix_addresses
from .layout import Layout

__all__ = ["Panel", "Figure", "palette", "draw_tv_layout", "draw_mma_atom", "draw_tiled_mma",
           "draw_ldmatrix", "draw_bank_map", "draw_swizzle"]

CELL_W, CELL_H, PAD, TITLE_H, LABEL_W = 44, 30, 24, 34, 26


def palette(n: int) -> list[str]:
    """``n`` distinguishable pastel colours, as ``#rrggbb``."""
    out = []
    for i in range(n):
        # Spread hues with the golden ratio so that neighbours differ.
        h = (i * 0.6180339887) % 1.0
        light = 0.78 if i % 2 == 0 else 0.68
        r, g, b = colorsys.hls_to_rgb(h, light, 0.65)
        out.append(f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}")
    return out


@dataclass
class Panel:
    """A grid of ``rows x cols`` cells; ``cells[(r, c)] = (label, fill)``; ``bold`` cells get a
    heavy border."""

    title: str
    rows: int
    cols: int
    cells: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    bold: set[tuple[int, int]] = field(default_factory=set)
    row_names: Sequence[str] | None = None
    col_names: Sequence[str] | None = None

    @property
    def width(self) -> int:
        return LABEL_W + self.cols * CELL_W

    @property
    def height(self) -> int:
        return TITLE_H + LABEL_W + self.rows * CELL_H


@dataclass
class Figure:
    """Panels side by side, with an optional caption below."""

    panels: list[Panel]
    caption: str = ""

    def _size(self) -> tuple[int, int]:
        w = PAD + sum(p.width + PAD for p in self.panels)
        h = 2 * PAD + max(p.height for p in self.panels) + (18 if self.caption else 0)
        return w, h

    def to_svg(self) -> str:
        """The figure as a standalone SVG document."""
        w, h = self._size()
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
               f'viewBox="0 0 {w} {h}" font-family="monospace" font-size="9">',
               "<style>.c{stroke:#333;stroke-width:.5}.m{text-anchor:middle}</style>",
               f'<rect width="{w}" height="{h}" fill="white"/>']
        x0 = PAD
        for p in self.panels:
            out.append(f'<text x="{x0}" y="{PAD + 14}" font-size="13" font-weight="bold">{escape(p.title)}</text>')
            gy = PAD + TITLE_H + LABEL_W
            gx = x0 + LABEL_W
            for c in range(p.cols):
                name = p.col_names[c] if p.col_names else str(c)
                out.append(f'<text x="{gx + c * CELL_W + CELL_W / 2}" y="{gy - 8}" text-anchor="middle" '
                           f'fill="#555">{escape(name)}</text>')
            for r in range(p.rows):
                name = p.row_names[r] if p.row_names else str(r)
                out.append(f'<text x="{gx - 4}" y="{gy + r * CELL_H + CELL_H / 2 + 3}" text-anchor="end" '
                           f'fill="#555">{escape(name)}</text>')
            for (r, c), (label, fill) in sorted(p.cells.items()):
                x, y = gx + c * CELL_W, gy + r * CELL_H
                out.append(f'<rect class="c" x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="{fill}"/>')
                lines = label.split("\n")
                for i, line in enumerate(lines):
                    ty = y + CELL_H // 2 + 3 + (2 * i - len(lines) + 1) * 5
                    out.append(f'<text class="m" x="{x + CELL_W // 2}" y="{ty}">{escape(line)}</text>')
            for (r, c) in sorted(p.bold):
                out.append(f'<rect x="{gx + c * CELL_W + 1}" y="{gy + r * CELL_H + 1}" width="{CELL_W - 2}" '
                           f'height="{CELL_H - 2}" fill="none" stroke="black" stroke-width="2.5"/>')
            x0 += p.width + PAD
        if self.caption:
            out.append(f'<text x="{PAD}" y="{h - PAD + 4}" font-size="11">{escape(self.caption)}</text>')
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def to_png(self, path: str | Path, dpi: int = 100) -> None:
        """Render with matplotlib (imported here, not at module import)."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle

        w, h = self._size()
        fig = plt.figure(figsize=(w / dpi, h / dpi), dpi=dpi)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, w)
        ax.set_ylim(h, 0)
        ax.axis("off")
        x0 = PAD
        for p in self.panels:
            ax.text(x0, PAD + 14, p.title, fontsize=10, fontweight="bold", family="monospace")
            gy, gx = PAD + TITLE_H + LABEL_W, x0 + LABEL_W
            for c in range(p.cols):
                ax.text(gx + c * CELL_W + CELL_W / 2, gy - 8, p.col_names[c] if p.col_names else str(c),
                        ha="center", fontsize=6, color="#555", family="monospace")
            for r in range(p.rows):
                ax.text(gx - 4, gy + r * CELL_H + CELL_H / 2, p.row_names[r] if p.row_names else str(r),
                        ha="right", va="center", fontsize=6, color="#555", family="monospace")
            for (r, c), (label, fill) in p.cells.items():
                x, y = gx + c * CELL_W, gy + r * CELL_H
                ax.add_patch(Rectangle((x, y), CELL_W, CELL_H, facecolor=fill, edgecolor="#333", linewidth=0.4))
                ax.text(x + CELL_W / 2, y + CELL_H / 2, label, ha="center", va="center", fontsize=5.5,
                        family="monospace")
            for (r, c) in p.bold:
                ax.add_patch(Rectangle((gx + c * CELL_W + 1, gy + r * CELL_H + 1), CELL_W - 2, CELL_H - 2,
                                       fill=False, edgecolor="black", linewidth=1.8))
            x0 += p.width + PAD
        if self.caption:
            ax.text(PAD, h - PAD + 4, self.caption, fontsize=8, family="monospace")
        fig.savefig(str(path), dpi=dpi)
        plt.close(fig)

    def save(self, path: str | Path) -> Path:
        """Write ``path`` as SVG (``.svg``) or PNG (``.png``)."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(self.to_svg())
        elif suffix == ".png":
            self.to_png(path)
        else:
            raise ValueError(f"cannot draw to {path.name}: use .svg or .png")
        return path


# ---------------------------------------------------------------------------------------------
# TV layouts
# ---------------------------------------------------------------------------------------------

def _tv_panel(title: str, tv: Layout, rows: int, cols: int, *, transpose: bool = False,
              thr_id: Layout | None = None, colors: list[str] | None = None) -> Panel:
    """A panel with one cell per element of a ``rows x cols`` tile, numbered column-major
    (``transpose`` swaps the drawn axes), labelled ``T<thread>`` / ``V<value>``."""
    nthr, nval = tv[0].size(), tv[1].size()
    colors = colors or palette(max(nthr, 1))
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    for t in range(nthr):
        lane = thr_id(t) if thr_id is not None else t
        for v in range(nval):
            idx = tv(t, v)
            r, c = idx % rows, idx // rows
            if transpose:
                r, c = c, r
            if (r, c) not in cells:          # broadcast copies: the first thread names the cell
                cells[(r, c)] = (f"T{lane}\nV{v}", colors[lane % len(colors)])
    shape = (cols, rows) if transpose else (rows, cols)
    return Panel(title, shape[0], shape[1], cells)


def draw_tv_layout(tv: Layout, shape_mn: tuple[int, int], title: str | None = None,
                   thr_id: Layout | None = None) -> Figure:
    """One cell per element of an ``M x N`` tile (column-major index), labelled with the
    thread and value that hold it and coloured by thread."""
    m, n = shape_mn
    return Figure([_tv_panel(title or f"{tv}", tv, m, n, thr_id=thr_id)], caption=f"TV layout {tv}")


def draw_mma_atom(atom: MMAAtom) -> Figure:
    """A, B and C of an MMA atom: A as M x K, B as K x N, C as M x N."""
    m, n, k = atom.shape_mnk
    colors = palette(32)
    a = _tv_panel(f"A ({m}x{k})", atom.layout_a_tv, m, k, thr_id=atom.thr_id, colors=colors)
    b = _tv_panel(f"B ({k}x{n})", atom.layout_b_tv, n, k, transpose=True, thr_id=atom.thr_id, colors=colors)
    c = _tv_panel(f"C ({m}x{n})", atom.layout_c_tv, m, n, thr_id=atom.thr_id, colors=colors)
    return Figure([a, b, c], caption=f"{atom.name}: T = lane, V = value index in register order")


def draw_tiled_mma(tiled: Any) -> Figure:
    """A, B and C of a TiledMMA over one ``tile_size`` tile, labelled with thread indices."""
    mt, nt, kt = (tiled.tile_size(i) for i in range(3))
    colors = palette(max(tiled.size, 32))
    a = _tv_panel(f"A ({mt}x{kt})", tiled.get_layoutA_TV(), mt, kt, colors=colors)
    b = _tv_panel(f"B ({kt}x{nt})", tiled.get_layoutB_TV(), nt, kt, transpose=True, colors=colors)
    c = _tv_panel(f"C ({mt}x{nt})", tiled.get_layoutC_TV(), mt, nt, colors=colors)
    return Figure([a, b, c], caption=f"ThrLayoutVMNK {tiled.thr_layout_vmnk}")


# ---------------------------------------------------------------------------------------------
# ldmatrix
# ---------------------------------------------------------------------------------------------

def draw_ldmatrix(num: int = 4, trans: bool = False) -> Figure:
    """``ldmatrix .x{num}``: which lane supplies each row address, and which lane and
    register receive each 16-bit element.  Matrices are the quadrants of a 16x16 tile (x4: 2 x 2)."""
    origins = {1: [(0, 0)], 2: [(0, 0), (0, 8)], 4: [(0, 0), (0, 8), (8, 0), (8, 8)]}[num]
    rows = 1 + max(r for r, _c in origins) + 7
    cols = 1 + max(c for _r, c in origins) + 7
    colors = palette(32)
    addr: dict[tuple[int, int], tuple[str, str]] = {}
    bold = set()
    for lane in range(8 * num):
        r0, c0 = origins[lane // 8]
        r = r0 + lane % 8
        for c in range(c0, c0 + 8):
            first = c == c0
            addr[(r, c)] = (f"T{lane}" if first else "", colors[lane])
        bold.add((r, c0))
    regs: dict[tuple[int, int], tuple[str, str]] = {}
    for lane, vals in enumerate(ldmatrix_lane_map(num, trans)):
        for v, (mat, row, col) in enumerate(vals):
            r0, c0 = origins[mat]
            regs[(r0 + row, c0 + col)] = (f"T{lane}\nR{v // 2}.{v % 2}", colors[lane])
    kind = f"ldmatrix.x{num}{'.trans' if trans else ''}"
    p1 = Panel(f"{kind}: row addresses", rows, cols, addr, bold)
    p2 = Panel(f"{kind}: registers", rows, cols, regs)
    return Figure([p1, p2], caption="Left: lane 8i+r gives the address of row r of matrix i (bold). "
                                    "Right: Tl Rr.h = lane l, register r, half h.")


# ---------------------------------------------------------------------------------------------
# Banks
# ---------------------------------------------------------------------------------------------

def _bank_panel(title: str, smem: Any, rows: int, cols: int, elem_bytes: int,
                highlight: set[tuple[int, int]], chunk_bytes: int = 16) -> Panel:
    """Cells are ``chunk_bytes``-wide pieces of each row (16 bytes: one ldmatrix row, four
    banks), labelled with the banks that hold them and coloured by the first bank."""
    per = max(1, chunk_bytes // elem_bytes)
    nchunks = max(1, cols // per)
    colors = palette(NUM_BANKS)
    cells = {}
    for r in range(rows):
        for c in range(nchunks):
            first = (smem((r, c * per)) * elem_bytes // BANK_BYTES) % NUM_BANKS
            last = first + max(1, chunk_bytes // BANK_BYTES) - 1
            cells[(r, c)] = (f"b{first}-{last}" if last > first else f"b{first}", colors[first])
    names = [f"{c * per}" for c in range(nchunks)]
    return Panel(title, rows, nchunks, cells, set(highlight), col_names=names)


def draw_bank_map(smem: Any, rows: int, cols: int, elem_bytes: int = 2, title: str | None = None,
                  highlight: set[tuple[int, int]] | None = None, chunk_bytes: int = 16) -> Figure:
    """A shared-memory tile as rows of ``chunk_bytes``-wide pieces (columns are labelled with
    their first element), each labelled and coloured by the banks that hold it;
    ``highlight`` outlines ``(row, chunk)`` cells."""
    return Figure([_bank_panel(title or str(smem), smem, rows, cols, elem_bytes, highlight or set(),
                               chunk_bytes)],
                  caption=f"{chunk_bytes}-byte pieces of each row; b<i>-<j>: the banks that hold them")


def draw_swizzle(plain: Any, swizzled: Any, rows: int, cols: int, elem_bytes: int = 2,
                 caption: str = "") -> Figure:
    """Bank maps of the same logical tile before and after a swizzle (16-byte pieces), with
    the rows of the first ldmatrix matrix (rows 0-7 of columns 0-7) outlined."""
    hl = {(r, 0) for r in range(8)}
    left = _bank_panel(f"{plain}", plain, rows, cols, elem_bytes, hl)
    right = _bank_panel(f"{swizzled}", swizzled, rows, cols, elem_bytes, hl)
    if not caption:
        from .banks import bank_conflicts
        a = bank_conflicts(ldmatrix_addresses(plain, 1, elem_bytes=elem_bytes), "ldmatrix")
        b = bank_conflicts(ldmatrix_addresses(swizzled, 1, elem_bytes=elem_bytes), "ldmatrix")
        caption = (f"Outlined: the 8 rows of one 8x8 ldmatrix matrix. Before: {a.wavefronts} wavefronts; "
                   f"after: {b.wavefronts} (ideal {b.ideal}).")
    return Figure([left, right], caption=caption)
