"""A Thrust vector built from a braced list, built from a `std::vector` where the target's Thrust has no
`std::initializer_list` constructor.

cuinterval's tests_loop.cu (heldout53) writes `thrust::device_vector<I> d_pi { sum_rcp, sum_pow, sum_inv };`.  CUDA's
Thrust takes the list as the elements; rocThrust has that constructor only from ROCm 6.2 (git tags rocm-6.1.0 and
older: none in thrust/device_vector.h), so hipcc with rocThrust 5.3.3 refuses three elements ("no matching
constructor"), and worse takes one or two: `device_vector<int> v{5}` is five zeros there (the explicit size
constructor, which list-initialisation may call), `v{n, x}` n copies of x: a port silently wrong.  Where the
backend says its Thrust may lack it (`Backend.vector_list_constructors`, data: the class names) the port writes
the list as a `std::vector` of the vector's element type, which every Thrust vector is built from (the same
elements, in order, in every version):

    thrust::device_vector<I> d_pi(std::vector<I>{ sum_rcp, sum_pow, sum_inv });
    thrust::host_vector<float> h = std::vector<float>{1.f};          (from `= {1.f}`)
    auto v = thrust::device_vector<int>(std::vector<int>{5});        (from `thrust::device_vector<int>{5}`)

Only where the type is written as `thrust::NAME<T...>` (or `NAME<T...>` unqualified) with its element type `T` as its
first template argument, and the list holds at least one element (`{}` is the default constructor everywhere).
A vector type reached through an alias is not recognised (its list is kept as written)."""
from __future__ import annotations

from tree_sitter import Node

from . import backends


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    names = backends.get(tr.backend).vector_list_constructors
    if not names or not any(n.encode() in tr.src.data for n in names):
        return
    src = tr.src
    for lst in src.index.of_type("initializer_list"):
        p = lst.parent
        if p is None or not lst.named_children or lst.named_children[0].type == "comment" and len(lst.named_children) == 1:
            continue
        if p.type == "init_declarator" and p.child_by_field_name("value") == lst and p.parent is not None \
                and p.parent.type == "declaration":
            vec, copy = p.parent.child_by_field_name("type"), any(c.type == "=" for c in p.children)
        elif p.type == "compound_literal_expression" and p.child_by_field_name("value") == lst:
            vec, copy = p.child_by_field_name("type"), False
        else:
            continue
        elem = _element(src, vec, names)
        if elem is None:
            continue
        text = f"std::vector<{elem}>{src.text_of(lst)}"
        tr.rw.replace(lst, text if copy else f"({text})")
        tr.note(lst, text if copy else f"({text})", f"{names[_name(src, vec)]}: the list is the elements as a "
                "std::vector, which every Thrust vector is built from")


def _name(src, vec: Node) -> str:
    t = vec.child_by_field_name("name") if vec.type == "qualified_identifier" else vec
    while t is not None and t.type == "qualified_identifier":
        t = t.child_by_field_name("name")
    return src.text_of(t.child_by_field_name("name")) if t is not None and t.type == "template_type" else ""


def _element(src, vec: Node | None, names) -> str | None:
    """The first template argument of `thrust::NAME<T, ...>` / `NAME<T, ...>` with NAME one of `names`."""
    if vec is None:
        return None
    if vec.type == "qualified_identifier":
        scope = vec.child_by_field_name("scope")
        if scope is None or src.text_of(scope) != "thrust":
            return None
        vec = vec.child_by_field_name("name")
    if vec is None or vec.type != "template_type" or _name(src, vec) not in names:
        return None
    args = vec.child_by_field_name("arguments")
    items = [a for a in (args.named_children if args is not None else ()) if a.type != "comment"]
    return " ".join(src.text_of(items[0]).split()) if items else None
