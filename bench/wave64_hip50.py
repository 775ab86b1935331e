"""Stop 50's HIP figures (h/hip50), for whichever kernelport is first on PYTHONPATH (run it with main's and the
branch's tree in turn: `PYTHONPATH=/work/main python bench/wave64_hip50.py [--hipcc]`).

1. Tile sizes written as names (tests/test_tile_sizes.py's fixtures): each form's outcome (written, or the codes
   it stops at); for a written port, whether it is the literal port with the name for its value, the emulator's
   run of it at wave 32 and 64 against CUDA's tile numbering where the emulator reads the form (a literal, or a
   macro cpp expands), and with --hipcc whether it compiles for gfx90a and gfx1030.
2. An asm's `#if __CUDA_ARCH__ >= N` / `#else` (tests/test_ptx_branches.py's fixtures, whose branches differ on
   purpose): the branch a port compiles off NVIDIA (a kept conditional: the `#else`, `__CUDA_ARCH__` undefined),
   evaluated over 300 random operand pairs against what the original computes on every GPU CUDA 13 builds for
   (the `#if` branch): mismatches, and the warnings.
"""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

import kernelport  # noqa: E402
from kernelport import backends, toolchains  # noqa: E402
from kernelport.emulator import run_kernel  # noqa: E402
from kernelport.source import SourceFile  # noqa: E402
from kernelport.translate import translate  # noqa: E402


def _codes(port) -> str:
    return " ".join(sorted(f"{d.code}@{d.line}{'(w)' if d.severity == 'warning' else ''}" for d in port.diagnostics))


def tiles(hipcc: bool) -> None:
    import tempfile

    import test_tile_sizes as t
    lit, _ = t._port(t.LITERAL)
    x = np.random.default_rng(5).integers(0, 9, 512).astype(np.int32)
    cases = {"literal 16": (t.LITERAL, "16"), **{f"{k} (16)": v for k, v in t.FORMS.items()},
             "constexpr 64": (t.HEAD + "constexpr int kTile = 64;\n" + t.BODY.replace("SIZE", "kTile"), "kTile"),
             "template 16 and 64": (t.HEAD + "template <int TILE>\n" + t.BODY.replace("SIZE", "TILE") +
                                    "void run(const int* x, int* o) { k<16><<<1, 128>>>(x, o); "
                                    "k<64><<<1, 128>>>(x, o); }\n", "TILE"),
             "unknown header constant": (t.HEAD + '#include "tile_config.h"\n' + t.BODY.replace("SIZE", "kTile"),
                                         "kTile")}
    print("## tile sizes written as names (tests/test_tile_sizes.py fixtures; block 128, tiles of 16)")
    print(f"{'form':26} {'outcome':44} {'=literal':8} {'emu32':6} {'emu64':6} {'hipcc gfx90a/gfx1030'}")
    for name, (text, size) in cases.items():
        port, out = t._port(text)
        same = emu32 = emu64 = cc = "-"
        if port.ok:
            same = "yes" if t._body(port.body, size) == t._body(lit.body, "16") else "no"
            if "64" not in name:
                res = []
                for wave in (32, 64):
                    try:
                        got = run_kernel(out, "k", args={"x": x, "out": np.zeros(512, np.int32)}, grid=(1, 1, 1),
                                         block=(128, 1, 1), wave=wave, backend="hip").outputs["out"]
                        res.append("pass" if np.array_equal(got, t._cuda(x, 16, 128)) else "FAIL")
                    except Exception:  # noqa: BLE001 - the emulator's located "not run" (groups.py reads literal sizes)
                        res.append("n/r")
                emu32, emu64 = res
            if hipcc:
                with tempfile.TemporaryDirectory() as d:
                    p = Path(d) / "t.hip"
                    p.write_text(out)
                    cc = "/".join("ok" if toolchains.compile_hip(p, r.arch).ok else "FAIL"
                                  for r in backends.get("hip").runs)
        outcome = "written" + (f" [{_codes(port)}]" if port.diagnostics else "") if port.ok else f"refused {_codes(port)}"
        print(f"{name:26} {outcome[:44]:44} {same:8} {emu32:6} {emu64:6} {cc}")


def arch_branches() -> None:
    import test_ptx_branches as t
    print("\n## asm `#if __CUDA_ARCH__` branches (tests/test_ptx_branches.py fixtures; 300 operand pairs)")
    print(f"{'fixture':34} {'branch compiled off NVIDIA':28} {'mismatches vs #if (every GPU CUDA 13 builds)':46} warnings")
    for name, branches in {"#if >= 200 / #else": t.TWO, "#if >= 800 / #else (sm_75 differs)": t.TWO.replace("200", "800")}.items():
        port, _ = translate(SourceFile.from_text(t._source(branches), "s.cu"), "hip")
        if "__CUDA_ARCH__" in port.body:  # a kept conditional: off NVIDIA the macro is undefined, the #else compiles
            arm, which = t._arms(port.body)["#else"], "#else (conditional kept)"
        else:
            arm, which = next(ln for ln in port.body.splitlines() if "kp_ptx_t" in ln), "the port's one branch"
        rng = random.Random(37)
        bad = 0
        for _ in range(300):
            a, b = rng.getrandbits(32), rng.choice([0, t.M32, rng.getrandbits(32)])
            bad += t._run(arm, a, b) != t.MODELS["#if"](a, b)
        print(f"{name:34} {which:28} {bad:<46} {_codes(port) or '-'}")


if __name__ == "__main__":
    print(f"# kernelport from {Path(kernelport.__file__).parent.parent}")
    tiles("--hipcc" in sys.argv)
    arch_branches()
