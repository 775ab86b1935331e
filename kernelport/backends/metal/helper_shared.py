"""A helper's `__shared__` array declared by the kernels that call it (threadgroup.py hoists it).

Two things CUDA gives such an array that one kernel-scope declaration must keep:
- Its own storage: `static __shared__ T shared[32];` in blockReduceMax and in blockReduceSum are two
  arrays in CUDA (one per function, one per template instance).  Helpers' arrays of one name are
  renamed `name_helper` so a kernel declares each (one declaration shared by two helpers lets a fast
  warp's write in the second overwrite a slot a slow warp still reads in the first).
- Its template instance: the array's type and size may name the helper's template parameters
  (`T shared[32][NUM]`, `T shared[(maxBlockSize + 31) / 32]`).  They are bound from the kernel's
  calls (`blockReduceSumV2<float, 2>(v)`, a defaulted `maxBlockSize` its default), through helpers
  in between (their own bindings applied to their calls' arguments).  Two instances are two arrays
  (instance_shared.py); where a call leaves a parameter to deduction from the function's arguments
  and the array names it, KP213 at the declaration (no guess).
"""
from __future__ import annotations

import re

from ... import cexpr
from ...model import Function
from ...source import walk
from ...template_deduction import argument_type
from .template_ids import _DEFAULTED, substitute_types

_WORD = re.compile(r"[A-Za-z_]\w*")


def _template_defaults(src, f: Function) -> dict[str, str]:
    """Default arguments of a function template's parameters (`int maxBlockSize = 1024`)."""
    plist = f.template_node.child_by_field_name("parameters") if f.template_node is not None else None
    out = {}
    for tp, name in zip(plist.named_children if plist else [], f.template_params):
        if tp.type in _DEFAULTED:
            d = tp.child_by_field_name("default_value") or tp.child_by_field_name("default_type")
            if d is not None:
                out[name] = src.text_of(d)
    return out


class HelperShared:
    """Mixin of MetalTranslator (with ThreadgroupMemory)."""

    def _rename_shared_collisions(self) -> None:
        """A helper's static array whose name another function's array also has: `name_helper`.

        A file-scope array is one array however many functions name it (each user lists it): it is
        one owner of its name and keeps it (a helper's own array of that name is renamed)."""
        owners: dict[str, set[str]] = {}
        for key, arrays in self.own_shared.items():
            for s in arrays:
                if not s.dynamic:
                    owners.setdefault(s.name, set()).add("" if s.file_scope else self.device[key].name.split("<")[0])
        for key, arrays in self.own_shared.items():
            f = self.device[key]
            if f.is_kernel:
                continue
            for s in arrays:
                if s.dynamic or s.file_scope or len(owners.get(s.name, ())) < 2 or s.node.parent is None:
                    continue
                new = f"{s.name}_{f.name.split('<')[0]}"
                for n in walk(s.node.parent):
                    if n.type == "identifier" and n.start_byte >= s.node.end_byte and self.src.text_of(n) == s.name:
                        self.rw.replace(n, new)
                s.name = new

    def _call_bindings(self, caller: Function, bound: dict[str, str] | None, helper: Function) -> list[dict | None]:
        """One binding of helper's template parameters per call of it in caller (None: a parameter
        neither written nor defaulted, left to deduction, or caller's own unbound), caller's own
        parameters replaced by `bound`."""
        out: list[dict | None] = []
        defaults = _template_defaults(self.src, helper)
        for call, h in self._calls(caller):
            if h is not helper:
                continue
            if bound is None:
                out.append(None)
                continue
            fn = call.child_by_field_name("function")
            given = []
            if fn is not None and fn.type == "template_function":
                args = fn.child_by_field_name("arguments")
                given = [substitute_types(a.strip(), bound)
                         for a, _ in cexpr.split_top_level(self.src.text_of(args).strip()[1:-1])] if args else []
            b = dict(zip(helper.template_params, given))
            b.update({p: t for p, t in self._deduced(caller, bound, helper, call).items() if p not in b})
            for p in [p for p in helper.template_params if p not in b]:
                if p not in defaults:
                    b = None
                    break
                b[p] = substitute_types(defaults[p], b)
            out.append(b)
        return out

    def _deduced(self, caller: Function, bound: dict[str, str], helper: Function, call) -> dict[str, str]:
        """Template parameters deduced from the call's arguments where the helper's parameter is
        `T x` (`const T&`) or `T* x` and the argument's type is certain (template_deduction: a name
        caller declares, `&name`, a cast, a literal, a temporary `Op()` of a class the file defines)."""
        out: dict[str, str] = {}
        args = call.child_by_field_name("arguments")
        for p, a in zip(helper.params, args.named_children if args is not None else []):
            if p.type not in helper.template_params:
                continue
            t = argument_type(self.src, caller, a)
            if t is None or t.const and p.pointer:
                continue  # unknown, or a `const` that would move into T
            if t.depth != (1 if p.pointer else 0):
                continue  # `T* x` takes a pointer or an array (depth 1), `T x` a value
            value = substitute_types(" ".join(t.base.split()), bound)
            if out.setdefault(p.type, value) != value:
                out[p.type] = None  # two arguments disagree: not deduced here
        return {k: v for k, v in out.items() if v is not None}

    def _instances_in(self, k: Function, owner: Function) -> list[dict | None]:
        """The bindings of owner's template parameters the kernel k's calls (direct or through
        helpers, each with its own bindings) give."""
        found: list[dict | None] = []
        seen = set()
        work = [(k, {})]
        while work:
            f, bound = work.pop()
            mark = (id(f), None if bound is None else tuple(sorted(bound.items())))
            if mark in seen or len(seen) > 200:
                continue
            seen.add(mark)
            for c in self.plans[self.fkeys[id(f)]].callees:
                h = self.device.get(c)
                if h is None:
                    continue
                for b in self._call_bindings(f, bound, h) if h.template_params else [{} if bound is not None else None]:
                    if h is owner:
                        found.append(b)
                    else:
                        work.append((h, b))  # None: unbound in between, and so is each instance it calls
        return found

    def _helper_binding(self, k: Function, s, owner: Function, sizes: list[str]) -> dict[str, str] | None:
        """The binding of owner's template parameters that s's type and sizes (as hoisted: local
        constants inlined) name, one per kernel; None (and KP213 at the array) where the kernel's
        calls give two or leave one to deduction."""
        text = s.type + " " + " ".join(sizes)
        named = [p for p in owner.template_params if p in set(_WORD.findall(text))]
        if not named:
            return {}
        values = set()
        for b in self._instances_in(k, owner):
            if b is None:
                values.add(None)
            else:
                values.add(tuple((p, b[p]) for p in named))
        if len(values) == 1 and None not in values:
            return dict(next(iter(values)))
        why = ("its template arguments are deduced from the call's arguments" if None in values else
               f"kernel '{k.name}' calls it with {len(values)} instances ({', '.join(sorted(str(dict(v)) for v in values))})")
        self.problem("KP213", s.node, f"__shared__ array '{s.name}' of '{owner.name}' depends on its template "
                     f"parameters ({', '.join(named)}) and {why}: Metal declares it once in the kernel",
                     "write the template arguments at the call, or declare the array in the kernel and pass it")
        return None
