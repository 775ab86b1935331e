"""A device function the port cannot translate (inline PTX with no AMD meaning, an API name the target
lacks) that no code of the run calls: written as a declaration the backend marks unavailable
(`unavailable_fn`, HIP: clang's `__attribute__((unavailable("...")))`), so a call, wherever it is
compiled, is an error naming the reason, instead of refusing every file that includes it."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import dialect
from .diagnostics import Diagnostic


def declare(tr, node: Node, code: str, message: str) -> bool:
    """Where `node` (which has no translation) is in a device function that no code of the run calls
    (a header's helper such as b40c's `BAR`, a named barrier AMD lacks): the function is written as a
    declaration the backend marks unavailable, so that a call, wherever it is compiled, is an error
    naming the reason; a warning at `node` says so.  False (the caller refuses the file) where the
    backend has no such mark, the function is a kernel (the host launches it), or the run shows a call
    of it or cannot show its callers (a file translated with no run around it)."""
    if tr.allow_unported:
        return False  # (--allow-unported keeps the code as written)
    f = tr.module.function_at(node)
    vis = tr.module.visible
    mark = dialect.concept("unavailable_fn").spelling(tr.backend)
    if mark is None or f is None or f.is_kernel or not f.is_device or f.body is None or vis is None or \
            vis.elsewhere is None:
        return False
    done = tr.__dict__.setdefault("_unavailable", {})
    bodies = tr.__dict__.setdefault("_unavailable_bodies", set())  # (each overload of a name has its own)
    one = (f.name, f.node.start_byte)  # (an overload of the name is another function: its calls are not these)
    if one not in done:
        calls, looked = vis.elsewhere.calls(f.name.split("::")[-1], callee=f)
        done[one] = bool(looked) and not calls
    if done[one] and f.body.start_byte not in bodies:
        bodies.add(f.body.start_byte)
        what = " ".join(tr.src.text_of(node).split())
        why = re.sub(r'["\\]', "'", f"{code} {message}: {what[:120]}")
        body = tr.src.text_of(f.body)
        tr.rw.replace(f.body, dialect.render(dialect.concept("unavailable_fn"), tr.backend, {"why": why}) +
                      ";" + "\n" * body.count("\n"))  # (the port keeps the original's lines)
    if done[one]:
        tr.port.diagnostics.append(Diagnostic(
            code, tr.src.loc(node), f"{message}; no code of this run calls '{f.name}', so the "
            f"{tr.backend.upper()} port declares it unavailable (a call does not compile)",
            f"translate it with the files that call '{f.name}' (they are then refused here), or give "
            f"'{f.name}' a portable body", "warning"))
    return done[one]
