"""verify's result cache (hit, miss on changed bytes / seed / toolchain, --no-cache) and --shard."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from kernelport import backends, toolchains, verify
from kernelport.errors import KernelportError
from kernelport.toolchains import CompileResult, Toolchain
from kernelport.verify import Check, FileReport, Verifier, parse_shard, shard_of
from kernelport.verify_cache import Cache, file_digest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(autouse=True)
def _cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def fake_compiler(monkeypatch):
    """The CUDA backend's compile counted, its toolchain a fake whose version a test can change."""
    calls, tool = [], {"version": "12.4"}
    cuda = type(backends.get("cuda"))

    def compile_(self, path, run, config=((), ())):
        calls.append(Path(path).read_bytes())
        return CompileResult("nvcc", run.arch, True, False, ["nvcc", str(path)], "", "")

    monkeypatch.setattr(cuda, "compile", compile_)
    monkeypatch.setattr(toolchains, "find_tool", lambda name: Toolchain(name, f"/opt/{name}", tool["version"]))
    return calls, tool


def _compile(v: Verifier, path: Path):
    be = backends.get("cuda")
    return v._compile_one((be, path, be.compile_runs()[0]))


def test_compile_hit_and_misses(tmp_path, fake_compiler):
    calls, tool = fake_compiler
    k = tmp_path / "k.cu"
    k.write_text("__global__ void k() {}\n")
    assert _compile(Verifier(), k)[4] is None  # compiled: not from the cache
    _, _, r, secs, ran = _compile(Verifier(), k)  # a new run: the result comes from disk, with its compile's seconds
    assert len(calls) == 1 and r.ok and secs >= 0 and ran is not None and ran >= 0
    k.write_text("__global__ void k() { }\n")  # other bytes
    _compile(Verifier(), k)
    assert len(calls) == 2
    tool["version"] = "12.6"  # another toolchain
    _compile(Verifier(), k)
    assert len(calls) == 3
    _compile(Verifier(cache=False), k)  # --no-cache compiles again ...
    _compile(Verifier(cache=False), k)
    assert len(calls) == 5


def test_compile_cache_follows_included_headers(tmp_path, fake_compiler):
    calls, _ = fake_compiler
    (tmp_path / "h.h").write_text("#define N 1\n")
    k = tmp_path / "k.cu"
    k.write_text('#include "h.h"\n__global__ void k() {}\n')
    _compile(Verifier(), k)
    (tmp_path / "h.h").write_text("#define N 2\n")
    _compile(Verifier(), k)
    assert len(calls) == 2


def test_no_cache_stores_nothing(tmp_path, fake_compiler):
    k = tmp_path / "k.cu"
    k.write_text("__global__ void k() {}\n")
    _compile(Verifier(cache=False), k)
    assert not (tmp_path / "xdg").exists()


def test_skips_are_not_cached(tmp_path, monkeypatch):
    calls = []
    cuda = type(backends.get("cuda"))

    def compile_(self, path, run, config=((), ())):
        calls.append(1)
        return CompileResult("nvcc", run.arch, False, True, [], "", "install nvcc")

    monkeypatch.setattr(cuda, "compile", compile_)
    k = tmp_path / "k.cu"
    k.write_text("__global__ void k() {}\n")
    _compile(Verifier(), k)
    _compile(Verifier(), k)
    assert len(calls) == 2


