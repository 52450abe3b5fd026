"""scripts/targets.py reads the benchmark results and states each performance target: the figure,
cuBLAS's in the same run, and whether it holds."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results"


def _targets():
    return load_script("targets")


def _row(m, n, k, kernel, ms, speedup=None, **extra):
    row = {"m": m, "n": n, "k": k, "kernel": kernel, "median_ms": ms, "tflops": 2 * m * n * k / ms / 1e9, **extra}
    if speedup is not None:
        row["speedup"] = speedup
    return row


def test_the_committed_decode_results_give_the_figures_the_docs_quote():
    lines = _targets().lines(decode=json.loads((RESULTS / "decode_auto.json").read_text()))
    assert lines[0].startswith("[NVIDIA H100")
    assert "median 1.047x cuBLAS over 49 shapes" in lines[1] and "3 below 1.0x" in lines[1]
    square = next(line for line in lines if line.startswith("decode 4096 x 4096"))
    assert "1.236 / 1.232 / 1.214 / 1.052 / 1.026x" in square and square.endswith("NOT MET")
    assert next(line for line in lines if "read bandwidth" in line).endswith(": met")


def test_a_target_is_met_only_when_every_figure_reaches_it():
    t = _targets()
    square = {"context": {"gpu": "GPU"}, "results": [
        _row(s, s, s, "cuBLAS bf16", 1.0) for s in (2048, 4096, 8192, 16384)] + [
        _row(2048, 2048, 2048, "warpgemm auto", 1.0, 0.99), _row(4096, 4096, 4096, "warpgemm auto", 1.0, 1.03),
        _row(8192, 8192, 8192, "warpgemm auto", 2 * 8192 ** 3 / 791.3e12 * 1e3, 1.05),
        _row(16384, 16384, 16384, "warpgemm auto", 1.0, 1.01)]}
    lines = t.lines(square=square)
    assert lines[1] == "square suite bf16 (2048-16384): median 1.0200x >= 1.00x: met"
    assert lines[2].startswith("4096^3 bf16: 1.030x") and lines[2].endswith(": met")
    assert "80.0% of 989" in lines[3] and lines[3].endswith(": met")
    square["results"][-3]["speedup"] = 1.029
    assert t.lines(square=square)[2].endswith("NOT MET")


def test_no_results_is_a_message_and_a_missing_file_an_error(tmp_path, capsys):
    t = _targets()
    assert t.main([]) == 0 and "no results given" in capsys.readouterr().out
    assert t.main(["--llm", str(tmp_path / "none.json")]) == 2
    assert "targets: FileNotFoundError" in capsys.readouterr().err
