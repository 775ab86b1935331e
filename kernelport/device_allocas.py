"""Constant-size `alloca` in device code, held as a local array where the target's compiler crashes on alloca.

evogp (heldout46) keeps its interpreters' stacks as `float *stack = (float *)alloca(MAX_STACK * sizeof(float));`
in device functions (`constexpr auto MAX_STACK = 1024` in a header).  nvcc takes it; clang 15 (ROCm 5.2's
hipcc) crashes in the AMDGPU backend at -O3 (an alloca in the default address space: the llvm/llvm-project#59250
class), so the port, right as written, does not compile.  Where the backend says its compiler crashes so
(`Backend.device_alloca_crash`, data) the port holds the memory as a local array instead:

    alignas(16) alignas(float) float kp_stack_storage[MAX_STACK]; float *stack = kp_stack_storage;

The same memory: `N * sizeof(T)` bytes as N elements of T; at the function's body where the declaration
stands in an inner block, so it lives until the function returns, as alloca's does; aligned as CUDA aligns
alloca's memory (16 bytes, the CUDA C++ Programming Guide's alloca section) and as T needs.  Only where
that is proved: a declaration of one pointer to T initialised by `(T *)alloca(size)` (or alloca alone),
`size` a product of `sizeof(T)` and integers the unit's definitions decide (literals, macros of one value,
file-scope `const`/`constexpr` constants: kernelport.arch_branches.known_values, kernelport.headerconsts),
in a device function, outside any loop, in a function with no `goto` (a jump back would call alloca again:
fresh memory each time, where one array is the same memory).  Elsewhere in device code the alloca stays and
a warning (KP238) names the reason and the toolchain's bug.  Host code is never touched."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import arch_branches, backends, headerconsts
from .cexpr import CExprError, evaluate
from .diagnostics import Diagnostic
from .warpsites import int_value

_ALLOCA = frozenset({"alloca", "__builtin_alloca"})
ALIGNMENT = 16  # CUDA's alloca: "the allocated memory is aligned to 16 bytes"
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})
_BYTES = frozenset({"char", "signed char", "unsigned char", "int8_t", "uint8_t", "std::int8_t", "std::uint8_t"})
HINT = "give it a size of literals, constants or macros and move it out of loops, or declare a local array"


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    crash = backends.get(tr.backend).device_alloca_crash
    if crash is None or b"alloca" not in tr.src.data:
        return
    for call in tr.src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier" or tr.src.text_of(fn) not in _ALLOCA:
            continue
        f = tr.module.function_at(call)
        if f is None or not f.is_device or f.body is None:
            continue  # host code: alloca is the host compiler's
        got = _plan(tr, call, f)
        if isinstance(got, str):
            tr.port.diagnostics.append(Diagnostic("KP238", tr.src.loc(call), f"`alloca` in device code is kept: {got}; "
                                                  f"{crash}", HINT, "warning"))
            continue
        decl, value, elem, count, name = got
        storage = _fresh(tr, f"kp_{name}_storage")
        array = f"alignas({ALIGNMENT}) alignas({elem}) {elem} {storage}[{count}]; "
        tr.rw.replace(value, storage)
        if decl.parent is not None and decl.parent.id == f.body.id:
            tr.rw.insert_before(decl, array)
        else:  # in an inner block: the array at the function's body, where alloca's memory lives
            tr.rw.insert_before(next(c for c in f.body.children if c.type != "{"), array)
        tr.note(value, storage, f"a local array of {count} `{elem}` for alloca's constant size: {crash}")


def _plan(tr, call: Node, f):
    """(declaration, value node, element type, count text, name), or why not (a sentence)."""
    src = tr.src
    value, up = call, call.parent
    while up is not None and up.type == "parenthesized_expression":
        value, up = up, up.parent
    cast = None
    if up is not None and up.type == "cast_expression":
        cast, value, up = up, up, up.parent
    if up is None or up.type != "init_declarator" or up.child_by_field_name("value") != value:
        return "it does not initialise a declared pointer"
    decl = up.parent
    declarator = up.child_by_field_name("declarator")
    if decl is None or decl.type != "declaration" or declarator is None or declarator.type != "pointer_declarator" \
            or len(decl.children_by_field_name("declarator")) != 1:
        return "it does not initialise one pointer declared alone"
    inner = declarator.child_by_field_name("declarator")
    if inner is None or inner.type != "identifier":
        return "it does not initialise one pointer declared alone"
    type_node = decl.child_by_field_name("type")
    elem = _norm(src.text_of(type_node)) if type_node is not None else ""
    if cast is not None and _norm(src.text_of(cast.child_by_field_name("type"))) not in (f"{elem} *", f"{elem}*"):
        return f"it is cast to another type than the declared `{elem} *`"
    if any(c.type in ("type_qualifier", "storage_class_specifier") for c in decl.children):
        return "its declaration is qualified"
    arglist = call.child_by_field_name("arguments")
    args = [a for a in arglist.named_children if a.type != "comment"] if arglist is not None else []
    if len(args) != 1:
        return "it does not take one size"
    count = _count(tr, args[0], elem)
    if isinstance(count, str):
        return count
    count = count[0]
    a = decl.parent
    while a is not None and a.id != f.body.id:
        if a.type in _LOOPS:
            return "it is in a loop (each pass takes new memory, which one array is not)"
        if a.type == "lambda_expression":
            return "it is in a lambda"
        a = a.parent
    if src.index.under(f.body, "goto_statement"):
        return "its function holds a `goto` (a jump back would take new memory, which one array is not)"
    return decl, value, elem, count, src.text_of(inner)


def _count(tr, size: Node, elem: str):
    """[the element count's text] where `size` is `N * sizeof(elem)` with N proved constant (or N bytes of a byte
    type), else why not."""
    factors = _factors(size)
    sizes = [k for k, n in enumerate(factors) if n.type == "sizeof_expression" and _norm(_sizeof_text(tr, n)) == elem]
    if len(sizes) > 1 or not sizes and elem not in _BYTES:
        return f"its size is not a count of `sizeof({elem})` as written"
    rest = [tr.src.text_of(n) for k, n in enumerate(factors) if k not in sizes]
    known = known_constants(tr)
    for text in rest:
        names = set(re.findall(r"[A-Za-z_]\w*", text))
        if "sizeof" in names or not names <= set(known):
            return f"its size `{tr.src.text_of(size)}` is not proved constant (literals, constants, macros of one value)"
        try:
            v = evaluate(text, {n: known[n] for n in names})
        except (CExprError, ValueError, TypeError, ZeroDivisionError):
            return f"its size `{tr.src.text_of(size)}` is not proved constant"
        if not isinstance(v, int) or v <= 0:
            return f"its size `{tr.src.text_of(size)}` is not a positive integer"
    return [" * ".join(rest) or "1"]


def _factors(node: Node) -> list[Node]:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "binary_expression" and node.child_by_field_name("operator").type == "*":
        return _factors(node.child_by_field_name("left")) + _factors(node.child_by_field_name("right"))
    return [node]


def _sizeof_text(tr, node: Node) -> str:
    """`T` of `sizeof(T)`; the grammar reads `sizeof(GPNode)` of a name it does not know as a type as `sizeof (GPNode)`."""
    t = node.child_by_field_name("type") or node.child_by_field_name("value")
    text = tr.src.text_of(t) if t is not None else ""
    return text[1:-1] if t is not None and t.type == "parenthesized_expression" else text


def known_constants(tr) -> dict[str, int]:
    """The integer values the unit decides by name: one-value macros and file-scope constants (also private_memory's)."""
    got = tr.__dict__.get("_kp_alloca_known")
    if got is None:
        got = dict(arch_branches.known_values(tr))
        for s in arch_branches.unit_sources(tr):
            for name, c in headerconsts.constants(s).items():
                v = int_value(c.value)
                if v is not None:
                    got.setdefault(name, v)
        tr.__dict__["_kp_alloca_known"] = got
    return got


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _fresh(tr, name: str) -> str:
    out, k = name, 1
    while re.search(rb"\b" + out.encode() + rb"\b", tr.src.data) or out in tr.__dict__.setdefault("_kp_alloca_names", set()):
        k += 1
        out = f"{name}{k}"
    tr.__dict__["_kp_alloca_names"].add(out)
    return out
