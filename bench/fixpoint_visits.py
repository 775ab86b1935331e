"""The two fixpoint analyses of lint (warpflow, divergence) taken apart: each part's own CPU and the
function passes per function, in one in-process `kernelport lint -j 1 --format json DIR...`.

    python -P bench/fixpoint_visits.py DIR...

Parts (a thread-CPU timer around each, as bench/lint_stages.py: a nested part is taken out of the outer
one).  warpflow: the analyzer's set-up (the sweeps' call-graph and said-names index, member lanes), the
warp-level functions, which functions are live (warpreach), the sweeps themselves (`run`'s own time: the
globals and every due function's pass), the per-sweep post-passes, the group-width decision
(`_logical_groups`: warpwidth.decide and its evidence, with the other units' launches as their own row)
and the checks after the fixpoint.  divergence: the summaries, the name resolution, the shared
references, overwrites, broadcasts, the parameter-free returns (R0, its own fixpoint), the fixpoint and
the hazard walks (`run`'s own time).  Counts: functions each analysis saw, function passes (a pass is one
walk of one function's body), sweeps, divergence's callee resolutions.  With another checkout's code:
`PYTHONPATH=CHECKOUT python -P bench/fixpoint_visits.py DIR...`.  CPU moves with the load: compare parts within one run.
"""
from __future__ import annotations

import collections
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lint_stages as ls  # noqa: E402  (its timers and wrappers)

_n: collections.Counter = collections.Counter()


