"""Host functions whose value host-value reading computes (kernelport.host_values): one whose
body is the single statement `return EXPR;` (`int iDivUp(int a, int b) { return (a % b) ? a / b + 1
: a / b; }`), evaluated with its arguments' values.  The file's own function of that name comes
first; else one a header the file includes defines (cuda-samples' Mandelbrot keeps its iDivUp in
Mandelbrot_kernel.cuh: its grid, and the scalars the launch computes from it, are read through it
as they would be were it in the file).  A `__host__ __device__` one counts (rodinia dwt2d's template
`divRndUp` in common.h); a device-only function is never one: host code cannot call it; nor is a
class's member function (its value is its object's).
"""
from __future__ import annotations

from .model import Module


def single_return(module: Module, name: str, nargs: int):
    """(the Function, the text of its `return` expression) of the host function `name` taking
    `nargs` arguments whose body is one `return EXPR;`, in `module` or a header it includes;
    (None, None) where there is none."""
    vis = module.visible
    others = vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()
    for m in (module, *others):
        f = m.functions.get(name)
        if f is None or not f.is_host or len(f.params) != nargs or f.body is None or _member(f.node):
            continue
        stmts = [c for c in f.body.named_children if c.type != "comment"]
        if len(stmts) == 1 and stmts[0].type == "return_statement" and stmts[0].named_children:
            return f, m.source.text_of(stmts[0].named_children[0])
        return None, None  # the first definition found is the one the call reaches
    return None, None


def _member(node) -> bool:
    """A class's member function (`inline int ttraces() { return _ttraces; }` in hecbench cmp's
    su_gather.hpp): it reads its object's fields, which no call's arguments give."""
    p = node.parent
    while p is not None and p.type not in ("translation_unit", "namespace_definition"):
        if p.type in ("field_declaration_list", "class_specifier", "struct_specifier"):
            return True
        p = p.parent
    return False
