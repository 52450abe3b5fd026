#!/usr/bin/env python3
"""Write docs/api.md, the API reference, from the docstrings of the public API.

    python scripts/gen_api_docs.py            # rewrite docs/api.md
    python scripts/gen_api_docs.py --check    # exit 1 if docs/api.md is out of date

Signatures come from ``inspect``; the fields of dataclasses (with the docstring under each field)
from the class source, so that the page follows the code without edits by hand.
tests/test_docs.py regenerates the page in memory and fails when the committed one differs.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import inspect
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "api.md"

SECTIONS: list[tuple[str, str, list[str]]] = [
    ("Computing and compiling", "`import warpgemm`. Computing needs a CUDA device; compiling does not.",
     ["warpgemm.matmul", "warpgemm.scaled_matmul", "warpgemm.kernels", "warpgemm.compile", "warpgemm.KernelSpec",
      "warpgemm.CompiledKernel"]),
    ("In a PyTorch model", "The registered op behind `warpgemm.matmul` (`torch.ops.warpgemm.mm`), "
     "the nn.Linear drop-in, and the launch plans of repeated calls.",
     ["warpgemm.patch", "warpgemm.unpatch", "warpgemm.nn.Linear", "warpgemm.nn.linear", "warpgemm.nn.fallbacks",
      "warpgemm.nn.Int8Linear", "warpgemm.nn.quantize_rows", "warpgemm.plan.clear"]),
    ("int4 storage", "`warpgemm.int4`: two 4-bit values a byte, in the nibble order of the integer mma "
     "fragments, and the operand type that `warpgemm.matmul` multiplies exactly into int32.",
     ["warpgemm.int4.pack", "warpgemm.int4.unpack", "warpgemm.int4.Packed"]),
    ("Choosing a kernel", "`kernel=\"auto\"` as data (`warpgemm.dispatch`), and the tuner's table and search "
     "(`warpgemm.tuning`).",
     ["warpgemm.dispatch.Rule", "warpgemm.dispatch.choose", "warpgemm.tuning.search.tune",
      "warpgemm.tuning.table.table_path"]),
    ("Architectures", "What the NVRTC in use compiles for (`warpgemm.runtime.device`).",
     ["warpgemm.runtime.device.supported_archs", "warpgemm.runtime.device.check_arch",
      "warpgemm.runtime.device.require_arch"]),
    ("Layouts", "`warpgemm.layout`: CuTe's layout algebra in pure Python, with the MMA and ldmatrix "
     "atoms, TiledMMA and TiledCopy, and a shared-memory bank model. It needs neither a GPU nor "
     "torch. [layouts.md](layouts.md) shows them at work.",
     ["warpgemm.layout.Layout", "warpgemm.layout.make_layout", "warpgemm.layout.composition",
      "warpgemm.layout.complement", "warpgemm.layout.coalesce", "warpgemm.layout.right_inverse",
      "warpgemm.layout.logical_divide", "warpgemm.layout.zipped_divide",
      "warpgemm.layout.logical_product", "warpgemm.layout.blocked_product",
      "warpgemm.layout.raked_product", "warpgemm.layout.Swizzle",
      "warpgemm.layout.make_swizzled_layout", "warpgemm.layout.mma_atom",
      "warpgemm.layout.copy_atom", "warpgemm.layout.make_tiled_mma",
      "warpgemm.layout.make_tiled_copy_A", "warpgemm.layout.make_tiled_copy_B",
      "warpgemm.layout.smem_tile", "warpgemm.layout.bank_conflicts",
      "warpgemm.layout.ldmatrix_report"]),
]


def resolve(path: str) -> Any:
    """``warpgemm.layout.Layout`` -> the object: attributes first, submodules where needed."""
    parts = path.split(".")
    obj = importlib.import_module(parts[0])
    for name in parts[1:]:
        try:
            obj = getattr(obj, name)
        except AttributeError:
            obj = importlib.import_module(f"{obj.__name__}.{name}")
    return obj


def _annotation(ann: Any) -> str:
    if ann is inspect.Parameter.empty:
        return ""
    text = ann if isinstance(ann, str) else inspect.formatannotation(ann)
    return re.sub(r"""(['"])(\w+)\1""", r"\2", text)  # 'Layout' (a forward reference) -> Layout


def _default(value: Any) -> str:
    text = repr(value)
    return "..." if " at 0x" in text else text


def signature(obj: Any, name: str) -> str:
    """``name(a: int, *, b: str = 'x') -> T`` with annotations as written in the source."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return name
    params: list[str] = []
    prev = None
    for p in sig.parameters.values():
        if prev is p.POSITIONAL_ONLY and p.kind is not p.POSITIONAL_ONLY:
            params.append("/")
        if p.kind is p.KEYWORD_ONLY and prev not in (p.KEYWORD_ONLY, p.VAR_POSITIONAL):
            params.append("*")
        text = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        ann = _annotation(p.annotation)
        if ann:
            text += f": {ann}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {_default(p.default)}" if ann else f"={_default(p.default)}"
        params.append(text)
        prev = p.kind
    if prev is inspect.Parameter.POSITIONAL_ONLY:
        params.append("/")
    ret = _annotation(sig.return_annotation)
    return f"{name}({', '.join(params)})" + (f" -> {ret}" if ret else "")


def field_docs(cls: type) -> dict[str, str]:
    """The string literal under each annotated field of ``cls``'s body, by field name."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for node, after in zip(body, body[1:] + [None]):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _clean(text: str) -> str:
    """A docstring dedented, with Sphinx roles (``:class:`X```) as plain code."""
    return re.sub(r":(?:class|func|meth|attr|mod|data):`~?([^`]+)`", r"`\1`", inspect.cleandoc(text))


def _doc(obj: Any) -> str:
    return _clean(obj.__doc__) if obj.__doc__ else "(no docstring)"


def _public_methods(cls: type) -> list[tuple[str, Any]]:
    out = []
    for name, member in cls.__dict__.items():
        if name.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            out.append((name, member))
        elif inspect.isfunction(member) and member.__doc__:
            out.append((name, member))
    return out


def render_class(path: str, cls: type) -> list[str]:
    name = path.rsplit(".", 1)[1]
    lines = [f"### `{path}`", ""]
    if dataclasses.is_dataclass(cls):
        lines += [f"class `{name}` (a dataclass)", "", _doc(cls), ""]
        docs = field_docs(cls)
        lines += ["| field | type | default | meaning |", "| --- | --- | --- | --- |"]
        for f in dataclasses.fields(cls):
            if not f.init:
                continue
            if f.default is not dataclasses.MISSING:
                default = f"`{_default(f.default)}`"
            elif f.default_factory is not dataclasses.MISSING:
                default = f"`{getattr(f.default_factory, '__name__', 'factory')}()`"
            else:
                default = ""
            meaning = " ".join(_clean(docs.get(f.name, "")).split())
            cells = [f"`{f.name}`", f"`{_annotation(f.type)}`", default, meaning]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        lines.append("")
    else:
        lines += ["```python", "class " + signature(cls, name).removesuffix(" -> None"), "```", "",
                  _doc(cls), ""]
    methods = _public_methods(cls)
    if methods:
        lines += ["Methods and properties:", ""]
        for mname, member in methods:
            if isinstance(member, property):
                head = f"`.{mname}` (property)"
                doc = member.__doc__ or ""
            else:
                head = f"`.{signature(member, mname).replace('(self, ', '(').replace('(self)', '()')}`"
                doc = member.__doc__ or ""
            first = " ".join(_clean(doc).split("\n\n")[0].split()) if doc else ""
            lines.append(f"- {head}" + (f": {first}" if first else ""))
        lines.append("")
    return lines


def render_function(path: str, fn: Any) -> list[str]:
    name = path.rsplit(".", 1)[1]
    return [f"### `{path}`", "", "```python", signature(fn, name), "```", "", _doc(fn), ""]


def render() -> str:
    """The whole page."""
    lines = ["# API reference", "",
             "<!-- Written by scripts/gen_api_docs.py from the docstrings; do not edit by hand. -->", "",
             "The public Python API of warpgemm. The command line (`warpgemm --help`) is described "
             "in the [README](../README.md); what the kernels do in [sgemm.md](sgemm.md) and "
             "[hgemm.md](hgemm.md).", ""]
    lines += ["## Contents", ""]
    for title, _, paths in SECTIONS:
        anchor = title.lower().replace(" ", "-")
        lines.append(f"- [{title}](#{anchor}): " + ", ".join(f"`{p.rsplit('.', 1)[1]}`" for p in paths))
    lines.append("")
    for title, intro, paths in SECTIONS:
        lines += [f"## {title}", "", intro, ""]
        for path in paths:
            obj = resolve(path)
            lines += render_class(path, obj) if inspect.isclass(obj) else render_function(path, obj)
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether docs/api.md is up to date")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if OUTPUT.read_text() != text:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run python scripts/gen_api_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
