"""A namespace inside a library's namespace that the backend's library spells otherwise, matched
by the whole path that qualifies it (the backend's `nested_namespaces`): Thrust's CUDA system
`thrust::cuda::par.on(s)` is rocThrust's `thrust::hip::par.on(s)`. The bare name is no such
match: `cuda::std::min` (libcu++) and a project's own `cuda::` stay as written.

A name qualified by a whole path the backend's library spells otherwise (the backend's
`qualified_names`, matched on the namespaces and the name, before any template arguments):
libcu++'s `cuda::std::numeric_limits<float>::min()` is the C++ library's
`std::numeric_limits<float>::min()` (HIP's clang takes a constexpr function as host and device). A
`cuda::std::` name not listed (`cuda::std::atomic`, whose scopes and memory orders are libcu++'s)
stays as written, and its header's include is refused (KP209).  A namespace alias of such a path
(`namespace cxx = cuda::std;`) names the C++ library's (`namespace cxx = std;`); a use in the file of a
name not listed (`cxx::atomic`) is refused there (KP209, naming the alias and its line)."""
from __future__ import annotations

from tree_sitter import Node

from . import backends


def qualifying_path(node: Node, src) -> str:
    """`thrust::system::cuda` for the `cuda` of `thrust::system::cuda::par` (`::thrust::...` too):
    the namespace's name after the scopes that qualify it, outermost first."""
    parts, q = [src.text_of(node)], node.parent
    while q is not None and q.type == "qualified_identifier" and (up := q.parent) is not None \
            and up.type == "qualified_identifier" and up.child_by_field_name("name") == q:
        scope = up.child_by_field_name("scope")
        if scope is None:  # the global `::`
            break
        parts.insert(0, src.text_of(scope))
        q = up
    return "::".join(parts)


def rewrite(tr) -> None:
    """Each namespace the backend spells otherwise where its whole path matches, with a note."""
    spell = backends.get(tr.backend).nested_namespaces
    if not spell:
        return
    for n in tr.src.index.order:
        if n.type != "namespace_identifier" or tr.rw.has(n) or tr.cuda_only_region(n):
            continue
        path = qualifying_path(n, tr.src)
        if path in spell:
            tr.rw.replace(n, spell[path])
            tr.port.notes.append(_note(tr, n, path, spell[path]))


def _qualified_parts(q: Node, src) -> list[tuple[str, int]]:
    """The namespaces and the name that qualify a qualified name, outermost first, each with the byte
    it ends at: `cuda::std::numeric_limits<float>::min` -> cuda, std, numeric_limits, min."""
    parts, n = [], q
    while n is not None and n.type == "qualified_identifier":
        scope = n.child_by_field_name("scope")
        if scope is None:  # the global `::` (`::cuda::std::...`)
            if parts:
                return parts
            n = n.child_by_field_name("name")
            continue
        if scope.type == "template_type":  # `numeric_limits<float>::`: its name, then no further
            name = scope.child_by_field_name("name")
            return parts + [(src.text_of(name), name.end_byte)] if name is not None else parts
        parts.append((src.text_of(scope), scope.end_byte))
        n = n.child_by_field_name("name")
    if n is not None and n.type in ("template_type", "template_function"):
        n = n.child_by_field_name("name")
    if n is not None and n.type in ("identifier", "type_identifier", "namespace_identifier"):
        parts.append((src.text_of(n), n.end_byte))
    return parts


def rewrite_qualified(tr) -> None:
    """Each name the backend's library spells otherwise by its whole qualified path (module docstring)."""
    spell, refused = backends.get(tr.backend).qualified_names, backends.get(tr.backend).unported_qualified_names
    if not spell and not refused or not any(p.split("::", 1)[0].encode() + b"::" in tr.src.data for p in {*spell, *refused}):
        return
    aliases = _aliases(tr, spell)
    # (last first: a name inside another's template arguments, `cuda::std::array<cuda::std::uint32_t, 4>`,
    # is respelled before the outer one, whose text after its path is then the rewritten one)
    for q in reversed(tr.src.index.of_type("qualified_identifier")):
        up = q.parent
        if up is not None and up.type == "qualified_identifier" and up.child_by_field_name("name") == q:
            continue  # only the outermost
        if tr.rw.has(q) or tr.rw.within(q) or tr.cuda_only_region(q):
            continue
        parts = _qualified_parts(q, tr.src)
        whole = "::".join(p for p, _ in parts)
        if parts and parts[0][0] in aliases and len(parts) > 1:  # `cxx::is_same_v` through `namespace cxx = cuda::std;`
            path, line, names = aliases[parts[0][0]]
            if parts[1][0] not in names:
                tr.problem("KP209", q, f"`{whole}` is libcu++'s `{path}::{parts[1][0]}` (through the namespace alias "
                           f"`namespace {parts[0][0]} = {path};` at line {line}), which {backends.get(tr.backend).display_name}'s "
                           "library lacks", "keep its use under #ifdef so that only the CUDA build compiles it, or write it "
                           "with what the C++ library has")
            if not _other_meaning(tr, q, f"{path}::{parts[1][0]}"):
                continue
        if whole in refused and parts[0][0] not in tr.declared_names():
            tr.problem("KP209", q, f"`{whole}` comes from {refused[whole]}, which {backends.get(tr.backend).display_name}'s "
                       "library lacks", "write it with the C++ library's function objects (`cuda::std::less<>`) or a lambda, "
                       "or keep it under #ifdef so that only the CUDA build compiles it")
            continue
        hit = next((k for k in range(len(parts), 0, -1) if "::".join(p for p, _ in parts[:k]) in spell), None)
        if hit is None or parts[0][0] in tr.declared_names():  # a project's own `namespace cuda`
            continue
        path, end = "::".join(p for p, _ in parts[:hit]), parts[hit - 1][1]
        if _other_meaning(tr, q, path):
            continue
        lead = "::" if tr.src.text_of(q).startswith("::") else ""
        tr.rw.replace(q, lambda rw, n, t=lead + spell[path], e=end: t + _rendered(rw, n, e))
        tr.port.notes.append(_note(tr, q, path, spell[path], whole=True))


