"""Run the annotated scalar C reference of a kernel file.

The reference is a plain C function in the kernel file.  It is extracted (with the plain helpers
it calls and the file's typedefs / constants), compiled with the system C compiler into a
shared library in a temporary directory, and called through ctypes with numpy arrays.  Without
a C compiler it is interpreted by the emulator (one thread, scalar).  Compiled libraries are
cached by content hash for the life of the process.

    out = run_reference(src, "block_sum_ref", {"x": x, "out": out, "n": n}, path="k.cu")
    out["out"]  # the expected values
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

import numpy as np
from pycparser import c_ast

from . import backends
from .emulator.frontend import SHARED_STORAGE, LowerError, Qualifiers, lower, preprocess, rewrite_item, split_items, \
    strip_template_header

_LIBS: dict[str, tuple[ctypes.CDLL, str]] = {}
_TMP: list[tempfile.TemporaryDirectory] = []

HEADERS = "#include <math.h>\n#include <stdint.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <string.h>\n"

_SCALAR_CTYPES = {
    ("float",): (ctypes.c_float, np.float32), ("double",): (ctypes.c_double, np.float64),
    ("int",): (ctypes.c_int32, np.int32), ("signed",): (ctypes.c_int32, np.int32),
    ("unsigned",): (ctypes.c_uint32, np.uint32), ("unsigned", "int"): (ctypes.c_uint32, np.uint32),
    ("long",): (ctypes.c_int64, np.int64), ("long", "long"): (ctypes.c_int64, np.int64),
    ("long", "int"): (ctypes.c_int64, np.int64), ("long", "long", "int"): (ctypes.c_int64, np.int64),
    ("unsigned", "long"): (ctypes.c_uint64, np.uint64), ("unsigned", "long", "long"): (ctypes.c_uint64, np.uint64),
    ("size_t",): (ctypes.c_uint64, np.uint64), ("int32_t",): (ctypes.c_int32, np.int32),
    ("uint32_t",): (ctypes.c_uint32, np.uint32), ("int64_t",): (ctypes.c_int64, np.int64),
    ("uint64_t",): (ctypes.c_uint64, np.uint64), ("char",): (ctypes.c_int8, np.int8),
    ("unsigned", "char"): (ctypes.c_uint8, np.uint8), ("short",): (ctypes.c_int16, np.int16),
    ("unsigned", "short"): (ctypes.c_uint16, np.uint16), ("bool",): (ctypes.c_bool, np.bool_),
    ("_Bool",): (ctypes.c_bool, np.bool_), ("uint",): (ctypes.c_uint32, np.uint32),
    ("int8_t",): (ctypes.c_int8, np.int8), ("uint8_t",): (ctypes.c_uint8, np.uint8),
}


class ReferenceError_(RuntimeError):
    pass


def c_compiler() -> str | None:
    for cc in (os.environ.get("CC"), "gcc", "cc", "clang"):
        if cc and shutil.which(cc):
            return shutil.which(cc)
    return None


def extract_c(source: str, func: str, path: str = "<kernel>", backend: str | None = None) -> str:
    """C99 text of `func`, the plain helpers it calls, and the file's typedefs/constants."""
    be = backends.get(backend) if backend else backends.source()
    pre = preprocess(source, path, be.name)
    items = [it for it in split_items(pre) if it.file != "<prelude>"]
    q = Qualifiers(be)
    funcs: dict[str, object] = {}
    decls = []
    for it in items:
        text, tparams = strip_template_header(it.text)
        if tparams is not None:
            continue
        head = text.split("{", 1)[0]
        m = re.search(r"([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$", head.strip())
        if "{" in text and m and "=" not in head and not re.match(r"\s*(typedef|struct|union|enum)\b", head):
            if set(re.findall(r"\w+", head)) & q.kernel_words:
                continue
            funcs[m.group(1)] = it
        elif re.match(r"\s*(typedef|struct|union|enum|static\s+const|const)\b", text) and "<<<" not in text \
                and not q.shared & set(re.findall(r"\w+", text)) and "::" not in text:
            decls.append(it)
    if func not in funcs:
        raise LowerError(f"reference function `{func}` not found in the file", path)
    need, todo = [], [func]
    while todo:
        f = todo.pop()
        if f in need:
            continue
        need.append(f)
        for callee in re.findall(r"\b([A-Za-z_]\w*)\s*\(", funcs[f].text):
            if callee in funcs and callee not in need:
                todo.append(callee)
    out = [HEADERS]
    for it in decls:
        out.append(f'# {it.line} "{it.file}"\n{rewrite_item(it.text, q, be.lowering, None)}\n')
    # prototypes first so that helper order does not matter
    bodies = []
    for f in reversed(need):
        it = funcs[f]
        text = rewrite_item(it.text, q, be.lowering, None)
        text = text.replace(SHARED_STORAGE, "")
        proto = text.split("{", 1)[0].strip()
        out.append(proto + ";\n")
        bodies.append(f'# {it.line} "{it.file}"\n{text}\n')
    return "".join(out + bodies)


