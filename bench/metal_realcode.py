"""Metal ports of real CUDA files: how many are written, and how many of those pass the checker.

    nice -n 19 .venv/bin/python -P bench/metal_realcode.py bench/metal_realcode_files.txt [-j 2] [--show CAUSE]
    nice -n 19 .venv/bin/python -P bench/metal_realcode.py tests/realcorpus/manifest.toml [--project-flags] [--outcomes]

A manifest.toml (tests/realcorpus, a materialised held-out set) gives its projects' sources in place;
`--project-flags` passes each project's include dirs and defines as -I/-D (as bench/scoreboard.py's
`--project-flags` does).  A written port whose body holds no device code (only the prologue) is
counted as "empty", not as a pass; a file with no device code (KP227, no port written) as "no device code".

Each file comes with the headers beside it and what its quoted includes reach in its
repository (what a checkout has).  The list names files as `owner+repo@commit:path` in the bare mirrors under /work/.mirror (or a
plain path).  Each file is translated with `--to metal` in a child process (as the CLI would:
a syntax error is bad input, a located error diagnostic a refusal, an exception an internal
error), and each written port is type-checked by kernelport.backends.metal.check.  Prints the
table and the causes of failure by frequency (the first error of each port).

Measured on this machine (2 cores, shared), before this harness's branch (a8f4f5b) and after
(the figures and what they mean are in README "Metal ports of real code"):

    bench/metal_realcode_files.txt (185)  before: 127 written,  5 pass (4%), 1 internal error
                                          after:   80 written, 73 pass (91%), 0 internal errors
    tests/realcorpus (207 sources)        before: 144 written,  8 pass (6%), 1 internal error
                                          after:   74 written, 66 pass (89%), 0 internal errors

Through the manifest (h/metalports; README "Metal ports of real code" has the causes):

    tests/realcorpus/manifest.toml        bd61dce: 83 written (25 with no kernel or device function), 123 refused
                                          after:   60 written (all pass), 25 no device code (KP227), 121 refused
    /work/heldout5/manifest.toml          bd61dce: 23 written (6 empty), 45 refused
      --project-flags                     after:   33 written (all pass), 6 no device code (KP227), 29 refused
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import traceback
import zlib
from pathlib import Path

HEADERS = ("h", "cuh", "hpp", "hh", "inc", "cu")
MIRRORS = Path(os.environ.get("KP_MIRRORS", "/work/.mirror"))


def materialise(entry: str, root: Path) -> Path:
    """The file of one list entry, written under `root` (read from the mirror at its commit)."""
    if ":" not in entry:
        return Path(entry)
    repo, path = entry.split(":", 1)
    commit = "HEAD"
    if "@" in repo:
        repo, commit = repo.split("@", 1)
    dest = root / repo / path
    if not dest.exists():  # the file and the headers beside it (what a quoted include finds)
        git = ["git", "-C", str(MIRRORS / repo / "repo")]
        folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
        names = subprocess.run(git + ["ls-tree", "--name-only", f"{commit}:{folder}"], capture_output=True,
                               text=True, check=True).stdout.split()
        for name in [n for n in names if n.rsplit(".", 1)[-1] in HEADERS] + [path.rsplit("/", 1)[-1]]:
            out = root / repo / (folder + name)
            out.parent.mkdir(parents=True, exist_ok=True)
            got = subprocess.run(git + ["show", f"{commit}:{folder}{name}"], capture_output=True)
            if got.returncode == 0:
                out.write_bytes(got.stdout)
        todo, seen = [path], set()
        while todo:  # and what those include from elsewhere in the repository (`"../common/x.h"`)
            rel = todo.pop()
            if rel in seen or len(seen) > 50:
                continue
            seen.add(rel)
            text = (root / repo / rel).read_bytes().decode("utf-8", "replace")
            for inc in re.findall(r'(?m)^\s*#\s*include\s*"([^"]+)"', text):
                target = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                out = root / repo / target
                if not target.startswith("..") and not out.exists():
                    got = subprocess.run(git + ["show", f"{commit}:{target}"], capture_output=True)
                    if got.returncode != 0:
                        continue
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(got.stdout)
                if out.exists():
                    todo.append(target)
    return dest


def manifest_files(manifest: Path, flags: bool) -> list[tuple[str, list[str]]]:
    """Each source of a manifest, with its project's -I/-D where `flags`."""
    import tomllib
    out = []
    for name, spec in tomllib.loads(manifest.read_text())["project"].items():
        root = manifest.resolve().parent / name
        extra = ([f"-I{root / d}" for d in spec.get("include_dirs", [])]
                 + [f"-D{d}" for d in spec.get("defines", [])]) if flags else []
        out += [(str(root / s), extra) for s in spec["sources"]]
    return out


