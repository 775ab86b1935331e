"""verify's compile of a port that stops at a ROCm library the toolchain install lacks
(kernelport/absent_libraries.py, the HIP backend's `optional_libraries`).

Before this, a port of a file that includes <thrust/device_ptr.h> failed verify's HIP compile on a ROCm
without rocThrust (Debian's: this machine) as "compile FAIL: fatal error: 'thrust/device_ptr.h' file not
found", blamed on the port. It is now a skipped check that names the library and how to install it;
`--require hip` (CI whose ROCm has the libraries) still fails it."""
from __future__ import annotations

from pathlib import Path

from kernelport import absent_libraries, verify
from kernelport.toolchains import CompileResult

THRUST = ("t.hip:6:10: fatal error: 'thrust/device_ptr.h' file not found\n#include <thrust/device_ptr.h>\n"
          "         ^~~~~~~~~~~~~~~~~~~~~\n1 error generated when compiling for gfx90a.\n")


def test_a_missing_rocm_library_header_names_the_library_and_how_to_install_it():
    why = absent_libraries.reason("hip", THRUST)
    assert why is not None and why.startswith("<thrust/device_ptr.h> is rocThrust's")
    assert "rocthrust-dev" in why and "CPATH" in why
    hipcub = absent_libraries.reason("hip", "p.hip:1:10: fatal error: 'hipcub/hipcub.hpp' file not found\n")
    assert hipcub is not None and hipcub.startswith("<hipcub/hipcub.hpp> is hipCUB's")
    roctx = absent_libraries.reason("hip", "p.hip:1:10: fatal error: 'roctracer/roctx.h' file not found\n")
    assert roctx is not None and roctx.startswith("<roctracer/roctx.h> is roctracer's") and "roctracer-dev" in roctx


def test_other_compile_failures_stay_the_ports():
    """A project header not found, a real error before the include's, a backend with no such library."""
    assert absent_libraries.reason("hip", "k.hip:3:10: fatal error: 'my/thrust_utils.h' file not found\n") is None
    assert absent_libraries.reason("hip", "k.hip:2:1: error: unknown type name 'cuComplex'\n" + THRUST) is None
    assert absent_libraries.reason("metal", THRUST) is None


def _checks(monkeypatch, tmp_path: Path, output: str, require=frozenset()):
    def compiled(cache, job):
        be, path, runs, *_ = job  # (and the original whose configuration a port is compiled with)
        ok = be.name != "hip"
        return [(be.name, r.wave, CompileResult("hipcc" if not ok else "nvcc", r.arch if not ok else "sm_80", ok, False,
                                                output="" if ok else output, reason="" if ok else "hipcc failed (exit 1)"),
                 0.1, None) for r in runs]

    monkeypatch.setattr(verify, "compile_group", compiled)
    rep = verify.FileReport(str(tmp_path / "t.cu"))
    verify.Verifier(require=set(require), cache=False)._compile(tmp_path / "t.cu", {"hip": (tmp_path / "t.hip",)}, rep)
    return [(c.backend, c.wave, c.status, c.detail) for c in rep.checks if c.backend == "hip"]


def test_verify_skips_the_compile_and_says_why(monkeypatch, tmp_path):
    checks = _checks(monkeypatch, tmp_path, THRUST)
    assert [(b, w, s) for b, w, s, _ in checks] == [("hip", 64, "skip"), ("hip", 32, "skip")]
    assert all(d.startswith("skipped: <thrust/device_ptr.h> is rocThrust's") for *_, d in checks)


def test_verify_require_hip_fails_it_and_a_ports_own_error_still_fails(monkeypatch, tmp_path):
    assert {s for _, _, s, _ in _checks(monkeypatch, tmp_path, THRUST, require={"hip"})} == {"fail"}
    own = _checks(monkeypatch, tmp_path, "t.hip:2:1: error: unknown type name 'cuComplex'\n")
    assert {s for _, _, s, _ in own} == {"fail"} and all("cuComplex" in d for *_, d in own)


def test_verify_does_not_cache_a_compile_stopped_at_a_missing_library(tmp_path):
    """Installing the library (or CPATH) must take effect on the next run, as installing a missing tool
    does: the stopped compile is not stored; a port's own failure is (it is a verdict on those bytes)."""
    from types import SimpleNamespace

    from kernelport.verify_cache import Cache, compile_group

    src = tmp_path / "t.hip"
    src.write_text("#include <thrust/device_ptr.h>\n")
    runs = (SimpleNamespace(arch="gfx90a", wave=64),)
    for output, stored in ((THRUST, 0), ("t.hip:2:1: error: unknown type name 'cuComplex'\n", 1)):
        cache = Cache(root=tmp_path / f"cache{stored}")
        be = SimpleNamespace(name="hip", tools=(), build_reads=frozenset(), compile_all=lambda p, rs, config=((), ()), o=output: [
            CompileResult("hipcc", r.arch, False, False, output=o, reason="hipcc failed (exit 1)") for r in rs])
        compile_group(cache, (be, src, runs))
        assert len([f for f in (tmp_path / f"cache{stored}").rglob("*") if f.is_file()]) == stored
