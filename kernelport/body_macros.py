"""A function's (or a statement's) whole block spelled by an object-like macro: StreamLZ's
`extern "C" __global__ void slzSegHashKernel(...) SLZ_SEG_HASH_KERNEL_BODY`, the macro's replacement
list one braced block `{ const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x; ... }` (a header's).

The grammar wants a `{` after the parameters: the parse stopped there ("expected ';'"), with no port.
Where the macro is known and its replacement list is one braced block, the copy the grammar reads
holds `{` + blanks + `}` in the name's bytes (no offset moves; kernelport/macro_repair.py keeps the
mask only where the error shrinks) and a Mask (reason BODY) records the block; the ports keep the
name, so the body is the one the macro's header gives (its own port renames what it names,
kernelport/macro_bodies.py).

The analyses of the function see an empty block, so a block they would have to read is refused
(KP250, `refusals`): one that names warp-level code (a shuffle, a vote, a warp reduction, `warpSize`,
a function that runs one or reads `%laneid`: its width is decided with the function's; inline PTX) or a name the backend
spells otherwise (Metal's thread coordinates are the kernel's parameters), through the macros it names; on Metal, any
kernel's block (the port writes the kernel's coordinates at its `{`).  What is left (a thread's
arithmetic, calls of the project's functions, CUDA names HIP shares) is the same text on the backend."""
from __future__ import annotations

import re
from typing import Iterator, Mapping

from .macro_tokens import Tok
from .macros import Mask, one_group

BODY = "body"  # a Mask's reason: a macro that stands for a whole braced block
_AFTER_USE = frozenset({"(", ";", "{", ",", "=", ")", "[", ".", "-", "+", "*", "/", "<", ">", "?", ":", "&", "|"})
_WORD = re.compile(r"[A-Za-z_]\w*")
_DEPTH = 8  # macros expanded within macros, for the words a block names
# PTX registers whose value is the hardware wave's (`%laneid` counts 0..63 on a 64-wide wave): a function that
# reads one is of its callers' width (the port rewrites the caller's use, `lane() & 31`), as a shuffle's is
_WAVE_REGISTERS = frozenset({"laneid", "warpid", "nwarpid", "lanemask_eq", "lanemask_le", "lanemask_lt",
                             "lanemask_ge", "lanemask_gt"})
_ASM = frozenset({"asm", "__asm", "__asm__"})  # inline PTX in the block: every backend's port rewrites or refuses it


def body_uses(toks: list[Tok], idx, masked_at: set[int], macros: Mapping) -> Iterator[tuple]:
    """Candidates: a known block macro right after a `)` (a function's parameters, an `if`'s
    condition) and before a token that cannot continue an expression, seen as `{   }`."""
    for i in idx:
        t = toks[i]
        if t.kind != "ident" or i == 0 or toks[i - 1].text != ")" or i in masked_at or t.end - t.start < 2:
            continue
        d = macros.get(t.text)
        if d is None or d.params is not None or not one_group(d.body, "{}"):
            continue
        if i + 1 < len(toks) and toks[i + 1].text in _AFTER_USE:
            continue
        blank = b"{" + b" " * (t.end - t.start - 2) + b"}"
        yield (("body", t.start, t.text), [(t.start, t.end, blank)], [Mask(t.start, t.end, t.text, BODY, d.body.strip())])


def _words(body: str, macros: Mapping, depth: int = 0, seen: frozenset = frozenset()) -> set[str]:
    """The words of a replacement list and of the macros it names, within _DEPTH."""
    out = set(_WORD.findall(body))
    if depth < _DEPTH:
        for w in sorted(out - seen):
            d = macros.get(w)
            if d is not None:
                out |= _words(d.body, macros, depth + 1, seen | {w})
    return out


def _warp_functions(module, warp: frozenset[str]) -> set[str]:
    """The functions that run warp-level code: the headers' (`Visible.warp_functions`) and the file's own
    that name warp-level code or call such a function."""
    vis = module.visible if module is not None else None
    out = set(vis.warp_functions) if vis is not None else set()
    if module is None:
        return out
    texts = {f.name.rsplit("::", 1)[-1]: set(_WORD.findall(f.node.text.decode("utf-8", "replace")))
             for f in module.functions.values()}
    grown = True
    while grown:
        grown = False
        for name, words in texts.items():
            if name not in out and words & (warp | out):
                out.add(name)
                grown = True
    return out


def refusals(src, backend: str, module=None) -> list:
    """KP250 errors: each block macro the parse read as an empty block whose code an analysis
    or the backend's spelling would have to read (see the module's docstring), through the macros
    the file's includes define and its own, or that calls a function running warp-level code (a
    helper whose width is decided with its callers: `module`'s)."""
    if not any(m.reason == BODY for m in src.masks):
        return []
    from . import backends, dialect, macros as mac
    from .diagnostics import Diagnostic
    from .translate import SOURCE
    warp = dialect.warp_level_names(SOURCE) | {"warpSize"} | _WAVE_REGISTERS
    macros = {**(src.included_macros or {}), **mac.definitions(src.text, src.path)}
    warp = frozenset(warp | _warp_functions(module, warp)) | _ASM
    fns = [(f.node.start_byte, f.node.end_byte, f) for f in (module.functions.values() if module else ())]
    kernels = [(s, e) for s, e, f in fns if f.is_kernel]
    written = backends.get(backend).kernel_block_written
    holders = {s: f.name.rsplit("::", 1)[-1] for s, e, f in fns}
    texts = {f.name.rsplit("::", 1)[-1]: set(_WORD.findall(f.node.text.decode("utf-8", "replace"))) for _, _, f in fns}
    out = []
    for m in src.masks:
        if m.reason != BODY or m.expansion is None:
            continue
        words = _words(m.expansion, macros)
        named = sorted(w for w in words if w in warp)
        named += sorted(w for w in words - set(named) if (c := dialect.lookup(SOURCE, w)) is not None and
                        dialect.rename(c, w, SOURCE, backend) != w)
        why = (f"it names {', '.join(repr(w) for w in named[:4])}, which the {backend} port would have to rewrite "
               f"or a warp analysis read with the function")
        holder = next((holders[s] for s, e, _ in fns if s <= m.start < e), None)
        if not named and holder in warp:  # a statement's block in a function whose warp analyses read its writes
            why = (f"it is a statement of '{holder}', which runs warp-level code: the analyses of its width "
                   f"would have to read what the block writes")
        elif not named and holder is not None and any(holder in w for n, w in texts.items() if n in warp and n != holder):
            why = (f"it is the block of '{holder}', which a function running warp-level code calls: its width is "
                   f"decided with its callers', which would have to read it")
        elif not named and written and any(s <= m.start < e for s, e in kernels):
            why = f"it is a kernel's block, where the {backend} port writes the kernel's signature and coordinates"
        elif not named:
            continue
        out.append(Diagnostic(
            "KP250", src.location(m.start),
            f"this block is macro '{m.name}' (a braced block), which kernelport reads as an empty block: {why}",
            f"write the block in the function (`{{ ... }}`) instead of the macro, so that kernelport reads its code"))
    return out
