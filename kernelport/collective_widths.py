"""A library warp collective left at its default logical width keeps the source's width in a port
whose library defaults to another (the backends' `warp_collective_default`): cub's
`WarpReduce<float>` is 32 lanes (CUB_PTX_WARP_THREADS); hipCUB's `WarpReduce<float>` is the device's
wave (HIPCUB_DEVICE_WARP_THREADS: 64 on CDNA), where it would sum two of CUDA's warps into one lane.
The port writes `hipcub::WarpReduce<float, 32>`, CUDA's semantics on every wave width, and the
warp analysis keeps the function's 32s with it (warpwidth.decide: the collective is code that says
32 lanes). A collective given its width (`WarpReduce<float, 16>`) and a class of that name the file
defines itself are left as written."""
from __future__ import annotations

from tree_sitter import Node

from . import backends, dialect


def default_width_types(src, nodes) -> list[Node]:
    """The library warp collectives among the template types `nodes` left at their default logical
    width (`cub::WarpReduce<float>`), not the file's own classes of that name, in source order."""
    source, own = backends.source().name, None
    out = []
    for t in nodes:
        name = t.child_by_field_name("name")
        at = dialect.warp_collective_width(source, src.text_of(name)) if name is not None else None
        targs = t.child_by_field_name("arguments")
        if at is None or targs is None or len(targs.named_children) != at:
            continue
        own = own if own is not None else own_classes(src)
        if src.text_of(name) not in own:
            out.append(t)
    return out


def own_classes(src) -> set[str]:
    """Names of the structs and classes this file defines (with a body)."""
    out = set()
    for t in ("struct_specifier", "class_specifier"):
        for n in src.index.of_type(t):
            name = n.child_by_field_name("name")
            if name is not None and n.child_by_field_name("body") is not None:
                out.add(src.text_of(name))
    return out


def rewrite(tr) -> None:
    """Write the source's width into each default-width collective where the target's library
    defaults to another, with a note."""
    width, target = _respelled(tr.backend), backends.get(tr.backend).warp_collective_default
    if not width:
        return
    from .translate import Note
    for t in default_width_types(tr.src, tr.src.index.of_type("template_type")):
        targs = t.child_by_field_name("arguments")
        if tr.cuda_only_region(t) or tr.rw.within(targs.children[-1]):
            continue
        tr.rw.insert_before(targs.children[-1], f", {width}")
        name = tr.src.text_of(t.child_by_field_name("name"))
        tr.port.notes.append(Note(tr.src.loc(t), f"{name}<...>", f"{name}<..., {width}>",
                                  f"{backends.get(tr.backend).display_name}'s library gives a {name} left at its "
                                  f"default width the {target}; CUDA's is {width} lanes"))


def evidence(a, kept: bool) -> tuple[dict[str, Node], dict[str, Node]]:
    """warpwidth.decide's code evidence for 32-lane groups: the functions whose global data is laid
    out in warps of 32, and those whose collective keeps 32 lanes. As written (`kept` False: lint's
    view of a hand port under hipCUB) a default-width collective runs at the wave and its function's
    32s mean the hardware warp, data layout or not; in a port that writes its width (`kept`), it and
    the data layout both say 32."""
    if kept:
        return a.data_warps, a.collective_types
    return {f: n for f, n in a.data_warps.items() if f not in a.wave_collectives}, {}


def analysis_for(backend: str, module, given):
    """The warp analysis a port to `backend` reads: `given` (the source's, as lint reads it), or where
    the port writes the width of a default-width collective (rewrite), one that keeps its 32 lanes."""
    from . import warpflow
    if not given.collective_types or not _respelled(backend):
        return given
    return warpflow.analyze(module, kept_collectives=True)


def _respelled(backend: str) -> str:
    """The width a port to `backend` writes into a default-width collective ("": none)."""
    width = backends.source().warp_collective_default
    target = backends.get(backend).warp_collective_default
    return width if width and target and target != width else ""


def spans(tr) -> list[tuple[int, int]]:
    """The byte spans of the functions whose default-width collective the port gives 32 lanes: lint of
    the original reports the 32s there against the wave it would run at as written, which this port,
    CUDA-exact, does not have (soundness.self_check: no KP225 for them)."""
    if tr.analysis is tr.lint_analysis:
        return []
    from . import fnscopes
    scopes = fnscopes.of(tr.module)
    return [(f.node.start_byte, f.node.end_byte) for k in tr.analysis.collective_types
            if (f := scopes.function(k)) is not None]
