"""Kernels and device functions a macro's expansion defines, in a Metal port (KP245).

`#define GFL_KERNEL(K) __global__ void distinct_kernel_##K(float* a, int n) { ... }` used at file
scope (`GFL_KERNEL(0) GFL_KERNEL(1) ...`, heldout81's gpufl-client deep_deadlock_repro.cu) defines a
kernel per use, named by pasting.  The grammar sees such a use as blanks (a Mask, reason "statement"),
so the model holds no such function: HIP keeps the macro and its uses as written (hipcc expands them),
but a Metal port holds only the device code it rewrote.  Main then said the file "has no device code"
and that the kernels it launches are "defined in another file" (KP227, a warning; nothing written): a
wrong account of a file that defines them.  Where a file-scope use's expansion defines a `__global__` or
`__device__` function (directly, or through the macros its replacement list ends by calling, pasted
names included: macros.ending_calls), the Metal port is refused at the first such use of each macro
(KP245, located), naming the function that use defines (`distinct_kernel_0`, the body's
`distinct_kernel_##K` with the use's arguments) and the count of its file-scope uses.  A
macro whose body is an expression or a statement (used inside functions), one that defines a host
function only or a device variable, or one never used at file scope, is no such case."""
from __future__ import annotations

import re

from ... import cexpr
from ...diagnostics import Diagnostic
from ...macros import MacroDef, definitions, ending_calls

# A function definition with a GPU execution space in a replacement list: the space, then a declarator
# whose name may be pasted (`distinct_kernel_##K`), its parameters, and the body's opening brace.
_GPU_FUNCTION = re.compile(r"\b(__global__|__device__)\b[^;{}()]*?\b([A-Za-z_]\w*(?:\s*##\s*\w+)*)\s*\([^;{}]*\)"
                           r"\s*(?:const\s*)?\{")


def defined_function(m: MacroDef, macros: dict[str, MacroDef], depth: int = 0) -> tuple[str, str] | None:
    """(space, name as the body spells it) of the first GPU function `m`'s expansion defines, or None."""
    hit = _GPU_FUNCTION.search(m.body)
    if hit is not None:
        return hit.group(1), re.sub(r"\s+", "", hit.group(2))
    if depth >= 8:
        return None
    for n in ending_calls(m, macros):
        inner = macros.get(n)
        if inner is not None and inner is not m and (found := defined_function(inner, macros, depth + 1)):
            return found
    return None


class MacroKernels:
    """Mixin of MetalTranslator: the macro_made_kernels pass (before nothing_to_port)."""

    def macro_made_kernels(self) -> None:
        names = {m.name for m in self.src.masks if m.reason == "statement" and self._file_scope(m.start)}
        if not names:
            return
        macros = definitions(self.src)
        for name in sorted(names, key=lambda n: self.src.data.find(n.encode())):
            made = defined_function(macros[name], macros) if name in macros else None
            if made is None:
                continue
            uses = [u.start() for u in re.finditer(rb"\b%s\b" % re.escape(name.encode()), self.src.data)
                    if self._file_scope(u.start())]
            if not uses:
                continue
            space, fn = made
            named = self._first_name(macros[name], fn, uses[0])
            what = f"'{named}' (the body's '{fn}')" if named is not None and named != fn else f"'{fn}'"
            message = (f"'{name}' here defines the {space} function {what} by its expansion ({len(uses)} "
                       f"file-scope use{'s' if len(uses) > 1 else ''} of the macro, the first here): the Metal "
                       f"port rewrites the device code the file spells out, not what a macro expands to, so it "
                       f"would hold no such {'kernel' if space == '__global__' else 'function'}")
            hint = ("define the function without the macro (a template over the macro's arguments, one "
                    "instantiation per use), or keep this file on CUDA and HIP (the HIP port keeps the macro)")
            self.port.diagnostics.append(Diagnostic("KP245", self.src.location(uses[0]), message, hint,
                                                    "warning" if self.allow_unported else "error"))

    def _first_name(self, m: MacroDef, fn: str, at: int) -> str | None:
        """The function's name at the use at byte `at` (`scale_##K` of `MAKE_SCALE(2)`: `scale_2`), where the
        macro's own body spells it from its parameters; None where it cannot be read (an inner macro's)."""
        if m.params is None or not _GPU_FUNCTION.search(m.body):
            return None if m.params is not None else fn
        text = self.src.data[at:at + 4096].decode("utf-8", "replace")
        open_at = text.find("(")
        level, close = 0, None
        for j in range(open_at, len(text)) if open_at >= 0 else ():
            level += {"(": 1, ")": -1}.get(text[j], 0)
            if level == 0:
                close = j
                break
        if close is None:
            return None
        args = [a.strip() for a, _ in cexpr.split_top_level(text[open_at + 1:close])]
        if len(args) != len(m.params):
            return None
        bound = dict(zip(m.params, args))
        return "".join(bound.get(part.strip(), part.strip()) for part in fn.split("##"))

    def _file_scope(self, byte: int) -> bool:
        """Whether the byte lies outside every function body, directive and comment (at file scope, or in
        a namespace)."""
        node = self.src.root.descendant_for_byte_range(byte, byte)
        while node is not None:
            if node.type in ("function_definition", "compound_statement", "comment", "preproc_def",
                             "preproc_function_def", "string_literal"):
                return False
            node = node.parent
        return True
