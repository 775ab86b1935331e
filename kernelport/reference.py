"""Run the annotated scalar C reference of a kernel file.

The reference is a plain C function in the kernel file.  It is extracted (with the plain helpers
it calls and the file's typedefs / constants), compiled with the system C compiler, linked with
a small harness into an executable in a temporary directory, and run in a child process: the
kernel file's own C code never runs inside kernelport.  The child gets the arguments through a
file, has a wall-clock timeout ($KERNELPORT_REFERENCE_TIMEOUT, default 60 s) and a memory limit,
and must return from the function for its result to count: an exit (even exit(0)), a signal or
a missing result is a ReferenceError_ naming the reason.  With `interpret` (verify's
--no-native-reference), or without a C compiler, the reference is interpreted by the emulator
(one thread, scalar) in a child Python under the same kind of limits.  Executables are cached by content hash for
the life of the process.

    out = run_reference(src, "block_sum_ref", {"x": x, "out": out, "n": n}, path="k.cu")
    out["out"]  # the expected values
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile

import numpy as np
from pycparser import c_ast

from . import backends
from .emulator.frontend import SHARED_STORAGE, LowerError, Qualifiers, lower, preprocess, rewrite_item, split_items, \
    strip_template_header

_LIBS: dict[str, str] = {}  # content hash -> the compiled reference's object file
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


class ReferenceTimedOut(ReferenceError_):
    """The reference did not return within its `seconds` (verify --timeout, or its own limit): a check
    it cuts is a skip (check_budget), located at the reference's annotation."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = self.elapsed = seconds
        self.progress, self.line = "", 0
        self.also = "; $KERNELPORT_REFERENCE_TIMEOUT is the reference's own limit (default 60 s, 600 interpreted)"


from .toolchains import c_compiler, c_compiler_identity  # noqa: E402,F401 - the reference's compiler


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


_CFLAGS = ["-O2", "-std=gnu11", "-fPIC", "-ffp-contract=off", "-fno-fast-math", "-w"]
COMPILE_TIMEOUT = 120


def _workdir() -> str:
    if not _TMP:
        _TMP.append(tempfile.TemporaryDirectory(prefix="kernelport-ref-"))
    return _TMP[0].name


