"""The disk cache: hits, corrupt entries, concurrent writers, and what the key covers."""

from __future__ import annotations

import multiprocessing as mp
import os

import pytest

from warpgemm.runtime import cache, compile_kernel, compiler, device

SRC, NAME = "bench/mma_ceiling.cu", "wg::mma_ceiling<0, 4, 1>"


def _entries(root):
    return sorted(root.glob("*/*.cubin-entry"))


def test_second_compile_is_a_cache_hit_with_the_same_cubin(fresh_cache, monkeypatch):
    first = compile_kernel(SRC, NAME, "sm_80")
    assert not first.from_cache
    assert len(_entries(fresh_cache)) == 1
    compiler.forget_loaded()  # as if in a new process
    second = compile_kernel(SRC, NAME, "sm_80")
    assert second.from_cache
    assert second.cubin == first.cubin
    assert (second.registers, second.spill_bytes, second.mangled_name) == \
        (first.registers, first.spill_bytes, first.mangled_name)


def test_the_key_covers_arch_and_name_expression(fresh_cache):
    compile_kernel(SRC, NAME, "sm_80")
    compile_kernel(SRC, NAME, "sm_90a")
    compile_kernel(SRC, "wg::mma_ceiling<0, 2, 1>", "sm_80")
    assert len(_entries(fresh_cache)) == 3


def test_the_key_covers_included_headers(fresh_cache, tmp_path, monkeypatch):
    root = tmp_path / "kernels"
    (root / "common").mkdir(parents=True)
    (root / "common" / "val.cuh").write_text("#pragma once\nconstexpr int VAL = 1;\n")
    (root / "k.cu").write_text('#include "common/val.cuh"\n'
                               'extern "C" __global__ void k(int* x) { x[0] = VAL; }\n')
    monkeypatch.setattr(compiler, "KERNELS_ROOT", root)
    first = compile_kernel("k.cu", "k", "sm_80")
    (root / "common" / "val.cuh").write_text("#pragma once\nconstexpr int VAL = 2;\n")
    compiler.forget_loaded()  # a running process keeps what it loaded; a new one re-reads
    second = compile_kernel("k.cu", "k", "sm_80")
    assert not second.from_cache and second.cubin != first.cubin
    assert len(_entries(fresh_cache)) == 2


def test_the_key_covers_which_build_of_nvrtc_compiled(fresh_cache, monkeypatch):
    # Two builds of one NVRTC version need not emit the same machine code: neither is served
    # the other's cubin.
    for build in ("13.0@1000:aaaa", "13.0@1000:bbbb"):
        monkeypatch.setattr(compiler, "nvrtc_build", lambda build=build: build)
        compiler.forget_loaded()
        assert not compile_kernel(SRC, NAME, "sm_80").from_cache
    assert len(_entries(fresh_cache)) == 2


def test_a_library_build_is_named_by_its_size_and_end(tmp_path):
    one, copy, other_end, longer = (tmp_path / n for n in ("one", "copy", "other_end", "longer"))
    body = os.urandom(200_000)
    one.write_bytes(body)
    copy.write_bytes(body)
    other_end.write_bytes(body[:-1] + bytes([body[-1] ^ 1]))
    longer.write_bytes(body + b"\0")
    names = [device.library_identity(str(p)) for p in (one, copy, other_end, longer)]
    assert names[0] == names[1]
    assert len(set(names)) == 3


def test_the_loaded_nvrtc_is_named_by_version_and_build():
    build = device.nvrtc_build()
    assert build.startswith(device.nvrtc_version())
    assert "@" in build  # the library was located: the key names its build, not just its version


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip_byte", "empty"])
def test_a_corrupt_entry_is_rebuilt_not_fatal(fresh_cache, monkeypatch, damage):
    good = compile_kernel(SRC, NAME, "sm_80")
    (path,) = _entries(fresh_cache)
    blob = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(blob[: len(blob) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(300))
    elif damage == "flip_byte":
        path.write_bytes(blob[:-10] + bytes([blob[-10] ^ 0xFF]) + blob[-9:])
    else:
        path.write_bytes(b"")
    compiler.forget_loaded()
    rebuilt = compile_kernel(SRC, NAME, "sm_80")
    assert not rebuilt.from_cache and rebuilt.cubin == good.cubin
    assert cache.load(path.name.split(".")[0]) is not None  # the entry was rewritten


def _compile_in_child(cache_dir: str, queue) -> None:
    os.environ["WARPGEMM_CACHE"] = cache_dir
    from warpgemm.runtime import compile_kernel as ck

    k = ck(SRC, NAME, "sm_90a")
    queue.put((k.from_cache, len(k.cubin)))


def test_two_processes_compiling_the_same_kernel_at_once_both_succeed(tmp_path, monkeypatch):
    monkeypatch.setenv("WARPGEMM_CACHE", str(tmp_path / "c"))
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_compile_in_child, args=(str(tmp_path / "c"), queue)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    results = [queue.get(timeout=5) for _ in procs]
    assert all(size > 0 for _, size in results)
    entries = _entries(tmp_path / "c")
    assert len(entries) == 1
    assert not list((tmp_path / "c").glob("*/.tmp-*")), "a temporary file was left behind"
    assert cache.load(entries[0].name.split(".")[0]) is not None


def test_cache_location_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("WARPGEMM_CACHE", str(tmp_path / "elsewhere"))
    assert cache.cache_root() == tmp_path / "elsewhere"
    monkeypatch.delenv("WARPGEMM_CACHE")
    assert cache.cache_root().parts[-2:] == (".cache", "warpgemm")
