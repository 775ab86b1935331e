"""The warp width each warp-level group means: the hardware wave, or a logical 32-lane group.

A group is a connected set of functions in the call graph (a lane computed in a kernel and
passed to a helper belongs to the helper's shuffles; a launch is no call: kernelport/launchgroups.py
gives host code its kernels' width).  It is decided once, from the launch
geometry of the kernels in it: the annotated block (`// @kp block`), the `<<<grid, block>>>`
arguments of launches in the file, `__launch_bounds__(N)` with N <= 32, a `blockDim.x` guard
(`if (blockDim.x != 32) return;`, `assert(blockDim.x == 32)`), and `// @kp warp-width 32|native`
on any function of the group.

- native: every block is a whole number of 64-lane waves (or nothing says otherwise, the
  convention of full blocks): 32-lane assumptions become the wave width (`warpSize`).
- 32 (logical): a block of at most 32 threads, rows of blockDim.x == 32, or launches of several
  geometries (also the sizes kernelport/blocksizes.py follows to the host, a sweep from 32, where
  the group has no vote, header warp helper or `warpSize`: _rows_break).  CUDA's semantics are kept
  exactly: literals stay 32, every shuffle gets an explicit width 32, `warpSize` means 32.  Sound for shuffles and lane arithmetic at any geometry; a vote
  (ballot, any, all) over a group that may share a 64-lane wave with another group is not, and is
  refused where the wave can be 64 wide.
- undecided: a block that is not whole waves (96 threads) in a group with votes, or contradicting
  annotations: translate refuses (KP219) and asks for the annotation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from . import annotated_votes, asm_templates, lane_shares, butterfly_lanes, confined_votes, dialect, fnscopes, fold_levels, halfvotes, header_widths, launchgroups, pointer_calls, unit_launches, warp32_guards, warpless_kernels, wide_steps
from .blockdims import constant, dims as _dims, functor_launches, member_dims, names as _names, row_width, value as _value
from .model import Function, Module
from .source import call_args, ident_name, walk
from .ptx_matrix import warp32_instruction
from .warpsites import WARP_SIZE_NAME, int_value
from . import lazy_re

NATIVE, LOGICAL, UNDECIDED = "native", "32", "undecided"
_ANNOTATION = lazy_re.compile(r"//\s*@kp\s+warp-width\b[ \t]*(?P<value>\S*)")
_VOTES = ("vote", "match")
_TRAPS = ("__trap", "abort", "__builtin_trap")  # calls that stop a kernel, as a return does


@dataclass
class Geometry:
    """What one piece of evidence says about a kernel's block (None: not known)."""
    x: int | None
    total: int | None
    source: str
    node: Node | None
    followed: bool = False  # a size blocksizes followed to the host (a caller's sweep), not the launch's own
    votes_per_warp: bool = True  # halfvotes may spell the group's votes per CUDA warp (not wmma's, not guessed rows)

    @property
    def verdict(self) -> str | None:
        if self.total is not None and self.total <= 32:
            return LOGICAL  # one group of at most 32 lanes: lanes 32-63 of a wave do not exist
        if self.x == 32:
            return LOGICAL  # rows of 32 threads: threadIdx.x is the lane of a 32-lane row
        if self.total is not None and self.total % 64 == 0:
            return NATIVE  # whole waves at either width
        if self.total is not None:
            return UNDECIDED  # a partial last wave at 64
        return None