def _cc(cmd: list[str], what: str) -> subprocess.CompletedProcess:
    from .compile_cache import note

    note("uncached", cmd)
    try:
        from .subproc import run as run_group  # a timeout ends gcc's cc1 too
        return run_group(cmd, timeout=COMPILE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise ReferenceError_(f"compiling the {what} took more than {COMPILE_TIMEOUT} s") from None


def _compile(c_text: str, cc: str) -> str:
    """The reference's object file (its own translation unit, compiled as it always was)."""
    key = hashlib.sha1(c_text.encode()).hexdigest()
    hit = _LIBS.get(key)
    if hit is not None:
        return hit
    d = _workdir()
    src = os.path.join(d, f"ref_{key[:16]}.c")
    obj = os.path.join(d, f"ref_{key[:16]}.o")
    with open(src, "w") as f:
        f.write(c_text)
    # -ffp-contract=off: the reference is the ground truth, every operation rounded on its own.
    # Built under a private name, then renamed: worker processes may share the directory.
    part = f"{obj}.{os.getpid()}"
    r = _cc([cc, *_CFLAGS, "-c", "-o", part, src], "reference")
    if r.returncode != 0:
        m = re.search(r"^(.*?):(\d+):(\d+): error: (.*)$", r.stderr, re.M)
        if m:
            raise LowerError("reference does not compile: " + m.group(4), m.group(1), int(m.group(2)),
                             int(m.group(3)))
        raise LowerError("reference does not compile: " + r.stderr.strip()[:400])
    os.replace(part, obj)
    _LIBS[key] = obj
    return obj


# The harness: reads each argument from the input file (a pointer: 8-byte length + bytes; a
# scalar: its bytes), calls the reference, writes every buffer and then the marker.  A result
# without the marker was not returned from the function.
_MARK = b"KPREF-RETURNED\n"
_C_SCALAR = {np.float32: "float", np.float64: "double", np.int32: "int32_t", np.uint32: "uint32_t",
             np.int64: "int64_t", np.uint64: "uint64_t", np.int8: "int8_t", np.uint8: "uint8_t",
             np.int16: "int16_t", np.uint16: "uint16_t", np.bool_: "_Bool"}


def _harness(func: str, kinds: list[tuple[str, str | None]]) -> str:
    proto = ", ".join("void*" if k == "ptr" else t for k, t in kinds) or "void"
    lines = ["#include <stdio.h>", "#include <stdlib.h>", "#include <stdint.h>",
             f"void {func}({proto});",
             "static void kp_read(FILE* f, void* p, size_t n) { if (n && fread(p, 1, n, f) != n) _Exit(120); }",
             "int main(int argc, char** argv) {",
             "  if (argc != 3) return 120;",
             "  FILE* in = fopen(argv[1], \"rb\"); if (!in) return 120;"]
    for i, (k, t) in enumerate(kinds):
        if k == "ptr":
            lines += [f"  uint64_t kp_n{i}; kp_read(in, &kp_n{i}, 8);",
                      f"  void* kp_a{i} = malloc(kp_n{i} ? kp_n{i} : 1); if (!kp_a{i}) _Exit(121);",
                      f"  kp_read(in, kp_a{i}, kp_n{i});"]
        else:
            lines += [f"  {t} kp_a{i}; kp_read(in, &kp_a{i}, sizeof kp_a{i});"]
    lines += ["  fclose(in);", f"  {func}({', '.join(f'kp_a{i}' for i in range(len(kinds)))});",
              "  FILE* out = fopen(argv[2], \"wb\"); if (!out) _Exit(122);"]
    for i, (k, _) in enumerate(kinds):
        if k == "ptr":
            lines.append(f"  if (fwrite(kp_a{i}, 1, kp_n{i}, out) != kp_n{i}) _Exit(122);")
    mark = _MARK.decode().replace("\n", "\\n")
    lines += [f"  fwrite(\"{mark}\", 1, {len(_MARK)}, out);", "  if (fclose(out)) _Exit(122);", "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def _executable(obj: str, func: str, kinds, cc: str) -> str:
    text = _harness(func, kinds)
    key = hashlib.sha1((obj + text).encode()).hexdigest()[:16]
    exe = os.path.join(_workdir(), f"ref_{key}")
    if os.path.exists(exe):
        return exe
    main = f"{exe}_{os.getpid()}_main.c"
    with open(main, "w") as f:
        f.write(text)
    part = f"{exe}.{os.getpid()}"
    r = _cc([cc, *_CFLAGS, "-o", part, main, obj, "-lm"], "reference harness")
    if r.returncode != 0:
        raise ReferenceError_("the reference does not link: " + r.stderr.strip()[:400])
    os.replace(part, exe)
    return exe


def reference_timeout(interpreted: bool = False, check: float | None = None) -> float:
    """Seconds a reference may run: $KERNELPORT_REFERENCE_TIMEOUT, default 60 (600 interpreted),
    and at most `check` (verify --timeout)."""
    raw = os.environ.get("KERNELPORT_REFERENCE_TIMEOUT", "").strip()
    try:
        limit = float(raw) if raw else 600.0 if interpreted else 60.0
        return min(limit, check) if check is not None else limit
    except ValueError:
        raise ReferenceError_(f"KERNELPORT_REFERENCE_TIMEOUT={raw!r} is not a number of seconds") from None


def _limits(memory: int, file_size: int):
    def apply():  # in the child, before exec: no imports here (another thread may hold the import lock)
        for lim, v in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_FSIZE, file_size), (resource.RLIMIT_CORE, 0)):
            try:
                resource.setrlimit(lim, (v, v))
            except (ValueError, OSError):
                pass
    return apply


