"""verify without a reference: the original run at wave 32 is the oracle (issue 18).

For a kernel without `@kp reference` (or every kernel, with `--oracle original`) the original runs
on the emulator at the source dialect's own wave width; each port runs at each of its widths and
schedules and must match it under the error bounds both runs carried.  Inputs come from the
annotations, else from kernelport.infer_inputs (host code or the command line).  A kernel that
cannot be run is a "not run" check (status skip, with the reason and a hint): never a failure,
never dropped.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from . import backends, compare, dialect, inherited_races, inputs, unjudged
from .annotations import Text
from .check_budget import cut_detail, is_cut
from .chosen_shared import array_kind, halved, past_shared, past_shared_text
from .emulator.frontend.curand_model import stream_note
from .infer_inputs import CommandLine, Inferred, NotRun, infer
from .model import Module, defined_names, file_scope_items
from .project_ports import made_or_refused, single
from .schedule_orders import own_order, skip_detail, unmoved
from .source import SourceFile
from .translate import companion, destination

ORACLE = "original"  # the row name of the oracle's own checks


def port_texts(verifier, path: Path, src: SourceFile, rep) -> dict[str, tuple[Path, str, dict[str, str]]]:
    """Each port's path, text and headers: the file on disk when there is one (with its drift
    check), else what translate writes now, checked in memory with the ports of the headers it
    includes (where translate would write them); a port translate refuses is a skip with its reasons."""
    from .verify import Check
    ports: dict[str, tuple[Path, str, dict[str, str]]] = {}
    for backend in backends.port_names():
        if backends.get(backend).translator_path is None:
            continue
        t0 = time.perf_counter()
        made = made_or_refused(single(path, src), backend)
        bad = next((m.port for m in made if not m.port.ok), None)
        if bad is not None:
            why = "; ".join(d.format() for d in bad.diagnostics if d.severity == "error")
            rep.checks.append(Check("*", backend, None, "translate", "skip", f"not translated: {why}",
                                    seconds=time.perf_counter() - t0))
            continue
        dest = destination(path, backend)
        if dest.is_file():  # (a directory where the port belongs is no port: the in-memory one runs)
            rep.checks.append(replace(verifier._drift(dest, made[0].text, path, backend),
                                      seconds=time.perf_counter() - t0))  # the translation's and the comparison's
            ports[backend] = (dest, dest.read_text(encoding="utf-8", errors="replace"), {})
        else:
            headers = {str(m.path): m.text for m in made[1:]}
            headers.update({str(companion(m.path, k)): t for m in made for k, t in m.port.extra_files.items()})
            ports[backend] = (dest, made[0].text, headers)
        verifier.host_waves[(src.path, backend)] = host_wave_sites(made[0].port, backend)
        verifier.port_renamed[(src.path, backend)] = made[0].port.renamed
    return ports


def host_wave_sites(port, backend: str) -> list[tuple[int, int, str, str]]:
    """(line, column, text, what it becomes with `{wave}` for the width) of the original's host code
    the port replaced by the device's wave width (`dim3(32, block_size / 32)` ->
    `dim3(kp_device_warp_size(), kp_wave_rows(block_size))`: launchrows, a host WARP_SIZE)."""
    host = dialect.concept("host_wave_size").spelling(backend)
    rows = dialect.concept("host_wave_rows")
    cut = rows.spelling(backend)
    head, _, tail = cut.partition("{threads}") if cut else ("", "", "")
    out = []
    for n in port.notes:
        if host and n.after == host:
            out.append((n.location.line, n.location.column, n.before, "{wave}"))
        elif cut and n.after.startswith(head) and n.after.endswith(tail) and len(n.after) > len(head + tail):
            budget = n.after[len(head):len(n.after) - len(tail)]  # at least one row, as the port's helper
            out.append((n.location.line, n.location.column, n.before,
                        f"(({budget}) / {{wave}} > 0 ? ({budget}) / {{wave}} : 1)"))
    # a site inside another (the WARP_SIZE of `block_size / WARP_SIZE`, both rewritten) is the outer's
    return [s for s in out if not any(o is not s and o[0] == s[0] and o[1] <= s[1] and
                                      s[1] + len(s[2]) <= o[1] + len(o[2]) for o in out)]


def launch_at_wave(src: SourceFile, module: Module, name: str, got: Inferred, sites, wave: int, given):
    """The kernel's launch as the port's host code makes it on a device of `wave` lanes: the original's
    host code with the port's wave-width sites set to `wave`, read again (None: the same launch)."""
    if not sites or got.source != "host code":
        return None
    lines = src.text.split("\n")
    for line, col, before, after in sorted(sites, reverse=True):  # right to left: columns stay valid
        s = lines[line - 1] if line <= len(lines) else ""
        if s[col - 1:col - 1 + len(before)] != before:
            return None
        lines[line - 1] = s[:col - 1] + after.replace("{wave}", str(wave)) + s[col - 1 + len(before):]
    from .model import build
    m = build(SourceFile.from_text("\n".join(lines), src.path))
    m.visible = module.visible
    m.macros = {**{n: mac for n, mac in module.macros.items() if n not in m.macros}, **m.macros}
    # the sizes the original's inputs chose or scaled, fixed: the port runs on the same problem
    fixed = {n: Text(str(v), got.launch) for n, v in got.values.items() if given is None or n not in given.scalars}
    again = infer(m, name, [], replace(given or CommandLine(), scalars={**fixed, **(given.scalars if given else {})}))
    return again.spec if isinstance(again, Inferred) else None