@dataclass
class Group:
    """Functions that share a warp width, and why that width."""
    functions: set[str]
    width: str = NATIVE
    why: str = "no launch geometry says otherwise (full blocks assumed)"
    node: Node | None = None  # the evidence, for diagnostics
    shares_wave: bool = True  # a 32-lane group may share a 64-lane wave with another one
    votes: list[Node] = field(default_factory=list)
    annotated: bool = False
    # native groups whose kernels tie blockDim.x to the warp width the port rewrites (`assert(blockDim.x
    # == WarpSize)`): kernel name -> its guards; their launches' rows become the wave too (launchrows)
    rows: dict[str, list[Geometry]] = field(default_factory=dict)
    # why a block size followed to the host (a sweep from 32) did not keep the group's 32-lane rows: a
    # vote, a header's warp helper (ported at the wave width); KP233 says it at the count it refuses
    rows_not_kept: str = ""
    host: bool = False  # host code alone, whose width is that of the kernels it launches (launchgroups)
    launches: list = field(default_factory=list)  # a host group's: the groups it took its width from (launchgroups)
    confined_votes: list[Node] = field(default_factory=list)  # votes only one CUDA warp's threads reach
    half_votes: bool = False  # undecided, but translate may keep it logical, each vote over its warp (halfvotes)
    spelled_votes: bool = False  # logical: every vote is already its caller's warp's (a port read again: halfvotes)
    # native, but a read of its per-warp slots is bounded by a fixed count of 32-lane warps, or every lane keeps a 32-lane
    # ladder's fold whose value depends on the width (fold_levels): translate keeps it logical (warpcounts.adopted);
    # lint reads the code as written, a port to the wave
    counted: Node | None = None
    counted_why: str = ""
    counted_by: str = ""  # the module whose evidence marked it: warpcounts or fold_levels


@dataclass
class Widths:
    """Every group's warp width in a file, and the problems found deciding them."""
    groups: list[Group]
    by_function: dict[str, Group]
    problems: list[tuple[Node, str, str]]  # (where, message, hint): KP219

    warp_level: set[str] = field(default_factory=set)

    def width(self, function: str | None) -> str:
        """The width of `function`'s group; at file scope (macros, constants) logical only where
        every group of warp-level code is."""
        if function is not None and function in self.by_function:
            return self.by_function[function].width
        ws = {g.width for g in self.groups if g.functions & self.warp_level}
        return LOGICAL if ws == {LOGICAL} else NATIVE

    def logical(self, function: str | None) -> bool:
        return self.width(function) == LOGICAL


def annotated(module: Module) -> tuple[dict[str, tuple[str, Node]], list[tuple[Node, str, str]]]:
    """`// @kp warp-width V` comments, by the function that follows each."""
    src = module.source
    fs = sorted(module.functions.values(), key=lambda f: (f.template_node or f.node).start_byte)
    out: dict[str, tuple[str, Node]] = {}
    problems = []
    for c in src.index.of_type("comment"):
        m = _ANNOTATION.match(src.text_of(c))
        if m is None:
            continue
        value = m.group("value")
        nxt = next((f for f in fs if (f.template_node or f.node).start_byte > c.start_byte), None)
        if value not in (NATIVE, LOGICAL):
            problems.append((c, f"warp-width takes 32 or native, got '{value}'",
                             "// @kp warp-width 32 (a logical 32-lane group) or native (the hardware wave)"))
        elif nxt is None:
            problems.append((c, "warp-width is not followed by a function", "put it directly above the function"))
        else:
            out[fnscopes.of(module).key(nxt)] = (value, c)
    return out, problems


def row_guards(k: Function, module: Module, names=None) -> list[Geometry]:
    """`if (blockDim.x != 32) return;` and `assert(blockDim.x == WarpSize)`: the kernel needs rows of
    32 (the constant may be named: a macro or a const local).  `node` is the comparison."""
    src, out = module.source, []
    names = _names(module) if names is None else names
    for n in src.index.under(k.body, "binary_expression"):
        parts = [n.child_by_field_name(s) for s in ("operator", "left", "right")]
        if any(x is None for x in parts):
            continue
        op = src.text_of(parts[0])  # type: ignore[arg-type]
        if op not in ("==", "!="):  # (before the text of both sides: most comparisons are not these)
            continue
        sides = {" ".join(src.text_of(x).split()) for x in parts[1:] if x is not None}
        if not ({"blockDim.x"} < sides):
            continue
        other = (sides - {"blockDim.x"}).pop()
        value = int_value(other) if int_value(other) is not None else \
            constant(other, k, module, names) if re.fullmatch(r"[A-Za-z_]\w*", other) else None
        if value != 32:
            continue
        p = n.parent
        while p is not None and p.type in ("parenthesized_expression", "condition_clause", "argument_list"):
            p = p.parent
        if p is None:
            continue
        if op == "!=" and p.type == "if_statement":
            body = p.child_by_field_name("consequence")
            stops = body is not None and any(
                c.type == "return_statement" or (c.type == "call_expression" and
                                                 src.text_of(c.child_by_field_name("function")) in _TRAPS)
                for c in walk(body))
            if stops:
                out.append(Geometry(32, None, f"the guard `blockDim.x != {other}` stops the kernel", n))
        elif op == "==" and p.type == "call_expression" and (callee := p.child_by_field_name("function")) and \
                src.text_of(callee) in ("assert", "__builtin_assume"):
            out.append(Geometry(32, None, f"assert(blockDim.x == {other})", n))
    return out


