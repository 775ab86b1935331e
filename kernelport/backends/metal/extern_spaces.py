"""Address spaces of device functions one source of a run defines and others only declare (-rdc:
`__device__ float sum(const float* p, int n);` in a header, its body in sum.cu).

A Metal port is one file, so a caller's port holds only the prototype, and the defining source's port
the body.  MSL has no generic pointer: hand-written MSL gives such a helper one overload per address
space its callers use (`sum(const device float*, int)` beside `sum(const threadgroup float*, int)`).
Each port therefore declares one prototype per space signature its own device code calls the function
with (`extern_call_sigs`, recorded on the port as `extern_calls`), and a project run gives the sources
that define those functions the union over the run (the `extern_calls` option, project_ports.py): the
definition is rendered once per signature, as for a caller in its own file.  A single file's run has
only its own calls: a declared function it calls with threadgroup memory is declared so, and the
definition's port (translated alone) lacks that overload, which the Metal linker then reports.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Param, _params
from ...source import call_args, ident_name, walk


class ExternSpaces:
    """Mixin of MetalTranslator: the signatures of declared-only device functions, and the run's demands."""

    def declared_only(self) -> dict[str, list[Param]]:
        """Device functions the file declares (`__device__` prototype) and defines nowhere in it: name ->
        the prototype's parameters (a name declared twice with different parameters is left out)."""
        got = self.__dict__.get("_kp_declared_only")
        if got is not None:
            return got
        got, defined = {}, {f.name.rsplit("::", 1)[-1] for f in self.module.functions.values()}
        for n in self.src.index.of_type("declaration"):
            if not any(self.src.text_of(c) == "__device__" for c in n.children) or \
                    any(self.src.text_of(c) == "__global__" for c in n.children):
                continue
            fd = n.child_by_field_name("declarator")
            while fd is not None and fd.type != "function_declarator":
                fd = fd.child_by_field_name("declarator")
            name = ident_name(fd.child_by_field_name("declarator")) if fd is not None else None
            if name is None or name in defined:
                continue
            params = _params(self.src, fd)
            if name in got:  # C++ overloads by type: which declaration a call means is not decided here
                if got[name] is not None and [p.type for p in got[name]] != [p.type for p in params]:
                    got[name] = None  # (a third declaration finds None: it stays undecided)
            else:
                got[name] = params
        got = self.__dict__["_kp_declared_only"] = {k: v for k, v in got.items() if v is not None}
        return got

    def extern_call_sigs(self) -> dict[str, list[tuple[str, ...]]]:
        """Each declared-only function's space signatures, one per distinct combination its calls in the
        file's device code pass (each caller under each of its own signatures), in order of appearance."""
        got = self.__dict__.get("_kp_extern_sigs")
        if got is not None:
            return got
        got = self.__dict__["_kp_extern_sigs"] = {}
        decl = self.declared_only()
        if not decl:
            return got
        for fname, f in self.device.items():
            sigs = self.plan_of(f).sigs if not f.is_kernel else [()]
            for sig in sigs or [()]:
                saved = self.cur_sig.get(f.name)
                self.cur_sig[f.name] = sig
                try:
                    for n in walk(f.body):
                        fn = n.child_by_field_name("function") if n.type == "call_expression" else None
                        name = self.src.text_of(fn) if fn is not None and fn.type == "identifier" else None
                        if name not in decl or self.src.text_of(fn) in self.helpers:
                            continue
                        hsig = self._call_sig(decl[name], call_args(n), f)
                        if hsig not in got.setdefault(name, []):
                            got[name].append(hsig)
                finally:
                    self.cur_sig[f.name] = saved
        self.port.extern_calls = {k: [list(s) for s in v] for k, v in got.items()}
        return got

    def _call_sig(self, params: list[Param], args: list, f) -> tuple[str, ...]:
        """The space signature a call passes (as _propagate_spaces reads a call of a defined helper)."""
        out = []
        for i, p in enumerate(params):
            if p.pointer:
                out.append(self.space_of(args[i] if i < len(args) else None, f) or "device")
            elif self.spaced_reference(p):
                out.append(self.reference_space(p, args[i] if i < len(args) else None, f))
        return tuple(out)

    def extern_roots(self) -> list:
        """(helper, signature) for each signature the run's other sources call a function this file
        defines with (the `extern_calls` option), beyond those its own calls give it: worklist roots."""
        out = []
        for name, sigs in sorted(self.options.get("extern_calls", {}).items()):
            h = self.helpers.get(name)
            if h is None or sum(f.name == name for f in self.device.values()) != 1:
                continue  # not defined here, or overloaded here (which one a call means is not known)
            width = len(self.spaced_params(h))
            for sig in map(tuple, sigs):
                if len(sig) == width and sig not in self.plan_of(h).sigs:
                    self.plan_of(h).sigs.append(sig)
                    self.note(h.node, f"{name}({', '.join(sig)})", "another source of the run calls it with "
                              "pointers into these address spaces: one overload each, as for a caller here")
                    out.append((h, sig))
        return out

    def _declarations(self, node: Node, drop: set, sigs: list, fd: Node) -> str:
        """A prototype as one declaration per address-space signature (`float sum(const device float* p,
        int n);` and its threadgroup twin)."""
        out, params = [], _params(self.src, fd)
        for sig in sigs:
            spaces, done = iter(sig), []
            for p in params:
                if p.pointer or (self.spaced_reference(p) and (space := next(spaces, "thread")) != "thread"):
                    self.rw.replace(p.node, self._param_text(p, next(spaces, "device") if p.pointer else space,
                                                             False, None, False))
                    done.append(p.node)
            try:
                out.append(self.prototype_text(node, drop, fd))  # (its extras, if defined here)
            finally:
                for pn in done:
                    self.rw.remove(pn)
        return "\n".join(out)