def inputs_for(module: Module, name: str, spec, others: list[Module], given: CommandLine | None
               ) -> Inferred | NotRun:
    """The annotations' inputs where the kernel has them, else inferred ones."""
    if spec is not None:
        return Inferred(spec, ["inputs from the // @kp annotations"], "annotations", spec.loc)
    t0 = time.perf_counter()
    got = infer(module, name, others, given)
    if isinstance(got, NotRun):  # the check that says it is not run reports what finding that out took
        got.seconds = time.perf_counter() - t0
    return got


SOURCES = (".cu", ".cpp", ".cc", ".cxx", ".c")
NEIGHBOURS = 64  # files of a directory read for launches at most
PROJECT_FILES = 5000  # files of a project listed for launches at most (a vendored tree is cut)
PROJECT_LAUNCHERS = 8  # files of the project that launch the kernel read at most


def needs_neighbours(got: Inferred | NotRun) -> list[str]:
    """The launch or call another file may hold: `<<<` of the kernel, or a call of a function
    whose parameter sized it (one not run, or one whose value was chosen for want of a call)."""
    m = re.search(r"no launch of '(\w+)'", got.reason) if isinstance(got, NotRun) else None
    if m:
        return [m.group(1) + "<<<"]
    texts = [*got.chosen.values()] + ([got.reason] if isinstance(got, NotRun) else [])
    found = (re.search(r"is a parameter of (\w+)\(\) and no call", t) for t in texts)
    return list(dict.fromkeys(m.group(1) + "(" for m in found if m))


def neighbours(path: Path, wanted: list[str], named: tuple[Path, ...] = ()) -> list[Module]:
    """The models of the project files whose text launches (`name<<<`) or calls (`name(`) what
    `wanted` names: those next to `path` (its directory and the one above), then, for what none of
    them names, those of its whole project (project_files: alien's kernels launched from another
    directory's .cu, through the kernel's header), the nearest first; never a file outside the
    project (project_callers.roots: the one above a lone file's directory is not its project)."""
    from . import project_callers
    from .errors import KernelportError
    from .project_ports import configured_project
    # a launch: `k<<<`, or `k` an argument of a call (a launch macro's `KERNEL_CALL(k, ...)`, `cudaLaunchKernel((void*)k`)
    pats = {w: re.compile(rf"\b{re.escape(w[:-3])}\s*(?:<[^;{{}}]*?>)?\s*(?:<<<|[,)])" if w.endswith("<<<")
                          else rf"\b{re.escape(w[:-1])}\s*\(") for w in wanted}
    out, project, seen = [], configured_project(), {path.resolve()}
    within = project_callers.roots(path, named)

    def take(files, names, limit):
        found = set()
        for f in files:
            if len(out) >= limit or f.resolve() in seen or not project_callers.inside(f, within):
                continue
            seen.add(f.resolve())
            try:
                text = f.read_text(encoding="utf-8", errors="replace")
                hits = {w for w in names if w[:-3 if w.endswith("<<<") else -1] in text and pats[w].search(text)}
                if hits:
                    out.append(project.module(f))
                    found |= hits
            except (KernelportError, OSError, RecursionError):
                continue  # a file that cannot be read launches nothing we can use
        return found

    near = [p for d in dict.fromkeys([path.parent, path.parent.parent]) if d.is_dir()
            for p in sorted(p for p in d.iterdir() if p.suffix in SOURCES and p.is_file() and p != path)[:NEIGHBOURS]]
    missing = [w for w in wanted if w not in take(near, wanted, len(near) + 1)]
    if missing:
        take(project_files(path), missing, len(out) + PROJECT_LAUNCHERS)
    return out


