"""The translator's inline PTX passes: an asm statement that is a known idiom (kernelport/ptx_idioms) is
written in the backend's spelling, a host function's asm is the host's own, and any other device asm
is KP201 at its statement (or declared unavailable, kernelport/unavailable)."""
from __future__ import annotations

from typing import ClassVar

from tree_sitter import Node

from . import arch_branches, asm_templates, carry_calls, carry_masked, dialect, fnscopes, guards, logical_lanes, ptx_idioms, unavailable
from .rewrite import whole_statement


class InlineAsm:
    """Mixin of kernelport.translate.Translator (its src, module, backend, rw, note, problem)."""
    # What inline PTX without a known idiom gets (KP201).
    asm_message: ClassVar[str] = "inline PTX assembly has no portable translation"
    asm_hint: ClassVar[str] = ("replace it with an intrinsic, or guard it with #ifdef __CUDA_ARCH__ / "
                               "__HIP_PLATFORM_AMD__")
    # A carry chain across statements (ptx_idioms.CARRY_ACROSS): what a backend's build can write instead.
    asm_carry_hint: ClassVar[str] = (
        "write each chain in one asm statement (`add.cc.u32 %0, %2, %4; addc.u32 %1, %3, %5;`), which kernelport "
        "ports with an explicit carry, or give the HIP build carry-explicit C under #ifdef __HIP_PLATFORM_AMD__ "
        "(`r = __builtin_addc(x, y, carry_in, &carry_out)`, `__builtin_subc` for a borrow, `__builtin_addcll` "
        "for 64 bits), the carry passed through your own functions")

    def rewrite_inline_asm(self) -> None:
        plan, path = self.carry_plan() if self.carries() else (carry_calls.Plan(), "")
        for node, fn in self.module.asm:
            if carry_calls.key(path, node) in plan.unread:  # (a carry-in with no writer)
                self.problem("KP201", node, f"{self.asm_message}: {plan.unread[carry_calls.key(path, node)]}",
                             self.asm_carry_hint)
                continue
            if not (self.cuda_only_region(node) or self.host_asm(node, fn) or self.rewrite_asm_idiom(node) or
                    not self.ports_function(fn)):
                if self.asm_trap(node):
                    continue  # (a backend with no trap instruction: its __trap(), recorded before)
                message = ptx_idioms.explained(self.asm_message, asm_templates.text(self.src, node, self.options.get("defines", ()) or ()))  # why, where known
                hint = self.asm_hint
                if ptx_idioms.CARRY_ACROSS_MARK in message:
                    message, hint = message + self.carry_boundary(node), self.asm_carry_hint
                unavailable.declare(self, node, "KP201", message) or self.problem("KP201", node, message, hint)

    def asm_trap(self, node: Node) -> bool:
        """`asm("trap;")` already ported as the backend's `__trap()`, where it spells no trap instruction (Metal: a
        check the host reads back, kernelport/backends/metal/assertions.py)."""
        return False

    def carry_boundary(self, node: Node) -> str:
        """Where a carry chain's flag crosses a call: the asm statement is the whole body of a function (era-bellman-cuda's
        `ptx::add_cc`, a one-instruction wrapper whose callers chain the flag), which no port follows yet."""
        f = fnscopes.of(self.module).function(fnscopes.owner(self.module, node))
        stmts = [c for c in f.body.named_children if c.type != "comment"] if f is not None and f.body is not None else []
        wrapper = f is not None and any(whole_statement(node) == c or c.start_byte <= node.start_byte < c.end_byte
                                        for c in stmts) and len([c for c in stmts if c.type != "declaration" and
                                                                 c.type != "return_statement"]) == 1
        where = f"'{f.name}' is a one-instruction wrapper: its callers chain the flag from call to call, and " \
            if wrapper else ""
        return f"; {where}kernelport does not yet pass an explicit carry through the calls between the flag's writer " \
            "and its reader (each wrapper inlined into its caller's sequence), so a carry that crosses a statement or a " \
            "call stays refused"

    def host_asm(self, node: Node, fn: str | None) -> bool:
        """asm in a host-only function (sph_types.h's x86 `bswapl`): the host's assembly, which the
        target's host compiler reads as nvcc's does; only device code's asm is PTX."""
        f = fnscopes.of(self.module).function(fnscopes.owner(self.module, node))  # (by key: `fn` is a bare name)
        p = node.parent
        while p is not None and p.type != "lambda_expression":  # a device lambda inside a host function
            p = p.parent
        if f is not None and not f.is_device and p is None:
            return True
        # a branch that the port's device pass never compiles, as the port spells its tests (the `#else` of a
        # respelled `#ifdef __CUDA_ARCH__` in a __host__ __device__ function), nor nvcc's: the host's assembly too
        return guards.AMD_DEVICE not in guards.reach(node, self.src, self.ported_macro) and \
            guards.NVIDIA_DEVICE not in guards.reach(node, self.src)

    def rewrite_asm_idiom(self, node: Node) -> bool:
        """Inline PTX that is a known idiom (ptx_idioms: the lane id, bit fields, packing, funnel shifts, ...),
        where the backend spells each of its instructions: its outputs assigned in the template's order."""
        stmt = whole_statement(node)  # where a `{ ... }` may stand for the statement (an unbraced body too)
        renamed = logical_lanes.RENAMED if node.start_byte in getattr(self, "data_lanes", ()) else None  # (laneoutputs)
        f, (plan, path) = self.module.function_at(node), self.carry_plan() if self.carries() else (carry_calls.Plan(), "")
        carried = f is not None and carry_calls.key(path, f.node) in plan.carriers | plan.roots
        text = asm_templates.text(self.src, node, self.options.get("defines", ()) or ())  # (its macro names' literals)
        got = ptx_idioms.port(text, self.backend, stmt is not None, ptx_idioms.shared_in(self.src, f), renamed, carried,
                              arch_branches.known_values(self) if "#" in text else None)
        if got is None:
            return False
        self.rw.replace(stmt if got[0].startswith("{") else node, got[0])  # a block: the whole `asm(...);`
        self.note(node, got[0], f"the PTX idiom `{got[1]}`")
        if len(got) > 2:  # the branch of an `#if __CUDA_ARCH__ >= N` that the newest NVIDIA GPUs take
            self.arch_branch_warning(node, got[2])
        return True

    def arch_branch_warning(self, node: Node, choice) -> None:
        """KP237 at the asm: the port is one branch of its `#if __CUDA_ARCH__` conditional, whose branches' ports
        differ; the lines of the branch taken and of those left out (kernelport/ptx_branches.py)."""
        from .arch_branches import HINT, archs, message
        from .diagnostics import Diagnostic
        first = self.src.loc(node).line
        rows = [f"line {first + at} (`{test}`)" for at, test in zip(choice.lines, choice.tests)]
        self.port.diagnostics.append(Diagnostic(
            "KP237", self.src.loc(node), message("asm's", rows, choice.taken, choice.others, archs()), HINT, "warning"))

    def carry_plan(self) -> tuple[carry_calls.Plan, str]:
        return carry_calls.for_translator(self)

    def carries(self) -> bool:
        """Whether the backend spells the carry flag's variable (kernelport/carry_calls.py)."""
        return dialect.concept("ptx_carry_param").spelling(self.backend) is not None

    def rewrite_carry_calls(self) -> None:
        """A carry chain across calls (kernelport/carry_calls.py): each carrier takes the flag's variable first,
        each of its calls passes it, the functions that start a chain declare it; a call where it is not
        followed is KP201, naming it."""
        if not self.carries():
            return
        plan, path = self.carry_plan()
        if not (plan.carriers or plan.roots or plan.refused):
            return
        name, param = carry_calls.NAME, dialect.concept("ptx_carry_param").spelling(self.backend)

        def take(plist: Node) -> None:  # the carry first: a parameter with a default argument stays last
            kids = [c for c in plist.named_children if c.type != "comment"]
            if not kids or (len(kids) == 1 and self.src.text_of(kids[0]).strip() == "void"):
                self.rw.replace(plist, f"({param}{name})")
            else:
                self.rw.insert_before(kids[0], f"{param}{name}, ")
        for d in self.src.index.of_type("declaration") if plan.prototypes else ():  # a carrier's prototype
            if carry_calls.key(path, d) in plan.prototypes and (plist := carry_calls.declared_parameters(d)) is not None:
                take(plist)
        for f in self.module.functions.values():
            k = carry_calls.key(path, f.node)
            if k in plan.carriers and (plist := carry_calls.parameters(f)) is not None:
                take(plist)
            elif k in plan.roots and f.body is not None and f.body.children and f.body.children[0].type == "{":
                # right after the `{`: a first statement may stand in a conditional's branch, or after a directive
                local = dialect.concept("ptx_carry_local").spelling(self.backend)
                self.rw.replace(f.body.children[0], f"{{ {local} {name} = 0u;")
        for c in self.src.index.of_type("call_expression"):
            k = carry_calls.key(path, c)
            if k in plan.refused:
                self.problem("KP201", c, f"{self.asm_message}: {plan.refused[k]}", self.asm_carry_hint)
            elif k in plan.calls and (args := c.child_by_field_name("arguments")) is not None:
                given = [a for a in args.named_children if a.type != "comment"]
                self.rw.insert_before(given[0], f"{name}, ") if given else self.rw.replace(args, f"({name})")
        carry_masked.rewrite(self, plan, path, carry_calls.key, param, name)
