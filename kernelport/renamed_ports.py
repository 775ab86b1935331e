"""A port whose code is its original's with API names renamed, which lint reads alike (issue 15).

Translate's self-check lints each port for the backend's targets and compares its warp-size errors
with the original's (soundness.self_check).  Most ports of host code differ from their original
only by the backend API table's plain renames (`cudaMalloc` -> `hipMalloc`, `cudaError_t` ->
`hipError_t`) and by the spelling of their local includes; linting such a port parses, models and
analyses it again to find what the original's lint found.  It is not linted where this module
shows it is the original's text under a renaming that no warp-size rule can tell from the original:

- the port's body is the original's text with local includes' paths set aside (lint of a text alone
  resolves none) and each name, everywhere it stands, replaced by one other name; every other byte
  (angled includes, comments, strings, layout) is the same;
- each replaced name `a` and its replacement `b` are read by lint as one thing: either both spell
  one runtime concept of the dialect table (`rt_Memcpy`: `cudaMemcpy` read as CUDA, `hipMemcpy` read
  as the backend; what lint reads of a runtime call it reads by the concept, host_values'
  allocations and copies) and no other concept on any backend, or `b` is the backend API table's
  plain spelling of `a` and neither is in any backend's dialect table (an opaque name; the generic
  CUDA-API concept the source dialect gives `a` is read by no warp-size rule); and neither is a
  launch form of any backend (a runtime call that launches a kernel, whose geometry the block-size
  rules read) nor holds a word of lint's geometry, attribute and width readings (`_READ_WORDS`);
- the renaming is one to one: `a` stands nowhere in the port, `b` nowhere in the original (no two
  names merged, no name of the file's own taken);
- the port's prologue (between its provenance lines and its body) is angled includes only (the
  backend's runtime header), with no code of kernelport's for the lint to read.

Then lint reads the port as it reads the original up to the names of opaque identifiers, so its
warp-size errors are the original's.

A port also differs where translate maps the toolkit's headers (`#include <cuda_profiler_api.h>` and
`#include <cuda_runtime.h>` become one `#include <hip/hip_runtime_api.h>`).  Lint reads an angled include only
inside a preprocessor conditional (kernelport/hipbuild.py: a `<hip/...>` include names the branch's macro an
AMD build's, an include guard's too); elsewhere it is a line of no code, which only moves the lines below it.
So `alike` sets aside each run of angled-include lines that no conditional encloses (in the original by its
parse; in the port by the same lines' place: every byte outside the runs is the original's up to renames, so
the port's directives are the original's) where both texts have a run, then asks the same of the rest.
"""
from __future__ import annotations

from . import backends, dialect, guards, lazy_re

_NAME = lazy_re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_LOCAL_INCLUDE = lazy_re.compile(r'(?m)^([ \t]*#[ \t]*include[ \t]*)"[^"\n]*"')
_ANGLED_INCLUDE = lazy_re.compile(r"[ \t]*#[ \t]*include[ \t]*<[^>\n]*>[ \t]*")
# Words of names that lint's geometry, device-attribute and width readings look for (launches,
# occupancy, attributes, the wave): an API name holding one is linted, never assumed opaque.  Not `prop`:
# lint reads a device's properties by their fields (`prop.warpSize`: ws_propblocks, ws_tuning), never by
# the struct's or the query's name (`cudaDeviceProp`, `cudaGetDeviceProperties`: one runtime concept each
# in every dialect; only verify's inputs read the struct's name, kernelport/device_props.py).
_READ_WORDS = lazy_re.compile(r"(?i)launch|occupancy|attrib|func|kernel|graph|cooperative|warp|lane|wave|"
                              r"mask|block|grid|dim|shfl|ballot|vote|sync_|size")