def project_files(path: Path) -> list[Path]:
    """The source and header files of `path`'s project (the directory of the nearest pyproject.toml
    with a [tool.kernelport] table; none: no project), at most PROJECT_FILES of them (hidden
    directories skipped), those sharing the most directories with `path` first."""
    import os
    from .includes import HEADER_SUFFIXES
    from .lint import config
    cfg = config.find(path.parent)
    if cfg.path is None:
        return []
    root, here, files = cfg.path.parent.resolve(), path.resolve().parent.parts, []
    for d, subs, names in os.walk(root):
        subs[:] = sorted(s for s in subs if not s.startswith("."))
        files += [Path(d) / n for n in sorted(names) if n.endswith(SOURCES + HEADER_SUFFIXES)]
        if len(files) >= PROJECT_FILES:
            break

    def shared(f: Path) -> int:
        n = 0
        for a, b in zip(f.parent.parts, here):
            if a != b:
                break
            n += 1
        return n
    return sorted(files[:PROJECT_FILES], key=lambda f: -shared(f))


def launched_from(got: Inferred | NotRun, path: Path) -> Inferred | NotRun:
    """`got` with a line naming the file its launch was read from, where that is not `path`."""
    at = got.launch if isinstance(got, Inferred) else None
    if at is not None and Path(at.path).resolve() != path.resolve():
        got.inferred.insert(0, f"the launch read from {at.path}:{at.line} (another file of the project)")
    return got


# a kernel file's includer: a source, or a header that includes it after its macros (gpuSteiner's CUDAMST.h:
# `#define MAX_THREADS_PER_BLOCK 512` ... `#include "CUDAMST_kernel.cu"`)
INCLUDERS = SOURCES + (".h", ".cuh", ".hpp", ".hh")
_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def includer_context(path: Path) -> tuple[str, str] | None:
    """(path, text before the #include) of the file of the same directory that includes `path`
    (hecbench's main.cu: `#include "StringSearch.h"` then `#include "kernels.cu"`): the sizes and
    macros a kernel file compiled only as part of another sees; None when none includes it."""
    target = path.resolve()
    files = sorted(p for p in path.parent.iterdir() if p.suffix in INCLUDERS and p.is_file() and p != path) \
        if path.parent.is_dir() else []
    for f in files[:NEIGHBOURS]:
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for m in _QUOTED_INCLUDE.finditer(text):
            if (f.parent / m.group(1)).resolve() == target:
                return str(f), text[: m.start()]
    return None


SHRINK = 6  # an original past its time budget is run again with size targets 2**6 times smaller


