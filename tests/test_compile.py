"""Every kernel compiles, without a GPU, for sm_80 and sm_90a, in every layout, without spills."""

from __future__ import annotations

import pytest

import warpgemm
from warpgemm import catalog
from warpgemm.errors import CompileError
from warpgemm.runtime import compile_kernel, headers, parse_ptxas_report

from conftest import extra_installed

ARCHS = ("sm_80", "sm_90a")

CASES = [(spec, arch, la, lb) for spec in catalog.CATALOG for arch in ARCHS
         if spec.runs_on(catalog.capability_of(arch)) for la, lb in spec.layouts
         # A kernel written in CuTe takes NVRTC about 45 s per instance on two cores (CuTe's
         # templates): every layout for sm_80, the Linear layout for sm_90a.
         if spec.extra != "cute" or arch == "sm_80" or (la, lb) == ("row", "col")]


@pytest.mark.parametrize("spec,arch,a_layout,b_layout", CASES,
                         ids=[f"{s.name}-{arch}-{la[0]}{lb[0]}" for s, arch, la, lb in CASES])
def test_kernel_compiles_to_a_cubin_without_spills(spec, arch, a_layout, b_layout):
    if spec.extra is not None and not extra_installed(spec.extra):
        pytest.skip(f"{spec.name} needs the {spec.extra} extra: {headers.INSTALL}")
    k = warpgemm.compile(spec.name, arch, a_layout=a_layout, b_layout=b_layout)
    assert k.cubin[:4] == b"\x7fELF"
    assert k.arch == arch
    assert 0 < k.registers <= 255
    if spec.spill_free:
        assert k.spill_bytes == 0, f"{spec.name} spills {k.spill_bytes} bytes on {arch}:\n{k.log}"
    assert spec.smem_bytes(spec.resolve()) + k.shared_bytes <= 227 * 1024


def test_compile_reports_registers_spills_and_shared_memory():
    k = warpgemm.compile("sgemm/02_smem_sliced_k", "sm_80")
    p = catalog.get("sgemm/02_smem_sliced_k").resolve()
    # As is (BM,BK):(BK+1,1) and Bs is (BK,BN):(BN+1,1): one float of padding per row.
    assert k.shared_bytes == 4 * (p["BM"] * (p["BK"] + 1) + p["BK"] * (p["BN"] + 1))
    assert k.spill_bytes == 0 and k.registers > 0


def test_a_compile_error_names_the_kernel_and_carries_the_log():
    with pytest.raises(CompileError, match=r"sgemm_thread_tile<true, true, 128, 128, 8, 8, 3>[\s\S]*error"):
        warpgemm.compile("sgemm/03_thread_tile_8x8", "sm_80", TN=3)


def test_a_parameter_that_breaks_a_static_assert_gets_its_message_on_the_first_line():
    with pytest.raises(CompileError) as err:
        warpgemm.compile("decode/01_swap_ab_splitk", "sm_80", a_layout="row", b_layout="col", UNROLL=8, ROW_GROUPS=2)
    first, rest = str(err.value).split("\n", 1)
    assert "breaks its kernel's static_assert: UNROLL * ROW_GROUPS <= 8" in first
    assert "error" in rest  # the whole log follows


def test_static_assertions_are_read_from_a_log_once_each_in_order():
    from warpgemm.runtime.compiler import static_assertions

    log = ('a.cuh(3): error: static assertion failed with "BN <= 192: fewer columns"\n'
           'b.cuh(9): error: static assertion failed with "the \\"ring\\" is too big"\n'
           'a.cuh(3): error: static assertion failed with "BN <= 192: fewer columns"\n')
    assert static_assertions(log) == ["BN <= 192: fewer columns", 'the \\"ring\\" is too big']
    assert static_assertions("error: expected a ;") == []


def test_unknown_layout_is_refused():
    with pytest.raises(ValueError, match="a_layout must be 'row' or 'col'"):
        warpgemm.compile("sgemm/01_naive", "sm_80", a_layout="diagonal")


