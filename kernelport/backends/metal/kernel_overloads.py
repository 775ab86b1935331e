"""Overloaded kernels: Metal names each one apart.

CUDA lets two kernels share a name with different parameters (LEAP's cuda_utils.cu: `addKernel(float*,
const float*, int3)` and `addKernel(float*, const float, int3)`); the host's launch picks one by its
arguments.  A Metal kernel is an entry point the host looks up by name, so two of one name do not
compile.  The first definition keeps the name; each later one is `name_2`, `name_3`... (a name the unit
does not use), and the sidecar's entry for it says which CUDA kernel it is (`cuda_signature`).  Only
definitions the same compile sees: two under different branches of a conditional are alternatives (one
is compiled), not overloads, and keep their name.
"""
from __future__ import annotations

import re

from ...model import Function
from ...rewrite import key

_CONDITIONAL = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef")


class KernelOverloads:
    def overload_names(self) -> dict:
        """key(kernel node) -> the Metal name of each overloaded kernel after the first of its name."""
        got = self.__dict__.get("_kp_overload_names")
        if got is None:
            got = self.__dict__["_kp_overload_names"] = {}
            words = set(re.findall(r"\w+", self.src.text))
            groups: dict[tuple, list[Function]] = {}
            for k in self.kernels:
                if k.template_node is None:
                    groups.setdefault((k.name, _branches(k.node)), []).append(k)
            for (name, _), ks in groups.items():
                i = 1
                for k in ks[1:]:
                    i += 1
                    while f"{name}_{i}" in words:
                        i += 1
                    got[key(k.node)] = f"{name}_{i}"
        return got

    def kernel_key(self, k: Function) -> str:
        """The key of k's kernel_info: its name, or its Metal name where it is a later overload."""
        return self.overload_names().get(key(k.node), k.name)

    def rename_overload(self, k: Function) -> None:
        new = self.overload_names().get(key(k.node))
        name = self._declarator(k).child_by_field_name("declarator")
        if new is None or name is None or self.rw.has(name):
            return
        self.rw.replace(name, new)
        self.note(name, new, f"an overload of kernel '{k.name}': a Metal kernel is looked up by its name, so each "
                  "overload has its own (the sidecar's cuda_signature says which is which)")

    def cuda_signature(self, k: Function) -> str:
        plist = self._declarator(k).child_by_field_name("parameters")
        return f"{k.name}{' '.join(self.src.text_of(plist).split())}"


def _branches(node) -> tuple:
    """The conditional branches `node` sits in (outermost last)."""
    out, p = [], node.parent
    while p is not None:
        if p.type in _CONDITIONAL:
            out.append(key(p))
        p = p.parent
    return tuple(out)
