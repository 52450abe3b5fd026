"""Regenerate the drawings and tables in docs/hgemm.md that come from warpgemm.layout.

    python scripts/gen_hgemm_docs.py [--out docs/img]

Writes docs/img/hgemm_*.svg and prints the bank-model lines and the block-order table the page
quotes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from warpgemm.layout import Swizzle, ldmatrix_report, smem_tile
from warpgemm.layout import draw

SW333 = Swizzle(3, 3, 3)


def figures() -> dict[str, draw.Figure]:
    return {
        # A k-contiguous operand tile with BK = 32: rung 04's plain (MN,32):(32,1), rung 05's
        # Sw<3,3,3> o (MN,32):(32,1). Two mn rows share each 128-byte line.
        "hgemm_smem_k32.svg": draw.draw_swizzle(smem_tile(16, 32), smem_tile(16, 32, SW333), 16, 32),
        # One 64-wide panel of an mn-contiguous tile (rows are k): ((64),BK):((1),64).
        "hgemm_smem_mn_panel.svg": draw.draw_swizzle(smem_tile(16, 64), smem_tile(16, 64, SW333), 16, 64),
    }


def swizzled_order(tiles_m: int, tiles_n: int, swizzle: int) -> list[list[int]]:
    """Which block (launch order) computes each tile of C; a port of wg::zigzag_panel_tile."""
    grid = [[-1] * tiles_n for _ in range(tiles_m)]
    for block in range(tiles_m * tiles_n):
        panel_blocks = swizzle * tiles_m
        panel = block // panel_blocks
        in_panel = block - panel * panel_blocks
        width = min(swizzle, tiles_n - panel * swizzle)
        row = in_panel // width
        tile_n = panel * swizzle + in_panel - row * width
        tile_m = tiles_m - 1 - row if panel & 1 else row
        grid[tile_m][tile_n] = block
    return grid


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs/img")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, fig in figures().items():
        print("wrote", fig.save(out / name))
    for rows, cols, what in ((16, 32, "k-contiguous, BK=32"), (16, 64, "k-contiguous, BK=64"),
                             (16, 128, "mn-contiguous, plain, MN=128"), (16, 256, "mn-contiguous, plain, MN=256")):
        print(f"{what:32s} plain    {ldmatrix_report(smem_tile(rows, cols), 4)}")
        if cols <= 64:
            print(f"{what:32s} Sw<3,3,3> {ldmatrix_report(smem_tile(rows, cols, SW333), 4)}")
    print("\nblock order, 6 x 10 tiles, SWIZZLE = 4:")
    for row in swizzled_order(6, 10, 4):
        print("  " + " ".join(f"{b:3d}" for b in row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
