"""C code under `#if __CUDA_ARCH__ >= N` / `#elif` / `#else`, ported as the branch current NVIDIA GPUs run.

Off NVIDIA `__CUDA_ARCH__` is undefined, so a port that keeps such a conditional compiles the `#else`:
the path of an architecture no current CUDA toolkit builds (a pre-Pascal `atomicCAS` loop for
`atomicAdd(double*)`, pre-Volta `__shfl`/`__ballot` with no mask), which the original on any current
GPU never runs.  Where the conditional sits in a device function (code only a device pass runs) and
every `#if`/`#elif` test reads the architecture and numbers alone (kernelport/ptx_branches.arch_holds),
the port is the branch the newest architecture of the CUDA backend's `device_archs` takes, alone
(directives and other branches left out): the branch the emulator's original runs and the device
oracle's GPU.  Where the branches' ports differ the port says so (KP237, at the `#if`, naming each
branch's line); where they port to the same code (`__shfl_down_sync(FULL, v, o)` / `__shfl_down(v, o)`)
nothing is said.  A conditional elsewhere (file scope, a `__host__ __device__` function: the host pass
reads the `#else`), a test that reads another macro (but one whose integer value the unit's definitions decide,
`#define PASCAL 600`: `known_values`), or one the parse did not see keeps its text.

Translate's view of what is compiled reads the choice (`decided`: guards.cuda_only's tests), so code in
a branch left out is not ported or refused, and the branch taken is ported like any other code.  Lint reads
the same choice for each configured target (`ported`, through `PortView`: guards.side_of's AMD passes), so it
analyses the branch the ports compile and leaves the others to NVIDIA, as translate does.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from tree_sitter import Node

from . import asm_templates, backends, context_macros, dialect, fnscopes, guards, ptx_branches

_CHAIN = ("preproc_elif", "preproc_else")
HINT = ("check that the branch taken computes what you mean on every GPU, or give the other platforms their own branch "
        "under `#ifdef __HIP_PLATFORM_AMD__`")


@dataclass(frozen=True)
class Choice:
    """One conditional: its `#if` node, each branch's directive node (the `#if`, `#elif`s, `#else`) and
    directive text, the branch the newest architecture takes, the architectures that take another."""
    node: Node
    arms: tuple[Node, ...]
    tests: tuple[str, ...]
    taken: int
    others: tuple[int, ...]
    unported: str = ""  # what the newest's branch holds that the target has no port of, where another is taken
    chained: bool = False  # a `defined(__CUDA_ARCH__)` arm read with the chain's comparisons (ptx_branches.arch_holds)


def archs() -> tuple[int, ...]:
    """The `__CUDA_ARCH__` values the source dialect's toolkit builds (the CUDA backend's data)."""
    return tuple(sorted(backends.source().device_archs))


def _directive(src, arm: Node) -> str:
    """`#if __CUDA_ARCH__ >= 600` as written (one line; a continued directive joined)."""
    if arm.type == "preproc_else":
        return "#else"
    test = arm.child_by_field_name("condition")
    head = src.data[arm.start_byte:test.end_byte].decode("utf-8", "replace") if test is not None else ""
    return re.sub(r"\s*\\\n\s*", " ", head).strip()


def known_values(tr) -> Mapping[str, int]:
    """The unit's object-like macros whose integer values its definitions decide (kernelport.unitdefines: the file's,
    its project headers' and those the run's includer reads before it (context_macros.read_before): `#define
    PASCAL 600`, one value, unconditional, never `#undef`ed) and the CUDA toolkit's version macros (version_branches.toolkit_values), less the run's -D names: what a test may read beside
    `__CUDA_ARCH__` and still be settled as for a literal."""
    from .unitdefines import unit_defines
    if (got := tr.__dict__.get("_kp_known_values")) is not None:
        return got
    srcs = unit_sources(tr)
    given = frozenset(d[0] if isinstance(d, tuple) else str(d).split("=")[0] for d in tr.options.get("defines", ()) or ())
    from .version_branches import toolkit_values
    toolkit = toolkit_values(srcs, given)  # CUDART_VERSION
    got = tr.__dict__["_kp_known_values"] = {**toolkit, **unit_defines(srcs, given).values}
    return got


def unit_sources(tr) -> list:
    """The translated file's parse, then its project headers' and those the run's includer reads before it."""
    away = getattr(getattr(tr.module, "visible", None), "elsewhere", None)
    srcs = [tr.src]
    if away is not None:
        paths = list(away.paths)
        if away.root is not None and away.project.units:  # (a header included at its includer's top: my_types.h)
            paths += context_macros.read_before(away.project, away.root)
        srcs += [pf.src for pf in (away.project.file(p) for p in dict.fromkeys(paths)) if pf is not None]
    return srcs


