"""scripts/sass_dump.py: counting a disassembly's instructions by opcode."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "sass_dump.py"

LISTING = """\
        /*1500*/                   HGMMA.64x256x16.F32.BF16 R24, gdesc[UR16], R24, UP0 ;
        /*1510*/                   ULEA.HI UR18, UR13, 0x10002, URZ, 0x1c ;
        /*1520*/                   ISETP.GT.U32.OR P0, PT, R207, 0x3, !P0 ;
.L_x_13:
        /*2b50*/              @!P0 VIADD R208, R208, 0x30020 ;
        /*2bd0*/              @!UP0 UMOV UR19, 0x40000040 ;
        /*2be0*/                   HGMMA.64x256x16.F32.BF16 R24, gdesc[UR16], R24, gsb0 ;
"""


def test_each_instruction_counts_once_under_its_opcode_predicated_or_not():
    spec = importlib.util.spec_from_file_location("sass_dump", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    counts = module.opcode_counts(LISTING)
    assert counts == {"HGMMA": 2, "ULEA": 1, "ISETP": 1, "VIADD": 1, "UMOV": 1}
