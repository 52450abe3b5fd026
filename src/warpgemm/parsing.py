"""Parsers for the small text forms users type: ``NAME=VALUE`` template parameters, a kernel
with its parameters (``NAME:P=V,...``) and ``MxNxK`` shapes. Each raises ValueError with a
message that says what was expected."""

from __future__ import annotations

import re
from typing import Iterable


def parse_param(item: str) -> tuple[str, int]:
    """``"STAGES=3"`` -> ``("STAGES", 3)``."""
    key, eq, value = item.partition("=")
    key = key.strip()
    if not eq or not re.fullmatch(r"[A-Za-z_]\w*", key):
        raise ValueError(f"expected NAME=VALUE with an integer VALUE, such as STAGES=3; got {item!r}")
    try:
        return key, int(value)
    except ValueError:
        raise ValueError(f"expected NAME=VALUE with an integer VALUE, such as {key}=3; got {item!r}") from None


def parse_params(items: Iterable[str]) -> dict[str, int]:
    """``["BM=128", "STAGES=3"]`` -> ``{"BM": 128, "STAGES": 3}``."""
    return dict(parse_param(item) for item in items)


def parse_kernel(text: str) -> tuple[str, dict[str, int]]:
    """``"hopper/06_tma_store_epilogue:BM=256,BN=128"`` -> the name and its parameters
    (``("hopper/06_tma_store_epilogue", {"BM": 256, "BN": 128})``); no ``:`` -> no parameters."""
    name, _, rest = text.partition(":")
    return name, parse_params(filter(None, rest.split(",")))


def parse_shape(text: str) -> tuple[int, int, int]:
    """``"4096x4096x1024"`` -> ``(4096, 4096, 1024)``, ``"4096^3"`` -> ``(4096, 4096, 4096)``:
    M, N and K, each at least 1."""
    t = text.strip().lower()
    found = re.fullmatch(r"(\d+)\^3", t) or re.fullmatch(r"(\d+)x(\d+)x(\d+)", t)
    if found is None or any(int(g) < 1 for g in found.groups()):
        raise ValueError(f"expected a shape MxNxK of positive integers such as 4096x4096x4096 (or "
                         f"4096^3), got {text!r}")
    dims = [int(g) for g in found.groups()]
    return (dims[0],) * 3 if len(dims) == 1 else (dims[0], dims[1], dims[2])
