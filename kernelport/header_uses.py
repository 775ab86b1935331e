"""Toolkit headers with no counterpart that only declare names of one shape (the source backend's
`header_declares`, keyed by the include's path or its file name: `<cudaTypedefs.h>`, the driver
API's `PFN_cu...` entry-point types; `<cooperative_groups/reduce.h>`'s `cg::reduce` and its
operators): a port of a file that uses none of those names leaves the include out, with a note; a
file that uses one is refused at that use (KP209, naming it), not at the include, since the use is
what has no counterpart.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends

_NAMES = ("identifier", "type_identifier")


def left_out(tr, node: Node, header: str) -> bool:
    """Whether the include `node` of `header` is handled here: removed from the port (no name of the
    header used) or refused at the first use (KP209).  False for any other header."""
    declares = backends.source().header_declares
    pattern = declares.get(header, declares.get(header.rsplit("/", 1)[-1]))
    if pattern is None:
        return False
    shape = re.compile(pattern)
    used = min((n for t in _NAMES for n in tr.src.index.of_type(t) if shape.fullmatch(tr.src.text_of(n))),
               key=lambda n: n.start_byte, default=None)  # the first use in the file
    polyfill = backends.get(tr.backend).header_polyfills.get(header)
    if used is not None and polyfill is not None:  # the target lacks the header; the port defines its names
        from .translate import Note
        tr.rw.replace(node, polyfill + ("\n" if tr.src.text_of(node).endswith("\n") else ""))
        tr.port.notes.append(Note(tr.src.loc(node), f"<{header}>", "(defined in the port)",
                                  f"{tr.backend.upper()} has no <{header}>: the port defines what it declares"))
        return True
    if used is not None:
        tr.problem("KP209", used, f"`{tr.src.text_of(used)}` comes from <{header}>, which has no "
                   f"{tr.backend.upper()} equivalent", f"write it without <{header}>'s names (`{pattern}`), or keep "
                   "its use under #ifdef so that only the CUDA build compiles it")
        return True
    from .translate import Note
    tr.rw.replace(node, "")
    tr.port.notes.append(Note(tr.src.loc(node), f"<{header}>", "(removed)", f"it declares only names of the shape "
                              f"`{pattern}`, and this file uses none of them"))
    return True