def _launches_of(module: Module) -> dict[str, list]:
    """The module's launches by the key of the kernel each runs (fnscopes: `a::k<<<...>>>` launches
    a::k, not b::k; a kernel not defined here by its name), in order (once: each kernel's evidence
    reads its own)."""
    key, cached = module.__dict__.get("_kp_launches_of", (None, None))
    if key != (id(module.launches), len(module.launches)):
        cached = {}
        scopes = fnscopes.of(module)
        for launch in module.launches:
            runs = fnscopes.launched(module, launch)
            for k in {scopes.key(f) for f in runs} or {launch.kernel}:
                cached.setdefault(k, []).append(launch)
        module.__dict__["_kp_launches_of"] = ((id(module.launches), len(module.launches)), cached)
    return cached


def _host_of(module: Module, launch) -> Function | None:
    """The definition whose body holds the launch (its locals size the block), by key, not bare name."""
    return fnscopes.of(module).function(fnscopes.owner(module, launch.node))


def row_launches(k: Function, module: Module) -> list[tuple[Node, Node]]:
    """The launches of kernel k whose block is rows of 32 threads and more than one row (`dim3(32, 8)`,
    or a local `dim3 threads(32, 8);` it passes): (the launch, what sets the block: the local's
    declarator or the block argument), in source order."""
    names, out = _names(module), []
    key = fnscopes.of(module).key(k)  # a functor's call operator: the launches that pass the functor
    for launch in _launches_of(module).get(key, []) + functor_launches(module).get(key, []):
        if len(launch.config) < 2:
            continue
        owner = _host_of(module, launch)
        d = _dims(launch.config[1], owner, module, names)
        if d is None or d[0] != 32 or d[0] * d[1] * d[2] <= 32:
            continue
        block, where = launch.config[1], launch.config[1]
        if block.type == "identifier" and owner is not None and owner.body is not None:
            where = next((x for x in module.source.index.under(owner.body, "init_declarator")
                          if ident_name(x.child_by_field_name("declarator")) == module.source.text_of(block)), block)
        out.append((launch.node, where))
    return out


def _evidence(k: Function, module: Module, specs, names, follow: bool = True, helpers=()) -> list[Geometry]:
    """What says k's block: its annotation, its launches, `__launch_bounds__`, row guards.  `follow`: a
    launch block no constant here decides (`<<<g, block_size>>>`) takes the sizes blocksizes follows to
    the host (a caller's `for (bs : {32, 64, ...})`); without it, or where those say nothing, it is unknown."""
    out: list[Geometry] = []
    spec = specs.get(k.name)
    if spec is not None:
        try:
            x, y, z = spec.dims("block")
            out.append(Geometry(x, x * y * z, f"the annotated block ({x}, {y}, {z})", None))
        except Exception:  # noqa: BLE001  (a bad annotation is verify's error to report, not translate's)
            pass
    key = fnscopes.of(module).key(k)  # a functor's call operator: the launches that pass the functor
    # (and the launches of the run's other units: their node is of another file, shown by file:line instead)
    for lm, launch in [(module, la) for la in _launches_of(module).get(key, []) + functor_launches(module).get(key, [])] \
            + unit_launches.elsewhere(module, k):
        if len(launch.config) < 2:
            continue
        own, ns = lm is module, names if lm is module else _names(lm)
        at, text = launch.node if own else None, " ".join(lm.source.text_of(launch.config[1]).split())
        there = "" if own else f" in {Path(lm.source.path).name}:{lm.source.loc(launch.node).line}"
        d = _dims(launch.config[1], _host_of(lm, launch), lm, ns)
        if d is None and follow and own and (sizes := _followed(module, launch, text)):
            out += sizes
            continue
        if d is None and (m := member_dims(launch.config[1], _host_of(lm, launch), lm, ns)) is not None:
            shown = ", ".join("?" if v is None else str(v) for v in m)  # rows of 32 threads, any number of them
            out.append(Geometry(m[0], None, f"the launch block `{text}`{there} = ({shown}) its class's constructor sets", at))
            continue
        if d is None and (x := row_width(launch.config[1], _host_of(lm, launch), lm, ns)) is not None:
            out.append(Geometry(x, None, f"the launch block `{text}`{there} = ({x}, ?, ?): rows of {x} threads", at))
            continue
        out.append(Geometry(d[0], d[0] * d[1] * d[2], f"the launch block `{text}`{there} = {d}", at)
                   if d is not None else Geometry(None, None, f"the launch block `{text}`{there}", at))
    if k.launch_bounds is not None:
        args = [c for c in k.launch_bounds.named_children]
        v = _value(args[0], module, names) if args else None
        if v is not None and v <= 32:
            out.append(Geometry(None, v, f"__launch_bounds__({v})", k.launch_bounds))
    out += row_guards(k, module, names)
    if all(e.verdict is None for e in out):  # nothing says what the block is (`<<<g, lc.numthread>>>`):
        # the kernel's own lanes may still say rows of 32
        out += row_lanes(k, module, names, helpers)
    return out


