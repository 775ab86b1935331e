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
from .thread_pipelines import NAMESPACE as PIPELINE_NAMESPACE, refuse_shared

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
    if used is None:  # only in a macro's body (`#define PUSH(s) nvtxRangePushA(s)`): used where it expands
        from .macro_body_words import word_uses
        used = next((d for d, *_ in word_uses(tr, shape.fullmatch)), None)
    polyfill = backends.get(tr.backend).header_polyfills.get(header)
    if used is not None and polyfill is not None and (_beyond_tiles(tr, header) | _beyond_defined(tr, header)
                                                          | _layout_reads(tr, header) | refuse_shared(tr, header)):
        return True  # refused at each such use
    if used is not None and polyfill is not None:
        from .translate import Note  # the target lacks the header; the port defines its names
        tr.rw.replace(node, polyfill + ("\n" if tr.src.text_of(node).endswith("\n") else ""))
        tr.port.notes.append(Note(tr.src.loc(node), f"<{header}>", "(defined in the port)",
                                  f"{tr.backend.upper()} has no <{header}>: the port defines what it declares"))
        return True
    counterpart = backends.get(tr.backend).header_counterparts.get(header.rsplit("/", 1)[-1])
    if used is not None and counterpart is not None:
        used = _counterpart(tr, node, header, shape, counterpart)  # None: every use renamed
        if used is None:
            return True
    if used is not None:
        what = tr.src.text_of(used)
        if used.type in ("preproc_def", "preproc_function_def"):  # the macro's word, as its body spells it
            from .macro_body_words import word_uses
            what = next((w for d, _, _, w in word_uses(tr, shape.fullmatch) if d == used and
                         w not in (counterpart or ("", {}))[1]), what)
        tr.problem("KP209", used, f"`{what}` comes from <{header}>, which has no "
                   f"{tr.backend.upper()} equivalent", f"write it without <{header}>'s names (`{pattern}`), or keep "
                   "its use under #ifdef so that only the CUDA build compiles it")
        return True
    from .translate import Note
    tr.rw.replace(node, "")
    tr.port.notes.append(Note(tr.src.loc(node), f"<{header}>", "(removed)", f"it declares only names of the shape "
                              f"`{pattern}`, and this file uses none of them"))
    return True


def _beyond_tiles(tr, header: str) -> bool:
    """A `cg::reduce` whose group is not a thread_block_tile (a coalesced or labeled partition, a group
    the file does not type): the port's definition is over tiles only, so each such use is refused here,
    located (KP209), rather than left to fail in the compiler.  True when one was."""
    from .member_uses import base, receiver_group
    aliases = {"cooperative_groups", *re.findall(r"namespace\s+(\w+)\s*=\s*(?:::)?cooperative_groups\s*;", tr.src.text)}
    refused = False
    for n in tr.src.index.of_type("call_expression"):
        fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
        name = tr.src.text_of(fn).replace(" ", "") if fn is not None else ""
        if args is None or not any(name == f"{a}::reduce" for a in aliases):
            continue
        group = [a for a in args.named_children if a.type != "comment"][:1]
        g = receiver_group(group[0], tr.src) if group else None
        if g is None or base(g) != "thread_block_tile":
            refused = True
            tr.problem("KP209", n, f"`{name}` over {'a ' + g if g else 'a group kernelport cannot type'}: "
                       f"<{header}> has no {tr.backend.upper()} equivalent, and the port defines cg::reduce over a "
                       "thread_block_tile only", "reduce over a tiled_partition<N> tile, or write the reduction "
                       "with the group's shuffles")
    return refused


def _beyond_defined(tr, header: str) -> bool:
    """A name qualified by the header's namespace that the port's definition lacks (`wmma::precision::tf32`,
    `wmma::bmma_sync`): each use is refused here, located (KP209).  True when one was."""
    scope = backends.get(tr.backend).header_polyfill_scopes.get(header)
    if scope is None:
        return False
    namespace, defined = scope
    if not namespace:
        return _beyond_global(tr, header, defined)
    refused = False
    path, declares = backends.source().header_namespace_names.get(header, ("", None))
    # the file's aliases of the header's namespace (`namespace wm = nvcuda::wmma;`): name -> its line
    aliases = {namespace: 0, **{m.group(1): tr.src.text.count("\n", 0, m.start()) + 1 for m in re.finditer(
        r"\bnamespace\s+(\w+)\s*=\s*(?:::)?\s*" + r"\s*::\s*".join(path.split("::")) + r"\s*;", tr.src.text if path else "")}}
    for n in tr.src.index.of_type("qualified_identifier"):
        ns, name = n.child_by_field_name("scope"), n.child_by_field_name("name")
        if ns is None or name is None or tr.src.text_of(ns) not in aliases:
            continue
        first = name.child_by_field_name("scope" if name.type == "qualified_identifier" else "name") \
            if name.type in ("qualified_identifier", "template_type", "template_function") else name
        text = tr.src.text_of(first) if first is not None else ""
        if text not in defined and declares is not None and text not in declares and text in tr.declared_names():
            continue  # not the header's: the project's own namespace of that name (`flash::wmma::WMMA_N`)
        if text not in defined:
            refused = True
            line = aliases[tr.src.text_of(ns)]
            via = f" (`{tr.src.text_of(ns)}` is the alias `namespace {tr.src.text_of(ns)} = {path};` at " \
                  f"line {line})" if line else ""
            tr.problem("KP209", n, f"`{tr.src.text_of(n)}`{via}: <{header}>'s `{namespace}::{text}`, which has no "
                       f"{tr.backend.upper()} equivalent: the port defines only {namespace}::{{{', '.join(sorted(defined))}}}",
                       f"write it with those names (the port's {namespace} covers fragments of half, float, "
                       "integer and double elements), or keep it under #ifdef so that only the CUDA build compiles it")
    return refused


