"""The warpgemm command line, as far as it runs without a GPU."""

from __future__ import annotations

import pytest

from warpgemm.cli import main

from conftest import HAS_GPU


def test_kernels_lists_every_rung_with_its_idea(capsys):
    assert main(["kernels", "sgemm"]) == 0
    out = capsys.readouterr().out
    assert "sgemm/01_naive" in out and "sgemm/08_tf32_mma" in out
    assert "one thread per element of C" in out
    assert "requires: 16-byte aligned" in out


def test_compile_prints_the_ptxas_report_without_a_gpu(capsys):
    assert main(["compile", "sgemm/02_smem_sliced_k", "--arch", "sm_80"]) == 0
    out = capsys.readouterr().out
    assert "sgemm/02_smem_sliced_k" in out and "regs" in out and "B spill" in out


def test_compile_errors_are_reported_not_raised(capsys):
    assert main(["compile", "sgemm/99_nothing", "--arch", "sm_80"]) == 2
    assert "no kernel named 'sgemm/99_nothing'" in capsys.readouterr().err


def test_info_shows_versions_and_the_cache(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    for key in ("device", "NVRTC", "torch", "cuda-core", "cache"):
        assert key in out
    if not HAS_GPU:
        assert "no CUDA device is available" in out


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a CUDA device")
def test_bench_without_a_gpu_says_so_and_fails(capsys):
    assert main(["bench"]) == 2
    assert "no CUDA device is available" in capsys.readouterr().err