def _followed(module: Module, launch, text: str) -> list[Geometry]:
    """The thread counts blocksizes follows for a launch's block (one Geometry per size, x unknown)."""
    from .blocksizes import launch_block_sizes
    out, seen = [], set()
    for v, at in launch_block_sizes(module, launch):
        if v > 0 and v not in seen:
            seen.add(v)
            out.append(Geometry(None, v, f"the launch block `{text}` = {v} (line {module.source.loc(at).line})",
                                launch.node, followed=True))
    return out


def row_lanes(k: Function, module: Module, names=None, helpers=()) -> list[Geometry]:
    """A 2-D block whose lane is `threadIdx.x` alone, in k or a helper it calls (kernelport/row_lanes.py):
    its rows as warps (`dim3(32, 8)`) are what that says where no launch is seen."""
    from .row_lanes import row_lane
    got = row_lane(k, module, names, helpers)
    if got is None:
        return []
    lane, f = got
    text = " ".join(lane.text.decode(errors="replace").split())
    where = "" if f is k else f" (in `{f.name}`, which `{k.name}` calls)"
    return [Geometry(32, None, f"a 2-D block whose lane is `{text}`{where} (rows of 32 threads as warps; "
                               "no launch gives the block)", lane, votes_per_warp=False)]


def decide(module: Module, warp_level: set[str] | None = None, data_warps: dict[str, Node] | None = None,
           collectives: dict[str, Node] | None = None, counts: dict[str, Node] | None = None,
           shares: dict[str, Node] | None = None) -> Widths:
    """`data_warps`, `collectives`: code that says 32-lane groups, by function key; `counts`: reads of per-warp
    slots bounded by a fixed count of 32-lane warps (kernelport/warpcounts.py), which mark a native group."""
    src = module.source
    scopes = fnscopes.of(module)  # groups by key: a call joins the definitions C++ would run
    fns: dict[str, list[Function]] = {}
    for f in module.functions.values():
        fns.setdefault(scopes.key(f), []).append(f)
    parent = {k: k for k in fns}

    def find(a: str) -> str:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    votes: dict[str, list[Node]] = {}
    launched: dict[str, set[str]] = {}  # a launcher's key -> the kernels it launches (no join: launchgroups)
    explicit: dict[str, Node] = {}
    wide: dict[str, tuple] = {}  # a step of 32+ (wide_steps), a mask of a 32-lane lane's guard (warp32_guards)
    external: dict[str, list[Node]] = {}  # calls of a header's warp helpers
    vis = module.visible
    read_as = backends_source()  # (once: an import statement per call cost a tenth of decide)
    warp32 = _warp32_calls()
    matrix: dict[str, Node] = {}  # a call of the dialect's 32-lane warp operations (wmma's mma_sync)
    kept: dict[str, Node] = {}  # a 32-lane xor butterfly's fold that every lane keeps (butterfly_lanes)
    reads: dict[str, Node] = {}  # a width-dependent ladder fold every lane keeps (fold_levels: translate's view)
    pointers = pointer_calls.Pointers(module)  # (each function's pointers read once, not once per call)
    for f in module.functions.values():
        k = scopes.key(f)
        if (b := butterfly_lanes.every_lane_keeps(module, f, read_as)) is not None:
            kept.setdefault(k, b)
        if (b := fold_levels.width_dependent_read(module, f, read_as)) is not None:
            reads.setdefault(k, b)
        for n in (src.index.under(f.body, "call_expression") if f.body is not None else ()):  # `X() = default;`: none
            fn = n.child_by_field_name("function")
            name = fnscopes.callee_name(fn)
            own = {scopes.key(g) for g in scopes.resolve(f, fn, call_args(n)) or pointers.targets(f, n)}
            for callee in own - {k}:
                if all(g.is_kernel for g in fns[callee]):  # a launch: the kernel's lanes are its own, not its
                    launched.setdefault(k, set()).add(callee)  # launcher's (nor its siblings'): launchgroups
                    continue
                parent[find(callee)] = find(k)
            if not own and vis is not None and not vis.warp_qualified.isdisjoint(scopes.candidates(f, fn)):
                external.setdefault(k, []).append(n)  # a header's warp helper: ported on its own
            if not own and vis is not None and name and (h := vis.mask_helpers.get(name)) and h.returns_mask:
                votes.setdefault(k, []).append(n)  # a header's ballot wrapper (AstroAccelerate's aa_ballot) votes
            if not own and name and warp32 is not None and warp32.fullmatch(name):
                matrix.setdefault(k, n)
            c = dialect.lookup(read_as, name) if name else None
            lib = dialect.library_call(read_as, name) if name and c is None and not own else None
            if lib is not None:
                c = lib[0]  # a library's warp helper (PyTorch's WARP_SHFL)
            if c is not None and c.kind in _VOTES and c.warp_level and not _barrier_mask(src, n, c, read_as):
                votes.setdefault(k, []).append(n)
            if c is not None and c.kind == "shuffle" and name is not None:
                found = dialect.spelled_by(read_as, name)
                params = dialect.call_params(*found)[0] if found else lib[1] if lib else ()
                args = call_args(n)
                w = args[params.index("width")] if "width" in params and params.index("width") < len(args) else None
                if w is not None and not WARP_SIZE_NAME.search(src.text_of(w)) and \
                        _value(w, module, _names(module)) == 32:  # `WARP_SIZE` (32) names the warp
                    explicit.setdefault(k, n)  # the code says it: a 32-lane group
                elif found and wide_steps.reaches_32(src, n, found[0].key, params, args):
                    wide.setdefault(k, (n, wide_steps.WHY.format(line=src.loc(n).line)))  # a no-op in CUDA's warp
                elif warp32_guards.evidence(module, f, n, dict(zip(params, args)).get("mask")):
                    wide.setdefault(k, (n, warp32_guards.WHY.format(line=src.loc(n).line)))
    for node, _ in module.asm:  # the dialect's 32-lane warp instructions alike (PTX's mma.sync, ldmatrix)
        f = module.function_at(node)
        if f is not None and scopes.key(f) in parent and warp32_instruction(asm_templates.text(src, node)):
            matrix.setdefault(scopes.key(f), node)
    try:
        from . import annotations
        specs = annotations.parse(module)
    except Exception:  # noqa: BLE001  (bad annotations: verify reports them)
        specs = {}
    names = _names(module)

    from . import launchrows  # (which reads this module's groups)

    def build() -> tuple[list[Group], dict[str, Group], list]:
        members: dict[str, set[str]] = {}
        for fname in fns:
            members.setdefault(find(fname), set()).add(fname)
        marks, problems = annotated(module)
        groups, by_function = [], {}
        for fs in members.values():
            g = Group(fs, votes=[v for m in sorted(fs) for v in votes.get(m, [])])
            code = [Geometry(32, None, "a shuffle with an explicit width 32", explicit[m]) for m in sorted(fs)
                    if m in explicit]
            code += [Geometry(32, None, wide[m][1], wide[m][0]) for m in sorted(fs) if m in wide]
            code += [Geometry(32, None, f"`{_callee(src, matrix[m])}` acts on a 32-lane warp (its fragments are "
                              "spread over 32 lanes)", matrix[m], votes_per_warp=False) for m in sorted(fs) if m in matrix]
            code += [Geometry(32, None, "a warp index from a hardcoded 32 lays out global data (rows as warps)",
                              (data_warps or {})[m]) for m in sorted(fs) if m in (data_warps or {})]
            code += [Geometry(32, None, lane_shares.reason(src, shares[m]), shares[m]) for m in sorted(fs) if m in (shares or {})]
            code += [Geometry(32, None, f"every lane keeps a 32-lane xor butterfly's fold (line {src.loc(kept[m]).line})",
                              kept[m]) for m in sorted(fs) if m in kept]
            code += [Geometry(32, None, f"`{src.text_of(c)}` is cub's 32-lane warp collective (a port keeps its "
                              "32 lanes: collective_widths)", c) for m in sorted(fs) if (c := (collectives or {}).get(m))]
            defs = [d for m in sorted(fs) for d in fns[m]]
            kept32, helpers = header_widths.split(module, [n for m in sorted(fs) for n in external.get(m, ())])
            code += [Geometry(32, None, why, n) for n, why in kept32]  # (its header ports it as 32 lanes)
            _decide_group(g, defs, module, specs, names, {m: marks[m] for m in fs if m in marks}, problems,
                          code[:1], helpers, warp_level)
            counted = next((c for m in sorted(fs) if (c := (counts or {}).get(m)) is not None), None)
            by = "warpcounts"
            why = "" if counted is None else (
                f"`{' '.join(src.text_of(counted).split())}` (line {src.loc(counted).line}) counts the block's "
                "warps of 32 where its per-warp slots are read, a count a port to the wave would keep at 32")
            if counted is None and (counted := next((reads[m] for m in sorted(fs) if m in reads), None)) is not None:
                by, why = "fold_levels", (f"every lane keeps a 32-lane ladder's fold (line {src.loc(counted).line}) "
                                          "whose value a port to the wave would change (a first level's, or a down "
                                          "ladder's partial: fold_levels)")
            if counted is not None and g.width == NATIVE and not g.annotated:  # translate's view only: adopted
                g.counted, g.counted_why, g.counted_by = counted, why, by
                g.half_votes = bool(g.votes) and not helpers and \
                    halfvotes.kind(module, g.votes, names, backends_source()) == "full"
            wmma = next((matrix[m] for m in sorted(fs) if m in matrix), None)
            if wmma is not None and helpers:  # its 32-lane warps are not the header helper's (the wave)
                problems.append((helpers[0], f"`{_callee(src, helpers[0])}` is a header's warp helper, ported on its "
                                 f"own at the wave width, called where `{_callee(src, wmma)}` (line "
                                 f"{src.loc(wmma).line}) keeps 32-lane warps: at wave 64 it would span two of them",
                                 "define the helper in this file (it then keeps the caller's 32 lanes), or keep the "
                                 "wmma code under #ifdef so that only the CUDA build compiles it"))
            if not code:  # a 32 the code itself gives (a width-32 shuffle) stays: its group keeps 32 lanes
                launchrows.rows_follow_helpers(g, defs, module, names, helpers)
            if g.width == LOGICAL and helpers and wmma is None and not g.annotated:  # (heldout37's Viterbi ACS)
                problems.append((helpers[0], f"`{_callee(src, helpers[0])}` is a header's warp helper, ported on its "
                                 f"own at the wave width, called by a group that keeps 32-lane warps ({g.why}): at "
                                 "wave 64 it would fold two of them, or lanes a 32-thread block does not have",
                                 "define the helper in this file (it then keeps the caller's 32 lanes), or run the "
                                 "kernel in blocks of whole 64-lane waves"))
            groups.append(g)
            for m in fs:
                by_function[m] = g
        return groups, by_function, problems

    groups, by_function, problems = build()
    rejoin = launchgroups.disagreeing(groups, by_function, launched, warp_level or set(), fns)
    for host, kernel in rejoin:
        parent[find(kernel)] = find(host)  # one group again, decided from all their launches
    if rejoin:
        groups, by_function, problems = build()
    launchgroups.inherit(groups, by_function, launched, warp_level or set(), fns)
    return Widths(groups, by_function, problems, warp_level or set())


