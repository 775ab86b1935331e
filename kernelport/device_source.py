"""What the GPU driver (kernelport/device.py) compiles of the original when the file as it is does not build.

The driver runs the kernel only: the original's host code is compiled but never runs.  Where that host code
does not compile (a function another file of the project defines, an API CUDA 13 removed: rodinia's
gaussian.cu reads `cudaDeviceProp::clockRate`, polybench's doitgen.cu calls the `rtclock` its header no
longer declares, a fragment file's `printf` its includer's `<stdio.h>` declares), the driver builds the
original with its host-only function bodies left out, which is what the emulator ran (kernels, device
functions, file-scope declarations); where the device code itself needs the includer's lines (hecbench's
sobel kernels.cu: `uchar` is sobel.h's, which main.cu includes first), the includer's lines come first,
unless they (or the headers beside the includer they include) define a macro the file uses: the emulator
ran the file without it.  A file the emulator itself ran only after its includer's lines (it cannot run
alone: hecbench's radixsort Scan_kernels.cu) is built after those lines from the first (`context`).  A header
that is not installed where the driver is built (llm.c's nccl_all_reduce.cu: <mpi.h>) is a located skip that
says what to install, never a failure of the kernel.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

# header -> what provides it (the skip's install hint); a header not here gets the general hint
PROVIDERS = {
    "mpi.h": "an MPI implementation (e.g. apt-get install libopenmpi-dev)",
    "nccl.h": "NCCL (e.g. apt-get install libnccl-dev)",
    "cublas_v2.h": "cuBLAS (the CUDA toolkit's libcublas-dev)",
    "cublasLt.h": "cuBLAS (the CUDA toolkit's libcublas-dev)",
    "cudnn.h": "cuDNN (e.g. apt-get install libcudnn9-dev-cuda-13)",
    "cudnn_frontend.h": "the cuDNN frontend headers (github.com/NVIDIA/cudnn-frontend, on the include path)",
    "GL/glew.h": "GLEW (e.g. apt-get install libglew-dev)",
    "GL/glut.h": "GLUT (e.g. apt-get install freeglut3-dev)",
    "GL/gl.h": "OpenGL (e.g. apt-get install libgl-dev)",
    "omp.h": "OpenMP (the host compiler's libgomp)",
}

# gcc's preprocessor: `FILE:LINE:COL: fatal error: HEADER: No such file or directory`
_MISSING = re.compile(r"^(?P<at>\S+?:\d+:\d+): fatal error: (?P<h>[^:\n]+): No such file or directory"
                      r"(?:\n\s*\d+\s*\|\s*#\s*include\s*(?P<q>[<\"]))?", re.M)
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_QUOTED = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
_SCOPES = ("class_specifier", "struct_specifier", "union_specifier")  # member functions: left as they are


def missing_header(stderr: str) -> str | None:
    """Why the driver cannot be built here where nvcc stopped at a header that is not installed: the
    include's location, the header and what provides it (None for any other error)."""
    m = _MISSING.search(stderr)
    if m is None:
        return None
    h = m.group("h").strip()
    if m.group("q") == '"' and h not in PROVIDERS:  # a project's own header: its directory is not passed
        return (f'{m.group("at")}: "{h}" is not on the GPU driver\'s include path: add its directory to '
                "[tool.kernelport] include-dirs (or the compile_commands.json the project's build writes)")
    what = PROVIDERS.get(h, f"the package that provides <{h}>")
    return (f"{m.group('at')}: <{h}> is not installed where the GPU driver is built (the original's code "
            f"includes it; the emulator's run does not read it): install {what}, or add its directory to "
            "[tool.kernelport] include-dirs")


def missing_name(stderr: str) -> str | None:
    """The header nvcc stopped at, not installed (None for any other error)."""
    m = _MISSING.search(stderr)
    return m.group("h").strip() if m is not None else None


def without_includes(text: str, headers: list[str]) -> str:
    """`text` with each #include of `headers` (not installed where the driver is built) an empty line: the
    emulator never read them (its preprocessor drops a header it cannot read), so the device code it ran does
    not need them; host code that does is left out (host_bodies), and a declaration the driver keeps that
    needs one still fails the build, which then stays the located skip at the header."""
    for h in headers:
        text = re.sub(rf'^[ \t]*#[ \t]*include[ \t]*[<"]{re.escape(h)}[>"][^\n]*$', "", text, flags=re.M)
    return text


def host_bodies(module) -> list[tuple[int, int]]:
    """Byte spans of the bodies of the file's host-only functions that no device code reaches: free and
    namespace-scope functions, not `constexpr` (a size device code may read), not class members."""
    from .model import device_references
    src = module.source
    needed = device_references(module)
    spans = []
    for f in module.functions.values():
        if f.is_device or f.body is None or f.name in needed:
            continue
        head = src.data[f.node.start_byte:f.body.start_byte]
        if b"constexpr" in head or b"consteval" in head:
            continue
        p, inside = f.node.parent, False
        while p is not None:
            inside |= p.type in _SCOPES
            p = p.parent
        a, b = f.body.start_byte, f.body.end_byte
        if not inside and src.data[a:a + 1] == b"{" and src.data[b - 1:b] == b"}":  # (a body the parse saw whole)
            spans.append((a, b))
    return sorted(spans)


# what a left-out body does if it runs after all (a file-scope initializer calls it before the driver's main):
# says so, and run_cuda makes that a skip, never a failure of the kernel
LEFT_OUT = "left out of the GPU driver, ran"
PRELUDE = ("#include <cstdio>\n#include <cstdlib>\n[[noreturn]] static inline void kp_left_out(const char* f) "
           f'{{ std::fprintf(stderr, "kernelport: the host function %s, {LEFT_OUT}\\n", f); std::abort(); }}\n')


