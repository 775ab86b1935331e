"""CUDA's device-side `assert(e)` and `__trap()` in a Metal port: a failure the host reads back.

CUDA stops the kernel at a false assertion (or a trap): the launch fails (cudaErrorAssert,
cudaErrorLaunchFailure) and its results are not to be used.  Metal cannot stop a kernel.  So each
such call becomes `kp_assert(e, n, kp_assert_failed)` (`__trap()`: `e` is false): a false `e`
stores the call's number `n` (the largest when several fail) in a `device atomic_uint` the kernel
receives after its buffers and passes to the helpers that assert, as host-filled `__constant__`
memory is passed (constants.py).  The sidecar names that argument (role "assertion": the host zeroes
it before the dispatch, and a non-zero value after it is CUDA's failed launch) and lists each
number's CUDA file, line and condition.  A check that is a statement of the kernel itself, in a
kernel whose threads never wait for each other (no barrier, SIMD-group function or vote in it or the
helpers it calls: a thread that left would hang or corrupt them), returns from the kernel when it fails
(`{ if (!kp_assert(e, n, flag)) return; }`: braced, an `else` after it stays the original's): the failing thread stops, as CUDA's does.  Elsewhere the
failing thread goes on (what CUDA would not run); the host's check is what keeps a failed dispatch's
results from being used.  Under NDEBUG,
`assert(e)` is `((void)0)` instead (unported.py), as C defines it.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import backends, ptx_idioms
from ...source import call_args


class Assertions:
    """Mixin of MetalTranslator: `record_assertion` (from the no_metal_meaning pass), the bound
    argument it needs (bind_constants) and the sidecar's texts."""

    def record_assertion(self, call: Node, name: str) -> bool:
        """Rewrite a device-side assert/trap call as the recorded check; False where it is no such call
        (another arity: the file's own function of that name is not called like this)."""
        table = backends.get(self.backend)
        args = call_args(call)
        vis = self.module.visible
        if len(args) != table.assertion_calls.get(name, -1) or (vis is not None and name in vis.macros):
            return False  # a header's own `#define assert(e) ...` means what it says (KP223 as before)
        return self.record_check(call, name, args[0] if args else None)

    def asm_traps(self) -> None:
        """Each device `asm("trap;")`, PTX's trap, which is what CUDA's `__trap()` compiles to: recorded as that
        call is, before the flag is bound (bind_constants); rewrite_inline_asm then leaves it (asm_trap)."""
        if "__trap" not in backends.get(self.backend).assertion_calls:
            return
        for node, fn in self.module.asm:
            idiom = None if not self.ports_function(fn) or self.rw.has(node) or self.cuda_only_region(node) else \
                ptx_idioms.match(self.src.text_of(node))
            if idiom is not None and idiom.key == "ptx_trap" and len(idiom.writes) == 1:
                self.record_check(node, "__trap", None)

    def asm_trap(self, node: Node) -> bool:
        return node.start_byte in getattr(self, "_asserted", ())

    def record_check(self, call: Node, name: str, cond: Node | None) -> bool:
        """`call` (an assert/trap call, or the asm statement of a trap) as the recorded check of `cond` (None: false)."""
        table = backends.get(self.backend)
        if not hasattr(self, "assertions"):
            self.assertions: list[dict] = []
            self._asserted: set[int] = set()
        if call.start_byte in self._asserted:
            return True  # reached again (a function nested in another's text): one number
        self._asserted.add(call.start_byte)
        loc = self.origin_location(self.src.loc(call))
        number = len(self.assertions) + 1
        self.assertions.append({"number": number, "file": loc.path, "line": loc.line, "call": name,
                                "condition": " ".join(self.src.text_of(cond).split()) if cond is not None else "false"})
        flag = table.assertion_flag[0]
        self.rw.replace(call, lambda rw, _n, c=cond: table.assertion_call.format(
            condition=rw.text(c) if c is not None else "false", number=number, flag=flag))
        stmt, fn = call.parent, self.module.function_at(call)
        if stmt is not None and stmt.type == "expression_statement" and fn is not None and fn.is_kernel:
            self.rw.replace(stmt, lambda rw, _n, call=call, k=fn: (
                f"{{ if (!{rw.text(call)}) return; }}" if self._threads_independent(k) else rw.stitch(_n)))
        self.note(call, table.assertion_call.format(condition="...", number=number, flag=flag),
                  f"Metal cannot stop a kernel: a failed {name} records {number} for the host (see the sidecar)")
        return True

    def _threads_independent(self, kernel) -> bool:
        """No barrier, SIMD-group function or vote in the kernel or any helper it calls (read when the
        port is rendered: the call plans are known then)."""
        names, todo = set(), [kernel.name]
        while todo:
            n = todo.pop()
            if n not in names:
                names.add(n)
                todo += self.plans[n].callees if n in self.plans else []
        kinds = ("barrier", "shuffle", "vote", "warp_reduce", "reduction")
        names |= {self.device[n].name for n in names if n in self.device}  # callees are keys (`operator()@2`)
        bodies = [f for f in self.device.values() if f.name in names]
        return not any(u.concept.kind in kinds and u.function in names for u in self.module.uses) and \
            not any(re.search(r"\bsync\w*\s*\(|__syncthreads|simd_", self.src.text_of(f.node)) for f in bodies)

    def assertion_flags(self) -> dict:
        """The bound argument the recorded checks write (none without them)."""
        from .constants import BoundConstant
        if not getattr(self, "assertions", None):
            return {}
        name = backends.get(self.backend).assertion_flag[0]
        return {name: BoundConstant(name, None, [], None, space="assertion")}

    def assertion_param(self, name: str) -> str:
        return backends.get(self.backend).assertion_flag[1].format(name=name)

    def assertion_sidecar(self, name: str, index: int) -> dict:
        return {"name": name, "index": index, "kind": "buffer", "type": "uint", "access": "read_write",
                "role": "assertion", "count": "1", "bytes": "sizeof(uint)", "host": "setBuffer:offset:atIndex:",
                "from": "a uint the host sets to 0 before the dispatch; after it completes, a non-zero value is the "
                        "number of a device-side assert/__trap that failed (the file's 'assertions'): CUDA's launch "
                        "would have failed there (cudaErrorAssert), so the dispatch's results are not to be used"}
