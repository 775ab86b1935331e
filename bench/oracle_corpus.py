"""verify's oracle on the real-code corpus (issue 18): per kernel of every file that translates
(tests/realcorpus_outcomes.txt: written for HIP or Metal), is it run differentially (the original
at wave 32 against each port), with inputs inferred or annotated, and did the ports pass?

    nice .venv/bin/python -P bench/oracle_corpus.py [-j N] [--schedules block] [--timeout 30] [--json out.json]
        [--shuffle SEED] [--table out.json]  [--match REGEX] [--tree DIR [--configure]] [--oracle-only]

--tree DIR: a tree bench/realcorpus_build.py materialised (a held-out set): its manifest's `.cu` sources
instead of tests/realcorpus's translating files.

Prints the table: kernels found, run, inputs inferred vs annotated, passed, failed, not run by reason.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "realcorpus"


def translating_files() -> list[Path]:
    out = []
    for line in (ROOT / "tests" / "realcorpus_outcomes.txt").read_text().splitlines():
        parts = line.split("\t")
        if line.startswith("#") or len(parts) < 3:
            continue
        if "written" in (parts[1].strip(), parts[2].strip()):
            out.append(CORPUS / parts[0])
    return out


def tree_files(tree: Path, configure: bool = False) -> list[Path]:
    """The `.cu` sources a materialised tree's manifest.toml lists (every project), in its order.
    configure: write each project's include dirs and defines (the manifest's) as its pyproject.toml's
    [tool.kernelport], where it has none, so verify reads the project as its build does."""
    import json
    import tomllib
    manifest = tomllib.loads((tree / "manifest.toml").read_text())
    for name, proj in manifest.get("project", {}).items() if configure else ():
        cfg = tree / name / "pyproject.toml"
        if not cfg.exists():
            cfg.write_text("[tool.kernelport]\n"
                           f"include-dirs = {json.dumps(proj.get('include_dirs', []))}\n"
                           f"defines = {json.dumps(proj.get('defines', []))}\n")
            print(f"wrote {cfg} (the manifest's include dirs and defines)")
    return [tree / name / src for name, proj in manifest.get("project", {}).items()
            for src in proj.get("sources", []) if src.endswith(".cu") and (tree / name / src).is_file()]


def build_flags(root: Path) -> list[tuple[str, list[str], list[str], dict[str, list[str]]]]:
    """Per project of a tree's manifest.toml: (its directory, the include dirs and defines its build
    passes, each source's own defines: `source_defines`, prna's -DFLOAT from its Makefile), so that a
    typedef chosen by a build flag (`#if defined FLOAT typedef float real_t;`) is the build's."""
    import tomllib
    manifest = root / "manifest.toml"
    if not manifest.is_file():
        return []
    return [(str(root / name), list(proj.get("include_dirs", [])), list(proj.get("defines", [])),
             dict(proj.get("source_defines", {})))
            for name, proj in tomllib.loads(manifest.read_text()).get("project", {}).items()]


def _with_build_flags(flags) -> None:
    """Every file under a project's directory read with its build's include dirs and defines (after
    its own configuration: a pyproject's, a compile_commands.json's), in this worker process."""
    from kernelport.lint import config
    from kernelport.project import Options, parse_define
    own = getattr(config.includes_for, "__wrapped__", config.includes_for)

    def includes_for(path, cfg, overrides):
        opts, p = own(path, cfg, overrides), Path(path).resolve()
        for root, dirs, defines, per_source in flags:
            top = Path(root).resolve()
            if top in p.parents:
                rel = p.relative_to(top)  # a port (prna.hip, prna.portable.cu) builds with its original's flags
                original = rel.with_name(rel.name.split(".")[0] + ".cu").as_posix()
                mine = per_source.get(rel.as_posix()) or per_source.get(original, [])
                extra = defines + mine
                return opts.merged(Options(tuple(str(top / d) for d in dirs), tuple(map(parse_define, extra))))
        return opts
    includes_for.__wrapped__ = own
    config.includes_for = includes_for


