"""The shape suites of the benchmark methodology, by name.

A case is (M, N, K, a_layout, b_layout). ``llm`` and ``decode`` use the Linear layout: A is
(M, K) row-major and B = W.t() for an (N, K) contiguous weight W, so B is column-major.
"""

from __future__ import annotations

from typing import NamedTuple

from ..catalog import COL, ROW


class Case(NamedTuple):
    m: int
    n: int
    k: int
    a_layout: str = ROW
    b_layout: str = ROW

    @property
    def label(self) -> str:
        lay = f" {self.a_layout[0].upper()}{self.b_layout[0].upper()}"
        if self.m == self.n == self.k:
            return f"{self.m}^3{lay}"
        return f"{self.m}x{self.n}x{self.k}{lay}"

    @property
    def flops(self) -> int:
        return 2 * self.m * self.n * self.k


LLM_NK = ((4096, 4096), (6144, 4096), (14336, 4096), (4096, 14336), (8192, 8192),
          (28672, 8192), (8192, 28672))


def square(max_size: int = 16384) -> list[Case]:
    return [Case(s, s, s) for s in (1024, 2048, 4096, 8192, 16384) if s <= max_size]


def llm() -> list[Case]:
    return [Case(m, n, k, ROW, COL) for m in (128, 1024, 4096, 8192) for n, k in LLM_NK]


def decode() -> list[Case]:
    return [Case(m, n, k, ROW, COL) for m in (1, 2, 4, 8, 16, 32, 64) for n, k in LLM_NK]


def ragged() -> list[Case]:
    return [Case(*s) for s in ((1, 1, 1), (17, 33, 65), (1000, 1000, 1000), (4097, 4095, 4093),
                               (3000, 5000, 7), (7, 3000, 5000), (8191, 129, 4099),
                               (255, 8193, 1023))]


def layouts(size: int = 4096) -> list[Case]:
    return [Case(size, size, size, la, lb) for la in (ROW, COL) for lb in (ROW, COL)]


def overview() -> list[Case]:
    """The default ``warpgemm bench``: a few sizes, quick."""
    return [Case(1024, 1024, 1024), Case(4096, 4096, 4096)]


SUITES = {"square": square, "llm": llm, "decode": decode, "ragged": ragged, "layouts": layouts}


def get(name: str, *, max_size: int | None = None) -> list[Case]:
    if name not in SUITES:
        raise ValueError(f"unknown suite {name!r}; suites are {', '.join(SUITES)}")
    if name == "square" and max_size is not None:
        return square(max_size)
    return SUITES[name]()
