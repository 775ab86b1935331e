"""Does a kernel compute the same at the narrowest and the widest wave?  (issue 18)

The file's own text runs on the emulator at both widths (CUDA text at 64 is what hipcc makes of it
unchanged; a `.hip` file runs against itself at 32), with the same inputs, and its output buffers
are compared under the error bounds both runs carried: a rounding difference of a reordered
reduction is not a difference.  `lint --confirm` marks warp-size findings with the outcome;
`verify --wave-invariance` reports it per kernel.

Inputs: the kernel's `// @kp` annotations where present, else the inference from host code
(`infer_inputs`, when this installation has it); otherwise the kernel is "not run: needs sizes".
Nothing here is imported by lint unless --confirm asks for it (start-up time).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import backends

RUN_SECONDS = 60.0  # wall clock of one emulator run: a kernel past it is "not run", never a hang
NEEDS_SIZES = "needs sizes"


@dataclass(frozen=True)
class Outcome:
    """One kernel at two widths: `differs` (with the first differing element), `same`, or `not run`."""
    kernel: str
    status: str  # differs | same | not run
    detail: str
    reason: str = ""  # not run: the short reason (for tables), `detail` says it in full
    inputs: str = ""  # annotated | given (--inputs) | inferred
    buffer: str | None = None
    index: int | None = None
    narrow: float | int | None = None  # the element at the narrow wave
    wide: float | int | None = None
    waves: tuple[int, int] = (32, 64)
    inferred: tuple[str, ...] = ()  # inputs inferred from host code: each value and where it came from
    # the run at the wide wave and its inputs, for runs of the same kernel with fixes applied (not shown)
    wide_run: object = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        d = {"kernel": self.kernel, "status": self.status, "detail": self.detail, "inputs": self.inputs or None,
             "waves": list(self.waves)}
        if self.inferred:
            d["inferred"] = list(self.inferred)
        if self.status == "differs":
            d.update(buffer=self.buffer, index=self.index, narrow=self.narrow, wide=self.wide)
        if self.status == "not run":
            d["reason"] = self.reason
        return d


def widths() -> tuple[int, int]:
    """The narrowest and the widest wave any backend runs at (32 and 64)."""
    waves = [r.wave for r in backends.all_runs()]
    return min(waves), max(waves)


def not_run(kernel: str, reason: str, detail: str = "", inputs: str = "", full: str | None = None) -> Outcome:
    """`full`: the whole sentence where it already names the reason."""
    return Outcome(kernel, "not run", full or f"not run: {reason}" + (f" ({detail})" if detail else ""), reason,
                   inputs, waves=widths())


def runs_both_widths(dialect: backends.Backend) -> bool:
    """A dialect whose own text meets both widths: the source (hipcc builds it unchanged for
    64-wide waves) or one whose hardware runs both (HIP); Metal's runs are all 32 wide."""
    narrow, wide = widths()
    return dialect.is_source or {narrow, wide} <= {r.wave for r in dialect.runs}


# -- inputs ------------------------------------------------------------------------------------------
@dataclass
class Inputs:
    """A kernel's inputs for a wave comparison, and how they were found."""
    spec: object  # annotations.KernelSpec (annotated or inferred)
    how: str  # annotated | given | inferred
    notes: tuple[str, ...] = ()


def infer(module, kernel: str, others=()):
    """The seam to the input inference from host code (kernelport/infer_inputs.py, where this
    installation has it): Inputs, or an Outcome saying why the kernel is not run.  others: models
    whose launches count too (the file that includes the kernel's: wave_included.py)."""
    try:
        from . import infer_inputs
    except ImportError:
        return not_run(kernel, NEEDS_SIZES, "no `// @kp` annotations; annotate its arg, grid and block lines "
                       "(docs/annotations.md)")
    from .errors import KernelportError
    from .project_ports import configured_project
    try:  # as verify infers: with the macros the file's headers define (they size launches too)
        module = configured_project().module(Path(module.source.path))
    except (KernelportError, OSError):  # text from stdin: the file's own model
        pass
    try:
        got = infer_inputs.infer(module, kernel, list(others))
    except Exception as e:  # real host code is unbounded: a failure of the inference runs nothing, says why
        return not_run(kernel, NEEDS_SIZES, f"the inference of its inputs failed ({type(e).__name__}: {e}); please "
                       "report it; give them with --inputs")
    if isinstance(got, infer_inputs.NotRun):  # "needs sizes: no launch of ..." -> reason "needs sizes"
        return not_run(kernel, got.reason.split(":")[0], full=f"not run: {got.reason}" +
                       (f" (hint: {got.hint})" if got.hint else ""))  # where: the kernel's row or finding says
    return Inputs(got.spec, "inferred", tuple(got.inferred))


