"""A helper's threadgroup array per template instance: the slots each function receives or declares.

CUDA gives each instance of a function template its own static `__shared__` array: llm.c's
`blockReduce<warpReduceSum>(s)` and `blockReduce<warpReduceMax>(m)` in one kernel write two arrays.
Metal declares a helper's array in the kernel and passes it down (threadgroup.py), so the kernel must
declare one array per (array, instance) its calls reach, through helpers in between, and pass each
call its instance's array; one array to both would let the second call's writes race the first
call's reads.  An instance is the binding of the owner's template parameters, written in the terms of
the function that holds the slot (a wrapper `blockReduce<warp_reduction>(v)` passes its own
instance's array on: one slot).  The same instance called twice is one array, as in CUDA.  A binding
deduced from the call's arguments is read where their types are certain (template_deduction); one
left unknown shares the array: KP213 where the array's type or size names it, and KP213 at the call
where another call reaches the same array (one array or two is not shown).
"""
from __future__ import annotations

import re
from dataclasses import replace

from ...model import Function
from .template_ids import substitute_types


def _same(a, b) -> bool:
    """Two slots are one array: one declaration (a file-scope or dynamic array: one name) and one
    instance, or an instance not known."""
    if a.dynamic or a.file_scope or b.dynamic or b.file_scope:
        return a.name == b.name
    return a.node == b.node and (a.inst is None or b.inst is None or a.inst == b.inst)


class InstanceShared:
    """Mixin of MetalTranslator (with ThreadgroupMemory and HelperShared)."""

    def _slots(self, name: str) -> list:
        """Threadgroup arrays a device function receives (a helper: its own and its callees') or declares
        for its callees (a kernel), one per instance; computed once per function."""
        memo = self.__dict__.setdefault("_kp_slots", {})
        if name in memo:
            return memo[name]
        memo[name] = []  # a recursive call adds no array: the instance in progress is this one
        f = self.device[name]
        out = []
        if not f.is_kernel:
            ident = tuple((p, p) for p in f.template_params)
            out += [s if s.dynamic or s.file_scope else replace(s, inst=ident, base=s.name)
                    for s in self.own_shared.get(name, [])]
        calls = self._calls(f)
        sites_of: dict[tuple, set] = {}  # (array, instance) -> the calls that reach it in f
        renames = self.__dict__.setdefault("_kp_call_renames", {})
        for c in self.plans[name].callees:
            h = self.device.get(c)
            if h is None:
                continue
            inner = self._slots(c)
            if not inner:
                continue
            sites = [call for call, g in calls if g is h]
            if h.template_params and sites:
                binds = self._call_bindings(f, {p: p for p in f.template_params}, h)
            else:
                binds = [{}] * max(len(sites), 1)
            for call, b in zip(sites or [None], binds):
                ren = {}
                for t in inner:
                    inst = t.inst if t.inst is None or t.dynamic or t.file_scope else \
                        None if b is None else tuple((p, substitute_types(v, b)) for p, v in t.inst)
                    want = replace(t, inst=inst)
                    got = next((o for o in out if _same(o, want)), None)
                    if got is None:
                        got = replace(want, name=self._fresh_slot_name(t, out)) if \
                            any(o.name == t.name for o in out) else want
                        out.append(got)
                    elif not (got.dynamic or got.file_scope) and (want.inst is None or got.inst is None):
                        # an unknown instance shares the array: its binding is not known either (KP213 where it matters)
                        self._unknown_instance(f, h, call, got, sites_of)
                        out[out.index(got)] = got = replace(got, inst=None)
                    sites_of.setdefault((got.node, got.name), set()).add(None if call is None else call.start_byte)
                    if got.name != t.name:
                        ren[t.name] = got.name
                if ren and call is not None:
                    renames[(call.start_byte, call.end_byte, id(h))] = ren
        memo[name] = out
        return out

    def _unknown_instance(self, f: Function, h: Function, call, slot, sites_of: dict) -> None:
        """A second call reaching `slot` where one instance is left to deduction: it is one array in
        CUDA only if the instances are equal, which is not shown (two would race on one Metal array)."""
        seen = sites_of.get((slot.node, slot.name), set())
        if call is None or not seen or seen == {call.start_byte}:
            return  # the first call to reach it, or the same call again
        owner = self.device.get(slot.function)
        words = set(re.findall(r"[A-Za-z_]\w*", slot.cuda_type + " " + " ".join(self.src.text_of(d) for d in slot.dims)))
        if owner is not None and words & set(owner.template_params):
            return  # the array's type or size names the instance: KP213 at the array (helper_shared.py)
        done = self.__dict__.setdefault("_kp_unknown_instances", set())
        if (id(f), slot.node, slot.name) in done:
            return
        done.add((id(f), slot.node, slot.name))
        self.problem("KP213", call, f"'{f.name}' calls '{h.name}' more than once and the template arguments of a "
                     f"call are deduced from its arguments: CUDA gives each instance its own __shared__ array "
                     f"'{slot.base or slot.name}', and whether these calls are one instance is not shown",
                     f"write the template arguments at the calls ({h.name.split('<')[0]}<...>(...))")

    def _fresh_slot_name(self, t, out: list) -> str:
        """`shared_val_1`, `shared_val_2`: a name no slot, array or parameter of the file takes."""
        base = t.base or t.name
        taken = {o.name for o in out} | {s.name for arrays in self.own_shared.values() for s in arrays}
        i = 1
        while f"{base}_{i}" in taken or f"{base}_{i}".encode() in self.src.data:
            i += 1
        return f"{base}_{i}"

    def call_slot_names(self, call, h: Function, names: list[str]) -> list[str]:
        """The names a call passes for h's extras: its instance's arrays where the caller holds several."""
        ren = self.__dict__.get("_kp_call_renames", {}).get((call.start_byte, call.end_byte, id(h))) \
            if call is not None else None
        return [ren.get(n, n) for n in names] if ren else names

    @staticmethod
    def instance_binding(s) -> dict[str, str] | None:
        """The binding of s's owner's template parameters where its instance is known in the kernel."""
        if s.inst is None or s.dynamic or s.file_scope:
            return None
        return dict(s.inst)
