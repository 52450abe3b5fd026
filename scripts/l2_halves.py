#!/usr/bin/env python3
"""Which SMs read through which half of the L2: the map an SM-keyed tile order would need.

    python scripts/l2_halves.py [--runs 3] [--lines 512] [--json out.json]

The probe (kernels/probes/l2_halves_probe.cu) runs one block per SM. A reference block reads a
set of lines, then another SM times its own read of the same lines, twice: an SM on the
reference's side of the L2 finds every line near on the first pass, one on the other side finds
about half of them in the far half. The extra cycles a load of the first pass over the second
fall into two groups; the script splits them at the widest gap and prints the two halves (as
SM numbers), their sizes and the far-line cost. Each run flushes the L2 first and puts the
reference on whatever SM block 0 lands on; the runs' maps are aligned to the first's halves and
must agree. A run that other work on the GPU disturbed (uneven second passes, slow lines on the
reference's side) is discarded and run again, up to --tries times; the exit status is 2 when
too many were. Where every SM reads every line near (an L2 without halves the probe can see),
it prints one group of all the SMs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from warpgemm.bench import context  # noqa: E402
from warpgemm.runtime.compiler import compile_kernel  # noqa: E402
from warpgemm.runtime.device import sm_count  # noqa: E402
from warpgemm.runtime.launch import launch  # noqa: E402

LINE_SPACING_WORDS = 128  # a line every 512 bytes, so that a set spans more L2 slices


def chains(sets: int, lines: int, seed: int = 1) -> np.ndarray:
    """``sets`` sets of ``lines`` lines, each line's first word the word offset of the next in a
    random cycle through its set that starts at line 0."""
    rng = np.random.default_rng(seed)
    words = lines * LINE_SPACING_WORDS
    out = np.zeros((sets, words), dtype=np.uint32)
    for s in range(sets):
        order = np.concatenate(([0], 1 + rng.permutation(lines - 1)))
        out[s, order * LINE_SPACING_WORDS] = np.roll(order, -1) * LINE_SPACING_WORDS
    return out


def split_halves(extra: dict[int, float]) -> tuple[list[int], list[int], float]:
    """SMs by the extra cycles a load of their first pass: (the low group, the high group, the gap
    between them), split at the widest gap in the sorted values."""
    ranked = sorted(extra, key=extra.get)
    values = [extra[s] for s in ranked]
    gaps = [values[i + 1] - values[i] for i in range(len(values) - 1)]
    cut = max(range(len(gaps)), key=gaps.__getitem__)
    return sorted(ranked[:cut + 1]), sorted(ranked[cut + 1:]), gaps[cut]


def all_near(res: dict) -> bool:
    """Whether every SM read the reference's lines about as fast as its second pass (within a
    tenth of the base latency): a GPU whose L2 has no halves, or none that the probe can see."""
    second = sorted(res["second_pass"].values())
    base = second[len(second) // 2]
    return all(abs(res["first_pass"][s] - res["second_pass"][s]) < 0.1 * base for s in res["first_pass"])


def disturbed(res: dict, near: list[int], far: list[int]) -> str | None:
    """Why a run's latencies cannot be read as the L2's halves, or None. Other work on the GPU
    (another process, a parallel test run) stretches some chases: then the second passes, which
    find every line near, differ from SM to SM, or the SMs on the reference's side show extra
    cycles, or the other side's extras spread far apart."""
    second = sorted(res["second_pass"].values())
    base = second[len(second) // 2]
    if second[0] < 0.8 * base or second[-1] > 1.25 * base:
        return f"second passes from {second[0]:.0f} to {second[-1]:.0f} cycles a load"
    extra = {s: res["first_pass"][s] - res["second_pass"][s] for s in res["first_pass"]}
    if max(abs(extra[s]) for s in near if s in extra) > 0.2 * base:
        return "SMs on the reference's side read some lines slowly"
    far_extra = sorted(extra[s] for s in far)
    if far and (far_extra[0] < 0.5 * far_extra[len(far) // 2] or far_extra[-1] > 2 * far_extra[len(far) // 2]):
        return f"the other side's extra cycles range from {far_extra[0]:.0f} to {far_extra[-1]:.0f}"
    return None


def run_once(kernel, sets: torch.Tensor, lines: int, sms: int, flush: torch.Tensor) -> dict:
    flush.add_(1)  # writes four times the L2: the sets leave it
    flags = torch.zeros(sms, dtype=torch.int32, device="cuda")
    sm_of = torch.full((sms,), -1, dtype=torch.int32, device="cuda")
    cycles = torch.zeros(2 * sms, dtype=torch.int64, device="cuda")
    smem = torch.cuda.get_device_properties(0).shared_memory_per_block_optin  # one block a SM
    launch(kernel, (sms, 1, 1), (32, 1, 1),
           (sets, flags, sm_of, cycles, np.int32(sms), np.int32(lines), np.int64(sets.shape[1])), shared_bytes=smem)
    torch.cuda.synchronize()
    sm = sm_of.tolist()
    cyc = (cycles.view(sms, 2).double() / lines).tolist()
    if len(set(sm)) != sms:
        raise RuntimeError(f"the probe's {sms} blocks did not land on {sms} different SMs: {sorted(sm)}")
    if min(c for pair in cyc[1:] for c in pair) <= 0:
        raise RuntimeError("a probe block timed out waiting: were all blocks resident at once (another process "
                           "on this GPU)?")
    return {"reference_sm": sm[0], "first_pass": {sm[b]: cyc[b][0] for b in range(1, sms)},
            "second_pass": {sm[b]: cyc[b][1] for b in range(1, sms)}}


def measure(run: Callable[[], dict], runs: int, tries: int) -> dict | None:
    """``runs`` undisturbed runs of ``run`` (each a :func:`run_once` result), discarding up to
    ``tries`` disturbed ones (None when more were): each run's halves, named as the first run's,
    the halves of the first (one group where every SM read every line near), whether the runs
    agree, and why each discarded run was. Prints a line a run."""
    kept, maps, discarded = [], [], []
    while len(kept) < runs:
        if len(discarded) >= tries:
            print(f"{len(discarded)} runs disturbed (other work on the GPU?), the last: {discarded[-1]}")
            return None
        res = run()
        extra = {s: res["first_pass"][s] - res["second_pass"][s] for s in res["first_pass"]}
        near, far, gap = split_halves(extra)
        if all_near(res):  # one side only: no far lines to split by
            near, far, gap = sorted(extra), [], 0.0
        why = disturbed(res, near, far)
        if why is not None:
            discarded.append(why)
            continue
        near.append(res["reference_sm"])
        half = {s: 0 for s in near} | {s: 1 for s in far}
        if maps and sum(half[s] == maps[0][s] for s in half) < len(half) / 2:
            half = {s: 1 - h for s, h in half.items()}  # name the halves as the first run did
        maps.append(half)
        far_cost = (2 * (np.mean([extra[s] for s in far]) - np.mean([extra[s] for s in near if s in extra]))
                    if far else 0.0)
        print(f"run {len(kept)}: reference SM {res['reference_sm']}: {len(near)} SMs on its side, {len(far)} on the "
              f"other; a far line costs about {far_cost:.0f} cycles more (the groups {gap:.0f} cycles apart)", flush=True)
        kept.append({**res, "near": sorted(near), "far": far, "gap_cycles": gap, "far_line_cycles": far_cost})
    halves = [hs for hs in (sorted(s for s, h in maps[0].items() if h == k) for k in (0, 1)) if hs]
    return {"halves": halves, "runs_agree": all(m == maps[0] for m in maps), "discarded": discarded, "runs": kept}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lines", type=int, default=512, help="lines a set (default 512)")
    ap.add_argument("--tries", type=int, default=10, help="disturbed runs to discard before giving up")
    ap.add_argument("--json")
    args = ap.parse_args()
    sms = sm_count(0)
    kernel = compile_kernel("probes/l2_halves_probe.cu", "l2_halves_probe")
    sets = torch.from_numpy(chains(sms, args.lines).view(np.int32)).cuda()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.zeros(l2, dtype=torch.int32, device="cuda")  # four times the L2's bytes
    found = measure(lambda: run_once(kernel, sets, args.lines, sms, flush), args.runs, args.tries)
    if found is None:
        return 2
    halves, agree, discarded = found["halves"], found["runs_agree"], found["discarded"]
    if len(halves) == 1:
        print("every SM read every line near: no L2 halves that this probe can see")
    print(f"halves ({' and '.join(str(len(h)) for h in halves)} SMs); the runs {'agree' if agree else 'DISAGREE'}"
          + (f"; {len(discarded)} disturbed runs discarded" if discarded else ""))
    for k, hs in enumerate(halves):
        print(f"  half {k}: {hs}")
    if args.json:
        doc = {"family": "l2_halves", "context": context.collect(), "lines": args.lines,
               "how": "scripts/l2_halves.py: one block a SM; the reference block reads each other block's set of "
                      "lines, then that block times two chases through them (clock64, L1 bypassed)", **found}
        Path(args.json).write_text(json.dumps(doc, indent=1, default=str))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
