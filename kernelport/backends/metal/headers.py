"""Project headers device code needs, spliced into the Metal port.

A Metal port is one self-contained file: it cannot include a CUDA header.  So where device code
uses a name a project header (`#include "common.h"` found beside the including file or on the
include path, `#include <x.h>` found on the include path) defines,
or the host launches a kernel it defines (the file's own host code, or host code of a header
it reaches: qsim's simulator class, a launcher function, a macro's body; `header_launches`),
the header's text takes the include's place, as the
preprocessor would do, once per header (a second include of it is dropped), and the same
question is asked again of the headers it includes.  The translation then runs on the whole:
what the header holds for host code only is left out like the file's own host code, and its
device code is ported.  Every line remembers where it came from, so diagnostics and notes point
into the header.  A header that does not parse (or nesting deeper than `MAX_DEPTH`) is not
spliced: the include is then refused (KP209) by `HostCode.rewrite_includes`.
"""
from __future__ import annotations

import re
from pathlib import Path

from ...includes import locate
from ...errors import KernelportError
from ...model import Visible, build, defined_names, plain, device_references, file_scope_items, with_header_launches
from ...source import SourceFile, decode

MAX_DEPTH = 8
_INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*([<"][^>"\n]+[>"])')
MAX_HEADERS = 200  # headers read for their macros, per port
# a kernel launched in a macro's body: `name<template args>` (no `;`, braces or parentheses) `<<<`
_MACRO_LAUNCH = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*<<<")


def _reachable(src: SourceFile, include_dirs: tuple[str, ...] = ()):
    """(path, text) of every project header that `src`'s includes reach, breadth first."""
    return _reachable_from(Path(src.path).parent, src.text, include_dirs)


def _reachable_from(here: Path, text: str, include_dirs: tuple[str, ...] = ()):
    """(path, text) of every project header that the includes of `text` (a file in `here`) reach."""
    todo = [(here, m[1]) for m in _INCLUDE.finditer(text)]
    seen: set[Path] = set()
    while todo and len(seen) < MAX_HEADERS:
        here, spelled = todo.pop(0)
        header = locate(here, spelled, include_dirs)
        if header is None or header in seen:
            continue
        seen.add(header)
        try:
            text = decode(header.read_bytes())
        except (OSError, UnicodeDecodeError):
            continue
        yield header, text
        todo += [(header.parent, m[1]) for m in _INCLUDE.finditer(text)]


def reachable_macros(src: SourceFile, include_dirs: tuple[str, ...] = ()) -> dict:
    """The macros of every project header that `src`'s includes reach (what the preprocessor will
    have defined by the time it reads a spliced header's text), over those `src` was given (-D, the
    project's): a header spliced in may use a macro of a header the next round splices."""
    from ...macros import definitions
    defs = dict(src.included_macros)
    for header, text in _reachable(src, include_dirs):
        defs.update(definitions(text, str(header)))
    return defs


def header_launch_forms(src: SourceFile, include_dirs: tuple[str, ...] = ()) -> Visible | None:
    """The launch macros (kernelport.launchforms) that the headers `src` reaches define, as the
    Visible a module's launches are read again with (CloverLeaf's `CUDALAUNCH(kernel, ...)` in its
    cuda_common.hpp wraps `kernel<<<...>>>`): a kernel a header defines is then launched here, and
    the header is spliced.  None: no header defines one."""
    from ... import backends, launchforms
    from ...macros import definitions
    runtime = backends.launch_forms()
    wraps = re.compile(r"<<<|\b(?:" + "|".join(map(re.escape, runtime)) + r")\s*\(")
    lines = [f"#define {d.name}({', '.join(d.params)}) {d.body}"
             for header, text in _reachable(src, include_dirs)
             for d in definitions(text, str(header)).values() if d.params is not None and wraps.search(d.body)]
    if not lines:
        return None
    macro_src = SourceFile.from_text("\n".join(lines) + "\n", src.path)
    got = launchforms.macro_forms(list(macro_src.index.of_types("preproc_function_def")), runtime,
                                  backends.launch_configs())
    if not (got.calls or got.configs or got.fixed):
        return None
    return Visible(launch_forms=dict(got.calls), launch_configs=dict(got.configs), launch_fixed=dict(got.fixed))


def header_launches(src: SourceFile, include_dirs: tuple[str, ...] = ()) -> frozenset[str]:
    """The kernels that host code in the project headers `src` reaches launches (qsim's
    simulator_cuda.h: `ApplyGateH_Kernel<G><<<...>>>` in a template class the app's `main` runs;
    cuda-samples' fastWalshTransform_kernel.cuh: `fwtBatchGPU`, which `main` calls).  The unit's
    object holds those kernels as it holds its own launches': where a header defines one, it is
    spliced (needed_by) as it is for a kernel the file launches itself."""
    from ... import backends
    from ...macros import definitions
    wraps = re.compile(r"<<<|\b(?:" + "|".join(map(re.escape, backends.launch_forms())) + r")\s*\(")
    out: set[str] = set()
    macros = None
    for header, text in _reachable(src, include_dirs):
        if not wraps.search(text):
            continue
        if macros is None:
            macros = reachable_macros(src, include_dirs)
        try:
            hsrc = SourceFile.read(header, macros)
        except KernelportError:
            continue
        out |= {la.kernel for la in build(hsrc).launches}
        # a launch in a macro's body (gpu4pyscf's evaluation.cuh: `#define density_kernel_macro(li, lj)
        # evaluate_density_kernel<...><<<block_grid, block_size>>>(...)`, used inside another macro):
        # the parse sees the macro's uses as blanks, so the kernel it names is read from the body
        for d in definitions(text, str(header)).values():
            if "<<<" in d.body:
                out |= {m[1] for m in _MACRO_LAUNCH.finditer(d.body) if m[1] not in (d.params or ())}
    return frozenset(out)


def header_names(path: Path, macros=None) -> tuple[set[str], set[str], set[str]] | None:
    """What a project header defines at file scope, the kernels among it, and the functions it only
    declares (a prototype and no definition: `__device__ float de(float3 p);` for a unit that defines
    it, built with -rdc), None: unreadable; `macros`: those its includer sees (a header may use one
    another header defines)."""
    try:
        src = SourceFile.read(path, macros)
    except KernelportError:
        return None
    from ...macros import definitions
    # every macro it defines, wherever the #define sits: one inside a class or function body
    # (pedsim's ped_model.h: `#define SIZE 1024` in class Model) is still defined for the rest of
    # the unit, as one at file scope is
    defines: set[str] = set(definitions(src.text, str(path)))
    kernels: set[str] = set()
    declared: set[str] = set()
    for item in file_scope_items(src):
        names = defined_names(src, item)
        (declared if prototype(item) else defines).update(names)
        head = src.text_of(item).split("{", 1)[0]  # (`CUDA_GLOBAL void k(`: a masked macro's words count)
        if item.type in ("function_definition", "template_declaration") and ("__global__" in head or "__global__" in
                                                                               src.macro_words(item.start_byte, item.start_byte + len(head.encode()))):
            kernels |= names
    return defines | declared, kernels, declared - defines


def prototype(item) -> bool:
    """A declaration of functions only, none defined here (`__device__ float f(float3 p);`)."""
    node = item.named_children[-1] if item.type == "template_declaration" and item.named_children else item
    decls = node.children_by_field_name("declarator") if node.type == "declaration" else []
    for d in decls:
        while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
            d = d.child_by_field_name("declarator")
        if d is None or d.type != "function_declarator":
            return False
    return bool(decls)


def wanted_names(got: tuple[set[str], set[str], set[str]], module) -> set[str]:
    """The names of a header (header_names) whose absence refuses a port: not a prototype of a function
    the port defines itself (mandelspace's fractals.hpp declares `cuda_menger_prison_de` for the -rdc
    link, menger_prison.cu defines it).  The splice still takes such a header where it can (its prototype
    declares the function for a use above the definition); where it cannot, the port goes on without it."""
    defines, _, declared = got
    return defines - (declared & {f.name for f in module.functions.values()})


def device_macro_uses(src: SourceFile, module) -> set[str]:
    """Macros the parse saw as blanks (`NS_BEGIN`, `HD`, a statement macro) outside host functions
    and the qualifiers right before one: the device code, or the file scope around it, is written
    with them, so the port needs their definitions as it needs the names device code uses."""
    from ...qualifier_macros import Spans, masks_before, right_before
    before = masks_before(src, src.masks)
    host = []
    for f in module.functions.values():
        if f.is_device:
            continue
        start = (f.template_node or f.node).start_byte
        while (m := max((m for m in right_before(src, before, start) if m.start < start), key=lambda m: m.end,
                        default=None)) is not None:
            start = m.start  # `HD void host_fn()`: HD goes with it (and a mask right before HD)
        host.append((start, f.node.end_byte))
    host = Spans(host + host_definition_uses(src, module))
    return {m.name for m in src.masks if not m.reason.startswith("conditional") and not host.holds(m.start)}


_DEVICE_WORDS = re.compile(r"\b__(?:global|device|constant|shared|managed)__\b")


def host_definition_uses(src: SourceFile, module) -> list[tuple[int, int]]:
    """The spans of file-scope uses of macros that define host code only (CloverLeaf's
    `C_PACK_INTERFACE(pack, left_right)`: an `extern "C" void pack_left_right(...) { cuda_chunk... }`):
    a macro whose replacement ends a definition (macros.ends_definition) and whose text, with the
    macros it uses, names no CUDA device qualifier.  Such a use is host code, left out of the port."""
    from ...macros import definitions, ends_definition
    from ...macro_tokens import match_paren, tokens
    defs = {**src.included_macros, **definitions(src)}

    def text_of(name: str, seen: set[str]) -> str:
        m = defs.get(name)
        if m is None or name in seen or len(seen) > 16:
            return ""
        seen.add(name)
        return m.body + " " + " ".join(text_of(w, seen) for w in set(re.findall(r"[A-Za-z_]\w*", m.body)) if w in defs)

    fns = [(f.node.start_byte, f.node.end_byte) for f in module.functions.values()]
    host_defs: dict[str, bool] = {}
    out = []
    for m in src.masks:
        d = defs.get(m.name)
        if d is None or d.params is None or not src.data[m.start:m.end].startswith(m.name.encode()) or \
                any(s <= m.start < e for s, e in fns):
            continue
        if m.name not in host_defs:
            host_defs[m.name] = ends_definition(d, defs) and not _DEVICE_WORDS.search(text_of(m.name, set()))
        if not host_defs[m.name]:
            continue
        toks = tokens(src.data[m.start:m.start + 8192])  # a use's arguments: well within it
        close = match_paren(toks, 1) if len(toks) > 1 and toks[1].text == "(" else None
        if close is not None:
            out.append((m.start, m.start + toks[close].end))
    return out


def condition_names(src: SourceFile) -> set[str]:
    """The names `src`'s preprocessor conditions read (`#if CODE == 576`, `#ifdef USE_FLOAT`): a condition
    decides which of its branches' code the port keeps, so a header defining one (ldpc's code.h:
    `#define CODE 4000`, read by the constantes_gpu.h a kernel needs) is needed as device code's names are."""
    names: set[str] = set()
    for t, field in (("preproc_if", "condition"), ("preproc_elif", "condition"), ("preproc_ifdef", "name"),
                     ("preproc_elifdef", "name")):
        for n in src.index.of_type(t):
            c = n.child_by_field_name(field)
            if c is not None:
                names |= {src.text_of(i) for i in src.index.subtree(c) 
                          if i.type in ("identifier", "namespace_identifier", "type_identifier")}
    return names


def device_needs(src: SourceFile, module) -> set[str]:
    """The names and macros the device code of `src` uses, and those its conditions read where it has device
    code for them to choose (what a header must define to be spliced; a file of host code only has no port)."""
    chooses = condition_names(src) if any(f.is_device for f in module.functions.values()) else set()
    return device_references(module) | device_macro_uses(src, module) | chooses


def needed_by(src: SourceFile, header: Path, module=None, macros=None, include_dirs: tuple[str, ...] = (),
              spliced: frozenset[Path] | set[Path] = frozenset(),
              launched_elsewhere: frozenset[str] = frozenset(), needs: set[str] | None = None,
              any_kernel: bool = False) -> str | None:
    """The first name (or kernel) of `header`, or of a project header it includes (transitively:
    `blake2b.cuh` only includes `config.h`, whose typedefs device code uses), that the port of
    `src` needs, if any; `macros`: those the header sees (`reachable_macros`); `spliced`: headers
    already in the port (what they define is there: no reason to splice an includer of theirs);
    `launched_elsewhere`: kernels the headers `src` reaches launch (header_launches); `needs`: the
    names the port of `src` needs (device_needs), when the caller has them already; `any_kernel`: a kernel
    the header defines is needed where host code names it other than by a launch (`return calc<K>;`, a
    function pointer to launch; `src` has no device code of its own)."""
    module = module or build(src)
    if needs is None:
        needs = device_needs(src, module)
    launched = {l.kernel for l in module.launches} | launched_elsewhere
    todo, seen, spliced = [header], set(), {p.resolve() for p in spliced}
    while todo and len(seen) < MAX_HEADERS:
        h = todo.pop(0)
        got = header_names(h, macros) if h not in seen and h.is_file() else None
        seen.add(h)
        if got is None:
            continue
        defines, kernels, _ = got  # (a prototype of the port's own function too: spliced, it declares it
        hit = sorted(defines & needs) or sorted(kernels & launched) or \
            (sorted(k for k in kernels if _named_by_host(k, h, src)) if any_kernel else [])
        if hit:
            return hit[0]
        try:
            text = decode(h.read_bytes())
        except (OSError, UnicodeDecodeError):
            continue
        todo += [n for m in _INCLUDE.finditer(text)
                 if (n := locate(h.parent, m[1], include_dirs)) is not None and n.resolve() not in spliced]
    return None


def _included(header: Path, include_dirs: tuple[str, ...], direct: bool = False) -> set[Path]:
    """The project headers `header` includes, transitively (`direct`: only its own includes)."""
    try:
        text = decode(header.read_bytes())
    except (OSError, UnicodeDecodeError):
        return set()
    if direct:
        return {n for m in _INCLUDE.finditer(text) if (n := locate(header.parent, m[1], include_dirs)) is not None}
    return {h for h, _ in _reachable_from(header.parent, text, include_dirs)}


def splice(src: SourceFile, include_dirs: tuple[str, ...] = (),
           defines: frozenset[str] = frozenset()) -> tuple[SourceFile, list[tuple[str, int]] | None]:
    """`src` with the project headers its device code needs spliced in, and each line's origin
    (path, line); (src, None) when nothing was spliced.  `include_dirs`: the run's `-I` (project mode);
    `defines`: the names of its -D.  An include in a branch those rule out (includewalk.decided_off) is
    not spliced: the compiler never reads it, and its header may define what the live branch's does."""
    from ...includewalk import decided_off
    origin = [(src.path, i + 1) for i in range(src.text.count("\n") + 1)]
    done: set[Path] = set()
    # the headers those spliced include directly: each is asked next round where the spliced text includes
    # it, so no other header is spliced for one.  Not what they include in turn: that comes in only if
    # the header between is spliced (leap's cuda_utils.h -> parameters.h -> leap_defines.h, whose `uint64`
    # device code uses: counted as coming, nothing spliced parameters.h for it)
    covered: set[Path] = set()
    current = src
    launch_macros = header_launch_forms(src, include_dirs)
    launched_elsewhere = header_launches(src, include_dirs)
    for _ in range(MAX_DEPTH):
        module = plain(current)  # the parse's include-free model (the project's, and the translator's copy after)
        if launch_macros is not None:  # kernels launched through a header's launch macro (on a copy: plain is shared)
            module = module.copy(current)
            module.visible = launch_macros
            module.launches = with_header_launches(module)
        macros = None  # read once a header is a candidate
        needs = None  # likewise: one module per round, so the same names for each of its includes
        edits = []  # (start byte, end byte, text, origins of its lines)
        # the headers this round's splices include (transitively): a later include of one waits, as the
        # earlier splice brings it in next round above it (a header spliced where it is first included)
        pending: set[Path] = set()
        for inc in current.index.of_type("preproc_include"):
            path = inc.child_by_field_name("path")
            if path is None or path.type not in ("string_literal", "system_lib_string"):
                continue
            line = current.loc(inc).line
            if (name := decided_off(current, inc, defines)) is not None:
                edits.append((inc.start_byte, inc.end_byte, f"// {current.text_of(inc).strip()}: in a branch this "
                              f"run's -D {name} rules out, left out\n", [origin[line - 1]]))
                continue
            header = locate(Path(origin[line - 1][0]).parent, current.text_of(path), include_dirs)
            if header is None:
                continue
            if header in done:
                edits.append((inc.start_byte, inc.end_byte, f"// {current.text_of(inc).strip()}: spliced above\n",
                              [origin[line - 1]]))
                continue
            if header in pending:
                continue  # an include above splices a header that includes it: it comes in there
            if macros is None:
                macros, needs = reachable_macros(current, include_dirs), device_needs(current, module)
            # a unit of host code only whose included file defines kernels (fastgrid's StandardKernels.cu is
            # `#include "Kernels.inl"`, whose kernels the host reaches through function pointers): those are
            # the unit's device code, which nvcc compiles there, so they are its port (test_metal_unit_kernels73.py)
            if needed_by(current, header, module, macros, include_dirs, done | covered, launched_elsewhere,
                         needs, any_kernel=host_only(module)) is None:
                continue
            text = decode(header.read_bytes())  # as SourceFile.read reads it (a Latin-1 comment)
            if not text.endswith("\n"):
                text += "\n"
            label = current.text_of(path)
            body_lines = text.count("\n")
            lines = [origin[line - 1]] + [(str(header), i + 1) for i in range(body_lines)] + [origin[line - 1]]
            edits.append((inc.start_byte, inc.end_byte,
                          f"// ---- {label}, spliced: device code needs it ----\n{text}"
                          f"// ---- end of {label} ----\n", lines))
            done.add(header)
            covered |= _included(header, include_dirs, direct=True)
            pending |= _included(header, include_dirs)
        if not edits:
            break
        data = current.data
        out, pos, new_origin, line_pos = [], 0, [], 0
        for start, end, text, lines in sorted(edits):
            before = data[pos:start].decode("utf-8")
            out.append(before)
            first = current.location(start).line  # the include's line: replaced by the spliced lines
            new_origin += origin[line_pos:first - 1]
            new_origin += lines
            out.append(text)
            pos, line_pos = end, current.location(end).line - 1  # the include's node ends after its newline
        out.append(data[pos:].decode("utf-8"))
        new_origin += origin[line_pos:]
        # parsed with the macros its includes define, as the file itself was: a header spliced in
        # may use one from a header the next round splices (`NS_BEGIN`)
        spliced = SourceFile.from_text("".join(out), src.path, macros)
        if spliced.syntax_errors():
            return src, None  # the includes stay: refused where they are
        current, origin = spliced, new_origin
    return (current, origin) if current is not src else (src, None)


def host_only(module) -> bool:
    """True if the unit defines no kernel and no device function (before its headers are spliced)."""
    return not any(f.is_device for f in module.functions.values())


def _named_by_host(kernel: str, header: Path, src: SourceFile) -> bool:
    """True if `kernel` is named in `header` or `src` other than where it is declared or defined (`name(`):
    its address taken (`return calc_1Point<K, G>;`, `Proc p = scale;`), so the unit launches it through a
    pointer.  A kernel file nothing names is not the unit's port (test_metal_realcode's look-alike)."""
    try:
        text = decode(header.read_bytes())
    except (OSError, UnicodeDecodeError):
        return False
    use = re.compile(r"\b" + re.escape(kernel) + r"\b(?!\s*\()")
    return any(use.search(re.sub(r"//[^\n]*|/\*.*?\*/", " ", t, flags=re.S)) for t in (text, src.text))

