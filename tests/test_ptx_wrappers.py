"""The inline-PTX wrappers: one set per arch, one name per instruction, the same names as
warpgemm.layout's atoms, and no asm anywhere else."""

from __future__ import annotations

import re
from pathlib import Path

from warpgemm.layout import atoms
from warpgemm.runtime import KERNELS_ROOT

ARCH_HEADERS = sorted((KERNELS_ROOT / "arch").glob("*.cuh"))
_STRUCT = re.compile(r"^struct (SM\d+_\w+) \{(.*?)^\};", re.S | re.M)
_ASM = re.compile(r'asm(?: volatile)?\(\s*"([^"]*)')


def _atom_structs() -> dict[str, list[str]]:
    """Every atom struct of arch/*.cuh -> the instructions its asm blocks issue."""
    found: dict[str, list[str]] = {}
    for path in ARCH_HEADERS:
        for name, body in _STRUCT.findall(path.read_text()):
            assert name not in found, f"{name} is defined twice"
            found[name] = [m.split()[0] for m in _ASM.findall(body)]
    return found


def test_each_arch_header_guards_its_arch_and_builds_on_the_one_before():
    names = [p.name for p in ARCH_HEADERS]
    assert names == ["sm70.cuh", "sm75.cuh", "sm80.cuh", "sm90.cuh"]
    for older, newer in zip(ARCH_HEADERS, ARCH_HEADERS[1:]):
        text = newer.read_text()
        assert f'#include "arch/{older.name}"' in text
        assert "#error" in text and "__CUDA_ARCH__ <" in text


def test_every_mma_and_ldmatrix_wrapper_is_named_after_its_layout_atom():
    structs = _atom_structs()
    known = {**atoms.MMA_ATOMS, **atoms.COPY_ATOMS}
    for name, instructions in structs.items():
        if not (name.startswith("SM75_U") or "_TN" in name):
            continue  # cp.async atoms have no layout picture
        assert name in known, f"{name} has no atom of that name in warpgemm.layout"
        ptx = known[name].ptx.split()[0]
        assert instructions and all(i == ptx for i in instructions), (name, instructions, ptx)


def test_every_atom_the_kernels_use_has_one_wrapper():
    structs = _atom_structs()
    for name in ("SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN",
                 "SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
                 "SM80_16x8x32_S32S8S8S32_TN", "SM80_16x8x64_S32S4S4S32_TN", "SM80_8x8x32_S32S4S4S32_TN",
                 "SM70_8x8x4_F16F16F16F16_TN", "SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T",
                 "SM80_8x8x32_S32U4U4S32_TN", "SM80_16x8x32_S32S4S4S32_TN", "SM80_16x8x32_S32U4U4S32_TN",
                 "SM80_16x8x64_S32U4U4S32_TN"):
        assert name in structs


def test_no_kernel_source_outside_arch_issues_its_own_asm():
    for path in KERNELS_ROOT.rglob("*.cu*"):
        if path.parent.name == "arch":
            continue
        for m in re.finditer(r'asm(?: volatile)?\(\s*"([^"]*)"', path.read_text()):
            assert m.group(1) == "", f"{path.relative_to(KERNELS_ROOT)} issues asm {m.group(1)!r}: add a wrapper to arch/"


def test_no_rung_includes_another_kernel_file():
    for path in KERNELS_ROOT.rglob("*.cu"):
        for inc in re.findall(r'#include "([^"]+)"', path.read_text()):
            assert inc.endswith(".cuh"), f"{path.relative_to(KERNELS_ROOT)} includes {inc}"


def test_the_generated_wgmma_wrappers_are_current():
    import subprocess
    import sys

    script = Path(__file__).resolve().parent.parent / "scripts" / "gen_wgmma_wrappers.py"
    result = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_wgmma_atom_has_a_wrapper_and_a_gmma_selector():
    text = (KERNELS_ROOT / "arch" / "sm90.cuh").read_text()
    for n in (64, 128, 192, 256):
        for letters, t, ptx in (("F32F16F16", "half_t", "f32.f16.f16"), ("F32BF16BF16", "bf16_t", "f32.bf16.bf16")):
            assert f"struct SM90_64x{n}x16_{letters}_SS {{" in text
            assert f"wgmma.mma_async.sync.aligned.m64n{n}k16.{ptx}" in text
            assert f"struct Gmma<{t}, {n}, TRANS_A, TRANS_B>" in text
        assert f"struct SM90_64x{n}x32_S32S8S8_SS {{" in text
