"""verify begins the original's compile before it translates the ports (kernelport/verify_compiles.py):
the original's nvcc run is a file's longest compile and no longer waits for the drift check's translations,
while every check stands where it stood and a failure before the ports' compiles ends the run as before."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from kernelport.toolchains import CompileResult
from kernelport.verify import Verifier

SAXPY = Path(__file__).resolve().parent.parent / "examples" / "saxpy.cu"


def _quiet(monkeypatch, begun: list, original_begun: threading.Event):
    """No compiler, lint or emulator run: each compile job says which backend it compiles."""
    def compile_group(self, job):
        be, path, runs, *_ = job
        begun.append(be.name)
        if be.name == "cuda":
            original_begun.set()
        return [(be.name, run.wave, CompileResult(be.name, run.arch, True, False, [], "", ""), 0.001, None)
                for run in runs]

    monkeypatch.setattr(Verifier, "_compile_group", compile_group)
    monkeypatch.setattr(Verifier, "_lint", lambda self, path, ports, rep: None)
    monkeypatch.setattr(Verifier, "_numeric_cached", lambda self, *a: None)


def test_the_originals_compile_is_begun_before_the_ports_are_translated(monkeypatch):
    begun, original_begun, seen = [], threading.Event(), []
    _quiet(monkeypatch, begun, original_begun)
    translate = Verifier._drift_and_ports

    def drift_and_ports(self, *a):
        # the original's job runs on a thread: it has begun, or begins while this waits (never, on main)
        seen.append(original_begun.wait(timeout=60))
        seen.append(list(begun))
        return translate(self, *a)

    monkeypatch.setattr(Verifier, "_drift_and_ports", drift_and_ports)
    rep = Verifier(cache=False).verify(SAXPY)
    assert rep.error is None
    assert seen == [True, ["cuda"]]  # no port's compile before its translation
    assert sorted(begun) == ["cuda", "hip", "metal"]


def test_the_compile_checks_stand_after_the_drift_checks_original_first(monkeypatch):
    # the look-alike that must not move: the report's order (the original's compile, then each port's)
    _quiet(monkeypatch, [], threading.Event())
    rep = Verifier(cache=False).verify(SAXPY)
    kinds = [(c.kind, c.backend) for c in rep.checks]
    drift = [k for k in kinds if k[0] == "drift"]
    assert drift and kinds[:len(drift)] == drift
    compiles = [b for k, b in kinds[len(drift):]]
    assert compiles[0] == "cuda" and set(compiles) == {"cuda", "hip", "metal"}
    assert compiles == sorted(compiles, key=["cuda", "hip", "metal"].index)


def test_a_failed_translation_ends_the_file_and_leaves_no_port_compile(monkeypatch):
    begun = []
    _quiet(monkeypatch, begun, threading.Event())

    def broken(self, *a):
        raise RuntimeError("translator crashed")

    monkeypatch.setattr(Verifier, "_drift_and_ports", broken)
    with pytest.raises(RuntimeError, match="translator crashed"):
        Verifier(cache=False).verify(SAXPY)
    assert "hip" not in begun and "metal" not in begun
