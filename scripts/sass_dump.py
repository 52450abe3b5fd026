#!/usr/bin/env python3
"""Compile one catalogue kernel for an arch (NVRTC, no GPU needed) and show its machine code:
the instruction count by opcode, and with --listing the whole disassembly. It reads what a
change does to a kernel's hot loop before any GPU time is spent on it.

    python scripts/sass_dump.py hopper/06_tma_store_epilogue:CLUSTER=2,HOLD=1 --layouts row col
    python scripts/sass_dump.py hopper/06_tma_store_epilogue:CLUSTER=2,HOLD=1 --listing out.sass
    python scripts/sass_dump.py igemm/04_transposing_copy --layouts col col --wait-to-mma

It needs nvdisasm (from a CUDA toolkit, or the nvidia-cuda-nvdisasm wheel): on PATH, or named by
the NVDISASM environment variable. The counts are static (each instruction once, however often a
loop runs it); ncu's sass__inst_executed_per_opcode gives the executed ones.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

import warpgemm
from warpgemm.errors import WarpgemmError
from warpgemm.parsing import parse_kernel

_OPCODE = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)")


def opcode_counts(listing: str) -> collections.Counter[str]:
    """Instructions by opcode (the mnemonic before its first '.') in an nvdisasm listing."""
    return collections.Counter(m.group(1) for m in map(_OPCODE.search, listing.splitlines()) if m)


_MMA = re.compile(r"^[A-Z]*GMMA$")  # HGMMA, IGMMA, ...: a wgmma


def wait_to_mma(listing: str) -> list[str]:
    """The instructions from the first wgmma back to the mbarrier wait before it (``SYNCS.PHASECHK``),
    the wait excluded and the wgmma included: what a consumer runs between its stage's data
    arriving and its tensor cores starting, in the kernels where the first wgmma is the main
    loop's. With no wait before it, from the listing's start; empty when there is no wgmma."""
    found: list[str] = []
    for line in listing.splitlines():
        m = _OPCODE.search(line)
        if not m:
            continue
        if m.group(1) == "SYNCS" and ".PHASECHK" in line:
            found = []
            continue
        found.append(m.group(1))
        if _MMA.match(m.group(1)):
            return found
    return []


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernel", help="NAME[:P=V,...]")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--layouts", nargs=2, default=["row", "col"], metavar=("A", "B"))
    ap.add_argument("--dtype", default=None, help="input dtype (default: the kernel's own)")
    ap.add_argument("--listing", metavar="PATH", help="write the disassembly here")
    ap.add_argument("--wait-to-mma", action="store_true",
                    help="also count the instructions from the last mbarrier wait before the first wgmma to it")
    args = ap.parse_args()
    nvdisasm = os.environ.get("NVDISASM") or shutil.which("nvdisasm")
    if not nvdisasm:
        ap.error("nvdisasm not found: put it on PATH or name it in NVDISASM")
    try:
        name, params = parse_kernel(args.kernel)
        extra = {"in_dtype": args.dtype} if args.dtype else {}
        k = warpgemm.compile(name, args.arch, a_layout=args.layouts[0], b_layout=args.layouts[1], **extra, **params)
    except (ValueError, WarpgemmError) as e:
        ap.error(str(e).splitlines()[0])
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(k.cubin)
        f.flush()
        done = subprocess.run([nvdisasm, "-c", f.name], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"nvdisasm failed: {done.stderr.strip()}")
    listing = "\n".join(re.sub(r" +/\* 0x[0-9a-f]+ \*/", "", line) for line in done.stdout.splitlines()
                        if line.strip())
    if args.listing:
        with open(args.listing, "w") as out:
            out.write(listing + "\n")
    counts = opcode_counts(listing)
    print(f"{args.kernel} ({args.layouts[0]}, {args.layouts[1]}) for {args.arch}: {sum(counts.values())} "
          f"instructions, {k.registers} registers, {k.spill_bytes} bytes spilled")
    for op, n in counts.most_common():
        print(f"  {op:<14} {n:6d}")
    if args.wait_to_mma:
        path = wait_to_mma(listing)
        print(f"from the wait to the first wgmma: {len(path)} instructions")
        for op, n in collections.Counter(path).most_common():
            print(f"  {op:<14} {n:6d}")


if __name__ == "__main__":
    main()
