#!/usr/bin/env python3
"""Before/after HIP figures of a kernelport change on a corpus manifest (tests/realcorpus style).

    python bench/hip_before_after.py MANIFEST OUT.json --before EXE --after EXE

Per source: `EXE translate FILE --to hip -o TMP` with each executable, then the port built with
hipcc for gfx90a and gfx1030 on the original's include path (its directory, the project's include
dirs and defines, as bench/scoreboard.py does); a port whose output directory is identical before
and after is compiled once.  Prints one JSON row per file and the totals.
"""
import argparse, concurrent.futures, filecmp, json, subprocess, sys, tempfile, tomllib
from pathlib import Path
from kernelport import toolchains

ap = argparse.ArgumentParser()
ap.add_argument("manifest", type=Path)
ap.add_argument("out", type=Path)
ap.add_argument("--before", required=True)
ap.add_argument("--after", required=True)
ap.add_argument("-j", type=int, default=2)
opt = ap.parse_args()
BEFORE, AFTER, man = opt.before, opt.after, opt.manifest
projects = tomllib.loads(man.read_text())["project"]
jobs = []
for name, spec in projects.items():
    root = man.parent / name
    for s in spec["sources"]:
        jobs.append((name, root, root / s, [root / d for d in spec.get("include_dirs", [])], spec.get("defines", []),
                     spec.get("nvcc_flags", [])))

def translate(exe, src, out):
    p = subprocess.run([exe, "translate", str(src), "--to", "hip", "-o", str(out)], capture_output=True, text=True,
                       timeout=300, env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1"})
    return p.returncode, p.stdout + p.stderr

def port_of(out, src):
    c = list(out.rglob(src.stem + ".hip"))
    return c[0] if c else None

def hipcc(port, args):
    r = toolchains.compile_hip(port, toolchains.HIP_ARCHS, extra_args=args, timeout=300)
    return r.status, ("" if r.ok else (r.output or r.reason).strip().splitlines()[0][:200] if (r.output or r.reason) else "")

def one(job):
    name, root, src, incs, defs, flags = job
    tmp = Path(tempfile.mkdtemp(prefix="kpm-"))
    row = {"project": name, "file": str(src.relative_to(root))}
    args = [f"-I{src.parent}"] + [f"-I{d}" for d in incs] + [f"-D{d}" for d in defs]
    res = {}
    for tag, exe in (("before", BEFORE), ("after", AFTER)):
        out = tmp / tag
        rc, text = translate(exe, src, out)
        row[f"{tag}_rc"] = rc
        row[f"{tag}_kp222"] = text.count("KP222")
        port = port_of(out, src) if rc == 0 else None
        res[tag] = (out, port)
    for tag in ("before", "after"):
        out, port = res[tag]
        if port is None:
            row[f"{tag}_hipcc"] = "none"
            continue
        if tag == "after" and res["before"][1] is not None:
            cmp = filecmp.dircmp(res["before"][0], out)
            same = not cmp.left_only and not cmp.right_only and not cmp.diff_files and not cmp.subdirs and \
                port.relative_to(out) == res["before"][1].relative_to(res["before"][0])
            if same:
                row["after_hipcc"], row["after_err"], row["same"] = row["before_hipcc"], row.get("before_err", ""), True
                continue
        row["same"] = False
        row[f"{tag}_hipcc"], row[f"{tag}_err"] = hipcc(port, [f"-I{port.parent}"] + args + flags)
        row[f"{tag}_headers"] = sorted(str(p.relative_to(out)) for p in out.rglob("*.h"))
    print(json.dumps(row), flush=True)
    return row

with concurrent.futures.ThreadPoolExecutor(opt.j) as ex:
    rows = list(ex.map(one, jobs))
opt.out.write_text(json.dumps(rows, indent=1))
for tag in ("before", "after"):
    written = sum(r[f"{tag}_rc"] == 0 for r in rows)
    ok = sum(r.get(f"{tag}_hipcc") == "pass" for r in rows)
    print(f"{tag}: {len(rows)} files, HIP written {written}, compiles (gfx90a+gfx1030) {ok}, KP222 {sum(r[f'{tag}_kp222'] for r in rows)}")
