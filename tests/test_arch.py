"""Which architectures the NVRTC in use compiles for, and which each kernel needs (no GPU)."""

from __future__ import annotations

import pytest

import warpgemm
from warpgemm.runtime import compile_kernel
from warpgemm.runtime.device import check_arch, require_arch, supported_archs


def test_supported_archs_come_from_nvrtc_with_their_arch_specific_forms():
    archs = supported_archs()
    assert archs[0] == "sm_75"           # NVRTC 13 dropped sm_70 and older
    assert {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_120"} <= set(archs)
    assert "sm_80a" not in archs and "sm_89a" not in archs and "sm_70" not in archs
    assert all(a.startswith("sm_") for a in archs)


@pytest.mark.parametrize("arch", ["sm_999", "hopper", "sm_70", "sm_80a", "compute_90", "", "SM_80"])
def test_check_arch_refuses_what_nvrtc_cannot_compile_and_lists_what_it_can(arch):
    with pytest.raises(ValueError, match=r"use one of sm_75, .*sm_90a"):
        check_arch(arch)


def test_check_arch_accepts_every_listed_arch():
    for arch in supported_archs():
        check_arch(arch)


def test_require_arch_names_the_kernel_the_minimum_and_the_request():
    require_arch("sgemm/08_tf32_mma", 80, "sm_80")
    require_arch("sgemm/08_tf32_mma", 80, "sm_90a")
    with pytest.raises(ValueError, match=r"^sgemm/08_tf32_mma needs sm_80 or newer; asked for sm_75$"):
        require_arch("sgemm/08_tf32_mma", 80, "sm_75")
    with pytest.raises(ValueError, match="use one of"):
        require_arch("sgemm/01_naive", 70, "sm_60")


def test_compile_refuses_a_kernel_on_an_arch_below_its_minimum():
    with pytest.raises(ValueError, match="sgemm/07_cp_async needs sm_80 or newer; asked for sm_75"):
        warpgemm.compile("sgemm/07_cp_async", "sm_75")
    with pytest.raises(ValueError, match="'hopper' is not one NVRTC"):
        warpgemm.compile("sgemm/01_naive", "hopper")


def test_compile_kernel_checks_the_arch_before_reading_the_source():
    with pytest.raises(ValueError, match="'sm_999' is not one NVRTC"):
        compile_kernel("sgemm/01_naive.cu", "sgemm_naive<true, true, 16, 16>", "sm_999")