def _run_child(exe: str, func: str, blob: bytes, out_bytes: int, check_timeout: float | None = None) -> bytes:
    """Run the harness; the buffers' bytes after the call, or ReferenceError_ saying why not."""
    d = tempfile.mkdtemp(prefix="call-", dir=_workdir())
    try:
        inp, outp, log = (os.path.join(d, n) for n in ("in.bin", "out.bin", "log.txt"))
        with open(inp, "wb") as f:
            f.write(blob)
        timeout = reference_timeout(check=check_timeout)
        memory = 3 * len(blob) + (1 << 30)
        with open(log, "wb") as lf:
            p = subprocess.Popen([exe, inp, outp], stdin=subprocess.DEVNULL, stdout=lf, stderr=lf, cwd=d,
                                 preexec_fn=_limits(memory, out_bytes + (64 << 20)), start_new_session=True)
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                raise ReferenceTimedOut(f"{func} did not return within {timeout:g} s (an endless loop? "
                                        "KERNELPORT_REFERENCE_TIMEOUT raises the limit)", timeout) from None
            except BaseException:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                raise
        with open(log, "rb") as f:
            said = f.read()[-300:].decode("utf-8", "replace").strip()
        tail = f"; it printed: {said}" if said else ""
        if rc < 0:
            name = signal.Signals(-rc).name if -rc in signal.valid_signals() else str(-rc)
            extra = " (memory limit or bad pointer?)" if -rc in (signal.SIGSEGV, signal.SIGBUS, signal.SIGKILL) else \
                " (file size limit)" if -rc == signal.SIGXFSZ else ""
            raise ReferenceError_(f"{func} was killed by signal {-rc} ({name}){extra}{tail}")
        data = b""
        if os.path.exists(outp):
            with open(outp, "rb") as f:
                data = f.read()
        if rc in (120, 121, 122) and not data.endswith(_MARK):
            raise ReferenceError_(f"the reference harness could not pass the arguments (status {rc}: memory "
                                  f"limit {memory} bytes?){tail}")
        if rc != 0 or len(data) != out_bytes + len(_MARK) or not data.endswith(_MARK):
            raise ReferenceError_(f"{func} exited with status {rc} before returning (exit() or abort() in the "
                                  f"reference?): no result{tail}")
        return data[:out_bytes]
    finally:
        shutil.rmtree(d, ignore_errors=True)


# `promote`: the reference evaluated in double precision (float spelled double, the f-suffixed
# math functions their double forms), an approximation of exact math ~1e-16 relative.  Verify's
# `auto` tolerance compares a port with it under the port's own rigorous error bound.
_PROMOTED_MATH = ("exp", "log", "sqrt", "fabs", "fmax", "fmin", "pow", "sin", "cos", "tan", "tanh", "sinh", "cosh",
                  "erf", "erfc", "expm1", "log1p", "exp2", "log2", "log10", "floor", "ceil", "round", "trunc", "fma",
                  "fmod", "atan", "atan2", "asin", "acos", "cbrt", "hypot", "copysign", "ldexp")
PROMOTE = "#define float double\n" + "".join(f"#define {f}f {f}\n" for f in _PROMOTED_MATH)


