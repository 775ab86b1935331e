"""Launch rows that follow their kernel: a block's x width the kernel ties to the warp width.

llm.c's `fused_residual_forward3` asserts `blockDim.x == WarpSize` (`constexpr int WarpSize = 32`)
and its host launches `dim3(32, block_size / 32)`: rows of one warp.  Where the port makes that
constant the wave width (kernelport.warpwidth: the group folds whole waves through a header's
helper), the launch must change with it, or the port breaks its own assert (or, without one,
folds two rows into one).  So, per launch in the file of such a kernel:

- the block's x (`dim3(32, ...)`, a `dim3 b(32, ...)` local, or a 1-D block) that is the literal 32
  becomes the host's wave width; a warp-size name there is rewritten as every host use of it is;
- a `/ 32` in what sizes the block's other dimensions (`block_y = block_size / 32`: rows of 32 in a
  thread budget) becomes the budget's rows of the wave (`kp_wave_rows(block_size)`), so the block
  keeps its thread count, and a budget under the wave width (32 threads at 64) is one row, not an
  empty block and a division by zero in `ceil_div(N, block_y)`.  The divisor may be a name whose
  known value is 32 (a macro of the file or of a header, a `constexpr`: `block_size / ROWS`), and
  the grid's own cut of the same budget (`ceil_div(N, block_size / WARP_SIZE)`) is the same rows;
- the guard's constant, where it is a name (a macro of the file or of a header, a `constexpr`) of
  the value 32, becomes the wave width with them (`guard_constants`, in warpflow: the kernel's other
  uses of the name follow it); a guard with the literal 32 is refused (KP219): nothing ties the
  kernel's other 32s of the row (a stride `c += 32`) to it, so the kernel cannot follow its launch;
- any other x (a value the file does not fix at 32) is refused (KP219): the kernel and its launch
  cannot be kept together.
"""
from __future__ import annotations

from tree_sitter import Node

from . import dialect, fnscopes, warpwidth
from .source import call_args, ident_name, walk
from .warpsites import WARP_SIZE_NAME, WS, int_value

_MAX_CHASE = 16  # local definitions followed from a block's dimensions


def local_defs(src, body: Node, plain: bool = False) -> dict[str, list[Node]]:
    """Name -> the expressions a host function gives it (declarations, `dim3 b(x, y)`, assignments;
    `plain`: only `=` assignments, not `x *= 2`'s right side)."""
    out: dict[str, list[Node]] = {}
    for n in src.index.under_types(body, "init_declarator", "function_declarator", "assignment_expression"):
        if n.type == "init_declarator":
            name, v = ident_name(n.child_by_field_name("declarator")), n.child_by_field_name("value")
            if name and v is not None:
                out.setdefault(name, []).append(v)
        elif n.type == "function_declarator" and n.parent is not None and n.parent.type == "declaration":
            nm, args = n.child_by_field_name("declarator"), n.child_by_field_name("parameters")
            if nm is not None and args is not None:  # `dim3 block(32, 8);`
                out.setdefault(src.text_of(nm), []).append(args)
        elif n.type == "assignment_expression":
            left = n.child_by_field_name("left")
            if left is not None and left.type == "identifier" and \
                    not (plain and src.text_of(n.child_by_field_name("operator")) != "="):
                out.setdefault(src.text_of(left), []).append(n.child_by_field_name("right"))
    return out


def _dims(src, block: Node, defs: dict[str, list[Node]]) -> list[Node] | None:
    """The block argument's dimension expressions (x first), None where the file does not say."""
    fn = block.child_by_field_name("function") if block.type == "call_expression" else None
    if fn is not None and src.text_of(fn) == "dim3":
        return call_args(block)
    if block.type in ("argument_list", "parameter_list"):  # a `dim3 b(...)` local's arguments
        return [c for c in block.named_children if c.type != "comment"]
    if block.type == "identifier" and len(defs.get(src.text_of(block), ())) == 1:
        v = defs[src.text_of(block)][0]
        if v.type in ("argument_list", "parameter_list") or (v.type == "call_expression" and _dims(src, v, {})):
            return _dims(src, v, {})
        return None
    if block.type == "number_literal":
        return [block]
    return None


