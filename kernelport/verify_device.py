"""`verify --device NAME` where the oracle is the original at wave 32 (no annotated reference):
the original runs on the real GPU with the oracle's inputs and is compared with the emulator's run
of it, so the GPU checks the emulator's model of CUDA on every kernel the oracle runs, not only on
annotated ones.

The GPU driver (kernelport/device.py) passes the kernel's arguments, the contents the emulator gave the
host-filled constant memory the run read, and builds the file with the macros the inputs redefine as the
emulator read them (kernelport/device_inputs.py).  Where the emulator's run read more than that (the
includer's lines, pointers host code steps) the two runs would not have the same inputs: such a kernel's
device row is a skip that says why, never a comparison of different inputs.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from . import backends, compare


def gpu_outputs(device: str, src, kernel, spec, args, targs, symbols: dict | None = None,
                redefine: dict | None = None) -> tuple[dict | None, str, str]:
    """The original's buffers after a run on the GPU, or None, why it could not run there and the
    row's status: fail where the GPU or the build failed, skip where the driver cannot pass an argument
    or a header the original includes is not installed.  symbols: host-filled constant memory -> the
    emulator's contents; redefine: the macro values the emulator's run read."""
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
                                  variants=device_source.variants(src, model.build, includer_context),
                                  symbols=symbols or {}, redefine=redefine or {}), "", "pass"
    except DeviceUnavailable as e:
        return None, f"--device {be.name}: {e}", "fail"
    except (Unpassable, Unbuildable) as e:
        return None, f"not run on the GPU: {e}", "skip"
    except RuntimeError as e:
        return None, str(e), "fail"


def unlike_inputs(context, stepped=()) -> str:
    """Why the GPU driver's run would not read what the emulator's run of the original read ('' if it would):
    host-filled constant memory and macros the inputs redefine it gives as the emulator had them."""
    if stepped:
        return (f"the kernel's pointers {', '.join(sorted(stepped))} start inside their allocations (host code "
                "steps them), which the GPU driver does not do")
    if context is not None:
        return "the file runs only inside its includer's lines, which the GPU driver does not include"
    return ""


def device_against_oracle(verifier, src, kernel, spec, args, targs, outs, oracle, rep, unlike: str,
                          filled=(), redefine: dict | None = None) -> None:
    """One device row: the original on the GPU against the emulator's run of it at wave 32.  filled: the
    host-filled constant-memory variables, given the contents the emulator's run found them with
    (oracle.globals); redefine: the macro values that run read."""
    from .verify import Check
    be = backends.get(verifier.device)
    name, wave = be.name, be.runs[0].wave
    t0 = time.perf_counter()
    if unlike:
        rep.checks.append(Check(kernel.name, name, wave, "device", "skip", f"not run on the GPU: {unlike}",
                                "gpu", seconds=time.perf_counter() - t0))
        return
    symbols = {n: oracle.globals[n] for n in sorted(filled) if n in (oracle.globals or {})}
    gpu, why, status = gpu_outputs(verifier.device, src, kernel, spec,
                                   {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}, targs,
                                   symbols, redefine)
    if gpu is None:
        rep.checks.append(Check(kernel.name, name, wave, "device", status, why, "gpu",
                                seconds=time.perf_counter() - t0))
        return
    expected = {k: oracle.outputs[k] for k in outs}
    # the emulator's rounding bounds on both sides: nvcc contracts a*b+c into an fma the emulator may not
    cmp = compare.compare({k: gpu[k] for k in outs}, expected, "auto", None, oracle.bounds, oracle.bounds,
                          undefined=oracle.undefined)
    detail = f"GPU vs the emulator's original at wave {wave}: max abs diff {cmp.max_abs:.3g}"
    if cmp.undefined:  # (what the GPU's registers held there is no model's to predict)
        from .verify_oracle import undefined_note
        detail += undefined_note(cmp, oracle)
    if not cmp.ok:
        m = cmp.mismatch
        detail += f"; {m.where} = {m.got!r}, the emulator gives {m.want!r} (bound {m.bound:.3g})"
    status = "pass" if cmp.ok else "fail"
    if cmp.ok and cmp.unknown:  # neither pass nor fail: where the bound went is the finding
        status, detail = "skip", f"{detail}; {compare.unknown_detail(cmp, getattr(oracle, 'bounds_lost', ()))}"
    rep.checks.append(Check(kernel.name, name, wave, "device", status, detail, "gpu",
                            seconds=time.perf_counter() - t0))
