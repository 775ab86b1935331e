"""The macros a header sees from where the run's code includes it, besides its own includes'.

MVGpuBTree's memory_reclaimer.hpp writes `HOST_DEVICE_QUALIFIER ~DEBR_host() {}`; the macro is
macros.hpp's, which gpu_btree.h includes before the headers that include memory_reclaimer.hpp, and
memory_reclaimer.hpp includes nothing that defines it.  Parsed with its own includes' macros only
(Project.macro_defs) it stops at the destructor, and a qualifier macro the repair masks unknown would
leave its functions host-only in the model.  The compiler sees, at the header's first line, what the
files read before it defined: the first of the run's files whose walk reaches the header gives the
macros of the files it read before it (`Scan.order` up to the header; an includer's macros defined
after its include are counted too, as macro_defs counts a header's whole text).  The header's own and
its includes' definitions and the run's -D are kept over these (Project.source).

The names those files declare are the header's too (`declared_before`): SV-Sim's svsim_nvgpu_sin.cuh
calls `cudaSafeCall(...)`, the macro of util_nvgpu.cuh, which each of its programs includes just before
it; read with its own includes only, the header's calls were unknown CUDA API names (KP210)."""
from __future__ import annotations

from pathlib import Path


def around(project, root: Path, own: dict) -> dict:
    """MacroDefs the first unit of the run that reaches `root` (not `root` itself) defines before it,
    less the names `own` has; {} where no unit reaches it."""
    from .macros import definitions
    sc = _first_scan(project, root)
    if sc is not None:
        got: dict = {}
        for p in sc.order:
            if p == root:
                break
            f = project.file(p)
            if f is None:
                continue
            out = sc.decided_out.get(p)
            if out:  # a branch the run's -D rules out
                got.update(definitions(f.src, skip=out))
                continue
            if f.defs is None:
                f.defs = definitions(f.src)
            got.update(f.defs)
        return {n: d for n, d in got.items() if n not in own}
    return {}


def _first_scan(project, root: Path):
    """The include walk of the first unit of the run that reaches `root` (not `root` itself), or None.

    Each header of a run asks (Project.source, arch_branches), and a file no unit includes (every
    .cu) made each ask walk every unit's scan again: a square of the run (13,991 scan look-ups over
    tests/realcorpus).  The units' walks are read once, in the run's order and only as far as an
    answer needs, each file noting the first unit other than itself that reaches it: the same
    scans, made in the same order, and the same answer."""
    units = project.units
    memo = project.__dict__.get("_kp_first_scans")
    if memo is None or memo[0] is not units or memo[1] != (len(units), len(project.tu_options)):
        memo = project.__dict__["_kp_first_scans"] = [units, (len(units), len(project.tu_options)), 0, {}]
    first: dict = memo[3]
    while root not in first and memo[2] < len(units):
        u = project._real(units[memo[2]])
        sc = project.scan(u, project.options(u)) if project.file(u) is not None else None
        memo[2] += 1  # (after the walk: one that raises is walked again by the next ask, as it was)
        for f in sc.files() if sc is not None else ():
            if f != u:
                first.setdefault(f, sc)
    return first.get(root)


def read_before(project, root: Path) -> list[Path]:
    """The files the first unit of the run that reaches `root` (not `root` itself) reads before it, in order
    (mfaktc's tf_96bit.cu reads my_types.h, whose `#define FERMI 200` its tf_96bit_base_math.cu tests); []
    where no unit reaches it."""
    sc = _first_scan(project, root)
    if sc is None or root not in sc.order:
        return []
    return [p for p in sc.order[:sc.order.index(root)] if project.file(p) is not None]


def declared_before(project, root: Path) -> frozenset[str]:
    """The names the files the first unit of the run that reaches `root` reads before it declare
    (functions, macros, types, ...: the user's own, never a CUDA API name) that `root`'s text names; empty
    where no unit reaches it.  Only the named ones: the rest cannot change what the header means, and
    kept whole they would differ per includer and split a header's shared plan (kernelport/header_plans.py)."""
    sc = _first_scan(project, root)
    if sc is None or root not in sc.order or (pf := project.file(root)) is None:
        return frozenset()
    from . import textwords
    from .declared_names import unit_declared
    names = unit_declared(project, sc, root, before_root=True)
    return names & textwords.of(pf.src) if names else names
