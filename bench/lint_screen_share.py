"""What share of lint's CPU goes to files and functions in which no rule can report anything, and how
many findings land there (issue 15: would a token screen that skips them pay?).

    python bench/lint_screen_share.py [DIR ...]      (default: tests/realcorpus examples)

One in-process `lint -j 1` run over the directories (as `kernelport lint` runs them), with timers
(time.process_time) around each file's `lint_file`, each unit's Context (its model, warpflow) and rules,
and each function body's passes in warpflow (its sweeps) and in the divergence pass (its fixpoint and
its hazard walk).  The timers cost a little themselves: read the shares, not the seconds.

The screen measured: a file or function is *relevant* when its bytes hold a token a rule reads
(`SEED` below: a warp operation, a barrier, a wave-size word or literal in the shapes the rules read,
a mask, inline asm, a platform guard, an annotation or suppression), or, for a function, when it calls
a relevant function (transitively, by name, across every file of the run: a helper from an include
counts), or is called by one (transitively: its return facts and tags are a relevant function's
input).  A finding located in a function the screen calls irrelevant would make a screen wrong.
The seed is this script's, not lint's: the screen was measured and not built (README, Performance),
so lint holds no second list of what its rules read that could drift from them.

What a screen would save, as alternated runs (each prints its CPU s and findings; run them in turn):
    --time-only      the plain run
    --skip-analyses  a unit without a seed token keeps its project work and parse (KP001) and skips its
                     model, warpflow and rules: what a screen keeping the output byte-identical could do
    --skip-bare      a file without a seed token is not linted at all (its KP001s lost): the bound
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

# What the rules read, as tokens: any of these in a function's or file's bytes makes it relevant
# (with the dialect table's names of every backend's warp, barrier, mask and CUDA-only concepts: `_names`).
_SHAPES = (rb"""
    warp | lane | wave | WARP | LANE | WAVE | Warp | Lane | Wave       # warpSize, WARP_SIZE, laneId, kWave...
  | __shfl | __ballot | __any | __all | __activemask | __sync | __popc | __ffs | __clz | __fns | __brev
  | __match | __reduce | __uni | syncthreads | tiled_partition | thread_block_tile | coalesced | cooperative
  | \bcg:: | \bthis_thread_block | \bgrid_group | \bthread_group | \bshfl | \bballot | \bvote
  | \b(?:0[xX]0*1[fF]|0[xX]0*20|0[xX]0*3[fF]|0[xX]0*40|0[xX][fF]{4,}|31|32|63|64)(?:[uUlL]*)\b  # widths, last lanes, masks
  | (?:>>|<<)=?\s*[56]\b                                                # warp index / lane bit shifts
  | \basm\b | __asm | __CUDA_ARCH__ | __HIP | __HIPCC__ | __AMDGCN | __gfx | __NVCC__ | __CUDACC__
  | __nanosleep | __cvta | __isShared | __isGlobal | __prof_trigger | __byte_perm | __funnelshift
  | @kp | kernelport | NOLINT
