"""`#pragma unroll N` with N a non-positive integer: nvcc ignores the pragma (CUDA C++ Programming Guide,
"#pragma unroll": it "will be ignored if the ICE evaluates to a non-positive integer"), clang (hipcc's
and Metal's compiler) rejects it ("invalid value '0'; must be positive").  The port drops the pragma,
keeping its text in a comment on its line: the loop is what nvcc compiles, not unrolled by request.
cuFHE's bootstrap_gpu.cu (`#pragma unroll 0` above its key-switching loops) stopped hipcc there."""
from __future__ import annotations

from .rewrite import Rewriter
from .source import SourceFile
from . import lazy_re

# `#pragma unroll 0`, `#pragma unroll (-1)`: a literal count only (a named constant's value is the build's)
_IGNORED = lazy_re.compile(r"#\s*pragma\s+unroll\s*\(?\s*(-\s*)?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?")


def drop(src: SourceFile, rw: Rewriter) -> None:
    for n in src.index.of_type("preproc_call"):
        text = src.text_of(n).rstrip()
        m = _IGNORED.fullmatch(text.strip())
        if m is not None and (m.group(1) or int(m.group(2), 0) == 0):
            rw.replace(n, f"/* {text.strip()}: nvcc ignores a non-positive count */" + src.text_of(n)[len(text):])


def drop_pass(translator) -> None:
    """The translator's pass (Translator.drop_ignored_unrolls)."""
    drop(translator.src, translator.rw)
