"""WS: warp-size assumptions, the family's shared part: which rule a wave-width site belongs to.

Sites come from the warp-size dataflow (`kernelport.warpflow`): a literal is reported only when its
value reaches a warp-level use, so tiles, bitsets and register loops stay silent.  Most WS rules are
errors when a wave-64 target (hip-cdna) is configured, warnings when only wave-32-or-unknown targets
are, and off for an NVIDIA-only project.  The rules live in `ws_*.py` by what they look at.
"""
from __future__ import annotations


from tree_sitter import Node

from .. import maskhelpers, widthguards
from ..finding import Related
from ..rule import Rule
from ...warpsites import LANE_HELPER_NAME
from ... import lazy_re

_REL = ("==", "!=", "<", "<=", ">", ">=")
_LANE_ARRAY = lazy_re.compile(r"indexes the per-warp shared array '(\w+)'")


def _parent_op(node: Node) -> str | None:
    p = node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is not None and p.type == "binary_expression":
        op = p.child_by_field_name("operator")
        return op.text.decode() if op is not None else None
    return None


def _expr_text(ctx, node: Node, limit: int = 48) -> str:
    p = node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    n = p if p is not None and p.type == "binary_expression" else node
    if p is not None and p.type == "argument_list" and p.parent is not None:
        n = p.parent
    t = " ".join(ctx.text(n).split())
    return t if len(t) <= limit else t[:limit - 3] + "..."


def _in_loop_initializer(node: Node) -> bool:
    p = node
    while p is not None and p.type not in ("for_statement", "compound_statement", "function_definition"):
        if p.parent is not None and p.parent.type == "for_statement" and \
                p.parent.child_by_field_name("initializer") is not None and \
                (p.parent.child_by_field_name("initializer").start_byte, p.parent.child_by_field_name("initializer").end_byte) == (p.start_byte, p.end_byte):
            return True
        p = p.parent
    return False


