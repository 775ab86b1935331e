"""An opt-in per-test CPU profile of the suite, robust to a loaded machine: wall time is noise when
other jobs share the cores, CPU seconds are not.  On when $KERNELPORT_CPU_PROFILE names a TSV file
(tests/conftest.py registers this plugin then; off by default).

For each test, and for each fixture set-up, a row of: the CPU seconds (user + system) of the test
process and of its waited-for children (getrusage RUSAGE_SELF and RUSAGE_CHILDREN deltas: hipcc,
nvcc, clang, gcc and CLI subprocesses included) and the toolchain runs seen through
kernelport.compile_cache.note (compile-cache hits, misses and uncached runs, CLI subprocesses
included).  A test's row holds its set-up, call and tear-down, so its fixtures' cost is in it too;
a fixture row says which share was the fixture's (a session fixture is paid by the first test).

Each pytest process (xdist worker) writes its own part; the controller joins them into the file.
`python tests/cpu_profile.py FILE [N]` ranks tests, files and fixtures by CPU.
"""
from __future__ import annotations

import os
import resource
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

ENV = "KERNELPORT_CPU_PROFILE"
COLUMNS = ("kind", "name", "file", "cpu_s", "self_s", "children_s", "hits", "misses", "uncached")


def _cpu() -> tuple[float, float]:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


class _Meter:
    """CPU and toolchain runs between start() and stop(); the tool log is a file of this process."""

    def __init__(self, log: Path):
        self.log = log

    def start(self):
        return _cpu(), self._size()

    def stop(self, began) -> tuple[float, float, Counter]:
        (s0, c0), at = began
        s1, c1 = _cpu()
        try:
            with open(self.log) as f:
                f.seek(at)
                events = Counter(line.split("\t", 1)[0] for line in f.read().splitlines())
        except OSError:
            events = Counter()
        return s1 - s0, c1 - c0, events

    def _size(self) -> int:
        try:
            return self.log.stat().st_size
        except OSError:
            return 0


class CpuProfile:
    def __init__(self, out: Path, worker: str):
        from kernelport import compile_cache

        self.out = out
        self.part = out.with_name(f"{out.name}.{worker}.part")
        log = out.with_name(f"{out.name}.{worker}.tools")
        log.unlink(missing_ok=True)
        os.environ[compile_cache.LOG_ENV] = str(log)  # inherited by the CLI subprocesses tests start
        self.meter = _Meter(log)
        self.sink = open(self.part, "w", buffering=1)  # a row a line: an interrupted run still ranks

    def _write(self, *row) -> None:
        self.sink.write("\t".join(map(str, row)) + "\n")

    def _row(self, kind, name, file, began):
        me, kids, ev = self.meter.stop(began)
        self._write(kind, name, file, f"{me + kids:.3f}", f"{me:.3f}", f"{kids:.3f}", ev["hit"], ev["miss"], ev["uncached"])

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        began = self.meter.start()
        yield
        self._row("test", item.nodeid, item.nodeid.split("::", 1)[0], began)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        began = self.meter.start()
        yield
        where = fixturedef.baseid or "pytest or a plugin"  # baseid: the test file or folder that defines it
        self._row("fixture", f"{fixturedef.argname}@{fixturedef.scope}", where, began)

    def pytest_sessionfinish(self, session):
        me, kids = _cpu()  # the whole process: start-up and collection besides the tests
        self._write("process", self.part.name, "", f"{me + kids:.3f}", f"{me:.3f}", f"{kids:.3f}", 0, 0, 0)
        self.sink.close()


def configure(config) -> None:
    """Register the profile in this process when $KERNELPORT_CPU_PROFILE is set."""
    out = os.environ.get(ENV, "").strip()
    if out:
        worker = getattr(config, "workerinput", {}).get("workerid", "main")
        config.pluginmanager.register(CpuProfile(Path(out).resolve(), worker), "kp_cpu_profile")


def unconfigure(config) -> None:
    """In the controller (or a run without xdist): join the parts into the TSV file."""
    out = os.environ.get(ENV, "").strip()
    if not out or hasattr(config, "workerinput"):
        return
    out = Path(out).resolve()
    rows = []
    for part in sorted(out.parent.glob(f"{out.name}.*.part")):
        rows += part.read_text().splitlines()
        part.unlink()
    for log in out.parent.glob(f"{out.name}.*.tools"):
        log.unlink()
    out.write_text("\t".join(COLUMNS) + "\n" + "".join(r + "\n" for r in rows))


def rank(paths: list[str], n: int = 30) -> str:
    """The report: totals, then the top `n` tests, files and fixtures by CPU seconds.  `paths`: the
    TSV file, or the parts of a run still going or interrupted."""
    lines = [ln for p in paths for ln in Path(p).read_text().splitlines() if not ln.startswith("kind\t")]
    rows = [dict(zip(COLUMNS, r.split("\t"))) for r in lines]
    tests = [r for r in rows if r["kind"] == "test"]
    total = sum(float(r["cpu_s"]) for r in tests)
    counts = {k: sum(int(r[k]) for r in tests) for k in ("hits", "misses", "uncached")}
    procs = [r for r in rows if r["kind"] == "process"]
    # xdist's controller has reaped its workers by then: its children's CPU is theirs, counted already
    whole = sum(float(r["self_s" if r["name"].endswith(".main.part") and len(procs) > 1 else "cpu_s"])
                for r in procs)
    out = [f"{len(procs)} pytest processes: {whole:.1f} CPU s in all, ~{whole / 2 / 60:.1f} min on 2 idle cores",
           f"{len(tests)} tests: {total:.1f} CPU s (self {sum(float(r['self_s']) for r in tests):.1f}, "
           f"children {sum(float(r['children_s']) for r in tests):.1f}); "
           f"toolchain runs {counts['misses'] + counts['uncached']} (cache hits {counts['hits']}, "
           f"misses {counts['misses']}, uncached {counts['uncached']})"]

    def table(title, agg):
        out.append(f"\n{title}\n  cpu_s  self_s  child_s   runs  hits  count  name")
        for name, (cpu, me, kids, runs, hits, k) in sorted(agg.items(), key=lambda kv: -kv[1][0])[:n]:
            out.append(f"{cpu:7.1f} {me:7.1f} {kids:7.1f} {runs:6d} {hits:5d} {k:6d}  {name}")

    for title, kind, key in (("tests", "test", "name"), ("files", "test", "file"), ("fixtures", "fixture", "name")):
        agg = defaultdict(lambda: [0.0, 0.0, 0.0, 0, 0, 0])
        for r in rows:
            if r["kind"] == kind:
                a = agg[r[key] if kind == "test" else f"{r['name']} ({r['file']})"]
                a[0] += float(r["cpu_s"])
                a[1] += float(r["self_s"])
                a[2] += float(r["children_s"])
                a[3] += int(r["misses"]) + int(r["uncached"])
                a[4] += int(r["hits"])
                a[5] += 1
        table(title, agg)
    return "\n".join(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    top = int(args.pop()) if args and args[-1].isdigit() else 30
    print(rank(args, top))


# `-p cpu_profile` (with tests/ on the path) registers it in any pytest run; tests/conftest.py calls these.
pytest_configure = configure
pytest_unconfigure = unconfigure
