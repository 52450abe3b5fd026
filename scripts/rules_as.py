#!/usr/bin/env python3
"""Run the warpgemm CLI with ``kernel="auto"`` choosing as it would on another GPU of the same
compute capability: the dispatch rules measured for a named GPU (``dispatch.Rule.device``) then
match here, and those measured for this one do not.

    python scripts/rules_as.py "NVIDIA H100 80GB HBM3" bench hopper --suite square --kernels auto

It answers "would that GPU's rules serve this one too?" before a rule is widened to it: run the
same benchmark with and without it, in processes of their own, alternating, and compare each
against cuBLAS in its own run. The name only steers the rules; the kernels, the SM count and the
timings are this GPU's.
"""

from __future__ import annotations

import sys

import torch

from warpgemm import cli
from warpgemm.runtime import device


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not argv[0].strip():
        print('usage: rules_as.py "GPU NAME" CLI-ARGS...   (the name as torch.cuda.get_device_name gives it)',
              file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("rules_as.py: no CUDA device", file=sys.stderr)
        return 2
    name, args = argv[0], argv[1:]
    for index in range(torch.cuda.device_count()):
        device._names[index] = name
    print(f"rules as on {name!r} (this GPU: {torch.cuda.get_device_name(0)!r})", file=sys.stderr)
    return cli.main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
