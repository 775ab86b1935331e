"""Which other files' launches and calls may give a kernel's inputs to verify (stop 48's soundness bug).

`verify /tmp/t6/k.cu` read its sizes from /tmp/t3k.cu, a stray file in the directory above, whose
`main()` calls a *template* `launch<square>(y, x, n)`: another function of the name of k.cu's
`launch(float*, const float*, int)`.  A verdict may not depend on a file beside the user's tree, nor
on a call that cannot run the function whose parameter it is meant to give.  So:
- the files looked in are inside the project: includes.project_root (the enclosing git work tree, else
  the nearest configured pyproject.toml, else the file's own directory) or a directory the run names;
- a launch or call in another file B binds kernel or host function `fn` of file R only by the rules
  kernelport.unit_launches applies to lint's launches: B sees a declaration of fn's qualified name,
  template parameter count and parameter types (R's itself where B includes R), of that name B sees no
  other overload its count of arguments may call, none `static` outside R; a `static` fn is R's own
  (only a file that includes R's text calls it); B's own definition of that name is B's function.
The kernel's own file binds as before (a launch by name: its model resolves its own calls).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from . import fnscopes, includes


def roots(path: Path, named: tuple[Path, ...] = ()) -> list[Path]:
    """The directories whose files may feed `path`'s inputs: its project root and the directories
    the run names that hold it (`verify dir/` makes dir the project of dir/sub/k.cu)."""
    real = Path(os.path.realpath(path))
    out = [Path(os.path.realpath(includes.project_root(real)))]
    for d in named:
        d = Path(os.path.realpath(d))
        if d.is_dir() and d in real.parents and d not in out:
            out.append(d)
    return out


def inside(f: Path, within: list[Path]) -> bool:
    """Whether file `f` (through links) lies in one of `within`."""
    real = Path(os.path.realpath(f))
    return any(r in real.parents for r in within)


@dataclass
class _Site:
    """A call seen as unit_launches sees a launch: the name as spelled, where it stands, its arguments."""
    kernel: str
    node: Node
    args: list = field(default_factory=list)


def call_site(src, call: Node) -> _Site | None:
    """The callee's name as written (`ns::f`, `f<float>` -> `f`) and the arguments of a call."""
    fn = call.child_by_field_name("function")
    if fn is None or fn.type not in ("identifier", "qualified_identifier", "template_function"):
        return None
    al = call.child_by_field_name("arguments")
    return _Site(src.text_of(fn), call, [a for a in (al.named_children if al else []) if a.type != "comment"])


def binds(owner, fn, mb, site) -> bool:
    """Whether `site` (a Launch, or a _Site of a call) of module `mb` runs `fn`, a Function of module
    `owner`, by the rules above."""
    if mb is owner:
        return True
    f, root = Path(os.path.realpath(mb.source.path)), Path(os.path.realpath(owner.source.path))
    if f == root:
        return True
    proj = _project(mb)
    if proj is None:
        return False
    from .carry_prototypes import _declared
    from .unit_launches import _norm, _runs, internal
    got = _declared(owner.source, fn.node)
    if got is None:  # a member function, a local declaration: no other unit names it so
        return False
    qual = got[0]
    try:
        order = proj.scan(f).order
    except Exception:  # noqa: BLE001 - a file whose includes cannot be walked binds nothing
        return False
    if internal(fn.node) and root not in order:
        return False
    if _own_definition(mb, qual, site):
        return False
    return _runs(proj, f, mb, site, qual, _norm(got[1]), root)


def _own_definition(mb, qual: tuple, site) -> bool:
    """Whether file `mb` defines a function of `qual`'s last name that the site reaches itself: a
    kernel its launch resolves to (fnscopes), or a host function of that qualified name."""
    if hasattr(site, "target"):  # a Launch
        return bool(fnscopes.launched(mb, site))
    from .carry_prototypes import _declared
    for f in mb.functions.values():
        if f.name.split("::")[-1] == qual[-1] and f.node.type == "function_definition":
            got = _declared(mb.source, f.node)
            if got is None or got[0] == qual:
                return True
    return False


def _project(mb):
    vis = mb.visible
    ew = getattr(vis, "elsewhere", None) if vis is not None else None
    return getattr(ew, "project", None)


def first_call(owner, fn, modules: list, calls):
    """(module, call) of the first call that runs `fn` (a Function of module `owner`) in `modules`,
    in order; `calls(module, name)` lists a module's calls of that name.  None: no call binds."""
    for m in modules:
        for c in calls(m, fn.name):
            site = call_site(m.source, c)
            if site is not None and binds(owner, fn, m, site):
                return m, c
    return None