def test_portable_compiles_each_dialect_once_for_all_its_architectures(tmp_path, monkeypatch):
    """The portable port's three runs: nvcc for sm_80 and one HIP build for gfx90a and gfx1030
    together, each result in its run's row, and all three cached for the next run."""
    calls = []
    hip, cuda = type(backends.get("hip")), type(backends.get("cuda"))

    def hip_all(self, path, runs, config=((), ())):
        calls.append(("hip", [r.arch for r in runs]))
        return [CompileResult("hipcc", r.arch, r.arch != "gfx1030", False, [], "", "") for r in runs]

    monkeypatch.setattr(hip, "compile_all", hip_all)
    monkeypatch.setattr(cuda, "compile", lambda self, path, run, config=((), ()): calls.append(("cuda", [run.arch]))
                        or CompileResult("nvcc", run.arch, True, False, [], "", ""))
    monkeypatch.setattr(toolchains, "find_tool", lambda name: Toolchain(name, f"/opt/{name}", "1"))
    k = tmp_path / "k.portable.cu"
    k.write_text("__global__ void k() {}\n")
    portable = backends.get("portable")
    job = (portable, k, portable.compile_runs())
    rows = [(r.target, wave, r.ok) for _, wave, r, _, _ in Verifier()._compile_group(job)]
    assert rows == [("sm_80", 32, True), ("gfx90a", 64, True), ("gfx1030", 32, False)]
    assert calls == [("cuda", ["sm_80"]), ("hip", ["gfx90a", "gfx1030"])]
    assert [(r.target, r.ok, ran is not None) for _, _, r, _, ran in Verifier()._compile_group(job)] == \
        [(t, ok, True) for t, _, ok in rows]
    assert len(calls) == 2


@pytest.fixture
def fake_numeric(monkeypatch):
    calls = []

    def numeric(self, src, module, name, spec, ports, rep):
        calls.append((name, self.seed))
        rep.checks.append(Check(name, "cuda", 32, "numeric", "pass", f"seed {self.seed}", seconds=1.0))

    monkeypatch.setattr(Verifier, "_numeric", numeric)
    return calls


def _numeric(v: Verifier, path: Path, ports=None) -> FileReport:
    rep = FileReport(str(path))
    v._numeric_cached(path, None, None, "k", None, ports or {}, rep)
    return rep


def test_numeric_hit_and_misses(tmp_path, fake_numeric):
    k = tmp_path / "k.cu"
    k.write_text("// @kp kernel k\n")
    first = _numeric(Verifier(seed=1), k)
    again = _numeric(Verifier(seed=1), k)
    assert len(fake_numeric) == 1
    assert [c.detail for c in again.checks] == [c.detail for c in first.checks]
    assert again.checks[0].seconds < 1.0  # this run's time (the lookup), not the stored run's
    assert all(c.cached for c in again.checks) and not any(c.cached for c in first.checks)
    _numeric(Verifier(seed=2), k)  # another seed
    _numeric(Verifier(seed=1), k, {"hip": (None, "changed port text")})  # another port
    k.write_text("// @kp kernel k (edited)\n")  # another original
    _numeric(Verifier(seed=1), k)
    assert len(fake_numeric) == 4
    _numeric(Verifier(seed=1, cache=False), k)
    assert len(fake_numeric) == 5


@pytest.fixture
def fake_unrunnable(monkeypatch):
    """A kernel the emulator cannot run on Metal (a skip, or a failure under --require metal), a
    real failure on HIP and a pass on CUDA."""
    calls = []

    def numeric(self, src, module, name, spec, ports, rep):
        calls.append(name)
        rep.checks += [Check(name, "cuda", 32, "numeric", "pass", "matches"),
                       Check(name, "hip", 64, "numeric", "fail", "y[3] = 1.0, reference 2.0"),
                       Check(name, "metal", 32, "numeric", self._skip("metal", "emulate"), "not yet: simd_shuffle")]

    monkeypatch.setattr(Verifier, "_numeric", numeric)
    return calls


@pytest.mark.parametrize("first", [frozenset(), frozenset({"metal"})], ids=["plain-first", "require-first"])
def test_require_is_applied_to_cached_numeric_checks(tmp_path, fake_unrunnable, first):
    """`verify` then `verify --require metal` (CI) emulates once; --require decides on every read
    whether the unrunnable check fails, and a real failure or a pass never changes."""
    k = tmp_path / "k.cu"
    k.write_text("// @kp kernel k\n")
    statuses = {}
    for require in (first, {"metal"} - first, {"hip"}, frozenset()):
        rep = _numeric(Verifier(require=set(require)), k)
        statuses[frozenset(require)] = [c.status for c in rep.checks]
    assert len(fake_unrunnable) == 1
    assert statuses[frozenset()] == ["pass", "fail", "skip"]
    assert statuses[frozenset({"metal"})] == ["pass", "fail", "fail"]
    assert statuses[frozenset({"hip"})] == ["pass", "fail", "skip"]


