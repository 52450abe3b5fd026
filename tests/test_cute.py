"""Kernels written in CuTe: compiled by warpgemm's NVRTC runtime from the headers of pip wheels
(the `cute` extra), with no toolkit; a clear error without them."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest

from warpgemm.errors import MissingExtraError
from warpgemm.runtime import compile_kernel, compiler, headers

from conftest import extra_installed


needs_headers = pytest.mark.skipif(not extra_installed("cute"), reason=f"the CuTe headers are not installed ({headers.INSTALL})")


@needs_headers
@pytest.mark.parametrize("arch", ["sm_80", "sm_90a"])
def test_a_cute_kernel_compiles_without_a_toolkit(arch, fresh_cache):
    k = compile_kernel("probes/cute_print_probe.cu", "cute_print_probe<0>", arch)
    assert k.cubin[:4] == b"\x7fELF" and k.spill_bytes == 0


@needs_headers
def test_the_cache_key_covers_the_header_wheels_versions(fresh_cache, monkeypatch):
    compile_kernel("probes/cute_print_probe.cu", "cute_print_probe<0>", "sm_80")
    compiler.forget_loaded()
    assert compile_kernel("probes/cute_print_probe.cu", "cute_print_probe<0>", "sm_80").from_cache
    compiler.forget_loaded()
    monkeypatch.setattr(headers, "versions", lambda: "nvidia-cutlass=9.9")
    assert not compile_kernel("probes/cute_print_probe.cu", "cute_print_probe<0>", "sm_80").from_cache


def test_without_the_extra_a_cute_kernel_names_the_install_command(monkeypatch, fresh_cache):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "cutlass_library" else real(name, *a))
    headers.cute_include_paths.cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=r'nvidia-cutlass \(CuTe\).*pip install "warpgemm\[cute\]"'):
            compile_kernel("probes/cute_print_probe.cu", "cute_print_probe<0>", "sm_80")
    finally:
        headers.cute_include_paths.cache_clear()


def test_the_cute_rung_is_listed_without_the_extra_and_compiling_it_names_the_install_command(monkeypatch,
                                                                                             fresh_cache):
    import warpgemm
    from warpgemm import catalog

    spec = catalog.get("hgemm/09_cute_tiled_mma")
    assert spec in catalog.kernels("hgemm") and spec.extra == "cute"
    monkeypatch.setattr(headers, "cute_include_paths",
                        lambda: (_ for _ in ()).throw(MissingExtraError(f"needs CuTe: {headers.INSTALL}")))
    with pytest.raises(MissingExtraError, match=r'pip install "warpgemm\[cute\]"'):
        warpgemm.compile(spec.name, "sm_80", a_layout="row", b_layout="col")


def test_the_write_ups_fp16_accumulate_atom_takes_fp16_in_and_out_only():
    from warpgemm import catalog

    spec = catalog.get("hgemm/09_cute_tiled_mma")
    inst = spec.instance("col", "row", "float16", "float16", {"F16_ACCUMULATE": 1})
    assert inst.name_expression.endswith(", 1>")
    for in_dtype, out_dtype in (("bfloat16", "bfloat16"), ("float16", "float32")):
        with pytest.raises(ValueError, match=r"F16_ACCUMULATE=1 is the F16F16F16F16 atom: fp16 inputs and fp16 output"):
            spec.instance("row", "col", in_dtype, out_dtype, {"F16_ACCUMULATE": 1})
    with pytest.raises(ValueError, match="F16_ACCUMULATE is 0 .* or 1"):
        spec.instance("row", "col", "float16", "float16", {"F16_ACCUMULATE": 2})


@needs_headers
def test_the_write_ups_own_configuration_compiles_without_spills(fresh_cache):
    """MN-major shared tiles read by SM75_U16x8_LDSM_T (A column-major, B row-major) and the
    F16F16F16F16 atom; test_compile covers the fp32-accumulate atom in every layout."""
    import warpgemm

    k = warpgemm.compile("hgemm/09_cute_tiled_mma", "sm_80", a_layout="col", b_layout="row", in_dtype="float16",
                         F16_ACCUMULATE=1)
    assert k.spill_bytes == 0 and k.registers <= 255


def test_kernels_without_cute_need_no_extra(monkeypatch, fresh_cache):
    monkeypatch.setattr(headers, "cute_include_paths", lambda: pytest.fail("looked for the CuTe headers"))
    assert compile_kernel("sgemm/01_naive.cu", "sgemm_naive<true, true, 16, 16>", "sm_80").cubin


# -- warpgemm.layout against C++ CuTe's own print -------------------------------------------------

RECORDED = Path(__file__).resolve().parent.parent / "docs" / "results" / "cute_print_sm90.txt"
"""What probes/cute_print_probe.cu printed on an H200 (CuTe 4.2, NVRTC 13.0, sm_90a)."""


def cute_sections(text: str) -> dict[str, str]:
    """The probe's ``== name`` blocks; a tensor's pointer (``smem_ptr[16b](0x...) o``) is dropped,
    leaving its layout."""
    sections: dict[str, str] = {}
    for block in re.split(r"^== ", text, flags=re.MULTILINE)[1:]:
        name, _, body = block.partition("\n")
        sections[name.strip()] = re.sub(r"^\w*ptr\[\d+b\]\(0x[0-9a-f]+\) o ", "", body.strip() + "\n")
    return sections


def warpgemm_sections() -> dict[str, str]:
    """The same objects from warpgemm.layout, formatted as CuTe prints them."""
    from warpgemm.layout import (Layout, copy_atom, make_layout, make_tiled_copy_A, make_tiled_copy_B,
                                 make_tiled_mma, mma_atom)

    sa, sb, sc = Layout((128, 32), (1, 128)), Layout((128, 32), (1, 128)), Layout((128, 128), (1, 128))
    atom = mma_atom("SM80_16x8x16_F16F16F16F16_TN")
    tiled = make_tiled_mma(atom, make_layout((2, 2, 1)), (32, 32, 16))
    copy_a = make_tiled_copy_A(copy_atom("SM75_U16x8_LDSM_T"), tiled)
    copy_b = make_tiled_copy_B(copy_atom("SM75_U16x8_LDSM_T"), tiled)
    thr, thr_a, thr_b = tiled.get_slice(0), copy_a.get_slice(0), copy_b.get_slice(0)
    frag_a, frag_b = thr.partition_fragment_A(sa), thr.partition_fragment_B(sb)
    objects = {
        "mma_atom": atom, "tiled_mma": tiled, "smem_tiled_copy_A": copy_a, "smem_tiled_copy_B": copy_b,
        "partition_A": thr.partition_A(sa), "partition_B": thr.partition_B(sb), "partition_C": thr.partition_C(sc),
        "partition_fragment_A": frag_a, "partition_fragment_B": frag_b,
        "partition_fragment_C": thr.partition_fragment_C(sc),
        "partition_S_A": thr_a.partition_S(sa), "partition_S_B": thr_b.partition_S(sb),
        "retile_D_A": thr_a.retile_D(frag_a), "retile_D_B": thr_b.retile_D(frag_b),
    }
    return {name: format(obj, "_").strip() + "\n" for name, obj in objects.items()}


def test_warpgemm_layout_prints_what_cute_printed():
    recorded = cute_sections(RECORDED.read_text())
    mine = warpgemm_sections()
    assert recorded.keys() == mine.keys()
    for name in recorded:
        assert mine[name] == recorded[name], f"{name}: warpgemm.layout differs from C++ CuTe"


@pytest.mark.gpu
@needs_headers
def test_cute_itself_prints_what_warpgemm_layout_prints(capfd):
    import torch

    from warpgemm.runtime import launch

    k = compile_kernel("probes/cute_print_probe.cu", "cute_print_probe<0>")
    launch(k, (1, 1, 1), (128, 1, 1), ())
    torch.cuda.synchronize()  # the device's printf reaches the C library's stdout buffer ...
    ctypes.CDLL(None).fflush(None)  # ... and this writes it out
    printed = cute_sections(capfd.readouterr().out)
    assert printed == warpgemm_sections()


def test_a_libcu_that_clashes_with_cutlass_is_named(monkeypatch):
    monkeypatch.setattr(headers, "_version", lambda name: "13.3.5" if name == "nvidia-cuda-cccl" else "x")
    headers.cute_include_paths.cache_clear()
    try:
        with pytest.raises(MissingExtraError, match=r'nvidia-cuda-cccl 13\.3\.5 .* pip install "nvidia-cuda-cccl==13\.0\.\*"'):
            headers.cute_include_paths()
    finally:
        headers.cute_include_paths.cache_clear()
