"""Atomics on a template parameter, checked per instance: `atomicAdd(&excess[i], flow)` of a `T *excess` in
`template <typename T> __device__ void push(...)` (gridinf's graphcut.cu, heldout64).  Metal's atomic types are
templates too (`atomic<T>`, MSL 6.15: `atomic_int` is `atomic<int>`), so the port keeps the template and casts to
`device atomic<T>*`, which is right exactly when every instance's T is one Metal has that native atomic for (int
or uint; float for add, sub and exchange on device memory).  The instances are a kernel's (signatures.
template_instances) or, for a `__device__` helper, those its callers' calls give it (each call's arguments,
written or deduced from their declared types, with the caller's own template parameters replaced by the
caller's instances, transitively).  An instance Metal cannot give that atomic (a 64-bit T, a float bitwise op,
a float on threadgroup memory, which only a per-type CAS loop would port) is refused at the call, named; so is a
helper whose instances are not all known (KP212, as before)."""
from __future__ import annotations

from ...source import call_args
from ...template_deduction import deduce
from .template_ids import substitute_types

_DEPTH = 4  # helpers calling helpers: how far callers are followed


class AtomicInstances:
    """Mixin of MetalTranslator: the instances of a device function, and which cannot take an atomic."""

    def function_instances(self, f, depth: int = 0) -> list[list[str]] | None:
        """Each instance's template arguments of device function f; None where one call's is not known."""
        if f.is_kernel:  # as the port writes them: one over a type Metal lacks is refused (KP214) or demoted
            insts = self.template_instances(f)
            return [w for a in insts if (w := self.written_instance(f, a)[0]) is not None] if insts else None
        memo = self.__dict__.setdefault("_kp_helper_instances", {})
        if f.name in memo:
            return memo[f.name]
        memo[f.name] = None  # a helper that reaches itself: not known
        out: list[list[str]] = []
        refused = False
        for call, fn, written in self._calls_of(f.name) if depth <= _DEPTH else [(None, None, None)]:
            caller = self.module.function_at(call) if call is not None else None
            if caller is None or caller.name not in self.device or call.type != "call_expression":
                return None
            given = [a.strip() for a in self.src.text_of(fn.child_by_field_name("arguments")).strip()[1:-1].split(",")
                     if a.strip()] if written else []
            if len(given) < len(f.template_params):
                given = deduce(self.src, f, call_args(call), caller, given)
            if not given or len(given) != len(f.template_params):
                return None
            if not caller.template_params:
                ways = [given]
            else:
                outer = self.function_instances(caller, depth + 1)
                if outer is None:
                    return None
                refused = refused or outer == []  # every instance of the caller refused (KP214): none of f
                ways = [[substitute_types(g, dict(zip(caller.template_params, o))) for g in given] for o in outer]
            out += [w for w in ways if w not in out]
        memo[f.name] = out if out or refused else None
        return memo[f.name]

    def atomic_instance_blocker(self, f, param: str, op: str, space: str, native) -> str | None:
        """What Metal has not (the refusal's words after "Metal has ") for an atomic `op` on template
        parameter `param` of f as `atomic<param>` in every instance, naming the instances; None where
        every instance has it.  `native(t)` is the Metal type of a CUDA type with 32-bit atomics, else None."""
        insts = self.function_instances(f)
        if insts == []:
            return None  # every instance refused where it is named (a type Metal lacks: KP214), none written
        if not insts:
            return f"no atomics on '{param}' (the instances of {f.name}<...> are not known here)"
        i = f.template_params.index(param)
        types = sorted({a[i] for a in insts if len(a) > i})
        bad = [t for t in types if native(t) is None]
        if bad:
            return "no atomics on " + ", ".join(f"'{t}'" for t in bad) + f" ('{param}' of {f.name}<...>)"
        if "float" in map(native, types) and op not in ("add", "sub", "exch"):
            return f"no float atomic {op} ('{param}' = float in an instance of {f.name}<...>)"
        if "float" in map(native, types) and space != "device":
            return (f"no float atomic on {space} memory ('{param}' = float in an instance of {f.name}<...>; the CAS "
                    "loop a float instance needs is not written for a template)")
        return None