def inputs_for(module, kernel: str, specs: dict, given: dict | None = None) -> "Inputs | Outcome":
    """The annotations in the file, else the block of `--inputs` for it, else the inference."""
    if kernel in specs:
        return Inputs(specs[kernel], "annotated")
    if given and kernel in given:
        from .annotations import build_inputs
        from .errors import KernelportError
        try:
            return Inputs(build_inputs(module.functions[kernel], given[kernel].lines, module), "given")
        except KernelportError as e:
            return not_run(kernel, "bad inputs", e.format(), "given")
    return infer(module, kernel)


# -- running -----------------------------------------------------------------------------------------
def _prepare(kernel, inp: Inputs):
    """(args, outs, block, shared, template args, grid per wave) of a run, or why there is none."""
    from . import inputs
    from .errors import KernelportError
    from .verify import _template_args
    spec = inp.spec
    try:
        args = inputs.make_args(kernel, spec)
        outs = [a.name for a in spec.args.values() if a.role in ("out", "inout")]
        launch = (spec.dims("block"), spec.shared_bytes(), _template_args(spec),
                  {w: spec.dims("grid", w) for w in widths()})
    except KernelportError as e:
        return not_run(kernel.name, "bad inputs", e.format(), inp.how)
    if not outs:
        return not_run(kernel.name, "no output buffer", "the inputs name no out or inout buffer", inp.how)
    return args, outs, launch


def _run_at(text: str, path: str, dialect: backends.Backend, name: str, inp: Inputs, prepared, wave: int,
            timeout: float | None):
    """The emulator's RunResult at `wave`, or an Outcome saying why it could not run."""
    import numpy as np
    from .emulator import BudgetExceeded, EmulatorError, run_kernel
    from .verify import _emu_error as _located
    args, _, (block, shared, targs, grids) = prepared
    try:
        return run_kernel(text, name, args={k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()},
                          grid=grids[wave], block=block, shared_bytes=shared, wave=wave, schedule="block",
                          seed=inp.spec.seed, backend=dialect.name, template_args=targs, path=path, timeout=timeout)
    except BudgetExceeded as e:
        return not_run(name, "budget", f"at wave {wave}: {_located(e)}", inp.how)
    except EmulatorError as e:
        return not_run(name, "emulator", f"at wave {wave}: {_located(e)}", inp.how)
    except NotImplementedError as e:
        return not_run(name, "emulator", f"at wave {wave}: not yet: {e}", inp.how)
    except Exception as e:  # an emulator limitation on real code is no verdict (and no traceback)
        return not_run(name, "emulator", f"at wave {wave}: the emulator could not run it "
                       f"({type(e).__name__}: {e}); please report it", inp.how)


def _compare(spec, outs, got, want):
    from . import compare
    return compare.compare({k: got.outputs[k] for k in outs}, {k: want.outputs[k] for k in outs}, spec.tolerance,
                           spec.tolerance_values, got.bounds, want.bounds, undefined=want.undefined,
                           got_undefined=got.undefined)