""")
_KINDS = ("shuffle", "vote", "warp_reduce", "barrier", "mask", "cuda_only", "reduction")


def _names() -> bytes:
    from kernelport import backends, dialect
    names = set()
    for b in backends.REGISTRY:
        names |= {n for n, c in dialect._by_name(b).items() if c.kind in _KINDS or c.warp_level}
    names -= {"static_cast", "reinterpret_cast", "const_cast"}  # (a concept spelt as a cast)
    return rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in sorted(names)) + rb")\b"


class _Seed:  # compiled on first use: the names come from the dialect table
    pat = None

    def search(self, b: bytes):
        if self.pat is None:
            self.pat = re.compile(_SHAPES + rb"  | " + _names(), re.X)
        return self.pat.search(b)


SEED = _Seed()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", default=["tests/realcorpus", "examples"])
    ap.add_argument("--skip-bare", action="store_true",
                    help="an upper bound instead: a file without a seed token is not linted at all (not even "
                         "parsed for KP001 by lint_file; the project may still read it for its includers); print "
                         "the run's CPU s and stop (run it alternated with `--time-only`)")
    ap.add_argument("--skip-analyses", action="store_true",
                    help="what a screen could keep byte-identical: a unit without a seed token in its text or in "
                         "the bodies of the include macros it names keeps the project's work and its parse "
                         "(KP001) but skips the model, warpflow and every rule; print the run's CPU s and stop")
    ap.add_argument("--time-only", action="store_true", help="the plain run's CPU s, no timers (for --skip-bare)")
    args = ap.parse_args()
    if args.skip_bare or args.time_only or args.skip_analyses:
        return bound(args)
    from kernelport import warpflow
    from kernelport.lint import divergence, engine
    from kernelport.lint import context as ctxmod
    from kernelport.lint.rule import all_rules

    per_file: dict[str, float] = defaultdict(float)  # lint_file, everything
    ctx_t: dict[str, float] = defaultdict(float)  # Context: model, warpflow
    rule_t: dict[str, float] = defaultdict(float)
    fn_t: dict[tuple[str, int, int, str], float] = defaultdict(float)  # (path, body range, pass) -> CPU s
    funcs: dict[str, list] = {}  # path -> [(name, start, end, bytes)]
    cur = {"path": ""}
    clock = time.process_time

    real_lint_file = engine.lint_file

    def lint_file(task):
        cur["path"] = task[0]
        t0 = clock()
        try:
            return real_lint_file(task)
        finally:
            per_file[task[0]] += clock() - t0
    engine.lint_file = lint_file

    from kernelport.lint import units
    inc_t: dict[str, float] = defaultdict(float)  # the project's work for the file: its parse, model, includes
    real_with = units.with_includes

    def with_includes(u, *a, **k):
        t0 = clock()
        try:
            return real_with(u, *a, **k)
        finally:
            inc_t[cur["path"]] += clock() - t0
    units.with_includes = with_includes
    real_init = ctxmod.Context.__init__

    def ctx_init(self, unit, settings):
        t0 = clock()
        try:
            real_init(self, unit, settings)
        finally:
            ctx_t[unit.path] += clock() - t0
        if getattr(self, "module", None) is not None:
            funcs[unit.path] = [(f.name, f.node.start_byte, f.node.end_byte, self.src.data[f.node.start_byte:f.node.end_byte])
                                for f in self.module.functions.values()]
    ctxmod.Context.__init__ = ctx_init

    per_rule: dict[str, float] = defaultdict(float)  # (a rule's time includes the analyses it asks for first)
    rules = all_rules()
    for rule in rules:
        real_check = rule.check

        def check(ctx, _real=real_check, rule_code=rule.code):
            t0 = clock()
            try:
                return _real(ctx)
            finally:
                dt = clock() - t0
                rule_t[ctx.path] += dt
                per_rule[rule_code] += dt
        rule.check = check

    def body_timer(cls, meth, tag, top):
        real = getattr(cls, meth)

        def timed(self, n, *rest):
            f = getattr(self, "fn", None)
            if f is None or f.body is None or not top(rest) or n.start_byte != f.body.start_byte or \
                    n.end_byte != f.body.end_byte:
                return real(self, n, *rest)
            t0 = clock()
            try:
                return real(self, n, *rest)
            finally:
                fn_t[(cur["path"], f.node.start_byte, f.node.end_byte, tag)] += clock() - t0
        setattr(cls, meth, timed)

    body_timer(warpflow._Analyzer, "stmt", "warpflow", lambda rest: True)
    body_timer(divergence.Divergence, "stmt", "divergence", lambda rest: rest[0] == ())
    body_timer(divergence.Divergence, "_walk", "divergence walk", lambda rest: rest[0] == [])

    t0 = clock()
    results = engine.lint_paths([Path(d) for d in args.dirs], jobs=1)
    total = clock() - t0
    findings = {r.path: r.findings for r in results}

    # the screen: relevant functions (seed, then callers' and callees' closures by name over the run);
    # a macro whose body holds a seed token is a seed token itself (an include's `REDUCE(x)`)
    file_text = {p: Path(p).read_bytes() for p in per_file}
    defre = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", re.M)
    macros = {m.group(1) for b in file_text.values() for m in defre.finditer(b) if SEED.search(m.group(2))}
    mre = re.compile(rb"\b(?:" + b"|".join(sorted(macros)) + rb")\b") if macros else None

    def seeded(b: bytes) -> bool:
        return bool(SEED.search(b) or (mre is not None and mre.search(b)))
    print(f"macros whose body holds a seed token: {len(macros)}")
    seeds, calls = set(), defaultdict(set)
    callre = re.compile(rb"\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>\s*)?\(")
    names = {name for fs in funcs.values() for name, *_ in fs}
    for path, fs in funcs.items():
        for name, s, e, text in fs:
            if seeded(text):
                seeds.add(name)
            calls[name] |= {m.decode() for m in callre.findall(text)} & names
    callers = defaultdict(set)
    for a, bs in calls.items():
        for b in bs:
            callers[b].add(a)

    def closure(start, edges):
        seen, todo = set(start), list(start)
        while todo:
            for b in edges[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen
    up = closure(seeds, callers)
    relevant = closure(up, calls)
    file_relevant = {p: seeded(b) or any(name in relevant for name, *_ in funcs.get(p, ())) for p, b in file_text.items()}

    def where(path, f):  # the function holding a finding's first byte
        for name, s, e, _ in funcs.get(path, ()):
            if s <= f.span[0] < e:
                return name
        return None

    lines = sum(b.count(b"\n") for b in file_text.values())
    irr_files = [p for p, r in file_relevant.items() if not r]
    irr_cpu = sum(per_file[p] for p in irr_files)
    irr_find = sum(len(findings.get(p, ())) for p in irr_files)
    irr_lines = sum(file_text[p].count(b"\n") for p in irr_files)
    print(f"lint -j 1 over {' '.join(args.dirs)}: {len(per_file)} files, {lines} lines, {total:.2f} s CPU in process "
          f"({sum(per_file.values()):.2f} s in lint_file; Context (model, warpflow) {sum(ctx_t.values()):.2f} s, "
          f"rules {sum(rule_t.values()):.2f} s)")
    print(f"files with no token a rule reads: {len(irr_files)} ({irr_lines} lines), {irr_cpu:.2f} s CPU "
          f"= {100 * irr_cpu / total:.1f}% of the run (Context {sum(ctx_t[p] for p in irr_files):.2f} s, rules "
          f"{sum(rule_t[p] for p in irr_files):.2f} s, the rest: parse, project, suppressions); findings there: {irr_find}")
    for p in irr_files:
        for f in findings.get(p, ()):
            print("   ", p, f.line, f.code, f.message[:100])
    by_tag = defaultdict(float)
    irr_tag = defaultdict(float)
    fname = {(p, s, e): name for p, fs in funcs.items() for name, s, e, _ in fs}
    nfun = {"all": set(), "irr": set()}
    for (p, s, e, tag), t in fn_t.items():
        by_tag[tag] += t
        name = fname.get((p, s, e))
        nfun["all"].add((p, s))
        if name is not None and name not in relevant:
            irr_tag[tag] += t
            nfun["irr"].add((p, s))
    all_fns = sum(len(fs) for fs in funcs.values())
    irr_fns = sum(1 for fs in funcs.values() for name, *_ in fs if name not in relevant)
    print(f"functions: {all_fns}, {irr_fns} irrelevant by the screen (no seed token, not calling or called by a "
          f"relevant one); seeds {len(seeds)} names, relevant {len(relevant)} of {len(names)} names")
    for tag in sorted(by_tag):
        print(f"  {tag}: {by_tag[tag]:.2f} s CPU in function bodies, {irr_tag[tag]:.2f} s "
              f"({100 * irr_tag[tag] / max(by_tag[tag], 1e-9):.1f}%) in irrelevant ones = "
              f"{100 * irr_tag[tag] / total:.1f}% of the run")
    in_irr = [(p, f.line, f.code) for p, fs in findings.items() for f in fs
              if f.span is not None and (w := where(p, f)) is not None and w not in relevant]
    print(f"findings located in irrelevant functions: {len(in_irr)}")
    for x in in_irr[:20]:
        print("   ", *x)
    NL = b"\n"
    bare = [p for p, b in file_text.items() if not seeded(b)]  # the token pass alone, without the call graph
    print(f"files without a seed token (the call graph not asked): {len(bare)} "
          f"({sum(file_text[p].count(NL) for p in bare)} lines), {sum(per_file[p] for p in bare):.2f} s CPU "
          f"(project: parse, model, includes {sum(inc_t[p] for p in bare):.2f} s, Context {sum(ctx_t[p] for p in bare):.2f} s, rules {sum(rule_t[p] for p in bare):.2f} s); findings there: "
          f"{sum(len(findings.get(p, ())) for p in bare)} ({', '.join(sorted({f.code for p in bare for f in findings.get(p, ())}))})")
    print(f"the project's work per file (parse, model, includes): {sum(inc_t.values()):.2f} s")
    print("rules, CPU s (with the lazy analyses each asks for first):",
          ", ".join(f"{c} {t:.2f}" for c, t in sorted(per_rule.items(), key=lambda x: -x[1])[:12]))
    rel_cpu = sum(t for p, t in per_file.items() if file_relevant[p])
    print(f"rules in irrelevant files: {sum(rule_t[p] for p in irr_files):.2f} s; "
          f"relevant files: {len(per_file) - len(irr_files)}, {rel_cpu:.2f} s")


SCREENED: list[int] = []  # the lines of each unit --skip-analyses screened


def screened_unit(engine) -> None:
    """lint_unit, with a unit no rule can report in reduced to its parse's KP001 (as _lint_context words it)."""
    from kernelport.project import needs_macros
    from kernelport.source import SourceFile
    real = engine.lint_unit
    words = re.compile(r"[A-Za-z_]\w*")

    def lint_unit(unit, settings):
        text = unit.text.encode()
        named = set(words.findall(unit.text)) if unit.macros else set()
        if SEED.search(text) or any(d.name in named and SEED.search(d.body.encode()) for d in unit.macros.values()):
            return real(unit, settings)
        SCREENED.append(unit.text.count("\n"))
        shared = unit.parsed
        src = shared.src if shared is not None and shared.src.text == unit.text and not shared.src.included_macros \
            else SourceFile.from_text(unit.text, unit.path)
        if needs_macros(src, unit.macros):
            src = SourceFile.from_text(unit.text, unit.path, macros=unit.macros)
        out, seen = [], set()
        for loc, msg in src.syntax_errors():
            byte = engine._line_start(src.data, loc.line) + len(src.line_text(loc.line)[:loc.column - 1].encode())
            at = src.location(byte)
            if at.line in seen or len(seen) >= 20:
                continue
            seen.add(at.line)
            out.append(engine._kp("KP001", unit.path, at.line, at.column, f"syntax error: {msg}; the rest of the file is "
                                  "still linted, but findings near this line may be missing"))
        return out
    engine.lint_unit = lint_unit


def bound(args) -> None:
    from kernelport.lint import engine
    FileResult = engine.FileResult
    real = engine.lint_file
    t0 = time.process_time()
    if args.skip_bare:  # the screen itself is timed with the run: a regex pass over each file's bytes
        engine.lint_file = lambda task: real(task) if SEED.search(Path(task[0]).read_bytes()) else FileResult(task[0])
    if args.skip_analyses:
        screened_unit(engine)
    n = sum(len(r.findings) for r in engine.lint_paths([Path(d) for d in args.dirs], jobs=1))
    print(f"{'skip-bare' if args.skip_bare else 'skip-analyses' if args.skip_analyses else 'plain'}: {time.process_time() - t0:.2f} s CPU, {n} findings"
          + (f"; {len(SCREENED)} units ({sum(SCREENED)} lines) screened" if args.skip_analyses else ""))


if __name__ == "__main__":
    main()
