"""Early exits and the threads they take away from later code (kernelport.lint.divergence): a
thread-dependent break/continue/return in a loop (its trip count diverges), and an early `return`
whose block returns every thread anyway (it takes none away from what follows the block)."""
from __future__ import annotations

from tree_sitter import Node

from ..source import walk
from .tags import UNIFORM, WARP

_LEAVES = ("break_statement", "continue_statement", "goto_statement", "throw_expression")


def divergent_exit_in_loop(an, loop: Node) -> bool:
    """A break/continue/return under a thread-dependent condition makes the trip count diverge
    (`an`: the divergence analysis walking the loop's function)."""
    body = loop.child_by_field_name("body")
    if body is None:
        return False

    def scan(n: Node, tag: int) -> bool:
        if n.type in ("for_statement", "while_statement", "do_statement", "lambda_expression"):
            # a nested loop's own break/continue stay inside it; a return still leaves ours
            return any(scan_ret(c, tag) for c in n.named_children)
        if n.type in ("break_statement", "continue_statement", "return_statement"):  # a continue skips
            return tag >= WARP and (n.type != "continue_statement" or _barrier_after(an, body, n))  # what follows
        if n.type == "if_statement":
            c = an.expr(n.child_by_field_name("condition"))
            return any(scan(ch, max(tag, c)) for ch in n.named_children)
        return any(scan(ch, tag) for ch in n.named_children)

    def scan_ret(n: Node, tag: int) -> bool:
        if n.type == "return_statement":
            return tag >= WARP
        if n.type == "if_statement":
            c = an.expr(n.child_by_field_name("condition"))
            return any(scan_ret(ch, max(tag, c)) for ch in n.named_children)
        return any(scan_ret(ch, tag) for ch in n.named_children)

    return scan(body, UNIFORM)


def _barrier_after(an, body: Node, n: Node) -> bool:
    """A barrier (or a helper with one) after n in body."""
    from .divergence import barrier_kind  # (divergence imports this module)
    return any(c.start_byte > n.end_byte and (barrier_kind(an.ctx, c) == "block" or (
        an._called(c) - {an._fkey(an.fn)}) & an.barrier_fns) for c in an.src.index.under(body, "call_expression")) or \
        any(c.start_byte > n.end_byte and barrier_kind(an.ctx, c) == "block" for c in an.macro_statements(body))


def returning_block_end(ret: Node) -> int | None:
    """The end of the innermost block around an early `return` that ends in an unconditional `return`
    of its own and holds no break/continue/goto/throw (mistralrs' mmq `if (!ids_dst) { ... if (i > i_max)
    return; ... return; }`): every thread that enters the block returns by its end, so this return takes
    no thread away from the code after the block (the block's own condition decides that, through its
    final return); None where no such block lies below the function body."""
    b = ret.parent
    while b is not None and b.type not in ("function_definition", "lambda_expression"):
        if b.type == "compound_statement" and b.parent is not None and \
                b.parent.type not in ("function_definition", "lambda_expression"):
            last = [c for c in b.named_children if c.type != "comment"]
            if last and last[-1].type == "return_statement" and last[-1].id != ret.id:
                return None if any(x.type in _LEAVES for x in walk(b)) else b.end_byte
        b = b.parent
    return None
