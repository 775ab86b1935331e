"""A Thrust algorithm called without its own header, which CUDA's Thrust brings in through another.

QuickSES (heldout73 CudaSurf.cu) includes <thrust/scan.h>, <thrust/device_ptr.h>, <thrust/binary_search.h>,
<thrust/unique.h> and <thrust/sort.h>, and calls `thrust::count_if`, declared in <thrust/count.h>.  CUDA 13's
Thrust (CCCL) reaches count.h through those headers, so nvcc compiles it; rocThrust's headers do not include
each other's algorithms, and hipcc stops ("no member named 'count_if' in namespace 'thrust'").  Where the
backend lists the headers its Thrust declares each algorithm in (`Backend.thrust_algorithm_headers`, data:
each entry checked by a hipcc compile of `#include <thrust/H>` + `using thrust::NAME;` against rocThrust,
bench/thrust_headers_check.py), the port includes the header of every `thrust::NAME` the file names whose
header the file does not include itself, before the file's first `<thrust/...>` include, with a note.

An include of the header that declares a name the source already uses adds no meaning: the same
declarations the original's toolkit reached another way.  A file that includes no `<thrust/...>` header (its
Thrust comes through a project header, whose own port gets the include) is left as written."""
from __future__ import annotations

from . import backends

SCOPES = frozenset({"thrust"})


def include_pass(tr) -> None:
    """Called by the translator's API rewrite (after thrust_cub.include_cub): this module's docstring."""
    table = backends.get(tr.backend).thrust_algorithm_headers
    if not table or b"thrust" not in tr.src.data:
        return
    src = tr.src
    paths = [(n, src.text_of(p)) for n in src.index.of_type("preproc_include")
             if (p := n.child_by_field_name("path")) is not None]
    included = {t[1:-1] for _, t in paths}
    anchor = next((n for n, t in paths if t.startswith("<thrust/")), None)
    if anchor is None or tr.cuda_only_region(anchor):
        return
    wanted: dict[str, object] = {}
    for q in src.index.of_type("qualified_identifier"):
        scope, name = q.child_by_field_name("scope"), q.child_by_field_name("name")
        if scope is None or name is None or src.text_of(scope) not in SCOPES:
            continue
        text = src.text_of(name)
        if name.type == "template_function":  # thrust::sort<T>(...)
            inner = name.child_by_field_name("name")
            text = src.text_of(inner) if inner is not None else text
        header = table.get(text)
        if header is not None and header not in included and header not in wanted and not tr.cuda_only_region(q):
            wanted[header] = q
    if not wanted:
        return
    from .translate import Note
    tr.rw.insert_before(anchor, "".join(f"#include <{h}>\n" for h in wanted))
    for header, q in wanted.items():
        tr.port.notes.append(Note(src.loc(q), src.text_of(q), f"#include <{header}>",
                                  f"CUDA's Thrust reaches <{header}> through the file's other Thrust headers; "
                                  f"{tr.backend.upper()}'s does not: the port includes it"))
