"""kernelport/dataclass_code.py: dataclass methods compiled once and kept on disk, the same code.

Each check runs in a fresh interpreter: the cache shadows `exec` in `dataclasses` for a process.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# Classes of every kind dataclasses writes methods for, made in a module named like kernelport's.
PROBE = '''
import dataclasses, json, sys, types
from kernelport import dataclass_code
if sys.argv[1] == "on":
    dataclass_code.install()
m = types.ModuleType("kernelport._probe")
sys.modules[m.__name__] = m
exec("""
from __future__ import annotations
from dataclasses import dataclass, field
@dataclass(frozen=True, order=True)
class A:
    x: int
    y: str = "a"
    z: tuple = field(default_factory=tuple)
@dataclass(eq=True, unsafe_hash=True, kw_only=True)
class B:
    p: "A | None" = None
    q: int = 3
@dataclass(slots=True)
class C:
    r: float
    def __post_init__(self):
        self.r = self.r * 2
""", m.__dict__)
methods = {}
for name in ("A", "B", "C"):
    cls = getattr(m, name)
    for k, v in sorted(vars(cls).items()):
        code = getattr(v, "__code__", None)
        if code is not None and k.startswith("__") and k != "__post_init__":
            methods[f"{name}.{k}"] = [code.co_code.hex(), repr(code.co_consts), code.co_names, code.co_varnames,
                                      repr(getattr(v, "__annotations__", None)), repr(v.__defaults__),
                                      repr(v.__kwdefaults__)]
a, b, c = m.A(1), m.B(q=4), m.C(1.5)
seen = [repr(a), a == m.A(1), a < m.A(2), hash(a) == hash(m.A(1)), repr(b), hash(b) == hash(m.B(q=4)), repr(c),
        m.A.__doc__, m.C.__doc__]
try:
    a.x = 2
except dataclasses.FrozenInstanceError:
    seen.append("frozen")
print(json.dumps({"methods": methods, "seen": seen, "stats": dataclass_code.stats()}))
'''


def _probe(mode: str, cache: Path) -> dict:
    r = subprocess.run([sys.executable, "-P", "-c", PROBE, mode], capture_output=True, text=True, timeout=120,
                       env={"KERNELPORT_CODE_CACHE": str(cache), "PATH": "/usr/bin:/bin"}, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_cached_methods_are_the_code_dataclasses_compiles(tmp_path):
    """The same bytecode, constants, names, annotations and behaviour with and without the cache, from
    a cold file and from a warm one (compiled in an earlier process)."""
    plain = _probe("off", tmp_path / "c")
    cold = _probe("on", tmp_path / "c")
    warm = _probe("on", tmp_path / "c")
    assert plain["methods"] and plain["methods"] == cold["methods"] == warm["methods"]
    assert plain["seen"] == cold["seen"] == warm["seen"]
    assert "frozen" in plain["seen"]
    assert cold["stats"]["compiled"] >= 8 and warm["stats"] == {"compiled": 0, "looked_up": cold["stats"]["looked_up"]}
    assert plain["stats"] == {"compiled": 0, "looked_up": 0}


def _lint(cache: str, tmp_path: Path) -> tuple[dict, subprocess.CompletedProcess]:
    code = ("import sys, json\nsys.argv = ['kernelport', *sys.argv[1:]]\nfrom kernelport.entry import main\n"
            "from kernelport import dataclass_code\ntry:\n    main()\nfinally:\n"
            "    print(json.dumps(dataclass_code.stats()), file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-P", "-c", code, "lint", "--format", "json", "k.cu"], capture_output=True,
                       text=True, timeout=300, cwd=tmp_path, env={"KERNELPORT_CODE_CACHE": cache, "PATH": "/usr/bin:/bin"})
    return json.loads(r.stderr.strip().splitlines()[-1]), r


def test_a_lint_compiles_its_dataclass_methods_once(tmp_path):
    """The first lint compiles and writes the file; the next compiles nothing and reports the same;
    a damaged file is compiled afresh and rewritten; `off` writes nothing."""
    (tmp_path / "k.cu").write_bytes((EXAMPLES / "warp_reduce.cu").read_bytes())
    cache = tmp_path / "cache"
    first, r1 = _lint(str(cache), tmp_path)
    (f,) = cache.iterdir()
    assert first["compiled"] > 100 and f.name.startswith("dataclass-code-") and f.stat().st_size > 0
    second, r2 = _lint(str(cache), tmp_path)
    assert second == {"compiled": 0, "looked_up": first["looked_up"]}
    assert (r1.returncode, r1.stdout) == (r2.returncode, r2.stdout) and r1.returncode == 1 and json.loads(r1.stdout)
    f.write_bytes(b"\x00not marshal")
    third, r3 = _lint(str(cache), tmp_path)
    assert third["compiled"] == first["compiled"] and (r3.returncode, r3.stdout) == (r1.returncode, r1.stdout)
    assert _lint(str(cache), tmp_path)[0]["compiled"] == 0  # rewritten whole
    off, r4 = _lint("off", tmp_path)
    assert off == {"compiled": 0, "looked_up": 0} and r4.stdout == r1.stdout
    assert [p.name for p in cache.iterdir()] == [f.name]  # no temporary file left behind
