"""scripts/ncu_source_regions.py: warp-state samples summed over a warp-specialised kernel's parts,
found from its SASS."""

import csv
from pathlib import Path

import pytest
from conftest import load_script


def _script():
    return load_script("ncu_source_regions")


SASS = (["LDC R1, c[0x0][0x28]"] * 4
        + ["IMAD R154, R9, 0x8, R10", "SHF.L.U32 R19, R8, 0x1f, RZ", "YIELD",
           "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R154+URZ+0x30000], R19", "@!P0 BRA 0x0"]
        + ["R2UR UR14, R22", "HGMMA.64x256x16.F32.BF16 R24, gdesc[UR12], R24"]
        + ["WARPGROUP.DEPBAR.LE gsb0, 0x0"]
        + ["SEL R9, R9, RZ, P0"] * 7
        + ["STSM.16.M88.4 [R26], R20", "UTMASTG.2D [UR16], [UR10]"] + ["NOP"] * 14
        + ["SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R15+URZ+0x30020], R4", "EXIT"])


def _report(tmp_path: Path, samples: list[int]) -> Path:
    path = tmp_path / "sass.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Kernel Name", "void hopper_tma_store_epilogue<...>"])
        w.writerow(["Address", "Source", "Warp Stall Sampling (All Samples)", "# Samples"])
        for i, (s, n) in enumerate(zip(SASS, samples)):
            w.writerow([hex(i * 16), "      " + s, str(n), str(n)])
    return path


def test_every_sample_lands_in_exactly_one_part_and_the_consumers_parts_share_their_time(tmp_path):
    samples = [1] * len(SASS)
    samples[SASS.index("WARPGROUP.DEPBAR.LE gsb0, 0x0")] = 50
    out = _script().summarise(_report(tmp_path, samples))
    parts = out["regions"]
    assert sum(v["samples"] for v in parts.values()) == out["total_samples"] == sum(samples)
    assert parts["consumer: wait for the k-tile's HGMMA (WARPGROUP.DEPBAR)"]["samples"] == 50
    assert parts["consumer: wait for a stage's data (mbarrier try_wait loop)"]["samples"] == 5
    assert parts["consumer: epilogue (convert, stmatrix, barriers, fences, TMA stores)"]["samples"] == 16
    consumer = [v["share_of_consumer"] for k, v in parts.items() if k.startswith("consumer")]
    assert sum(consumer) == pytest.approx(1.0, abs=1e-3)


def test_a_kernel_without_the_warp_specialised_parts_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="not a warp-specialised kernel with a TMA-store epilogue"):
        _script().regions(["FFMA R1, R2, R3, R4", "EXIT"])
