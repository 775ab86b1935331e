"""A kernel's launches in the run's other translation units (issue 11).

VMEC++ defines `k_fwd_fused_warp` in fft_toroidal_cuda_kernels.cu, declares it in the header
fft_toroidal_cuda_common.cuh and launches it with `dim3 warp_tpb(32, 1, 1)` from
fft_toroidal_cuda_transform.cu, a unit that includes the header only: the geometry that decides the
kernel's warp width (kernelport.warpwidth) is in no file the kernel's own unit reads.  Where the run
holds other files (lint or translate given a project), a launch in file B runs the kernel k that
unit R defines where the linker joins them:
- k has external linkage: not `static`, not in an anonymous namespace (another unit's kernel of that
  name is another kernel), or B includes R (a header's kernel, whose text B compiles), and k is a free
  function (a class's static member is declared in its class);
- the launch runs no function of B's own (fnscopes.launched: B's kernel of that name is B's);
- B sees a declaration of k's qualified name, template parameter count and parameter types (B's own
  prototype, or a declaration or definition of a file it includes, R itself where B includes it), none
  `static` nor in an anonymous namespace outside R; top-level `const` and `__restrict__` are set aside,
  as C++ does in a function's type;
- the launch spells that name from where it stands (`vmecpp::k`, or `k` inside namespace vmecpp or
  under `using namespace vmecpp`), and of the declarations of that name B sees, k's is the only one
  the launch's count of arguments may call (an overload it cannot tell apart is not read as k's).
B is one of the run's files (`Project.units`; a launch written in a header the run does not name is not
read).  A one-file run has no other unit: the kernel keeps what its own file shows.
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from . import fnscopes, lazy_re, textwords

_RESTRICT = lazy_re.compile(r"__restrict__|__restrict\b|\brestrict\b")
_USING = lazy_re.compile(r"\busing\s+namespace\s+((?:::)?\s*[A-Za-z_][\w:\s]*?)\s*;")


def elsewhere(module, k) -> list[tuple[object, object]]:
    """[(module of file B, Launch)] for the launches of the run's other files that run kernel `k`
    (a Function of `module`, defined in the unit's own file), in the run's order."""
    vis = module.visible
    ew = getattr(vis, "elsewhere", None) if vis is not None else None
    if ew is None or ew.root is None or not k.is_kernel or k.body is None:
        return []
    inner = internal(k.node)  # (then only a file that includes the kernel's own text runs it: a header's kernel)
    from .carry_prototypes import _declared
    got = _declared(module.source, k.node)
    if got is None:
        return []
    qual, sig = got[0], _norm(got[1])
    proj, out = ew.project, []
    for f in _naming(proj, qual[-1]):  # (a file that never names the kernel is not modelled for it)
        if f == ew.root or qual[-1] not in _foreign(proj, f) or inner and ew.root not in proj.scan(f).order:
            continue
        mb, named = _launches_by_name(proj, f)
        for la in named.get(qual[-1], ()):
            if not fnscopes.launched(mb, la) and _runs(proj, f, mb, la, qual, sig, ew.root):
                out.append((mb, la))
    return out


def internal(node: Node) -> bool:
    """Whether a function's declaration or definition has internal linkage: `static`, or in an
    anonymous namespace."""
    top = node.parent if node.parent is not None and node.parent.type == "template_declaration" else node
    if any(c.type == "storage_class_specifier" and c.text.decode() == "static" for c in node.children):
        return True
    p = top.parent
    while p is not None:
        if p.type == "namespace_definition" and p.child_by_field_name("name") is None:
            return True
        p = p.parent
    return False


def _norm(sig: tuple) -> tuple:
    """A signature (carry_prototypes) with what does not change a function's type set aside: a
    parameter's `__restrict__` and its top-level `const` (`const int n` is `int n`, `T* const p` is `T* p`)."""
    name, ntemplate, types = sig
    out = []
    for t in types:
        t = _RESTRICT.sub("", t)
        if "*" in t:
            t = t[:-5] if t.endswith("const") and t.rfind("*") < len(t) - 5 else t
        elif "&" not in t and "[" not in t:
            t = t[5:] if t.startswith("const") and len(t) > 5 else t[:-5] if t.endswith("const") and len(t) > 5 else t
        out.append(t)
    return name, ntemplate, tuple(out)


def _naming(proj, name: str) -> list[Path]:
    """The run's files (`Project.units`) whose text has `name` as a word, in the run's order: an index of
    every file's words built once per run (each kernel of each unit asks).  The headers the files include
    are not looked in: listing them walks every unit's includes first, and a launch written in a header
    the run does not name is not read."""
    return run_index(proj).get(name, [])


def run_index(proj) -> dict[str, list[Path]]:
    """word -> the run's files naming it.  Building it parses every file of the run: lint's worker pool
    builds it before it forks (kernelport.lint.engine), so that each worker inherits it and the parses
    instead of parsing the whole run again."""
    got = proj.__dict__.get("_kp_unit_words")
    if got is None or got[0] is not proj.units:
        index: dict[str, list[Path]] = {}
        for f in dict.fromkeys(proj._real(u) for u in proj.units):
            pf = proj.file(f)
            for w in textwords.of(pf.src) if pf is not None else ():
                index.setdefault(w, []).append(f)
        got = proj.__dict__["_kp_unit_words"] = (proj.units, index)
    return got[1]


def _foreign(proj, f: Path) -> frozenset:
    """The last names of the kernels file f launches that are not its own functions, read from its
    include-free model (the one its own lint starts from), once per run: only a file that launches
    another file's kernel of a name is modelled with its includes for it."""
    cache = proj.__dict__.setdefault("_kp_unit_foreign", {})
    if f not in cache:
        pf, got = proj.file(f), set()
        if pf is not None:
            m = pf.module
            got = {fnscopes._parts(la.kernel)[-1] for la in m.launches
                   if la.kernel and fnscopes._parts(la.kernel) and not fnscopes.launched(m, la)}
        cache[f] = frozenset(got)
    return cache[f]


def _launches_by_name(proj, f: Path) -> tuple[object, dict]:
    """(f's model, its launches by the last part of the kernel's name), once per run and file."""
    cache = proj.__dict__.setdefault("_kp_unit_launches", {})
    if f not in cache:
        try:
            m = proj.module(f)
        except Exception:  # noqa: BLE001 - a file that does not parse shows no launch; the command reports it
            cache[f] = (None, {})
            return cache[f]
        named: dict = {}
        for la in m.launches:
            parts = fnscopes._parts(la.kernel) if la.kernel else ()
            if parts:
                named.setdefault(parts[-1], []).append(la)
        cache[f] = (m, named)
    return cache[f]


def _declarations(proj, p: Path, own: bool) -> dict:
    """qualified name -> [(normalised signature, internal)] of the free functions file `p` declares
    (`own`: prototypes only, its definitions being fnscopes'), once per run."""
    cache = proj.__dict__.setdefault("_kp_unit_declarations", {})
    if (p, own) not in cache:
        out: dict = {}
        pf = proj.file(p)
        if pf is not None:
            from .carry_prototypes import _declared
            src = pf.src
            for n in src.index.of_types(*(("declaration",) if own else ("declaration", "function_definition"))):
                got = _declared(src, n)
                if got is not None:
                    out.setdefault(got[0], []).append((_norm(got[1]), internal(n)))
        cache[(p, own)] = out
    return cache[(p, own)]


def _runs(proj, f: Path, mb, la, qual: tuple, sig: tuple, root: Path) -> bool:
    """Whether launch `la` of file `f` (model `mb`) runs the kernel `qual` of signature `sig` that file
    `root` defines."""
    parts = fnscopes._parts(la.kernel)
    if qual[-len(parts):] != parts:
        return False
    prefix, around = qual[:-len(parts)], fnscopes.enclosing(la.node)
    if prefix and around[:len(prefix)] != prefix:
        used = {"::".join(fnscopes._parts(u)) for u in _USING.findall(mb.source.text)}
        if "::".join(prefix) not in used:
            return False
    seen = []
    for p in proj.scan(f).order:
        for s, inner in _declarations(proj, p, p == f).get(qual, ()):
            if inner and p != root:
                return False  # B's own kernel of that name (declared static): not another unit's
            seen.append(s)
    sigs = set(seen)
    if len(sigs) > 1 and la.args:
        sigs = {s for s in sigs if len(s[2]) == len(la.args)}
    return sigs == {sig}
