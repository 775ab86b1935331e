"""How many held-out HIP ports each of several kernelports writes differently (the scoreboard's per-file
command: `translate FILE --to hip -o TMP` + the manifest's -I/-D; exit code, written files hashed less the
checksum line, first error).  `--reach`: only sources that have an index shuffle (`__shfl(`/`__shfl_sync(`)
in them or in a local header they include by a path beside them; the others are listed as skipped.

    python -P bench/hip_ports_compare.py [--reach] --kp pre=EXE --kp main=EXE --kp branch=EXE SET [SET ...]

EXE: a command running one checkout's kernelport (`PYTHONPATH=CHECKOUT python -P -m kernelport`, in a
script); SET: a materialised held-out set under /work (bench/realcorpus_build.py).
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scoreboard as sb  # noqa: E402

_SHFL = re.compile(r"__shfl(_sync)?\s*\(")
_INC = re.compile(r'#\s*include\s*"([^"]+)"')


def digest(d: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(d.rglob("*")):
        if p.is_file():
            t = re.sub(r"kernelport-checksum: \w+", "", p.read_text(errors="replace"))
            h.update(str(p.relative_to(d)).encode() + t.encode())
    return h.hexdigest()[:12]


def reaches(path: Path, seen: set) -> bool:
    if path in seen or not path.is_file():
        return False
    seen.add(path)
    t = path.read_text(errors="replace")
    return bool(_SHFL.search(t)) or any(reaches((path.parent / m).resolve(), seen) for m in _INC.findall(t))


def main(argv: list[str]) -> None:
    kps, sets, reach = {}, [], False
    while argv:
        a = argv.pop(0)
        if a == "--kp":
            name, exe = argv.pop(0).split("=", 1)
            kps[name] = exe
        elif a == "--reach":
            reach = True
        else:
            sets.append(a)
    for setname in sets:
        for pr in sb.load_projects(f"/work/{setname}"):
            for src in pr.sources:
                rel = f"{pr.name}/{src.relative_to(pr.root)}"
                if reach and not reaches(src.resolve(), set()):
                    print(f"{setname} {rel}: skipped (no index shuffle in it or its local headers)", flush=True)
                    continue
                res = {}
                for k, exe in kps.items():
                    with tempfile.TemporaryDirectory() as out:
                        p = subprocess.run(["nice", "-n", "10", exe, "translate", str(src), "--to", "hip", "-o", out,
                                            *sb.project_flags(pr)], capture_output=True, text=True, cwd=src.parent,
                                           env={**os.environ, "NO_COLOR": "1"}, timeout=900)
                        errs = [ln for ln in (p.stdout + p.stderr).splitlines() if " error" in ln]
                        res[k] = (p.returncode, digest(Path(out)), errs[0][:160] if errs else "")
                names = list(kps)
                diffs = [f"{a}!={b}" for a, b in zip(names, names[1:]) if res[a] != res[b]]
                print(f"{setname} {rel}: {' '.join(diffs) or 'same'} " +
                      " ".join(f"{k}={res[k][:2]}" for k in names), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
