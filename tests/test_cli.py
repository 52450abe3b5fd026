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
    assert "8448 B static +      0 B dynamic smem" in out


def test_compile_reports_static_and_dynamic_shared_memory(capsys):
    from warpgemm import catalog

    spec = catalog.get("sgemm/07_cp_async")
    assert main(["compile", spec.name, "--arch", "sm_80", "-p", "STAGES=2"]) == 0
    dynamic = spec.smem_bytes(spec.resolve({"STAGES": 2}))
    assert f"0 B static + {dynamic:>6} B dynamic smem" in capsys.readouterr().out


def test_compile_all_skips_a_kernel_whose_extra_is_missing_and_names_the_install_command(monkeypatch, capsys,
                                                                                          fresh_cache):
    # fresh_cache: a CuTe kernel an earlier test compiled would come from the process's memo
    from warpgemm.errors import MissingExtraError
    from warpgemm.runtime import headers

    monkeypatch.setattr(headers, "cute_include_paths",
                        lambda: (_ for _ in ()).throw(MissingExtraError(f"needs CuTe: {headers.INSTALL}")))
    from warpgemm import catalog

    real = catalog.kernels  # the CuTe rung and one small kernel after it, to keep the test quick
    monkeypatch.setattr(catalog, "kernels", lambda family=None, arch=None: [
        catalog.get("hgemm/09_cute_tiled_mma"), catalog.get("sgemm/01_naive")] if family == "hgemm" else real(family, arch))
    assert main(["compile", "all", "--family", "hgemm", "--arch", "sm_80"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("hgemm/09_cute_tiled_mma") and 'skipped: needs CuTe: pip install "warpgemm[cute]"' in lines[0]
    assert lines[1].startswith("sgemm/01_naive") and "regs" in lines[1]  # compiling went on


def test_compile_all_skips_kernels_newer_than_the_arch(capsys):
    assert main(["compile", "all", "--family", "sgemm", "--arch", "sm_75"]) == 0
    out = capsys.readouterr().out
    assert "sgemm/07_cp_async                sm_75   skipped: needs sm_80 or newer" in out
    assert "sgemm/06_k16_double_buffer       sm_75 " in out and "regs" in out


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


def test_compile_without_layouts_takes_the_kernels_first_layout(capsys):
    from warpgemm.cli import main

    assert main(["compile", "decode/01_swap_ab_splitk", "--arch", "sm_80"]) == 0
    assert "decode/01_swap_ab_splitk" in capsys.readouterr().out