def _barrier_mask(src, call: Node, c, read_as: str) -> bool:
    """`__syncwarp(__activemask())`: the active lanes handed to a warp barrier as its mask, which no code reads
    (a port's barrier takes no mask: the wave's) and which sees no other group's lanes through a value."""
    p = call.parent
    while p is not None and p.type in ("parenthesized_expression", "cast_expression"):
        p = p.parent
    if c.key != "activemask" or p is None or p.type != "argument_list" or p.parent is None:
        return False
    b = dialect.lookup(read_as, fnscopes.callee_name(p.parent.child_by_field_name("function")) or "")
    return b is not None and b.kind == "barrier" and len(p.named_children) == 1


def _warp32_calls():
    """The source dialect's calls that act on a whole 32-lane warp (its `warp32_calls`), compiled; None: none."""
    from . import backends
    pattern = backends.source().warp32_calls
    return re.compile(pattern) if pattern else None


def backends_source() -> str:
    from . import backends
    return backends.source().name


def _decide_group(g: Group, fs: list[Function], module: Module, specs, names, marks, problems,
                  code: list[Geometry], helpers: list[Node], warp_level: set[str] | None = None) -> None:
    functors = functor_launches(module)  # a functor's call operator runs in the blocks its launches give
    entries = warpless_kernels.entries(module, [f for f in fs if f.is_kernel or fnscopes.of(module).key(f) in functors],
                                       warp_level)  # (a kernel that runs no warp-level code: no say)
    from .row_lanes import header_helpers  # (a helper's lane is its kernel's rows' too, a header's as well)
    device = [(f, module) for f in fs if not f.is_kernel] + header_helpers(module, helpers)
    evidence = [e for f in entries for e in _evidence(f, module, specs, names, helpers=device)]
    swept = next((e for e in evidence if e.followed and e.verdict != NATIVE), None)
    if swept is not None and (why := _rows_break(g, fs, module, helpers)):
        g.rows_not_kept = f"{swept.source} keeps no 32-lane rows: {why}"
        evidence = [e for f in entries for e in _evidence(f, module, specs, names, follow=False, helpers=device)]
    known = [e for e in evidence if e.verdict is not None] + code
    verdicts = {e.verdict for e in known}
    unknown = len(known) - len(code) < len(evidence) or not entries
    g.shares_wave = unknown or any(e.total is None or e.total > 32 for e in known)
    ann = {value: node for value, node in marks.values()}  # (the group's own annotations, by key)
    if len(ann) > 1:
        problems.append((ann[NATIVE], "the functions of one warp-level group are annotated both native and 32",
                         "one group (a kernel and the helpers it calls) has one width: keep one annotation"))
        g.width, g.node = UNDECIDED, ann[NATIVE]
        return
    if ann:
        (value, node), = ann.items()
        g.width, g.why, g.node, g.annotated = value, f"annotated `// @kp warp-width {value}`", node, True
        bad = [e for e in known if e.verdict != NATIVE] if value == NATIVE else []
        if bad:
            problems.append((node, f"warp-width native, but {bad[0].source} is not whole 64-lane waves: the wave "
                             "rewrite would read lanes that do not exist",
                             "// @kp warp-width 32 keeps CUDA's 32-lane groups"))
        else:  # a 32-lane group's votes: over each CUDA warp, or KP219
            annotated_votes.adopt(g, module, names, known, helpers, problems, backends_source())
        return
    if not known or verdicts == {NATIVE}:
        if known:
            g.why, g.node = f"{known[0].source} is whole waves", known[0].node
        return
    pick = next((e for e in known if e.verdict != NATIVE), known[0])
    g.node = pick.node
    alone = g.votes and confined_votes.every(module, g.votes, names, backends_source(), fs, known)
    if not g.votes or not g.shares_wave or alone:
        g.width = LOGICAL
        if alone:  # (those votes see no other group: consumers read `votes` as votes that may: confined_votes)
            g.confined_votes, g.votes = g.votes, []
        g.why = alone or (f"{pick.source}: 32-lane groups keep CUDA's width" if len(verdicts) == 1 and not unknown else
                 f"launches of several geometries ({pick.source}): 32-lane groups are right for every one")
        return
    votes = halfvotes.kind(module, g.votes, names, backends_source()) if pick.verdict == LOGICAL and not helpers and \
        all(e.votes_per_warp for e in known) else None
    if votes == "spelled":  # a port's votes, each over its caller's CUDA warp (halfvotes): 32 lanes exactly
        g.width, g.why, g.spelled_votes = LOGICAL, f"{pick.source}: 32-lane groups, each vote over its own CUDA warp", True
        return
    g.width, g.half_votes = UNDECIDED, votes == "full"  # (translate may keep 32 lanes, each vote over its warp)
    other = next((e for e in known if e.verdict != pick.verdict and e.verdict is not None), None)  # (two includers')
    g.why = f"{pick.source}{f' and {other.source}' if other else ''} with votes that may see two 32-lane groups of one 64-lane wave"