def test_ptxas_report_is_read_for_the_named_entry_only():
    log = """ptxas info    : Compiling entry function '_Z3foov' for 'sm_80'
ptxas info    : Function properties for _Z3foov
ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 200 registers, used 1 barriers, 4096 bytes smem, 360 bytes cmem[0]
ptxas info    : Compiling entry function '_Z3barv' for 'sm_80'
ptxas info    : Function properties for _Z3barv
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 360 bytes cmem[0]
"""
    assert parse_ptxas_report(log, "_Z3foov") == {
        "registers": 200, "spill_bytes": 20, "shared_bytes": 4096, "stack_bytes": 16}
    assert parse_ptxas_report(log, "_Z3barv") == {
        "registers": 32, "spill_bytes": 0, "shared_bytes": 0, "stack_bytes": 0}
    with pytest.raises(CompileError):
        parse_ptxas_report(log, "_Z3bazv")


def test_the_mma_ceiling_probe_compiles():
    assert compile_kernel("bench/mma_ceiling.cu", "wg::mma_ceiling<0, 8, 4>", "sm_90a").spill_bytes == 0


@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_the_read_floor_probe_compiles_in_every_order(order):
    k = compile_kernel("probes/read_floor_probe.cu", f"read_floor_probe<512, 4, {order}, 1, 8, 2>", "sm_90a")
    assert k.spill_bytes == 0


@pytest.mark.parametrize("spec", catalog.kernels(arch="sm_75"), ids=lambda s: s.name)
def test_kernels_of_the_oldest_arch_compile_for_it(spec):
    a_layout, b_layout = spec.layouts[0]
    k = warpgemm.compile(spec.name, spec.arch, a_layout=a_layout, b_layout=b_layout)
    assert k.arch == "sm_75" and k.spill_bytes == 0


def test_a_kernel_compiled_below_its_arch_is_refused_by_its_arch_header():
    inst = catalog.get("sgemm/08_tf32_mma").instance()
    with pytest.raises(CompileError, match="compile it for sm_80 or newer"):
        compile_kernel(inst.source, inst.name_expression, "sm_75")


@pytest.mark.parametrize("b_layout", ["col", "row"])
@pytest.mark.parametrize("stagger", [1, 8])
def test_decode_02_in_clusters_of_two_compiles_without_spills_or_serialised_wgmma(b_layout, stagger):
    k = warpgemm.compile("decode/02_swap_ab_wgmma", "sm_90a", a_layout="row", b_layout=b_layout, CLUSTER=2,
                         BM=64, BK=128, STAGES=4, IN_FLIGHT=0, STAGGER=stagger)
    assert k.spill_bytes == 0 and k.stack_bytes == 0, k.log
    assert "C75" not in k.log, k.log


_FIRST_IMPORTS_AT_ONCE = """
import threading
from warpgemm.runtime.cuda_core import cuda_core

errors, start = [], threading.Barrier(8)

def first_use(i):
    start.wait()
    try:
        if i % 2:
            from cuda.bindings import nvrtc  # what the compiler's cache key imports first
        cuda_core().Program, cuda_core().ProgramOptions, cuda_core().ObjectCode
    except Exception as exc:
        errors.append(repr(exc))

threads = [threading.Thread(target=first_use, args=(i,)) for i in range(8)]
[t.start() for t in threads]
[t.join() for t in threads]
print(errors or "ok")
"""


def test_cuda_core_imported_by_several_threads_at_once_has_every_name():
    # cuda.core fills its namespace from a versioned subpackage while it imports; threads that
    # import it at once could see names missing. Each process here imports it for the first time.
    import subprocess
    import sys

    for _ in range(4):
        run = subprocess.run([sys.executable, "-c", _FIRST_IMPORTS_AT_ONCE], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stderr
        assert run.stdout.strip() == "ok"


def test_threads_that_compile_one_kernel_at_once_all_get_the_same_kernel(fresh_cache):
    import threading

    inst = catalog.get("sgemm/02_smem_sliced_k").instance("row", "col", params={"BK": 8})
    got, errors, start = [], [], threading.Barrier(8)

    def first_call():
        start.wait()
        try:
            got.append(compile_kernel(inst.source, inst.name_expression, "sm_80"))
        except Exception as exc:  # noqa: BLE001 - the test reports whatever a thread raised
            errors.append(exc)

    threads = [threading.Thread(target=first_call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(got) == 8 and all(k is got[0] for k in got)  # one kernel for the process, however many compiled it
    assert len(list(fresh_cache.glob("*/*.cubin-entry"))) == 1
