"""Parsers for the small text forms users type: ``NAME=VALUE`` template parameters and ``MxNxK``
shapes. Each raises ValueError with a message that says what was expected."""

from __future__ import annotations

from typing import Iterable


def parse_param(item: str) -> tuple[str, int]:
    """``"STAGES=3"`` -> ``("STAGES", 3)``."""
    key, eq, value = item.partition("=")
    key = key.strip()
    if not eq or not key:
        raise ValueError(f"bad parameter {item!r}: write NAME=VALUE, e.g. STAGES=3")
    try:
        return key, int(value)
    except ValueError:
        raise ValueError(f"bad parameter {item!r}: {key} takes a whole number, e.g. {key}=3") from None


def parse_params(items: Iterable[str]) -> dict[str, int]:
    """``["BM=128", "STAGES=3"]`` -> ``{"BM": 128, "STAGES": 3}``."""
    return dict(parse_param(item) for item in items)


def parse_shape(text: str) -> tuple[int, int, int]:
    """``"4096x4096x1024"`` -> ``(4096, 4096, 1024)``: M, N and K, each at least 1."""
    parts = text.lower().split("x")
    try:
        m, n, k = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"bad shape {text!r}: write MxNxK with three whole numbers, e.g. 4096x4096x1024") from None
    if min(m, n, k) < 1:
        raise ValueError(f"bad shape {text!r}: M, N and K must each be at least 1")
    return m, n, k
