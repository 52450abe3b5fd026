#!/usr/bin/env python3
"""Compile every catalogue kernel instantiation (every layout and dtype pair at its defaults,
plus the parameter sets of the committed tuning table and of the dispatch rules) and the
bench/probe kernels, and record a SHA-256 of each cubin's code, so that a refactor can be shown
to leave the machine code unchanged. No GPU is needed.

    python scripts/sass_snapshot.py out.json [--arch sm_90a sm_80] [--cache DIR]
    python scripts/sass_snapshot.py --compare before.json after.json

The hash covers the kernel's ``.text`` section (its SASS), its ``.nv.info`` resource notes and
its shared-memory size, read from the cubin's ELF section table, so that symbol names do not
count.

Every kernel is compiled afresh, into an empty kernel cache of its own (``--cache``: a new
temporary directory unless named), so that no cubin comes from another compiler build that the
cache key does not tell apart. NVRTC is not always deterministic: in one snapshot of 1453
compiles, one sm_80 kernel (sgemm/04, 128 x 128) came out with 124 registers where every other
compile of the same source, in either tree and in fresh processes, gave 119. A kernel reported
changed whose sources did not change is worth compiling again before it is believed.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import multiprocessing as mp
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from warpgemm.runtime.compiler import elf_sections  # noqa: E402


def code_hash(cubin: bytes) -> str:
    h = hashlib.sha256()
    for name, data in sorted(elf_sections(cubin).items()):
        if name.startswith(".text.") or name.startswith(".nv.info.") or name.startswith(".nv.shared."):
            kind = name.split(".")[1] + "." + name.split(".")[2] if name.startswith(".nv.") else "text"
            h.update(kind.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def jobs(archs: list[str]) -> list[tuple[str, str, str]]:
    from warpgemm import catalog, dispatch

    out: list[tuple[str, str, str]] = []
    tuned = json.loads((ROOT / "docs/results/hgemm_tuning.json").read_text())
    tuned_params = sorted({tuple(sorted(v["params"].items())) for v in tuned.values()})
    # what the dispatch rules run: each rule's parameters over its kernel's defaults
    # (with the parameters that follow from the shape at the corners of the rule's M bucket, as
    # tests/test_dispatch.py takes them)
    rule_params: dict[str, set[tuple]] = {}  # kernel -> {(params, the rule's layouts or None)}
    for rule in dispatch.RULES:
        if not rule.params:
            continue
        spec = catalog.get(rule.kernel)
        for m in {max(rule.m[0], 1), min(rule.m[1], 8192)}:
            p = spec.fill_shape_params(spec.resolve(rule.params), rule.params, m, max(rule.n[0], 1), max(rule.k[0], 1))
            if spec.valid is None or spec.valid(p):
                rule_params.setdefault(rule.kernel, set()).add((tuple(sorted(p.items())), rule.layouts))
    for arch in archs:
        for spec in catalog.CATALOG:
            if spec.arch_specific and spec.arch != arch:
                continue  # sm_90a's instructions compile for sm_90a only: nothing to compare elsewhere
            param_sets: list[tuple[dict, object]] = [(dict(spec.params), None)]  # (params, layouts or None: all)
            if spec.name == "hgemm/07_tuned":
                param_sets += [(spec.resolve(dict(p)), None) for p in tuned_params]
            param_sets += [(spec.resolve(dict(p)), lays) for p, lays in sorted(rule_params.get(spec.name, ()), key=str)]
            for la, lb in spec.layouts:
                for din in spec.in_dtypes:
                    # the input's own type, float32 and the integer kernels' int32 sums
                    outs = [d for d in spec.out_dtypes if d in (din, "float32", "int32")]
                    for dout in outs:
                        for p, lays in param_sets:
                            if lays is not None and (la, lb) not in lays:
                                continue
                            if spec.check_params is not None and spec.check_params(p, din, dout):
                                continue  # a static_assert of the template, said before compiling
                            if hasattr(spec, "instance"):
                                inst = spec.instance(la, lb, din, dout, p)
                                src, expr = inst.source, inst.name_expression
                            else:
                                src = spec.source
                                expr = spec.name_expression(la == "row", lb == "row", p, din, dout)
                            out.append((src, expr, arch))
        for code in range(4):
            for chains, sets in ((8, 4), (8, 1)):
                out.append(("bench/mma_ceiling.cu", f"wg::mma_ceiling<{code}, {chains}, {sets}>", arch))
        for num in (1, 2, 4):
            for trans in ("false", "true"):
                out.append(("probes/ldmatrix_probe.cu", f"ldmatrix_probe<{num}, {trans}>", arch))
    return sorted(set(out))


def _one(job: tuple[str, str, str]) -> tuple[str, str]:
    from warpgemm.runtime import compile_kernel

    from warpgemm.errors import CompileError

    source, expr, arch = job
    try:
        k = compile_kernel(source, expr, arch)
    except CompileError as e:  # recorded, so that a compare shows it, rather than ending the run
        return f"{arch} {expr}", "compile error: " + str(e).splitlines()[0]
    return f"{arch} {expr}", code_hash(k.cubin)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", nargs="?")
    ap.add_argument("--arch", nargs="+", default=["sm_90a", "sm_80"])
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cache", metavar="DIR", help="the kernel cache to compile into (default: a new, empty "
                                                   "temporary directory)")
    args = ap.parse_args()
    if args.compare:
        before, after = (json.loads(Path(p).read_text()) for p in args.compare)
        same = [k for k in before if after.get(k) == before[k]]
        changed = [k for k in before if k in after and after[k] != before[k]]
        missing = [k for k in before if k not in after]
        added = [k for k in after if k not in before]
        print(f"{len(same)} identical, {len(changed)} changed, {len(missing)} only before, {len(added)} only after")
        for label, keys in (("changed", changed), ("only before", missing), ("only after", added)):
            for k in keys:
                print(f"  {label}: {k}")
        return 0 if not changed and not missing else 1
    # the workers are spawned after this, and read the cache's place from the environment
    os.environ["WARPGEMM_CACHE"] = args.cache or tempfile.mkdtemp(prefix="sass-snapshot-")
    todo = jobs(args.arch)
    print(f"{len(todo)} instantiations", flush=True)
    result: dict[str, str] = {}
    with cf.ProcessPoolExecutor(args.workers, mp_context=mp.get_context("spawn")) as pool:
        for i, (key, digest) in enumerate(pool.map(_one, todo, chunksize=4)):
            result[key] = digest
            if i % 50 == 0:
                print(f"  {i}/{len(todo)}", flush=True)
    Path(args.out).write_text(json.dumps(result, indent=1, sort_keys=True))
    errors = [k for k, v in result.items() if v.startswith("compile error")]
    for k in errors:
        print(f"  {k}: {result[k]}")
    print(f"wrote {args.out}" + (f"; {len(errors)} did not compile" if errors else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