def run_reference(source: str, func: str, args: dict, path: str = "<kernel>", backend: str | None = None,
                  interpret: bool = False, promote: bool = False,
                  timeout: float | None = None) -> dict[str, np.ndarray]:
    """Run the plain C function `func` of `source` with `args` (arrays for pointers, numbers for
    scalars); returns every pointer argument after the call (copies).  With `promote`, float
    buffers and scalars are passed and returned as float64 and computed in double.  backend: the
    dialect of `source` (by default the one kernels are written in)."""
    backend = backend or backends.source().name
    cc = None if interpret else c_compiler()
    if cc is None:
        return _interpret_in_child(source, func, args, path, backend, promote, timeout)
    params = _signature(source, func, path, backend)
    c_text = extract_c(source, func, path, backend)
    if promote:
        c_text = c_text.replace(HEADERS, HEADERS + PROMOTE, 1)
        double = (ctypes.c_double, np.float64)
        params = [(n, k, double if ct is not None and ct[1] is np.float32 else ct) for n, k, ct in params]
    obj = _compile(c_text, cc)
    blob, kinds, outputs = [], [], {}
    for name, kind, ct in params:
        if name not in args:
            raise LowerError(f"no value for reference argument `{name}`", path)
        a = args[name]
        if kind == "ptr":
            dt = ct[1] if ct else np.asarray(a).dtype
            arr = np.array(np.asarray(a).reshape(-1), dtype=dt, copy=True)
            outputs[name] = arr
            blob += [np.uint64(arr.nbytes).tobytes(), arr.tobytes()]
            kinds.append(("ptr", None))
        else:
            if ct is None:
                raise LowerError(f"unsupported type of reference parameter `{name}`", path)
            blob.append(np.asarray(ct[1](a).item(), dtype=ct[1]).tobytes())
            kinds.append(("scalar", _C_SCALAR[ct[1]]))
    exe = _executable(obj, func, kinds, cc)
    data = _run_child(exe, func, b"".join(blob), sum(a.nbytes for a in outputs.values()), timeout)
    pos = 0
    for name, arr in outputs.items():
        arr[:] = np.frombuffer(data, dtype=arr.dtype, count=arr.size, offset=pos)
        pos += arr.nbytes
    return outputs


def _interpret(source, func, args, path, backend, promote=False):
    """The reference run by the emulator (one thread): no native code of the file runs at all.
    With `promote`, the same #defines as the compiled path make it compute in double."""
    from .emulator import run_kernel
    if promote:
        source = PROMOTE + f'# 1 "{path}"\n' + source
        args = {k: v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype == np.float32 else v
                for k, v in args.items()}
    res = run_kernel(source, func, args=args, grid=(1, 1, 1), block=(1, 1, 1), path=path, backend=backend,
                     error_bound=False, check_races=False, max_steps=1 << 40, contract=False)
    return {k: v.copy() for k, v in res.outputs.items()}


def _interpret_in_child(source, func, args, path, backend, promote, check_timeout=None) -> dict[str, np.ndarray]:
    """_interpret in a child Python (kernelport.reference_child) under the same wall-clock limit
    (default 600 s: interpretation is slow) and a memory limit; errors come back as messages."""
    import pickle
    import sys
    d = tempfile.mkdtemp(prefix="interp-", dir=_workdir())
    try:
        inp, outp, log = (os.path.join(d, n) for n in ("in.pkl", "out.pkl", "log.txt"))
        with open(inp, "wb") as f:
            pickle.dump((source, func, args, path, backend, promote), f, protocol=pickle.HIGHEST_PROTOCOL)
        size = os.path.getsize(inp)
        timeout = reference_timeout(interpreted=True, check=check_timeout)
        pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
               "PYTHONPATH": os.pathsep.join(x for x in (pkg_root, os.environ.get("PYTHONPATH")) if x)}
        with open(log, "wb") as lf:
            p = subprocess.Popen([sys.executable, "-m", "kernelport.reference_child", inp, outp],
                                 stdin=subprocess.DEVNULL, stdout=lf, stderr=lf, cwd=d, env=env,
                                 preexec_fn=_limits(8 * size + (4 << 30), 8 * size + (64 << 20)),
                                 start_new_session=True)
            try:
                rc = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                raise ReferenceTimedOut(f"{func} did not return within {timeout:g} s when interpreted (an "
                                        "endless loop? KERNELPORT_REFERENCE_TIMEOUT raises the limit)", timeout) from None
            except BaseException:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
                raise
        if rc != 0 or not os.path.exists(outp):
            with open(log, "rb") as f:
                said = f.read()[-300:].decode("utf-8", "replace").strip()
            how = f"signal {-rc}" if rc < 0 else f"status {rc}"
            raise ReferenceError_(f"interpreting {func} failed ({how}; memory limit?){': ' + said if said else ''}")
        with open(outp, "rb") as f:
            kind, value = pickle.load(f)
        if kind == "error":
            raise ReferenceError_(value)
        return value
    finally:
        shutil.rmtree(d, ignore_errors=True)
