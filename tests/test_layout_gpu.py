"""warpgemm.layout against the hardware: ldmatrix (x1/x2/x4, with and without .trans) and
mma.sync for every atom the GPU runs, every lane's registers dumped and checked against the
atoms' TV layouts."""

from __future__ import annotations

import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")]

from warpgemm.layout import (  # noqa: E402
    MMA_ATOMS, Swizzle, copy_atom, ldmatrix_addresses, mma_atom, smem_tile,
)
from warpgemm.layout.explain import LDMATRIX_ATOMS  # noqa: E402
from warpgemm.layout.fragments import pack_fragments, unpack_fragments  # noqa: E402


def _compile(name_expression: str, source: str):
    from warpgemm.runtime import compile_kernel
    return compile_kernel(source, name_expression)


def _capability() -> int:
    major, minor = torch.cuda.get_device_capability()
    return 10 * major + minor


# ---------------------------------------------------------------------------------------------
# ldmatrix
# ---------------------------------------------------------------------------------------------

def run_ldmatrix(num: int, trans: bool, smem, rows: int, cols: int, values: np.ndarray,
                 origins=None) -> np.ndarray:
    """Store ``values[r, c]`` at ``smem((r, c))``, run one ldmatrix with the row addresses of
    ``ldmatrix_addresses``, and return each lane's 16-bit values in register order, (32, 2*num)."""
    from warpgemm.runtime import launch

    size = max(smem((r, c)) for r in range(rows) for c in range(cols)) + 1
    physical = np.zeros(size, dtype=np.uint16)
    for r in range(rows):
        for c in range(cols):
            physical[smem((r, c))] = values[r, c]
    addrs = ldmatrix_addresses(smem, num, origins=origins, elem_bytes=2)
    offsets = np.array([0 if a is None else a // 2 for a in addrs], dtype=np.int32)
    kernel = _compile(f"ldmatrix_probe<{num}, {'true' if trans else 'false'}>", "probes/ldmatrix_probe.cu")
    tile = torch.from_numpy(physical.view(np.int16).copy()).cuda()
    offs = torch.from_numpy(offsets).cuda()
    out = torch.full((32 * num,), -1, dtype=torch.int32, device="cuda")
    launch(kernel, grid=(1, 1, 1), block=(32, 1, 1), args=(tile, offs, out, np.int32(size)),
           shared_bytes=2 * size)
    torch.cuda.synchronize()
    regs = out.cpu().numpy().view(np.uint32).reshape(32, num)
    halves = np.stack([regs & 0xFFFF, regs >> 16], axis=-1).reshape(32, 2 * num)
    return halves.astype(np.int64)


def test_quadrant_example_lane_0_holds_0_1_8_9_128_129_136_137():
    values = np.arange(256).reshape(16, 16)
    got = run_ldmatrix(4, False, smem_tile(16, 16), 16, 16, values)
    assert got[0].tolist() == [0, 1, 8, 9, 128, 129, 136, 137]


@pytest.mark.parametrize("swizzle", [None, Swizzle(3, 3, 3)], ids=["plain", "Sw333"])
@pytest.mark.parametrize("trans", [False, True], ids=["N", "T"])
@pytest.mark.parametrize("num", [1, 2, 4])
def test_ldmatrix_registers_match_the_copy_atom(num, trans, swizzle):
    atom = copy_atom(LDMATRIX_ATOMS[(num, trans)])
    rows, cols = 16, 64
    smem = smem_tile(rows, cols, swizzle)
    rng = np.random.default_rng(1000 * num + trans)
    values = rng.permutation(rows * cols).reshape(rows, cols)     # every element distinct
    got = run_ldmatrix(num, trans, smem, rows, cols, values)
    origins = {1: [(0, 0)], 2: [(0, 0), (0, 8)], 4: [(0, 0), (0, 8), (8, 0), (8, 8)]}[num]
    dst = atom.val_layout_dst
    for lane in range(32):
        for v in range(dst[1].size()):
            e = dst(lane, v)                    # matrix * 64 + row * 8 + col
            mat, row, col = e // 64, (e % 64) // 8, e % 8
            r0, c0 = origins[mat]
            assert got[lane, v] == values[r0 + row, c0 + col], (atom.name, lane, v)


# ---------------------------------------------------------------------------------------------
# mma.sync
# ---------------------------------------------------------------------------------------------

PROBE_KIND = {
    "SM80_16x8x16_F16F16F16F16_TN": 0, "SM80_16x8x16_F32F16F16F32_TN": 1,
    "SM80_16x8x16_F32BF16BF16F32_TN": 2, "SM80_16x8x8_F32TF32TF32F32_TN": 3,
    "SM80_16x8x32_S32S8S8S32_TN": 4, "SM80_16x8x64_S32S4S4S32_TN": 5,
    "SM80_8x8x32_S32S4S4S32_TN": 6, "SM70_8x8x4_F16F16F16F16_TN": 7,
    "SM80_16x8x64_S32U4U4S32_TN": 8, "SM80_8x8x32_S32U4U4S32_TN": 9,
    "SM80_16x8x32_S32S4S4S32_TN": 10, "SM80_16x8x32_S32U4U4S32_TN": 11,
}


def _random_matrix(rng: random.Random, rows: int, cols: int, dtype: str):
    lo, hi = {"s4": (-8, 7), "u4": (0, 15), "s8": (-128, 127)}.get(dtype, (-4, 4))
    return [[rng.randint(lo, hi) for _ in range(cols)] for _ in range(rows)]


def _as_tensor(regs) -> "torch.Tensor":
    arr = np.array(regs, dtype=np.uint32).reshape(-1)
    return torch.from_numpy(arr.view(np.int32).copy()).cuda()


@pytest.mark.parametrize("name", sorted(PROBE_KIND))
def test_mma_sync_matches_the_atom_tv_layouts(name):
    from warpgemm.runtime import launch

    atom = mma_atom(name)
    if _capability() < atom.min_arch:
        pytest.skip(f"{name} needs sm_{atom.min_arch}")
    m, n, k = atom.shape_mnk
    rng = random.Random(name)
    # SM70's instruction is four independent products, one per quad-pair (lanes 4q + ...).
    groups = [4 * q for q in range(4)] if atom.thr_id.size() == 8 else [0]
    mats, regs = [], {"a": None, "b": None, "c": None}
    for off in groups:
        a = _random_matrix(rng, m, k, atom.a_type)
        b = _random_matrix(rng, k, n, atom.b_type)
        c = _random_matrix(rng, m, n, "s32" if atom.c_type == "s32" else atom.c_type)
        mats.append((off, a, b, c))
        regs["a"] = pack_fragments(atom, "a", a, regs["a"], off)
        regs["b"] = pack_fragments(atom, "b", b, regs["b"], off)
        regs["c"] = pack_fragments(atom, "c", c, regs["c"], off)
    kernel = _compile(f"mma_probe<{PROBE_KIND[name]}>", "probes/mma_probe.cu")
    d = torch.full((32 * len(regs["c"][0]),), -1, dtype=torch.int32, device="cuda")
    launch(kernel, grid=(1, 1, 1), block=(32, 1, 1),
           args=(_as_tensor(regs["a"]), _as_tensor(regs["b"]), _as_tensor(regs["c"]), d))
    torch.cuda.synchronize()
    d_regs = d.cpu().numpy().view(np.uint32).reshape(32, -1).tolist()
    for off, a, b, c in mats:
        want = (np.array(a, dtype=np.int64) @ np.array(b, dtype=np.int64) + np.array(c, dtype=np.int64))
        got = np.array(unpack_fragments(atom, "c", d_regs, off), dtype=np.float64)
        # Small integers: exact in every input and accumulator type used here.
        np.testing.assert_array_equal(got, want.astype(np.float64), err_msg=f"{name}, lanes +{off}")


def test_every_required_atom_has_a_probe():
    assert set(PROBE_KIND) <= set(MMA_ATOMS)
