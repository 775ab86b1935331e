"""CUB reached through Thrust.  CUDA's Thrust is built on CUB (`<thrust/sort.h>` includes cub's radix
sort), so a file that includes only thrust headers and calls `cub::DeviceRadixSort::SortPairsDescending`
compiles with nvcc (shushengyuan/topk, held-out set 47).  rocThrust is built on rocPRIM, not hipCUB: the
port's `hipcub::` names are declared by no header it includes (hipcc: use of undeclared identifier
'hipcub').  Where the port renames the source's cub namespace (a library table's namespace), the file
includes a `<thrust/...>` header and no `<cub/...>` one, the port includes the backend's cub header
after the first thrust include, with a note.  A file that includes cub itself, or that reaches it
through a project header (whose own port includes the backend's), is left as written.
"""
from __future__ import annotations

from . import backends, dialect


def include_cub(tr) -> None:
    source = backends.source().lowering.cub_namespaces
    header = dialect.concept("cub_header").spelling(tr.backend)
    if not source or not header or header == dialect.concept("cub_header").spelling("cuda"):
        return
    renamed = [n for n in tr.src.index.of_type("namespace_identifier")
               if tr.src.text_of(n) in source and tr.rw.has(n)]
    paths = [(n, tr.src.text_of(p)) for n in tr.src.index.of_type("preproc_include")
             if (p := n.child_by_field_name("path")) is not None]
    if not renamed or any(t.startswith("<cub/") for _, t in paths):
        return
    anchor = next((n for n, t in paths if t.startswith("<thrust/")), None)
    if anchor is None:
        return
    from .translate import Note
    tr.rw.replace(anchor, lambda rw, node: rw.stitch(node).rstrip("\n") + f"\n#include <{header}>\n")
    tr.port.notes.append(Note(tr.src.loc(renamed[0]), "cub:: (reached through <thrust/...>)", f"#include <{header}>",
                              f"CUDA's Thrust includes CUB; {tr.backend.upper()}'s does not: the port includes it"))
