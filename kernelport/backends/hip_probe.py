"""Check the HIP API table's spellings with the installed hipcc (the generator's `--probe`, and the tests).

Every HIP name is used in a generated file that includes its library's headers: a
using-declaration (`using ::hipMalloc;`: valid for a function, an overload set, a type or an
enumerator alike, so no call needs arguments), a namespace alias for a namespace, and
`__has_include` for a header.  A name whose line errors is absent from the installed headers;
a library none of whose headers is installed leaves its names unchecked.  A name HIPIFY marks
unsupported is tried too if it is a device function (its HIP name, or its CUDA name), in device
code: usable there with the installed ROCm, it is `present` and the port uses it.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Iterable

from .. import compile_cache
from .api_table import Entry

# Headers every HIP name may need besides its library's own (device types live in the fp16 and
# bfloat16 headers, which HIPIFY's include map does not pair with a CUDA header of their own).
BASE_HEADERS = ("hip/hip_runtime.h", "hip/hip_fp16.h", "hip/hip_bfloat16.h", "hip/hip_bf16.h",
                "hip/hip_complex.h", "hip/hip_cooperative_groups.h")
# APIs whose names come with HIP itself (no library to install).
CORE_APIS = ("runtime", "driver", "device", "complex")
_IDENT = re.compile(r"^[A-Za-z_]\w*(::[A-Za-z_]\w*)*$")
_ERROR = re.compile(r"^(.*?):(\d+):\d+: error: (.*)$", re.M)


def library_headers(entries: Iterable[Entry]) -> dict[str, list[str]]:
    """api -> the HIP headers HIPIFY maps that API's CUDA headers to."""
    out: dict[str, list[str]] = {}
    for e in entries:
        if e.is_header and e.hip:
            out.setdefault(e.api, [])
            if e.hip not in out[e.api]:
                out[e.api].append(e.hip)
    return out


def use_line(e: Entry) -> str:
    """One line that compiles exactly when `e.hip` is declared."""
    if e.role == "namespace":
        return f"namespace kp_ns_{e.hip.replace('::', '_')} = ::{e.hip};"
    return f"using ::{e.hip};"


def render(entries: list[Entry], headers: Iterable[str]) -> tuple[str, dict[int, Entry]]:
    """A HIP file using every entry's HIP name, and which line uses which entry."""
    lines = [f"#if __has_include(<{h}>)\n#include <{h}>\n#endif" for h in dict.fromkeys(headers)]
    text = "\n".join(lines).split("\n")
    text.append("namespace kp_probe {")
    at: dict[int, Entry] = {}
    for e in entries:
        if e.role == "macro":
            text += [f"#ifndef {e.hip}", f"#error kernelport: macro {e.hip} is not defined", "#endif"]
            at[len(text) - 1] = e
            continue
        if e.hipcc == "candidate":  # usable in device code, unambiguously (a host-only C library name is not)
            text.append(f"__device__ void kp_dev_{len(text)}() {{ (void)&::{e.hip}; }}")
            at[len(text)] = e
            continue
        guard = "::" not in e.hip and e.role != "namespace"
        if guard:
            text.append(f"#ifndef {e.hip}")
        text.append(use_line(e))
        at[len(text)] = e
        if guard:
            text.append("#endif")
    text.append("}")
    return "\n".join(text) + "\n", at


def installed(headers: Iterable[str], hipcc: str) -> set[str]:
    """The headers the compiler finds."""
    headers = list(dict.fromkeys(headers))
    src = "\n".join(f"#if !__has_include(<{h}>)\n#error kernelport-no-header {i}\n#endif" for i, h in enumerate(headers))
    errors = _compile(src, hipcc, ("gfx90a",))
    missing = {int(m.group(3).split()[-1]) for m in _ERROR.finditer(errors) if "kernelport-no-header" in m.group(3)}
    return {h for i, h in enumerate(headers) if i not in missing}


