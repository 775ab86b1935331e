#!/usr/bin/env python3
"""The real-code scoreboard (issue 11): how a kernelport build does on whole CUDA projects.

    python bench/scoreboard.py DIR_OR_MANIFEST... [-j 2] [--json OUT] [--csv OUT]
                               [--kernelport PATH_TO_EXE] [--no-project-mode] [--project-flags]
                               [--hip-include DIR]...

A directory holding a `manifest.toml` (tests/realcorpus, /work/heldout), or a manifest itself,
is read project by project: its sources, include dirs, defines and nvcc flags. Any other
directory is one project of every `*.cu` under it, with no include dirs.

Per source file it runs, each step timed:
  nvcc      the original: `nvcc -c` with the project's include dirs, defines and flags;
  hip       `KERNELPORT translate FILE --to hip -o TMP`: written, refused (KP codes), parse
            error, bad input, internal error (exit 3) or timeout;
  hipcc     the HIP port: `hipcc --offload-arch=gfx90a --offload-arch=gfx1030 -c` with the
            original's directory and the project's include dirs on the include path, so the
            port's local includes reach the project's (unported) headers as they are, and the
            project's host-compiler flags (`-Xcompiler ...`, `-std=`) and -rdc (`-fgpu-rdc`);
            each --hip-include DIR last (a ROCm library this machine lacks, e.g. rocThrust's
            and hipCUB's headers from bench/rocm_libs.py), named in the output's header;
  metal     `KERNELPORT translate FILE --to metal -o TMP`;
            with --project-flags both translate runs get the manifest's `-I`/`-D` too (the
            project's headers on those dirs are then ported with the file, as a user's build
            would), and hipcc gets the port tree's copies of the include dirs first;
  checker   the Metal port through kernelport's Metal checker (this checkout's).
When KERNELPORT accepts a directory (`translate DIR -o OUT`, with `-I`/`-D` if its help lists
them), each project is also translated in project mode, once per backend, and every source's
port found in OUT is compiled/checked the same way (OUT's directories first on the path).

The table's Done-when figures: of the files whose original compiles with nvcc, the % whose HIP
port compiles for both archs; of the Metal ports written, the % that pass the checker.
Per-file outcomes with the first error line of each failing step go to --json/--csv, and a
short summary of the top failure causes is printed under the table.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import csv
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's toolchain helpers and Metal checker
sys.path.insert(0, str(ROOT / "bench"))  # scoreboard_ports, when loaded from a file by the tests
from scoreboard_ports import as_hip_unit, find_file_port, find_port, is_header, port_suffix  # noqa: E402,F401

TRANSLATE_TIMEOUT_S = 120
COMPILE_TIMEOUT_S = 180
HIP_INCLUDES: list[str] = []  # --hip-include: after the project's dirs on every hipcc's path
KP_CODE = re.compile(r"\bKP\d{3}\b")
LOCATION = re.compile(r"^(?:.*?:\d+(?::\d+)?:\s*|.*?\(\d+\):\s*)")  # clang `f:1:2: ` / nvcc `f(1): `


@dataclass
class Project:
    name: str
    root: Path
    sources: list[Path]
    include_dirs: list[Path] = field(default_factory=list)
    defines: list[str] = field(default_factory=list)
    nvcc_flags: list[str] = field(default_factory=list)
    source_defines: dict[str, list[str]] = field(default_factory=dict)  # a source's own, by its path under root
    stamp: str = ""  # tree_stamp(root), for the nvcc cache


@dataclass
class Row:
    """One source file's outcome; a step not run is ""."""
    project: str
    file: str
    nvcc: str = ""
    nvcc_error: str = ""
    nvcc_s: float | None = None  # measured: this run's, or where nvcc_cached the run's that stored it (None: not run, or not kept)
    nvcc_cached: bool = False  # the nvcc result read from the cache, not run again
    hip: str = ""
    hip_codes: str = ""
    hip_error: str = ""
    hip_s: float | None = None  # None: the step did not run (an empty cell, never an unmeasured 0.0)
    hipcc: str = ""
    hipcc_error: str = ""
    hipcc_s: float | None = None  # None: the step did not run (an empty cell, never an unmeasured 0.0)
    metal: str = ""
    metal_codes: str = ""
    metal_error: str = ""
    metal_s: float | None = None  # None: the step did not run (an empty cell, never an unmeasured 0.0)
    checker: str = ""
    checker_error: str = ""
    checker_s: float | None = None  # None: the step did not run (an empty cell, never an unmeasured 0.0)
    project_hip: str = ""
    project_hipcc: str = ""
    project_hipcc_error: str = ""
    project_metal: str = ""
    project_checker: str = ""
    project_checker_error: str = ""


