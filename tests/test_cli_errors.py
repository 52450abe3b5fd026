"""Wrong usage of the ``warpgemm`` command: one line on stderr that names the argument and says
what it accepts, exit status 2, never a traceback. Every case fails before anything runs, so
the walk is the same with or without a GPU."""

from __future__ import annotations

import subprocess
import sys

import pytest

from warpgemm import cli_args
from warpgemm.cli import main

from conftest import HAS_GPU

# (argv, a fragment the one line must contain)
WRONG = [
    # argparse's own errors, one line each
    ([], "missing COMMAND: choose from bench, tune"),
    (["bnech"], "did you mean 'bench'?"),
    (["kernels", "sgemm", "extra"], "unrecognized arguments: extra"),
    (["compile"], "missing NAME"),
    (["explain"], "missing WHAT: choose from mma, ldmatrix"),
    (["explain", "mma", "SM80_16x8x16_F16F16F16F16_T"], "did you mean 'SM80_16x8x16_F16F16F16F16_TN'?"),
    (["compile", "sgemm/01_naive", "--arch", "sm_80", "--a-layout", "diagonal"], "argument --a-layout"),
    # explain tiled-mma
    (["explain", "tiled-mma", "--thread", "999"], "--thread: expected a thread index from 0 to 127"),
    (["explain", "tiled-mma", "--thread", "-1"], "--thread: expected an integer >= 0"),
    (["explain", "tiled-mma", "--layout", "2,x"], "--layout: expected 1 to 3 positive integers M,N,K"),
    (["explain", "tiled-mma", "--layout", "1,1,1,1,1"], "--layout: expected 1 to 3"),
    (["explain", "tiled-mma", "--layout", "0,2,1"], "--layout"),
    (["explain", "tiled-mma", "--perm", "1,2"], "--copy: SM75_U16x8_LDSM_T does not fit this TiledMMA"),
    (["explain", "tiled-mma", "--perm", "32,32,16,8"], "--perm"),
    (["explain", "tiled-mma", "--tile-mn", "128"], "--tile-mn: expected 2 positive integers MxN"),
    (["explain", "tiled-mma", "--tile-k", "0"], "--tile-k: expected a positive integer"),
    (["explain", "tiled-mma", "--copy", "LDSM"], "--copy: invalid choice"),
    (["explain", "tiled-mma", "--atom", "SM80"], "--atom: invalid choice"),
    # explain: other commands
    (["explain", "banks", "--swizzle", "1,2"], "--swizzle: expected 3 integers >= 0 B,M,S"),
    (["explain", "banks", "--swizzle", "3,3,1"], "--swizzle: Swizzle: |S| must be at least B"),
    (["explain", "banks", "--bm", "0"], "--bm: expected a positive integer"),
    (["explain", "banks", "--pad", "-4"], "--pad: expected an integer >= 0"),
    (["explain", "swizzle", "3", "3", "1"], "B M S: Swizzle"),
    (["explain", "swizzle", "-1", "3", "3"], "argument B: expected an integer >= 0"),
    (["explain", "swizzle", "--rows", "0"], "--rows: expected a positive integer"),
    (["explain", "swizzle", "--cols", "many"], "--cols: expected a positive integer, got 'many'"),
    (["explain", "swizzle", "--dtype", "f8"], "--dtype: invalid choice"),
    (["explain", "ldmatrix", "x3"], "invalid choice: 'x3'"),
    (["explain", "ldmatrix", "--lanes", "40"], "--lanes: expected lanes from 0 to 31"),
    (["explain", "ldmatrix", "--lanes", "a,b"], "--lanes"),
    # explain: output files
    (["explain", "mma", "--svg", "/nonexistent/dir/x.svg"], "--svg: cannot write '/nonexistent/dir/x.svg'"),
    (["explain", "mma", "--svg", "x.png"], "--svg: expected a file name ending in .svg"),
    (["explain", "mma", "--png", "x.svg"], "--png: expected a file name ending in .png"),
    (["explain", "mma", "--svg", "."], "--svg"),
    # compile
    (["compile", "sgemm/07_cp_async", "--arch", "sm_80", "-p", "STAGES=abc"],
     "-p/--param: expected NAME=VALUE with an integer VALUE"),
    (["compile", "sgemm/07_cp_async", "--arch", "sm_80", "-p", "STAGES"], "-p/--param: expected NAME=VALUE"),
    (["compile", "sgemm/07_cp_async", "--arch", "sm_80", "-p", "FOO=1"], "sgemm/07_cp_async has no parameter 'FOO'"),
    (["compile", "sgemm/07_cp_async", "--arch", "sm_80", "-p", "STAGES=1"],
     'the cp.async ring needs at least 2 stages" (sgemm/07_cp_async.cu:'),
    (["compile", "sgemm/07_cp_async", "--arch", "sm_999"], "--arch: arch 'sm_999' is not one NVRTC"),
    (["compile", "sgemm/07_cp_async", "--arch", "hopper"], "use one of sm_75, sm_80"),
    (["compile", "sgemm/07_cp_async", "--arch", "sm_75"], "sgemm/07_cp_async needs sm_80 or newer; asked for sm_75"),
    (["compile", "sgemm/07_cp_asyn", "--arch", "sm_80"], "did you mean 'sgemm/07_cp_async'?"),
    (["compile", "nothing", "--arch", "sm_80"], "NAME: no kernel named 'nothing'"),
    (["compile", "all", "--family", "tgemm", "--arch", "sm_80"], "--family: no kernel family 'tgemm'"),
    (["compile", "sgemm/01_naive", "--family", "sgemm", "--arch", "sm_80"], "--family: applies to 'compile all' only"),
    # kernels
    (["kernels", "sgem"], "FAMILY: no kernel family 'sgem'; did you mean 'sgemm'?"),
    # bench: every argument is checked before the GPU is looked for
    (["bench", "tgemm"], "FAMILY: no kernel family 'tgemm'"),
    (["bench", "sgemm", "--shapes", "12x"], "--shapes: expected a shape MxNxK"),
    (["bench", "sgemm", "--shapes", "0x8x8"], "--shapes"),
    (["bench", "sgemm", "--suite", "squares"], "did you mean 'square'?"),
    (["bench", "sgemm", "--suite", "llm", "--shapes", "64x64x64"], "--shapes: replaces --suite"),
    (["bench", "sgemm", "--a-layout", "col"], "--a-layout: applies to --shapes only"),
    (["bench", "--kernels", "07"], "--kernels: needs a family"),
    (["bench", "sgemm", "--kernels", "09"], "'09' matches no sgemm kernels"),
    (["bench", "sgemm", "--kernels", "08:STAGES=two"], "--kernels: expected NAME or NAME:P=V"),
    (["bench", "sgemm", "--kernels", "08:DEPTH=2"], "unknown parameter 'DEPTH'"),
    (["bench", "sgemm", "--kernels", "hgemm/99_x"], "no kernel named 'hgemm/99_x'"),
    (["bench", "sgemm", "--dtype", "float16"], "--dtype: no chosen sgemm kernel takes float16"),
    (["bench", "sgemm", "--dtype", "int4"], "--dtype: invalid choice"),
    (["bench", "sgemm", "--dtype", "int8"], "no chosen sgemm kernel takes int8 inputs"),
    (["bench", "sgemm", "--json", "results.csv"], "--json: expected a file name ending in .json"),
    (["bench", "sgemm", "--plot", "plot.txt"], "--plot: expected a file name ending in .png or .svg"),
    (["bench", "sgemm", "--plot", "/etc/hostname/plot.png"], "--plot: cannot write"),
    (["bench", "sgemm", "--occupancy"], "--occupancy: applies to 'warpgemm bench ceiling' only"),
    (["bench", "ceiling", "--kernels", "07"], "--kernels: does not apply to 'warpgemm bench ceiling'"),
    # tune
    (["tune", "hgemm/07_tune"], "did you mean 'hgemm/07_tuned'?"),
    (["tune", "hgemm/01_wmma"], "hgemm/01_wmma has no tuning space"),
    (["tune", "hgemm/07_tuned", "--dtype", "float32"], "--dtype: hgemm/07_tuned takes float16, bfloat16"),
    (["tune", "hgemm/07_tuned", "--shapes", "4096"], "--shapes: expected a shape MxNxK"),
    (["tune", "hgemm/07_tuned", "--suite", "huge"], "--suite: invalid choice"),
]