def arms_of(src, node: Node) -> tuple[list[Node], list[str] | None]:
    """An `#if`'s arms (the `#if`, its `#elif`s, its `#else`) and its tests' texts (None where one has none)."""
    arms, n = [node], node.child_by_field_name("alternative")
    while n is not None and n.type in _CHAIN:
        arms.append(n)
        n = n.child_by_field_name("alternative") if n.type == "preproc_elif" else None
    tests = [a for a in arms if a.type != "preproc_else"]
    texts = [src.text_of(a.child_by_field_name("condition")) for a in tests if a.child_by_field_name("condition")]
    return arms, texts if len(texts) == len(tests) else None


def _choice(src, node: Node, at: tuple[int, ...], names: Mapping[str, int]) -> Choice | None:
    arms, texts = arms_of(src, node)
    if texts is None:
        return None

    chained = len(texts) > 1 and any(ptx_branches.arch_holds(t, 0, names) is not None for t in texts)

    def branch(arch: int) -> int | None:
        for i, t in enumerate(texts):
            held = ptx_branches.arch_holds(t, arch, names, chained)
            if held is None:  # (`#if defined(__CUDA_ARCH__)` alone too: the device pass, kernelport/device_pass.py)
                return None
            if held:
                return i
        return len(texts)  # the `#else`, or the empty branch before `#endif` where there is none
    taken = [branch(a) for a in at]
    if None in taken:
        return None
    return Choice(node, tuple(arms), tuple(_directive(src, a) for a in arms), taken[-1],
                  tuple(a for a, b in zip(at, taken) if b != taken[-1]), chained=chained)


def choices(tr) -> list[Choice]:
    """The architecture conditionals in `tr`'s device-only functions (once per translator)."""
    got = tr.__dict__.get("_kp_arch_choices")
    if got is not None:
        return got
    got, at, scopes = [], archs(), fnscopes.of(tr.module)
    for node in tr.src.index.of_type("preproc_if") if at else ():
        f = scopes.function(fnscopes.owner(tr.module, node))
        if f is None and tr.module.function_at(node) is None:
            inside = False  # file scope: only where every branch holds device functions alone
        elif f is None or not f.is_device or f.is_host or f.body is None or \
                not (f.body.start_byte < node.start_byte and node.end_byte <= f.body.end_byte):
            continue
        else:
            inside = True
        if (c := _choice(tr.src, node, at, known_values(tr))) is not None and (inside or _device_functions_only(tr.module, c)):
            got.append(_portable(tr, c, at, known_values(tr)))
    tr.__dict__["_kp_arch_choices"] = got
    return got


