"""A member of `this` passed to a `thread` reference inside an unqualified member function: valid Metal,
an artefact of the checker's model (cuFHE's `ModP(val_)` in `FFP::Mul`).

MSL gives an unqualified member function a `thread` `this` (its `device` twin, written by
object_spaces.py, serves device objects), so `val_` there is a thread lvalue and binds the `thread
uint64_t&` of `void ModP(uint64_t& x)`.  C++ for OpenCL gives that `this` the generic address space,
and the checker writes the parameter `thread` (__private: thread_params.py), so clang rejects the call:
the generic lvalue does not convert to __private.  Only that error is let through: no function fits
the call, a candidate fails on exactly the `__generic` -> `__private` binding, and every other candidate
fails on `this` alone (a twin for device or threadgroup objects); or, with one function of the name,
clang's "binding reference of type '__private T' to value of type '__generic T' changes address space".  An unqualified lvalue is `thread`
in MSL wherever the checker calls it generic (a const reference parameter, the other generic one,
cannot bind a non-const reference: clang says so otherwise).
"""
from __future__ import annotations

import re

_CALL_ERRORS = ("no matching member function for call to", "no matching function for call to")
_GENERIC_TO_THREAD = "cannot bind reference in address space '__generic' to object in address space '__private'"
_THIS = "'this' object is in address space "


# the same binding where one function fits by name (no candidate list): clang names both types
_BINDING = re.compile(r"binding reference of type '(?:const )?__private [^']*'( \(aka '[^']*'\))? to value of type "
                      r"'(?:const )?__generic [^']*'( \(aka '[^']*'\))? changes address space$")


def is_thread_member_binding(message: str, notes: list[str]) -> bool:
    """True where clang's error is only a generic `this`'s member bound to a thread reference."""
    if _BINDING.match(message):
        return True
    if not message.startswith(_CALL_ERRORS):
        return False
    candidates = [n for n in notes if n.startswith("candidate ")]
    binding = [n for n in candidates if _GENERIC_TO_THREAD in n]
    return bool(binding) and all(n in binding or _THIS in n for n in candidates)
