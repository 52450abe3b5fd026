"""scripts/targets.py reads the benchmark results and states each performance target: the figure,
cuBLAS's in the same run, and whether it holds."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import load_script

from warpgemm.bench import report

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


def _square_run(gpu, commit, date, r4096):
    at_700 = 2 * 8192 ** 3 / 700e12 * 1e3  # 8192^3 at 700 TFLOP/s: 70.8% of the peak
    return {"context": {"gpu": gpu, "warpgemm_commit": commit, "date": date}, "results": [
        _row(s, s, s, "cuBLAS bf16", at_700 if s == 8192 else 1.0) for s in (2048, 4096, 8192, 16384)] + [
        _row(2048, 2048, 2048, "warpgemm auto", 1.0, 0.99), _row(4096, 4096, 4096, "warpgemm auto", 1.0, r4096),
        _row(8192, 8192, 8192, "warpgemm auto", at_700, 1.0), _row(16384, 16384, 16384, "warpgemm auto", 1.0, 1.01)]}


def test_the_history_is_a_row_a_run_oldest_first_with_each_met_target_in_bold(tmp_path):
    t = _targets()
    files = {"targets_hopper_square_auto_h100.json": _square_run("NVIDIA H100 80GB HBM3", "aaaaaaa", "2026-01-01", 0.98),
             "targets_run2_hopper_square_auto_h200.json": _square_run("NVIDIA H200", "bbbbbbb", "2026-01-02", 1.03),
             "targets_run2_hopper_square_auto_fp16_h200.json": _square_run("NVIDIA H200", "bbbbbbb", "2026-01-02", 0.9),
             "targets_run2_hopper_llm_auto_h200.json": {"context": {}, "results": [
                 _row(1024, 4096, 4096, "cuBLAS bf16", 1.0), _row(1024, 4096, 4096, "warpgemm auto", 1.0, 1.002),
                 _row(128, 4096, 4096, "cuBLAS bf16", 1.0), _row(128, 4096, 4096, "warpgemm auto", 1.0, 0.5)]},
             "targets_run2_h200.txt": "not a benchmark file", "hopper_square_auto_h100.json": "{}"}
    for name, content in files.items():
        (tmp_path / name).write_text(content if isinstance(content, str) else json.dumps(content))
    rows = t.history(tmp_path)["rows"]
    assert [(r["run"], r["gpu"]) for r in rows] == [("targets", "NVIDIA H100 80GB HBM3"), ("targets_run2", "NVIDIA H200")]
    assert rows[0]["median"] == 0.995 and "median_fp16" not in rows[0] and "llm_median" not in rows[0]
    assert rows[1]["median"] == 1.005 and rows[1]["median_fp16"] == 0.995 and rows[1]["llm_median"] == 1.002
    table = report.markdown_table(t.history(tmp_path))
    first, second = table.splitlines()[2:4]
    assert first.startswith("| run 1 | H100 80GB HBM3 | aaaaaaa 2026-01-01 | 0.9950x |") and "**" not in first
    assert second.startswith("| run 2 | H200 | bbbbbbb 2026-01-02 | **1.0050x** / 0.9950x | **1.030x**")
    assert second.endswith("| **1.0020x** |  |")  # the llm median from 1024 rows; no model run


def test_the_history_marks_each_kind_of_run_with_its_own_note(tmp_path):
    t = _targets()
    fixed = _square_run("NVIDIA H100 80GB HBM3", "aaaaaaa", "2026-01-01", 1.0)
    balanced = {**_square_run("NVIDIA H200", "ccccccc", "2026-01-03", 1.0),
                "method": {"timing": "interleaved rounds in a balanced order"}}
    for name, content in {"targets_fixed_order_hopper_square_auto_h100.json": fixed,
                          "targets_run2_hopper_square_auto_h200.json": _square_run("NVIDIA H200", "bbbbbbb", "2026-01-02", 1.0),
                          "targets_run3_hopper_square_auto_h200.json": balanced}.items():
        (tmp_path / name).write_text(json.dumps(content))
    table = report.markdown_table(t.history(tmp_path)).splitlines()
    runs = [line.split("|")[1].strip() for line in table[2:5]]
    assert runs == ["fixed order*", "run 2", "run 3†"]
    assert "*: cuBLAS first in every round" in table[-1] and "†: the rounds in a balanced order" in table[-1]


def test_the_history_is_written_for_the_tables_and_an_empty_folder_is_an_error(tmp_path, capsys):
    t = _targets()
    out = tmp_path / "history.json"
    assert t.main(["--history", str(out)]) == 2 and "no targets runs" in capsys.readouterr().err
    (tmp_path / "targets_hopper_square_auto_h100.json").write_text(
        json.dumps(_square_run("NVIDIA H100 80GB HBM3", "aaaaaaa", "2026-01-01", 1.0)))
    assert t.main(["--history", str(out)]) == 0
    assert json.loads(out.read_text())["family"] == "targets_history"


def test_the_committed_history_is_the_runs_committed():
    committed = json.loads((RESULTS / "hopper_targets_history.json").read_text())
    assert committed == json.loads(json.dumps(_targets().history(RESULTS)))