def _row_divisor(src, n: Node, is32) -> bool:
    """The literal 32, a warp-size name (`WARP_SIZE`, which the port makes the wave width on the host
    too: `budget / WARP_SIZE` is then 0 rows for a budget under the wave) or a name whose value is 32
    (`is32`) as the right of a `/`."""
    if n.type == "number_literal":
        ok = int_value(src.text_of(n)) == 32
    else:
        ok = n.type == "identifier" and (bool(WARP_SIZE_NAME.search(src.text_of(n))) or is32(src.text_of(n)))
    p = n.parent
    return ok and p is not None and p.type == "binary_expression" and p.child_by_field_name("right") == n and \
        src.text_of(p.child_by_field_name("operator")) == "/"


def _row_counts(src, exprs: list[Node], defs: dict[str, list[Node]], is32) -> list[Node]:
    """The divisors (32, a warp-size name, a name of the value 32) that cut a thread budget into rows
    of a warp in these expressions or the locals they read."""
    out, todo, seen = [], list(exprs), set()
    while todo and len(seen) < _MAX_CHASE:
        e = todo.pop()
        if e is None or (e.start_byte, e.end_byte) in seen:
            continue
        seen.add((e.start_byte, e.end_byte))
        for n in walk(e):
            if _row_divisor(src, n, is32):
                out.append(n)
            elif n.type == "identifier":
                todo.extend(defs.get(src.text_of(n), ()))
    return out


def _wave_rows(backend: str, budget: Node):
    """`budget / 32` as the budget's rows of the wave, from the budget's rewritten text (nested edits
    compose)."""
    return lambda rw, _node: dialect.render(dialect.concept("host_wave_rows"), backend,
                                            {"threads": rw.text(budget)})


