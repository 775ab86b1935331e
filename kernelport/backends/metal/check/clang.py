"""clang as the Metal type checker: the command (C++ for OpenCL with the Metal stdlib model), and
its output read back as Metal diagnostics in the checked file's lines and columns."""
from __future__ import annotations

import os
import re
from pathlib import Path

from .... import toolchains
from ....diagnostics import Diagnostic
from .constant_copies import is_constant_struct_copy
from .thread_this import is_thread_member_binding
from .thread_temporaries import is_thread_temporary_binding
from .instances import SELF_FILE
from .text import Lines, diagnostic

HEADER_PATH = Path(__file__).with_name("metal_stdlib.h")
CLANG_TIMEOUT_S = 120


class MetalCheckUnavailable(RuntimeError):
    """No clang with C++-for-OpenCL support was found; the message carries an install hint."""


def clang_command(clang: str, source: str, include_dirs=(), defines=(), pch: Path | None = None) -> list[str]:
    """The check of `source`; with `pch` (stdlib_pch: the header precompiled with these flags) it is
    read in place of the header."""
    cmd = [
        clang,
        "-target", "spir64",
        "-x", "clcpp",
        "-cl-std=clc++2021",
        "-cl-no-stdinc",
        # Metal has no double, and no program-scope or static variables outside `constant`
        "-Xclang", "-cl-ext=-cl_khr_fp64,-__opencl_c_fp64,-__opencl_c_program_scope_global_variables,"
                   "-__opencl_c_device_enqueue",
        "-fsyntax-only",
        "-ferror-limit=0",
        "-fno-color-diagnostics",
        "-fno-caret-diagnostics",
        "-fdiagnostics-show-option",
        *(("-include-pch", str(pch)) if pch is not None else ("-include", str(HEADER_PATH))),
    ]
    from ....compile_flags import args
    cmd += args(defines, include_dirs)
    cmd.append(source)
    return cmd


_DIAG_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_DROP_WARNINGS = ("double precision constant requires cl_khr_fp64",)


NO_DOUBLE = "Metal has no 'double' type: use float"  # (selfcheck.py reports it as the backend's KP214)


def _metalize(msg: str) -> str:
    """Rewrite clang/OpenCL spellings in a message into Metal's."""
    if "__kp_metal_has_no_double" in msg:
        return NO_DOUBLE
    if "non-kernel function variable cannot be declared in local address space" in msg:
        return ("threadgroup variables must be declared at kernel function scope: declare it in the "
                "kernel and pass a threadgroup pointer to the helper")
    if "program scope variable must reside in constant address space" in msg:
        return ("program-scope variables must be in the constant address space (Metal has no device or "
                "threadgroup globals: pass a buffer instead)")
    if "static local variable must reside in constant address space" in msg:
        return "static variables must be in the constant address space (`static constant T x = ...;`)"
    msg = re.sub(r"'(\w+)<[^']*>' is unavailable", r"'\1' is unavailable", msg)
    msg = re.sub(r"\bmetal::__kp_atomic_(\w+)", r"atomic_\1", msg)
    msg = re.sub(r"\b__kp_atomic_(\w+)", r"atomic_\1", msg)
    msg = re.sub(r"\b__kp_make_(\w+)", r"\1", msg)
    msg = re.sub(r"\b__kp_opencl_(\w+)", r"\1", msg)
    for ocl, metal in (("__global", "device"), ("__local", "threadgroup"), ("__constant", "constant"),
                       ("__private", "thread"), ("__kernel", "kernel")):
        msg = re.sub(r"\b" + ocl + r"\b", metal, msg)
    msg = msg.replace("'device', 'constant' or 'threadgroup' address space", "device, constant or threadgroup address space")
    if "kernel functions cannot be used in a template" in msg:
        msg += (" (kernelport's Metal checker cannot type-check templated kernels other than through their "
                "explicit instantiations: template [[host_name(\"...\")]] kernel void f<...>(...);)")
    msg = re.sub(r"\s*\[-W[\w\-=]+\]$", "", msg)
    return msg


