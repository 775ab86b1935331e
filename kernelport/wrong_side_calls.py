"""`__device__` functions whose body calls a host-only function of the file (gkylzero's
`GKYL_CU_D static void trans_dim_choose_kernel(..., bool use_gpu)`, which calls the host launcher
`trans_dim_choose_kernel_cu` on its `use_gpu` path): nvcc checks a device function's calls only
when it emits it, and a function that calls host code compiles under nvcc only where it is never
emitted (no translation unit calls it from device code; host code cannot call it at all).  clang
checks every `__device__` body as it parses it and refuses the call ("no matching function").
The port makes such a function `__host__ __device__`: clang defers a wrong-side call in one to the
device code it emits, of which there is none, and the function stays unemitted as before.

Host-only: a free function this file declares or defines with no execution space (none written,
none through a macro), never with one, and not `constexpr` (nvcc's relaxed constexpr lets device
code call those); nothing a header declares with a space.  A name of several functions with
different spaces, a function pointer or a macro is not one.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .translate import Translator


def host_only_names(tr: "Translator") -> set[str]:
    """The free functions this file declares and defines only on the host (as above)."""
    from .member_spaces import _SCOPES, _declarator, _spaces
    src, spaced, plain = tr.src, set(), set()
    for kind in ("function_definition", "declaration"):
        for n in src.index.of_type(kind):
            top = n.parent if n.parent is not None and n.parent.type == "template_declaration" else n
            fd = _declarator(n)
            name = fd.child_by_field_name("declarator") if fd is not None else None
            if name is None or name.type != "identifier" or top.parent is None or top.parent.type not in _SCOPES:
                continue
            head = src.data[n.start_byte:fd.start_byte].decode("utf-8", "replace")
            spaces = _spaces(head) or tr._written_spaces(n, fd)
            (spaced if spaces or re.search(r"\bconstexpr\b", head) else plain).add(src.text_of(name))
    vis = tr.module.visible
    spaced |= {k[0] for k in (vis.declared_spaces if vis is not None else {})}
    return plain - spaced


def widen_device_callers(tr: "Translator") -> None:
    """Give `__host__` to each `__device__`-only function that calls a host-only function."""
    devices = [f for f in tr.module.functions.values()
               if "__device__" in f.qualifiers and not {"__host__", "__global__"} & f.qualifiers and f.body is not None]
    if not devices:
        return
    hosts = host_only_names(tr)
    if not hosts:
        return
    from .fnscopes import callee_name
    for f in devices:
        calls = [c for c in tr.src.index.of_type("call_expression") if f.body.start_byte <= c.start_byte < f.body.end_byte]
        called = next((c for c in calls if c.child_by_field_name("function") is not None
                       and c.child_by_field_name("function").type == "identifier"
                       and callee_name(c.child_by_field_name("function")) in hosts
                       and not tr.cuda_only_region(c)), None)
        if called is None or tr.cuda_only_region(f.node):
            continue
        name = callee_name(called.child_by_field_name("function"))
        tr.rw.insert_before(f.node, "__host__ ")
        tr.note(f.node, "__host__", f"'{f.name}' is __device__ and calls the host function '{name}': nvcc compiles "
                "it only where it never emits it; clang refuses the call in a __device__ function and defers it "
                "in a __host__ __device__ one")
