"""What a result was measured on: GPU, clocks, versions, date."""

from __future__ import annotations

import datetime as _dt
import os
import subprocess
from pathlib import Path
from typing import Any

from ..runtime.device import driver_version, nvrtc_build, nvrtc_version, package_version


def _nvidia_smi(query: str) -> str | None:
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits",
                              "-i", "0"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def sm_clock_mhz() -> str | None:
    return _nvidia_smi("clocks.sm")


def _git_commit() -> str | None:
    """The commit of the tree this package runs from (``+dirty`` with uncommitted changes), or
    ``WARPGEMM_COMMIT`` when set: a tree copied out of its checkout (to a GPU machine, say) sits in
    no repository, or in another one whose HEAD is not its commit."""
    named = os.environ.get("WARPGEMM_COMMIT")
    if named:
        return named
    root = Path(__file__).resolve().parents[3]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def collect() -> dict[str, Any]:
    """The context block every results file carries."""
    import torch

    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    cublas = package_version("nvidia-cublas") or package_version("nvidia-cublas-cu12")
    return {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "gpu": props.name,
        "sm_count": props.multi_processor_count,
        "l2_bytes": getattr(props, "L2_cache_size", None),
        "capability": f"{props.major}.{props.minor}",
        "driver": _nvidia_smi("driver_version"),
        "cuda_driver_api": driver_version(),
        "cuda_torch": torch.version.cuda,
        "cublas": cublas,
        "torch": torch.__version__,
        "cuda_core": package_version("cuda-core"),
        "cuda_bindings": package_version("cuda-bindings"),
        "nvrtc": nvrtc_version(),
        "nvrtc_build": nvrtc_build(),
        "warpgemm_commit": _git_commit(),
    }


def read_bandwidth_gbps(gib: float = 2.0, runs: int = 10) -> float:
    """The device's read bandwidth now, in GB/s: a sum over ``gib`` GiB (nearly all reads),
    timed with events, the median of ``runs`` after a warm-up."""
    import statistics

    import torch

    x = torch.ones(int(gib * 2**30) // 2, dtype=torch.bfloat16, device="cuda")
    x.sum()
    times = []
    for _ in range(runs):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        x.sum()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    nbytes = x.numel() * 2
    del x
    torch.cuda.empty_cache()
    return nbytes / statistics.median(times) / 1e6
