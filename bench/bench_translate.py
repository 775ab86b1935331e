"""Lines per second of `kernelport translate --to hip`, beside a bare tree-sitter parse, by file size and on a real tree.

    python bench/bench_translate.py [--sizes 1000,6800,13600] [--to hip]
    python bench/bench_translate.py --tree tests/realcorpus [--against CHECKOUT] [--rounds 3] [--to hip] [--command]
    python bench/bench_translate.py --unit FILE --manifest SET/manifest.toml [--against CHECKOUT] [--rounds 3]

--to takes a list (hip,metal): every backend's port in the one run, as the CLI makes them.

Sizes: one generated file per size (bench_lint.py's corpus: reductions, scans, tiles, block
reductions, host launches, templates): translate must stay linear in the file's size.

Tree: every CUDA file under the directory (as `kernelport translate DIR` finds them) translated
alone, as `kernelport translate FILE --to hip --stdout` does (its project: the headers it includes,
its pyproject's and compile_commands.json's include dirs), all in one process; a file that is bad
input (not UTF-8, a syntax error) counts with its lines.  Each round runs a fresh process per
checkout (this one, then --against's, e.g. a `git worktree add` of main), so old and new code
alternate under the same load; the bare parse of the same files is measured in each process.
CPU seconds (the process's, its threads included) are the figure to read on a loaded machine.

--unit FILE --manifest TOML: one translation unit of a materialised held-out set (bench/realcorpus_build.py),
`kernelport translate FILE --to ... -o TMP` with its project's -I/-D from the manifest, as the scoreboard's
--project-flags runs it (the headers it includes are ported too), in rounds against --against as --tree does.

--command: instead, the one command `kernelport translate TREE --to ... --stdout` over the whole tree
(the CLI in the child process through typer's test runner, its output captured), so what the command
does around the ports (the collector's pace of kernelport/batchgc.py, the run's notes) is measured too.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def tree_child(code: Path, tree: Path, to: str, command: bool = False) -> dict:
    """Translate every file under `tree` with the kernelport of checkout `code` (run in a child process)."""
    sys.path.insert(0, str(code))
    from kernelport.errors import KernelportError
    from kernelport.project_ports import expand, make, single
    from kernelport.source import SourceFile, _parser
    import kernelport.lint.engine  # noqa: F401 - imported before the clock, as a long run has them
    import kernelport.templates  # noqa: F401
    files = expand([tree])
    datas = [f.read_bytes() for f in files]
    parser = _parser()
    c0 = time.process_time()
    for d in datas:
        parser.parse(d)
    parse = time.process_time() - c0
    refused = bad = 0
    w0, c0 = time.perf_counter(), time.process_time()
    if command:
        from typer.testing import CliRunner
        from kernelport.cli import for_argv
        argv = ["translate", str(tree), "--to", to, "--stdout"]
        res = CliRunner().invoke(for_argv(argv), argv)
        if res.exit_code not in (0, 1):  # (1: a port refused, counted below; 2, 3: the command failed)
            raise SystemExit(f"translate exited {res.exit_code}: {res.output[-2000:]}")
        refused = res.stderr.count(": not translated to ")  # (bad input is in the command's notes, not counted)
    for f in files if not command else ():
        try:
            src = SourceFile.read(f)
            src.check_syntax()
            made = make(single(f, src), to.split(","), None, True)
            refused += sum(not m.port.ok for m in made if m.port is not None)
        except KernelportError:
            bad += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"cpu": cpu, "wall": wall, "parse": parse, "files": len(files), "lines": sum(d.count(b"\n") for d in datas),
            "refused": refused, "bad": bad, "code": str(code)}


def unit_flags(unit: Path, manifest: Path) -> list[str]:
    """The -I/-D of the manifest's project whose directory holds `unit` (its root beside the manifest)."""
    import tomllib
    projects = tomllib.loads(manifest.read_text())["project"]
    for name, p in projects.items():
        root = manifest.parent / name
        if unit.resolve().is_relative_to(root.resolve()):
            return [f"-I{root / d}" for d in p.get("include_dirs", [])] + [f"-D{d}" for d in p.get("defines", [])]
    raise SystemExit(f"{unit}: under no project of {manifest}")


