"""Benchmarks: shape suites, same-run baselines, interleaved timing, reports."""
