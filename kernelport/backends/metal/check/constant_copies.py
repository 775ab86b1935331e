"""Copies of a struct out of `constant` memory: valid Metal, an artefact of the checker's model.

The checker models MSL with C++ for OpenCL, whose implicit special members take a `__generic`
reference (C++ for OpenCL 2021, "Implicit special members": generated "with the generic address
space"). `__global` and `__local` convert to `__generic`; `__constant` does not, so clang rejects
`Params p = c_params;`, `p = c_params;` and passing `c_params` by value whenever `c_params` lives in
`constant`. MSL has no generic address space; a struct read out of a `constant` buffer into a
`thread` object is an ordinary value copy there (clang's own HLSL mode had the same model gap for
a struct read out of a cbuffer, llvm-project#153055, and treats it as an lvalue-to-rvalue copy).

Only that case is let through: the error is a failed constructor, functional cast or `=`, an
IMPLICIT special member fails on exactly the `__constant` -> `__generic` binding, and no candidate the
class declares itself fails on a reference's address space (its other constructors, `FFP(uint64_t)`,
fail on arity or type: no copy of theirs is missed). A user-declared constructor (`U(const thread U&)`), a `thread` reference
bound to a constant object, a pointer into another space or a write to `constant` memory give
other messages and stay errors.  Nor a struct with a pointer member whose address space is not written:
MSL wants each pointer's space (the checker's generic pointers accept any), so such a copy stays the
error it was until the port spells them.
"""
from __future__ import annotations

import re

from .... import lazy_re

# clang's wording, as data: the errors a struct copy raises, and the notes that name the candidates
_COPY_ERRORS = ("no matching constructor for initialization of", "no viable overloaded '='",
                "no matching conversion for functional-style cast from")  # `T(c)`: a copy (constant_refs.py)
_IMPLICIT_CANDIDATE = ("candidate constructor (the implicit ", "candidate function (the implicit ")
_CONSTANT_TO_GENERIC = "cannot bind reference in address space '__constant' to object in address space '__generic'"
_BINDS = "cannot bind reference in address space"


def is_constant_struct_copy(message: str, notes: list[str], text: str = "") -> bool:
    """True where clang's error is only C++ for OpenCL's generic copy of a `constant` struct (of a type
    the port `text` defines without pointer members)."""
    if not message.startswith(_COPY_ERRORS) or _has_pointer_members(message, text):
        return False
    candidates = [n for n in notes if n.startswith("candidate ")]
    # the class's own constructors may be candidates too where none is a copy (FFP(uint64_t), FFP()): those
    # fail on arity or type, never on a reference's address space, as a user copy constructor would
    own = [n for n in candidates if not n.startswith(_IMPLICIT_CANDIDATE)]
    return (bool(candidates) and not any(_BINDS in n for n in own)
            and any(_CONSTANT_TO_GENERIC in n for n in candidates if n.startswith(_IMPLICIT_CANDIDATE)))


def _has_pointer_members(message: str, text: str) -> bool:
    """Whether the struct the message names (`'thread params_t'`) has a pointer member with no address
    space written (`float *dst;`, where MSL wants `device float *dst;`) in the port `text`."""
    m = re.search(r"'(?:\w+ )*?(\w+)'", message)
    if m is None or not text:
        return False
    t = re.escape(m.group(1))
    body = re.search(r"struct\s+" + t + r"\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}", text) or \
        re.search(r"typedef\s+struct\s*\w*\s*\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*" + t + r"\s*;", text)
    if body is None:
        return False
    # data members only: a comment (`int x100;  // logP * 100`), a member function's body and parameters
    # (`a * x + b`, `(float* p)`) are no members
    members = re.sub(r"\{[^{}]*\}|\([^()]*\)", " ", _COMMENTS.sub(" ", body.group(1)))
    members = _OPERATOR_NAMES.sub(" ", members)  # `V operator*(const V &o)`: a member operator's `*` is no pointer
    return any("*" in d and not _SPACES.search(d) for d in members.split(";"))


_COMMENTS = lazy_re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_OPERATOR_NAMES = lazy_re.compile(r"\boperator\s*[^\s\w(]+")
_SPACES = lazy_re.compile(r"\b(device|constant|threadgroup|thread)\b")
