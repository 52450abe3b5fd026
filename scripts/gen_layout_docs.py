"""Regenerate the drawings in docs/img/layout_*.svg that docs/layouts.md and docs/igemm.md show.

    python scripts/gen_layout_docs.py [--out docs/img]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from warpgemm.layout import (
    Layout, Swizzle, copy_atom, make_layout, make_tiled_copy_A, make_tiled_copy_B, make_tiled_mma, mma_atom,
    smem_tile, transposed_store_report,
)
from warpgemm.layout import draw


def transposed_store_figure() -> draw.Figure:
    """The SGEMM ladder's s_a[8][128 + pad] (floats): the cells one warp's first scalar store
    of A, transposed, writes."""
    panels = []
    for pad in (0, 4):
        tile = smem_tile(8, 128, pad=pad)
        written = {(((tid & 1) << 2), tid >> 1) for tid in range(32)}       # (k, m) of store 0
        fig = draw.draw_bank_map(tile, 8, 32, elem_bytes=4, chunk_bytes=4, highlight=written,
                                 title=f"s_a[8][128+{pad}], columns 0-31")
        panels.append(fig.panels[0])
    plain, padded = transposed_store_report(pad=0), transposed_store_report(pad=4)
    caption = (f"Outlined: one warp's store s_a[k][m]. No pad: {plain.wavefronts} wavefronts "
               f"(ideal {plain.ideal}); pad 4: {padded.wavefronts}.")
    return draw.Figure(panels, caption=caption)


def figures() -> dict[str, draw.Figure]:
    tiled = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", make_layout((2, 2, 1)), (32, 32, 16))
    return {
        "layout_mma_sm80_16x8x16.svg": draw.draw_mma_atom(mma_atom("SM80_16x8x16_F16F16F16F16_TN")),
        "layout_mma_sm70_8x8x4.svg": draw.draw_mma_atom(mma_atom("SM70_8x8x4_F16F16F16F16_TN")),
        # The integer atoms of docs/igemm.md: int8 m16n8k32 (igemm/01) and the 4-bit forms.
        "layout_mma_sm80_16x8x32_s8.svg": draw.draw_mma_atom(mma_atom("SM80_16x8x32_S32S8S8S32_TN")),
        "layout_mma_sm80_8x8x32_s4.svg": draw.draw_mma_atom(mma_atom("SM80_8x8x32_S32S4S4S32_TN")),
        "layout_mma_sm80_16x8x64_s4.svg": draw.draw_mma_atom(mma_atom("SM80_16x8x64_S32S4S4S32_TN")),
        "layout_tiled_mma.svg": draw.draw_tiled_mma(tiled),
        # The write-up's ldmatrix TiledCopies (hgemm/09, docs/cute.md): who loads which element
        # of one (32,16) tile of A (M x K) and of B (N x K).
        "layout_tiled_copy_A.svg": draw.draw_tv_layout(
            make_tiled_copy_A(copy_atom("SM75_U16x8_LDSM_T"), tiled).layout_tv, (32, 16),
            "make_tiled_copy_A(SM75_U16x8_LDSM_T): A (32 x 16, M x K)"),
        "layout_tiled_copy_B.svg": draw.draw_tv_layout(
            make_tiled_copy_B(copy_atom("SM75_U16x8_LDSM_T"), tiled).layout_tv, (32, 16),
            "make_tiled_copy_B(SM75_U16x8_LDSM_T): B (32 x 16, N x K)"),
        "layout_ldmatrix_x4.svg": draw.draw_ldmatrix(4, trans=False),
        "layout_ldmatrix_x4_trans.svg": draw.draw_ldmatrix(4, trans=True),
        "layout_swizzle_333.svg": draw.draw_swizzle(smem_tile(16, 64), smem_tile(16, 64, Swizzle(3, 3, 3)), 16, 64),
        "layout_sgemm_transposed_store.svg": transposed_store_figure(),
        "layout_tv_8x8.svg": draw.draw_tv_layout(Layout(((4, 8), 2), ((16, 1), 8)), (8, 8),
                                                 "((4,8),2):((16,1),8) over an 8x8 tile"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "docs" / "img"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, fig in figures().items():
        fig.save(out / name)
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
