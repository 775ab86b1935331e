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

The same model gap at the object itself: a constructor or destructor has no `thread` written after its
parameters (thread_members.py leaves them: they have no object to qualify), so C++ for OpenCL gives its
`this` the generic space, and a call of an unqualified member from its body (`L(float P) : p(P) { upd(); }`,
a derived class's constructor calling its base's member) fails on "cannot initialize object parameter of
type '__private L' with an expression of type '__generic L'".  MSL gives that `this` the thread space, so
the call is valid there: that error is let through where the object is generic and the member `thread`; so
is "no matching member function" where the member has a `device` twin (object_spaces.py) and the `thread`
one fails on the generic `this` alone (clang checks no argument of a candidate whose object fails, as for the
calls above).  A device, threadgroup or constant object (`q->upd()` with `device L* q`: '__global L') is
still an error.
"""
from __future__ import annotations

import re

_CALL_ERRORS = ("no matching member function for call to", "no matching function for call to")
_GENERIC_TO_THREAD = "cannot bind reference in address space '__generic' to object in address space '__private'"
_THIS = "'this' object is in address space "
# a generic object (a constructor's or destructor's `this`) calling a `thread` member: valid MSL
_GENERIC_THIS = "'this' object is in address space '__generic', but method expects object in address space '__private'"
# (a derived class's constructor calling its base's member: clang names the conversion of the object)
_OBJECT_ARGUMENT = re.compile(r"no known conversion from '[^']*' to '[^']*' for object argument$")
_GENERIC_BASE = re.compile(r"no known conversion from '(?:const )?(?:volatile )?__generic [^']*' to "
                           r"'(?:const )?(?:volatile )?__private [^']*' for object argument$")
_GENERIC_OBJECT = re.compile(r"cannot initialize object parameter of type '(?:const )?(?:volatile )?__private [^']*' "
                             r"with an expression of type '(?:const )?(?:volatile )?__generic [^']*'$")


# the same binding where one function fits by name (no candidate list): clang names both types
_BINDING = re.compile(r"binding reference of type '(?:const )?__private [^']*'( \(aka '[^']*'\))? to value of type "
                      r"'(?:const )?__generic [^']*'( \(aka '[^']*'\))? changes address space$")


def is_thread_member_binding(message: str, notes: list[str]) -> bool:
    """True where clang's error is only a generic `this`'s member bound to a thread reference, or a generic
    object (a constructor's or destructor's `this`) calling a `thread` member."""
    if _BINDING.match(message) or _GENERIC_OBJECT.match(message):
        return True
    if not message.startswith(_CALL_ERRORS):
        return False
    candidates = [n for n in notes if n.startswith("candidate ")]
    if any(_GENERIC_THIS in n or _GENERIC_BASE.search(n) for n in candidates) and \
            all(_THIS in n or _OBJECT_ARGUMENT.search(n) for n in candidates):
        return True  # a constructor's generic `this` calling a member with a `device` twin (or its base's)
    binding = [n for n in candidates if _GENERIC_TO_THREAD in n]
    return bool(binding) and all(n in binding or _THIS in n for n in candidates)