# ---------------------------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------------------------
def load_projects(arg: str) -> list[Project]:
    path = Path(arg)
    manifest = path / "manifest.toml" if path.is_dir() else path
    if not manifest.is_file():
        if not path.is_dir():
            sys.exit(f"{arg}: neither a directory nor a manifest")
        return [Project(path.resolve().name, path.resolve(), sorted(path.resolve().rglob("*.cu")))]
    base = manifest.resolve().parent
    out = []
    for name, spec in tomllib.loads(manifest.read_text()).get("project", {}).items():
        root = base / name
        out.append(Project(name, root, [root / s for s in spec["sources"]],
                           [root / d for d in spec.get("include_dirs", [])],
                           list(spec.get("defines", [])), list(spec.get("nvcc_flags", [])),
                           dict(spec.get("source_defines", {}))))
    return out


# ---------------------------------------------------------------------------------------------
# steps
# ---------------------------------------------------------------------------------------------
def first_error(text: str) -> str:
    """The first diagnostic that is an error (`error:`, clang's and nvcc's form), else the first line
    that says error, else the first non-empty line: a warning quotes its source line, and a source
    line such as `switch (error)` is no error (alien's helper_cuda.h, heldout17)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pattern in (r"\berror( [A-Z]+\d+)?:", r"\berror\b"):
        for ln in lines:
            if re.search(pattern, ln, re.I):
                return ln[:300]
    return lines[0][:300] if lines else ""


def run_translate(exe: str, inputs: list[str], backend: str, out: Path,
                  extra: list[str] = (), cwd: Path | None = None) -> tuple[str, str, str, float, str]:
    """(outcome, KP codes, first error line, seconds, stdout+stderr) of one translate run, from
    `cwd` (the project's root, where a user runs it: a header no -I names is searched for there)."""
    cmd = [exe, "translate", *inputs, "--to", backend, "-o", str(out), *extra]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TRANSLATE_TIMEOUT_S, cwd=cwd,
                              stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
    except subprocess.TimeoutExpired:
        return "timeout", "", f"no answer in {TRANSLATE_TIMEOUT_S} s", time.perf_counter() - t0, ""
    secs = time.perf_counter() - t0
    text = proc.stdout + proc.stderr
    errors = [ln for ln in text.splitlines() if re.search(r"\berror\b", ln)]
    codes = ",".join(dict.fromkeys(c for ln in errors for c in KP_CODE.findall(ln)))
    outcome = {0: "written", 1: "refused", 3: "internal_error"}.get(proc.returncode)
    if proc.returncode == 2:
        parse = re.search(r"syntax|pars(e|ing)|KP001", " ".join(errors), re.I)
        outcome = "parse_error" if parse else "bad_input"
    if outcome is None:
        outcome = f"exit_{proc.returncode}"
    return outcome, codes, first_error(text) if proc.returncode else "", secs, text


def include_args(project: Project, src: Path, out_dir: Path | None = None) -> list[str]:
    dirs = ([out_dir] if out_dir else []) + [src.parent] + project.include_dirs
    own = project.source_defines.get(src.relative_to(project.root).as_posix(), []) \
        if src.is_relative_to(project.root) else []
    return [f"-I{d}" for d in dirs] + [f"-D{d}" for d in project.defines + own]


NVCC_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kernelport-scoreboard"


def tree_stamp(root: Path) -> str:
    """Changes when any file under the project changes (a header the original includes, say)."""
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            st = p.stat()
            h.update(f"{p.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def nvcc_cache_path(project: Project, src: Path, args: list[str]) -> Path:
    from kernelport import toolchains

    tool = toolchains.find_nvcc()
    key = hashlib.sha256(json.dumps([tool and [tool.path, tool.version], args, str(src),
                                     src.read_bytes().hex(), project.stamp]).encode()).hexdigest()
    return NVCC_CACHE / f"{key}.json"


def nvcc_step(project: Project, src: Path, row: Row, use_cache: bool = True) -> None:
    """The original's `nvcc -c`: the same whichever kernelport is measured, so its result is
    cached by nvcc, flags, file content and project tree, with the seconds it took (a cached row's
    nvcc_s is that figure, nvcc_cached says so; an entry from before the figure was kept leaves it empty)."""
    from kernelport import toolchains

    args = include_args(project, src) + project.nvcc_flags
    cached = nvcc_cache_path(project, src, args)
    if use_cache and cached.is_file():
        row.nvcc, row.nvcc_error, *ran = json.loads(cached.read_text())
        row.nvcc_s, row.nvcc_cached = (ran[0] if ran else None), True
        return
    t0 = time.perf_counter()
    res = toolchains.compile_cuda(src, extra_args=args, timeout=COMPILE_TIMEOUT_S)
    row.nvcc, row.nvcc_s = res.status, time.perf_counter() - t0
    row.nvcc_error = "" if res.ok else first_error(res.output or res.reason)
    if res.status != "skip" and "timed out" not in res.reason:
        NVCC_CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.{threading.get_ident()}")
        tmp.write_text(json.dumps([row.nvcc, row.nvcc_error, row.nvcc_s]))
        tmp.replace(cached)  # atomic: runs in parallel never read half a file


def hipcc(port: Path, args: list[str]) -> tuple[str, str, float]:
    from kernelport import toolchains

    t0 = time.perf_counter()
    res = toolchains.compile_hip(port, toolchains.HIP_ARCHS, extra_args=[*args, *(f"-I{d}" for d in HIP_INCLUDES)],
                                 timeout=COMPILE_TIMEOUT_S)
    return res.status, "" if res.ok else first_error(res.output or res.reason), time.perf_counter() - t0


def metal_check(port: Path) -> tuple[str, str, float]:
    from kernelport.backends.metal.check import MetalCheckUnavailable, run_check

    t0 = time.perf_counter()
    try:
        report = run_check(port.read_text(encoding="utf-8"), str(port))
    except MetalCheckUnavailable as exc:
        return "skip", str(exc), time.perf_counter() - t0
    status = "pass" if report.ok else "fail"
    return status, "" if report.ok else first_error(str(report.errors[0])), time.perf_counter() - t0


def project_flags(project: Project) -> list[str]:
    """The manifest's include dirs and defines, as translate's -I/-D."""
    return [f"-I{d}" for d in project.include_dirs] + [f"-D{d}" for d in project.defines]


def host_flags(nvcc_flags: list[str]) -> list[str]:
    """The project's build mode as hipcc spells it: its host-compiler flags (`-Xcompiler A,B`,
    `-std=`), which hipcc (clang for host and device alike) takes as they are (`-Xcompiler -fopenmp`
    gives `-fopenmp`), and relocatable device code (`-rdc=true`: hipcc's `-fgpu-rdc`, where a
    file may call a device function another file defines). Other nvcc flags are not carried."""
    out, it = [], iter(nvcc_flags)
    for f in it:
        if f in ("-rdc=true", "--relocatable-device-code=true", "-dc", "--device-c"):
            out.append("-fgpu-rdc")
        elif f in ("-Xcompiler", "--compiler-options"):
            out += [a for a in next(it, "").split(",") if a]
        elif f.startswith(("-Xcompiler=", "--compiler-options=")):
            out += [a for a in f.split("=", 1)[1].split(",") if a]
        elif f.startswith(("-std=", "--std=")):
            out.append("-std=" + f.split("=", 1)[1])
    return out


def hipcc_args(project: Project, src: Path, out: Path, dropped: tuple[str, ...] = ()) -> list[str]:
    """hipcc's path for a port under OUT: the ported copies of the include dirs (where the run
    wrote any: their headers' ports), then the original's; then the project's host flags.
    `dropped`: the leading folders of the project's paths that OUT's mirror leaves out (the run
    mirrors the files it ports under their common root: `src/` when all of them lie in it)."""
    rels = [d.relative_to(project.root).parts for d in project.include_dirs]
    ported = [out.joinpath(*r[len(dropped):]) for r in rels if r[:len(dropped)] == dropped]
    return [f"-I{d}" for d in ported if d.is_dir()] + include_args(project, src) + host_flags(project.nvcc_flags)


def file_steps(exe: str, project: Project, src: Path, tmp: Path, use_cache: bool = True,
               flags: list[str] = (), backends: tuple[str, ...] = ("hip", "metal")) -> Row:
    """A header given as a source (`.cuh` kernels): its HIP port is `x.hip.h`; exit 0 with none
    written means its port would equal it (headers are written only when their port differs), so
    hipcc compiles the header as it is, after hip_runtime.h (as_hip_unit; "unchanged"); Metal ports no header on its own, so exit 0
    there is the located note that says so ("header_note")."""
    rel = src.relative_to(project.root)
    row = Row(project.name, str(rel))
    nvcc_step(project, src, row, use_cache)
    out = tmp / "hip"
    if "hip" in backends:
        row.hip, row.hip_codes, row.hip_error, row.hip_s, _ = run_translate(exe, [str(src)], "hip", out, flags, project.root)
    if row.hip == "written":
        suffix = port_suffix("hip", rel)
        found = find_file_port(out, rel, suffix)
        if found is None and is_header(rel) and not out.exists():
            row.hip = "unchanged"
            row.hipcc, row.hipcc_error, row.hipcc_s = hipcc(as_hip_unit(src, tmp), hipcc_args(project, src, out))
        elif found is None:
            row.hip, row.hip_error = "no_port", f"exit 0 but no {rel.with_suffix(suffix).name} in -o"
        else:
            row.hipcc, row.hipcc_error, row.hipcc_s = hipcc(found[0], hipcc_args(project, src, out, found[1]))
    out = tmp / "metal"
    if "metal" in backends:
        row.metal, row.metal_codes, row.metal_error, row.metal_s, text = run_translate(exe, [str(src)], "metal", out, flags, project.root)
    if row.metal == "written":
        suffix = port_suffix("metal", rel)
        found = find_file_port(out, rel, suffix) if suffix else None
        if found is None and suffix is None and not out.exists():
            row.metal, row.metal_error = "header_note", first_error(text)
        elif found is None:
            row.metal, row.metal_error = "no_port", f"exit 0 but no {rel.stem}.metal in -o"
        else:
            row.checker, row.checker_error, row.checker_s = metal_check(found[0])
    return row


# ---------------------------------------------------------------------------------------------
# project mode
# ---------------------------------------------------------------------------------------------
def project_mode_flags(exe: str) -> tuple[bool, bool]:
    """(translate accepts a directory, its help lists -I/-D): asked of the executable itself."""
    with tempfile.TemporaryDirectory(prefix="kp-probe-") as tmp:
        (Path(tmp) / "src").mkdir()
        (Path(tmp) / "src" / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
        outcome, *_ = run_translate(exe, [str(Path(tmp) / "src")], "hip", Path(tmp) / "out")
        dirs = outcome == "written" and any((Path(tmp) / "out").rglob("*.hip"))
    helptext = subprocess.run([exe, "translate", "--help"], capture_output=True, text=True,
                              env={**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}).stdout
    return dirs, bool(re.search(r"(^|[\s\[,])-I\b", helptext))


def project_steps(exe: str, project: Project, rows: dict[str, Row], with_flags: bool,
                  tmp: Path) -> dict[str, tuple[str, str, str, float]]:
    """Translate the project's root in project mode per backend; compile/check each source's port."""
    flags = project_flags(project) if with_flags else []
    runs = {}
    for backend in ("hip", "metal"):
        out = tmp / f"project-{backend}"
        outcome, codes, err, secs, _ = run_translate(exe, [str(project.root)], backend, out, flags, project.root)
        runs[backend] = (outcome, codes, err, secs)
        for src in project.sources:
            rel = src.relative_to(project.root)
            row = rows[str(rel)]
            ext = port_suffix(backend, rel)
            port = find_port(out, rel, ext) if ext else None
            state = "written" if port else ("no_port" if outcome == "written" else outcome)
            if backend == "hip":
                row.project_hip = state
                if port:
                    row.project_hipcc, row.project_hipcc_error, _ = hipcc(port, hipcc_args(project, src, out))
            else:
                row.project_metal = state
                if port:
                    row.project_checker, row.project_checker_error, _ = metal_check(port)
    return runs


# ---------------------------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------------------------
def pct(num: int, den: int) -> str:
    return f"{100.0 * num / den:.1f}%" if den else "n/a"


def counts(rows: list[Row], prefix: str = "") -> dict[str, int]:
    """Per-file mode (prefix "") or project mode ("project_"), where a file of a run that failed
    counts as that run's outcome (a run writes all of its ports or none)."""
    hip, hipcc_, metal, checker = (prefix + k for k in ("hip", "hipcc", "metal", "checker"))
    get = getattr
    nv_ok = [r for r in rows if r.nvcc == "pass"]
    return {
        "files": len(rows),
        "nvcc": len(nv_ok),
        "hip_written": sum(get(r, hip) in ("written", "unchanged") for r in rows),  # unchanged: a header
        "unchanged": sum(get(r, hip) == "unchanged" for r in rows),  # whose port is itself
        "refused": sum(get(r, hip) == "refused" for r in rows),
        "parse": sum(get(r, hip) == "parse_error" for r in rows),
        "internal": sum(get(r, hip) == "internal_error" for r in rows),
        "hipcc": sum(get(r, hipcc_) == "pass" for r in rows),
        "hipcc_of_nvcc": sum(get(r, hipcc_) == "pass" for r in nv_ok),
        "metal_written": sum(get(r, metal) == "written" for r in rows),
        "metal_internal": sum(get(r, metal) == "internal_error" for r in rows),
        "checker": sum(get(r, checker) == "pass" for r in rows),
    }


def table(rows: list[Row], projects: list[str], prefix: str = "") -> list[str]:
    head = ("| | files | nvcc -c (original) | HIP written (refused, parse errors, internal errors) "
            "| HIP compiles (gfx90a + gfx1030) | Metal written | Metal passes the checker "
            "| HIP done-when | Metal done-when |")
    out = [head, "|" + "---|" * 9]
    for name in projects + ["total"]:
        sel = rows if name == "total" else [r for r in rows if r.project == name]
        c = counts(sel, prefix)
        out.append(
            f"| {name} | {c['files']} | {c['nvcc']} | {c['hip_written']} ("
            + (f"{c['unchanged']} unchanged headers, " if c['unchanged'] else "") + f"{c['refused']} refused, "
            f"{c['parse']} parse errors, {c['internal']} internal errors) | {c['hipcc']} of "
            f"{c['hip_written']} | {c['metal_written']} ({c['metal_internal']} internal errors) | "
            f"{c['checker']} of {c['metal_written']} | {pct(c['hipcc_of_nvcc'], c['nvcc'])} "
            f"({c['hipcc_of_nvcc']} of {c['nvcc']}) | {pct(c['checker'], c['metal_written'])} |")
    return out


def cause(err: str) -> str:
    """A failure's category: its first error line without the location, numbers kept."""
    return re.sub(r" \(hint: .*\)$", "", LOCATION.sub("", err).strip()) or "(no message)"


def summary(rows: list[Row], top: int = 8) -> list[str]:
    steps = [
        ("HIP translate, not written", lambda r: r.hip not in ("written", "unchanged", ""),
         lambda r: f"{r.hip} {r.hip_codes}".strip() + (f": {cause(r.hip_error)}" if r.hip != "refused" else "")),
        ("HIP port does not compile", lambda r: r.hipcc == "fail", lambda r: cause(r.hipcc_error)),
        ("Metal translate, not written", lambda r: r.metal not in ("written", ""),
         lambda r: f"{r.metal} {r.metal_codes}".strip() + (f": {cause(r.metal_error)}" if r.metal != "refused" else "")),
        ("Metal port fails the checker", lambda r: r.checker == "fail", lambda r: cause(r.checker_error)),
        ("original fails nvcc -c", lambda r: r.nvcc == "fail", lambda r: cause(r.nvcc_error)),
    ]
    out = []
    for title, failed, key in steps:
        sel = [r for r in rows if failed(r)]
        if not sel:
            continue
        out.append(f"{title}: {len(sel)} files; top causes:")
        for text, n in Counter(key(r)[:160] for r in sel).most_common(top):
            out.append(f"  {n:4d}  {text}")
    if any(r.hipcc == "fail" for r in rows):
        miss = Counter(m.group(1) for r in rows if r.hipcc == "fail"
                       for m in [re.search(r"'([^']+)' file not found", r.hipcc_error)] if m)
        out.append("HIP compile failures that are a missing header: "
                   f"{sum(miss.values())} of {sum(r.hipcc == 'fail' for r in rows)} "
                   f"({', '.join(f'{h} {n}' for h, n in miss.most_common(6))})")
    return out


OUTCOME = ("nvcc", "hip", "hipcc", "metal", "checker", "project_hip", "project_hipcc")


def compare(old: list[dict], rows: list[Row]) -> list[str]:
    """One line per file whose outcome differs from an earlier run's (same project/file)."""
    before = {(r["project"], r["file"]): r for r in old}
    out = []
    for r in rows:
        was = before.get((r.project, r.file))
        if was is None:
            continue
        diff = [f"{k} {was.get(k) or '-'} -> {getattr(r, k) or '-'}" for k in OUTCOME
                if (was.get(k) or "") != getattr(r, k)]
        if diff:
            out.append(f"  {r.project}/{r.file}: " + ", ".join(diff))
    return [f"Changed since {len(before)}-file run: {len(out)} files"] + out


def reuse(old: list[dict], rows: list[Row]) -> list[Row]:
    """The earlier run's rows, each replaced by this run's row of the same file where there is one."""
    new = {(r.project, r.file): r for r in rows}
    merged = [new.pop((o["project"], o["file"]), None) or Row(**o) for o in old]
    return merged + list(new.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", help="directories or manifest.toml files")
    ap.add_argument("-j", type=int, default=2, help="files in parallel (default 2)")
    ap.add_argument("--json", type=Path, help="write every file's outcome here")
    ap.add_argument("--csv", type=Path, help="write every file's outcome here")
    ap.add_argument("--kernelport", default=shutil.which("kernelport") or "kernelport",
                    help="the kernelport executable to measure (default: the one on PATH)")
    ap.add_argument("--no-project-mode", action="store_true", help="per-file runs only")
    ap.add_argument("--backends", default="hip,metal",
                    help="the backends translated per file (default hip,metal; `metal`: no HIP port nor hipcc, "
                         "the HIP columns are then not measured)")
    ap.add_argument("--project-flags", action="store_true",
                    help="per-file runs get the manifest's include dirs and defines as -I/-D (their headers are ported too)")
    ap.add_argument("--compare", type=Path, metavar="OLD.json",
                    help="list the files whose outcome changed since an earlier --json")
    ap.add_argument("--no-nvcc-cache", action="store_true",
                    help=f"compile every original again (results are cached in {NVCC_CACHE})")
    ap.add_argument("--reuse", type=Path, metavar="OLD.json",
                    help="with --match: the other files' rows are taken from this earlier --json "
                         "(same kernelport), so a re-measured subset still gives the whole table")
    ap.add_argument("--match", metavar="REGEX", help="only the files whose project/path matches (a quick look)")
    ap.add_argument("--compile-timeout", type=int, default=COMPILE_TIMEOUT_S, metavar="S",
                    help=f"seconds for one nvcc or hipcc run (default {COMPILE_TIMEOUT_S}; a template-heavy "
                         "library's originals need more on a loaded machine, and a timeout is no result)")
    ap.add_argument("--translate-timeout", type=int, default=TRANSLATE_TIMEOUT_S, metavar="S",
                    help=f"seconds for one kernelport translate run (default {TRANSLATE_TIMEOUT_S}; a large "
                         "header-only project's units take longer on a loaded machine, and a timeout is no result)")
    ap.add_argument("--hip-include", type=Path, action="append", default=[], metavar="DIR",
                    help="an include dir for every hipcc run, after the project's (repeatable): a ROCm "
                         "library's headers this machine lacks, e.g. rocThrust's and hipCUB's (bench/rocm_libs.py)")
    args = ap.parse_args(argv)
    backends = tuple(b for b in ("hip", "metal") if b in args.backends.split(","))
    globals()["HIP_INCLUDES"] = [str(d.absolute()) for d in args.hip_include]  # read by hipcc
    for d in args.hip_include:  # a typo would measure without it while the header says with
        if not d.is_dir():
            ap.error(f"--hip-include {d}: no such directory")
    globals()["COMPILE_TIMEOUT_S"] = args.compile_timeout  # read by nvcc_step and hipcc
    globals()["TRANSLATE_TIMEOUT_S"] = args.translate_timeout  # read by run_translate
    for given in (args.compare, args.reuse):  # read at the end of a long run: fail before it, not after
        if given is not None and not given.is_file():
            ap.error(f"{given}: no such file (an earlier --json output)")
    if args.reuse and json.loads(args.reuse.read_text()).get("hip_include", []) != HIP_INCLUDES:
        ap.error(f"--reuse {args.reuse}: measured with other --hip-include dirs (one table, one environment)")
    exe = str(Path(args.kernelport).absolute()) if os.sep in args.kernelport else args.kernelport
    if shutil.which(exe) is None:  # else every file's first translate dies in a thread with a traceback
        ap.error(f"--kernelport {args.kernelport}: no such executable (put kernelport on PATH, e.g. "
                 f"PATH=.venv/bin:$PATH, or pass --kernelport PATH)")
    projects = [p for arg in args.inputs for p in load_projects(arg)]
    names = [p.name for p in projects]  # the table's rows, in the inputs' order
    if args.match:
        for p in projects:
            p.sources = [s for s in p.sources if re.search(args.match, f"{p.name}/{s.relative_to(p.root)}")]
        projects = [p for p in projects if p.sources]
    for p in projects:
        p.stamp = tree_stamp(p.root)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kp-scoreboard-") as tmpdir:
        tmp = Path(tmpdir)
        jobs = [(p, s, tmp / p.name / f"{i}") for p in projects for i, s in enumerate(p.sources)]
        done = iter(range(1, len(jobs) + 1))  # next() under the GIL: one number per finished file

        def one(job: tuple[Project, Path, Path]) -> Row:
            t = time.perf_counter()
            row = file_steps(exe, *job, use_cache=not args.no_nvcc_cache,
                             flags=project_flags(job[0]) if args.project_flags else [], backends=backends)
            print(f"[{next(done)}/{len(jobs)}] {row.project}/{row.file}: nvcc {row.nvcc}, hip {row.hip} "
                  f"{row.hipcc}, metal {row.metal} {row.checker} ({time.perf_counter() - t:.1f} s)",
                  file=sys.stderr, flush=True)
            return row

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
            rows = list(pool.map(one, jobs))
        by_project = {p.name: {r.file: r for r in rows if r.project == p.name} for p in projects}
        accepts_dirs, has_flags = (False, False) if args.no_project_mode else project_mode_flags(exe)
        project_runs: dict[str, dict] = {}
        if accepts_dirs:
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
                futs = {p.name: pool.submit(project_steps, exe, p, by_project[p.name], has_flags,
                                            tmp / p.name) for p in projects}
                project_runs = {n: f.result() for n, f in futs.items()}
    wall = time.perf_counter() - t0
    fresh = rows
    if args.reuse:
        rows = reuse(json.loads(args.reuse.read_text())["rows"], rows)
        names += [n for n in dict.fromkeys(r.project for r in rows) if n not in names]
    names = [n for n in names if any(r.project == n for r in rows)]
    lines = [f"kernelport scoreboard: {exe}",
             f"  version: {version(exe)}; machine: {platform.node()} ({os.cpu_count()} CPUs), -j {args.j}",
             f"  hipcc include dirs added (--hip-include): {', '.join(HIP_INCLUDES) or 'none'}",
             *([f"  backends: {','.join(backends)} only (--backends): the other's columns are not measured"]
               if set(backends) != {"hip", "metal"} else []),
             f"  inputs: {', '.join(args.inputs)}"
             + (f"; {len(fresh)} files measured now (--match {args.match}), {len(rows) - len(fresh)} "
                f"rows from {args.reuse}" if args.reuse else ""), "",
             f"Per file (`translate FILE --to B{' -I... -D...' if args.project_flags else ''} -o TMP`"
             + (", the manifest's include dirs and defines" if args.project_flags else "") + "):", ""]
    lines += table(rows, names)
    if accepts_dirs:
        lines += ["", "Project mode (`translate PROJECT_DIR --to B -o TMP`"
                  + (" with the manifest's -I/-D" if has_flags else ", no -I/-D in its help") + "):", ""]
        lines += table(rows, names, prefix="project_")
        lines += [""] + [f"  {n} --to {b}: {o}{' ' + c if c else ''} in {t:.1f} s" + (f" ({e})" if e else "")
                         for n, runs in project_runs.items() for b, (o, c, e, t) in runs.items()]
    else:
        lines += ["", "Project mode: not measured (this kernelport does not translate a directory)"
                  if not args.no_project_mode else "Project mode: not measured (--no-project-mode)"]
    steps = {k: [getattr(r, f"{k}_s") for r in fresh if getattr(r, f"{k}_s") is not None
                 and not (k == "nvcc" and r.nvcc_cached)]
             for k in ("nvcc", "hip", "hipcc", "metal", "checker")}  # this run's: a cached nvcc result's is not
    cached = [r for r in fresh if r.nvcc_cached]
    known = [r.nvcc_s for r in cached if r.nvcc_s is not None]
    lines += ["", f"Measured: {wall:.1f} s wall ({len(cached)} nvcc results of originals from the cache"
              + (f", {sum(known):.1f} s of nvcc when {len(known)} of them ran" if known else "") + "); summed per step: "
              + ", ".join(f"{k} {seconds(sum(v))} s ({len(v)} runs)" if v else f"{k} not run" for k, v in steps.items())
              + (f"; project-mode runs {seconds(sum(r[3] for runs in project_runs.values() for r in runs.values()))} s"
                 if project_runs else ""), ""]
    lines += summary(rows)
    if args.compare:
        lines += [""] + compare(json.loads(args.compare.read_text())["rows"], rows)
    if args.json:  # before printing: the measurements are the expensive part
        args.json.write_text(json.dumps({"kernelport": exe, "hip_include": HIP_INCLUDES, "rows": [asdict(r) for r in rows]}, indent=1))
    print("\n".join(lines))
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(asdict(rows[0]).keys()) if rows else ["project"])
            writer.writeheader()
            writer.writerows(asdict(r) for r in rows)
    return 0


def seconds(t: float) -> str:
    """A measured duration as text: tenths from a second up, two significant digits below, so a
    quick step reads 0.042, never a 0.0 that looks unmeasured."""
    return f"{t:.1f}" if t >= 0.95 else f"{t:.2g}"


def version(exe: str) -> str:
    proc = subprocess.run([exe, "--version"], capture_output=True, text=True)
    return (proc.stdout.strip() or proc.stderr.strip()).splitlines()[0] if proc.returncode == 0 else "?"


if __name__ == "__main__":
    sys.exit(main())
