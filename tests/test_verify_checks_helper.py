"""trust_support.verify_checks(compiles=False), for tests that read no compile check nor the exit code:
the compilers are not run, and every other check is the one the full run makes (the same kind, backend,
wave and status), so such a test asserts what it asserted with the compiles."""
from __future__ import annotations

from trust_support import kernel, verify_checks


def _key(c: dict) -> tuple:
    return c.get("kernel"), c["backend"], c["wave"], c["kind"], c["status"]


def test_without_compiles_every_other_check_is_the_full_runs(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel())
    _, full, text = verify_checks(f)
    _, quick, quick_text = verify_checks(f, compiles=False)
    assert any(c["kind"] == "compile" for c in full), text
    assert not any(c["kind"] == "compile" for c in quick), quick_text
    assert any(c["kind"] == "numeric" and c["status"] == "pass" for c in quick), quick_text
    assert sorted(map(_key, quick)) == sorted(_key(c) for c in full if c["kind"] != "compile"), (text, quick_text)
