"""Argument checking for the ``warpgemm`` command.

A wrong argument is reported as one line on stderr that names the argument and says what it
accepts, with exit status 2: the parser class below does that for what argparse finds, the
``type=`` functions check values while the command line is parsed, and :class:`UsageError`
carries what only the command can find out (a thread index outside the TiledMMA it built).
Nothing here imports torch or CUDA.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import os
import re
from pathlib import Path
from typing import Callable, Iterable, NoReturn

from .errors import UsageError
from .parsing import parse_param, parse_shape

PLOT_EXTRA = 'pip install "warpgemm[plot]"'
"""The command that installs the optional plotting dependency (matplotlib)."""

_CHOICE = re.compile(r"invalid choice: '?(?P<value>[^'\s]*)'? \(choose from (?P<choices>.*)\)$")
_REQUIRED = "the following arguments are required: "


class ArgumentParser(argparse.ArgumentParser):
    """argparse, reporting a usage error as one line (no usage block) and suggesting the
    closest choice for a misspelt one. Sub-command parsers inherit the class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {self._explain(message)} (see {self.prog} --help)\n")

    def _explain(self, message: str) -> str:
        m = _CHOICE.search(message)
        if m:
            hint = suggest(m["value"], [c.strip(" '") for c in m["choices"].split(",")])
            return f"{message[:m.start('choices') - len(' (choose from ')]}{hint} (choose from {m['choices']})"
        if message.startswith(_REQUIRED):
            missing = message[len(_REQUIRED):].split(", ")
            for action in self._actions:
                name = action.metavar or action.dest
                if name not in missing:
                    continue
                if isinstance(action, argparse._SubParsersAction):
                    return f"missing {name}: choose from {', '.join(action.choices)}"
                if action.help:
                    return f"missing {name}: {action.help}"
        return message


def fail(argument: str, message: str) -> NoReturn:
    """Raise :class:`UsageError` for ``argument`` (``--thread``, ``NAME``, ...)."""
    raise UsageError(f"argument {argument}: {message}")


def suggest(value: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``choices``, or an empty string."""
    close = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close else ""


# ---------------------------------------------------------------------------------------------
# type= functions: each raises ArgumentTypeError, which argparse prefixes with the argument
# ---------------------------------------------------------------------------------------------

def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def positive_int(text: str) -> int:
    """An integer >= 1."""
    value = _int(text, "a positive integer")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def nonnegative_int(text: str) -> int:
    """An integer >= 0."""
    value = _int(text, "an integer >= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def int_tuple(names: str, example: str, *, min_count: int | None = None, low: int = 1,
              high: int | None = None, empty: bool = False) -> Callable[[str], tuple[int, ...]]:
    """A ``type=`` for integers separated by ``,`` or ``x``, one per letter of ``names`` (or
    at least ``min_count`` of them), each in ``[low, high]``; ``''`` gives ``()`` when
    ``empty``."""
    most = len(re.split(r"[,x]", names))
    least = most if min_count is None else min_count
    count = f"{least} to {most}" if least != most else str(most)
    bounds = f"integers from {low} to {high}" if high is not None else (
        "positive integers" if low == 1 else f"integers >= {low}")
    allowed = f"{count} {bounds} {names} such as {example}" + (", or '' for none" if empty else "")

    def parse(text: str) -> tuple[int, ...]:
        if empty and text.strip() == "":
            return ()
        parts = [p.strip() for p in re.split(r"[,x]", text.strip())]
        try:
            values = tuple(int(p) for p in parts)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {allowed}; got {text!r}") from None
        if not least <= len(values) <= most or any(v < low or (high is not None and v > high)
                                                     for v in values):
            raise argparse.ArgumentTypeError(f"expected {allowed}; got {text!r}")
        return values

    parse.__name__ = names
    return parse


def shape_mnk(text: str) -> tuple[int, int, int]:
    """``MxNxK`` (``4096x4096x4096``) or ``S^3`` (``4096^3``), positive integers."""
    try:
        return parse_shape(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def param(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` with an integer value, e.g. ``STAGES=3``."""
    try:
        return parse_param(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def arch(text: str) -> str:
    """An arch the NVRTC in use compiles for (``sm_80``, ``sm_90a``, ...)."""
    from .runtime.device import check_arch

    try:
        check_arch(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def has_matplotlib() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def output_file(*suffixes: str, matplotlib: tuple[str, ...] = (), instead: str = "",
                make_dirs: bool = False) -> Callable[[str], str]:
    """A ``type=`` for a file to write: its name ends in one of ``suffixes`` and it can be
    written: its directory exists (or, with ``make_dirs``, can be created) and is writable.
    Suffixes in ``matplotlib`` need matplotlib installed; ``instead`` says what to do without
    it."""
    needs_mpl = matplotlib

    def check(text: str) -> str:
        path = Path(text)
        suffix = path.suffix.lower()
        if suffix not in suffixes:
            raise argparse.ArgumentTypeError(
                f"expected a file name ending in {' or '.join(suffixes)}, got {text!r}")
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{text!r} is a directory; give a file name")
        parent = path.parent
        while make_dirs and not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            why = "is not a directory" if parent.exists() else "does not exist"
            raise argparse.ArgumentTypeError(
                f"cannot write {text!r}: {str(parent)!r} {why} (create the directory first, or "
                "choose another path)")
        if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise argparse.ArgumentTypeError(f"cannot write {text!r}: permission denied")
        if suffix in needs_mpl and not has_matplotlib():
            raise argparse.ArgumentTypeError(
                f"writing {suffix} files needs matplotlib, which is not installed: "
                f"{PLOT_EXTRA}" + (f" ({instead})" if instead else ""))
        return text

    check.__name__ = "path"
    return check


def one_line(exc: BaseException) -> str:
    """An exception's message on one line, without a leading ``warpgemm: `` of its own."""
    text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    text = " ".join(str(text).split())
    return text.removeprefix("warpgemm: ") or type(exc).__name__
