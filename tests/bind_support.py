"""Shared helpers of the bind tests: generating bindings of the examples into a directory."""
from __future__ import annotations

from pathlib import Path

from kernelport.bind import bind_file
from kernelport.bind.files import write

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
NAMES = [p.stem for p in EXAMPLES]
GOLDEN = ROOT / "tests" / "golden" / "bind"


def generate(path: Path, out: Path, *, rust: bool = True, swift: bool = True) -> list:
    """Every file bind writes for `path` (ports included), written under `out`."""
    outputs = bind_file(path, out, rust=rust, swift=swift)
    for o in outputs:
        write(o.path, o.text)
    return outputs
