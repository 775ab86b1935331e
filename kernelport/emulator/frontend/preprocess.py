"""Preprocessing: a line-preserving pre-pass, then the C preprocessor over a C99 prelude.

The output carries line markers of the original file, so every pycparser coordinate is a line of
the user's file.  Without `cpp` a small fallback strips comments and expands object-like macros.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ... import backends
from ...errors import KernelportError
from ...includes import MAX_HEADER_BYTES
from ...vector_types import VECTORS
from .lowered import LowerError


def wave_defines(backend: str, wave: int) -> dict[str, str]:
    """Predefined macros a real compiler sets for a target of this wave width."""
    return backends.get(backend).wave_defines(wave)


# C99 declarations so that pycparser knows every type name a kernel may use.  Only the names
# matter to the parser; the emulator gives the GPU types their real meaning.
PRELUDE = r"""
typedef _Bool bool;
typedef struct { unsigned int x, y, z; } uint3;
typedef uint3 dim3;
typedef unsigned long size_t; typedef long ptrdiff_t; typedef long intptr_t; typedef unsigned long uintptr_t;
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long long int64_t; typedef unsigned long long uint64_t;
typedef unsigned int uint; typedef unsigned long ulong; typedef unsigned short ushort; typedef unsigned char uchar;
typedef int __kp_auto;
typedef unsigned short __half; typedef unsigned short half; typedef unsigned short __nv_bfloat16;
typedef unsigned short __hip_bfloat16; typedef unsigned short bfloat;
typedef struct { float x, y; } float2; typedef struct { float x, y, z; } float3; typedef struct { float x, y, z, w; } float4;
typedef struct { int x, y; } int2; typedef struct { int x, y, z; } int3; typedef struct { int x, y, z, w; } int4;
typedef struct { unsigned int x, y; } uint2; typedef struct { unsigned int x, y, z, w; } uint4;
typedef struct { double x, y; } double2;
typedef struct { __half x, y; } __half2; typedef __half2 half2;
typedef long clock_t;
typedef float atomic_float; typedef int atomic_int; typedef unsigned int atomic_uint;
extern uint3 threadIdx, blockIdx; extern dim3 blockDim, gridDim; extern int warpSize;
"""


def float16_names() -> set[str]:
    """The names the emulator reads as 16-bit float types (the parser sees `unsigned short`)."""
    from ... import dialect
    names = {dialect.concept(key).name(b) for key in ("half", "bfloat16") for b in backends.names()}
    return (names - {None}) | set(re.findall(r"typedef unsigned short (\w+);", PRELUDE))


def _storage_types() -> str:
    """Each backend's names of the 16-bit float types (the dialect table's half and bfloat16:
    `hip_bfloat16` in a HIP port) declared for the parser; the emulator reads them by name
    (Lowered.typedef_overrides) and gives them their real meaning."""
    from ... import dialect
    names = {dialect.concept(key).name(b) for key in ("half", "bfloat16") for b in backends.names()}
    return "".join(f"typedef unsigned short {n};\n" for n in sorted(names - {None})
                   if not re.search(rf"\b{re.escape(n)};", PRELUDE))


def _vector_types() -> str:
    """CUDA's other vector types (uchar4, double4, short2, ...: kernelport.vector_types) the
    prelude does not spell out, declared for the parser; memory holds them as rows of scalars."""
    from ...vector_types import BASES
    return "".join(f"typedef struct {{ {BASES[v[:-1]]} {', '.join('xyzw'[:n])}; }} {v};\n"
                   for v, (_, n) in sorted(VECTORS.items()) if not re.search(rf"\b{v};", PRELUDE))


def _buffer_vec3_types(backend: str | None, body: str) -> str:
    """The dialect's own names of a buffer of 3-vectors (the table's vec3_buffer: Metal's packed_float3,
    packed_uchar3: CUDA's layout, 3 scalars with no padding) the text names, declared as CUDA's T3 is:
    memory holds them as rows of 3 scalars (rivermax csc_kernel.metal's `device packed_uchar3* src`)."""
    from ... import dialect
    from ...vector_types import BASES
    name = backend or backends.source().name
    out = []
    for t, c in sorted(BASES.items()):
        v = dialect.render(dialect.concept("vec3_buffer"), name, {"t": t})
        if v and v != f"{t}3" and re.fullmatch(r"\w+", v) and re.search(rf"\b{v}\b", body) and \
                not re.search(rf"\b{v};", PRELUDE):
            out.append(f"typedef struct {{ {c} x, y, z; }} {v};\n")
    return "".join(out)


PRELUDE_DEFINES = {"true": "1", "false": "0", "nullptr": "0", "NULL": "0", "__restrict__": "",
                   "__forceinline__": "__forceinline__"}
# <math.h>, <float.h>, <limits.h> and CUDA's math constants: real kernels start reductions at
# -INFINITY or -FLT_MAX.  1e999 is infinite in every float type; inf * 0 is a quiet NaN.
MATH_DEFINES = {
    "INFINITY": "(1e999f)", "HUGE_VALF": "(1e999f)", "HUGE_VAL": "(1e999)", "NAN": "(1e999f * 0.0f)",
    "CUDART_INF_F": "(1e999f)", "CUDART_NAN_F": "(1e999f * 0.0f)", "CUDART_INF": "(1e999)",
    "FLT_MAX": "3.40282347e+38f", "FLT_MIN": "1.17549435e-38f", "FLT_EPSILON": "1.19209290e-07f",
    "DBL_MAX": "1.7976931348623157e+308", "DBL_MIN": "2.2250738585072014e-308",
    "DBL_EPSILON": "2.2204460492503131e-16", "INT_MAX": "2147483647", "INT_MIN": "(-2147483647 - 1)",
    "UINT_MAX": "4294967295u", "LLONG_MAX": "9223372036854775807ll", "SHRT_MAX": "32767",
    # the rest of <limits.h> (LP64, as every CUDA and HIP target: long is 64 bits; char is signed)
    "LLONG_MIN": "(-9223372036854775807ll - 1)", "ULLONG_MAX": "18446744073709551615ull",
    "LONG_MAX": "9223372036854775807l", "LONG_MIN": "(-9223372036854775807l - 1)", "ULONG_MAX": "18446744073709551615ul",
    "SHRT_MIN": "(-32767 - 1)", "USHRT_MAX": "65535", "CHAR_BIT": "8", "SCHAR_MAX": "127", "SCHAR_MIN": "(-127 - 1)",
    "UCHAR_MAX": "255", "CHAR_MAX": "127", "CHAR_MIN": "(-127 - 1)",
    # <stdint.h>'s limits (glibc's values, LP64: int64_t is long)
    "INT8_MAX": "127", "INT8_MIN": "(-127 - 1)", "UINT8_MAX": "255", "INT16_MAX": "32767", "INT16_MIN": "(-32767 - 1)",
    "UINT16_MAX": "65535", "INT32_MAX": "2147483647", "INT32_MIN": "(-2147483647 - 1)", "UINT32_MAX": "4294967295u",
    "INT64_MAX": "9223372036854775807l", "INT64_MIN": "(-9223372036854775807l - 1)",
    "UINT64_MAX": "18446744073709551615ul", "SIZE_MAX": "18446744073709551615ul",
    "RAND_MAX": "2147483647",  # <stdlib.h>'s (glibc)
    "M_PI": "3.14159265358979323846", "M_E": "2.7182818284590452354", "M_SQRT2": "1.41421356237309504880",
    "M_LN2": "0.69314718055994530942", "M_PI_F": "3.14159265358979323846f",
    # the compilers' spellings of HUGE_VAL (what <math.h> expands it to; the HIP prologue's kp_rnd_* call them)
    "__builtin_huge_valf()": "(1e999f)", "__builtin_huge_val()": "(1e999)", "__builtin_inff()": "(1e999f)",
    "__builtin_inf()": "(1e999)",
}
# every vector type the prelude declares (spelled out above or generated by _vector_types)
VECTOR_TYPES = set(VECTORS)


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# Every directive that makes cpp read a file, however it is spelled (a macro name, #include_next,
# #import): none reaches cpp, which would read whatever it names (`/dev/zero` never ends).
_READS = re.compile(r"^\s*#\s*(?:include|include_next|import)\b")
_PRAGMA = re.compile(r"^\s*#\s*pragma\b")
_DEFINE = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)(?![\w(])")  # object-like: no `(` right after the name
PREPROCESS_TIMEOUT = 60  # seconds of cpp (a kernel file takes milliseconds)
MAX_EXPANDED_LINE = 1 << 18  # bytes one source line may expand to: past it a macro doubles itself (a bomb)


_CONDITIONAL = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", re.M)


def _open_conditionals(text: str) -> int:
    """How many #if / #ifdef / #ifndef are open at the end of `text` (an includer's lines before its
    #include of a kernel file: a header's include guard), closed after the file as the includer does."""
    depth = 0
    for m in _CONDITIONAL.finditer(text):
        depth = depth - 1 if m.group(1) == "endif" else depth + 1
    return max(depth, 0)


def _local_header(path: str, name: str, roots, line: int, col: int) -> str | None:
    """The header a quoted #include reads (kernelport/includes.py's policy), or a located refusal."""
    from ... import includes
    try:
        p = includes.resolve(path, name, roots)
    except includes.Refused as e:
        raise LowerError(str(e), path, line, col) from None
    return str(p) if p is not None else None


def _configured(path: str):
    """The include dirs and defines a file is configured with ([tool.kernelport], compile_commands.json:
    what translate reads it with), so a kernel runs with the headers its project's build reads."""
    from ...project import Options
    if not path or path.startswith("<"):
        return Options()
    from ...project_ports import configured
    try:
        return configured(Path(path))
    except KernelportError:  # a broken pyproject is reported where translate or lint read it
        return Options()


def _forced(forced, opts, overlay, redefine) -> str:
    """The text of the forced includes `forced`, each through the same pass as the file."""
    out = []
    for f in forced:
        try:
            text = Path(f).read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise LowerError(f"cannot read the forced include {f}: {e.strerror}", f, 0, 0) from None
        out.append(f'# 1 "{f}"\n' + _prepass(text, f, headers=overlay, redefine=redefine,
                                             include_dirs=opts.include_dirs) + "\n")
    return "".join(out)


def _on_include_path(path: str, name: str, dirs: tuple[str, ...], roots, line: int, col: int) -> str | None:
    """The header `name` names in the first configured include dir that holds it (`<lib/types.h>`, or
    a quoted include not found beside its file), as a compiler given those -I dirs reads it."""
    for d in dirs:
        if os.path.isfile(os.path.join(d, name)):
            return _local_header(os.path.join(d, "_"), name, roots, line, col)
    return None


def redefined(lines: list[str], i: int, redefine: dict[str, str], out: list[str]) -> int | None:
    """Where lines[i] is an object-like `#define NAME` of `redefine`: its new value appended to `out`, the old
    value's continued lines as empty ones (every line stays in place), and the index of its last line; else
    None.  (The GPU driver builds the original with the same rewrite: kernelport/device_inputs.py.)"""
    d = _DEFINE.match(lines[i])
    if d is None or d.group(1) not in redefine:
        return None
    out.append(f"#define {d.group(1)} {redefine[d.group(1)]}")
    while lines[i].rstrip().endswith("\\") and i + 1 < len(lines):  # the old value's continued lines
        i += 1
        out.append("")
    return i


def _prepass(src: str, path: str, _open: tuple[str, ...] = (), roots=None,
             headers: dict[str, str] | None = None, redefine: dict[str, str] | None = None,
             include_dirs: tuple[str, ...] = ()) -> str:
    """Drop headers we cannot (or need not) see and pragmas, keeping every line in place.

    A local header (a quoted include found beside the file) is read through the same pass and
    inlined between line markers, so what it includes in turn (a platform runtime) is dropped
    too and positions stay those of each file.  `headers` (real path -> text): headers not on
    disk yet (the ports of a file's headers, which verify checks before translate writes them).
    `redefine` (macro name -> value): every object-like `#define NAME ...` of the file and its
    headers gets that value instead (sizes scaled down for the emulator: the program as if built
    with them; a -D would not do, the file's own #define wins over it).
    """
    src = src.removeprefix("\ufeff")  # a UTF-8 byte-order mark before line 1 (`\ufeff#ifndef G`), as compilers skip it
    base = (os.path.dirname(path) or ".") if path and not path.startswith("<") else None
    if base is not None and roots is None:
        from ... import includes
        roots = includes.allowed_roots(path) + [Path(os.path.realpath(d)) for d in include_dirs]
    out = []
    lines = src.split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = _INCLUDE.match(ln)
        quoted = m is not None and m.group(1) == '"' and base is not None
        given = os.path.realpath(os.path.join(os.path.abspath(base), m.group(2))) \
            if quoted and headers else None
        in_memory = given is not None and given in headers
        header = given if in_memory else \
            _local_header(path, m.group(2), roots, i + 1, ln.index("#") + 1) if quoted else None
        if header is None and m is not None and include_dirs and base is not None:
            header = _on_include_path(path, m.group(2), include_dirs, roots, i + 1, ln.index("#") + 1)
        if header is not None and header not in _open and len(_open) < 16:
            if in_memory:
                text = headers[given]
            else:
                with open(header, encoding="utf-8", errors="replace") as f:
                    text = f.read(MAX_HEADER_BYTES)
            text = _prepass(text, header, _open + (header,), roots, headers, redefine, include_dirs)
            out.append(f'# 1 "{header}"\n{text}\n# {i + 2} "{path}"')
        elif m or _READS.match(ln):
            out.append("")
        elif _PRAGMA.match(ln):
            out.append("")
            while ln.rstrip().endswith("\\") and i + 1 < len(lines):  # continued pragma
                i += 1
                ln = lines[i]
                out.append("")
        elif redefine and (at := redefined(lines, i, redefine, out)) is not None:
            i = at
        else:
            out.append(ln)
        i += 1
    return "\n".join(out)


def preprocess(src: str, path: str = "<kernel>", backend: str | None = None,
               defines: dict[str, str] | None = None, headers: dict[str, str] | None = None,
               context: tuple[str, str] | None = None, redefine: dict[str, str] | None = None,
               configured_as: str | None = None) -> str:
    """Run the C preprocessor; the output carries line markers of `path`.  `headers`: texts of
    headers not on disk (real path -> text), read where the file includes them.  `context`:
    (path, text) of the lines of the file that includes this one before its #include (what a
    kernel file compiled only as part of another sees: its sizes, its headers' macros).  `redefine`:
    values for the object-like macros the file defines (see _prepass).  `configured_as`: the file
    whose configuration (-D, -I, forced includes, read first) applies, where not `path`'s own."""
    be = backends.get(backend) if backend else backends.source()
    spec = be.lowering
    for pattern, what in spec.unlowered:
        if (m := re.search(pattern, src)) is not None:
            line = src.count("\n", 0, m.start()) + 1
            raise NotImplementedError(f"the emulator does not run {what} ({path}:{line}: `{m.group(0).strip()}`)")
    d = dict(PRELUDE_DEFINES)
    d.pop("__forceinline__")
    d.update({k: v for k, v in MATH_DEFINES.items() if not re.search(rf"#\s*define\s+{k}\b", src)})
    opts = _configured(configured_as or path)
    d.update(dict(opts.defines))  # the project's -D, under the target's own and the wave's
    # what the dialect's build reads besides (Backend.build_reads, as verify's compile checks)
    d.update({name: "1" for name in opts.hip_defines} if "hip_defines" in be.build_reads else {})
    forced = opts.forced_includes if "forced_includes" in be.build_reads else ()
    d.update(spec.defines)
    d.update(defines or {})
    d.update(redefine or {})  # also where no #define of the file's is seen (a -D of the build)
    head = "".join(f"#define {k} {v}\n" for k, v in d.items())
    overlay = {os.path.realpath(k): v for k, v in headers.items()} if headers else None
    body = _prepass(src, path, headers=overlay, redefine=redefine, include_dirs=opts.include_dirs)
    if context is not None:
        body = _prepass(context[1], context[0], headers=overlay, redefine=redefine,
                        include_dirs=opts.include_dirs) + f'\n# 1 "{path}"\n' + body + \
            "\n#endif" * _open_conditionals(context[1])  # the includer's guard, open at its #include
    first = context[0] if context is not None else path
    if forced:  # read before the unit's first line, as a build's -include
        body = _forced(forced, opts, overlay, redefine) + f'# 1 "{first}"\n' + body
    line = _hidden_include(body)
    if line:  # spelled across a continued line or around a comment: refused, never handed to cpp
        raise LowerError("an #include spelled across lines or around comments is not read", path, line, 1)
    from .cucomplex_model import model_text as complex_text  # (cuComplex.h's float complex, where named)
    from .curand_model import model_text  # (cuRAND's device API, where the file names it)
    text = head + '# 1 "<prelude>"\n' + PRELUDE + _storage_types() + _vector_types() + _buffer_vec3_types(backend, body) + model_text(backend, body) + \
        complex_text(backend, body) + \
        f'# 1 "{first}"\n' + body
    cpp = shutil.which("cpp")
    if cpp is None:
        return _mini_cpp(text)
    args = [cpp, "-x", "c", "-undef", "-nostdinc", "-w"]
    base = os.path.dirname(path) if path and not path.startswith("<") else None
    if base:
        args += ["-I", base]
    from ...compile_cache import note

    note("uncached", args)
    try:
        from ...subproc import run as run_group  # a timeout ends cpp's cc1 too
        r = run_group(args + ["-"], input=text, timeout=PREPROCESS_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise LowerError(f"the C preprocessor took more than {PREPROCESS_TIMEOUT} s", path, 0, 0) from None
    if r.returncode != 0:
        m = re.search(r"^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$", r.stderr, re.M)
        if m:
            raise LowerError(m.group(4), path, int(m.group(2)), int(m.group(3)))
        raise LowerError("preprocessor failed: " + r.stderr.strip()[:300], path, 0, 0)
    _check_expansion(r.stdout)
    return r.stdout


def _check_expansion(out: str) -> None:
    """A line cpp expanded past MAX_EXPANDED_LINE is refused at its source line (a macro that
    doubles itself 20 times is megabytes the C parser would take minutes over, outside any check's
    timeout)."""
    where, line = "<kernel>", 0
    for text in out.split("\n"):
        m = re.match(r'# (\d+) "([^"]*)"', text)
        if m:
            where, line = m.group(2), int(m.group(1)) - 1
        elif len(text) > MAX_EXPANDED_LINE:
            raise LowerError(f"this line's macros expand to {len(text)} bytes (more than {MAX_EXPANDED_LINE}): "
                             "not emulated", where, line + 1, 1)
        else:
            line += 1


def _hidden_include(body: str) -> int:
    """The line of a directive that reads a file but that the line-wise pass did not see (its
    logical line joins continued lines and drops comments, as cpp's does), or 0."""
    lines = body.split("\n")
    i = 0
    while i < len(lines):
        start, logical = i, lines[i]
        while logical.endswith("\\") and i + 1 < len(lines):
            i += 1
            logical = logical[:-1] + lines[i]
        if "#" in logical and _READS.match(re.sub(r"/\*.*?(\*/|$)", " ", logical)):
            return start + 1
        i += 1
    return 0


def _mini_cpp(text: str) -> str:
    """Fallback without a C preprocessor: strip comments (keeping lines), object-like #defines."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    defs: dict[str, str] = {}
    out = []
    for ln in text.split("\n"):
        m = re.match(r"\s*#\s*define\s+(\w+)(?!\()\s*(.*)$", ln)
        if m:
            defs[m.group(1)] = m.group(2)
            out.append("")
            continue
        if re.match(r"\s*#\s*(if|ifdef|ifndef|endif|else|elif|undef|error|warning)\b", ln):
            out.append("")
            continue
        if defs:
            for _ in range(4):
                ln2 = re.sub(r"\b\w+\b", lambda mm: defs.get(mm.group(0), mm.group(0)), ln)
                if ln2 == ln:
                    break
                ln = ln2
        out.append(ln)
    return "\n".join(out)
