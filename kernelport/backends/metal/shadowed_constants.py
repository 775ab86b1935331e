"""Bound constants a kernel's parameter shadows: `__constant__ float scale[4];` read by a helper `get()`
that kernel `k(float *a, int scale)` calls.  The port passes the constant to the kernel as a buffer argument
(constants.py) and on to the helper; under its own name it would be a second parameter `scale` beside the
kernel's (clang: 'redefinition of parameter').  In CUDA the kernel's body never names the constant (the
parameter hides it), so the port binds it under another name (`kp_scale`) in that kernel and passes that to
the helpers; the helpers and the sidecar (the host fills the symbol `scale`) keep the CUDA name."""
from __future__ import annotations

from ...model import Function
from .argcopies import kp_name


class ShadowedConstants:
    """Mixin of MetalTranslator: the name a kernel binds a bound constant under."""

    def constant_binding(self, k: Function | None, name: str) -> str:
        """`kp_<name>` where kernel k has a parameter named `name` (unique in the file); else `name`."""
        if k is None or not k.is_kernel or k.param(name) is None or name not in getattr(self, "bound", {}):
            return name
        memo = self.__dict__.setdefault("_kp_constant_bindings", {})
        got = memo.get((k.name, name))
        if got is None:
            taken = {self.src.text_of(n) for n in self.src.index.of_type("identifier")} | set(memo.values()) | \
                {b for copies in getattr(self, "arg_copies", {}).values() for _, b in copies}  # (argcopies.py's kp_n)
            got = memo[(k.name, name)] = kp_name(name, taken)
        return got
