"""Lint's CPU by stage, each stage's own time (what it spends outside the other stages), in one process.

    python -P bench/lint_stages.py [--count-calls] DIR...

Runs `kernelport lint -j 1 --format json DIR...` in this process with a thread-CPU timer around each
stage: the parse (`SourceFile._parse`: preparation, tree-sitter, macro repair), the node index, the
model build, warpflow's analysis, the divergence pass, each rule's `check`, the suppressions, the
macro-body lints, function scopes, the include walk of a unit (`lint.units.with_includes`) and the
other units' launches of a kernel (`unit_launches.elsewhere`, where the run's words are indexed).  A
stage nested in another is taken out of the outer one, so the rows add up to the run (what no stage
holds is `rest of the file`; `outside every stage` is the start-up, discovery and the report).  The JSON is
written to a file and its SHA-256 printed, so a run can be checked against the plain command's.
`--count-calls`: also the tree-sitter method calls (`child_by_field_name`, the cursor's steps, ...) made
in each stage, through a profile hook: the Python-level visits of the tree, per stage (the run is ~2x
slower under the hook; its times are not the figures).  A property read (`node.type`, `.children`) makes
no call the hook sees.  CPU seconds move with the machine's load: compare stages within one run.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import hashlib
import importlib
import io
import sys
import threading
import time

_own: collections.Counter = collections.Counter()
_calls: collections.Counter = collections.Counter()
_count: collections.Counter = collections.Counter()
_local = threading.local()  # each thread's stack of [stage, its CPU clock when the stage last resumed]


def _stack() -> list[list]:
    got = getattr(_local, "stack", None)
    if got is None:
        got = _local.stack = []
    return got


def _timed(stage: str, fn):
    def timed(*a, **k):
        st = _stack()
        now = time.thread_time()
        if st:
            _own[st[-1][0]] += now - st[-1][1]
        st.append([stage, now])
        _count[stage] += 1
        try:
            return fn(*a, **k)
        finally:
            end = time.thread_time()
            name, since = st.pop()
            _own[name] += end - since
            if st:
                st[-1][1] = end
    return timed


def _function(module: str, attr: str, stage: str) -> None:
    """Wrap module.attr, and every loaded module's name bound to the same function."""
    orig = getattr(importlib.import_module(module), attr)
    new = _timed(stage, orig)
    for mod in list(sys.modules.values()):
        d = getattr(mod, "__dict__", None)
        for k, v in list(d.items()) if d else ():
            if v is orig:
                setattr(mod, k, new)


def _method(module: str, cls: str, attr: str, stage: str) -> None:
    c = getattr(importlib.import_module(module), cls)
    f = c.__dict__[attr]
    setattr(c, attr, type(f)(_timed(stage, f.__func__)) if isinstance(f, (classmethod, staticmethod))
            else _timed(stage, f))


def wrap_all(stages) -> None:
    """Time each of `stages`: (module, attribute, stage) for a function, (module, class, method, stage)
    for a method."""
    for row in stages:
        (_function if len(row) == 3 else _method)(*row)


def lint_in_process(dirs: list[str], after=None) -> tuple[float, bytes]:
    """(process CPU seconds, the JSON) of `kernelport lint -j 1 --format json DIR...` run in this process
    (`after`: called once the lint returns, before the clock stops)."""
    from kernelport.entry import main as kernelport_main
    sys.argv = ["kernelport", "lint", "-j", "1", "--format", "json", *dirs]
    out = io.StringIO()
    cpu0 = time.process_time()
    with contextlib.redirect_stdout(out):
        try:
            kernelport_main()
        except SystemExit:
            pass
    if after is not None:
        after()
    return time.process_time() - cpu0, out.getvalue().encode()


def _profile_off() -> None:
    sys.setprofile(None)
    threading.setprofile(None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--count-calls", action="store_true")
    ap.add_argument("--json", default="/tmp/lint_stages.json", help="where the lint's JSON is written")
    args = ap.parse_args()
    import kernelport.lint.engine  # noqa: F401 - the modules whose functions are wrapped, loaded first
    import kernelport.lint.divergence  # noqa: F401
    import kernelport.unit_launches  # noqa: F401
    from kernelport.lint.rule import all_rules
    rules = all_rules()
    wrap_all((
        ("kernelport.source", "SourceFile", "_parse", "parse"),
        ("kernelport.source", "NodeIndex", "__init__", "node index"),
        ("kernelport.lint.context", "Context", "__init__", "lint context (other)"),
        ("kernelport.lint.divergence", "Divergence", "__init__", "divergence"),
        ("kernelport.lint.divergence", "Divergence", "run", "divergence"),
        ("kernelport.model", "build", "model build"),
        ("kernelport.warpflow", "analyze", "warpflow"),
        ("kernelport.lint.suppress", "parse", "suppressions"),
        ("kernelport.lint.macrobodies", "findings", "macro bodies"),
        ("kernelport.fnscopes", "of", "function scopes"),
        ("kernelport.lint.units", "with_includes", "include walk (a unit's)"),
        ("kernelport.unit_launches", "elsewhere", "other units' launches"),
        ("kernelport.lint.engine", "_lint_file", "rest of the file"),
    ))
    for r in rules:
        r.check = _timed("rule " + r.code, r.check)
    if args.count_calls:
        import tree_sitter
        kinds = (tree_sitter.Node, tree_sitter.TreeCursor)

        def hook(frame, event, arg):
            if event == "c_call" and isinstance(getattr(arg, "__self__", None), kinds):
                st = _stack()
                _calls[(st[-1][0] if st else "outside every stage", arg.__name__)] += 1
        sys.setprofile(hook)
        threading.setprofile(hook)  # (the deep thread starts on the first analysis, after this)
    total, data = lint_in_process(args.dirs, _profile_off)
    with open(args.json, "wb") as f:
        f.write(data)
    print(f"lint -j 1 of {' '.join(args.dirs)}: {total:.2f} s process CPU; JSON {len(data)} bytes, "
          f"sha256 {hashlib.sha256(data).hexdigest()[:16]} ({args.json})")
    _own["outside every stage (start-up, discovery, the report, the deep thread's waits)"] = total - sum(_own.values())
    grouped: collections.Counter = collections.Counter()
    for k, v in _own.items():
        grouped["rules (all)" if k.startswith("rule ") else k] += v
    for k, v in grouped.most_common():
        n = sum(c for s, c in _count.items() if s.startswith("rule ")) if k == "rules (all)" else _count.get(k, "")
        print(f"  {v:7.2f} s {100 * v / total:5.1f}%  {k}  ({n} calls)" if n != "" else
              f"  {v:7.2f} s {100 * v / total:5.1f}%  {k}")
    print("  rules over 1% of the run:", ", ".join(f"{k[5:]} {v:.2f} s" for k, v in _own.most_common()
                                                  if k.startswith("rule ") and v > total / 100))
    if _calls:
        per: collections.Counter = collections.Counter()
        methods: collections.Counter = collections.Counter()
        for (stage, m), n in _calls.items():
            per["rules (all)" if stage.startswith("rule ") else stage] += n
            methods[m] += n
        print(f"tree-sitter method calls: {sum(_calls.values()):,}")
        for stage, n in per.most_common():
            print(f"  {n:10,}  {stage}")
        print("  by method: " + ", ".join(f"{m} {n:,}" for m, n in methods.most_common(8)))


if __name__ == "__main__":
    main()