def _signature(source: str, func: str, path: str, backend: str):
    low = lower(source, backend, path=path)
    fd = low.functions.get(func)
    if fd is None:
        raise LowerError(f"reference function `{func}` not found (or not C99)", path)
    params = []
    for p in (fd.decl.type.args.params if fd.decl.type.args else []):
        if isinstance(p, c_ast.EllipsisParam) or getattr(p, "name", None) is None:
            continue
        t = p.type
        if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            inner = t.type
            while not isinstance(inner, c_ast.TypeDecl):
                inner = inner.type
            names = tuple(inner.type.names) if isinstance(inner.type, c_ast.IdentifierType) else ("?",)
            params.append((p.name, "ptr", _SCALAR_CTYPES.get(names)))
        else:
            names = tuple(t.type.names) if isinstance(t.type, c_ast.IdentifierType) else ("?",)
            params.append((p.name, "scalar", _SCALAR_CTYPES.get(names)))
    return params


def _compile(c_text: str, cc: str) -> ctypes.CDLL:
    key = hashlib.sha1(c_text.encode()).hexdigest()
    hit = _LIBS.get(key)
    if hit is not None:
        return hit[0]
    if not _TMP:
        _TMP.append(tempfile.TemporaryDirectory(prefix="kernelport-ref-"))
    d = _TMP[0].name
    src = os.path.join(d, f"ref_{key[:16]}.c")
    lib = os.path.join(d, f"ref_{key[:16]}.so")
    with open(src, "w") as f:
        f.write(c_text)
    # -ffp-contract=off: the reference is the ground truth, every operation rounded on its own
    r = subprocess.run([cc, "-O2", "-std=gnu11", "-fPIC", "-shared", "-ffp-contract=off", "-fno-fast-math", "-w",
                        "-o", lib, src, "-lm"], capture_output=True, text=True)
    if r.returncode != 0:
        m = re.search(r"^(.*?):(\d+):(\d+): error: (.*)$", r.stderr, re.M)
        if m:
            raise LowerError("reference does not compile: " + m.group(4), m.group(1), int(m.group(2)),
                             int(m.group(3)))
        raise LowerError("reference does not compile: " + r.stderr.strip()[:400])
    dll = ctypes.CDLL(lib)
    _LIBS[key] = (dll, lib)
    return dll


# `promote`: the reference evaluated in double precision (float spelled double, the f-suffixed
# math functions their double forms), an approximation of exact math ~1e-16 relative.  Verify's
# `auto` tolerance compares a port with it under the port's own rigorous error bound.
_PROMOTED_MATH = ("exp", "log", "sqrt", "fabs", "fmax", "fmin", "pow", "sin", "cos", "tan", "tanh", "sinh", "cosh",
                  "erf", "erfc", "expm1", "log1p", "exp2", "log2", "log10", "floor", "ceil", "round", "trunc", "fma",
                  "fmod", "atan", "atan2", "asin", "acos", "cbrt", "hypot", "copysign", "ldexp")
PROMOTE = "#define float double\n" + "".join(f"#define {f}f {f}\n" for f in _PROMOTED_MATH)


def run_reference(source: str, func: str, args: dict, path: str = "<kernel>", backend: str | None = None,
                  interpret: bool = False, promote: bool = False) -> dict[str, np.ndarray]:
    """Run the plain C function `func` of `source` with `args` (arrays for pointers, numbers for
    scalars); returns every pointer argument after the call (copies).  With `promote`, float
    buffers and scalars are passed and returned as float64 and computed in double.  backend: the
    dialect of `source` (by default the one kernels are written in)."""
    backend = backend or backends.source().name
    cc = None if interpret else c_compiler()
    if cc is None:
        if promote:
            raise ReferenceError_("a C compiler is needed to evaluate the reference in double precision")
        return _interpret(source, func, args, path, backend)
    params = _signature(source, func, path, backend)
    c_text = extract_c(source, func, path, backend)
    if promote:
        c_text = c_text.replace(HEADERS, HEADERS + PROMOTE, 1)
        double = (ctypes.c_double, np.float64)
        params = [(n, k, double if ct is not None and ct[1] is np.float32 else ct) for n, k, ct in params]
    dll = _compile(c_text, cc)
    fn = getattr(dll, func)
    fn.restype = None
    call_args, argtypes, outputs = [], [], {}
    for name, kind, ct in params:
        if name not in args:
            raise LowerError(f"no value for reference argument `{name}`", path)
        a = args[name]
        if kind == "ptr":
            dt = ct[1] if ct else np.asarray(a).dtype
            arr = np.array(np.asarray(a).reshape(-1), dtype=dt, copy=True)
            outputs[name] = arr
            call_args.append(arr.ctypes.data_as(ctypes.c_void_p))
            argtypes.append(ctypes.c_void_p)
        else:
            if ct is None:
                raise LowerError(f"unsupported type of reference parameter `{name}`", path)
            call_args.append(ct[0](ct[1](a).item()))
            argtypes.append(ct[0])
    fn.argtypes = argtypes
    fn(*call_args)
    return outputs


def _interpret(source, func, args, path, backend):
    from .emulator import run_kernel
    res = run_kernel(source, func, args=args, grid=(1, 1, 1), block=(1, 1, 1), path=path, backend=backend,
                     error_bound=False, check_races=False, max_steps=1 << 40, contract=False)
    return {k: v.copy() for k, v in res.outputs.items()}
