"""A collective's reduction operator whose `operator()` takes its operands as non-const lvalue
references (fastjet_gpu's `Dist operator()(Dist &first, Dist &second)` for cub::BlockReduce::Reduce):
CUB calls it on lvalues, but where the backend says the target's collectives pass temporaries
(hipCUB over rocPRIM: its DPP warp reduction calls `reduce_op(warp_move_dpp(output), output)`), no
call matches and hipcc refuses the port.  Where the operator writes none of them (no assignment,
increment, address taken, member call or bare use as a call argument: a read that copies or reads a
member), taking it as `const T&` binds the same objects and lets a temporary bind too; the port says
so (a note).  An operator that may write one of them is left as written (the compiler's error stands)."""
from __future__ import annotations

from . import backends

# CUB's collectives and algorithms that take a binary reduction / scan operator (source-side names).
_TAKES_OPERATOR = frozenset({"Reduce", "InclusiveScan", "ExclusiveScan", "ReduceByKey", "ScanByKey",
                             "InclusiveScanByKey", "ExclusiveScanByKey", "TileReduce"})
_WRITES = ("assignment_expression", "update_expression", "pointer_expression")


def _operator_names(src) -> set[str]:
    """Names of the functor types passed as `Name()` / `Name{}` to a call of one of _TAKES_OPERATOR."""
    out = set()
    for call in src.index.of_types("call_expression"):
        f = call.child_by_field_name("function")
        member = f.child_by_field_name("field") if f is not None and f.type == "field_expression" else \
            f.child_by_field_name("name") if f is not None and f.type == "qualified_identifier" else None
        if member is None or src.text_of(member) not in _TAKES_OPERATOR:
            continue
        for a in call.child_by_field_name("arguments").named_children:
            head = a.child_by_field_name("function") if a.type == "call_expression" else \
                a.child_by_field_name("type") if a.type == "compound_literal_expression" else None
            if head is not None and head.type in ("identifier", "type_identifier") and \
                    not a.child_by_field_name("arguments" if a.type == "call_expression" else "value").named_children:
                out.add(src.text_of(head))
    return out


def _written(src, body, name: str) -> bool:
    """Whether `body` may write the object `name` refers to (conservative: any use but a read)."""
    for ident in src.index.under_types(body, "identifier"):
        if src.text_of(ident) != name:
            continue
        up, child = ident.parent, ident
        while up is not None and up.type in ("field_expression", "subscript_expression", "parenthesized_expression") \
                and up.child_by_field_name("argument") == child:
            up, child = up.parent, up
        if up is None:
            continue
        if up.type in _WRITES and (up.type != "assignment_expression" or up.child_by_field_name("left") == child):
            return True
        if up.type == "argument_list" or up.type == "call_expression" and up.child_by_field_name("function") == child:
            return True
    return False


def rewrite_pass(t) -> None:
    """`T &x` -> `const T &x` in the operator() of each reduction functor that never writes x."""
    if not backends.get(t.backend).reduce_operands_are_temporaries:
        return
    src = t.src
    names = _operator_names(src)
    if not names:
        return
    from .translate import Note
    for spec in src.index.of_types("struct_specifier", "class_specifier"):
        tname, body = spec.child_by_field_name("name"), spec.child_by_field_name("body")
        if tname is None or body is None or src.text_of(tname) not in names:
            continue
        for fn in body.named_children:
            decl = fn.child_by_field_name("declarator") if fn.type == "function_definition" else None
            if decl is None or decl.type != "function_declarator" or \
                    src.text_of(decl.child_by_field_name("declarator")).replace(" ", "") != "operator()":
                continue
            refs = []
            for p in decl.child_by_field_name("parameters").named_children:
                ref = p.child_by_field_name("declarator") if p.type == "parameter_declaration" else None
                if ref is None or ref.type != "reference_declarator" or src.text_of(ref).lstrip().startswith("&&") or \
                        any(c.type == "type_qualifier" and src.text_of(c) == "const" for c in p.children):
                    continue
                ident = next((c for c in ref.named_children if c.type == "identifier"), None)
                refs.append(p if ident is not None and not _written(src, fn.child_by_field_name("body"),
                                                                      src.text_of(ident)) else None)
            if not refs or None in refs:
                continue  # one operand it may write: no temporary can bind to it, so nothing is gained
            for p in refs:
                t.rw.insert_before(p, "const ")
                t.port.notes.append(Note(src.loc(p), src.text_of(p), f"const {src.text_of(p)}",
                                         "the target's collectives pass the reduction operator temporaries",
                                         category="reduce-operand"))
