"""Where nvcc's and clang's C++ front ends part: text the port must respell for hipcc."""
from __future__ import annotations

from tree_sitter import Node

from . import asm_operand_commas, dialect
from .macros import FUNCTIONAL_CAST, REFERENCE_QUALIFIER
from .qualified_statics import qualified_statics
from .typeof_casts import typeof_macro_words, typeof_nodes, typeof_words

# The C library's variadic functions device code can call (CUDA's device printf).
DEVICE_VARIADIC = ("printf",)
INDEX_BUILTINS = ("thread_idx", "block_idx", "block_dim", "grid_dim")


def glued_literals(order: list[Node], src) -> list[Node]:
    """String literals followed at once by an identifier (`extern "C"__global__`): nvcc's
    preprocessor reads two tokens, clang one user-defined literal (`"C"__global__`), an error."""
    out = []
    for n in order:
        if n.type == "string_literal" and n.parent is not None and n.parent.type == "linkage_specification":
            nxt = src.data[n.end_byte:n.end_byte + 1]
            if nxt.isalpha() or nxt == b"_":
                out.append(n)
    return out


def braced_launch_configs(module) -> list[Node]:
    """Launch-configuration values written as a braced list (`<<<g, {32, 4, 1}, 0, s>>>`): nvcc
    list-initialises the dim3, clang wants an expression (`dim3{32, 4, 1}`, valid CUDA too)."""
    return [c for ln in module.launches for c in ln.config if module.source.text_of(c).startswith("{")]


def spaced_launch_brackets(order: list[Node], src) -> list[Node]:
    """A launch's `<<<` or `>>>` written with spaces inside (`k << <g, b >> > (x)`): nvcc's lexer
    reads the chevrons either way, clang's only as one token (`<< <` is a shift and a less-than)."""
    return [n for n in order if n.type in ("<<<", ">>>") and src.text_of(n) != n.type]


def functional_casts(src) -> list[tuple[Node, str]]:
    """Functional casts whose type is several words, `unsigned int(v >> 24)` (nvcc's EDG takes them,
    clang and C++ do not; the parse saw each as a C-style cast, grammar_gaps.functional_cast), with
    the type as written (blanks collapsed): the port spells each `((unsigned int)(v >> 24))`."""
    types = {m.start: " ".join(src.data[m.start:m.end].decode("utf-8", "replace").split())
             for m in src.masks if m.name == FUNCTIONAL_CAST and m.reason == "grammar"}
    return [(n, types[n.start_byte]) for n in src.index.of_type("cast_expression") if n.start_byte in types] \
        if types else []


def end_labels(src) -> list[Node]:
    """The empty statements the parse saw after a label that ends its block (`end:` before `}`,
    grammar_gaps): C++23 and nvcc take the label alone, clang before 16 does not ("expected
    statement"); the port writes the `;`."""
    at = {m.start for m in src.masks if m.name == "label;" and m.reason == "grammar"}
    return [n for n in src.index.of_type("expression_statement") if n.start_byte in at] if at else []


def index_varargs(module) -> list[Node]:
    """`threadIdx.x` (parenthesised or not) as a variadic argument of a device printf, past its format."""
    out = []
    for use in module.uses:
        member = use.node.parent
        if use.concept.key not in INDEX_BUILTINS or member is None or member.type != "field_expression" or \
                member.child_by_field_name("argument") != use.node:
            continue
        arg = member
        while arg.parent is not None and arg.parent.type == "parenthesized_expression":
            arg = arg.parent
        call = arg.parent.parent if arg.parent is not None and arg.parent.type == "argument_list" else None
        fn = call.child_by_field_name("function") if call is not None else None
        if fn is not None and module.source.text_of(fn) in DEVICE_VARIADIC and arg.parent.named_children[0] != arg:
            out.append(member)
    return out


def bare_returns_of_main(src) -> list[Node]:
    """`return;` in `int main`: nvcc's front end compiles it as `return 0;` (cudafe writes exactly
    that), clang rejects it ("non-void function 'main' should return a value").  A lambda's return
    inside main is the lambda's own, and in any other function nvcc's host compiler rejects it too."""
    out = []
    for n in src.index.of_type("return_statement"):
        if n.named_child_count:
            continue
        fn = n.parent
        while fn is not None and fn.type not in ("function_definition", "lambda_expression"):
            fn = fn.parent
        if fn is None or fn.type != "function_definition" or fn.parent is None or \
                fn.parent.type != "translation_unit":
            continue
        decl, ty = fn.child_by_field_name("declarator"), fn.child_by_field_name("type")
        name = decl.child_by_field_name("declarator") if decl is not None and decl.type == "function_declarator" else None
        if name is not None and src.text_of(name) == "main" and (ty is None or src.text_of(ty) != "void"):  # (None: implicit int)
            out.append(n)
    return out


def implicit_int_mains(src) -> list[Node]:
    """The declarator of a file-scope `main(void) { ... }` written without a return type: g++ (nvcc's
    host compiler) takes C's implicit int for `main` alone, with a warning; clang rejects it ("a type
    specifier is required for all declarations").  The port writes `int ` before it.  Any other
    function without a type (a constructor `S::S()`, `foo(void)`, which g++ rejects too) is left alone."""
    out = []
    for fn in src.index.of_type("function_definition"):
        decl = fn.child_by_field_name("declarator")
        if fn.child_by_field_name("type") is not None or fn.parent is None or fn.parent.type != "translation_unit" \
                or decl is None or decl.type != "function_declarator":
            continue
        name = decl.child_by_field_name("declarator")
        if name is not None and name.type == "identifier" and src.text_of(name) == "main":
            out.append(decl)
    return out


def respell_for_clang(src, module, rw, backend: str) -> None:
    """The edits that make text nvcc accepts acceptable to clang (hipcc), meaning unchanged."""
    cast = dialect.concept("index_vararg")
    if cast.spelling(backend) is not None:
        for member in index_varargs(module):
            rw.replace(member, lambda rw, node: dialect.render(cast, backend, {"x": rw.stitch(node)}))
    for lit in glued_literals(src.index.order, src):
        rw.replace(lit, src.text_of(lit) + " ")
    for value in braced_launch_configs(module):
        rw.insert_before(value, "dim3")
    for cast, ty in functional_casts(src):
        rw.replace(cast, lambda rw, node, ty=ty: f"(({ty}){rw.stitch(node.child_by_field_name('value'))})")
    for chevrons in spaced_launch_brackets(src.index.order, src):
        rw.replace(chevrons, chevrons.type)
    for comma in asm_operand_commas.commas_to_write(src):  # `: "r"(b) "r"(c)`, two operands to nvcc
        rw.insert_before(comma, ",")
    for ret in bare_returns_of_main(src):
        rw.replace(ret, "return 0;")
    for decl in implicit_int_mains(src):
        rw.insert_before(decl, "int ")
    for empty in end_labels(src):
        rw.replace(empty, ";")
    for m in src.masks:  # `const T& const C::get()`: the qualifier nvcc ignores and clang rejects (grammar_gaps)
        if m.name == REFERENCE_QUALIFIER and m.reason == "grammar":
            rw.drop_span(m.start, m.end)
    for s, e in typeof_words(src.masks) + typeof_macro_words(src):  # GNU `typeof`, which clang takes in GNU
        rw.drop_span(s, e, "__typeof__")  # modes only (typeof_casts), a cast's or sizeof's, a macro value's
    for word in typeof_nodes(src.index.order, src.data):
        rw.replace(word, "__typeof__")
    for keyword in qualified_statics(src):  # `static T* F::make(...) {` after F's non-static declaration
        rw.replace(keyword, "")
