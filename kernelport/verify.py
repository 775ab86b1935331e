"""`kernelport verify`: does every port compute what the original computes, at its wave width?

Per kernel file: drift (committed ports equal what translate produces now), compile with every toolchain found, and
per annotated kernel the scalar C reference against the emulator running the original (wave 32) and each port parsed
back from its own text (HIP at wave 64 for gfx90a, 32 for gfx1030, Metal at 32), under each schedule, with races
in shared memory reported."""
from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from .check_budget import cut_detail, is_cut
from .depth import big_stack
from . import absent_libraries, annotations, backends, compare, inherited_races, inputs, output, run_paths
from .errors import KernelportError
from .includes import check_includes
from .model import build
from .source import SourceFile
from .project_ports import made_or_refused, run_source, single
from .translate import companion, destination
from .verify_compiles import Compiles, compile_jobs
from .verify_cache import Cache, compile_group, file_digest, kernel_digest, key as cache_key
from .verify_shard import kernel_files, parse_shard, shard_of  # noqa: F401 - verify's API

SCHEDULES = ("block", "warp", "thread")  # SAME_RUN: a schedule whose result is the block's run (emulator.order)
SAME_RUN = (" (the {} schedule's run: between barriers no thread read or wrote what another wrote, and each warp "
            "collective met the same lanes it meets one thread at a time, so threads in any order compute the same)")


@dataclass
class Check:
    """One check of verify: a kernel, backend and kind, and its verdict."""
    kernel: str
    backend: str
    wave: int | None
    kind: str  # drift | compile | numeric | races | reference | device
    status: str  # pass | fail | skip | info (shown, never a verdict: the original at wave 64)
    detail: str
    target: str = ""
    schedule: str = ""
    seconds: float = 0.0
    explain: dict | None = None
    profile: dict | None = None  # numeric: |port - reference| and the bound over each buffer (--format html)
    cached: bool = False  # the verdict read from the cache: `seconds` is this run's lookup, not the check's run
    run_seconds: float | None = None  # cached: the check's own seconds, measured in the run that stored it
    budget: float | None = None  # a skip cut by its wall-clock budget (s, verify --timeout): never cached


@dataclass
class FileReport:
    """One file's checks in verify."""
    path: str
    kernels: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    error: str | None = None
    note: str | None = None  # why the file was skipped (no annotated kernel): neither pass nor fail

    @property
    def failed(self) -> bool:
        return self.error is not None or any(c.status == "fail" for c in self.checks)

    def to_dict(self) -> dict:
        return {"path": self.path, "kernels": self.kernels, "error": self.error, "note": self.note,
                "status": "fail" if self.failed else "skip" if self.note else "pass",
                "checks": [dict(asdict(c), run_seconds=when_run(c)) for c in self.checks]}


def when_run(c: Check) -> float:
    """What the check took where it ran: this run, or for a cached verdict the run that stored it."""
    return c.seconds if c.run_seconds is None else c.run_seconds


def _template_args(spec: annotations.KernelSpec) -> list[str] | None:
    if not spec.instantiate:
        return None
    from .cexpr import split_top_level
    return [p for p, _ in split_top_level(spec.instantiate[0].text.strip()[1:-1])]


