"""scripts/k_sweep_timeline.py: the fit that turns kernel durations over K into a main-loop rate."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.fixture(scope="module")
def sweep():
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("k_sweep_timeline", SCRIPTS / "k_sweep_timeline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fit_gives_the_rate_per_1024_of_k_and_the_cost_at_k_zero(sweep):
    # 40 us per 1024 of K on top of 8 us: the durations the fit should undo.
    points = [(k, 8.0 + 40.0 * k / 1024) for k in (512, 4096, 8192)]
    rate, at0 = sweep.fit_line(points)
    assert rate == pytest.approx(40.0)
    assert at0 == pytest.approx(8.0)


def test_the_fit_is_least_squares_over_noisy_points(sweep):
    rate, at0 = sweep.fit_line([(0, 1.0), (1024, 2.0), (2048, 4.0)])
    assert rate == pytest.approx(1.5)  # slope of the least-squares line through the three points
    assert at0 == pytest.approx(5.0 / 6.0)


def test_one_k_alone_gives_no_line(sweep):
    with pytest.raises(ValueError, match="two or more K"):
        sweep.fit_line([(4096, 170.0), (4096, 171.0)])