def run_oracle(verifier, src: SourceFile, module: Module, name: str, got: Inferred, ports: dict, rep,
               smaller=None) -> bool:
    """The oracle's and every port's checks of one kernel; False when the oracle could not run.
    smaller: inputs inferred at smaller sizes, for an original that runs past its budget."""
    from .verify import SAME_RUN, Check, _emu_error, _template_args
    from .emulator import BudgetExceeded, EmulatorError, HeapExhausted, KernelFault, run_kernel

    spec = got.spec
    if verifier.seed is not None:
        spec.seed = verifier.seed
    kernel = module.functions[name]
    args = inputs.make_args(kernel, spec)
    outs = [a.name for a in spec.args.values() if a.role in ("out", "inout")]
    block, shared, targs = spec.dims("block"), spec.shared_bytes(), _template_args(spec)
    source = backends.source()
    wave = source.runs[0].wave

    context = None  # the includer's lines, where the file alone cannot run (includer_context)
    filled = host_filled(module)

    def run(text, dialect, w, schedule, where, headers=None, file_scope=None, launch=None, port_of=None, watch=False):
        at = launch or spec  # a port whose host code launches by the wave width: its own launch
        # the kernel as the port spells it (Metal renames a reserved word: `kernel` -> `kernel_`)
        own_name = verifier.port_renamed.get((src.path, port_of), {}).get(name, name) if port_of else name
        given = args
        if launch is not None:  # its scalars too (simpleVote's `warp_size` argument); the same buffers
            own = inputs.make_args(kernel, launch)
            given = {k: (v if isinstance(v, np.ndarray) or k not in own else own[k]) for k, v in args.items()}
        return run_kernel(text, own_name, args={k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in given.items()},
                          grid=at.dims("grid", w), block=at.dims("block"), shared_bytes=at.shared_bytes(), wave=w,
                          schedule=schedule, watch=watch,
                          seed=spec.seed, backend=dialect, port_of=port_of, template_args=targs, path=str(where),
                          timeout=verifier.timeout, headers=headers, file_scope=file_scope, context=context,
                          redefine=got.redefine, generate=filled if file_scope is None else (),
                          offsets={b: a.offset for b, a in spec.args.items() if a.offset},
                          global_races=port_of is None,  # (the original's run: is it an oracle at all)
                          arg_order=tuple(p.name for p in kernel.params) if port_of else ())

    limits = (EmulatorError, BudgetExceeded, RecursionError, MemoryError, ValueError, TypeError, KeyError,
              IndexError, NotImplementedError, ZeroDivisionError, OverflowError)
    t0 = time.perf_counter()
    how = f"inputs ({got.source}): " + "; ".join(got.inferred)
    grown: dict[str, int] = {}  # re-runs per buffer grown
    while True:
        try:
            try:
                oracle = run(src.text, source.name, wave, verifier.schedules[0], src.path)
            except EmulatorError as e:  # a kernel file compiled only inside another: run it with its includer's lines
                if isinstance(e, (KernelFault, BudgetExceeded)) or context is not None or \
                        (context := includer_context(Path(src.path))) is None:
                    raise
                oracle = run(src.text, source.name, wave, verifier.schedules[0], src.path)
            break
        except KernelFault as e:  # a defect of the original on these inputs, never a failed port
            if grown.get(e.buffer, 0) < MAX_GROWTH and sum(grown.values()) < MAX_RERUNS and \
                    (grow_chosen(got, e) or grow_unscaled(got, e)):
                grown[e.buffer] = grown.get(e.buffer, 0) + 1
                args, how = inputs.make_args(kernel, spec), f"inputs ({got.source}): " + "; ".join(got.inferred)
                continue
            if smaller is not None and past_shared(got, e) and \
                    (again := halved(got, smaller, verifier.given, _emu_error(e), array_kind(got, e))) is not None:
                return run_oracle(verifier, src, module, name, again, ports, rep, smaller)  # chosen sizes halved
            again = smaller() if smaller is not None and capped(got, e) else None
            if isinstance(again, Inferred) and _work(again) < _work(got):  # sizes verify chose, a reach past the cap
                again.inferred.append(f"sizes scaled down {1 << SHRINK} times further: at the first ones the original "
                                      f"reached past a chosen buffer the emulator's byte cap holds ({_emu_error(e)})")
                again.unscaled = {b: spec.length(b) for b in spec.args}
                return run_oracle(verifier, src, module, name, again, ports, rep)
            over = past_shared_text(got, wave, _emu_error(e), array_kind(got, e)) if past_shared(got, e) else None
            rep.checks.append(Check(name, ORACLE, wave, "oracle", "skip", (over
                                    if over is not None else _faults(got, wave, _emu_error(e))) + f"; {how}",
                                    seconds=time.perf_counter() - t0))
            return False
        except limits as e:
            # too slow at the first sizes (polybench's O(N^3) loops), or a heap too small for the threads' mallocs
            # at sizes verify chose (not the program's own: there a NULL in some threads is the program's)
            again = smaller() if smaller is not None and (isinstance(e, BudgetExceeded) or
                                                          isinstance(e, HeapExhausted) and got.chosen) else None
            if isinstance(again, Inferred) and _work(again) < _work(got):
                why = _PAST_BUDGET if isinstance(e, BudgetExceeded) else \
                    "found the device heap full for some threads (at sizes chosen, not read)"
                again.inferred.append(f"sizes scaled down {1 << SHRINK} times further: at the first ones the "
                                      f"original {why} ({_emu_error(e)})")
                again.unscaled = {b: spec.length(b) for b in spec.args}
                return run_oracle(verifier, src, module, name, again, ports, rep)
            cut = is_cut(e) and cut_detail(e, f"the original at wave {wave} ({verifier.schedules[0]} schedule)")
            rep.checks.append(Check(name, ORACLE, wave, "oracle", "skip", f"not run: {cut}; {how}" if cut else
                                    f"not run: the original at wave {wave} could not run on the emulator "
                                    f"({_emu_error(e) if isinstance(e, EmulatorError) else f'{type(e).__name__}: {e}'}); "
                                    f"{how}", seconds=time.perf_counter() - t0, budget=e.seconds if cut else None))
            return False
    if not outs:
        rep.checks.append(Check(name, ORACLE, wave, "oracle", "skip", "not run: the kernel writes no buffer to "
                                "compare (every pointer parameter is const)", seconds=time.perf_counter() - t0))
        return False
    across = [r for r in oracle.races if r.thread // wave != r.other_thread // wave] + oracle.global_races
    if across:  # its outputs hang on the order its warps run in (radixsort's findRadixOffsetsK on unsorted
        # keys): no oracle, every port would differ from it by chance (a race inside a warp is lockstep's)
        rep.checks.append(Check(name, ORACLE, wave, "oracle", "skip", _faults(got, wave, f"{across[0]}; "
                                "its outputs depend on the order its warps (or blocks) run in") + f"; {how}",
                                seconds=time.perf_counter() - t0))
        return False
    expected = {k: oracle.outputs[k] for k in outs}
    rep.checks.append(Check(name, ORACLE, wave, "oracle", "pass", f"the original at wave {wave} ran "
                            f"({verifier.schedules[0]} schedule): the oracle; {how}", seconds=time.perf_counter() - t0))
    if verifier.device is not None:
        from .verify_device import device_against_oracle
        device_against_oracle(verifier, src, kernel, spec, args, targs, outs, oracle, rep, filled, got.redefine,
                              context)
    blamed = False  # the original's races check, once: where a port inherits one of its races
    orders: dict[str, str | None] = {}  # schedule -> where the original's own run in it left the oracle (schedule_orders)
    spent = None  # (the run that spent its budget, the seconds): the kernel's later port runs are not made
    for r in backends.all_runs():
        if backends.get(r.backend).is_source or r.backend not in ports or r.backend not in spec.targets:
            continue
        where, text, headers = ports[r.backend]
        own = launch_at_wave(src, module, name, got, verifier.host_waves.get((src.path, r.backend)), r.wave,
                             verifier.given) if r.wave != wave else None
        watched = None  # the block run, where it stands for the other schedules (emulator.order)
        for schedule in verifier.schedules:
            t0 = time.perf_counter()
            if spent is not None:  # one budget per kernel, as verify's numeric checks spend it
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", verifier._skip(r.backend, "emulate"),
                                        f"not run: {spent[0]} spent the kernel's budget", r.arch, schedule,
                                        time.perf_counter() - t0, budget=spent[1]))
                continue
            try:
                # the original's file-scope variables, as a port's own (its __constant__ memory) or as a
                # parameter (Metal binds __constant__ arrays as buffers): the contents the original's had
                res = watched or run(text, r.dialect, r.wave, schedule, where or src.path, headers, oracle.globals,
                                     own, r.backend, len(verifier.schedules) > 1)
            except NotImplementedError as e:
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "skip", f"not yet: {e}", r.arch,
                                        schedule, time.perf_counter() - t0))
                continue
            except limits as e:
                if is_cut(e):  # a skip, located: the port's loop that ran on where the original's ended
                    spent = (f"the {r.backend} wave {r.wave} run ({schedule})", e.seconds)
                    rep.checks.append(Check(name, r.backend, r.wave, "numeric", verifier._skip(r.backend, "emulate"),
                                            cut_detail(e, f"{spent[0]} of `{name}`") + f" (the original ran in "
                                            f"{oracle.seconds:.1f} s)", r.arch, schedule, time.perf_counter() - t0,
                                            budget=e.seconds))
                    continue
                detail = _emu_error(e) if isinstance(e, EmulatorError) else \
                    f"the emulator could not run the port ({type(e).__name__}: {e}) where it ran the original"
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "fail", detail, r.arch, schedule,
                                        time.perf_counter() - t0))
                continue
            cmp = compare.compare({k: res.outputs[k] for k in outs}, expected, "auto", None, res.bounds,
                                  oracle.bounds, profile_bins=verifier.profile_bins, undefined=oracle.undefined,
                                  got_undefined=res.undefined)
            secs = time.perf_counter() - t0
            watched = watched or (res if res.independent else None)
            also = (SAME_RUN.format(res.schedule) if res.schedule != schedule else "") + undefined_note(cmp, oracle)
            design = None if cmp.ok or own is None else \
                _by_design(lambda: run(src.text, source.name, r.wave, schedule, src.path, launch=own), res, outs,
                           verifier, limits)
            if cmp.ok and cmp.unknown:
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "skip", compare.unknown_detail(
                    cmp, [*getattr(res, "bounds_lost", ()), *getattr(oracle, "bounds_lost", ())]) + also,
                    r.arch, schedule, secs))
            elif (why := unjudged.skip_detail(cmp, oracle)) is not None:
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "skip", why, r.arch, schedule, secs))
            elif cmp.ok:
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "pass",
                                        f"matches the original at wave {wave} (max abs diff {cmp.max_abs:.3g}){also}"
                                        f"{stream_note(text, r.backend)}",
                                        r.arch, schedule, secs, profile=cmp.profiles))
            elif design is not None:
                m = cmp.mismatch
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "pass",
                                        f"by design: the launch follows the device's wave width (the port's host code "
                                        f"reads it where the original's writes {_sites(verifier, src, r.backend)}), so "
                                        f"at wave {r.wave} the port differs from the original at wave {wave} "
                                        f"({m.where} = {m.got!r}, not {m.want!r}) and matches the original on a "
                                        f"{r.wave}-lane device (max abs diff {design[0].max_abs:.3g}){also}",
                                        r.arch, schedule, secs + design[1], profile=design[0].profiles))
            elif (order := _own_order(orders, schedule, verifier, lambda: run(src.text, source.name, wave, schedule,
                                                                              src.path), expected, oracle, limits)) \
                    and (cmp := unmoved(order, res.outputs, expected, oracle, res, verifier.profile_bins)).ok:
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "skip", skip_detail(
                    order[0], schedule, verifier.schedules[0]) + also, r.arch, schedule, time.perf_counter() - t0))
            else:
                m = cmp.mismatch
                rep.checks.append(Check(name, r.backend, r.wave, "numeric", "fail",
                                        f"{m.where} = {m.got!r}{compare.UNSET * m.never_written}, the original at "
                                        f"wave {wave} gives "
                                        f"{m.want!r} (bound {m.bound:.3g}); {m.count} element(s) outside the bound{also}",
                                        r.arch, schedule, secs,
                                        {"buffer": m.buffer, "index": m.index, "member": m.member, "port": m.got,
                                         "reference": m.want, "bound": m.bound}, cmp.profiles))
            t0 = time.perf_counter()
            races, inherited = inherited_races.split(res.races, oracle.races)  # (the original's: on its row)
            if inherited and not blamed:
                blamed = True
                rep.checks.append(Check(name, ORACLE, wave, "races", "fail", inherited_races.original_detail(
                    inherited, oracle.races), seconds=time.perf_counter() - t0))
            rep.checks.append(Check(name, r.backend, r.wave, "races", "fail" if races else "pass",
                                    inherited_races.detail(races, inherited, also), r.arch, schedule, secs))
    return True


