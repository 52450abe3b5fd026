"""The ``warpgemm`` command: bench, tune, kernels, info, compile, explain.

A wrong argument is reported as one line on stderr, naming the argument and what it accepts, with
exit status 2 (``cli_args`` has the checks).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, Sequence

from . import __version__
from .cli_args import (ArgumentParser, arch, fail, one_line, output_file, param, shape_mnk,
                       suggest)
from .errors import CompileError, KernelNotFoundError, MissingExtraError, UsageError

DTYPES = ("float32", "float16", "bfloat16", "int8")


# ---------------------------------------------------------------------------------------------
# Checks shared by the commands: each names the argument it reports on
# ---------------------------------------------------------------------------------------------

def _families() -> list[str]:
    from . import catalog

    return list(dict.fromkeys(s.family for s in catalog.kernels()))


def _check_family(family: str, argument: str, extra: tuple[str, ...] = ()) -> None:
    allowed = [*_families(), *extra]
    if family not in allowed:
        fail(argument, f"no kernel family {family!r}{suggest(family, allowed)} (families: "
                       f"{', '.join(allowed)})")


def _spec(name: str, argument: str = "NAME") -> Any:
    from . import catalog

    try:
        return catalog.get(name)
    except KernelNotFoundError:
        names = [s.name for s in catalog.kernels()]
        fail(argument, f"no kernel named {name!r}{suggest(name, names)} (`warpgemm kernels` "
                       "lists them)")


def _check_params(spec: Any, params: dict[str, int]) -> None:
    for key in params:
        if key not in spec.params:
            fail("-p/--param", f"{spec.name} has no parameter {key!r}; it takes "
                               f"{', '.join(spec.params) or 'none'}")


def _cases(args: argparse.Namespace) -> list[Any]:
    """The --shapes as suite cases, in the --a-layout and --b-layout."""
    from .bench import suites

    return [suites.Case(m, n, k, args.a_layout or "row", args.b_layout or "row")
            for m, n, k in args.shapes]


def _check_shape_options(args: argparse.Namespace) -> None:
    if args.suite and args.shapes:
        fail("--shapes", "replaces --suite; give one of them")
    for option, value in (("--a-layout", args.a_layout), ("--b-layout", args.b_layout)):
        if value and not args.shapes:
            fail(option, "applies to --shapes only (each suite fixes its own layouts)")


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------

def _cmd_kernels(args: argparse.Namespace) -> int:
    from . import catalog

    if args.family is not None:
        _check_family(args.family, "FAMILY")
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
    from .runtime.device import (current_arch, driver_version, has_device, nvrtc_build,
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
        ("NVRTC", nvrtc_build()),
        ("torch", torch.__version__),
        ("cuda-core", package_version("cuda-core") or "not installed"),
        ("cuda-bindings", package_version("cuda-bindings") or "not installed"),
    ]
    count, size = cache.usage()
    lines.append(("cache", f"{cache.cache_root()} ({count} entries, {size / 2**20:.1f} MiB)"))
    for key, value in lines:
        print(f"{key:>20}: {value}")
    return 0


_NVRTC_ERROR = re.compile(r"^(?P<file>[^\s(]+)\((?P<line>\d+)\): error: (?P<msg>.+)$", re.MULTILINE)


def _first_compile_error(exc: CompileError) -> str:
    """NVRTC's first error (a static_assert's message, usually) and where, on one line."""
    errors = list(_NVRTC_ERROR.finditer(str(exc)))
    if not errors:
        return "NVRTC rejects it"
    first = errors[0]
    more = f"; {len(errors) - 1} more errors" if len(errors) > 1 else ""
    return f"{first['msg'].strip()} ({first['file'].rsplit('kernels/', 1)[-1]}:{first['line']}{more})"


def _cmd_compile(args: argparse.Namespace) -> int:
    from . import catalog
    from .api import compile as wg_compile
    from .runtime.device import capability_of_arch, current_arch, has_device

    if args.family is not None:
        if args.name != "all":
            fail("--family", "applies to 'compile all' only; drop it, or write "
                             f"'warpgemm compile all --family {args.family}'")
        _check_family(args.family, "--family")
    specs = catalog.kernels(args.family) if args.name == "all" else [_spec(args.name)]
    params = dict(args.param)
    for spec in specs:
        _check_params(spec, params)
    target = args.arch
    if target is None:
        if not has_device():
            fail("--arch", "needed, since there is no CUDA device here to take the arch from; "
                           "pass one, such as --arch sm_90a (H100, H200) or --arch sm_80 (A100)")
        target = current_arch()
    for spec in specs:
        if args.name == "all" and not spec.runs_on(capability_of_arch(target)):
            print(f"{spec.name:<32} {target:<7} skipped: needs {spec.needs()}")
            continue
        try:
            # Without --a-layout/--b-layout: the kernel's first layout (the small-M kernel reads
            # only A row-major with B column-major).
            la = args.a_layout or spec.layouts[0][0]
            lb = args.b_layout or (spec.layouts[0][1] if args.a_layout is None else
                                   next((y for x, y in spec.layouts if x == la), "row"))
            k = wg_compile(spec.name, target, a_layout=la, b_layout=lb, **params)
        except MissingExtraError as exc:
            if args.name != "all":
                raise
            print(f"{spec.name:<32} {target:<7} skipped: {exc}")  # the others still compile
            continue
        except CompileError as exc:
            if not params:
                raise  # the defaults fail: a bug, and the whole log helps
            values = " ".join(f"-p {k}={v}" for k, v in params.items())
            fail("-p/--param", f"{spec.name} does not compile with {values}: "
                               f"{_first_compile_error(exc)}; change the -p values")
        dynamic = spec.smem_bytes(spec.resolve(params))
        print(f"{spec.name:<32} {k.arch:<7} {k.registers:>4} regs  {k.spill_bytes:>5} B spill  "
              f"{k.shared_bytes:>6} B static + {dynamic:>6} B dynamic smem  "
              f"{'cached' if k.from_cache else f'{k.compile_seconds:.2f} s'}")
    return 0


def _kernel_choice(text: str, family: str) -> Any:
    """One ``--kernels`` entry, ``NAME[:P=V,...]``, checked against ``family``."""
    from . import catalog
    from .bench import runner

    name, colon, rest = text.partition(":")
    if colon and not re.fullmatch(r"\w+=-?\d+(,\w+=-?\d+)*", rest):
        fail("--kernels", f"expected NAME or NAME:P=V,... with integer values, such as "
                          f"08:STAGES=2; got {text!r}")
    if name == "auto":
        return runner.parse_choice("auto")
    if "/" in name:
        _spec(name, "--kernels")
    else:
        rungs = [s.name.split("/", 1)[1] for s in catalog.kernels(family)]
        matches = [r for r in rungs if r.startswith(name)]
        if len(matches) != 1:
            what = "no" if not matches else f"{len(matches)}"
            fail("--kernels", f"{name!r} matches {what} {family} kernels; give a rung number or name "
                              f"from {', '.join(matches or rungs)}")
    try:
        return runner.parse_choice(text, family)
    except (ValueError, KeyError, TypeError) as exc:
        fail("--kernels", f"{text!r}: {one_line(exc)}")


def _check_bench_args(args: argparse.Namespace) -> None:
    """Every argument error of ``bench``, found before anything runs (and without a GPU)."""
    if args.family in ("ceiling", "model"):
        for option in ("suite", "shapes", "kernels", "dtype", "plot", "a_layout", "b_layout"):
            if getattr(args, option) is not None:
                fail(f"--{option.replace('_', '-')}", f"does not apply to 'warpgemm bench {args.family}' "
                                                      "(it takes --json" +
                                                      (" and --occupancy)" if args.family == "ceiling" else ")"))
        if args.family == "model" and args.occupancy:
            fail("--occupancy", "applies to 'warpgemm bench ceiling' only")
        return
    if args.occupancy:
        fail("--occupancy", "applies to 'warpgemm bench ceiling' only")
    if args.family is None:
        for option in ("suite", "shapes", "kernels", "a_layout", "b_layout"):
            if getattr(args, option) is not None:
                fail(f"--{option.replace('_', '-')}", "needs a family, such as 'warpgemm bench "
                                                      "hgemm --" + option.replace("_", "-") + " ...'")
    else:
        _check_family(args.family, "FAMILY", extra=("ceiling", "model"))
    _check_shape_options(args)


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import catalog
    from .runtime.device import has_device

    _check_bench_args(args)
    if args.family in ("ceiling", "model"):
        families: list[str] = []
    elif args.family is None:  # the default overview: every family, a few sizes, quick
        families = _families()
    else:
        families = [args.family]
    choices = {fam: [_kernel_choice(k, fam) for k in args.kernels] if args.kernels else None
               for fam in families}
    for fam in families:
        takes = {d for c in (choices[fam] or [None]) for d in
                 (c.spec.in_dtypes if c is not None and c.spec is not None else
                  [d for s in catalog.kernels(fam) for d in s.in_dtypes])}
        if args.dtype is not None and args.dtype not in takes:
            fail("--dtype", f"no chosen {fam} kernel takes {args.dtype} inputs; they take "
                            f"{', '.join(sorted(takes))}")
    if not has_device():
        print("warpgemm bench: no CUDA device is available (torch.cuda.is_available() is False); "
              "benchmarks need a GPU.", file=sys.stderr)
        return 2
    from . import dtypes
    from .bench import report, runner, suites

    if args.family == "ceiling":
        from .bench import ceiling

        return ceiling.main(json_path=args.json, sweep=args.occupancy)
    if args.family == "model":
        from .bench import model

        return model.main(json_path=args.json)
    if args.family is None:
        cases, suite, target = suites.overview(), "overview", 0.15
    elif args.shapes:
        cases, suite, target = _cases(args), "custom", 1.0
    else:
        suite = args.suite or "square"
        cases, target = suites.get(suite, max_size=catalog.family(args.family).square_max), 1.0
    results = []
    for fam in families:
        printed = []

        def show(case, rows):
            printed.append(report.case_table(rows))
            print(printed[-1], flush=True)

        dtype = dtypes.torch_dtype(args.dtype or catalog.family(fam).bench_dtype)
        try:
            results.append(runner.run(cases, choices[fam] or runner.default_choices(fam), suite=suite,
                                      family=fam, dtype=dtype, progress=not args.no_progress,
                                      target_seconds=target, on_case=show))
        except CompileError as exc:
            if not any(c.params for c in choices[fam] or ()):
                raise  # the defaults fail: a bug, and the whole log helps
            fail("--kernels", f"a chosen kernel does not compile with its parameters: "
                              f"{_first_compile_error(exc)}; change the P=V values")
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
            from pathlib import Path

            path = args.plot if len(results) == 1 else args.plot.replace(".", f"_{res['family']}.", 1)
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            report.plot(res, path)
            print(f"wrote {path}")
    return 0


def _cmd_tune(args: argparse.Namespace) -> int:
    from . import catalog
    from .runtime.device import has_device

    spec = _spec(args.name)
    if spec.called_by is not None:
        fail("NAME", f"{spec.name} runs through {spec.called_by}; the tuner times warpgemm.matmul's kernels")
    if not spec.tuning:
        tunable = [s.name for s in catalog.kernels() if s.tuning]
        fail("NAME", f"{spec.name} has no tuning space; these kernels have one: {', '.join(tunable)}")
    if args.dtype is not None and args.dtype not in spec.in_dtypes:
        fail("--dtype", f"{spec.name} takes {', '.join(spec.in_dtypes)} inputs, not {args.dtype}")
    _check_shape_options(args)
    if not has_device():
        print("warpgemm tune: no CUDA device is available; tuning measures kernels on a GPU.",
              file=sys.stderr)
        return 2
    from . import dtypes
    from .bench import suites
    from .tuning import search, table

    cases = _cases(args) if args.shapes else suites.get(args.suite or "square")
    dtype = dtypes.torch_dtype(args.dtype or ("bfloat16" if "bfloat16" in spec.in_dtypes else spec.in_dtypes[0]))
    for case in cases:
        res = search.tune(args.name, case.m, case.n, case.k, dtype=dtype, a_layout=case.a_layout,
                        b_layout=case.b_layout, progress=not args.no_progress)
        ok = sum(t is not None for _, t, _ in res.tried)
        params = " ".join(f"{k}={v}" for k, v in res.params.items())
        tflops = case.flops / res.ms / 1e9
        print(f"{case.label:<24} {res.ms:8.3f} ms {tflops:8.1f} TFLOP/s  {params}  ({ok}/{len(res.tried)} ran)")
    print(_tune_saved_note(spec, table.table_path()))
    return 0


def _tune_saved_note(spec: Any, path: Any) -> str:
    """Where the tuner's choices went, and whether ``warpgemm.matmul`` runs them by itself: it
    does for an autotuned kernel (``KernelSpec.autotune``); for any other the caller passes them."""
    if spec.autotune:
        return f"choices saved in {path}; warpgemm.matmul runs them for these shapes"
    return (f"choices saved in {path}; {spec.name} is not autotuned, so pass them to "
            f"warpgemm.matmul(..., kernel={spec.name!r}, NAME=VALUE, ...) to run them")


# ---------------------------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------------------------

def _shape_options(p: argparse.ArgumentParser, what: str) -> None:
    from .bench.suites import SUITES

    p.add_argument("--suite", choices=tuple(SUITES), default=None,
                   help=f"shape suite to {what}: {' | '.join(SUITES)} (default: square)")
    p.add_argument("--shapes", nargs="+", type=shape_mnk, metavar="MxNxK",
                   help="explicit shapes instead of a suite, e.g. 4096x4096x4096 or 4096^3")
    p.add_argument("--a-layout", choices=("row", "col"), default=None, help="with --shapes (default: row)")
    p.add_argument("--b-layout", choices=("row", "col"), default=None, help="with --shapes (default: row)")


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="warpgemm", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("bench", help="benchmark kernels against same-run baselines",
                       description="Benchmark kernels against cuBLAS measured in the same run; "
                                   "docs/benchmarking.md says how.")
    p.add_argument("family", nargs="?", default=None,
                   help=f"kernel family ({', '.join(_families())}), 'ceiling', or 'model' (a Llama "
                        "model, patched against unpatched); none = a quick overview of all")
    _shape_options(p, "run")
    p.add_argument("--kernels", nargs="+", metavar="KERNEL",
                   help="kernel names, optionally NAME:P=V,... (e.g. 08:STAGES=2)")
    p.add_argument("--dtype", choices=DTYPES, default=None,
                   help="input dtype (default: the family's own: float32 for sgemm, bfloat16 for hgemm, int8 for igemm)")
    p.add_argument("--json", metavar="PATH", type=output_file(".json", make_dirs=True),
                   help="write results (with their context) to this JSON file")
    p.add_argument("--plot", metavar="PATH",
                   type=output_file(".png", ".svg", ".pdf", matplotlib=(".png", ".svg", ".pdf"),
                                    make_dirs=True, instead="or leave out --plot: --json keeps the numbers"),
                   help="write a TFLOP/s plot to this PNG/SVG/PDF file (needs matplotlib)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--occupancy", action="store_true",
                   help="with 'ceiling': also sweep warps per SM and independent mma chains per warp")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("tune", help="autotune a kernel's parameters per shape on this GPU")
    p.add_argument("name", metavar="NAME", help="catalogue name, e.g. hgemm/07_tuned")
    _shape_options(p, "tune")
    p.add_argument("--dtype", choices=DTYPES, default=None,
                   help="input dtype (default: bfloat16 where the kernel takes it, else its own)")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=_cmd_tune)

    p = sub.add_parser("kernels", help="list the kernel catalogue")
    p.add_argument("family", metavar="FAMILY", nargs="?", default=None, help="sgemm, hgemm, ...")
    p.set_defaults(func=_cmd_kernels)

    p = sub.add_parser("info", help="device, versions and cache")
    p.set_defaults(func=_cmd_info)

    p = sub.add_parser("compile", help="compile a kernel (no GPU needed) and show ptxas's report")
    p.add_argument("name", metavar="NAME", help="catalogue name, or 'all'")
    p.add_argument("--family", default=None, help="with 'all': only this family")
    p.add_argument("--arch", type=arch, default=None,
                   help="sm_80, sm_90a, ... (default: the current GPU's; needed without one)")
    p.add_argument("--a-layout", default=None, choices=("row", "col"),
                   help="default: the kernel's first layout (row for all but the small-M kernel)")
    p.add_argument("--b-layout", default=None, choices=("row", "col"), help="default: as --a-layout")
    p.add_argument("-p", "--param", action="append", default=[], type=param, metavar="NAME=VALUE",
                   help="template parameter, e.g. -p STAGES=2 (repeat for more)")
    p.set_defaults(func=_cmd_compile)

    from .layout import explain

    explain.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already reported in one line
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    where = " ".join(filter(None, ("warpgemm", args.command, getattr(args, "explain_command", None))))
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"{where}: {exc}", file=sys.stderr)
    except CompileError as exc:  # not a wrong argument: the compiler's whole log helps
        print(f"{where}: {exc}", file=sys.stderr)
    except (ValueError, TypeError, KeyError, RuntimeError, OSError, ModuleNotFoundError) as exc:
        print(f"{where}: {one_line(exc)}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{where}: interrupted", file=sys.stderr)
        return 130
    return 2


if __name__ == "__main__":
    sys.exit(main())
