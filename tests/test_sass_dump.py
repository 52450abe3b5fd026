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


WAITS = """\
        /*0100*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR8+0x30000], R4 ;
        /*0110*/                   LDS R12, [R8+UR9] ;
        /*0120*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR30+0x30000], R208 ;
        /*0130*/              @!P0 BRA `(.L_x_12) ;
        /*0140*/                   LDS R12, [R8+UR9] ;
        /*0150*/                   BAR.SYNC.DEFER_BLOCKING R181, 0x80 ;
        /*0160*/                   IGMMA.64x256x32.S8.S8 R24, gdesc[UR12], R24, UP0 ;
        /*0170*/                   IGMMA.64x256x32.S8.S8 R24, gdesc[UR12], R24 ;
"""


def test_the_path_to_the_first_wgmma_starts_after_the_last_wait_before_it():
    spec = importlib.util.spec_from_file_location("sass_dump", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.wait_to_mma(WAITS) == ["BRA", "LDS", "BAR", "IGMMA"]
    assert module.wait_to_mma(LISTING) == ["HGMMA"]  # no wait before it: from the start
    assert module.wait_to_mma("        /*0100*/                   LDS R12, [R8] ;\n") == []
