"""verify's lint gate on a port that keeps the file's own `#define warpSize 32` (kernelport/verify_kept.py).

Translate keeps the definition on purpose (kernelport/own_macros.py: its uses are no wave width), and the
oracle passes the port at waves 32 and 64; before, the port's lint repeated the original's WS001 at the kept
definition and the gate failed the port for the user's own hazard.  Now the gate passes and names the kept
finding.  Look-alikes that still fail: a port whose definition the original does not have, and one whose
definition differs from the original's (a rewritten line is the port's)."""
from __future__ import annotations

from pathlib import Path

from test_own_warpsize_macro import _SHARED, _hip

from kernelport.lint.config import Overrides
from kernelport.verify import Verifier
from kernelport.verify_kept import gate


def _gate(tmp_path: Path, original: str, port: str) -> tuple[list[str], str]:
    f, p = tmp_path / "k.cu", tmp_path / "k.hip"
    f.write_text(original)
    p.write_text(port)
    return gate(Verifier(cache=False), f, p, Overrides())


def test_the_kept_definition_passes_the_ports_gate(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_text(_SHARED)
    (tmp_path / "k.hip").write_text(_hip(tmp_path, _SHARED))
    rep = Verifier(cache=False, timeout=120, oracle="original").verify(f)
    lint = [(c.status, c.detail) for c in rep.checks if c.kind == "lint" and c.backend == "hip"]
    assert lint and all(s == "pass" for s, _ in lint), lint
    assert "kept as written from k.cu" in lint[0][1] and "WS001" in lint[0][1], lint
    numeric = [c.status for c in rep.checks if c.kind == "numeric" and c.backend == "hip"]
    assert numeric and set(numeric) == {"pass"}, numeric  # the port the gate passes is right at 32 and 64


def test_gate_of_the_original_is_unchanged(tmp_path: Path):
    f = tmp_path / "k.cu"
    f.write_text(_SHARED)
    errors, detail = gate(Verifier(cache=False), f, f, Overrides(select=("SY", "PT")))
    assert errors == [] and detail.startswith("no lint errors (SY/PT rules)") and "kept" not in detail


def test_look_alike_a_definition_the_original_lacks_fails(tmp_path: Path):
    port = _hip(tmp_path, _SHARED)
    errors, _ = _gate(tmp_path, _SHARED.replace("#define warpSize 32\n", "#define WAVE_ROWS 32\n"), port)
    assert any(" WS001 " in e for e in errors), errors


def test_look_alike_a_changed_definition_fails(tmp_path: Path):
    port = _hip(tmp_path, _SHARED).replace("#define warpSize 32", "#define warpSize 0x20")
    errors, _ = _gate(tmp_path, _SHARED, port)
    assert any(" WS001 " in e for e in errors), errors
