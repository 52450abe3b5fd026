"""``warpgemm explain`` and the drawings: text output reproduces the reference layouts, ``--svg`` and
``--png`` write real files, and the probe kernels compile for sm_80 and sm_90a."""

from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET

import pytest

from warpgemm.layout import Layout, Swizzle, make_layout, make_tiled_mma, mma_atom, smem_tile
from warpgemm.layout import draw
from warpgemm.layout.explain import main, register, tv_table

SVG_NS = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_explain_mma_prints_the_atom_and_its_grids(capsys):
    out = run(capsys, "mma", "SM80_16x8x16_F16F16F16F16_TN")
    assert "LayoutA_TV: ((4,8),(2,2,2)):((32,1),(16,8,128))" in out
    assert "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16" in out
    # Row 8 of A starts with lane 0's values 2 and 3 (a1 = rows g+8).
    row8 = next(line for line in out.splitlines() if line.startswith("  8 "))
    assert row8.split()[1:3] == ["T0V2", "T0V3"]
    assert "_32:_1" in run(capsys, "mma", "SM80_16x8x16_F16F16F16F16_TN", "--static")


def test_explain_ldmatrix_gives_lane_0_of_the_quadrant_example(capsys):
    out = run(capsys, "ldmatrix", "x4")
    assert "lane  0: 0 1 8 9 128 129 136 137" in out
    assert "T8:m1r0" in out and "SM75_U32x4_LDSM_N" in out
    out_t = run(capsys, "ldmatrix", "x2", "--trans", "--lanes", "0,5")
    assert "SM75_U16x4_LDSM_T" in out_t
    assert "lane  5: 33 49 41 57" in out_t      # .trans: lane 5 gets column 1, rows 2-3 of each matrix
    assert "T16:-" in run(capsys, "ldmatrix", "x2")


def test_explain_swizzle_shows_the_chunk_permutation_and_the_cure(capsys):
    out = run(capsys, "swizzle", "3", "3", "3", "--rows", "16", "--cols", "64", "--dtype", "f16")
    assert "Sw<3,3,3> o 0 o (16,64):(64,1)" in out
    assert "  r1   1   0   3   2   5   4   7   6" in out
    assert "before ldmatrix.x4: 32 wavefronts, ideal 4, 28 extra (8-way)" in out
    assert "after  ldmatrix.x4: 4 wavefronts, ideal 4, conflict-free" in out


def test_explain_tiled_mma_defaults_to_the_128x128x32_fp16_configuration(capsys):
    out = run(capsys, "tiled-mma")
    for expected in ("ThrLayoutVMNK:  (32,2,2,1):(1,32,64,0)", "PermutationMNK: (32,32,16)",
                     "partition_A:          ((2,2,2),4,2):((128,8,1024),32,2048)",
                     "partition_fragment_C: ((2,2),4,8):((1,2),4,16)",
                     "TiledLayout_TV: ((4,8,2,2),((2,2),(2,1))):((64,1,0,8),((32,256),(16,0)))",
                     "partition_S: ((8,1),4,2):((1,0),32,2048)", "retile_D:    ((8,1),4,2):((1,0),8,32)"):
        assert expected in out
    other = run(capsys, "tiled-mma", "--layout", "1,4,1", "--perm", "", "--thread", "33", "--copy", "")
    assert "ThrLayoutVMNK:  (32,1,4,1):(1,0,32,0)" in other and "TiledCopy" not in other


def test_explain_banks_quantifies_ldmatrix_and_the_transposed_store(capsys):
    out = run(capsys, "banks")
    assert "no swizzle   ldmatrix.x4: 32 wavefronts, ideal 4, 28 extra (8-way)" in out
    assert "Sw<3,3,3>    ldmatrix.x4: 4 wavefronts, ideal 4, conflict-free" in out
    assert "pad 0   32-bit store: 2 wavefronts, ideal 1, 1 extra (2-way)" in out
    assert "pad 4   32-bit store: 1 wavefront, ideal 1, conflict-free" in out


