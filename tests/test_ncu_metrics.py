"""scripts/ncu_metrics.py: ncu's text report as JSON, one entry a profiled kernel."""

import json

from conftest import load_script


def _script():
    return load_script("ncu_metrics")


REPORT = """==PROF== Connected to process 1
  nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT (2, 66, 1)x(384, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    Elapsed Cycles                cycle      284,412
    Duration                         us       175.74
    L2 Cache Throughput               %        57.81
    ----------------------- ----------- ------------
  void hopper_tma_store_epilogue<1, 0, wg::bf16_t, wg::bf16_t, 128, 256, 64, 4, 8, 2, 0, 0>(wg::TmaDescriptor, wg::TmaDescriptor, T4 *, int) (132, 1, 1)x(384, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: Launch Statistics
    Cluster Size                                                   2
    Registers Per Thread             register/thread             168
    sm__cycles_active.min        cycle      211,893
    L2 Cache Throughput               %        63.70
    L2 Cache Throughput               %        99.00
"""


def test_each_kernel_keeps_its_name_grid_block_and_metric_rows_with_units():
    kernels = _script().parse(REPORT)
    assert [k["kernel"] for k in kernels] == [
        "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT",
        "void hopper_tma_store_epilogue<1, 0, wg::bf16_t, wg::bf16_t, 128, 256, 64, 4, 8, 2, 0, 0>"]
    assert kernels[0]["grid"] == [2, 66, 1] and kernels[1]["block"] == [384, 1, 1]
    assert kernels[0]["metrics"]["Elapsed Cycles"] == {"value": 284412, "unit": "cycle"}
    assert kernels[0]["metrics"]["Duration"] == {"value": 175.74, "unit": "us"}
    ours = kernels[1]["metrics"]
    assert ours["Cluster Size"] == {"value": 2, "unit": ""}
    assert ours["Registers Per Thread"] == {"value": 168, "unit": "register/thread"}
    assert ours["sm__cycles_active.min"]["value"] == 211893
    assert ours["L2 Cache Throughput"]["value"] == 63.70  # a row printed twice keeps its first value


def test_the_json_names_each_report_for_its_log_and_a_log_without_kernels_is_refused(tmp_path, capsys):
    script = _script()
    log, empty, out = tmp_path / "ncu_auto.log", tmp_path / "empty.log", tmp_path / "out.json"
    log.write_text(REPORT)
    empty.write_text("==PROF== Disconnected\n")
    assert script.main([str(log), "--json", str(out), "--how", "a test"]) == 0
    data = json.loads(out.read_text())
    assert data["how"] == "a test" and len(data["reports"]["ncu_auto"]) == 2
    assert script.main([str(empty)]) == 2
    assert "holds no ncu kernel report" in capsys.readouterr().err
    assert script.main([str(tmp_path / "missing.log")]) == 2
