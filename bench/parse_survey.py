"""Which real CUDA files kernelport cannot parse, and why.

    nice -n 19 python bench/parse_survey.py [--mirrors /work/.mirror] [--list] [--json OUT]

Reads every `.cu`/`.cuh` of the mirrored public projects straight from their bare git dirs (HEAD):
HeCBench's `src/*-cuda/`, cuda-samples, rodinia, polybenchGpu and llm.c.  Each file is parsed as
`kernelport` parses it (`SourceFile.from_text` + `syntax_errors`), with the macros of the file's
own `#define`s and of the quoted headers it includes (found beside it in the same tree), and the
first error of each failing file is classified by what stands at it (see `classify`).
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kernelport.source import SourceFile  # noqa: E402

PROJECTS = {  # mirror dir -> which of its paths are surveyed
    "zjin-lcf+HeCBench": re.compile(r"^src/[^/]+-cuda/.*\.(cu|cuh)$"),
    "NVIDIA+cuda-samples": re.compile(r"\.(cu|cuh)$"),
    "yuhc+gpu-rodinia": re.compile(r"\.(cu|cuh)$"),
    "sgrauerg+polybenchGpu": re.compile(r"\.(cu|cuh)$"),
    "karpathy+llm.c": re.compile(r"\.(cu|cuh)$"),
}
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def read_tree(repo: Path) -> dict[str, bytes]:
    """Every blob at HEAD whose name looks like C/C++/CUDA source or header, by path."""
    names = subprocess.run(["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "HEAD"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    names = [n for n in names if re.search(r"\.(cu|cuh|h|hpp|hh|inl|cuh\.in)$", n)]
    p = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"], capture_output=True, check=True,
                       input="".join(f"HEAD:{n}\n" for n in names).encode())
    out, pos = {}, 0
    for n in names:
        header_end = p.stdout.index(b"\n", pos)
        parts = p.stdout[pos:header_end].split()
        if parts[-1] == b"missing":
            pos = header_end + 1
            continue
        size = int(parts[2])
        out[n] = p.stdout[header_end + 1:header_end + 1 + size]
        pos = header_end + 1 + size + 1
    return out


def included_macros(path: str, text: str, tree: dict[str, bytes], depth: int = 0, seen=None):
    """The macros of the quoted headers `path` includes, resolved beside it (a crude project model)."""
    from kernelport import macros
    seen = set() if seen is None else seen
    out: dict = {}
    if depth > 4:
        return out
    for inc in _INCLUDE.findall(text):
        p = str(PurePosixPath(path).parent / inc)
        parts: list[str] = []
        for part in p.split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part != ".":
                parts.append(part)
        p = "/".join(parts)
        if p in seen or p not in tree:
            continue
        seen.add(p)
        try:
            t = tree[p].decode("utf-8")
        except UnicodeDecodeError:
            continue
        out.update(included_macros(p, t, tree, depth + 1, seen))
        out.update(macros.definitions(t, p))
    return out


_CAPS = re.compile(r"\b[A-Z_][A-Z0-9_]{2,}\b")


def classify(src: SourceFile, line: int, msg: str) -> str:
    """A coarse cause for the error at this line, from the text around it (for the report)."""
    window = " ".join(src.line_text(i) for i in range(max(1, line - 1), min(len(src._line_starts), line + 1) + 1))
    for word, cause in (("__builtin_align__", "__builtin_align__"), ("__align__", "__align__"),
                        ("__launch_bounds__", "__launch_bounds__"), ("CUDART_CB", "CUDART_CB"),
                        ("asm", "inline asm"), ("__attribute__", "__attribute__"),
                        ("<<<", "launch syntax"), ("template", "template"), ("operator", "operator"),
                        ("[&", "lambda"), ("[=", "lambda"), ("[]", "lambda")):
        if word in window:
            return cause
    if _CAPS.search(src.line_text(line)):
        return "ALL_CAPS word (macro?)"
    return "other"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--list", action="store_true", help="print every failing file with its first error")
    ap.add_argument("--no-includes", action="store_true", help="only the file's own #defines")
    ap.add_argument("--json", help="write per-file results here")
    args = ap.parse_args()
    t0 = time.process_time()
    results = []
    for proj, pattern in PROJECTS.items():
        repo = Path(args.mirrors) / proj / "repo"
        if not repo.is_dir():
            print(f"{repo}: missing, skipped", file=sys.stderr)
            continue
        tree = read_tree(repo)
        for path in sorted(p for p in tree if pattern.search(p)):
            try:
                text = tree[path].decode("utf-8")
            except UnicodeDecodeError:
                results.append({"project": proj, "path": path, "status": "not UTF-8"})
                continue
            macros = None if args.no_includes else included_macros(path, text, tree)
            t1 = time.process_time()
            src = SourceFile.from_text(text, path, macros=macros) if macros else SourceFile.from_text(text, path)
            errs = src.syntax_errors()
            cpu = time.process_time() - t1
            if not errs:
                results.append({"project": proj, "path": path, "status": "ok", "cpu": cpu,
                                "masks": len(getattr(src, "masks", ()))})
                continue
            loc, msg = errs[0]
            results.append({"project": proj, "path": path, "status": "syntax error", "line": loc.line,
                            "col": loc.column, "message": msg, "errors": len(errs),
                            "cause": classify(src, loc.line, msg), "text": src.line_text(loc.line).strip()[:100],
                            "cpu": cpu, "masks": len(getattr(src, "masks", ()))})
    by_proj = collections.Counter((r["project"], r["status"]) for r in results)
    print(f"{'project':24} {'files':>6} {'parse':>6} {'error':>6} {'not utf8':>8}")
    for proj in PROJECTS:
        n = sum(v for (p, _), v in by_proj.items() if p == proj)
        print(f"{proj:24} {n:6} {by_proj[proj, 'ok']:6} {by_proj[proj, 'syntax error']:6} {by_proj[proj, 'not UTF-8']:8}")
    n = len(results)
    ok = sum(r["status"] == "ok" for r in results)
    bad = [r for r in results if r["status"] == "syntax error"]
    print(f"{'total':24} {n:6} {ok:6} {len(bad):6} {n - ok - len(bad):8}   ({time.process_time() - t0:.1f} CPU-s)")
    masked = [r for r in results if r.get("masks")]
    print(f"files parsed with masks: {sum(r['status'] == 'ok' for r in masked)} "
          f"({sum(r['masks'] for r in masked)} masks); slowest parses (CPU-s):")
    for r in sorted(results, key=lambda r: -r.get("cpu", 0))[:5]:
        print(f"  {r.get('cpu', 0):6.2f}  {r['project'].split('+')[1]}:{r['path']} ({r['status']}, {r.get('masks', 0)} masks)")
    print("\nfirst error of each failing file, by cause:")
    for cause, k in collections.Counter(r["cause"] for r in bad).most_common():
        print(f"  {k:4}  {cause}")
    if args.list:
        for r in bad:
            print(f"{r['project'].split('+')[1]}:{r['path']}:{r['line']}:{r['col']}: [{r['cause']}] {r['message']}"
                  f"  |  {r['text']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
