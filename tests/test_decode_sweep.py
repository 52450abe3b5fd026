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
    # 96 x 4096 x 4096 on an H200: two tiles of 48 tokens now, one tile of 96 before that rule
    import torch

    from warpgemm import dispatch

    now = dispatch.choose(90, "bfloat16", 96, 4096, 4096, layouts=("row", "col"), device="NVIDIA H200")
    before = sweep._choice_before("m65_112_two_tiles", 96, 4096, 4096, torch.bfloat16)
    assert now.params["BN"] == 48
    assert before.kernel == "decode/02_swap_ab_wgmma" and before.params["BN"] == 96


def test_before_refuses_a_text_that_no_rule_names(sweep, on_an_h200):
    import torch

    with pytest.raises(SystemExit, match="no dispatch rule's note names"):
        sweep._choice_before("no rule names this", 96, 4096, 4096, torch.bfloat16)
