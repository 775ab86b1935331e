"""Compiling a Metal port: Apple's compiler where it exists (macOS with Xcode), elsewhere the type
check of kernelport.backends.metal.check (clang in C++-for-OpenCL mode with a model of the Metal
standard library).  The backend's `compile()` calls this; toolchains.py knows nothing of the checker."""
from __future__ import annotations

from pathlib import Path

from ... import toolchains
from ...toolchains import CompileResult
from . import check


def compile_port(path, *, timeout: int = toolchains.TIMEOUT_S, config=None) -> CompileResult:
    """A CompileResult like every backend's: pass, fail (with the diagnostics) or skip (no tool);
    `config`: the -D / -I it is given (kernelport.compile_flags.only: what the backend's build reads)."""
    from ...compile_flags import NONE
    config = config or NONE
    if toolchains.find_xcrun_metal() is not None:
        from ...compile_flags import args
        return toolchains.compile_metal(path, timeout=timeout, extra_args=args(config.defines, config.include_dirs))
    clang = toolchains.find_clang()
    if clang is None:
        return CompileResult("clang", "metal", False, True, [], "", toolchains.install_hint("clang"))
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        return CompileResult("clang", "metal", False, False, [], str(exc), f"cannot read {path}: {exc}")
    try:
        report = check.run_check(text, str(path), clang=clang.path, defines=config.defines,
                                 include_dirs=config.include_dirs)
    except check.MetalCheckUnavailable as exc:  # pragma: no cover - find_clang said yes
        return CompileResult("clang", "metal", False, True, [], "", str(exc))
    output = "\n".join(str(d) for d in report.diagnostics)
    reason = "" if report.ok else f"{len(report.errors)} Metal type-check error(s)"
    return CompileResult("clang", "metal", report.ok, False, report.command, output, reason)
