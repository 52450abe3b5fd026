"""Compare the shared-memory bank model with ncu's counters for ldmatrix.x4.

Runs the ldmatrix probe (one warp, one ldmatrix.x4) on a row-major 16x64 fp16 tile, first
unswizzled, then with Swizzle<3,3,3>, and prints what the bank model predicts for each launch.
Run it under ncu to see the measured numbers next to the prediction:

    ncu --kernel-name regex:ldmatrix_probe \
        --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
        python scripts/ncu_banks.py

The probe's only shared-memory loads are the ldmatrix (the tile is written with stores), so
per launch ncu's wavefronts should equal the model's and its bank conflicts should equal the
model's extra wavefronts.  Without ncu the script still runs and checks the registers.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cols", type=int, default=64)
    parser.add_argument("--num", type=int, default=4, choices=[1, 2, 4])
    args = parser.parse_args(argv)

    import torch

    from warpgemm.layout import Swizzle, ldmatrix_addresses, ldmatrix_report, smem_tile
    from warpgemm.runtime import compile_kernel, launch

    if not torch.cuda.is_available():
        print("needs a CUDA device", file=sys.stderr)
        return 2
    kernel = compile_kernel("probes/ldmatrix_probe.cu", f"ldmatrix_probe<{args.num}, false>")
    cases = [("no swizzle", smem_tile(args.rows, args.cols)),
             ("Swizzle<3,3,3>", smem_tile(args.rows, args.cols, Swizzle(3, 3, 3)))]
    print(f"ldmatrix.x{args.num} over a row-major {args.rows}x{args.cols} fp16 tile, one warp, one instruction")
    print(f"{'launch':<7} {'layout':<16} {'model wavefronts':>17} {'model ideal':>12} {'model conflicts':>16}")
    for i, (name, smem) in enumerate(cases, 1):
        report = ldmatrix_report(smem, args.num)
        size = max(smem((r, c)) for r in range(args.rows) for c in range(args.cols)) + 1
        physical = np.zeros(size, dtype=np.uint16)
        for r in range(args.rows):
            for c in range(args.cols):
                physical[smem((r, c))] = r * args.cols + c
        offsets = np.array([0 if a is None else a // 2 for a in ldmatrix_addresses(smem, args.num)],
                           dtype=np.int32)
        tile = torch.from_numpy(physical.view(np.int16).copy()).cuda()
        offs = torch.from_numpy(offsets).cuda()
        out = torch.zeros(32 * args.num, dtype=torch.int32, device="cuda")
        launch(kernel, grid=(1, 1, 1), block=(32, 1, 1), args=(tile, offs, out, np.int32(size)),
               shared_bytes=2 * size)
        torch.cuda.synchronize()
        lane0 = out.cpu().numpy().view(np.uint32)[: args.num]
        firsts = [int(x) & 0xFFFF for x in lane0]
        print(f"{i:<7} {name:<16} {report.wavefronts:>17} {report.ideal:>12} {report.conflicts:>16}"
              f"   (lane 0 first values {firsts})")
    print("ncu: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum should equal 'model wavefronts',")
    print("     l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum should equal 'model conflicts'.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