def _portable(tr, c: Choice, at: tuple[int, ...], names: Mapping[str, int]) -> Choice:
    """`c`, or where the newest's branch holds what the target has no port of (fbgemm's `mul.f16x2` asm under
    `#if __CUDA_ARCH__ >= 530`, `__float22bfloat162_rn` under `>= 800`) and another branch with code has none
    (the portable fallback the author wrote for older GPUs), that branch: the next newest architecture's, else
    the last written.  An absent `#else` is never the fallback (a kernel that does nothing is no port)."""
    spans = [_body(tr.src, a)[1:] for a in c.arms]
    why = _unported(tr, *spans[c.taken]) if c.taken < len(spans) else ""  # (no `#else` taken: nothing to port)
    if not why:
        return c
    by_arch = [b for b in (_branch_at(tr.src, c, a, names) for a in reversed(at)) if b is not None]
    for k in dict.fromkeys(by_arch + list(range(len(c.arms) - 1, -1, -1))):
        if k < len(spans) and _normal(tr.src.data[spans[k][0]:spans[k][1]].decode("utf-8", "replace")) and \
                not _unported(tr, *spans[k]):
            return Choice(c.node, c.arms, c.tests, k, tuple(a for a in at if _branch_at(tr.src, c, a, names) != k), why,
                          c.chained)
    return c


def _branch_at(src, c: Choice, arch: int | None, names: Mapping[str, int]) -> int | None:
    """The branch `c` takes at `__CUDA_ARCH__` = arch (None: nvcc's host pass), None where a test is unknown."""
    for i, arm in enumerate(c.arms):
        if arm.type == "preproc_else":
            return i
        held = ptx_branches.arch_holds(src.text_of(arm.child_by_field_name("condition")), arch, names, c.chained)
        if held is None or held:
            return None if held is None else i
    return len(c.arms)


def _unported(tr, a: int, b: int) -> str:
    """What code in bytes [a, b) holds that `tr`'s target has no port of: inline PTX, a CUDA intrinsic or API
    name with no spelling there, a kernel launch from device code where it has none; "" where none."""
    inside = lambda n: a <= n.start_byte and n.end_byte <= b  # noqa: E731
    from . import ptx_idioms
    for n, _ in tr.module.asm:  # (an idiom the target spells is ported: `shf.l.wrap.b32` as a funnel shift)
        if inside(n) and ptx_idioms.port(asm_templates.text(tr.src, n, tr.options.get("defines", ()) or ()), tr.backend, True,
                                         ptx_idioms.shared_in(tr.src, tr.module.function_at(n))) is None:
            return f"inline PTX (`{' '.join(tr.src.text_of(n).split())[:60]}`)"
    be = backends.get(tr.backend)
    table = be.api()
    for u in tr.module.uses:
        if not inside(u.node):
            continue
        fn = u.node.child_by_field_name("function") if u.node.type == "call_expression" else u.node
        name = tr.src.text_of(fn)
        if u.concept.key == "api":
            e = table.get(name) if table is not None else None
            if (e is None or not e.supported) and name not in tr.declared_names():
                return f"`{name}`"
        elif u.concept.spelling(tr.backend) is None:
            return f"`{name}`"
    if not be.launches_from_device and any(inside(n.node) for n in tr.module.launches):
        return "a kernel launch from device code"
    for d in tr.src.index.of_types("preproc_def", "preproc_function_def"):  # a macro's body: text to the parse
        if inside(d) and (v := d.child_by_field_name("value")) is not None:
            for w in dict.fromkeys(re.findall(r"[A-Za-z_]\w*", tr.src.text_of(v))):  # (`__nanosleep` under `>= 700`)
                c = dialect.lookup(backends.source().name, w)
                e = table.get(w) if table is not None and c is not None and c.key == "api" else None
                if c is not None and w not in tr.declared_names() and (
                        (c.key == "api" and (e is None or not e.supported)) or (c.key != "api" and c.spelling(tr.backend) is None)):
                    return f"`{w}`"
    return ""


