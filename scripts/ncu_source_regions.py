#!/usr/bin/env python3
"""Where a warp-specialised Hopper kernel's warps spend their time, by range of its SASS: ncu's
warp-state samples (the source page of a report taken with ``--section SourceCounters
--section WarpStateStats``, exported as CSV) summed over the consumers' wait for a stage, their
descriptor building and wgmma issue, their wait for the wgmma, the stage's release, the
epilogue, and the producer's part.

    ncu --clock-control none -k regex:hopper_tma -s 2 -c 1 --section SourceCounters \\
        --section WarpStateStats --warp-sampling-interval 0 -o rep python scripts/ncu_pair.py 4096 4096 4096
    ncu -i rep.ncu-rep --page source --csv --print-source sass > sass.csv
    python scripts/ncu_source_regions.py sass.csv [--json out.json] [--how "..."]

The ranges are found from the SASS itself: the consumers' main loop starts three instructions
before the first mbarrier try_wait and its wgmma end at the first ``WARPGROUP.DEPBAR``; the
epilogue runs from the end of that loop to shortly after the last TMA store (``UTMASTG``); what
follows is the producer's loop and the block's exit. Kernels of another shape (a held epilogue,
split-K reductions) need their own ranges.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path


def regions(sass: list[str]) -> dict[str, tuple[int, int]]:
    """The SASS ranges [start, end) of rung 06's parts, from its instruction text."""
    tries = [i for i, s in enumerate(sass) if "TRYWAIT" in s]
    depbars = [i for i, s in enumerate(sass) if "WARPGROUP.DEPBAR" in s]
    stores = [i for i, s in enumerate(sass) if "UTMASTG" in s]
    if not tries or not depbars or not stores:
        raise ValueError("no mbarrier try_wait, WARPGROUP.DEPBAR or UTMASTG in the SASS: not a warp-specialised "
                         "kernel with a TMA-store epilogue")
    loop, depbar, last_store = tries[0] - 3, depbars[0], stores[-1]
    return {
        "set-up": (0, loop),
        "consumer: wait for a stage's data (mbarrier try_wait loop)": (loop, tries[0] + 2),
        "consumer: build descriptors and issue the k-tile's HGMMA": (tries[0] + 2, depbar),
        "consumer: wait for the k-tile's HGMMA (WARPGROUP.DEPBAR)": (depbar, depbar + 1),
        "consumer: release the stage, loop": (depbar + 1, depbar + 8),
        "consumer: epilogue (convert, stmatrix, barriers, fences, TMA stores)": (depbar + 8, last_store + 15),
        "producer and idle producer warps (TMA issue, empty-barrier waits, final cluster barrier)":
            (last_store + 15, len(sass)),
    }


def summarise(path: Path) -> dict:
    rows = list(csv.reader(path.open()))
    kernel, header, data = rows[0][1], rows[1], rows[2:]
    samples = header.index("Warp Stall Sampling (All Samples)")
    sass = [r[1].strip() for r in data]
    counts = [int(r[samples]) for r in data]
    total = sum(counts)
    out = {"kernel": kernel, "total_samples": total, "regions": {}}
    for name, (a, b) in regions(sass).items():
        s = sum(counts[a:b])
        out["regions"][name] = {"samples": s, "share_of_all": round(s / total, 4)}
    consumer = sum(v["samples"] for k, v in out["regions"].items() if k.startswith("consumer"))
    for k, v in out["regions"].items():
        if k.startswith("consumer"):
            v["share_of_consumer"] = round(v["samples"] / consumer, 4)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", type=Path, help="ncu's source page, --csv --print-source sass")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--how", default="", help="how the report was taken, kept in the JSON")
    args = ap.parse_args()
    try:
        out = summarise(args.csv)
    except (OSError, ValueError, IndexError) as e:  # no such file, not ncu's source page, another kernel
        print(f"ncu_source_regions.py: {args.csv}: {e}", file=sys.stderr)
        return 2
    if args.how:
        out = {"kernel": out["kernel"], "how": args.how, **{k: v for k, v in out.items() if k != "kernel"}}
    for name, v in out["regions"].items():
        share = v.get("share_of_consumer")
        print(f"{name}: {v['samples']} samples" + (f", {100 * share:.1f}% of the consumers'" if share else ""))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