def undefined_note(cmp, ran) -> str:
    """'; N element(s) stored from values never written: not compared (stored at FILE:LINE:COL)' where
    the comparison left such elements of `ran` (a RunResult: the original's run) out, else ''."""
    from .emulator.undefined import note
    return f"; {note(cmp.undefined, getattr(ran, 'undefined_at', {}), cmp.undefined_in)}" if cmp.undefined else ""


def _by_design(run_original, res, outs, verifier, limits):
    """A port whose launch at this wave follows the device's wave width (its host code reads the width
    where the original's writes 32: simpleVote's `warp_size`, a WARP_SIZE) runs another launch than the
    original at wave 32, so their outputs differ by design; the comparison that says whether the port
    is right is with the original on a device of the port's width: the original's host code with the
    same sites set to the width (the port's launch) and its kernel at that width.  That comparison
    when the port matches it, else None (the failure stands)."""
    t0 = time.perf_counter()
    try:
        ref = run_original()
    except limits:
        return None
    cmp = compare.compare({k: res.outputs[k] for k in outs}, {k: ref.outputs[k] for k in outs}, "auto", None,
                          res.bounds, ref.bounds, profile_bins=verifier.profile_bins, undefined=ref.undefined,
                          got_undefined=res.undefined)
    return (cmp, time.perf_counter() - t0) if cmp.ok else None


