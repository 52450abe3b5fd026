#!/usr/bin/env python3
"""ncu's text report (sections or ``--metrics``) as JSON: each profiled kernel's name, grid and
block, and every metric row with its unit, in the order ncu printed them.

    ncu --clock-control none --section SpeedOfLight ... python scripts/ncu_pair.py 4096 4096 4096 > sol.log
    python scripts/ncu_metrics.py sol.log [more.log ...] --json out.json --how "what was run, where"

With several logs, each kernel is keyed by its log's name. Rows that ncu prints twice (a metric
that two sections share) keep the first value.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

_KERNEL = re.compile(r"^  (\S.*?) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\), Context")
_ROW = re.compile(r"^    ([A-Za-z][\w./()%# -]*?)\s{2,}(?:([^\s\d,.-][^\s]*)\s+)?(-?[\d,]+(?:\.\d+)?)\s*$")


def _number(text: str) -> float | int:
    text = text.replace(",", "")
    return float(text) if "." in text else int(text)


def parse(text: str) -> list[dict]:
    """The kernels of one ncu text report, each with its metric rows."""
    kernels: list[dict] = []
    for line in text.splitlines():
        k = _KERNEL.match(line)
        if k:
            name = re.sub(r"\((?:wg::)?TmaDescriptor.*", "", k.group(1)).strip()  # drop the parameter list
            kernels.append({"kernel": name, "grid": [int(k.group(i)) for i in (2, 3, 4)],
                            "block": [int(k.group(i)) for i in (5, 6, 7)], "metrics": {}})
            continue
        r = _ROW.match(line)
        if r and kernels:
            metric, unit, value = r.group(1).strip(), r.group(2) or "", _number(r.group(3))
            kernels[-1]["metrics"].setdefault(metric, {"value": value, "unit": unit})
    return kernels


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="+", type=Path, help="ncu text reports")
    ap.add_argument("--json", type=Path, help="write the result here (default: print it)")
    ap.add_argument("--how", default="", help="what was profiled, on which GPU and tree")
    args = ap.parse_args(argv)
    out: dict = {"how": args.how, "reports": {}}
    for log in args.logs:
        try:
            kernels = parse(log.read_text(errors="replace"))
        except OSError as e:
            print(f"ncu_metrics: cannot read {log}: {e.strerror}", file=sys.stderr)
            return 2
        if not kernels:
            print(f"ncu_metrics: {log} holds no ncu kernel report", file=sys.stderr)
            return 2
        out["reports"][log.stem] = kernels
    text = json.dumps(out, indent=1)
    if args.json:
        args.json.write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