def test_corrupt_entry_is_a_miss(tmp_path):
    c = Cache(root=tmp_path / "c")
    c.put("ab" * 32, [1, 2])
    assert c.get("ab" * 32) == [1, 2]
    (tmp_path / "c" / "ab" / f"{'ab' * 32}.pkl").write_bytes(b"not a pickle")
    assert c.get("ab" * 32) is None


def test_file_digest_survives_include_cycles(tmp_path):
    (tmp_path / "a.h").write_text('#include "b.h"\n')
    (tmp_path / "b.h").write_text('#include "a.h"\n')
    assert file_digest(tmp_path / "a.h")


# -- --shard ------------------------------------------------------------------------------------
def test_shards_are_disjoint_complete_and_deterministic():
    files = [Path(f"k{i:02}/x{i % 7}.cu") for i in range(23)]
    for n in (1, 2, 3, 5, 23, 30):
        shards = [shard_of(files, (i, n)) for i in range(1, n + 1)]
        flat = [f for s in shards for f in s]
        assert sorted(flat) == sorted(files) and len(flat) == len(set(flat))
        shuffled = files[:]
        random.Random(n).shuffle(shuffled)
        assert [shard_of(shuffled, (i, n)) for i in range(1, n + 1)] == shards
        assert max(map(len, shards)) - min(map(len, shards)) <= 1


@pytest.mark.parametrize("bad", ["0/2", "3/2", "1", "a/b", "1/0", "-1/2", "1/2/3"])
def test_bad_shard(bad):
    with pytest.raises(KernelportError):
        parse_shard(bad)


def test_verify_paths_runs_each_file_in_exactly_one_shard(monkeypatch):
    monkeypatch.setattr(verify, "_verify_one", lambda args: FileReport(str(args[0])))
    every = [r.path for r in verify.verify_paths([EXAMPLES], jobs=1)]
    got = [r.path for i in (1, 2, 3) for r in verify.verify_paths([EXAMPLES], jobs=1, shard=(i, 3))]
    assert sorted(got) == sorted(every) and len(got) == len(set(got)) and len(every) >= 10


def test_a_file_summary_accounts_for_every_check():
    """The counts a file's summary line gives add up to its number of checks: an informational
    check (the original at wave 64) is named, never silently missing from the sum."""
    from kernelport.verify_report import file_summary

    rep = FileReport("k.cu", kernels=["k"], checks=[
        Check("k", "hip", 32, "numeric", "pass", "", seconds=0.5),
        Check("k", "original", 64, "original", "info", "original at wave 64: matches k_ref", seconds=0.25),
        Check("k", "metal", 32, "compile", "skip", "no Metal compiler"),
        Check("k", "hip", 64, "numeric", "fail", "differs")])
    line = file_summary(rep)
    assert "4 checks: 1 passed, 1 informational, 1 failed, 1 skipped (750 ms of checks)" in line, line
    rep.checks = rep.checks[:1]
    assert "informational" not in file_summary(rep) and "cache" not in file_summary(rep)
    rep.checks.append(Check("k", "hip", 64, "compile", "pass", "", seconds=0.001, cached=True, run_seconds=1.25))
    # a verdict read from the cache is said to be one: its seconds are the lookup's, beside the check's own
    assert "(501 ms of checks; 1 cached: read from the cache, not run again, 1.25 s when they ran)" in \
        file_summary(rep), file_summary(rep)


def test_no_cache_keeps_the_hip_checks_pchs_for_the_run_only(monkeypatch, tmp_path):
    """--no-cache stores nothing under the cache home: the precompiled headers of the HIP check
    (kernelport.pch) go to a directory of the run's own, removed after it."""
    from kernelport import pch
    monkeypatch.delenv(pch.ENV, raising=False)
    seen = []
    monkeypatch.setattr(verify, "_verify_one", lambda args: seen.append(pch.pch_dir()) or FileReport(str(args[0])))
    verify.verify_paths([EXAMPLES / "saxpy.cu"], jobs=1, cache=False)
    assert seen[0] is not None and not seen[0].is_relative_to(tmp_path / "xdg") and not seen[0].exists()
    assert pch.ENV not in __import__("os").environ
    verify.verify_paths([EXAMPLES / "saxpy.cu"], jobs=1)
    assert seen[1] == tmp_path / "xdg" / "kernelport" / "pch"