def without_host_bodies(module) -> str:
    """The file's text with each host-only body left out (`{ kp_left_out(__func__); }`: it never runs),
    every line where it was, so nvcc's messages keep the file's line numbers; and a `main` defined without
    a return type (C89's implicit int, which nvcc allows `main` only) given `int `: the driver renames the
    file's main (`#define main kp_original_main`), and nvcc refuses implicit int on any other name
    (csinparallel's MM-GPU-GM.cu: `main(void){`)."""
    data, out, at = module.source.data, [], 0
    edits = [(a, b, None) for a, b in host_bodies(module)]
    f = module.functions.get("main")
    if f is not None and f.node.type == "function_definition" and f.node.child_by_field_name("type") is None:
        edits.append((f.node.start_byte, f.node.start_byte, b"int "))
    for a, b, put in sorted(edits, key=lambda e: (e[0], e[1])):
        if a < at:
            continue
        out += [data[at:a], put if put is not None else
                b"{ kp_left_out(__func__); " + b"\n" * data[a:b].count(b"\n") + b"}"]
        at = b
    out.append(data[at:])
    return b"".join(out).decode("utf-8", errors="replace")


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"][^\n]*$', re.M)


def with_trimmed_headers(path: Path, text: str, module_of: Callable) -> tuple[str, tuple[str, ...]]:
    """`text` (the file at `path`) with each header of its own directory tree that it includes directly and
    that has host-only bodies (host_bodies) written in place of its #include, those bodies left out, between
    #line directives (nvcc's messages keep both files' lines); and the -I flags of those headers' directories
    (their own quoted includes).  ((text, ()) where no such header.)"""
    from .source import SourceFile
    root, out, at, dirs, seen = path.parent, [], 0, [], set()
    for m in _INCLUDE.finditer(text):
        h = (root / m.group(1)).resolve()
        if h in seen or not h.is_file() or root not in h.parents:
            continue
        try:
            module = module_of(SourceFile.read(h))
        except (OSError, ValueError, UnicodeError, RecursionError):
            continue
        if not host_bodies(module):
            continue
        seen.add(h)
        line = text.count("\n", 0, m.start()) + 1
        out += [text[at:m.start()], _line(h), without_host_bodies(module), f'\n#line {line + 1} "{path}"']
        at = m.end()
        dirs.append(f"-I{h.parent}")
    if not seen:
        return text, ()
    out.append(text[at:])
    return "".join(out), tuple(dict.fromkeys(dirs))


def _beside(header: Path) -> str:
    """The text of a header the includer's lines include from its own directory ('' where there is none)."""
    try:
        return header.read_text(encoding="utf-8", errors="replace") if header.is_file() else ""
    except OSError:
        return ""


def _line(path: Path | str) -> str:
    return f'#line 1 "{Path(path).resolve()}"\n'


def variants(src, module_of: Callable, includer: Callable,
             context: tuple[str, str] | None = None) -> Iterator[tuple[str, str, tuple[str, ...]] | str]:
    """What the driver includes after the file as it is fails to build, in order: (what it is, text, extra
    nvcc flags), or a string: why the next one cannot be used.  module_of(src) -> the file's Module;
    includer(path) -> (its includer, the includer's text before the include) or None.  context: the
    includer's (path, lines) where the emulator ran the file only after them: the driver builds what the
    emulator read, the file after those lines (as it is, then its host-only bodies left out), never the file
    alone (run the driver with alone=False)."""
    path = Path(src.path).resolve()
    beside = (f"-I{path.parent}",)  # the copy's quoted includes are the file's
    if context is not None:
        from .emulator.frontend.preprocess import _open_conditionals
        g, before = context
        dirs = tuple(dict.fromkeys((f"-I{Path(g).resolve().parent}", *beside)))
        close = "\n#endif" * _open_conditionals(before)  # the includer's guard, open at its #include (as the emulator)
        yield f"the lines of its includer {g} before its #include first, as the emulator read them", \
            _line(g) + before + "\n" + _line(path) + src.text + close + "\n", dirs
        yield f"the lines of its includer {g} before its #include first, its host-only function bodies left out", \
            PRELUDE + _line(g) + before + "\n" + _line(path) + without_host_bodies(module_of(src)) + close + "\n", dirs
        return
    trimmed = without_host_bodies(module_of(src))
    yield "the original's host-only function bodies left out (the driver never runs them)", \
        PRELUDE + _line(path) + trimmed, beside
    inlined, dirs = with_trimmed_headers(path, trimmed, module_of)
    if dirs:  # (rivermax's csc_kernel.cu: its inc/helper_cuda.h reads cudaDeviceProp::computeMode, gone in CUDA 13)
        yield "the host-only function bodies of the original and of its own headers left out (the driver never runs " \
            "them)", PRELUDE + _line(path) + inlined, (*beside, *dirs)
    got = includer(path)
    if got is None:
        return
    g, before = got
    words = set(re.findall(r"[A-Za-z_]\w*", src.text))
    seen = before + "".join(_beside(Path(g).parent / h) for h in _QUOTED.findall(before))
    redefined = sorted({n for n in _DEFINE.findall(seen) if n in words})
    if redefined:
        yield (f"not built with its includer's lines ({g}), which it may need: they define "
               f"{', '.join(redefined)}, which the emulator's run of the file alone did not see")
        return
    dirs = tuple(dict.fromkeys((f"-I{Path(g).resolve().parent}", *beside)))
    yield f"the lines of its includer {g} before its #include first", \
        PRELUDE + _line(g) + before + "\n" + _line(path) + trimmed, dirs
