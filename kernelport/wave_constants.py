"""Where the wave width is written as a constant: `warpSize` where C++ needs a constant expression, and the uses of a
project's warp-size macro (`#define WARP_SIZE 32`) whose compile-time value is not the answer (host code, a
`__host__ __device__` function's host pass, a backend whose constant is only a bound).  Translator passes, moved
out of kernelport/translate.py whole (its line cap); `self` is the Translator."""
from __future__ import annotations

import types

from . import backends, dialect, hd_wave_reads
from .code_contexts import context
from .source import parameter_name


def rewrite_constant_warp_size(self) -> None:
    """`warpSize` where C++ needs a constant (not constexpr from ROCm 7): the backend's constant."""
    const = self.spell("wave_size_const")
    runtime = self.spell("warp_size")
    if backends.get(self.backend).wave_constant != "exact":
        return  # only a bound on this backend: keep the run-time value
    from .lint.membernames import names_member
    named = types.SimpleNamespace(text=self.src.text_of)  # (`Cfg::warpSize`, a class's own member: the project's)
    for use in self.module.uses:
        if use.concept.key == "warp_size" and not self.rw.has(use.node) and not parameter_name(use.node) and \
                context(use.node, self.module) in ("const", "size") and \
                not names_member(named, use.node, self.src.text_of(use.node)):
            text = self.wave(use.node)
            self.rw.replace(use.node, text)
            self.note(use.node, text, "warpSize is not a constant expression (ROCm 7)")
    for n in self.src.index.of_type("preproc_def"):  # #define WARPSIZE warpSize: its uses may be constant expressions
        if n.child_by_field_name("value") is not None:
            v = n.child_by_field_name("value")
            if self.src.text_of(v).strip() in ("warpSize", runtime) and not self.rw.has(v):
                self.rw.replace(v, self.src.text_of(v).replace(self.src.text_of(v).strip(), const))
                self.note(v, const, "a macro for the wave width may be used in constant expressions")


def rewrite_macro_uses(self) -> None:
    """Uses of a confirmed warp-size macro where its compile-time value is not the answer.

    Host code cannot know the device's wave width: it asks at run time (or, in a constant
    expression, stops: KP206).  Where the backend's compile-time wave constant is only a bound
    (a plain number, e.g. Metal's 32), device code at run time uses the SIMD width itself.
    """
    macros = self.wave_macros()
    if not macros:
        return
    try:
        host = self.spell("host_wave_size")
    except LookupError:
        host = None  # this backend carries no host code
    bound_only = backends.get(self.backend).wave_constant != "exact"
    for n in self.src.index.of_types("identifier", "type_identifier"):
        if self.src.text_of(n) not in macros:
            continue
        ctx = context(n, self.module)
        f = self.module.function_at(n)
        if ctx == "const" and f is not None and f.is_device and \
                backends.get(self.backend).wave_constant == "bound":
            self.wave(n)  # a bound where the exact width is meant: refused there
        elif ctx in ("const", "size"):
            if host is not None and f is not None and f.is_host and not f.is_device:
                self.problem("KP206", n, f"'{self.src.text_of(n)}' is the wave width in a constant expression of "
                             "host code: the host pass cannot know the device's wave width",
                             "choose at run time, e.g. kp_device_warp_size() == 64 ? k<64><<<...>>> : "
                             "k<32><<<...>>>")
            elif ctx == "size" and f is not None and f.is_host and n.type == "identifier" and not self.rw.has(n) and \
                    (hd := dialect.concept("hd_wave_bound").spelling(self.backend)):  # both passes' bound
                self.rw.replace(n, hd)
                self.note(n, hd, "a __host__ __device__ function's array by the wave: the host pass's bound")
        elif ctx == "host" and host is not None and n.type == "identifier":
            self.rw.replace(n, host)
            self.note(n, host, "host code must ask the device for its wave width")
        elif ctx == "device" and f is not None and f.is_host and n.type == "identifier" and not self.rw.has(n) and \
                hd_wave_reads.runtime(self.src, n) and (hd := dialect.concept("hd_wave_size").spelling(self.backend)):  # a __host__ __device__ function's
            self.rw.replace(n, hd)
            self.note(n, hd, "a __host__ __device__ function's host pass must ask the device for its wave width")
        elif ctx == "device" and bound_only and n.type == "identifier" and not self.rw.has(n):
            text = self.spell("warp_size")
            self.rw.replace(n, text)
            self.note(n, text, f"'{self.src.text_of(n)}' is only a bound here: run-time code uses the SIMD width")