def parse_clang(output: str, tmp_path: str, filename: str, lines: Lines,
                let_through: list | None = None) -> list[Diagnostic]:
    """clang's errors as Metal diagnostics; `let_through` gets (path, line, col, message, notes) of each
    temporary bound to a thread reference that is let through (thread_arguments.py wraps them)."""
    groups: list[dict] = []
    tmp_real = os.path.realpath(tmp_path)

    def is_user(path: str) -> bool:
        return (path == tmp_path or path == SELF_FILE or path.startswith(SELF_FILE + "@")
                or os.path.realpath(path) == tmp_real)

    def instance(path: str) -> str | None:
        return path[len(SELF_FILE) + 1:] if path.startswith(SELF_FILE + "@") else None

    for raw in output.splitlines():
        m = _DIAG_LINE.match(raw)
        if not m:
            if raw.startswith("note: ") and groups:
                groups[-1]["notes"].append((None, 0, 0, raw[6:]))
            continue
        path, line, col, sev, msg = m.group("path"), int(m.group("line")), int(m.group("col")), m.group("sev"), m.group("msg")
        if sev == "note":
            if groups:
                groups[-1]["notes"].append((path, line, col, msg))
            continue
        groups.append({"path": path, "line": line, "col": col, "sev": "error" if "error" in sev else "warning",
                       "msg": msg, "notes": []})

    out = []
    for g in groups:
        if g["sev"] == "warning" and any(s in g["msg"] for s in _DROP_WARNINGS):
            continue
        if is_constant_struct_copy(g["msg"], [n[3] for n in g["notes"]], lines.text) or \
                is_thread_member_binding(g["msg"], [n[3] for n in g["notes"]]):
            continue  # valid MSL: see constant_copies, thread_this
        if is_thread_temporary_binding(g["msg"], [n[3] for n in g["notes"]]):
            if let_through is not None and g["path"] == tmp_path:
                let_through.append((g["path"], g["line"], g["col"], g["msg"], [n[3] for n in g["notes"]]))
            continue  # valid MSL: see thread_temporaries
        path, line, col = g["path"], g["line"], g["col"]
        notes = []
        for npath, nline, ncol, nmsg in g["notes"]:
            if npath is None:
                notes.append(_metalize(nmsg))
            elif is_user(npath):
                notes.append(f"{filename}:{nline}:{lines.char_column(nline, ncol)}: {_metalize(nmsg)}")
            else:
                notes.append(f"{os.path.basename(npath)}:{nline}:{ncol}: {_metalize(nmsg)}")
        message = _explain(_metalize(g["msg"]), [_metalize(n[3]) for n in g["notes"]])
        inst = instance(path) or next((instance(np) for np, _, _, _ in g["notes"] if np and instance(np)), None)
        if inst:
            notes.append(f"in the template kernel's instantiation {inst} (template parameters substituted)")
        if is_user(path):
            out.append(diagnostic(filename, line, lines.char_column(line, col), message, g["sev"], "clang", tuple(notes)))
            continue
        # reported inside metal_stdlib.h: attribute it to the user line that led there
        user = next(((nl, nc) for np, nl, nc, _ in g["notes"] if np is not None and is_user(np)), None)
        if user:
            out.append(diagnostic(filename, user[0], lines.char_column(*user), message, g["sev"], "clang", tuple(notes)))
        else:
            out.append(diagnostic(path, line, col, message, g["sev"], "clang", tuple(notes)))
    return out


def reports_an_error(output: str) -> bool:
    """Whether clang's output holds a parsable error (reported, or dropped as a model gap)."""
    return any((m := _DIAG_LINE.match(raw)) and "error" in m.group("sev") for raw in output.splitlines())


def _explain(message: str, notes: list[str]) -> str:
    """Fold the one note that explains an error into its message."""
    if message.startswith("no matching function for call to"):
        why = next((n for n in notes if "address space" in n), None)
        if why:
            why = re.sub(r"^candidate function( template)? not viable: ", "", why)
            return f"{message}: {why}"
    if "no viable conversion from 'metal::simd_vote'" in message or (
        "simd_vote" in message and "cannot initialize" in message
    ):
        return message + " (simd_vote converts only explicitly: (simd_vote::vote_t)simd_ballot(...))"
    return message


def clang_path() -> str:
    """The clang that type-checks Metal (toolchains finds it); MetalCheckUnavailable without one."""
    tc = toolchains.find_clang()
    if tc is None:
        raise MetalCheckUnavailable(toolchains.install_hint("clang"))
    return tc.path