def _compile(src: str, hipcc: str, archs: tuple[str, ...]) -> str:
    with tempfile.TemporaryDirectory(prefix="kp-hipprobe-") as tmp:
        path = Path(tmp) / "probe.hip"
        path.write_text(src)
        # a full compile: a host function used in device code is an error only when code is generated
        out = str(Path(tmp) / "probe.o")
        cmd = [hipcc, "-x", "hip", *[f"--offload-arch={a}" for a in archs], "-c", "-o", out,
               "-ferror-limit=0", "-w", str(path)]
        proc = compile_cache.run(cmd, path, outputs=(out,), env={**_env(), "HIP_PLATFORM": "amd"}, timeout=900)
        return proc.stdout + proc.stderr


def _env() -> dict:
    import os
    return dict(os.environ)


def errors_by_line(output: str) -> dict[int, str]:
    """The first error message of each line of the probe file (errors inside headers are keyed -1)."""
    out: dict[int, str] = {}
    for m in _ERROR.finditer(output):
        line = int(m.group(2)) if m.group(1).endswith("probe.hip") else -1
        out.setdefault(line, m.group(3))
    return out


def probe(entries: list[Entry], hipcc: str | None = None, archs: tuple[str, ...] = ("gfx90a",)) -> dict[str, str]:
    """cuda name -> ok | absent | unchecked | - (nothing to check: no HIP spelling, or drop the include)."""
    if hipcc is None:
        from .. import toolchains
        tc = toolchains.find_hipcc()
        if tc is None:
            raise RuntimeError(toolchains.install_hint("hipcc"))
        hipcc = tc.path
    libs = library_headers(entries)
    found = installed([h for hs in libs.values() for h in hs] + list(BASE_HEADERS), hipcc)
    result: dict[str, str] = {}
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        candidate = _unsupported_candidate(e)
        if candidate is not None and (e.api in CORE_APIS or any(h in found for h in libs.get(e.api, ()))):
            groups.setdefault(e.api, []).append(candidate)  # HIPIFY may lag ROCm: try its spelling anyway
        elif not e.hipify_supported or (e.is_header and not e.hip):
            result[e.cuda] = "-"
        elif e.is_header:
            checkable = e.api in CORE_APIS or any(h in found for h in libs.get(e.api, ()))
            result[e.cuda] = ("ok" if e.hip in found else "absent") if checkable else "unchecked"
        elif e.call_template is not None:
            result[e.cuda] = e.hipcc  # an expression, not a name: compiled in calls by tests/test_hip_api_hipcc.py
        elif "kernelport" in e.flag_set and e.kind.endswith("-type"):
            result[e.cuda] = "-"  # a type the port's prologue defines (kp_bfloat162): no ROCm header declares it
        elif e.api in CORE_APIS or any(h in found for h in libs.get(e.api, ())):
            if _IDENT.match(e.hip) is None:
                result[e.cuda] = "unchecked"  # not a name a declaration can use
            else:
                groups.setdefault(e.api, []).append(e)
        else:
            result[e.cuda] = "unchecked"
    for api, group in groups.items():
        unique = list({e.hip: e for e in group}.values())
        src, at = render(unique, [*BASE_HEADERS, *(h for h in libs.get(api, ()) if h in found)])
        errs = errors_by_line(_compile(src, hipcc, archs))
        if -1 in errs:
            raise RuntimeError(f"the {api} headers do not compile on their own: {errs[-1]}")
        bad = {at[line].hip for line in errs if line in at}
        unknown = [line for line in errs if line not in at]
        if unknown:
            raise RuntimeError(f"probe file errors outside a name's line: {[errs[u] for u in unknown][:3]}")
        for e in group:
            if e.hipcc == "candidate":
                result[e.cuda] = "-" if e.hip in bad else "present"
            else:
                result[e.cuda] = "absent" if e.hip in bad else "ok"
    return result


def _unsupported_candidate(e: Entry) -> Entry | None:
    """For a device function HIPIFY marks unsupported, the spelling to try: its HIP name, or the
    CUDA name itself (HIP keeps CUDA's device-function names); checked in device code."""
    if e.is_header or e.hipify_supported or e.kind != "device-function":
        return None  # elsewhere HIPIFY's HIP name for an unsupported entry can be a placeholder
    name = e.hip or e.cuda
    if not name or _IDENT.match(name) is None:
        return None
    return Entry(e.cuda, name, e.kind, e.flags, e.since, "candidate")
