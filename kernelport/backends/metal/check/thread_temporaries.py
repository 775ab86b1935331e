"""A temporary bound to a `const` reference parameter: valid Metal, an artefact of the checker's model.

MSL's unqualified reference parameter is a `thread` one, `const` or not: `float twice(const float &x)`
given `buf[i]` (device) or `tile[j]` (threadgroup) is rejected by Metal, as a reference in one address
space binds no object in another.  thread_params.py therefore writes `thread` (the header's `__private`)
before const references too.  A temporary (`twice(1.0f)`, `twice(a + b)`, `dot(u + v)`, an `int`
converted to the parameter's `float`) binds a `const thread T&` in Metal, but C++ for OpenCL materialises
it in no address space, which does not convert to `__private`, so clang rejects the call.  Only that
error is let through: no function fits, and every candidate fails on binding an object in the default
(no) address space to the reference (or a generic `this`'s member: thread_this.py), on `this` alone (a twin for device or threadgroup objects) or on
its number of arguments (cuFHE's `void Pow(uint32_t)` beside `static FFP Pow(const FFP&, uint32_t)`) or
on another type than the argument's, spaces aside (`fminf(float, float)` beside `fminf(const float3&,
const float3&)` given a float3); or,
with one function of the name, clang's "cannot bind to a temporary object" and "binding reference of type
'const __private T' to value of type 'T' changes address space" (a value of no space: a temporary).

clang names the first argument that fails only: thread_arguments.py wraps each temporary let through and
runs clang again, so a later device argument (`two(1.0f, buf[i])`) is reported.  A temporary object of a
thread member function (`(a + b).norm()`, thread_members.py) is let through the same way.
"""
from __future__ import annotations

import re

_CALL_ERRORS = ("no matching member function for call to", "no matching function for call to",
                "no matching constructor for initialization of", "invalid operands to binary expression",
                "no viable overloaded")
_TEMPORARY = re.compile(r"cannot bind reference in (?:default address space|address space '__generic') "
                        r"to object in address space '__private'")
_THIS = "'this' object is in address space "
_ARITY = re.compile(r"requires (?:single|\d+|at (?:least|most) \d+) arguments?(?: '[^']*')?, but \d+ (?:arguments? )?(?:was|were) provided")
_NO_SPACE_TEMPORARY = re.compile(r"reference of type 'const __private [^']*' cannot bind to a temporary object "
                                 r"because of address space mismatch$")
_CONVERSION = re.compile(r"no known conversion from '(?P<a>[^']*)'.*? to '(?P<b>[^']*)'")
_SPACE = re.compile(r"\b__(?:private|global|local|constant|generic)\b")
_BINDING = re.compile(r"binding reference of type 'const __private [^']*'( \(aka '[^']*'\))? to value of type "
                      r"'(?P<value>[^']*)'( \(aka '[^']*'\))? changes address space$")


_OBJECT = re.compile(r"cannot initialize object parameter of type '(?:const )?__private [^']*'( \(aka '[^']*'\))? with an "
                     r"expression of type '(?P<value>[^']*)'")
# a temporary's member call (thread_members.py): the object is in no space, a thread method takes it in Metal
TEMPORARY_THIS = "'this' object is in default address space, but method expects object in address space '__private'"
_ANY_TEMPORARY_THIS = "'this' object is in default address space"


def is_thread_temporary_binding(message: str, notes: list[str]) -> bool:
    """True where clang's error is only a temporary bound to a `const thread` reference parameter (or a
    temporary object of a thread member function: thread_members.py)."""
    if _NO_SPACE_TEMPORARY.match(message):
        return True
    o = _OBJECT.match(message)
    if o is not None:
        return not _SPACE.search(o.group("value"))
    b = _BINDING.match(message)
    if b is not None:
        return not _SPACE.search(b.group("value"))
    if not message.startswith(_CALL_ERRORS):
        return False
    candidates = [n for n in notes if n.startswith(("candidate ", "built-in candidate"))
                  and "built-in candidate" not in n]
    binding = [n for n in candidates if _TEMPORARY.search(n) or TEMPORARY_THIS in n]
    return bool(binding) and all(n in binding or _THIS in n or _ANY_TEMPORARY_THIS in n or _ARITY.search(n)
                                 or _other_type(n) for n in candidates)


def _other_type(note: str) -> bool:
    """A candidate that takes another type than the argument's, whatever the spaces (fminf(float, float)
    given a float3): not viable in Metal either."""
    m = _CONVERSION.search(note)

    def bare(t: str) -> str:
        return " ".join(w for w in _SPACE.sub(" ", t).split() if w not in ("const", "volatile"))
    return m is not None and "*" not in m.group("a") + m.group("b") and bare(m.group("a")) != bare(m.group("b"))