@pytest.mark.parametrize("argv", [["mma"], ["ldmatrix", "x1"], ["swizzle"], ["tiled-mma"], ["banks"]])
def test_every_command_draws_svg_and_png(argv, tmp_path, capsys):
    svg, png = tmp_path / "out.svg", tmp_path / "out.png"
    run(capsys, *argv, "--svg", str(svg), "--png", str(png))
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG_NS}svg" and len(root.findall(f"{SVG_NS}rect")) > 16
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_wrong_output_suffix_is_refused(tmp_path, capsys):
    assert main(["mma", "--svg", str(tmp_path / "x.png")]) == 2
    assert "argument --svg: expected a file name ending in .svg" in capsys.readouterr().err


def test_register_adds_explain_to_a_parent_cli(capsys):
    parser = argparse.ArgumentParser(prog="warpgemm")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["explain", "ldmatrix", "x4"])
    assert args.func(args) == 0
    assert "lane  0: 0 1 8 9 128 129 136 137" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------
# Drawings
# ---------------------------------------------------------------------------------------------

def _cells(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text for t in root.iter(f"{SVG_NS}text") if t.text]


def test_tv_drawing_has_one_labelled_cell_per_element():
    atom = mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    fig = draw.draw_tv_layout(atom.layout_c_tv, (16, 8), "C")
    panel = fig.panels[0]
    assert (panel.rows, panel.cols, len(panel.cells)) == (16, 8, 128)
    assert panel.cells[(8, 0)][0] == "T0\nV2" and panel.cells[(0, 1)][0] == "T0\nV1"
    # Colour by thread: all of lane 5's cells share one colour, lane 6's differ from it.
    colours5 = {fill for (label, fill) in panel.cells.values() if label.startswith("T5\n")}
    colours6 = {fill for (label, fill) in panel.cells.values() if label.startswith("T6\n")}
    assert len(colours5) == 1 and colours5 != colours6
    assert "T31" in _cells(fig.to_svg())


def test_tiled_mma_drawing_covers_each_operand():
    tiled = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", make_layout((2, 2, 1)), (32, 32, 16))
    a, b, c = draw.draw_tiled_mma(tiled).panels
    assert (a.rows, a.cols, len(a.cells)) == (32, 16, 512)
    assert (b.rows, b.cols, len(b.cells)) == (16, 32, 512)
    assert (c.rows, c.cols, len(c.cells)) == (32, 32, 1024)


def test_ldmatrix_drawing_marks_address_lanes_and_registers():
    fig = draw.draw_ldmatrix(4)
    addr, regs = fig.panels
    assert addr.cells[(0, 8)][0] == "T8" and (0, 8) in addr.bold
    assert regs.cells[(8, 8)][0] == "T0\nR3.0"


def test_bank_map_before_and_after_swizzle():
    fig = draw.draw_swizzle(smem_tile(16, 64), smem_tile(16, 64, Swizzle(3, 3, 3)), 16, 64)
    before, after = fig.panels
    first_chunk_banks = lambda p: {p.cells[(r, 0)][0] for r in range(8)}  # noqa: E731
    assert first_chunk_banks(before) == {"b0-3"}
    assert len(first_chunk_banks(after)) == 8
    assert "Before: 8 wavefronts; after: 1" in fig.caption
    single = draw.draw_bank_map(Layout((4, 32), (32, 1)), 4, 32, elem_bytes=4)
    assert single.panels[0].cells[(1, 0)][0] == "b0-3"


def test_tv_table_text():
    text = tv_table(Layout((2, 2), (2, 1)), 2, 2)
    assert text.splitlines()[1].split() == ["0", "T0V0", "T1V0"]


# ---------------------------------------------------------------------------------------------
# Probe kernels compile without a GPU
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_probe_kernels_compile(arch, fresh_cache):
    from warpgemm.runtime import compile_kernel
    for num in (1, 2, 4):
        for trans in ("false", "true"):
            k = compile_kernel("probes/ldmatrix_probe.cu", f"ldmatrix_probe<{num}, {trans}>", arch=arch)
            assert k.spill_bytes == 0
    for kind in range(8):
        k = compile_kernel("probes/mma_probe.cu", f"mma_probe<{kind}>", arch=arch)
        assert k.spill_bytes == 0 and len(k.cubin) > 0