def _own_order(orders: dict, schedule: str, verifier, run_original, expected, oracle, limits) -> tuple | None:
    """schedule_orders.own_order, once per kernel and schedule; None in the oracle's own schedule."""
    if schedule == verifier.schedules[0]:
        return None
    if schedule not in orders:
        orders[schedule] = own_order(run_original, expected, oracle, limits, verifier.profile_bins)
    return orders[schedule]


def _sites(verifier, src, backend: str) -> str:
    sites = verifier.host_waves.get((src.path, backend)) or []
    return ", ".join(f"`{before}` at {line}:{col}" for line, col, before, _ in sites[:3])


# Re-runs of the original with a chosen length grown: per buffer (cfd's seven chosen buffers each
# grow from the thread count to 4 or 8 times it), and per kernel.
MAX_GROWTH, MAX_RERUNS = 12, 40


def _work(got: Inferred) -> int:
    """Threads plus buffer elements: what a smaller run must have less of."""
    spec = got.spec
    return math.prod(spec.dims("grid")) * math.prod(spec.dims("block")) + sum(spec.length(b) for b in spec.args)


def host_filled(module: Module) -> set[str]:
    """The file's uninitialised constant-memory variables (`__constant__ float w[16];`): the host
    fills them (cudaMemcpyToSymbol), so the oracle gives them seeded data, not zeros, and every
    port the same contents."""
    word = dialect.concept("constant_mem").name(backends.source().name)
    src, out = module.source, set()
    for item in file_scope_items(src):
        if item.type == "declaration" and any(src.text_of(c) == word for c in item.children) and \
                not any(d.type == "init_declarator" for d in item.children_by_field_name("declarator")):
            out |= defined_names(src, item)
    return out


