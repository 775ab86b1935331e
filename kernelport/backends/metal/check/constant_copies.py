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
other messages and stay errors.
"""
from __future__ import annotations

# clang's wording, as data: the errors a struct copy raises, and the notes that name the candidates
_COPY_ERRORS = ("no matching constructor for initialization of", "no viable overloaded '='")
_IMPLICIT_CANDIDATE = ("candidate constructor (the implicit ", "candidate function (the implicit ")
_CONSTANT_TO_GENERIC = "cannot bind reference in address space '__constant' to object in address space '__generic'"


def is_constant_struct_copy(message: str, notes: list[str]) -> bool:
    """True where clang's error is only C++ for OpenCL's generic copy of a `constant` struct."""
    if not message.startswith(_COPY_ERRORS):
        return False
    candidates = [n for n in notes if n.startswith("candidate ")]
    return (bool(candidates) and all(n.startswith(_IMPLICIT_CANDIDATE) for n in candidates)
            and any(_CONSTANT_TO_GENERIC in n for n in candidates))
