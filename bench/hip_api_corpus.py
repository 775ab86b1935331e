#!/usr/bin/env python3
"""HIP compile failures on a real-code corpus, by cause: how many are API names and headers.

    python bench/hip_api_corpus.py MANIFEST_DIR --scoreboard PATH/TO/scoreboard.py \\
        [--before KERNELPORT_SRC_DIR] [-j 2] [--json OUT]

Per source of the manifest (tests/realcorpus of the corpus work): the original with `nvcc -c`,
then for this checkout's kernelport (and, with --before, another source tree of it run from
PYTHONPATH) `translate FILE --to hip` and the port through hipcc for gfx90a and gfx1030 with the
project's include dirs (the scoreboard's own steps and flags). Each failing compile is classed by
its first error: a CUDA header not found, a CUDA/HIP API name the headers do not declare, an error
inside a project header the port includes (itself CUDA), or other.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import json
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
API_NAME = re.compile(r"(?:undeclared identifier|unknown type name|no member named|no type named|"
                      r"no template named|undeclared|unknown) '?(?:[\w:]*::)?"
                      r"((?:cuda|hip|cu|CU|HIP|cublas|hipblas|curand|hiprand|cufft|hipfft|cusparse|hipsparse|cub|hipcub|"
                      r"__nv_|__hip_|nvrtc|hiprtc)\w*)'?")
NOT_FOUND = re.compile(r"fatal error: '([^']+)' file not found")
CUDA_HEADER = re.compile(r"(cuda|cublas|curand|cufft|cusparse|cusolver|cudnn|nvrtc|cooperative_groups|cub/|"
                         r"device_launch_parameters|sm_\d+_|nvToolsExt|math_constants|helper_math|vector_types|mma)")


def classify(output: str, port: str) -> str:
    errors = [line for line in output.splitlines() if ": error: " in line or "fatal error:" in line]
    if not errors:
        return "other"
    first = errors[0]
    where = first.split(":", 1)[0]
    if not where.endswith(Path(port).name):
        return "error inside an included project header"  # the header is CUDA itself: not ported
    m = NOT_FOUND.search(first)
    if m:
        return "header: CUDA header" if CUDA_HEADER.search(m.group(1)) else "header: other (project, system)"
    if API_NAME.search(first):
        return "API name"
    if "undeclared identifier" in first or "unknown type name" in first:
        return "undeclared non-API name (a project helper)"
    return "other"


def load_scoreboard(path: Path):
    spec = importlib.util.spec_from_file_location("scoreboard", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["scoreboard"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("manifest")
    ap.add_argument("--scoreboard", type=Path, required=True)
    ap.add_argument("--before", type=Path, help="another kernelport source tree (run with PYTHONPATH)")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--nvcc", action="store_true", help="also compile each original with nvcc (slow)")
    ap.add_argument("--match", help="only the files whose project/path matches this regular expression")
    a = ap.parse_args(argv)
    sb = load_scoreboard(a.scoreboard)
    projects = sb.load_projects(a.manifest)
    runs = {"after": None}
    if a.before is not None:
        runs = {"before": a.before, "after": None}

    def one(project, src: Path) -> dict:
        row = sb.Row(project.name, str(src.relative_to(project.root)))
        if a.nvcc:
            sb.nvcc_step(project, src, row)
        out = {"file": f"{project.name}/{row.file}", "nvcc": row.nvcc or "not run"}
        seen: dict[str, dict] = {}  # port text -> its hipcc outcome (identical ports compile alike)
        for name, tree in runs.items():
            with tempfile.TemporaryDirectory(prefix="kp-hipapi-") as tmp:
                env_tree = str(tree) if tree is not None else None
                exe = _exe(env_tree)
                state, codes, error, _, _ = sb.run_translate(exe, [str(src)], "hip", Path(tmp))
                res = {"hip": state, "codes": codes, "hipcc": "", "cause": "", "error": ""}
                if state == "written":
                    port = sb.find_port(Path(tmp), Path(src.name), ".hip")
                    text = port.read_text() if port is not None else None
                    if text in seen:
                        res.update({k: seen[text][k] for k in ("hipcc", "error", "cause")})
                    elif port is not None:
                        from kernelport import toolchains
                        # -fsyntax-only: names and headers fail there; no code generation (the scoreboard's -c
                        # is the full measure, this the quick one for causes)
                        r = toolchains.compile_hip(port, ["gfx90a", "gfx1030"],
                                                   extra_args=[*sb.include_args(project, src), "-fsyntax-only"],
                                                   timeout=sb.COMPILE_TIMEOUT_S)
                        res["hipcc"] = r.status
                        if r.status == "fail":
                            res["error"] = sb.first_error(r.output or r.reason)
                            res["cause"] = classify(r.output, str(port))
                        seen[text] = res
                out[name] = res
        print(f"{out['file']}: " + "; ".join(f"{k} {v['hip']} {v['codes']} {v['hipcc']} {v['cause']} {v['error'][:80]}"
                                             for k, v in out.items()
                                             if isinstance(v, dict)), file=sys.stderr)
        return out

    jobs = [(p, s) for p in projects for s in p.sources
            if a.match is None or re.search(a.match, f"{p.name}/{s.relative_to(p.root)}")]
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        rows = list(pool.map(lambda ps: one(*ps), jobs))
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    for name in runs:
        nv = [r for r in rows if r["nvcc"] in ("pass", "not run")]
        written = [r for r in nv if r[name]["hip"] == "written"]
        ok = [r for r in written if r[name]["hipcc"] == "pass"]
        causes = Counter(r[name]["cause"] for r in written if r[name]["hipcc"] == "fail")
        refused = Counter(c for r in nv if r[name]["hip"] == "refused" for c in r[name]["codes"].split())
        print(f"{name}: {len(rows)} files, {len(nv)} compile with nvcc (or nvcc not run); HIP written {len(written)}, "
              f"compiles (gfx90a+gfx1030) {len(ok)}; compile failures by cause: {dict(causes)}; "
              f"refusals by code: {dict(refused)}")
    return 0


def _exe(tree: str | None) -> str:
    """A kernelport command for run_translate: this checkout's, or another tree's via PYTHONPATH."""
    py = sys.executable
    if tree is None:
        return str(Path(py).with_name("kernelport"))
    wrapper = Path(tempfile.gettempdir()) / f"kp-before-{os.getpid()}.sh"
    if not wrapper.exists():
        wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{tree}" exec "{py}" -P -m kernelport "$@"\n')
        wrapper.chmod(0o755)
    return str(wrapper)


if __name__ == "__main__":
    raise SystemExit(main())
