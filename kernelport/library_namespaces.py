"""A namespace inside a library's namespace that the backend's library spells otherwise, matched
by the whole path that qualifies it (the backend's `nested_namespaces`): Thrust's CUDA system
`thrust::cuda::par.on(s)` is rocThrust's `thrust::hip::par.on(s)`. The bare name is no such
match: `cuda::std::min` (libcu++) and a project's own `cuda::` stay as written."""
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


def _note(tr, node: Node, path: str, target: str):
    from .translate import Note
    after = path.rsplit("::", 1)[0] + "::" + target
    return Note(tr.src.loc(node), path, after, f"{backends.get(tr.backend).display_name}'s library namespace",
                category="api:library-namespace")