def unit_child(code: Path, unit: Path, manifest: Path, to: str) -> dict:
    """`translate UNIT --to TO -o TMP` with its project's flags, through the CLI of checkout `code`."""
    sys.path.insert(0, str(code))
    from typer.testing import CliRunner
    from kernelport.cli import for_argv
    from kernelport.source import _parser
    data = unit.read_bytes()
    c0 = time.process_time()
    _parser().parse(data)
    parse = time.process_time() - c0
    with tempfile.TemporaryDirectory() as out:
        argv = ["translate", str(unit), "--to", to, "-o", out, *unit_flags(unit, manifest)]
        w0, c0 = time.perf_counter(), time.process_time()
        res = CliRunner().invoke(for_argv(argv), argv)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        ports = sum(1 for _ in Path(out).rglob("*") if _.is_file())
    if res.exit_code not in (0, 1):
        raise SystemExit(f"translate exited {res.exit_code}: {res.output[-2000:]}")
    return {"cpu": cpu, "wall": wall, "parse": parse, "files": ports, "lines": data.count(b"\n"),
            "refused": res.exit_code, "bad": 0, "code": str(code)}


def tree(args) -> None:
    codes = [ROOT] + ([Path(args.against).resolve()] if args.against else [])
    best: dict[str, dict] = {}
    what = ["--unit", args.unit, "--manifest", args.manifest] if args.unit else ["--tree", args.tree]
    for r in range(args.rounds):
        for code in codes:
            out = subprocess.run([sys.executable, __file__, "--tree-child", str(code), *what,
                                  "--to", args.to] + ["--command"] * args.command,
                                 capture_output=True, text=True, check=True).stdout
            res = json.loads(out.splitlines()[-1])
            print(f"round {r + 1}, {code}: {res['cpu']:.2f} s CPU ({res['wall']:.2f} s wall), parse {res['parse']:.3f} s; "
                  f"load average {os.getloadavg()[0]:.2f}", flush=True)
            if str(code) not in best or res["cpu"] < best[str(code)]["cpu"]:
                best[str(code)] = res
    for code, res in best.items():
        if args.unit:
            print(f"{code}: translate --to {args.to} of {args.unit} ({res['lines']:,} lines; {res['files']} ports "
                  f"written, exit {res['refused']}), best of {args.rounds}: {res['cpu']:.2f} s CPU; bare parse of the "
                  f"file {res['parse']:.3f} s")
            continue
        print(f"{code}: translate --to {args.to} of {args.tree} ({res['files']} files, {res['lines']:,} lines; "
              f"{res['refused']} ports refused, {res['bad']} files bad input), best of {args.rounds}: "
              f"{res['cpu']:.2f} s CPU = {res['lines'] / res['cpu']:,.0f} lines per CPU-s; bare parse {res['parse']:.3f} s: "
              f"translate/parse {res['cpu'] / max(res['parse'], 1e-9):.0f}x")


def sizes(args) -> None:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(HERE))
    from bench_lint import bare_parse_cpu, generate
    from kernelport.source import SourceFile
    from kernelport.translate import port_file
    with tempfile.TemporaryDirectory() as d:
        for size in (int(x) for x in args.sizes.split(",") if x):
            root = Path(d) / f"t{size}"
            root.mkdir()
            total = generate(root, size, 1)
            f = next(root.iterdir())
            parse = bare_parse_cpu([f])
            w0, c0 = time.perf_counter(), time.process_time()
            src = SourceFile.read(f)
            port = None
            for backend in args.to.split(","):  # --to hip,metal: each backend's port of the one parse
                port, text = port_file(src, backend, root, allow_unported=True)
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            print(f"translate --to {args.to}, {total:>7,} lines: {cpu:6.2f} s CPU ({wall:6.2f} s wall) = "
                  f"{total / cpu:>7,.0f} lines per CPU-s; bare parse {parse:.3f} s: translate/parse "
                  f"{cpu / max(parse, 1e-9):.0f}x; {len(port.notes)} rewrites")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,6800,13600")
    ap.add_argument("--to", default="hip")
    ap.add_argument("--tree", help="a directory: translate every CUDA file under it (instead of --sizes)")
    ap.add_argument("--against", metavar="CHECKOUT", help="with --tree: also measure this checkout's kernelport")
    ap.add_argument("--rounds", type=int, default=3, help="with --tree: rounds (the best is reported)")
    ap.add_argument("--command", action="store_true",
                    help="with --tree: one `translate TREE --stdout` command over the tree, not each file alone")
    ap.add_argument("--unit", help="one file of a held-out set, with --manifest (instead of --sizes)")
    ap.add_argument("--manifest", help="with --unit: the set's manifest.toml (its projects' -I/-D)")
    ap.add_argument("--tree-child", metavar="CODE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.tree_child and args.unit:
        print(json.dumps(unit_child(Path(args.tree_child), Path(args.unit), Path(args.manifest), args.to)))
        return
    if args.tree_child:
        print(json.dumps(tree_child(Path(args.tree_child), Path(args.tree), args.to, args.command)))
        return
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    tree(args) if args.tree or args.unit else sizes(args)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
