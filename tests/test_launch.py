"""The launcher's interface, without a device: what it takes and what it refuses."""

from __future__ import annotations

import ctypes

import pytest

from warpgemm.runtime import ParamBlock


def test_a_parameter_block_copies_its_bytes_to_an_aligned_address():
    data = bytes(range(128))
    block = ParamBlock(data, align=64)
    assert block.address % 64 == 0 and len(block) == 128
    assert ctypes.string_at(block.address, 128) == data
    data2 = bytearray(data)
    block2 = ParamBlock(data2)
    data2[0] = 99  # a copy: later changes to the source do not reach the block
    assert ctypes.string_at(block2.address, 1) == b"\x00"


def test_a_parameter_block_refuses_empty_data_and_odd_alignment():
    with pytest.raises(ValueError, match="at least one byte"):
        ParamBlock(b"")
    with pytest.raises(ValueError, match="power of two"):
        ParamBlock(b"x" * 16, align=48)


def test_the_ctypes_launch_config_has_cuda_h_s_layout():
    """``CUlaunchConfig`` and ``CUlaunchAttribute`` as cuda.h lays them out on 64-bit hosts: the
    cluster and dependent launches pass these to ``cuLaunchKernelEx`` directly."""
    from warpgemm.runtime.launch import _LaunchAttribute, _LaunchConfig, _ex_config

    assert ctypes.sizeof(_LaunchAttribute) == 72 and _LaunchAttribute.value.offset == 8
    assert (_LaunchConfig.shared_bytes.offset, _LaunchConfig.stream.offset, _LaunchConfig.attrs.offset,
            _LaunchConfig.num_attrs.offset, ctypes.sizeof(_LaunchConfig)) == (24, 32, 40, 48, 56)
    cfg, attrs, ref = _ex_config((264, 1, 1), (384, 1, 1), 200_000, (2, 1), False, 0x1234)
    assert list(cfg.grid) == [264, 1, 1] and list(cfg.block) == [384, 1, 1] and cfg.shared_bytes == 200_000
    assert cfg.stream == 0x1234 and cfg.num_attrs == 1 and cfg.attrs[0].id == 4  # CLUSTER_DIMENSION
    assert list(attrs[0].value[:3]) == [2, 1, 1] and ctypes.addressof(cfg.attrs.contents) == ctypes.addressof(attrs)
    assert ref._obj is cfg  # passed by reference, as cuLaunchKernelEx takes it


def test_a_dependent_launch_config_carries_the_programmatic_serialization_attribute():
    """With and without a cluster: attribute 6 (PROGRAMMATIC_STREAM_SERIALIZATION) with value 1."""
    from warpgemm.runtime.launch import _ex_config

    cfg, attrs, _ = _ex_config((132, 1, 1), (384, 1, 1), 0, None, True, 0)
    assert cfg.num_attrs == 1 and (cfg.attrs[0].id, cfg.attrs[0].value[0]) == (6, 1) and cfg.stream is None
    cfg, attrs, _ = _ex_config((264, 1, 1), (384, 1, 1), 0, (2, 1, 1), True, 7)
    assert cfg.num_attrs == 2 and [cfg.attrs[i].id for i in range(2)] == [4, 6]
    assert list(cfg.attrs[0].value[:3]) == [2, 1, 1] and cfg.attrs[1].value[0] == 1


def test_only_sm90_kernels_that_allow_it_launch_as_dependents():
    import importlib
    from types import SimpleNamespace

    launch_mod = importlib.import_module("warpgemm.runtime.launch")

    hopper, ampere = SimpleNamespace(arch="sm_90a"), SimpleNamespace(arch="sm_80")
    assert launch_mod._dependent(hopper, True) and not launch_mod._dependent(hopper, False)
    assert not launch_mod._dependent(ampere, True)
    was = launch_mod.dependent_launch_enabled()
    try:
        launch_mod.set_dependent_launch(False)
        assert not launch_mod._dependent(hopper, True)
    finally:
        launch_mod.set_dependent_launch(was)
