"""The launcher on a real device: torch's current stream, CUDA graphs, large shared memory."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import warpgemm
from warpgemm.runtime import compile_kernel, launch

pytestmark = pytest.mark.gpu


def test_launches_follow_torch_cuda_stream():
    # On a side stream: sleep, then overwrite A, then multiply. Were the kernel launched on any
    # other stream it would run before the overwrite and read the old A.
    a_old = torch.randn(512, 512, device="cuda")
    a_new = torch.randn(512, 512, device="cuda")
    b = torch.randn(512, 512, device="cuda")
    a = a_old.clone()
    out = torch.full((512, 512), float("nan"), device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(50_000_000)
        a.copy_(a_new)
        warpgemm.matmul(a, b, kernel="sgemm/07_cp_async", out=out)
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    ref = a_new.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 1e-5


@pytest.mark.parametrize("kernel", ["sgemm/07_cp_async", "sgemm/08_tf32_mma"])
def test_matmul_can_be_captured_in_a_cuda_graph_and_replayed(kernel):
    a = torch.randn(300, 200, device="cuda")
    b = torch.randn(200, 100, device="cuda")
    out = torch.empty(300, 100, device="cuda")
    warpgemm.matmul(a, b, kernel=kernel, out=out)  # compile and load outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        warpgemm.matmul(a, b, kernel=kernel, out=out)
    tol = 1e-5 if kernel.startswith("sgemm/07") else 2e-3
    for _ in range(3):
        a.copy_(torch.randn_like(a))
        b.copy_(torch.randn_like(b))
        out.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        ref = a.double() @ b.double()
        assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < tol


def test_dynamic_shared_memory_above_48_kb_is_enabled_for_the_kernel():
    spec = warpgemm.kernels("sgemm")[-1]
    smem = spec.smem_bytes(spec.resolve({"STAGES": 4}))
    assert smem > 48 * 1024
    a, b = torch.randn(513, 257, device="cuda"), torch.randn(257, 129, device="cuda")
    out = warpgemm.matmul(a, b, kernel=spec.name, STAGES=4)
    ref = a.double() @ b.double()
    assert float(torch.linalg.vector_norm(out.double() - ref) / torch.linalg.vector_norm(ref)) < 2e-3


def test_scalars_must_carry_their_c_type():
    k = compile_kernel("bench/mma_ceiling.cu", "wg::mma_ceiling<0, 1, 1>")
    out = torch.empty(256, device="cuda")
    operands = torch.zeros(6 * 32, dtype=torch.int32, device="cuda")
    with pytest.raises(TypeError, match="numpy types of the exact C type"):
        launch(k, (1, 1, 1), (256, 1, 1), (out, operands, 4))
    launch(k, (1, 1, 1), (256, 1, 1), (out, operands, np.int32(4)))
    torch.cuda.synchronize()


def test_compiled_kernel_exposes_the_ptxas_report():
    k = warpgemm.compile("sgemm/06_k16_double_buffer")  # static shared memory, so ptxas reports it
    assert k.registers > 0 and k.spill_bytes == 0 and k.shared_bytes > 0


def _capability() -> int:
    major, minor = torch.cuda.get_device_capability()
    return 10 * major + minor


@pytest.mark.skipif(not torch.cuda.is_available() or _capability() < 90, reason="clusters need sm_90")
@pytest.mark.parametrize("cluster", [None, (2, 1, 1)])
def test_a_parameter_block_is_passed_by_value_and_clusters_are_launched(cluster):
    from warpgemm.runtime import ParamBlock

    words = np.random.default_rng().integers(0, 2**62, size=16, dtype=np.uint64)
    block = ParamBlock(words.tobytes(), align=64)
    blocks = 4
    out = torch.full((blocks * 18,), -1, dtype=torch.int64, device="cuda")
    k = compile_kernel("probes/param_block_probe.cu", "param_block_probe")
    launch(k, (blocks, 1, 1), (32, 1, 1), (block, out), cluster=cluster)
    torch.cuda.synchronize()
    got = out.view(blocks, 18).cpu().numpy().view(np.uint64)
    for b in range(blocks):
        assert list(got[b, :16]) == [int(w) + b for w in words]
        size = 1 if cluster is None else cluster[0]
        assert (int(got[b, 16]), int(got[b, 17])) == (b % size, size)


def test_a_thread_with_no_cuda_context_of_its_own_can_launch():
    # Autograd runs the backward pass on threads of its own, which may have made no CUDA call
    # yet: a launch there must bind the device's context rather than fail.
    import threading

    a = torch.randn(64, 80, device="cuda")
    b = torch.randn(80, 96, device="cuda")
    out = torch.full((64, 96), float("nan"), device="cuda")
    failures: list[BaseException] = []

    def work() -> None:
        try:
            warpgemm.matmul(a, b, out=out)
            torch.cuda.synchronize()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert not failures, failures
    ref = a.double() @ b.double()
    assert float((out.double() - ref).norm() / ref.norm()) < 1e-5


@pytest.mark.skipif(not torch.cuda.is_available() or _capability() < 90, reason="clusters need sm_90")
def test_resident_blocks_counts_whole_clusters_that_fit_at_once():
    from warpgemm.runtime.device import sm_count
    from warpgemm.runtime.launch import resident_blocks

    k = compile_kernel("probes/param_block_probe.cu", "param_block_probe")
    blocks = resident_blocks(k, (32, 1, 1), 200 * 1024, (2, 1, 1), torch.cuda.current_device())
    # One 200 KB block per SM at most, in pairs that share a GPC: whole pairs, no more than the SMs.
    assert blocks % 2 == 0
    assert 2 <= blocks <= sm_count(torch.cuda.current_device())
