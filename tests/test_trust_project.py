"""Hostile projects: what bench/fuzz_project.py found, each minimised to the input that caused it.

A tree under review may hold a loop of links, a device or a FIFO named like a header, a chain of
includes deeper than any compiler follows, an include name the system refuses, a pyproject.toml
whose `tool` is no table: each is a located diagnostic or is skipped, never an internal error or
a hang (a hang fails here through the subprocess's timeout)."""
from __future__ import annotations

import os

import pytest

from trust_support import kp, kp_inproc

KERNEL = "__global__ void k(float* x) {\n  x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);\n}\n"


def _no_internal(r) -> str:
    text = r.stdout + r.stderr
    assert r.returncode in (0, 1, 2) and "internal error" not in text and "Traceback" not in text, text[-3000:]
    return text


@pytest.mark.parametrize("kind", ["self-loop", "pair-loop", "device", "fifo", "dangling"])
def test_links_devices_and_fifos_named_like_sources_are_not_read(tmp_path, kind):
    """lint DIR and translate DIR skip what is not a regular file (a loop of links was OSError
    ELOOP from lint's directory walk; /dev/zero named .cuh a MemoryError in translate; a FIFO
    named .cuh blocked translate for ever); included, it is a header not found."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text('#include "odd.cuh"\n' + KERNEL)
    odd = src / "odd.cuh"
    if kind == "self-loop":
        os.symlink("odd.cuh", odd)
    elif kind == "pair-loop":
        os.symlink("other.cuh", odd)
        os.symlink("odd.cuh", src / "other.cuh")
    elif kind == "device":
        os.symlink("/dev/zero", odd)
    elif kind == "fifo":
        os.mkfifo(odd)
    else:
        os.symlink("gone/none.cuh", odd)
    lint = _no_internal(kp("lint", src, "--format", "concise", "-j", "1", timeout=120))
    assert "k.cu" in lint and "odd.cuh:" not in lint
    r = kp("translate", src, "--to", "hip,metal", "-o", tmp_path / "out", timeout=120)
    assert r.returncode == 0 and "'odd.cuh' not found" in _no_internal(r)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["k.hip", "k.metal", "k.metal.json"]


@pytest.mark.parametrize("make", [os.mkfifo, lambda p: os.symlink("/dev/zero", p), lambda p: os.symlink(p.name, p)])
def test_a_named_input_that_is_no_regular_file_is_bad_input(tmp_path, make):
    """Named on the command line, a FIFO, a device or a loop of links is refused (exit 2, naming
    it), never read (translate blocked on the FIFO; lint passed it as '0 files', exit 0)."""
    f = tmp_path / "k.cu"
    make(f)
    for args in (("translate", f, "--to", "hip", "--stdout"), ("lint", f, "--format", "concise"), ("verify", f)):
        r = kp(*args, timeout=60)
        assert r.returncode == 2 and "k.cu" in _no_internal(r), args


def _chain(d, n: int) -> None:
    for i in range(n):
        (d / f"h{i}.cuh").write_text(f'#include "h{i + 1}.cuh"\n' if i + 1 < n else "#define WARP_SIZE 32\n")


def test_an_include_chain_deeper_than_compilers_follow_is_cut_with_a_note(tmp_path):
    """1,500 headers each including the next: the walk stops at includes.MAX_INCLUDE_DEPTH (GCC's
    200) with a located note; it was RecursionError in the project scan."""
    from kernelport.includes import MAX_INCLUDE_DEPTH
    _chain(tmp_path, 1500)
    k = tmp_path / "k.cu"
    k.write_text('#include "h0.cuh"\n' + KERNEL)
    rc, out, err = kp_inproc("translate", k, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "internal error" not in err, err[-2000:]
    assert f"h{MAX_INCLUDE_DEPTH - 1}.cuh:1:1: note: 'h{MAX_INCLUDE_DEPTH}.cuh' is included more than " \
           f"{MAX_INCLUDE_DEPTH} levels deep: not followed" in err


def test_cache_digest_of_a_deep_include_chain(tmp_path):
    """verify's cache key reads the same chain no deeper (it was RecursionError past ~1000)."""
    from kernelport.compile_cache import _tree_digest
    from kernelport.verify_cache import file_digest
    import hashlib
    _chain(tmp_path, 1500)
    assert len(file_digest(tmp_path / "h0.cuh")) == 64
    _tree_digest(tmp_path / "h0.cuh", (), hashlib.sha256(), set())


def test_an_include_name_the_system_refuses(tmp_path):
    """A 5,000-character include name (ENAMETOOLONG) is a header not found, in every backend:
    it was OSError from the Metal port's header splicing."""
    k = tmp_path / "k.cu"
    k.write_text('#include "' + "x" * 5000 + '.cuh"\n' + KERNEL)
    rc, out, err = kp_inproc("translate", k, "--to", "hip,metal", "-o", tmp_path / "out")
    assert rc == 0 and "internal error" not in err and "not found beside the file" in err


@pytest.mark.parametrize("text, where, what", [
    ("tool = 3\n", "pyproject.toml:1:1", "`tool` must be a table"),
    ('[tool.kernelport]\ninclude-dirs = ["\\u0000"]\n', "pyproject.toml:2:1", "is not a usable path"),
])
def test_a_pyproject_of_the_wrong_shape_is_located(tmp_path, text, where, what):
    """Both were internal errors (AttributeError on `tool = 3`, ValueError: embedded null byte)."""
    (tmp_path / "pyproject.toml").write_text(text)
    (tmp_path / "k.cu").write_text(KERNEL)
    for args in (("lint", tmp_path, "-j", "1"), ("translate", tmp_path, "--to", "hip", "-o", tmp_path / "out")):
        rc, out, err = kp_inproc(*args)
        assert rc == 2 and where in err and what in err, (args[0], err)


def test_an_atomic_in_a_block_at_file_scope_is_refused_by_the_metal_check(tmp_path):
    """The grammar takes `{ ... }` at file scope as a block; an atomic in it has no function (it
    was AttributeError in the Metal port's atomic rewrite): left as written, refused like the rest."""
    k = tmp_path / "k.cu"
    k.write_text("{\n  atomicAdd(&y[0], 1);\n  atomicCAS(p, 0, 1);\n}\n")
    rc, out, err = kp_inproc("translate", k, "--to", "metal", "--stdout")
    assert rc == 1 and "internal error" not in err and "not translated to metal" in err


def test_a_macro_that_doubles_itself_is_refused_at_its_line_before_the_c_parser():
    """20 doublings are 4.7 MB on one line: the emulator's C parser took minutes over it, outside
    any check's --timeout (verify was killed at 90 s in bench/fuzz_project.py); now a LowerError
    at the line that uses it, which verify reports as that check's failure."""
    import shutil
    from kernelport.emulator.frontend.lowered import LowerError
    from kernelport.emulator.frontend.preprocess import preprocess
    if shutil.which("cpp") is None:
        pytest.skip("no cpp: the emulator's own mini preprocessor expands no function of this")
    bomb = "#define E0 x[0]\n" + "".join(f"#define E{i} (E{i - 1} + E{i - 1})\n" for i in range(1, 21))
    ok = preprocess(bomb + "void k(float* x) {\n  x[1] = E10;\n}\n", "k.cu")
    assert max(map(len, ok.split("\n"))) < 1 << 18  # 2^10 copies: still run
    with pytest.raises(LowerError) as e:
        preprocess(bomb + "void k(float* x) {\n  x[1] = E20;\n}\n", "k.cu")
    assert (e.value.path, e.value.line) == ("k.cu", 23) and "expand to" in e.value.message