def _device_functions_only(module, c: Choice, specializations: bool = False) -> bool:
    """Whether each branch of a file-scope conditional holds only definitions of device functions (no
    `__host__`), which no host pass runs: a kernel that calls one (warp_aggregated_atomics' helpers under the
    same `#if` as its kernels' bodies) finds it in the port.  Macros, includes, variables, host code, and an explicit
    specialization (reduce7's `template <> warpReduceSum<int>` with `__reduce_add_sync` under `>= 800`: the primary
    template is the general code) stay as written."""
    for arm in c.arms:
        skip = {arm.child_by_field_name("condition"), arm.child_by_field_name("alternative")}
        for n in arm.named_children:
            if n in skip or n.type == "comment":
                continue
            params = n.child_by_field_name("parameters") if n.type == "template_declaration" else None
            if params is not None and not params.named_children and not specializations:
                return False  # `template <>`: one architecture's specialization; the primary template computes it
            d = next((k for k in n.named_children if k.type == "function_definition"), None) \
                if n.type == "template_declaration" else n
            f = module.function_at(d) if d is not None and d.type == "function_definition" else None
            if f is None or f.node != d or not f.is_device or f.is_host:
                return False
    return True


def decided(tr) -> dict:
    """{test node id: whether it holds in the port} for every test of the conditionals `choices` ports:
    the taken branch's test holds, the tests before and after it do not (their branches are left out)."""
    out = tr.__dict__.get("_kp_arch_decided")
    if out is None:  # (asked for every node whose region a pass judges)
        from . import pass_branches  # (and those both of nvcc's passes compile, settled pass by pass)
        out = tr.__dict__["_kp_arch_decided"] = {arm.id: int(i == c.taken) for c in choices(tr)
                                                 for i, arm in enumerate(c.arms) if arm.type != "preproc_else"}
        out.update(pass_branches.decided(tr))
    return out


def ported(views) -> dict[int, int | None]:
    """`decided` for a reader of the original that is no one port (lint): {test node id: its value on the ports'
    passes} where each of `views` (one per target, `PortView`) is a port's choice; a conditional whose ports take
    different branches (one target lacks what the newest's branch uses: `_portable`) keeps every branch taken live:
    a test whose own branch and a later one are taken is unknown (None), one whose own is taken 1, any other 0."""
    taken: dict[int, tuple[Choice, set[int]]] = {}
    for v in (views if views and b"__CUDA_ARCH__" in views[0].src.data else ()):  # (a test must name it)
        for c in choices(v):
            taken.setdefault(c.node.id, (c, set()))[1].add(c.taken)
    out: dict[int, int | None] = {}
    for c, live in taken.values():
        for i, arm in enumerate(c.arms):
            if arm.type != "preproc_else":
                out[arm.id] = None if i in live and any(j > i for j in live) else int(i in live)
    return out


class PortView:
    """What `choices` reads of a translator (its source, model, target and the names the unit declares), for a
    reader of the original that translates nothing: one target's port of the parsed unit; `names`: `known_values`."""

    def __init__(self, src, module, backend: str, names: Mapping[str, int]):
        self.src, self.module, self.backend, self.options = src, module, backend, {}
        self.__dict__["_kp_known_values"] = names

    def declared_names(self) -> frozenset[str]:
        from .declared_names import names_declared_in
        vis = self.module.visible
        return names_declared_in(self.src) | (vis.declared if vis is not None else frozenset())


def _body(src, arm: Node) -> tuple[Node, int, int]:
    """The node whose children hold branch `arm`'s code, and that code's byte span: from the line after
    its directive to the next directive (`#elif`, `#else`, `#endif`)."""
    test = arm.child_by_field_name("condition")
    head_end = test.end_byte if test is not None else arm.children[0].end_byte
    nl = src.data.find(b"\n", head_end)
    start = arm.end_byte if nl < 0 else min(nl + 1, arm.end_byte)
    alt = arm.child_by_field_name("alternative") if arm.type != "preproc_else" else None
    end = alt.start_byte if alt is not None else next(
        (c.start_byte for c in arm.children if c.type == "#endif"), arm.end_byte)
    return arm, start, max(start, end)