def main() -> None:
    dirs = sys.argv[1:]
    import kernelport.lint.engine  # noqa: F401
    import kernelport.lint.divergence as dv
    import kernelport.lint.return_tags as rt
    import kernelport.sweeps as sw
    import kernelport.unit_launches  # noqa: F401
    import kernelport.warpflow as wf
    ls.wrap_all((
        ("kernelport.warpflow", "analyze", "warpflow: the sweeps (run's own)"),
        ("kernelport.warpflow", "_Analyzer", "__init__", "warpflow: set-up (sweeps index, member lanes)"),
        ("kernelport.warpflow", "_Analyzer", "warp_level_functions", "warpflow: warp-level functions"),
        ("kernelport.warpreach", "live_functions", "warpflow: live functions (warpreach)"),
        ("kernelport.warpflow", "_Analyzer", "_logical_groups", "warpflow: group widths (warpwidth)"),
        ("kernelport.masktypes", "check_returns", "warpflow: checks after the fixpoint"),
        ("kernelport.declsplit", "check", "warpflow: checks after the fixpoint"),
        ("kernelport.fnscopes", "of", "function scopes"),
        ("kernelport.unit_launches", "elsewhere", "other units' launches"),
        ("kernelport.lint.divergence", "Divergence", "__init__", "divergence: set-up"),
        ("kernelport.lint.divergence", "Divergence", "run", "divergence: fixpoint and walks (run's own)"),
        ("kernelport.lint.divergence", "Divergence", "_summaries", "divergence: summaries"),
        ("kernelport.lint.divergence", "Divergence", "_resolve_all", "divergence: name resolution"),
        ("kernelport.lint.divergence", "Divergence", "_worklist", "divergence: worklist"),
        ("kernelport.lint.sharedrefs", "params", "divergence: shared references"),
        ("kernelport.lint.sharedrefs", "locals_bound", "divergence: shared references"),
        ("kernelport.lint.overwrites", "prepare", "divergence: overwrites"),
        ("kernelport.lint.broadcasts", "reads", "divergence: broadcasts"),
        ("kernelport.lint.return_tags", "param_free_returns", "divergence: R0 returns"),
        ("kernelport.lint.divergence", "Divergence", "_walk", "divergence: hazard walks"),
        ("kernelport.lint.divergence", "Divergence", "_may_hazard", "divergence: hazard walks"),
        # the stages around them (as bench/lint_stages.py), so that no row holds another's time
        ("kernelport.source", "SourceFile", "_parse", "parse"),
        ("kernelport.source", "NodeIndex", "__init__", "node index"),
        ("kernelport.model", "build", "model build"),
        ("kernelport.lint.units", "with_includes", "include walk (a unit's)"),
    ))
    # counts: warpflow's functions, passes (Sweeps.due true) and sweeps (_post once per sweep)
    init, due, post, limit = sw.Sweeps.__init__, sw.Sweeps.due, wf._Analyzer._post, sw.Sweeps.limit

    def s_init(self, module, functions, *a, **k):
        _n["warpflow functions"] += len(functions)
        _n["warpflow analyses"] += 1
        init(self, module, functions, *a, **k)
        self._counted = functions
    sw.Sweeps.__init__ = s_init

    def s_due(self, f):
        got = due(self, f)
        _n["warpflow function passes"] += got
        return got
    sw.Sweeps.due = s_due

    def s_limit(self, live):
        _n["warpflow live functions"] += sum(1 for f in self._counted if f.name in live)
        limit(self, live)
    sw.Sweeps.limit = s_limit

    def a_post(self):
        _n["warpflow sweeps"] += 1
        return post(self)
    wf._Analyzer._post = ls._timed("warpflow: post-passes per sweep", a_post)  # (timed here, not by ls)

    class Counted(set):  # the divergence worklist: one discard per function pass
        label = "divergence function passes"

        def discard(self, x):
            _n[self.label] += 1
            set.discard(self, x)

    class CountedR0(Counted):
        label = "divergence R0 function passes"
    wl = dv.Divergence._worklist

    def d_worklist(self, funcs):
        wl(self, funcs)
        _n["divergence functions (fixpoint run)"] += len(funcs)
        _n["divergence fixpoints run"] += 1
        self._dirty = Counted(self._dirty)
    dv.Divergence._worklist = d_worklist
    r0_init = rt.ParamFreeReturns.__init__

    def r_init(self, main, funcs):
        r0_init(self, main, funcs)
        self._dirty = CountedR0(self._dirty)
    rt.ParamFreeReturns.__init__ = r_init
    d_init = dv.Divergence.__init__

    def dv_init(self, ctx, *a, **k):
        _n["divergence analyses"] += 1
        _n["divergence functions (all)"] += sum(1 for f in ctx.module.functions.values() if f.body is not None)
        d_init(self, ctx, *a, **k)
    dv.Divergence.__init__ = dv_init
    called = dv.Divergence._called

    def d_called(self, n):  # a call's callees resolved (the summaries' call graph, the walks' helpers)
        _n["divergence callee resolutions"] += 1
        return called(self, n)
    dv.Divergence._called = d_called

    total, data = ls.lint_in_process(dirs)
    print(f"lint -j 1 of {' '.join(dirs)}: {total:.2f} s process CPU; JSON sha256 "
          f"{hashlib.sha256(data).hexdigest()[:16]}")
    parts = [(k, v) for k, v in ls._own.items() if k.startswith(("warpflow", "divergence"))]
    for prefix in ("warpflow", "divergence"):
        mine = sorted(((k, v) for k, v in parts if k.startswith(prefix)), key=lambda kv: -kv[1])
        s = sum(v for _, v in mine)
        print(f"{prefix}: {s:.2f} s, {100 * s / total:.1f}% of the run")
        for k, v in mine:
            print(f"  {v:7.2f} s {100 * v / total:5.1f}%  {k[len(prefix) + 2:]}")
    launches = ls._own["other units' launches"]
    print(f"other units' launches (asked by the group widths, not counted in them): {launches:.2f} s")
    for k, v in sorted(_n.items()):
        print(f"  {k}: {v:,}")
    for a, b in (("warpflow function passes", "warpflow functions"),
                 ("warpflow function passes", "warpflow live functions"),  # (per live function)
                 ("divergence function passes", "divergence functions (fixpoint run)")):
        if _n[b]:
            print(f"  {a} per {b.split(' ', 1)[1].replace('functions', 'function')}: {_n[a] / _n[b]:.2f}")


if __name__ == "__main__":
    main()
