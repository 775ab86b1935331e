"""Copies of a struct out of `constant` memory: valid Metal, an artefact of the checker's model.

The checker models MSL with C++ for OpenCL, whose implicit special members take a `__generic`
reference (C++ for OpenCL 2021, "Implicit special members": generated "with the generic address
space"). `__global` and `__local` convert to `__generic`; `__constant` does not, so clang rejects
`Params p = c_params;`, `p = c_params;` and passing `c_params` by value whenever `c_params` lives in
`constant`. MSL has no generic address space; a struct read out of a `constant` buffer into a
`thread` object is an ordinary value copy there (clang's own HLSL mode had the same model gap for
a struct read out of a cbuffer, llvm-project#153055, and treats it as an lvalue-to-rvalue copy).

Only that case is let through: the error is a failed constructor or `=`, every candidate clang
names is an IMPLICIT special member, and at least one fails on exactly the `__constant` ->
`__generic` binding. A user-declared constructor (`U(const thread U&)`), a `thread` reference
bound to a constant object, a pointer into another space or a write to `constant` memory give
other messages and stay errors.  Nor a struct with a pointer member whose address space is not written:
MSL wants each pointer's space (the checker's generic pointers accept any), so such a copy stays the
error it was until the port spells them.
"""
from __future__ import annotations

import re

from .... import lazy_re

# clang's wording, as data: the errors a struct copy raises, and the notes that name the candidates
_COPY_ERRORS = ("no matching constructor for initialization of", "no viable overloaded '='")
_IMPLICIT_CANDIDATE = ("candidate constructor (the implicit ", "candidate function (the implicit ")
_CONSTANT_TO_GENERIC = "cannot bind reference in address space '__constant' to object in address space '__generic'"


def is_constant_struct_copy(message: str, notes: list[str], text: str = "") -> bool:
    """True where clang's error is only C++ for OpenCL's generic copy of a `constant` struct (of a type
    the port `text` defines without pointer members)."""
    if not message.startswith(_COPY_ERRORS) or _has_pointer_members(message, text):
        return False
    candidates = [n for n in notes if n.startswith("candidate ")]
    return (bool(candidates) and all(n.startswith(_IMPLICIT_CANDIDATE) for n in candidates)
            and any(_CONSTANT_TO_GENERIC in n for n in candidates))


def _has_pointer_members(message: str, text: str) -> bool:
    """Whether the struct the message names (`'thread params_t'`) has a pointer member with no address
    space written (`float *dst;`, where MSL wants `device float *dst;`) in the port `text`."""
    m = re.search(r"'(?:\w+ )*?(\w+)'", message)
    if m is None or not text:
        return False
    t = re.escape(m.group(1))
    body = re.search(r"struct\s+" + t + r"\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", text) or \
        re.search(r"typedef\s+struct\s*\w*\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*" + t + r"\s*;", text)
    return body is not None and any("*" in d and not _SPACES.search(d) for d in body.group(1).split(";"))


_SPACES = lazy_re.compile(r"\b(device|constant|threadgroup|thread)\b")