def _file_scope_init(node: Node) -> bool:
    p = node.parent
    if p is None or p.type != "init_declarator":
        return False
    d = p.parent
    return d is not None and d.type == "declaration" and d.parent is not None and d.parent.type in (
        "translation_unit", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif")


def _shared_dim(ctx, node: Node) -> str | None:
    """The shared array whose size `node` is, if any."""
    p = node.parent
    if p is None or p.type != "array_declarator" or p.child_by_field_name("size") is None:
        return None
    if (p.child_by_field_name("size").start_byte, p.child_by_field_name("size").end_byte) != (node.start_byte, node.end_byte):
        return None
    dims = ctx.__dict__.get("_ws_shared_dims")
    if dims is None:  # one table per file: a scan of every shared array per site was quadratic
        dims = ctx.__dict__["_ws_shared_dims"] = {}
        for sh in ctx.module.shared:
            for d in sh.dims:
                dims.setdefault((d.start_byte, d.end_byte), sh.name)
    return dims.get((node.start_byte, node.end_byte))


def classify(ctx, s) -> str:
    n, role = s.node, s.role
    op = _parent_op(n)
    if role in ("ws_macro", "ws_m1_macro", "ws_macro_use"):
        return "WS001"
    if role in ("lane_macro_use", "warp_macro_use"):
        return "WS002" if role == "lane_macro_use" else "WS003"
    if role in ("type32", "arg32"):
        return "WS008"
    if role == "bitop64":
        return "WS009"
    if role == "one":
        return "WS010"
    if role == "ladder":
        return "WS004"
    if role == "five":
        return "WS003"
    if role == "half":
        return "WS004" if s.why == "bounds a shuffle ladder" or _in_loop_initializer(n) else "WS017"
    if role == "ws":
        if _file_scope_init(n):
            return "WS001"
        if _shared_dim(ctx, n):
            return "WS011"
        if s.why == "bounds a shuffle ladder":
            return "WS005"
        if ctx.code_context(n) == "host":
            return "WS015"
        if op == "%":
            return "WS002"
        if op == "/":
            return "WS003"
        return "WS017"
    if role in ("ws_m1",):
        if op == "&":
            return "WS002"
        if op == "+":
            return "WS003"
        if op in _REL or s.why == "the last lane of a warp":
            return "WS006"
        return "WS017"
    return "WS017"


def holds_at_64(ctx, s, code: str = "WS011") -> bool:
    """A per-warp array (a WS011 site) the dataflow sized by the wave whose every index is a warp index or a
    bounded lane (laneslots.wave_sized_slots): its 32 slots hold at 64 as written, no finding of WS011's,
    and not the hardcoded wave width WS016 names either."""
    if code != "WS011":
        return False
    from ...laneslots import wave_sized_slots
    name = _shared_dim(ctx, s.node)
    f = ctx.module.function_at(s.node)
    return f is not None and f.body is not None and bool(name) and wave_sized_slots(ctx.src, f.body, name)


def site_codes(ctx) -> list[tuple[object, str]]:
    cached = ctx.__dict__.get("_ws_sites")
    if cached is None:
        cached = [(s, classify(ctx, s)) for s in ctx.sites]
        ctx.__dict__["_ws_sites"] = cached
    return cached


# warpflow analyses such a helper for these sites even where no sink reaches it; a warp count's helper
# (hypre's `hypre_cuda_get_num_warps()`: `>> 5`) is named for what it computes too
_LANE_FN = lazy_re.compile(LANE_HELPER_NAME.pattern + r"|(^|_)(get_?)?(num_?warps|warp_?count|n_?warps)$")


def named_helper_sites(ctx):
    """Sites in the return value of a helper named for what it computes (`lane_id()`, `warp_id()`).

    The name is the warp-level use: such a helper is usually called from other files, where the
    dataflow cannot follow it.
    """
    out = []
    confirmed = {(s.node.start_byte, s.role) for s in ctx.analysis.sites if s.confirmed}
    for s in ctx.analysis.sites:
        if s.confirmed or (s.node.start_byte, s.role) in confirmed or s.function is None:
            continue
        f = ctx.function_of(s.function)
        if f is None or not f.is_device or not _LANE_FN.search(f.name.split("::")[-1]):
            continue
        p = s.node.parent
        while p is not None and p.type not in ("return_statement", "function_definition"):
            p = p.parent
        if p is None or p.type != "return_statement" or ctx.guarded(s.node):
            continue
        op = _parent_op(s.node)
        if (s.role == "ws_m1" and op == "&") or (s.role == "ws" and op in ("%", "/")) or (s.role == "five" and op == ">>"):
            s2 = type(s)(s.id, s.node, s.role, s.function, True, f"is returned by `{f.name}()`", None)
            out.append((s2, "WS002" if op in ("&", "%") else "WS003"))
    return out


def site_fix(ctx, s):
    """The site's `--fix` edit, deferred: `ctx.report` computes it only for a finding it keeps with a fix
    (not one it drops, nor 32-lane rows it turns into advice), so a report whose fixes would all come out
    None never imports kernelport.lint.fix and the translator."""
    def compute():
        from ..fix import site_fix as fix
        return fix(ctx, s)
    return compute


class SiteRule(Rule):
    """A rule that reports confirmed wave-width sites of one kind."""

    def check(self, ctx) -> None:
        done = set()
        for s, code in site_codes(ctx) + named_helper_sites(ctx):
            if code == self.code and not self.quiet(ctx, s):
                related = (Related(*s.origin, "the 32-bit parameter, declared here", "site"),) if s.origin else ()
                advice = self.advice(ctx, s)  # a 32 the rule's kind proves right at 64 beside a hazard reported apart
                if advice is not None:
                    ctx.report(self, s.node, advice, severity="info", related=related)
                else:
                    ctx.report(self, s.node, self.message(ctx, s),
                               fix=site_fix(ctx, s) if self.fixable and self.offers_fix(ctx, s) else None, related=related)
                done.add((s.node.start_byte, s.node.end_byte))
        for code, node, message in maskhelpers.sites(ctx):  # helpers that return a lane mask (WS008, WS010)
            if code == self.code and not any(a < node.end_byte and node.start_byte < b for a, b in done):
                ctx.report(self, node, message)

    def quiet(self, ctx, s) -> bool:
        """A site the rule's kind proves harmless (WS010: a shift count below 32 by construction)."""
        return False

    def offers_fix(self, ctx, s) -> bool:
        """Whether `--fix` may rewrite the site: not where the finding's own advice is to keep it."""
        return True

    def advice(self, ctx, s) -> str | None:
        """The message of a site reported as advice (info, no fix), else None (WS002: a bitmask word's writer)."""
        return None

    def message(self, ctx, s) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


def _has_wide_step(ctx, lit: Node) -> bool:
    """An unrolled ladder whose statement is already preceded by its `if (warpSize > 32)` step."""
    stmt = lit
    while stmt is not None and stmt.type != "expression_statement":
        stmt = stmt.parent
    prev = stmt.prev_named_sibling if stmt is not None else None
    while prev is not None and prev.type == "comment":
        prev = prev.prev_named_sibling
    if prev is not None and prev.type == "if_statement" and ctx._WIDE.search(ctx.text(prev)) is not None:
        return True
    return _wide_step_branch_after(ctx, stmt) or widthguards.guarded_wide_step_before(lit)


def _wide_step_branch_after(ctx, stmt: Node | None) -> bool:
    """The ladder's step at 16 is followed (the step's own `if (lane >= 16)` between) by the project's wave
    branch compiled only at 64 that takes the step at 32 (`#if WS == 64  v += __shfl_xor(v, 32);  #endif`):
    an xor butterfly or an up-scan in any order of steps, complete at 64 (kernelport/wavebranches.py)."""
    nxt = stmt.next_named_sibling if stmt is not None else None
    for _ in range(3):
        while nxt is not None and nxt.type == "comment":
            nxt = nxt.next_named_sibling
        if nxt is None or nxt.type == "preproc_if":
            break
        nxt = nxt.next_named_sibling
    if nxt is None or nxt.type != "preproc_if":
        return False
    body = [c for c in nxt.named_children if c.type not in ("preproc_else", "preproc_elif") and
            c != nxt.child_by_field_name("condition")]
    b = ctx.wave_branch(body[0]) if body else None
    return b is not None and b.directive == nxt and b.width == 64 and \
        any(_STEP_32.search(ctx.text(c)) for c in body)


_STEP_32 = lazy_re.compile(r"shfl\w*\s*\([^;]*,\s*32\s*(?:,[^;]*)?\)")


def _why(s) -> str:
    w = s.why or ""
    if w.startswith(("reaches", "indexes", "bounds", "shifts", "sizes", "is returned")):
        return f" (it {w})"
    if w.startswith(("combined", "compared")):
        return f" (it is {w})"
    if w.startswith("leader"):
        return f" (it feeds a {w})"
    return ""