def rewrite_launch_rows(tr) -> None:
    """Translator pass (see the module doc): the launches of kernels whose rows became the wave."""
    rows = {k: gs for g in tr.widths.groups for k, gs in g.rows.items()}
    if not rows or not tr.wide_waves():
        return
    try:
        host = tr.spell("host_wave_size")
    except LookupError:
        return  # this backend carries no host code: its launches are written elsewhere
    src = tr.src
    for kernel, guards in rows.items():  # `assert(blockDim.x == 32)`: the kernel's rows cannot move with a literal
        for guard in guards:
            sides = [guard.node.child_by_field_name(f) for f in ("left", "right")] if guard.node is not None else []
            if any(c is not None and c.type == "number_literal" for c in sides):
                tr.problem("KP219", guard.node, f"`{kernel}` needs rows of the wave width ({guard.source}: its header "
                           "helper folds a whole wave), but its row width is the literal 32, which nothing ties to "
                           "the kernel's other 32s of the row: the port cannot move the kernel's rows with its launches",
                           "name the row width (`constexpr int kRow = 32;`) in the guard and in every use of it in "
                           "the kernel, or mark the kernel `// @kp warp-width 32` and give its header helper's "
                           "shuffles the width 32")
    for launch in tr.module.launches:
        owner = tr.module.function_at(launch.node)  # by place: a host function may share the kernel's name
        guards = next((rows[k] for f in fnscopes.launched(tr.module, launch)
                       if (k := fnscopes.of(tr.module).key(f)) in rows), None)  # the kernel it runs, by key
        if guards is None or owner is None or owner.body is None or len(launch.config) < 2:
            continue
        guard = guards[0]
        line = src.loc(guard.node).line if guard.node is not None else "?"
        defs = local_defs(src, owner.body)
        dims = _dims(src, launch.config[1], defs)
        x = dims[0] if dims else None
        why = (f"`{launch.kernel}` needs rows of the wave width ({guard.source}, line {line}, which the port "
               "makes the wave width)")
        if x is not None and int_value(src.text_of(x)) == 32:
            if not tr.rw.has(x):
                tr.rw.replace(x, host)
                tr.note(x, host, f"the launch's rows follow the kernel: {why}")
        elif x is None or not (x.type == "identifier" and WARP_SIZE_NAME.search(src.text_of(x))):
            tr.problem("KP219", launch.config[1],
                       f"{why}, but this launch's block x `{' '.join(src.text_of(x or launch.config[1]).split())}` "
                       "is not the literal 32 the kernel was written for: the port cannot change the kernel "
                       "without its launch",
                       "launch it with `dim3(32, ...)` in this file, or mark the kernel `// @kp warp-width 32` "
                       "and give its header helper's shuffles the width 32")
            continue
        values: dict[str, bool] = {}

        def is32(name: str) -> bool:  # a name whose known value is 32 (macro, header macro, constexpr)
            if name not in values:
                values[name] = warpwidth.constant(name, owner, tr.module) == 32
            return values[name]
        block_rows = _row_counts(src, list(dims[1:]), defs, is32)
        def budget(div: Node) -> str:  # the thread budget a divisor cuts, its spacing ignored
            return " ".join(src.text_of(div.parent.child_by_field_name("left")).split())
        budgets = {budget(n) for n in block_rows}
        grid_rows = [n for n in _row_counts(src, [launch.config[0]], defs, is32)  # the grid's cut of those budgets
                     if budget(n) in budgets]
        for n in block_rows + grid_rows:
            div = n.parent  # `budget / 32`: at least one row, where the budget is under the wave
            if not tr.rw.has(div):
                budget = div.child_by_field_name("left")
                cut = _wave_rows(tr.backend, budget)
                tr.rw.replace(div, cut)
                tr.note(div, cut(tr.rw, div), f"rows of the wave in a thread budget: {why}")


def guard_constants(an, widths) -> None:
    """warpflow, once the widths are decided: a group whose rows moved to the wave (warpwidth's
    rows_follow_helpers) makes the named 32 of each kernel's row guard (`assert(blockDim.x ==
    ROW_THREADS)`) a wave-width site, by its value and not its name (a literal guard stays)."""
    for g in widths.groups:
        for kname, guards in g.rows.items():
            an.fn = an.scopes.function(kname)  # (g.rows is by key: fnscopes)
            an.cur = an.scopes.key(an.fn)
            for guard in guards:
                for side in (guard.node.child_by_field_name("left"), guard.node.child_by_field_name("right")):
                    if side is not None and side.type == "identifier":
                        an.confirm(an.ex(side), g.why, guard.node, kinds=(WS,))
    an.fn, an.cur = None, ""


def rows_follow_helpers(g, fs, module, names, helpers: list[Node]) -> None:
    """warpwidth, deciding a group: a group kept at 32 lanes by its kernels' row guards that calls a header's warp helper cannot
    stay at 32: the header is ported on its own, at the wave width (llm.c's `warpReduceSum` folds 64
    lanes, two rows of 32).  The kernel and its launches then move to rows of the wave together: the
    guard's constant becomes the wave width (a wave site) and launchrows rewrites the launches."""
    if g.width != warpwidth.LOGICAL or g.annotated or not helpers:
        return
    guards = {fnscopes.of(module).key(f): gs for f in fs
              if f.is_kernel and (gs := warpwidth.row_guards(f, module, names))}
    if not guards:
        return
    name = module.source.text_of(helpers[0].child_by_field_name("function"))
    g.width, g.rows, g.node = warpwidth.NATIVE, guards, helpers[0]
    g.why = (f"{next(iter(guards.values()))[0].source} ties rows to the warp and `{name}` (a header's warp "
             "helper, ported at the wave width) folds a whole wave: rows of the wave width, launches too")