class Verifier:
    def __init__(self, require: set[str] = frozenset(), seed: int | None = None,
                 schedules: tuple[str, ...] = SCHEDULES, device: str | None = None, native_reference: bool = True,
                 profile: bool = False, cache: bool = True, timeout: float | None = None,
                 oracle: str = "reference", given=None, named: tuple[Path, ...] = ()):
        # oracle "reference": the annotated reference where there is one, else the original at wave 32;
        # "original": the original at wave 32 for every kernel (verify --oracle original).
        self.oracle, self.given, self.named = oracle, given, tuple(named)  # CommandLine; the run's dirs (a project)
        self.require, self.seed, self.schedules, self.device = set(require), seed, schedules, device
        self.timeout = timeout  # verify --timeout: wall-clock seconds of one check (an emulator run, the reference)
        self.native_reference = native_reference  # False: the reference is interpreted, never compiled
        self.profile_bins = 240 if profile else 0
        self.cache = Cache(enabled=cache)
        self.ran: float | None = None  # the last translation or lint from the cache: its seconds when it ran
        # (file, backend) -> where the port's host code asks the device for its wave width (verify_oracle)
        self.host_waves: dict[tuple[str, str], list] = {}
        self.port_renamed: dict[tuple[str, str], dict[str, str]] = {}  # (file, backend) -> the port's renames

    # -- helpers ----------------------------------------------------------------------------
    def _skip(self, backend: str, what: str) -> str:
        tools = set(backends.get(backend).tools) if backend in backends.REGISTRY else set()
        return "fail" if backend in self.require or tools & self.require else "skip"

    def verify(self, path: Path) -> FileReport:
        rep = FileReport(str(path))
        try:
            src = run_source(path)  # parsed as translate parses it (the macros its includes define)
            if output.state(src.text) != "foreign":  # a port (k.portable.cu is .cu too): its source is verified
                rep.note = f"{path}: skipped: a port kernelport wrote (verify its source; the port is checked there)"
                return rep
            src.check_syntax(dead_ok=True)  # as translate reads it: a branch no compile of the run reaches may not parse
            module = self._module = build(src)
            specs = annotations.parse(module, reference=False)  # no reference: the original is the oracle
            if specs:
                check_includes(path, src.text)
        except KernelportError as e:
            rep.error = e.format()
            return rep
        rep.kernels = list(specs)
        if not specs:
            return self._unannotated(path, src, module, rep)
        targets = sorted({t for s in specs.values() for t in s.targets}, key=backends.port_names().index)
        compiling = self._compile_start(path, None)  # the original's, begun before its ports are translated
        with compiling.abandoned_on_error():
            ports = self._drift_and_ports(src, path, targets, rep)
        at = len(rep.checks)
        compiling.begin(compile_jobs(path, ports, original=False))
        try:  # the compilers run while lint and the emulator do (their checks stand where they always stood)
            self._lint(path, ports, rep)
            for name, spec in specs.items():
                if self.oracle == "original" or spec.reference is None:
                    from .verify_oracle import run_oracle
                    from .infer_inputs import Inferred
                    run_oracle(self, src, module, name, Inferred(spec, ["from the // @kp annotations"], "annotations"),
                               ports, rep)
                else:
                    self._numeric_cached(path, src, module, name, spec, ports, rep)
        finally:
            rep.checks[at:at] = self._compile_checks(compiling)
        return rep

    def _unannotated(self, path: Path, src: SourceFile, module, rep: FileReport) -> FileReport:
        """Kernels without annotations: inputs from the host code or the command line, the
        original at wave 32 as the oracle; a file where no kernel can run is skipped with a note."""
        from . import verify_oracle as vo
        from .project_ports import configured_project
        try:
            module = configured_project().module(path)  # the macros its headers define size the launches too
        except KernelportError:
            pass
        names = list(dict.fromkeys(k.name for k in module.kernels))
        got = {n: vo.inputs_for(module, n, None, [], self.given) for n in names}
        read_with: dict[str, list] = {}  # the other files a kernel's inputs were read with
        # Launched, or its launching function called, from another file of the project (rodinia's main.cu).
        # A value chosen for want of a call is read from that call where another file holds it.
        wanted = {n: w for n, g in got.items() if (w := vo.needs_neighbours(g))}
        if wanted:
            others = vo.neighbours(path, [w for ws in wanted.values() for w in ws], self.named)
            for n in wanted if others else ():
                again = vo.inputs_for(module, n, None, others, self.given)
                if isinstance(again, vo.Inferred) or isinstance(got[n], vo.NotRun):
                    got[n], read_with[n] = vo.launched_from(again, path), others
        why = "; ".join(f"{n}: not run: {g.reason}" for n, g in got.items() if isinstance(g, vo.NotRun))
        if all(isinstance(g, vo.NotRun) for g in got.values()):
            rep.note = (f"{path}: skipped: no annotated kernel (verify needs // @kp lines; see docs/annotations.md)"
                        + (f", and no kernel's inputs could be inferred ({why})" if names else ""))
            rep.checks += [vo.not_run(n, g) for n, g in got.items()]
            return rep
        rep.kernels = names
        ports = vo.port_texts(self, path, src, rep)
        for n, g in got.items():
            if isinstance(g, vo.NotRun):
                rep.checks.append(vo.not_run(n, g))
            else:
                # an original too slow at the inferred sizes runs once more at far smaller ones
                vo.run_oracle(self, src, module, n, g, ports, rep, smaller=(lambda n=n, given=self.given, shrink=vo.SHRINK: vo.infer(
                    module, n, read_with.get(n, []), given, shrink=shrink)) if g.source == "host code" else None)
        return rep

    def _numeric_cached(self, path, src, module, name, spec, ports, rep) -> None:
        """A kernel's numeric and race checks, from the cache when the original, the ports, the
        seed and the schedules are what they were (never with --device).  --require is not in the
        key: a check the emulator cannot run is stored as a skip, and this run's --require decides
        whether it fails (so `verify` then `verify --require ...` emulates once)."""
        from . import toolchains  # not the reference: an unchanged run never imports the emulator
        if self.device is not None:
            return self._numeric(src, module, name, spec, ports, rep)
        t0 = time.perf_counter()
        k = cache_key("numeric", name, kernel_digest(path), sorted((b, p[1]) for b, p in ports.items()),
                      self.seed, self.schedules, self.native_reference, self.profile_bins, self.timeout,
                      toolchains.c_compiler_identity() if self.native_reference else None)
        cached = self.cache.get(k, [Check])
        if cached is not None:
            for c in cached:  # this run's seconds: the lookup, shared by the checks it restored
                c.seconds, c.cached, c.run_seconds = (time.perf_counter() - t0) / len(cached), True, c.seconds
        else:
            n0, require = len(rep.checks), self.require
            self.require = set()  # every unrunnable check a skip in what is stored
            try:
                self._numeric(src, module, name, spec, ports, rep)
            finally:
                self.require = require
            cached = rep.checks[n0:]
            del rep.checks[n0:]
            if all(c.budget is None for c in cached):  # (a cut check may end under a larger budget, or load)
                self.cache.put(k, cached)
        rep.checks.extend(replace(c, status=self._skip(c.backend, "emulate")) if c.status == "skip" else c
                          for c in cached)

    def _drift_and_ports(self, src: SourceFile, path: Path, targets: list[str], rep: FileReport) -> dict:
        ports: dict[str, tuple[Path | None, str]] = {}
        for backend in targets:
            if backends.get(backend).translator_path is None:
                rep.checks.append(Check("*", backend, None, "drift", self._skip(backend, "translate"),
                                        f"not yet: kernelport cannot translate to {backend} in this version"))
                continue
            dest = destination(path, backend)
            t0 = time.perf_counter()  # a port's drift check takes its translation; a sidecar's its comparison
            error, text, extra_files, headers, renamed = self._translation(path, src, backend)
            self.port_renamed[(src.path, backend)] = renamed  # the port's names: what its kernels are run as
            ran, t1 = self.ran, time.perf_counter()  # ran: the translation's seconds when a cached one ran
            if error is not None:
                rep.checks.append(Check("*", backend, None, "translate", "fail", error, seconds=t1 - t0,
                                        cached=ran is not None, run_seconds=ran))
                continue
            if not dest.is_file():  # (a directory there is no port either: said, never read)
                rep.checks.append(Check("*", backend, None, "drift", "fail",
                                        f"{dest} is {'not a file' if dest.exists() else 'missing'} "
                                        f"(run: kernelport translate {path} --to {backend})",
                                        seconds=time.perf_counter() - t0))
                # run in memory, with its headers' ports and its own companions (kp_warp.h)
                ports[backend] = (None, text, {**dict(headers), **{companion(dest, k): t for k, t in extra_files.items()}})
                continue
            on_disk = dest.read_text(encoding="utf-8", errors="replace")
            for p, want in [(dest, text)] + [(companion(dest, k), t) for k, t in extra_files.items()] + headers:
                check = self._drift(p, want, path, backend)
                check.seconds = time.perf_counter() - t0  # the port's check carries the translation
                if ran is not None:  # a cached translation's seconds when it ran, and this comparison's
                    check.cached, check.run_seconds, ran = True, ran + time.perf_counter() - t1, None
                rep.checks.append(check)
                t0 = t1 = time.perf_counter()
            ports[backend] = (dest, on_disk, {})
        return ports

    def _translation(self, path: Path, src: SourceFile, backend: str) -> tuple:
        """(the errors or None, the port's text, its companions' texts, [(header port, text)], the names the
        port spells otherwise (Metal's `kernel` -> `kernel_`)) of
        `path` translated to `backend` with the ports of the headers it includes: from the cache
        when the source, the project's include options and every header the translation read
        (their bytes) are what they were, and kernelport is the same (the key holds its sources)."""
        from .lint import config as configmod
        options = configmod.includes_for(path, configmod.find(path), configmod.Overrides())
        k = cache_key("translate", backend, str(path.resolve()), file_digest(path), repr(options))  # names its source
        hit = self.cache.get(k, ((str | None, str, {str: str}, [(object, str)], {str: str}), [(str, str)], float))
        if hit is not None and all(file_digest(Path(h)) == d for h, d in hit[1]):
            self.ran = hit[2]
            return hit[0]
        t0, self.ran = time.perf_counter(), None
        run = single(path, src)
        made = made_or_refused(run, backend)  # with the ports of the headers it includes
        port = next((m.port for m in made if not m.port.ok), made[0].port)
        error = None if port.ok else "; ".join(d.format() for d in port.diagnostics if d.severity == "error")
        headers = [(m.path, m.text) for m in made[1:] if m.port.ok] + \
            [(companion(m.path, e), t) for m in made[1:] for e, t in m.port.extra_files.items()]
        value = (error, made[0].text, dict(made[0].port.extra_files), headers, dict(made[0].port.renamed))
        reads = [(str(h), file_digest(Path(h))) for h in [*run.headers, *options.forced_includes]]
        self.cache.put(k, (value, reads, time.perf_counter() - t0))
        return value

    @staticmethod
    def _drift(dest: Path, want: str, path: Path, backend: str) -> Check:
        """Is the file kernelport writes at `dest` (a port, its sidecar or header) what it writes now?"""
        regenerate = f"run: kernelport translate {path} --to {backend}"
        if not dest.is_file():
            return Check("*", backend, None, "drift", "fail",
                         f"{dest} is {'not a file' if dest.exists() else 'missing'} ({regenerate})")
        on_disk = dest.read_text(encoding="utf-8", errors="replace")
        if on_disk == want:
            return Check("*", backend, None, "drift", "pass", f"{dest} is up to date")
        from .output import stale_hint
        return Check("*", backend, None, "drift", "fail",
                     stale_hint(on_disk, f"kernelport translate {path} --to {backend}", dest, path))

    def _lint(self, path: Path, ports: dict, rep: FileReport) -> None:
        """Lint gate: errors fail.  The original is held to what translate cannot fix (barriers in divergent code,
        implicit lockstep, CUDA-only code); each port to every rule, less the original's kept as written (verify_kept)."""
        from .lint.config import Overrides
        from .verify_kept import gate
        src = backends.source()
        runs = [(src.name, src.runs[0].wave, [path], Overrides(select=("SY", "PT")))]
        runs += [(b, None, [p], Overrides()) for b, (p, *_) in ports.items() if p is not None]
        for backend, wave, paths, ov in runs:
            t0 = time.perf_counter()
            findings, detail = gate(self, path, paths[0], ov)
            rep.checks.append(Check("*", backend, wave, "lint", "fail" if findings else "pass", detail,
                                    seconds=time.perf_counter() - t0, cached=self.ran is not None,
                                    run_seconds=self.ran))

    def _lint_errors(self, path: Path, ov) -> list[str]:
        """The lint errors of `path` under `ov`, from the cache when its bytes, its settings (rules,
        targets, include options) and every header the lint read are what they were."""
        from .lint import units
        from .lint.engine import lint_paths, settings_for
        st = settings_for(path, ov)
        k = cache_key("lint", sorted(st.targets), sorted(st.enabled), sorted(st.portable_macros), repr(st.includes),
                      str(path.resolve()), file_digest(path))  # a finding names its file
        hit = self.cache.get(k, ([str], [(str, str)], float))
        if hit is not None and all(file_digest(Path(h)) == d for h, d in hit[1]):
            self.ran = hit[2]
            return hit[0]
        t0, self.ran = time.perf_counter(), None
        errors = [f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}" for r in lint_paths([path], ov, jobs=1)
                  for f in r.findings if f.severity == "error"]
        try:
            read = units.project().headers(path.resolve(), st.includes)
        except Exception:  # noqa: BLE001 - a file lint could not scan is linted again next time
            return errors
        self.cache.put(k, (errors, [(str(h), file_digest(Path(h))) for h in [*read, *st.includes.forced_includes]],
                           time.perf_counter() - t0))
        return errors

    def _compile_one(self, job) -> tuple:
        """(backend, wave, CompileResult, seconds, None or a cached result's seconds when compiled) of one run."""
        return self._compile_group((job[0], job[1], (job[2],)))[0]  # (backend, path, run)

    def _compile_group(self, job) -> list[tuple]:
        return compile_group(self.cache, job)

    def _compile(self, path: Path, ports: dict, rep: FileReport) -> None:
        rep.checks.extend(self._compile_checks(self._compile_start(path, ports)))

    def _compile_start(self, path: Path, ports: dict | None) -> Compiles:
        """The compiles of the original and each port (ports None: the original's alone), begun on threads (the
        compilers in parallel, while the caller's thread goes on): what `_compile_checks` waits for."""
        return Compiles(self._compile_group).begin(compile_jobs(path, ports))

    def _compile_checks(self, compiling: Compiles) -> list[Check]:
        out, results = [], compiling.results()
        for backend, wave, r, secs, ran in results:
            absent = None if r.ok or r.skipped else absent_libraries.reason(backend, r.output)  # not the port's
            if r.skipped or absent:
                status = "fail" if backend in self.require or r.tool in self.require else "skip"
                detail = f"skipped: {absent or r.reason}"
            else:
                status = "pass" if r.ok else "fail"
                detail = f"{r.tool} {r.target}: " + ("ok" if r.ok else _first_error(r.output))
            out.append(Check("*", backend, wave, "compile", status, detail, target=r.target, seconds=secs,
                             cached=ran is not None, run_seconds=ran))
        return out

    def _numeric(self, src: SourceFile, module, name: str, spec: annotations.KernelSpec, ports: dict,
                 rep: FileReport) -> None:
        from .emulator import BudgetExceeded, EmulatorError, run_kernel
        from .reference import run_reference

        if self.seed is not None:
            spec.seed = self.seed
        kernel = module.functions[name]
        args = inputs.make_args(kernel, spec)
        outs = [a for a in spec.args.values() if a.role in ("out", "inout")]
        t0 = time.perf_counter()
        try:
            ref_args = self._reference_args(spec, args)
            # Exact comparisons use the reference as written; the others compare with its value
            # in double precision under the port's own error bound.
            ref = run_reference(src.text, spec.reference[0], ref_args, path=src.path,
                                promote=spec.tolerance == "auto", interpret=not self.native_reference,
                                timeout=self.timeout)
        except Exception as e:  # a reference that does not compile or crashes is the user's to fix
            from .reference import ReferenceError_
            where = f"{spec.reference_loc}: " if isinstance(e, ReferenceError_) else ""  # others carry theirs
            cut = is_cut(e) and f"{where}{cut_detail(e, f'the reference {spec.reference[0]}')}"
            rep.checks.append(Check(name, "reference", None, "reference", "skip" if cut else "fail",
                                    cut or f"{where}reference failed: {e}", seconds=time.perf_counter() - t0,
                                    budget=e.seconds if cut else None))
            return
        expected = {a.name: ref[self._ref_param(spec, a.name)] for a in outs}
        rep.checks.append(Check(name, "reference", None, "reference", "pass",
                                f"{spec.reference[0]} ran", seconds=time.perf_counter() - t0))
        block, shared = spec.dims("block"), spec.shared_bytes()
        targs = _template_args(spec)
        emulated, theirs = None, {}  # (theirs: the original's races per schedule)
        spent, cut = None, None  # why the kernel's budget is spent (its later runs are not made); cut: its seconds
        for run in backends.all_runs():
            backend, wave, target = run.backend, run.wave, run.arch
            original = backends.get(backend).is_source
            if not original and backend not in spec.targets:
                continue
            if original:
                text = src.text
            elif backend in ports:
                text = ports[backend][1]
            else:
                continue
            watched = None  # this run's block schedule, where it stands for the others (emulator.order)
            for schedule in self.schedules:
                t0 = time.perf_counter()
                if spent is not None:  # one budget per kernel: a run that spent it would spend it again
                    rep.checks.append(Check(name, backend, wave, "numeric", "fail" if cut is None else self._skip(
                        backend, "emulate"), f"not run: {spent}", target, schedule, time.perf_counter() - t0,
                        budget=cut))
                    continue
                try:
                    own = name if original else self.port_renamed.get((src.path, backend), {}).get(name, name)
                    res = watched or run_kernel(text, own, args={k: (v.copy() if isinstance(v, np.ndarray) else v)
                                                                  for k, v in args.items()},
                                                grid=spec.dims("grid", wave), block=block, shared_bytes=shared,
                                                wave=wave, schedule=schedule, watch=len(self.schedules) > 1,
                                                seed=spec.seed, backend=run.dialect, port_of=run.backend,
                                                template_args=targs, timeout=self.timeout,
                                                path=str(ports[backend][0] or src.path) if backend in ports else src.path,
                                                headers=ports[backend][2] if len(ports.get(backend, ())) > 2 else None,
                                                configured_as=str(src.path))  # a port: built as its original
                except BudgetExceeded as e:
                    what, cut = f"the {backend} wave {wave} run ({schedule})", e.seconds if is_cut(e) else None
                    rep.checks.append(Check(name, backend, wave, "numeric", "fail" if cut is None else self._skip(
                        backend, "emulate"), _emu_error(e) if cut is None else cut_detail(e, f"{what} of `{name}`"),
                        target, schedule, time.perf_counter() - t0, budget=cut))
                    spent = f"{what} spent the kernel's budget: {_emu_error(e)}"
                    continue
                except EmulatorError as e:
                    rep.checks.append(Check(name, backend, wave, "numeric", "fail", _emu_error(e), target,
                                            schedule, time.perf_counter() - t0))
                    continue
                except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError) as e:
                    # An emulator limitation, not a verdict on the port: say so, fail the check.
                    rep.checks.append(Check(name, backend, wave, "numeric", "fail",
                                            f"the emulator could not run this kernel ({type(e).__name__}: {e}); "
                                            "please report it", target, schedule, time.perf_counter() - t0))
                    continue
                except NotImplementedError as e:
                    rep.checks.append(Check(name, backend, wave, "numeric", self._skip(backend, "emulate"),
                                            f"not yet: {e}", target, schedule, time.perf_counter() - t0))
                    continue
                cmp = compare.compare({k: res.outputs[k] for k in expected}, expected, spec.tolerance,
                                      spec.tolerance_values, res.bounds, None, profile_bins=self.profile_bins,
                                      got_undefined=res.undefined)
                secs = time.perf_counter() - t0
                watched = watched or (res if res.independent else None)
                also = SAME_RUN.format(res.schedule) if res.schedule != schedule else ""
                if cmp.ok:
                    detail = f"matches {spec.reference[0]} ({cmp.mode}; max abs err {cmp.max_abs:.3g}){also}"
                    rep.checks.append(Check(name, backend, wave, "numeric", "pass", detail, target, schedule, secs,
                                            profile=cmp.profiles))
                else:
                    m = cmp.mismatch
                    detail = (f"{m.where} = {m.got!r}{compare.UNSET * m.never_written}, reference {m.want!r} (bound "
                              f"{m.bound:.3g}); {m.count} element(s) outside the bound{also}")
                    explain = {"buffer": m.buffer, "index": m.index, "port": m.got, "reference": m.want,
                               "bound": m.bound, "inputs": {k: v[m.index].item() for k, v in args.items()
                                                           if isinstance(v, np.ndarray) and m.index < v.size}}
                    rep.checks.append(Check(name, backend, wave, "numeric", "fail", detail, target, schedule, secs,
                                            explain, cmp.profiles))
                if original and schedule == self.schedules[0]:
                    emulated = res
                t0 = time.perf_counter()  # the races were recorded during the run (the numeric check's time)
                if original:  # (a port's race the original's run has too: the original's row's)
                    theirs[schedule] = res.races
                races, inherited = inherited_races.split(res.races, () if original else theirs.get(schedule, ()))
                rep.checks.append(Check(name, backend, wave, "races", "fail" if races else "pass", inherited_races.
                                        detail(races, inherited, also), target, schedule, time.perf_counter() - t0))

        if spent is None:  # an info row: not worth a second spent budget
            self._original_wide(src, name, spec, args, expected, targs, rep)
        if self.device is not None:
            self._device(src, kernel, spec, args, targs, expected, emulated, rep)

    def _original_wide(self, src, name, spec, args, expected, targs, rep) -> None:
        """The original run at wave 64, shown for information (never a failure of the port): where
        it is wrong, that is what the port fixes."""
        from .emulator import EmulatorError, KernelFault, run_kernel
        run = max(backends.all_runs(), key=lambda r: r.wave)
        wide = run.wave
        if all(r.wave == wide for r in backends.source().runs):
            return  # the original already runs at the widest wave
        # The original's own dialect on a wave that wide: what hipcc makes of CUDA text unchanged.
        t0 = time.perf_counter()
        try:
            res = run_kernel(src.text, name, args={k: (v.copy() if isinstance(v, np.ndarray) else v)
                                                   for k, v in args.items()},
                             grid=spec.dims("grid", wide), block=spec.dims("block"), shared_bytes=spec.shared_bytes(),
                             wave=wide, schedule=self.schedules[0], seed=spec.seed,
                             backend=backends.source().name, template_args=targs, path=src.path,
                             timeout=self.timeout)
        except KernelFault as e:   # out of bounds on the wide wave: a defect, as a wrong value is
            detail = f"original at wave {wide}: wrong, it faults ({e.message}): this is what the port fixes"
        except (EmulatorError, RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError,
                NotImplementedError) as e:
            detail = f"original at wave {wide}: could not run ({e})"
        else:
            cmp = compare.compare({k: res.outputs[k] for k in expected}, expected, spec.tolerance,
                                  spec.tolerance_values, res.bounds, None, got_undefined=res.undefined)
            m = cmp.mismatch
            detail = (f"original at wave {wide}: matches {spec.reference[0]}" if cmp.ok else
                      f"original at wave {wide}: wrong at {m.where} = {m.got!r}, reference {m.want!r} "
                      f"({m.count} element(s)): this is what the port fixes")
        rep.checks.append(Check(name, "original", wide, "original", "info", detail,
                                seconds=time.perf_counter() - t0))

    def _device(self, src, kernel, spec, args, targs, expected, emulated, rep) -> None:
        """The original on a real NVIDIA GPU, against the reference and the emulator."""
        from .verify_device import gpu_outputs
        be = backends.get(self.device)
        name, wave = be.name, be.runs[0].wave
        t0 = time.perf_counter()
        gpu, why, status = gpu_outputs(self.device, src, kernel, spec, args, targs)
        if gpu is None:
            rep.checks.append(Check(kernel.name, name, wave, "device", status, why, "gpu",
                                    seconds=time.perf_counter() - t0))
            return
        got = {k: gpu[k] for k in expected}
        cmp = compare.compare(got, expected, spec.tolerance, spec.tolerance_values,
                              emulated.bounds if emulated is not None else None, None)
        emu_diff = max((float(np.max(np.abs(gpu[k].astype(np.float64) - emulated.outputs[k].astype(np.float64))))
                        for k in expected if gpu[k].size), default=0.0) if emulated is not None else float("nan")
        detail = (f"GPU vs {spec.reference[0]}: max abs err {cmp.max_abs:.3g}; GPU vs emulator: max abs diff "
                  f"{emu_diff:.3g}")
        if not cmp.ok:
            m = cmp.mismatch
            detail += f"; {m.where} = {m.got!r}, reference {m.want!r} (bound {m.bound:.3g})"
        rep.checks.append(Check(kernel.name, name, wave, "device", "pass" if cmp.ok else "fail", detail, "gpu",
                                seconds=time.perf_counter() - t0))

    def _ref_param(self, spec, buffer: str) -> str:
        fname, rargs = spec.reference
        ref_fn = self._ref_fn
        for p, a in zip(ref_fn.params, rargs):
            if a.text == buffer:
                return p.name
        raise KernelportError(f"reference {fname} is not given buffer '{buffer}'", spec.reference_loc,
                              hint=f"pass {buffer} to the reference so it can write the expected values")

    def _reference_args(self, spec, args) -> dict:
        from .cexpr import evaluate
        fname, rargs = spec.reference
        module = self._module
        self._ref_fn = module.functions[fname]
        vals = {**spec.scalar_values(), **{k: v for k, v in args.items() if not isinstance(v, np.ndarray)}}
        out = {}
        for p, a in zip(self._ref_fn.params, rargs):
            if a.text in args and isinstance(args[a.text], np.ndarray):
                out[p.name] = args[a.text].copy()
            else:
                out[p.name] = evaluate(a.text, vals)
        return out


