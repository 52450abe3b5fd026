"""scripts/decode_sweep.py: what it times besides its candidates."""

from __future__ import annotations

import pytest
from conftest import load_script


@pytest.fixture(scope="module")
def sweep():
    return load_script("decode_sweep")


@pytest.fixture
def on_an_h200(monkeypatch):
    import torch

    from warpgemm.runtime import device

    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(device, "current_capability", lambda: 90)
    monkeypatch.setattr(device, "device_name", lambda index: "NVIDIA H200")


def test_before_is_what_auto_chose_without_the_rules_a_results_file_names(sweep, on_an_h200):
    # 96 x 4096 x 2048 on an H200: two tiles of 48 tokens now, one tile of 96 before that rule
    import torch

    from warpgemm import dispatch

    now = dispatch.choose(90, "bfloat16", 96, 4096, 2048, layouts=("row", "col"), device="NVIDIA H200")
    before = sweep._choice_before("m65_112_two_tiles", 96, 4096, 2048, torch.bfloat16)
    assert now.params["BN"] == 48 and not now.params.get("SHARE_W")
    assert before.kernel == "decode/02_swap_ab_wgmma" and before.params["BN"] == 96


def test_before_refuses_a_text_that_no_rule_names(sweep, on_an_h200):
    import torch

    with pytest.raises(SystemExit, match="no dispatch rule's note names"):
        sweep._choice_before("no rule names this", 96, 4096, 4096, torch.bfloat16)


def _results(path, rows):
    import json

    path.write_text(json.dumps({"results": [
        {"m": m, "n": n, "k": k, "params": p, "speedup": s} for m, n, k, p, s in rows]}))
    return path


def test_the_table_letters_the_candidates_stars_each_rows_fastest_and_reads_files_as_one(tmp_path):
    table_script = load_script("sweep_table")
    a = _results(tmp_path / "a.json", [(40, 4096, 4096, "BN=40", 1.10), (40, 4096, 4096, "auto", 1.10),
                                        (40, 4096, 4096, "before", 1.03)])
    b = _results(tmp_path / "b.json", [(36, 6144, 4096, "BN=40", 1.01), (36, 6144, 4096, "before", 0.82),
                                        (36, 6144, 4096, "auto", 1.008)])
    table = table_script.speedups([a, b])
    assert table_script.columns(table) == ["BN=40", "auto", "before"]
    text = table_script.render(table, against="before")
    lines = text.splitlines()
    assert lines[0].split() == ["A", "BN=40"]
    assert lines[1].split() == ["M", "x", "N", "x", "K", "A", "auto", "before", "auto", "-", "before"]
    assert lines[2].split() == ["36", "x", "6144", "x", "4096", "1.010*", "1.008", "0.820", "+0.188"]
    assert lines[3].split() == ["40", "x", "4096", "x", "4096", "1.100*", "1.100*", "1.030", "+0.070"]


def test_the_table_says_what_is_missing_rather_than_failing(tmp_path, capsys):
    table_script = load_script("sweep_table")
    a = _results(tmp_path / "a.json", [(40, 4096, 4096, "auto", 1.10)])
    with pytest.raises(SystemExit, match="no 'before'"):
        table_script.render(table_script.speedups([a]), against="before")
    assert table_script.main([str(tmp_path / "none.json")]) == 2
    (tmp_path / "bad.json").write_text("{}")
    assert table_script.main([str(tmp_path / "bad.json")]) == 2
    assert "not a decode_sweep.py results file" in capsys.readouterr().err
