#!/usr/bin/env python3
"""Sum ncu's per-instruction shared-memory wavefronts, actual and ideal, by opcode.

    ncu --section SourceCounters --page source --csv --print-source sass -k regex:hgemm -c 1 \\
        python scripts/profile_one.py hgemm/07_tuned 4096 4096 4096 --dtype bfloat16 > src.csv
    python scripts/ncu_shared_excess.py src.csv

"L1 Wavefronts Shared" above "L1 Wavefronts Shared Ideal" on an instruction is a bank conflict
caused by that instruction's addresses. Exits 1 if any instruction has excess wavefronts.
"""

from __future__ import annotations

import collections
import csv
import sys


def _num(text: str) -> float:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main(path: str) -> int:
    rows = list(csv.reader(open(path, newline="")))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    col = {name: j for j, name in enumerate(rows[head])}
    actual, ideal = collections.Counter(), collections.Counter()
    excess = []
    for r in rows[head + 1:]:
        if len(r) < len(col):
            continue
        w, wi = _num(r[col["L1 Wavefronts Shared"]]), _num(r[col["L1 Wavefronts Shared Ideal"]])
        if not (w or wi):
            continue
        op = r[col["Source"]].split()[0]
        actual[op] += w
        ideal[op] += wi
        if w > wi:
            excess.append(f"  {r[col['Address']]} {r[col['Source']]}: {w:.0f} wavefronts, ideal {wi:.0f}")
    for op in sorted(actual):
        print(f"{op:<36} {actual[op]:>14,.0f} wavefronts, ideal {ideal[op]:>14,.0f}")
    print(f"{'all shared-memory instructions':<36} {sum(actual.values()):>14,.0f} wavefronts, ideal "
          f"{sum(ideal.values()):>14,.0f}; instructions with excess wavefronts: {len(excess)}")
    print("\n".join(excess))
    return 1 if excess else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