def _reason(detail: str) -> str:
    """The kind of a not-run reason, for the table (the full text is in --json)."""
    m = re.search(r"not run: (.*)", detail)
    text = m.group(1) if m else detail
    for pat, kind in [(r"the original faults at wave \d+ on (\w+) inputs", "the original faults on {} inputs"),
                      (r"needs smaller sizes", "sizes over the emulator's cap"),
                      (r"cut by the time budget: at the first sizes", "cut by the budget (faults only at sizes scaled for it)"),
                      (r"sizes verify chose overrun a (shared|file-scope) array", "chosen sizes overrun a {} array the kernel sizes"),
                      (r"no launch of", "no launch in the file"),
                      (r"needs template arguments", "template arguments deduced"),
                      (r"could not run on the emulator", "the emulator cannot run the original"),
                      (r"writes no buffer", "no output buffer"),
                      (r"no texture or surface fetches", "a texture object (not emulated)"),
                      (r"holds '|holds struct '|which the emulator's inputs cannot hold", "a struct or class argument"),
                      (r"needs sizes", "sizes computed at run time (argv, files, ...)")]:
        m = re.search(pat, text)
        if m:
            return kind.format(*m.groups())
    return "other: " + text[:60]


def one(args) -> dict:
    path, schedules, timeout, oracle_only, flags, *device = args  # device: --device's GPU, where given
    device = device[0] if device else None
    from kernelport.verify import Verifier
    if flags:
        _with_build_flags(flags)
    if oracle_only:  # the original's run only: each kernel's oracle (or its not-run reason)
        from kernelport import verify_oracle
        run = getattr(verify_oracle.run_oracle, "__wrapped__", verify_oracle.run_oracle)

        def without_ports(verifier, src, module, name, got, ports, rep, smaller=None):
            return run(verifier, src, module, name, got, {}, rep, smaller)
        without_ports.__wrapped__ = run
        verify_oracle.run_oracle = without_ports
    t0 = time.perf_counter()
    try:
        rep = Verifier(schedules=schedules, cache=False, timeout=timeout, device=device).verify(path)
    except Exception as e:  # an internal error: counted, never hidden
        return {"path": str(path), "internal": f"{type(e).__name__}: {e}", "kernels": {}, "seconds": time.perf_counter() - t0}
    kernels: dict[str, dict] = {}
    for c in rep.checks:
        if c.kernel == "*":
            continue
        k = kernels.setdefault(c.kernel, {"oracle": None, "source": None, "ports": [], "reason": None,
                                          "chosen": False})
        if c.kind == "oracle":
            k["oracle"] = c.status
            k["chosen"] = " chosen (" in c.detail or "(length chosen: " in c.detail
            if c.status == "skip":
                k["reason"] = c.detail
            m = re.search(r"inputs \(([^)]*)\)", c.detail)
            k["source"] = m.group(1) if m else None
        elif c.kind == "numeric":
            k["ports"].append((c.backend, c.wave, c.schedule, c.status, c.detail[:200]))
        elif c.kind == "reference":
            k["source"] = "annotations"
        elif c.kind == "device":  # --device: the original on the GPU against the emulator (or the reference)
            k["device"] = (c.status, c.detail[:300])
    return {"path": str(path), "internal": rep.error if rep.error and "Traceback" in rep.error else None,
            "error": rep.error, "kernels": kernels, "seconds": time.perf_counter() - t0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--schedules", default="block")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--json")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files (a quick look)")
    ap.add_argument("--shuffle", type=int, help="visit the files in this seed's random order (a partial run, "
                    "stopped early, is then a random sample of files)")
    ap.add_argument("--table", help="print the table of a --json file written so far (by a run still going "
                    "or stopped), run nothing")
    ap.add_argument("--oracle-only", action="store_true", help="run each original only, no port: the oracle's "
                    "not-run reasons over the whole corpus in a fraction of the time (the ports' rows stay empty)")
    ap.add_argument("--device", help="also run each original on this GPU (cuda): verify --device's row per kernel")
    ap.add_argument("--match", help="only the files whose path under tests/realcorpus matches this regex")
    ap.add_argument("--tree", type=Path, help="a materialised held-out tree (its manifest.toml's .cu sources)")
    ap.add_argument("--configure", action="store_true", help="with --tree: write each project's pyproject.toml "
                    "[tool.kernelport] from the manifest's include dirs and defines where it has none")
    ap.add_argument("--no-build-flags", action="store_true", help="tests/realcorpus without its manifest's include "
                    "dirs and defines (project and per source): as stop 44 and before ran it")
    a = ap.parse_args()
    root = a.tree.resolve() if a.tree else CORPUS
    files = tree_files(root, a.configure) if a.tree else translating_files()
    files = [f for f in files if not a.match or re.search(a.match, str(f.relative_to(root)))]
    if a.shuffle is not None:
        random.Random(a.shuffle).shuffle(files)
    files = files[: a.limit or None]
    flags = [] if a.tree or a.no_build_flags else build_flags(root)
    work = [(f, tuple(a.schedules.split(",")), a.timeout, a.oracle_only, flags, a.device) for f in files]
    t0 = time.perf_counter()
    if a.table:
        results = json.loads(Path(a.table).read_text())
        print(f"partial: {len(results)} of {len(files)} files (the files a run finished)")
        files = results
    else:
        results = []
        with ProcessPoolExecutor(a.j) as pool:
            for fut in as_completed([pool.submit(one, w) for w in work]):  # written as each file ends
                results.append(fut.result())
                if a.json:
                    Path(a.json).write_text(json.dumps(results, indent=1))
    found = run = inferred = annotated = passed = failed = chosen = 0
    reasons: collections.Counter = collections.Counter()
    internal = [r for r in results if r.get("internal")]
    errors = collections.Counter()
    for r in results:
        if r.get("error") and not r.get("internal"):
            errors[r["error"].splitlines()[0][:80]] += 1
        for name, k in r["kernels"].items():
            found += 1
            if k["oracle"] == "pass" or k["source"] == "annotations":
                run += 1
                annotated += k["source"] == "annotations"
                inferred += k["source"] == "host code"
                chosen += k["source"] == "host code" and k.get("chosen", False)
                statuses = [p[3] for p in k["ports"]]
                if "fail" in statuses:
                    failed += 1
                elif "pass" in statuses:
                    passed += 1
                elif not a.oracle_only:
                    reasons["no port could be compared (all ports refused or not yet)"] += 1
            else:
                reasons[_reason(k["reason"] or "")] += 1
    print(f"oracle on {a.tree or 'tests/realcorpus'}: {len(files)} files{'' if a.tree else ' that translate'}, {time.perf_counter() - t0:.0f} s "
          f"(schedules {a.schedules}, timeout {a.timeout:g} s a run, -j {a.j}"
          f"{', the manifest build flags' if flags else ''})")
    print(f"{'kernels found':<48}{found:>6}")
    ran = "the original ran (--oracle-only: no port run)" if a.oracle_only else "run differentially (original@32 vs each port)"
    print(f"{ran:<48}{run:>6}  ({100 * run / max(found, 1):.1f}%)")
    print(f"{'  inputs inferred from host code':<48}{inferred:>6}")
    print(f"{'    of them with sizes chosen (argv, files, ...)':<48}{chosen:>6}")
    print(f"{'  inputs from annotations':<48}{annotated:>6}")
    print(f"{'  every port matched':<48}{passed:>6}")
    print(f"{'  some port differed or failed':<48}{failed:>6}")
    for r in results:  # which kernels differed, and how: what a reader checks first
        for name, k in r["kernels"].items():
            for backend, wave, schedule, status, detail in k["ports"] if k["oracle"] == "pass" else ():
                if status == "fail":
                    print(f"    {r['path']}: {name} {backend}@{wave} {schedule}: {detail[:120]}")
    gpu = collections.Counter(k["device"][0] for r in results for k in r["kernels"].values() if k.get("device"))
    if a.device or gpu:
        print(f"{'the original on the GPU (--device): ' + ', '.join(f'{n} {s}' for s, n in sorted(gpu.items())):<48}")
        for r in results:
            for name, k in r["kernels"].items():
                if k.get("device") and k["device"][0] != "pass":
                    print(f"    {r['path']}: {name} {k['device'][0]}: {k['device'][1][:160]}")
    print(f"{'not run':<48}{found - run:>6}")
    for why, n in reasons.most_common():
        print(f"  {why:<46}{n:>6}")
    print(f"{'files whose kernels were not read (parse error)':<48}{sum(errors.values()):>6}")
    print(f"{'internal errors':<48}{len(internal):>6}")
    for r in internal:
        print(f"  {r['path']}: {r['internal']}")
    if a.json and not a.table:
        Path(a.json).write_text(json.dumps(results, indent=1))
    sys.exit(1 if internal else 0)


if __name__ == "__main__":
    main()
