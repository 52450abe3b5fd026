"""The ``warpgemm`` command: bench, explain, kernels, info, compile."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

def _cmd_kernels(args: argparse.Namespace) -> int:
    from . import catalog

    for spec in catalog.kernels(args.family):
        layouts = ",".join((a[0] + b[0]).upper() for a, b in spec.layouts)
        params = " ".join(f"{k}={v}" for k, v in spec.params.items())
        print(f"{spec.name:<32} {spec.math:<6} {spec.arch:<6} {'/'.join(spec.in_dtypes):<17} "
              f"layouts {layouts:<11} {params}")
        print(f"{'':<32} {spec.idea}")
        for c in spec.constraints:
            print(f"{'':<32} requires: {c}")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    from .runtime import cache
    from .runtime.device import (current_arch, driver_version, has_device, nvrtc_version,
                                 package_version)

    import torch

    lines = []
    if has_device():
        props = torch.cuda.get_device_properties(torch.cuda.current_device())
        lines.append(("device", f"{props.name} ({props.multi_processor_count} SMs, "
                                f"{props.total_memory / 2**30:.0f} GiB)"))
        lines.append(("arch", current_arch()))
    else:
        lines.append(("device", "none: no CUDA device is available (torch.cuda.is_available() "
                                "is False); compile and explain still work"))
    lines += [
        ("driver (CUDA API)", driver_version() or "none"),
        ("CUDA (torch build)", str(torch.version.cuda)),
        ("NVRTC", nvrtc_version()),
        ("torch", torch.__version__),
        ("cuda-core", package_version("cuda-core") or "not installed"),
        ("cuda-bindings", package_version("cuda-bindings") or "not installed"),
    ]
    count, size = cache.usage()
    lines.append(("cache", f"{cache.cache_root()} ({count} entries, {size / 2**20:.1f} MiB)"))
    for key, value in lines:
        print(f"{key:>20}: {value}")
    return 0


def _cmd_compile(args: argparse.Namespace) -> int:
    from . import catalog
    from .api import compile as wg_compile
    from .parsing import parse_params

    names = [s.name for s in catalog.kernels(args.family)] if args.name == "all" else [args.name]
    params = parse_params(args.param)
    for name in names:
        k = wg_compile(name, args.arch, a_layout=args.a_layout, b_layout=args.b_layout, **params)
        print(f"{name:<32} {k.arch:<7} {k.registers:>4} regs  {k.spill_bytes:>5} B spill  "
              f"{k.shared_bytes:>6} B static smem  {'cached' if k.from_cache else f'{k.compile_seconds:.2f} s'}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from .runtime.device import has_device

    if not has_device():
        print("warpgemm bench: no CUDA device is available (torch.cuda.is_available() is False); "
              "benchmarks need a GPU.", file=sys.stderr)
        return 2
    from . import catalog, dtypes
    from .bench import report, runner, suites
    from .parsing import parse_shape

    family = args.family
    if family == "ceiling":
        from .bench import ceiling

        return ceiling.main(json_path=args.json, sweep=args.occupancy)
    if family == "model":
        from .bench import model

        return model.main(json_path=args.json)
    if family is None:  # the default overview: every family, a few sizes, quick
        families = list(dict.fromkeys(s.family for s in catalog.CATALOG))
        cases, suite, target = suites.overview(), "overview", 0.15
    elif args.shapes:
        families, suite, target = [family], "custom", 1.0
        cases = [suites.Case(*parse_shape(s), args.a_layout, args.b_layout) for s in args.shapes]
    else:
        families = [family]
        suite = args.suite
        cases = suites.get(suite, max_size=catalog.family(family).square_max)
        target = 1.0
    results = []
    for fam in families:
        choices = ([runner.parse_choice(k, fam) for k in args.kernels] if args.kernels
                   else runner.default_choices(fam))
        printed = []

        def show(case, rows):
            printed.append(report.case_table(rows))
            print(printed[-1], flush=True)

        dtype = dtypes.torch_dtype(args.dtype or catalog.family(fam).bench_dtype)
        results.append(runner.run(cases, choices, suite=suite, family=fam, dtype=dtype,
                                  progress=not args.no_progress, target_seconds=target, on_case=show))
    for res in results:
        if res["suite"] == "decode":
            print(report.bandwidth_table(res))
        for kind, c in (res.get("ceiling") or {}).items():
            print(f"mma.sync {kind} ceiling on its own: {c['tflops_before']:.1f} TFLOP/s before the run, "
                  f"{c['tflops_after']:.1f} after; timed in the rounds with the kernels:")
            best: dict[tuple, dict] = {}
            for r in res["results"]:
                key = (r["m"], r["n"], r["k"], r["a_layout"], r["b_layout"])
                if r.get("ceiling_kind") == kind and r["of_ceiling"] > best.get(key, {}).get("of_ceiling", -1):
                    best[key] = r
            for (m, n, k, la, lb), r in best.items():
                print(f"  {m}x{n}x{k} {la[0]}{lb[0]}: {r['ceiling_tflops']:.1f} TFLOP/s, "
                      f"best {r['of_ceiling']:.3f}x of it ({r['kernel']})")
        if args.json:
            path = args.json if len(results) == 1 else args.json.replace(".json", f"_{res['family']}.json")
            report.write_json(res, path)
            print(f"wrote {path}")
        if args.plot:
            path = args.plot if len(results) == 1 else args.plot.replace(".", f"_{res['family']}.", 1)
            report.plot(res, path)
            print(f"wrote {path}")
    return 0


def _cmd_tune(args: argparse.Namespace) -> int:
    from .runtime.device import has_device

    if not has_device():
        print("warpgemm tune: no CUDA device is available; tuning measures kernels on a GPU.",
              file=sys.stderr)
        return 2
    from . import dtypes
    from .bench import suites
    from .parsing import parse_shape
    from .tuning import search, table

    if args.shapes:
        cases = [suites.Case(*parse_shape(s), args.a_layout, args.b_layout) for s in args.shapes]
    else:
        cases = suites.get(args.suite)
    dtype = dtypes.torch_dtype(args.dtype)
    for case in cases:
        res = search.tune(args.name, case.m, case.n, case.k, dtype=dtype, a_layout=case.a_layout,
                        b_layout=case.b_layout, progress=not args.no_progress)
        ok = sum(t is not None for _, t, _ in res.tried)
        params = " ".join(f"{k}={v}" for k, v in res.params.items())
        tflops = case.flops / res.ms / 1e9
        print(f"{case.label:<24} {res.ms:8.3f} ms {tflops:8.1f} TFLOP/s  {params}  ({ok}/{len(res.tried)} ran)")
    print(f"choices saved in {table.table_path()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="warpgemm", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("bench", help="benchmark kernels against same-run baselines")
    p.add_argument("family", nargs="?", default=None,
                   help="kernel family (sgemm, hgemm, decode), 'ceiling', or 'model' (a Llama model, patched "
                        "against unpatched); none = a quick overview of all")
    p.add_argument("--suite", default="square", help="square | llm | decode | ragged | layouts")
    p.add_argument("--shapes", nargs="+", help="explicit MxNxK shapes instead of a suite")
    p.add_argument("--a-layout", default="row", choices=("row", "col"), help="with --shapes")
    p.add_argument("--b-layout", default="row", choices=("row", "col"), help="with --shapes")
    p.add_argument("--kernels", nargs="+", help="kernel names, optionally NAME:P=V,... (e.g. 08:STAGES=2)")
    p.add_argument("--dtype", choices=("float32", "float16", "bfloat16"), default=None,
                   help="input dtype (default: float32 for sgemm, bfloat16 for hgemm)")
    p.add_argument("--json", help="write results (with their context) to this JSON file")
    p.add_argument("--plot", help="write a TFLOP/s plot to this PNG/SVG file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--occupancy", action="store_true",
                   help="with 'ceiling': also sweep warps per SM and independent mma chains per warp")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("tune", help="autotune a kernel's parameters per shape on this GPU")
    p.add_argument("name", help="catalogue name, e.g. hgemm/07_tuned")
    p.add_argument("--suite", default="square", help="shape suite to tune (square, llm, ...)")
    p.add_argument("--shapes", nargs="+", help="explicit MxNxK shapes instead of a suite")
    p.add_argument("--a-layout", default="row", choices=("row", "col"))
    p.add_argument("--b-layout", default="row", choices=("row", "col"))
    p.add_argument("--dtype", default="bfloat16", choices=("float32", "float16", "bfloat16"))
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=_cmd_tune)

    p = sub.add_parser("kernels", help="list the kernel catalogue")
    p.add_argument("family", nargs="?", default=None)
    p.set_defaults(func=_cmd_kernels)

    p = sub.add_parser("info", help="device, versions and cache")
    p.set_defaults(func=_cmd_info)

    p = sub.add_parser("compile", help="compile a kernel (no GPU needed) and show ptxas's report")
    p.add_argument("name", help="catalogue name, or 'all'")
    p.add_argument("--family", default=None, help="with 'all': only this family")
    p.add_argument("--arch", default=None, help="sm_80, sm_90a, ... (default: the current GPU's)")
    p.add_argument("--a-layout", default="row", choices=("row", "col"))
    p.add_argument("--b-layout", default="row", choices=("row", "col"))
    p.add_argument("-p", "--param", action="append", default=[], help="template parameter NAME=VALUE")
    p.set_defaults(func=_cmd_compile)

    from .layout import explain

    explain.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, TypeError, KeyError, RuntimeError) as exc:
        print(f"warpgemm: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