def take_pass(tr) -> None:
    """A translator pass: each conditional `choices` finds becomes its taken branch's (rewritten) code;
    KP237 where another branch ports to other code."""
    from .diagnostics import Diagnostic
    for c in choices(tr):
        bodies = [_body(tr.src, a) for a in c.arms]
        if c.arms[-1].type != "preproc_else":  # no `#else`: its branch is empty (taken: nothing is compiled here)
            bodies.append((c.node, c.node.end_byte, c.node.end_byte))
        line_start = tr.src.data.rfind(b"\n", 0, c.node.start_byte) + 1
        if line_start < c.node.start_byte and not tr.src.data[line_start:c.node.start_byte].strip():
            tr.rw.drop_span(line_start, c.node.start_byte)  # `    #if`: the code keeps its own indentation
        holder, a, b = bodies[c.taken]

        def render(rw, node, holder=holder, a=a, b=b) -> str:
            text = rw.span(holder, a, b).rstrip(" \t")  # (the `#else` line's indentation)
            return text[:-1] if text.endswith("\n") else text  # (the `#endif` line's newline stays)
        ported = [_normal(tr.rw.span(h, s, e)) for h, s, e in bodies]
        tr.rw.replace(c.node, render)
        tr.note(c.node, "(the branch taken)", f"the branch NVIDIA's newest architecture takes (`{c.tests[c.taken]}`)"
                if c.taken < len(c.tests) else "the branch NVIDIA's newest architecture takes (none)")
        if len(set(ported)) > 1:
            tr.port.diagnostics.append(Diagnostic("KP237", tr.src.loc(c.node), warning(tr, c, rows(tr, c, len(bodies))),
                                                  HINT, "warning"))


def rows(tr, c: Choice, n: int) -> list[str]:
    """`line 3 (`#if __CUDA_ARCH__ >= 600`)` for each of `c`'s `n` branches (the last, where there is no `#else`,
    its empty branch at the `#endif`): how KP237 names them."""
    lines = [tr.src.loc(arm).line for arm in c.arms] + [tr.src.location(c.node.end_byte).line]
    return [f"line {lines[i]} (`{c.tests[i]}`)" if i < len(c.tests) else f"line {lines[i]} (no `#else`)" for i in range(n)]


def warning(tr, c: Choice, rows: list[str]) -> str:
    """KP237's text where the newest's branch alone is ported (rows: `rows`)."""
    return message("conditional's", rows, c.taken, c.others, archs()) if not c.unported else (
        f"the conditional's branch that NVIDIA GPUs run holds {c.unported}, which {tr.backend.upper()} has no port of: "
        f"the port takes the branch at {rows[c.taken]}, the one "
        + (f"CUDA's {', '.join(f'sm_{x // 10}' for x in archs() if x not in c.others)} run" if
           len(c.others) < len(archs()) else "no architecture CUDA's toolkit builds runs")
        + ", which kernelport does not show equivalent; the "
        + ("branch at " if len(rows) == 2 else "branches at ")
        + f"{', '.join(r for i, r in enumerate(rows) if i != c.taken)} " + ("is" if len(rows) == 2 else "are")
        + " left out")


def message(what: str, rows: list[str], taken: int, others: tuple[int, ...], at: tuple[int, ...]) -> str:
    """KP237's text: the branch taken (rows[taken]) and those left out; `others`: current architectures
    that take another branch (shared with kernelport/inline_asm.py's asm form)."""
    out = [r for i, r in enumerate(rows) if i != taken]
    left = ("branch at " if len(out) == 1 else "branches at ") + ", ".join(out) + (" is" if len(out) == 1 else " are")
    who = f"the newest; CUDA's {', '.join(f'sm_{a // 10}' for a in others)} take another" if others \
        else f"every architecture CUDA's toolkit builds, sm_{min(at) // 10} and later"
    return (f"the {what} branches on the NVIDIA architecture port to different code, which kernelport does not show "
            f"equivalent: the port takes the branch at {rows[taken]}, the one NVIDIA GPUs run ({who}); the "
            f"{left} left out (off NVIDIA `__CUDA_ARCH__` is undefined: a port that kept the conditional would "
            "compile the branch for `__CUDA_ARCH__` = 0, which no GPU runs)")


def _normal(text: str) -> str:
    """A branch's ported code less comments and layout: what tells whether two branches port alike."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    return " ".join(re.findall(r"\w+|[^\w\s]", text))