def grow_chosen(got: Inferred, fault) -> bool:
    """Grow a buffer whose length kernelport chose (no allocation in host code it could read) when
    the original reads or writes past its end: the length was a guess, the kernel's own reach
    decides it (at least doubled, to cover the faulting element; within the emulator's byte cap).
    A fault in a buffer whose length host code gives stays a fault; so does a negative index."""
    from .infer_inputs import MAX_BYTES
    spec, buf = got.spec, fault.buffer
    key = f"{buf}[]"
    if buf is None or key not in got.chosen or buf not in spec.args or fault.index < fault.size:
        return False
    a, n = spec.args[buf], spec.length(buf)
    new = max(2 * n, -(-(fault.index + 1) * n // fault.size))  # fault.size counts a float4's lanes
    others = sum(spec.length(b) * inputs.item_bytes(x) for b, x in spec.args.items() if b != buf)
    if others + new * inputs.item_bytes(a) > MAX_BYTES:
        return False
    spec.args[buf] = replace(a, length=Text(str(new), a.length.loc))
    was = _GROWN.search(got.chosen[key])
    first = int(was.group(1)) if was else n
    why = f"grown to {new} after the original accessed {buf}[{fault.index}] past {n} elements, from {first} chosen"
    got.chosen[key] = _GROWN.sub("", got.chosen[key]) + "; " + why
    got.inferred = [re.sub(rf"^({re.escape(buf)}: \w+ {re.escape(a.type)})\[{n}\](.*)\(length chosen: ",
                           rf"\g<1>[{new}]\g<2>(length chosen: {why}; ", _GROWN_NOTE.sub("", note))
                    for note in got.inferred]
    return True


def capped(got: Inferred, fault) -> bool:
    """A fault past the end of a buffer whose length kernelport chose, at sizes it chose, that
    grow_chosen could not grow (the emulator's byte cap): the reach is the chosen sizes', and at
    smaller sizes it may fit.  A buffer host code sizes, a negative index, stay faults."""
    buf = fault.buffer
    return buf is not None and f"{buf}[]" in got.chosen and buf in got.spec.args and \
        fault.index is not None and fault.index >= fault.size and \
        any(not k.endswith("[]") for k in got.chosen)  # a size chosen, not only a length


def grow_unscaled(got: Inferred, fault) -> bool:
    """Give a buffer back the length it had before the sizes were scaled down (an original past its
    budget) when the original accesses past its scaled end: a host-only size that set the length
    (numData) shrank while the kernel's own reach (its fixed indices, another size) did not.  Never
    past the length before the scaling (nor the emulator's byte cap): beyond it, the fault is the original's."""
    from .infer_inputs import MAX_BYTES
    spec, buf = got.spec, fault.buffer
    if buf is None or buf not in got.unscaled or buf not in spec.args or fault.index < fault.size:
        return False
    a, n, cap = spec.args[buf], spec.length(buf), got.unscaled[buf]
    need = -(-(fault.index + 1) * n // fault.size)  # fault.size counts a float4's lanes
    if need > cap or n >= cap:
        return False
    new = min(cap, max(2 * n, need))
    others = sum(spec.length(b) * inputs.item_bytes(x) for b, x in spec.args.items() if b != buf)
    if others + new * inputs.item_bytes(a) > MAX_BYTES:
        return False
    spec.args[buf] = replace(a, length=Text(str(new), a.length.loc))
    got.inferred.append(f"{buf}: grown from {n} to {new} elements (at most its {cap} before the scaling) after the "
                        f"original accessed {buf}[{fault.index}]: the scaling shrank its length, not the kernel's reach")
    return True


_GROWN = re.compile(r"; grown to \d+ after the original accessed \S+ past \d+ elements, from (\d+) chosen")
_GROWN_NOTE = re.compile(r"(?<=\(length chosen: )grown to \d+ after the original accessed \S+ past \d+ elements, "
                         r"from \d+ chosen; ")


_PAST_BUDGET = "ran past its budget"  # (the note of sizes scaled down for the time budget, _faults reads it)


def _faults(got: Inferred, wave: int, fault: str) -> str:
    """The not-run text of an original that faults on the inputs it was given.  Where those are sizes scaled
    down only because the first ones ran past the time budget (fault-free so far), the fault is the scaling's:
    a size the kernel assumes a multiple of its tile (llm.c matmul_forward_kernel4's OC = 3072 -> 192, not
    a multiple of its 128-column block: blocks overlap, a race) -- a cut by the budget, the fault named, never
    counted as the original's (at the first sizes none was seen; a racy original, systemWideAtomics, reads so too)."""
    if any(f"original {_PAST_BUDGET} (" in line for line in got.inferred):
        return (f"not run: cut by the time budget: at the first sizes the original at wave {wave} ran past its "
                f"budget, and at the sizes scaled down for it the original faults ({fault}): the kernel's fault or "
                "one of sizes it does not assume, not told apart (hint: raise the budget, --timeout, or pass the "
                "program's sizes with --arg)")
    what = "chosen" if got.chosen else "inferred" if got.source == "host code" else "given"
    hint = ("pass other values: " + ", ".join(f"--arg {n[:-2]}=TYPE[LENGTH]" if n.endswith("[]") else
                                              f"--arg {n}=VALUE" for n in got.chosen) if got.chosen else
            "pass the inputs the program gives it: --arg NAME=TYPE[LENGTH]:GENERATOR (an index buffer "
            "read from a file needs contents in range), --grid, --block")
    return f"not run: the original faults at wave {wave} on {what} inputs ({fault}) (hint: {hint})"


def not_run(name: str, why: NotRun):
    from .verify import Check
    return Check(name, ORACLE, backends.source().runs[0].wave, "oracle", "skip", why.format(), seconds=why.seconds)