def _one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    return lines[0]


@pytest.mark.parametrize("argv,fragment", WRONG, ids=[" ".join(a) or "(nothing)" for a, _ in WRONG])
def test_wrong_usage_is_one_line_and_exit_status_2(argv, fragment, capsys):
    assert main(argv) == 2
    line = _one_line(capsys)
    assert line.startswith("warpgemm")
    assert fragment in line


@pytest.mark.skipif(HAS_GPU, reason="checks the behaviour without a CUDA device")
def test_compile_without_arch_or_gpu_suggests_an_arch_once(capsys):
    assert main(["compile", "sgemm/07_cp_async"]) == 2
    line = _one_line(capsys)
    assert line.startswith("warpgemm compile: argument --arch:") and "warpgemm: warpgemm" not in line
    assert "--arch sm_90a" in line


@pytest.mark.parametrize("argv", [["explain", "mma", "--png", "atom.png"],
                                  ["bench", "sgemm", "--plot", "sgemm.svg"]])
def test_pictures_without_matplotlib_name_the_extra_to_install(argv, monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli_args, "has_matplotlib", lambda: False)
    assert main(argv) == 2
    assert 'pip install "warpgemm[plot]"' in _one_line(capsys)


def test_explain_main_reports_like_the_command(capsys):
    from warpgemm.layout.explain import main as explain_main

    assert explain_main(["tiled-mma", "--thread", "999"]) == 2
    assert _one_line(capsys).startswith("warpgemm explain tiled-mma: argument --thread")


def test_help_and_version_exit_0(capsys):
    from warpgemm import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"warpgemm {__version__}"
    assert main(["compile", "--help"]) == 0
    assert "--arch" in capsys.readouterr().out


@pytest.mark.parametrize("argv,fragment", [
    (["explain", "tiled-mma", "--thread", "999"], "argument --thread"),
    (["explain", "banks", "--swizzle", "1,2"], "argument --swizzle"),
    (["--version"], None),
])
def test_python_dash_m_warpgemm(argv, fragment):
    run = subprocess.run([sys.executable, "-m", "warpgemm", *argv], capture_output=True, text=True,
                         timeout=120)
    assert "Traceback" not in run.stderr
    if fragment is None:
        assert run.returncode == 0 and run.stdout.startswith("warpgemm ")
    else:
        assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
        assert fragment in run.stderr
