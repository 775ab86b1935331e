"""A host copy of the device's wave width kept across a device switch (stop 65's note).

Host code's reads of the wave width ask the current device at run time (`kp_device_warp_size()` on HIP:
`hipGetDevice`, then its warp-size attribute).  Where the port writes that read into a variable's value (`int ws =
WARP_SIZE;` -> `int ws = kp_device_warp_size();`, a file-scope `static int g = 4 * WARP_SIZE;`, initialized before
`main`) and the program switches devices after it (`cudaSetDevice(d)` later in the function, or anywhere in the
file for a variable of file or static storage), the stored width is the device's of the store, not necessarily
the one launched on: a host with a 64- and a 32-lane device launches the other's rows.  The port cannot move the
read to each use (the variable is the user's), so it says so: KP244 as a warning at the store, naming the switch.
"""
from __future__ import annotations

from tree_sitter import Node

from . import backends, dialect
from .diagnostics import Diagnostic
from .source import ident_name

CODE = "KP244"
_CARRY = frozenset({"binary_expression", "parenthesized_expression", "cast_expression", "conditional_expression"})


def _store(n: Node) -> tuple[Node, Node] | None:
    """(the declaration or assignment, its variable's declarator or target) whose value carries `n`, or None."""
    while n.parent is not None and n.parent.type in _CARRY:
        n = n.parent
    p = n.parent
    if p is not None and p.type == "init_declarator" and p.child_by_field_name("value") == n:
        return p, p.child_by_field_name("declarator")
    if p is not None and p.type == "assignment_expression" and p.child_by_field_name("right") == n:
        return p, p.child_by_field_name("left")
    return None


def _switches(tr) -> list[Node]:
    source = backends.source().name
    out = []
    for c in tr.src.index.of_type("call_expression"):
        f = c.child_by_field_name("function")
        con = dialect.lookup(source, tr.src.text_of(f).strip()) if f is not None else None
        if con is not None and con.key == "rt_SetDevice":
            out.append(c)
    return out


def check(tr) -> None:
    """Translator pass: the warning, for each stored host read of the device's wave width before a switch."""
    try:
        host = tr.spell("host_wave_size")
    except LookupError:
        return
    reads = [(s, e, t) for (s, e, t), v in tr.rw.replacements.items() if isinstance(v, str) and host in v]
    switches = _switches(tr) if reads else []
    if not switches:
        return
    seen = set()
    for s, e, _t in sorted(reads):
        n = tr.src.root.descendant_for_byte_range(s, e)
        got = _store(n) if n is not None else None
        if got is None or got[0].id in seen:
            continue
        seen.add(got[0].id)
        store, target = got
        f = tr.module.function_at(store)
        decl = store.parent if store.type == "init_declarator" else None
        static = f is None or decl is not None and any(
            c.type == "storage_class_specifier" and tr.src.text_of(c) == "static" for c in decl.children)
        later = [c for c in switches if static or (f.body.start_byte <= c.start_byte < f.body.end_byte and
                                                   c.start_byte > store.start_byte)]
        if not later:
            continue
        name = ident_name(target) if target.type != "identifier" else tr.src.text_of(target)
        sw = later[0]
        tr.port.diagnostics.append(Diagnostic(
            CODE, tr.src.loc(store),
            f"`{name or tr.src.text_of(target)}` keeps the device's wave width the port reads here ({host}: the "
            f"current device's), and the program switches devices after it (`{tr.src.text_of(sw)}`, line "
            f"{sw.start_point[0] + 1}): on a host whose devices' waves differ (64 and 32 lanes), its later uses "
            "launch with another device's width", f"read the width where it is used, after the switch (the port "
            f"writes {host} for each read of the warp-size constant), or keep one device per process", "warning"))