def _first_error(output: str) -> str:
    for line in output.splitlines():
        if "error" in line:
            return line.strip()
    return output.strip().splitlines()[0] if output.strip() else "failed"


def _emu_error(e) -> str:
    loc = f"{e.path}:{e.line}: " if getattr(e, "line", None) else ""
    return f"{loc}{e.message if hasattr(e, 'message') else e}"


@big_stack  # recursive analyses: depth.MAX_DEPTH levels of nesting need a big stack
def _verify_one(args) -> FileReport:
    path, kw = args
    return Verifier(**kw).verify(path)


def verify_paths(paths: list[Path], *, jobs: int = 0, progress: bool = False, shard: tuple[int, int] | None = None,
                 **kw) -> list[FileReport]:
    """Verify every annotated .cu file under `paths` (or one shard of them), files in parallel,
    results in path order."""
    run_paths.clear()  # a new run: the filesystem is asked again (kernelport/run_paths.py)
    files = kernel_files(paths)
    if shard is not None:
        chosen = set(shard_of(files, shard))
        files = [f for f in files if f in chosen]  # the shard's files, still in the order given
    jobs = jobs or min(len(files), os.cpu_count() or 1)
    work = [(f, {"named": tuple(p for p in paths if p.is_dir()), **kw}) for f in files]  # callers are read there
    from . import pch
    if not kw.get("cache", True) and pch.ENV not in os.environ:
        import tempfile  # --no-cache stores nothing: the HIP check's PCHs live as long as the run
        with tempfile.TemporaryDirectory(prefix="kp-pch-") as tmp, pch.directory(tmp):
            return _run_files(work, jobs, progress)
    return _run_files(work, jobs, progress)


def _run_files(work: list, jobs: int, progress: bool) -> list[FileReport]:
    if jobs <= 1 or len(work) <= 1:
        it = map(_verify_one, work)
        pool = None
    else:
        import multiprocessing
        if multiprocessing.get_start_method() == "fork":  # toolchain probes (hipcc --version: ~0.25 s CPU)
            from . import toolchains  # made once here, inherited by every worker, not once a worker
            for tool in sorted({t for b in backends.REGISTRY.values() for t in b.tools}):
                toolchains.find_tool(tool)
            toolchains.c_compiler_identity()
        pool = ProcessPoolExecutor(max_workers=jobs)
        it = pool.map(_verify_one, work)
    try:
        if not progress:
            return list(it)
        from rich.console import Console
        from rich.progress import Progress
        out = []
        with Progress(transient=True, console=Console(stderr=True)) as bar:  # the report owns stdout
            task = bar.add_task("verifying", total=len(work))
            for r in it:
                out.append(r)
                bar.advance(task)
        return out
    finally:
        if pool is not None:
            pool.shutdown()
