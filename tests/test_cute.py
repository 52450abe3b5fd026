"""Kernels written in CuTe: compiled by warpgemm's NVRTC runtime from the headers of pip wheels
(the `cute` extra), with no toolkit; a clear error without them."""

from __future__ import annotations

import pytest

from warpgemm.errors import MissingExtraError
from warpgemm.runtime import compile_kernel, compiler, headers


def _have_headers() -> bool:
    try:
        headers.cute_include_paths()
    except MissingExtraError:
        return False
    return True


needs_headers = pytest.mark.skipif(not _have_headers(), reason=f"the CuTe headers are not installed ({headers.INSTALL})")


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


def test_kernels_without_cute_need_no_extra(monkeypatch, fresh_cache):
    monkeypatch.setattr(headers, "cute_include_paths", lambda: pytest.fail("looked for the CuTe headers"))
    assert compile_kernel("sgemm/01_naive.cu", "sgemm_naive<true, true, 16, 16>", "sm_80").cubin
