"""C99's floating-point classification functions called unqualified in host code, written `std::NAME` for HIP.

`if (isnan(h_out[i]))` in a host function compiles with nvcc: CUDA's math headers declare the global
`isnan`/`isinf`/`isfinite`/`signbit`/... for host and device alike.  HIP's (clang's __clang_hip_cmath.h)
declare the global ones for the device only, and <cmath> has replaced C's macros with `std::` functions, so
hipcc finds no host overload where the file includes <cmath> or no math header (libstdc++'s <math.h> brings
`std::isnan` into the global namespace) ("no matching function for call to 'isnan'"; in a `__host__ __device__`
function, "reference to __device__ function 'isnan'").  Where the backend names such functions
(`Backend.host_std_classifiers`, data: each checked by hipcc on host, `__host__ __device__` and device calls
of float and double arguments), a call of one by its bare name in a host or `__host__ __device__` function
(or at file scope) is written `std::NAME(...)`; in a `__host__ __device__` one only where the backend says every
compiler of the port takes `std::NAME` on the device too (the portable backend's nvcc has no device
`std::isnormal`: #20013-D, the call dropped): <cmath>'s function, which gives the same value as the global
one nvcc's host pass calls (both classify the argument as its type, an integer as a double), and which
hipcc takes on both of its passes.  Device-only functions are left as written (the global device overloads
compile there).  A name the file or its headers declare themselves (a function, a macro) is the project's
and is left alone, as are qualified calls (`std::isnan`, `::isnan`) and calls inside macro definitions."""
from __future__ import annotations

from . import backends

WHY = ("{backend}'s headers declare the global `{name}` for the device only (<cmath> makes C's macro a `std::` "
       "function); CUDA's declare it on both sides: <cmath>'s `std::{name}`, the same classification")


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    names = backends.get(tr.backend).host_std_classifiers
    if not names or not any(n.encode() in tr.src.data for n in names):
        return
    src, declared = tr.src, None
    for call in src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier" or (name := src.text_of(fn)) not in names:
            continue
        f = tr.module.function_at(call)
        if f is not None and (not f.is_host or f.is_device and not names[name]) or tr.cuda_only_region(call):
            continue
        if declared is None:
            declared = tr.declared_names()
        if name in declared:
            continue
        tr.rw.replace(fn, f"std::{name}")
        tr.note(fn, f"std::{name}", WHY.format(backend=tr.backend.upper(), name=name))