def one_cli(path: str, out: str, flags: list[str]) -> dict:
    """`kernelport translate PATH --to metal --stdout FLAGS` run in this process (the CLI's exit
    codes: 0 written, 1 refused, 2 bad input, 3 internal error); a written port is checked again."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from realcorpus_support import run_cli  # the CLI in this process, as the corpus test runs it
    res: dict = {"file": path}
    code, text = run_cli(["--color", "never", "translate", path, "--to", "metal", "--stdout", *flags])
    errors = [ln for ln in text.splitlines() if ": error: " in ln or ln.startswith("error:")]
    first = errors[0] if errors else text.strip()[:200]
    if code != 0:
        kind = {1: "refused", 3: "internal"}.get(code, "bad input")
        m = re.search(r"error: (KP\d{3})\b(.*)", first)
        cause = (m[1] + " " + re.sub(r"'[^']*'", "X", m[2])[:90]) if m else first[:120]
        res.update(outcome=kind, cause=cause, detail=first)
        return res
    if ": warning: KP227 " in text and "#include <metal_stdlib>" not in text:
        res.update(outcome="no device code", cause="KP227 no Metal port: host code only")
        return res
    if "// Generated by kernelport" not in text:  # exit 0 and no port: a header's note (headers are spliced)
        note = next((ln for ln in text.splitlines() if ": note: " in ln or ": warning: " in ln), text.strip()[:120])
        res.update(outcome="no port", cause=re.sub(r"^.*?: (note|warning): ", "", note)[:90])
        return res
    return checked(res, path, out, text[text.index("// Generated by kernelport"):])


def checked(res: dict, path: str, out: str, text: str) -> dict:
    """`res` with the outcome of the Metal checker on the written port `text`."""
    from kernelport.backends.metal import check
    dest = Path(out) / (Path(path).stem + f"-{zlib.crc32(path.encode()) % 10**8}.metal")
    dest.write_text(text, encoding="utf-8")
    report = check.run_check(text, str(dest))
    if report.ok and is_empty(text):
        res.update(outcome="empty", cause="a port with no device code", port=str(dest))
    elif report.ok:
        res.update(outcome="pass", port=str(dest))
    else:
        msg = re.sub(r"'[^']*'", "X", report.errors[0].message)
        res.update(outcome="fail", cause=msg[:110], detail="\n".join(str(d) for d in report.errors[:3]),
                   port=str(dest))
    return res


def is_empty(text: str) -> bool:
    """A port whose body (past the prologue's `using namespace metal;`) has no code but comments."""
    body = text.split("using namespace metal;", 1)[-1]
    body = re.sub(r"//[^\n]*|/\*.*?\*/", "", body, flags=re.S)
    return not body.strip()


def one(path: str, out: str, flags: list[str] | None = None) -> dict:
    """Translate one file to Metal and check the port; the outcome as a dict (`flags`: through the CLI)."""
    if flags is not None:
        return one_cli(path, out, flags)
    from kernelport.errors import KernelportError
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    res: dict = {"file": path}
    try:
        src = SourceFile.read(path)
        port, text = translate(src, "metal")
    except KernelportError as exc:
        res.update(outcome="bad input", cause=str(exc).splitlines()[0][:120])
        return res
    except Exception as exc:  # an internal error: where it was raised
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        res.update(outcome="internal", cause=f"{type(exc).__name__} at {Path(tb.filename).name}:{tb.lineno}",
                   detail=traceback.format_exc())
        return res
    if port.ok and getattr(port, "empty", False):
        res.update(outcome="no device code", cause="KP227 no Metal port: host code only")
        return res
    if not port.ok:
        d = next(d for d in port.diagnostics if d.severity == "error")
        msg = re.sub(r"'[^']*'", "X", d.message)
        res.update(outcome="refused", cause=f"{d.code} {msg[:90]}",
                   detail=str(d))
        return res
    return checked(res, path, out, text)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("listfile")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "kp-metal-realcode"))
    ap.add_argument("--show", default=None, help="print the files (and first errors) of causes containing this")
    ap.add_argument("--outcomes", action="store_true", help="one line per file")
    ap.add_argument("--project-flags", action="store_true", help="a manifest's include dirs and defines as -I/-D")
    args = ap.parse_args()
    work = Path(args.work)
    (work / "src").mkdir(parents=True, exist_ok=True)
    (work / "ports").mkdir(parents=True, exist_ok=True)
    if args.listfile.endswith(".toml"):
        files, flags = map(list, zip(*manifest_files(Path(args.listfile), args.project_flags)))
    else:
        entries = [l.split("#", 1)[0].strip() for l in Path(args.listfile).read_text().splitlines()]
        files = [str(materialise(e, work / "src")) for e in entries if e]
        flags = [None for _ in files]
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.j) as ex:
        results = list(ex.map(one, files, [str(work / "ports")] * len(files), flags))
    counts = collections.Counter(r["outcome"] for r in results)
    written = counts["pass"] + counts["fail"]
    print(f"files {len(results)}: ports written {written}, pass the checker {counts['pass']}"
          f" ({100 * counts['pass'] / max(written, 1):.0f}% of written), fail {counts['fail']}, "
          f"refused {counts['refused']}, bad input {counts['bad input']}, internal errors {counts['internal']}, "
          f"empty ports {counts['empty']} (not counted as written), no device code (no port, KP227) "
          f"{counts['no device code']}" + (f", no port with a note (exit 0) {counts['no port']}" if counts["no port"] else ""))
    codes = collections.Counter(r["cause"].split()[0] for r in results if r["outcome"] == "refused")
    print("refused by first code: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
    for outcome in ("internal", "fail", "refused", "bad input", "empty", "no port"):
        causes = collections.Counter(r["cause"] for r in results if r["outcome"] == outcome)
        if causes:
            print(f"\n{outcome}:")
            for cause, n in causes.most_common():
                print(f"  {n:3d}  {cause}")
    if args.outcomes:
        for r in results:
            print(f"{r['outcome']:9s} {r['file']}  {r.get('cause', '')}")
    if args.show:
        for r in results:
            if args.show in r.get("cause", ""):
                print(f"\n== {r['file']} -> {r.get('port', '')}\n{r.get('detail', '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
