"""Golden ports that the README's main command cannot rewrite.

`kernelport translate examples/*.cu --to hip,metal` regenerates examples/*.hip and *.metal in
place, after which a comparison with those files passes by construction.  The goldens here live
in tests/golden/, which no documented command writes.  After an intended change to the output,
regenerate them with

    kernelport translate examples/*.cu --to hip,metal -o tests/golden

and review the diff.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import destination, port_file

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
REGEN = "kernelport translate examples/*.cu --to hip,metal -o tests/golden"


@pytest.mark.parametrize("backend", ["hip", "metal"])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_port_matches_its_golden(path, backend):
    dest = destination(path, backend, GOLDEN)
    port, text = port_file(SourceFile.read(path), backend, GOLDEN)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert dest.exists(), f"missing golden {dest.name}: {REGEN}"
    assert text == dest.read_text(), f"port differs from golden {dest.name}: review, then {REGEN}"
    for suffix, extra in port.extra_files.items():
        side = dest.with_name(dest.name + suffix)
        assert side.exists() and extra == side.read_text(), f"sidecar differs from golden {side.name}: {REGEN}"


def test_every_golden_has_its_example():
    stems = {p.stem for p in EXAMPLES}
    for g in GOLDEN.iterdir():
        if g.is_dir():  # a backend's own goldens (portable/: test_portable.py compares them)
            continue
        assert g.name.split(".")[0] in stems, f"stale golden {g.name}"
    assert len(list(GOLDEN.glob("*.hip"))) == len(EXAMPLES) == len(list(GOLDEN.glob("*.metal")))
