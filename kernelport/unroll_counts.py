"""`#pragma unroll N` with N a non-positive integer: nvcc ignores the pragma (CUDA C++ Programming Guide,
"#pragma unroll": it "will be ignored if the ICE evaluates to a non-positive integer"), clang (hipcc's
and Metal's compiler) rejects it ("invalid value '0'; must be positive").  The port drops the pragma,
keeping its text in a comment on its line: the loop is what nvcc compiles, not unrolled by request.
cuFHE's bootstrap_gpu.cu (`#pragma unroll 0` above its key-switching loops) stopped hipcc there.

A count that reads a non-type template parameter (`#pragma unroll Nth_POWER` in a kernel template)
has one value per instantiation, and one may be 0 (Zialus/cumf_ccd's updateR_gen<1, 0>): nvcc ignores
the pragma there, clang rejects that instance.  The port guards the count, `+(N) > 0 ? (N) : 1`: the
same count wherever it is positive, 1 (the loop not unrolled by request) where nvcc ignores it; the
leading `+` keeps clang from reading `(N)` as the whole argument.  A macro's or a constant's count has
the build's one value and is kept."""
from __future__ import annotations

from .rewrite import Rewriter
from .source import SourceFile
from . import lazy_re

# `#pragma unroll 0`, `#pragma unroll (-1)`: a literal count only (a named constant's value is the build's)
_IGNORED = lazy_re.compile(r"#\s*pragma\s+unroll\s*\(?\s*(-\s*)?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\s*\)?")


_COUNT = lazy_re.compile(r"#\s*pragma\s+unroll\s+(?P<count>[^\s/].*?)\s*(?://.*|/\*.*)?")
_NAME = lazy_re.compile(r"[A-Za-z_]\w*")


def _template_values(src: SourceFile, n) -> set[str]:
    """The non-type template parameters of every template around `n` (a function's, its class's)."""
    names: set[str] = set()
    p = n.parent
    while p is not None:
        if p.type == "template_declaration" and (params := p.child_by_field_name("parameters")) is not None:
            for c in params.named_children:
                if c.type in ("parameter_declaration", "optional_parameter_declaration"):
                    d = c.child_by_field_name("declarator")
                    if d is not None and d.type == "identifier":
                        names.add(src.text_of(d))
        p = p.parent
    return names


def drop(src: SourceFile, rw: Rewriter) -> None:
    for n in src.index.of_type("preproc_call"):
        text = src.text_of(n).rstrip()
        m = _IGNORED.fullmatch(text.strip())
        if m is not None and (m.group(1) or int(m.group(2), 0) == 0):
            rw.replace(n, f"/* {text.strip()}: nvcc ignores a non-positive count */" + src.text_of(n)[len(text):])
        elif m is None and (c := _COUNT.fullmatch(text.strip())) is not None:
            count = c.group("count")
            if set(_NAME.findall(count)) & _template_values(src, n):
                head = text.strip()[:c.start("count")]
                rw.replace(n, f"{head}+({count}) > 0 ? ({count}) : 1" + src.text_of(n)[len(text):])


def drop_pass(translator) -> None:
    """The translator's pass (Translator.drop_ignored_unrolls)."""
    drop(translator.src, translator.rw)