def run_both(text: str, path: str, dialect: backends.Backend, kernel, inp: Inputs,
             timeout: float | None = RUN_SECONDS) -> Outcome:
    """Run `kernel` (a model Function) of `text` at the narrow and the wide wave; compare."""
    name, spec = kernel.name, inp.spec
    narrow, wide = widths()
    prepared = _prepare(kernel, inp)
    if isinstance(prepared, Outcome):
        return prepared
    res = {}
    for w in (narrow, wide):
        res[w] = _run_at(text, path, dialect, name, inp, prepared, w, timeout)
        if isinstance(res[w], Outcome):
            return res[w]
    outs = prepared[1]
    cmp = _compare(spec, outs, res[wide], res[narrow])
    kept = (res[wide], inp, prepared, path, dialect, timeout)
    if cmp.ok:
        return Outcome(name, "same", f"same output at wave {narrow} and {wide} ({cmp.mode}; max abs diff "
                       f"{cmp.max_abs:.3g})", inputs=inp.how, waves=(narrow, wide), inferred=inp.notes, wide_run=kept)
    m = cmp.mismatch
    return Outcome(name, "differs", f"{m.where} = {_show(m.got)} at wave {wide}, {_show(m.want)} at "
                   f"wave {narrow} ({m.count} element(s) differ)", inputs=inp.how, buffer=m.buffer,
                   index=int(m.index), narrow=_plain(m.want), wide=_plain(m.got), waves=(narrow, wide),
                   inferred=inp.notes, wide_run=kept)


def wide_changes(base: Outcome, text: str) -> bool | None:
    """Does `text` (the kernel's file with some fixes applied) give another output at the wide
    wave than the file as written gave in `base`?  None: there is no run to compare with, or the
    fixed text does not run."""
    if base.wide_run is None:
        return None
    was, inp, prepared, path, dialect, timeout = base.wide_run
    got = _run_at(text, path, dialect, base.kernel, inp, prepared, widths()[1], timeout)
    if isinstance(got, Outcome):
        return None
    return not _compare(inp.spec, prepared[1], got, was).ok


def _plain(v):
    return v.item() if hasattr(v, "item") else v


def _show(v) -> str:
    v = _plain(v)
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 2 ** 53 else f"{v:.9g}"
    return repr(v)


# -- a file ------------------------------------------------------------------------------------------
@dataclass
class FileModel:
    """A file read once for its kernels: its text, dialect, model and annotations (or why not)."""
    path: str
    text: str = ""
    dialect: backends.Backend | None = None
    module: object = None
    specs: dict | None = None
    given: dict | None = None  # kernel -> wave_inputs.Block (--inputs)
    error: str | None = None  # why the file is not run, in full
    reason: str = "unreadable file"  # ... and in short


def read(path: str | Path, given: list | None = None, text: str | None = None) -> FileModel:
    """`given`: the blocks of --inputs (wave_inputs.read); `text`: the file's text as lint read
    it (stdin, or read once already), else the file is read."""
    from .annotations import parse
    from .errors import KernelportError
    from .lint.discovery import PYTHON, dialect_of, kind
    from .model import build
    from .source import SourceFile
    fm = FileModel(str(path))
    if given:
        from .wave_inputs import for_file
        fm.given = for_file(given, str(path))
    if kind(Path(path)) == PYTHON:
        fm.reason, fm.error = "embedded CUDA", "its launch and its buffers are Python's; run it from a .cu file"
        return fm
    fm.dialect = dialect_of(Path(path))
    if not runs_both_widths(fm.dialect):
        fm.reason = f"{fm.dialect.name} code runs at one wave width"
        fm.error = "its hardware runs " + ", ".join(sorted({f"{r.wave}-wide" for r in fm.dialect.runs})) + " waves"
        return fm
    try:
        src = SourceFile.from_text(text, str(path)) if text is not None else SourceFile.read(path)
        fm.text = src.text
        fm.module = build(src)
    except KernelportError as e:
        fm.error = e.format()
        return fm
    try:
        fm.specs = parse(fm.module)
    except KernelportError as e:  # a bad annotation: no kernel of the file is run on guessed inputs
        fm.reason, fm.error = "invalid annotation", e.format()
    return fm


def outcome(fm: FileModel, kernel: str, cache: dict | None = None, timeout: float | None = RUN_SECONDS) -> Outcome:
    """One kernel of a file at both widths (once per run: `cache` keyed by file and kernel);
    `timeout`: wall-clock seconds of each run."""
    key = (fm.path, kernel)
    if cache is not None and key in cache:
        return cache[key]
    if fm.module is None or fm.specs is None:
        got = not_run(kernel, fm.reason, fm.error or "")
    else:
        inp = inputs_for(fm.module, kernel, fm.specs, fm.given)
        got = inp if isinstance(inp, Outcome) else run_both(fm.text, fm.path, fm.dialect, fm.module.functions[kernel],
                                                            inp, timeout)
    if cache is not None:
        cache[key] = got
    return got
