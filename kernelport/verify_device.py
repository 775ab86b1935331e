"""`verify --device NAME` where the oracle is the original at wave 32 (no annotated reference):
the original runs on the real GPU with the oracle's inputs and is compared with the emulator's run
of it, so the GPU checks the emulator's model of CUDA on every kernel the oracle runs, not only on
annotated ones.

The GPU driver (kernelport/device.py) gives the original what the emulator's run of it read: the kernel's
arguments (structs by value, buffers of structs, pointers host code steps into their allocations), the
contents the emulator gave host-filled constant memory, the macro values the inputs redefine, and the
includer's lines where the emulator ran the file after them (kernelport/device_inputs.py,
kernelport/device_source.py).  What it cannot give as the emulator had it is a skip that says why, never
a comparison of different inputs.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from . import backends, claimed_slots, compare, unjudged


def gpu_outputs(device: str, src, kernel, spec, args, targs, symbols: dict | None = None,
                redefine: dict | None = None, context: tuple[str, str] | None = None) -> tuple[dict | None, str, str]:
    """The original's buffers after a run on the GPU, or None, why it could not run there and the
    row's status: fail where the GPU or the build failed, skip where the driver cannot pass an argument
    or a header the original includes is not installed.  symbols: host-filled constant memory -> the
    emulator's contents; redefine: the macro values the emulator's run read; context: the includer's
    (path, lines) the emulator ran the file after."""
    from . import device_source, model
    from .device import DeviceUnavailable, Unbuildable, Unpassable
    from .lint import config as configmod
    from .verify_oracle import includer_context
    be = backends.get(device)
    path = Path(src.path)
    opts = configmod.includes_for(path, configmod.find(path), configmod.Overrides())
    flags = (*(f"-I{d}" for d in opts.include_dirs), *(f"-D{n}={v}" for n, v in opts.defines),
             *(x for f in opts.forced_includes for x in ("-include", f)))
    try:
        return be.run_on_device()(path, kernel, spec, args, targs, flags=flags,
                                  variants=device_source.variants(src, model.build, includer_context, context),
                                  symbols=symbols or {}, redefine=redefine or {}, alone=context is None), "", "pass"
    except DeviceUnavailable as e:
        return None, f"--device {be.name}: {e}", "fail"
    except (Unpassable, Unbuildable) as e:
        return None, f"not run on the GPU: {e}", "skip"
    except RuntimeError as e:
        return None, str(e), "fail"


def _unordered(src, kernel, args, outs, oracle) -> dict:
    """buffer -> (first, end, Claimed) of the slots its kernel claims by atomics (claimed_slots): the range
    from the counter's value before the launch to the oracle's after it; {} where none can be compared so."""
    try:
        found = claimed_slots.claimed_buffers(src, kernel)
    except (AttributeError, TypeError, ValueError):  # (a kernel the model holds no body of)
        return {}
    out = {}
    for b, c in found.items():
        before, after = args.get(c.counter), oracle.outputs.get(c.counter)
        if b in outs and isinstance(before, np.ndarray) and after is not None and before.size and \
                before.dtype.kind in "iu" and after.dtype.kind in "iu":
            out[b] = (int(before.reshape(-1)[0]), int(after.reshape(-1)[0]), c)
    return out


def device_against_oracle(verifier, src, kernel, spec, args, targs, outs, oracle, rep, filled=(),
                          redefine: dict | None = None, context: tuple[str, str] | None = None) -> None:
    """One device row: the original on the GPU against the emulator's run of it at wave 32.  filled: the
    host-filled constant-memory variables, given the contents the emulator's run found them with
    (oracle.globals); redefine: the macro values that run read; context: the includer's lines it read first."""
    from .verify import Check
    be = backends.get(verifier.device)
    name, wave = be.name, be.runs[0].wave
    t0 = time.perf_counter()
    symbols = {n: oracle.globals[n] for n in sorted(filled) if n in (oracle.globals or {})}
    gpu, why, status = gpu_outputs(verifier.device, src, kernel, spec,
                                   {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}, targs,
                                   symbols, redefine, context)
    if gpu is None:
        rep.checks.append(Check(kernel.name, name, wave, "device", status, why, "gpu",
                                seconds=time.perf_counter() - t0))
        return
    expected = {k: oracle.outputs[k] for k in outs}
    got, unordered = {k: gpu[k] for k in outs}, _unordered(src, kernel, args, outs, oracle)
    bounds = dict(oracle.bounds) if unordered and oracle.bounds else oracle.bounds
    for b, (lo, hi, c) in unordered.items():  # slots claimed by atomics: CUDA gives them no order
        got[b], expected[b], moved = claimed_slots.as_multiset(got[b], expected[b], lo, hi, (bounds or {}).get(b))
        if bounds and b in bounds:
            bounds[b] = moved  # (None: no bound, compared exactly)
    # the emulator's rounding bounds on both sides: nvcc contracts a*b+c into an fma the emulator may not
    cmp = compare.compare(got, expected, "auto", None, bounds, bounds,
                          undefined=oracle.undefined)
    detail = f"GPU vs the emulator's original at wave {wave}: max abs diff {cmp.max_abs:.3g}"
    for b, (lo, hi, c) in unordered.items():
        detail += (f"; {b}[{lo}:{hi}] compared as a multiset (its slots are claimed by atomicAdd({c.counter}, 1) "
                   f"at {c.where}, whose order CUDA leaves undefined; the rest of {b} exactly)")
    if cmp.undefined:  # (what the GPU's registers held there is no model's to predict)
        from .verify_oracle import undefined_note
        detail += undefined_note(cmp, oracle)
    if not cmp.ok:
        m = cmp.mismatch
        detail += f"; {m.where} = {m.got!r}, the emulator gives {m.want!r} (bound {m.bound:.3g})"
    status = "pass" if cmp.ok else "fail"
    if cmp.ok and cmp.unknown:  # neither pass nor fail: where the bound went is the finding
        status, detail = "skip", f"{detail}; {compare.unknown_detail(cmp, getattr(oracle, 'bounds_lost', ()))}"
    elif (why := unjudged.skip_detail(cmp, oracle)) is not None:
        status, detail = "skip", f"{detail}; {why}"
    rep.checks.append(Check(kernel.name, name, wave, "device", status, detail, "gpu",
                            seconds=time.perf_counter() - t0))
