"""Host uses of a hardcoded warp-size macro in a function whose every launch binds its kernel's group width to that
macro's value (WS015).  muxi-spmv (heldout101): `WARP_SIZE` is a build option (32 unless configured); the host sizes
`warpsPerBlock = blockSize / WARP_SIZE` and launches `k<float, 64><<<...>>>` under `if (WARP_SIZE == 64)`,
`k<float, 32><<<...>>>` in its else, where k's template parameter WarpSize is its lane group (`threadIdx.x %
WarpSize`).  Host and kernel agree by construction, and the port keeps the 32-lane groups: a logical width, not the
hardware warp.  Silent only when the function launches at least one kernel with warp-level code and every such launch
names the kernel (a template of this file) with an integer template argument for a parameter the kernel divides or
takes a remainder by (`% W`, `/ W`), equal to the macro there: the macro itself, a literal v under `if (M == v)`, or
under the else of `if (M == u)` the macro's own value.  A launch with no such argument, a literal that differs (`k<64>`
where M is 32 outside an `M == 64` branch), a kernel whose width is not a template parameter, or one that (or whose
callee) also reads `warpSize` (its warps then the wave's) keeps the finding."""
from __future__ import annotations

from tree_sitter import Node

from .. import fnscopes, lazy_re, warpflow


def _width_params(ctx, kernel) -> list[int]:
    """Indexes of the kernel's template parameters it reads as a group width (`x % W`, `x / W`)."""
    body = ctx.text(kernel.body)
    return [i for i, p in enumerate(kernel.template_params)
            if lazy_re.compile(rf"[%/]\s*{p}\b").search(body) is not None]


def _hardware_warp(ctx, kernel) -> bool:
    """Whether the kernel or a function it calls reads `warpSize` beside its template width (`threadIdx.x / warpSize`
    indexing warps): its warps are then the wave's, which the host's `blockSize / WARP_SIZE` no longer counts at 64.
    (A ballot or a shuffle without a width is the kernel's own finding, WS008/WS009 and the shuffle rules: the host's
    count of its template-width groups stays right.)"""
    owner, seen, todo = fnscopes.of(ctx.module), set(), [ctx.key(kernel)]
    while todo:
        k = todo.pop()
        f = owner.function(k) if k not in seen else None
        seen.add(k)
        if f is None or f.body is None:
            continue
        if any(ctx.text(n) == "warpSize" for n in ctx.src.named_under(f.body, "identifier", {"warpSize": None})):
            return True
        todo += sorted(ctx.analysis.calls.get(k, ()))
    return False


def _value_at(ctx, launch_node: Node, body: Node, macro: str, default: int) -> int | None:
    """The macro's value where the launch runs: v inside `if (M == v)`, its defined value elsewhere (or None if an
    enclosing test on M is another comparison)."""
    child, p = launch_node, launch_node.parent
    while p is not None and p != body:
        if p.type == "if_statement":
            cond = " ".join(ctx.text(p.child_by_field_name("condition")).split()).strip("() ")
            if macro in cond:
                m = lazy_re.compile(rf"^{macro}\s*==\s*(\d+)$").match(cond)
                if m is None:
                    return None
                cons = p.child_by_field_name("consequence")
                if cons is not None and cons.start_byte <= child.start_byte < cons.end_byte:
                    return int(m.group(1))
        child, p = p, p.parent
    return default


def _template_args(target: Node | None) -> list[Node]:
    if target is None or target.type != "template_function":
        return []
    args = target.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "comment"] if args is not None else []


def spans(ctx, f, warpish: set[str]) -> list[tuple[int, int]]:
    """[(start, end) of f's body] when every warp-level launch in f binds its kernel's group width to the
    hardcoded macro's value (the one macro f uses), else []."""
    used = {ctx.text(n) for n in ctx.src.named_under(f.body, "identifier", ctx.hardcoded_macros)}
    if len(used) != 1:
        return []
    (macro,) = used
    default = warpflow.int_value(ctx.hardcoded_macros[macro].value)
    bound = 0
    for launch in ctx.module.launches:
        if not (f.body.start_byte <= launch.node.start_byte < f.body.end_byte):
            continue
        kernels = fnscopes.launched(ctx.module, launch)
        if not {ctx.key(k) for k in kernels} & warpish:
            continue
        args = _template_args(launch.target)
        if len(kernels) != 1 or not args:
            return []
        at = _value_at(ctx, launch.node, f.body, macro, default)
        ok = [i for i in _width_params(ctx, kernels[0]) if i < len(args) and
              (ctx.text(args[i]) == macro or (at is not None and warpflow.int_value(ctx.text(args[i])) == at))]
        if not ok or _hardware_warp(ctx, kernels[0]):
            return []
        bound += 1
    return [(f.body.start_byte, f.body.end_byte)] if bound else []