def _rows_break(g: Group, fs: list[Function], module: Module, helpers: list[Node]) -> str:
    """Why a group launched with sizes followed to the host (a sweep from 32) cannot keep its 32-lane
    rows at width 32 ('' where it can).  Width 32 keeps every shuffle and lane expression CUDA's (a row
    lies in one wave at either width, so its lockstep holds); what it cannot keep: a vote's mask (its
    bits hold two rows of a 64-lane wave), a header's warp helper (ported on its own at the wave width:
    its fold spans two rows) and `warpSize` (the code sizes its groups by the wave, not in rows: WS015)."""
    src = module.source
    if g.votes:
        return (f"`{_callee(src, g.votes[0])}` (line {src.loc(g.votes[0]).line}) is a vote, whose mask holds two "
                "rows of a 64-lane wave")
    if helpers:
        return (f"`{_callee(src, helpers[0])}` (line {src.loc(helpers[0]).line}) is a header's warp helper, ported on "
                "its own at the wave width")
    read_as = backends_source()
    unread = _unread_call(fs, module, read_as)
    if unread is not None:
        return (f"`{_callee(src, unread)}` (line {src.loc(unread).line}) is defined in no file read here: a header's "
                "warp helper, for all this model knows")
    for f in _device_code(fs):
        for n in src.index.under(f.body, "identifier"):
            c = dialect.lookup(read_as, src.text_of(n))
            if c is not None and c.key == "warp_size":
                return f"`{src.text_of(n)}` (line {src.loc(n).line}) sizes its groups by the wave, not in rows of 32"
    return ""