def _other_meaning(tr, q: Node, path: str) -> bool:
    """KP209 (and True) where `q` names `path` with a template argument its spelling in the backend's library
    means another thing for (Backend.qualified_name_arguments: `cuda::std::numeric_limits<__half>`)."""
    import re
    pattern = backends.get(tr.backend).qualified_name_arguments.get(path)
    base = path.rsplit("::", 1)[-1]
    for t in tr.src.index.under_types(q, "template_type") if pattern else ():
        name, args = t.child_by_field_name("name"), t.child_by_field_name("arguments")
        if name is None or args is None or tr.src.text_of(name) != base or not re.search(pattern, tr.src.text_of(args)):
            continue
        tr.problem("KP209", t, f"`{tr.src.text_of(t)}` is libcu++'s `{path}` of a CUDA floating type, which libcu++ "
                   f"specializes and {backends.get(tr.backend).display_name}'s C++ library does not (its primary template: "
                   "max(), lowest() and epsilon() are 0): the port would compile and compute another value",
                   "write the constant (`__half(65504.f)`, `__ushort_as_half(0x7bff)`), or compute in float "
                   "(`cuda::std::numeric_limits<float>`)")
        return True
    return False


def _aliases(tr, spell: dict[str, str]) -> dict[str, tuple[str, int, frozenset[str]]]:
    """The file's namespace aliases of a library namespace whose listed names the backend's library spells
    in one namespace of the same names (`namespace cxx = cuda::std;`, every `cuda::std::X` listed as `std::X`):
    each alias's target respelled (`namespace cxx = std;`, with a note), and {alias: (the path, its line, the
    names listed)}, by which rewrite_qualified refuses a use of a name not listed (KP209 at the use)."""
    out = {}
    for d in tr.src.index.of_type("namespace_alias_definition"):
        name = next((c for c in d.children if c.type == "namespace_identifier"), None)
        target = next((c for c in d.children if c.type == "nested_namespace_specifier"), None)
        if name is None or target is None or tr.rw.has(d) or tr.rw.within(d) or tr.cuda_only_region(d):
            continue
        path = "".join(tr.src.text_of(target).split()).lstrip(":")
        listed = {k[len(path) + 2:]: v for k, v in spell.items() if k.startswith(path + "::")}
        homes = {v[:-len(n) - 2] for n, v in listed.items() if v.endswith("::" + n)}
        if not listed or len(homes) != 1 or len(listed) != sum(v.endswith("::" + n) for n, v in listed.items()) or \
                path.split("::")[0] in tr.declared_names():  # (a project's own `namespace cuda`)
            continue
        home = homes.pop()
        tr.rw.replace(target, home)
        tr.port.notes.append(_note(tr, target, path, home, whole=True))
        out[tr.src.text_of(name)] = (path, tr.src.loc(d).line, frozenset(listed))
    return out


def _rendered(rw, q: Node, start: int) -> str:
    """The rewritten text of `q`'s bytes from `start` to its end (its template arguments and what follows)."""
    data, out, pos = rw.src.data, [], start

    def walk(n: Node) -> None:
        nonlocal pos
        for c in n.children:
            if c.end_byte <= pos:
                continue
            if c.start_byte >= pos:
                out.extend((data[pos:c.start_byte].decode(), rw.text(c)))
                pos = c.end_byte
            else:
                walk(c)
    walk(q)
    return "".join(out) + data[pos:q.end_byte].decode()


def _note(tr, node: Node, path: str, target: str, whole: bool = False):
    from .translate import Note
    after = target if whole else path.rsplit("::", 1)[0] + "::" + target
    return Note(tr.src.loc(node), path, after, f"{backends.get(tr.backend).display_name}'s library namespace",
                category="api:library-namespace")