def _read_alike(a: str, b: str, backend: str, table) -> bool:
    """Whether lint reads CUDA's `a` and the backend's `b` as the same thing (see the module's doc)."""
    if _READ_WORDS.search(a) or _READ_WORDS.search(b):
        return False
    concept = dialect._by_name(backends.source().name).get(a)
    if concept is not None and (concept.kind != "runtime" or dialect._by_name(backend).get(b) is not concept):
        return False
    if concept is None and table.spelling(a) != b:
        return False
    return all(b_.get(n) in (None, concept) if concept is not None else n not in b_
               for x in backends.all() for b_ in (dialect._by_name(x.name),) for n in (a, b)) and \
        all(n not in x.launch_forms for x in backends.all() for n in (a, b))


def renamed_only(original: str, body: str, prologue: str, backend: str) -> bool:
    """Whether the port `body` (after `prologue`) is `original` under API renames lint cannot tell
    apart (see the module's doc)."""
    table = backends.get(backend).api()
    if table is None or any(line.strip() and not _ANGLED_INCLUDE.fullmatch(line) for line in prologue.splitlines()):
        return False
    o, p = _LOCAL_INCLUDE.sub(r"\1", original), _LOCAL_INCLUDE.sub(r"\1", body)
    if _NAME.split(o) != _NAME.split(p):  # every byte between names the same
        return False
    names: dict[str, str] = {}
    for a, b in zip(_NAME.findall(o), _NAME.findall(p)):
        if a != b and names.setdefault(a, b) != b:
            return False
    renamed = {a: b for a, b in names.items() if a != b}
    if not renamed:
        return False  # the same text: the caller's own test says so
    kept_o, kept_p = set(_NAME.findall(o)), set(_NAME.findall(p))
    return all(a not in kept_p and b not in kept_o and _read_alike(a, b, backend, table) for a, b in renamed.items())


_CONDITIONAL = lazy_re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef)\b")
_ENDIF = lazy_re.compile(r"[ \t]*#[ \t]*endif\b")
_LINE = lazy_re.compile(r"[^\n]*\n|[^\n]+\Z")
_RUN = "\x00"  # a run of angled includes set aside (no source text holds it: `alike` refuses one that does)


def _set_aside(lines: list[str], top) -> str:
    """The text with each run of angled-include lines that `top(i)` places outside every conditional as one
    `_RUN` line (a line holding a comment's or a continuation's marks is no plain include: kept)."""
    out: list[str] = []
    for i, line in enumerate(lines):
        plain = _ANGLED_INCLUDE.fullmatch(line.rstrip("\r\n")) and not any(m in line for m in ("/*", "*/", "//", "\\"))
        if plain and top(i):
            if not out or out[-1] != _RUN + "\n":
                out.append(_RUN + "\n")
        else:
            out.append(line)
    return "".join(out)


def alike(src, body: str, prologue: str, backend: str) -> bool:
    """Whether lint reads the port `body` (after `prologue`) as it reads the original `src`: the same text, or
    `renamed_only`, once the runs of angled includes outside every conditional are set aside in both (see the
    module's doc)."""
    if _RUN in src.text or _RUN in body:
        return False
    rows = {inc.start_point[0] for inc in src.index.of_type("preproc_include")
            if (p := inc.child_by_field_name("path")) is not None and p.type == "system_lib_string"
            and not guards.branches(inc, src)}
    o_lines, p_lines = _LINE.findall(src.text), _LINE.findall(body)  # (rows as the parse counts them)
    depth: list[int] = []  # the port's: its directives counted (the same as the original's where the rest agrees)
    d = 0
    for line in p_lines:
        depth.append(d)
        d += 1 if _CONDITIONAL.match(line) else -1 if _ENDIF.match(line) else 0
    o = _set_aside(o_lines, rows.__contains__)
    p = _set_aside(p_lines, lambda i: depth[i] == 0)
    if o == src.text and p == body:
        return renamed_only(o, p, prologue, backend)  # (no run set aside: the renames alone)
    if _LOCAL_INCLUDE.sub(r"\1", o) == _LOCAL_INCLUDE.sub(r"\1", p):
        return not any(line.strip() and not _ANGLED_INCLUDE.fullmatch(line) for line in prologue.splitlines())
    return renamed_only(o, p, prologue, backend)