def _beyond_global(tr, header: str, defined: frozenset[str]) -> bool:
    """The same for a header whose names are global (<cuda_pipeline.h>'s `__pipeline_arrive_on`, its C++ API's
    `pipeline`): each name of the header's shape the port does not define, unless the file (or a header it
    includes) declares it, it is qualified by a namespace the file declares (the project's own `pipeline`)
    or by libcu++'s, or only the CUDA build compiles it.  True when one was refused."""
    declares = backends.source().header_declares
    shape = re.compile(declares.get(header, declares.get(header.rsplit("/", 1)[-1], "(?!)")))
    own, refused = tr.declared_names(), False
    for n in sorted((n for t in _NAMES for n in tr.src.index.of_type(t)), key=lambda n: n.start_byte):
        name = tr.src.text_of(n)
        if not shape.fullmatch(name) or name in defined or name in own or tr.cuda_only_region(n):
            continue
        up = n.parent
        up = up.parent if up is not None and up.type in ("template_type", "template_function") else up  # `ns::pipeline<S>`
        scope = up.child_by_field_name("scope") if up is not None and up.type == "qualified_identifier" else None
        if scope is not None and re.match(r"\w*", tr.src.text_of(scope)).group(0) in (*own, PIPELINE_NAMESPACE):
            continue  # (libcu++'s `cuda::pipeline` is <cuda/pipeline>'s: kernelport/thread_pipelines.py)
        refused = True
        tr.problem("KP209", n, f"`{name}` comes from <{header}>, which has no {tr.backend.upper()} equivalent; the "
                   f"port defines only {', '.join(sorted(defined))}",
                   f"write it with those, or keep it under #ifdef so that only the CUDA build compiles it")
    return refused


def _layout_reads(tr, header: str) -> bool:
    """A fragment element read by its place (the port lays fragments out otherwise): KP209 at each."""
    elements = backends.get(tr.backend).header_polyfill_elements.get(header)
    if elements is None:
        return False
    from .fragment_elements import refuse_layout_reads
    return refuse_layout_reads(tr, header, *elements)


def _counterpart(tr, node: Node, header: str, shape: re.Pattern, counterpart: tuple[str, dict[str, str]]) -> Node | None:
    """Where every use of the header's names is one the target's counterpart header spells (the backend's
    `header_counterparts`, HIP: NVTX's ranges and marks as roctx's), the include becomes that header's and
    each use its name (None); else the first use it lacks (refused there, KP209)."""
    target, names = counterpart
    own = tr.declared_names()  # (the file's own `#define NVTX_RANGE_FN()`, a project's wrapper: not the header's)
    uses = sorted((n for t in _NAMES for n in tr.src.index.of_type(t)
                   if shape.fullmatch(tr.src.text_of(n)) and tr.src.text_of(n) not in own), key=lambda n: n.start_byte)
    from .macro_body_words import word_uses  # `#define PUSH(s) nvtxRangePushA(s)`: code where it expands
    in_macros = word_uses(tr, lambda w: shape.fullmatch(w) is not None and w not in own)
    lacked = next((n for n in uses if tr.src.text_of(n) not in names), None) or \
        next((d for d, _, _, w in in_macros if w not in names), None)
    if lacked is not None:
        return lacked
    from .translate import Note
    for n in uses:
        tr.rw.replace(n, lambda rw, x, to=names[tr.src.text_of(n)]: to)
    for _, start, end, w in in_macros:
        tr.rw.drop_span(start, end, names[w])
    uses += [d for d, *_ in in_macros]
    tr.rw.replace(node, f"#include <{target}>" + ("\n" if tr.src.text_of(node).endswith("\n") else ""))
    tr.port.notes.append(Note(tr.src.loc(node), f"<{header}>", f"<{target}>", f"{len(uses)} use(s) of its names "
                              f"as {tr.backend.upper()}'s counterpart spells them (link with its library)"))
    return None