def _counted(monkeypatch, module, name: str) -> list:
    """`module.name` patched to count its calls (one 1 a call) and do what it does."""
    calls, real = [], getattr(module, name)
    monkeypatch.setattr(module, name, lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def _with_header(tmp_path, header: str, body: str):
    """k.cu, a kernel of `body`, including w.cuh (`header`) beside it."""
    (tmp_path / "w.cuh").write_text(header)
    k = tmp_path / "k.cu"
    k.write_text('#include "w.cuh"\n__global__ void k(float* x) {\n' + body + "}\n")
    return k


def test_translation_for_the_drift_check_is_cached_by_what_it_read(tmp_path, monkeypatch):
    """The drift check's translation comes from the cache while the source, the headers it read
    and the include options are unchanged; any of them changed (or --no-cache) translates again,
    and a hit gives what translating gives."""
    from kernelport.source import SourceFile
    calls = _counted(monkeypatch, verify, "made_or_refused")
    k = _with_header(tmp_path, "#define WIDTH 32\n",
                     "    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], WIDTH / 2);\n")

    def translate(**kw):
        return Verifier(**kw)._translation(k, SourceFile.read(k), "hip")
    first = translate()
    assert first[0] is None and "__shfl_down" in first[1] and calls == [1]
    assert translate() == first and calls == [1]
    (tmp_path / "w.cuh").write_text("#define WIDTH 64\n")  # a header it read
    translate()
    assert calls == [1, 1]
    k.write_text(k.read_text() + "// more\n")  # the source
    translate()
    translate()
    assert calls == [1, 1, 1]
    assert translate(cache=False) == translate() and calls == [1, 1, 1, 1]
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\ndefines = ["EXTRA=1"]\n')  # the options
    from kernelport.lint import config
    config.clear_cache()  # read once per process: a new run reads it again
    translate()
    assert calls == [1, 1, 1, 1, 1]


def test_lint_gate_is_cached_by_what_it_read(tmp_path, monkeypatch):
    """The lint check's errors come from the cache while the file, its settings and the headers
    it read are unchanged; a hit gives what linting gives."""
    from kernelport.lint import engine
    from kernelport.lint.config import Overrides
    calls = _counted(monkeypatch, engine, "lint_paths")
    k = _with_header(tmp_path, "#define LANES 32\n",
                     "    if (threadIdx.x < 8) __syncthreads();\n    x[threadIdx.x % LANES] = 0;\n")
    sy = Overrides(select=("SY", "PT"))
    first = Verifier()._lint_errors(k, sy)
    assert any("SY001" in e for e in first) and calls == [1]
    assert Verifier()._lint_errors(k, sy) == first and calls == [1]
    Verifier()._lint_errors(k, Overrides())
    assert calls == [1, 1]  # other rules: another key
    (tmp_path / "w.cuh").write_text("#define LANES 64\n")  # a header it read
    Verifier()._lint_errors(k, sy)
    assert calls == [1, 1, 1]
    k.write_text(k.read_text().replace("if (threadIdx.x < 8) ", ""))
    assert not any("SY001" in e for e in Verifier()._lint_errors(k, sy)) and calls == [1, 1, 1, 1]
    Verifier(cache=False)._lint_errors(k, sy)
    assert calls == [1, 1, 1, 1, 1]


def _kp(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-P", "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def test_a_shard_without_files_passes_empty_but_an_empty_tree_does_not(tmp_path):
    """A CI matrix of more shards than kernel files: the spare shards pass with an empty report
    (JUnit and JSON); a tree with no kernel file at all still fails, sharded or not."""
    import json
    from xml.etree import ElementTree as ET
    (tmp_path / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    junit = _kp("verify", tmp_path, "--shard", "2/3", "--format", "junit")
    assert junit.returncode == 0 and "shard 2/3 holds none of the 1 kernel files" in junit.stderr, junit.stderr
    assert list(ET.fromstring(junit.stdout).iter("testsuite")) == []
    as_json = _kp("verify", tmp_path, "--shard", "3/3", "--format", "json")
    assert as_json.returncode == 0 and json.loads(as_json.stdout) == []
    empty = tmp_path / "empty"
    empty.mkdir()
    for args in ((), ("--shard", "1/2")):
        r = _kp("verify", empty, *args, "--format", "json")
        assert r.returncode == 2 and "no annotated kernels" in r.stderr and "Traceback" not in r.stderr


def test_a_cached_numeric_check_imports_no_emulator_and_probes_the_c_compiler_once(monkeypatch):
    """An unchanged run reads the numeric verdicts without importing the emulator or the reference
    runner (~0.14 s a worker), and asks the C compiler its version once per process."""
    import subprocess
    import sys
    code = ("import sys\nfrom pathlib import Path\nfrom kernelport.verify import Verifier, FileReport\n"
            "v = Verifier()\nv.cache.get = lambda k, shape=object: []\n"
            f"v._numeric_cached(Path({str(EXAMPLES / 'saxpy.cu')!r}), None, None, 'saxpy', None, {{}}, FileReport('x'))\n"
            "print(sorted(m for m in ('kernelport.reference', 'kernelport.emulator') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr
    probes = []
    real = toolchains._run_quiet
    monkeypatch.setattr(toolchains, "_run_quiet", lambda cmd, **k: probes.append(cmd) or real(cmd, **k))
    toolchains._c_identity.cache_clear()
    first = toolchains.c_compiler_identity()
    assert toolchains.c_compiler_identity() == first and len(probes) == (first is not None)


def _fake_verify_one(args):
    return FileReport(str(args[0]))


def test_toolchains_are_probed_once_before_the_workers_fork(monkeypatch):
    """Each worker would probe every toolchain again (hipcc --version alone ~0.25 s CPU): the
    parent probes them, and the forked workers inherit the answers."""
    import multiprocessing
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("workers inherit the probes only when forked")
    probed = []
    monkeypatch.setattr(toolchains, "find_tool", lambda name: probed.append(name))
    monkeypatch.setattr(verify, "_verify_one", _fake_verify_one)
    got = verify.verify_paths([EXAMPLES / "saxpy.cu", EXAMPLES / "softmax.cu"], jobs=2)
    assert [r.path for r in got] == [str(EXAMPLES / "saxpy.cu"), str(EXAMPLES / "softmax.cu")]
    assert set(probed) == {t for b in backends.REGISTRY.values() for t in b.tools} >= {"nvcc", "hipcc", "clang"}


def test_two_files_of_the_same_bytes_get_their_own_port_and_findings(tmp_path):
    """The drift and lint caches are keyed by the file's path too: a port names its source, a
    finding its file."""
    from kernelport.lint.config import Overrides
    from kernelport.source import SourceFile
    text = "__global__ void k(float* x) {\n    if (threadIdx.x < 8) __syncthreads();\n}\n"
    a, b = tmp_path / "a.cu", tmp_path / "b.cu"
    for p in (a, b):
        p.write_text(text)
    for p in (a, b):
        assert "from b.cu" not in Verifier()._translation(a, SourceFile.read(a), "hip")[1]
        assert f"from {p.name}" in Verifier()._translation(p, SourceFile.read(p), "hip")[1]
        assert all(e.startswith(str(p)) for e in Verifier()._lint_errors(p, Overrides(select=("SY",))))


def test_values_conform_to_their_shapes():
    from kernelport.verify_cache import conforms
    shape = ((str | None, str, {str: str}, [(object, str)]), [(str, str)])
    assert conforms(((None, "port", {"a": "b"}, [(Path("h"), "t")]), [("h", "d")]), shape)
    assert not conforms(((None, "port", {"a": 1}, []), []), shape)  # a dict value of another type
    assert not conforms(((None, "port", {}, []), [("h",)]), shape)  # a tuple of another length
    assert not conforms([1, 2], shape) and not conforms(42, [Check]) and conforms([], [Check])


BAD_PICKLES = [42, {"x": 1}, [1, 2], ("a", "b"), "text", [None]]


def _spoil(root: Path, value) -> int:
    """Every entry under root replaced by a pickle of `value` (the shape of none of them)."""
    import pickle
    entries = list(root.rglob("*.pkl"))
    for p in entries:
        p.write_bytes(pickle.dumps(value))
    return len(entries)


@pytest.mark.parametrize("value", BAD_PICKLES)
def test_an_entry_of_another_shape_is_a_miss_in_every_reader(tmp_path, monkeypatch, fake_compiler, fake_numeric,
                                                            value):
    """A cache entry that unpickles to a value of the wrong shape (a truncated write of another
    version, a hand-edited or foreign file) is a miss: the check runs again and gives the verdict
    it gives uncached; it was an internal error (`KeyError: 1`, `'int' object is not
    subscriptable`) in verify's drift, lint, compile and numeric readers (bench/fuzz_project.py)."""
    from kernelport.lint import engine
    from kernelport.lint.config import Overrides
    from kernelport.source import SourceFile
    made, linted = _counted(monkeypatch, verify, "made_or_refused"), _counted(monkeypatch, engine, "lint_paths")
    k = _with_header(tmp_path, "#define LANES 32\n", "    x[threadIdx.x % LANES] = __shfl_down_sync(~0u, x[0], 1);\n")

    def run():
        v = Verifier()
        return (v._translation(k, SourceFile.read(k), "hip"), v._lint_errors(k, Overrides()),
                _compile(v, k)[2].ok, [c.detail for c in _numeric(v, k).checks])
    first = run()
    assert (made, linted, len(fake_compiler[0]), len(fake_numeric)) == ([1], [1], 1, 1)
    assert run() == first and made == [1]  # all four from the cache
    assert _spoil(tmp_path / "xdg", value) == 4
    assert run() == first
    assert (made, linted, len(fake_compiler[0]), len(fake_numeric)) == ([1, 1], [1, 1], 2, 2)


def test_two_files_of_the_same_bytes_share_a_compile_but_each_message_names_its_own(tmp_path, monkeypatch):
    """The compile cache is keyed by bytes, not path: the second file reads the first's run,
    stored with the path as a placeholder, and its message names the second file."""
    calls = []
    cuda = type(backends.get("cuda"))

    def compile_(self, path, run, config=((), ())):
        calls.append(str(path))
        return CompileResult("nvcc", run.arch, False, False, ["nvcc", "-c", str(path)],
                             f"{path}(2): error: identifier \"kp_undefined\" is undefined\n"
                             f"1 error detected in the compilation of \"{path}\".\n", "nvcc failed (exit 2)")

    monkeypatch.setattr(cuda, "compile", compile_)
    monkeypatch.setattr(toolchains, "find_tool", lambda name: Toolchain(name, f"/opt/{name}", "12.4"))
    text = "__global__ void k(float* x) {\n    x[0] = kp_undefined;\n}\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "k.cu", tmp_path / "b" / "k.cu"
    for p in (first, second):
        p.write_text(text)
    got = {p: _compile(Verifier(), p) for p in (first, second)}
    assert calls == [str(first)]  # one compile for both
    for p, (_, _, r, _, ran) in got.items():
        assert (ran is not None) is (p == second) and not r.ok
        assert r.output.startswith(f"{p}(2): error") and r.command == ["nvcc", "-c", str(p)]
        assert f'compilation of "{p}"' in r.output
    # a relative spelling is put back as that file's spelling; a longer name that contains it is left
    monkeypatch.chdir(tmp_path)
    rel = Path("b") / "k.cu"
    _, _, r, _, ran = _compile(Verifier(), rel)
    assert ran is not None and r.output.startswith("b/k.cu(2): error") and str(tmp_path) not in r.output
