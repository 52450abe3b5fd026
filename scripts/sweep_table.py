#!/usr/bin/env python3
"""Read scripts/decode_sweep.py's results as one table: a row per shape (M x N x K), a column per
candidate (lettered A, B, ... in the order of their parameter strings; ``auto`` and ``before``
last), each cell the candidate's speed x cuBLAS, the fastest of the row starred:

    python scripts/sweep_table.py docs/results/m33_56_token_tile_sweep_h200.json [more.json ...]

Several files are read as one (a sweep run per row count, say); a shape measured in two files
keeps the later file's figures. ``--against NAME`` adds a column: the row's ``auto`` (or another
candidate's) lead over NAME's, so that a rule's check reads off as gains.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

Shape = tuple[int, int, int]
LAST = ("auto", "before")


def speedups(paths: list[Path]) -> dict[str, dict[Shape, float]]:
    """Candidate (its parameter string, or auto / before) -> shape -> speed x cuBLAS."""
    table: dict[str, dict[Shape, float]] = defaultdict(dict)
    for path in paths:
        for r in json.loads(path.read_text())["results"]:
            table[r["params"]][(r["m"], r["n"], r["k"])] = r["speedup"]
    return dict(table)


def columns(table: dict[str, dict[Shape, float]]) -> list[str]:
    """The candidates in table order: parameter strings sorted, then auto and before."""
    return sorted((c for c in table if c not in LAST)) + [c for c in LAST if c in table]


def render(table: dict[str, dict[Shape, float]], against: str | None = None,
           lead: str = "auto") -> str:
    """The legend (a letter per candidate) and the table, as text."""
    cols = columns(table)
    if against is not None and (against not in table or lead not in table):
        raise SystemExit(f"--against: the results hold no {against if against not in table else lead!r}")
    letters = {c: c if c in LAST else chr(ord("A") + i) for i, c in enumerate(cols)}
    lines = [f"{letters[c]:>6}  {c}" for c in cols if c not in LAST]
    shapes = sorted({s for cells in table.values() for s in cells}, key=lambda s: (s[0], s[1], s[2]))
    head = f"{'M x N x K':>20} " + " ".join(f"{letters[c]:>7}" for c in cols)
    lines.append(head + (f" {lead} - {letters[against]}" if against else ""))
    for shape in shapes:
        cells = {c: table[c].get(shape) for c in cols}
        best = max(v for v in cells.values() if v is not None)
        row = f"{' x '.join(str(d) for d in shape):>20} " + " ".join(
            "      -" if v is None else f"{v:6.3f}" + ("*" if v == best else " ") for v in cells.values())
        if against is not None and cells[lead] is not None and cells[against] is not None:
            row += f" {cells[lead] - cells[against]:+.3f}"
        lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--against", default=None,
                    help="a candidate's parameter string, or before: add the lead of --lead over it")
    ap.add_argument("--lead", default="auto", help="the candidate whose lead --against reports (default auto)")
    args = ap.parse_args(argv)
    missing = [str(p) for p in args.paths if not p.is_file()]
    if missing:
        print(f"sweep_table.py: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        table = speedups(args.paths)
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        print(f"sweep_table.py: not a decode_sweep.py results file ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    print(render(table, args.against, args.lead))
    return 0


if __name__ == "__main__":
    sys.exit(main())