def _unread_call(fs: list[Function], module: Module, read_as: str) -> Node | None:
    """In a model that read none of the file's local includes (lint's model of one text), a call of a
    function neither this file nor the dialect defines: what the header defines is unknown, so it may be
    a warp helper ported at the wave width (llm.c's `warpReduceSum` in its common.h).  None where the
    model read the includes (`module.visible`: their warp helpers are known by name) or there are none."""
    src = module.source
    if module.visible is not None or not any(
            (p := inc.child_by_field_name("path")) is not None and p.type == "string_literal"
            for inc in src.index.of_type("preproc_include")):
        return None
    scopes = fnscopes.of(module)
    for f in _device_code(fs):
        for n in src.index.under(f.body, "call_expression"):
            fn = n.child_by_field_name("function")
            name = fnscopes.callee_name(fn)
            if name is None or scopes.resolve(f, fn, call_args(n)) or dialect.lookup(read_as, name) is not None or \
                    dialect.library_call(read_as, name) is not None or name in module.macros:
                continue
            return n
    return None


def _device_code(fs: list[Function]) -> list[Function]:
    """The group's kernels and device functions with a body: what runs in its rows (the host code that
    launches them is in the group too)."""
    return [f for f in fs if f.is_device and f.body is not None]


def _callee(src, call: Node) -> str:
    """A call's callee as written; an asm statement's warp instruction (`mma.sync.aligned....`)."""
    if call.type != "call_expression" and (hit := warp32_instruction(asm_templates.text(src, call))):
        return hit
    fn = call.child_by_field_name("function")
    return " ".join(src.text_of(fn if fn is not None else call).split())
