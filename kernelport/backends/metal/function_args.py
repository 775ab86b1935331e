"""Functions passed as template arguments: function objects, since MSL has no function pointers.

llm.c's `template<reduction_func_t warp_reduction> float blockReduce(float val)` (with `using
reduction_func_t = float (*)(float);`) is instantiated `blockReduce<warpReduceSum>(x)`: the template
parameter is a pointer to a device function, which Metal cannot spell.  Each argument is known where
the template is named, so the port makes the parameter a type (`template<typename warp_reduction>`),
passes a function object per function named (`blockReduce<kp_fn_warpReduceSum>`, a struct whose
operator() forwards to the function, written before the first function that names it), and calls it
as `warp_reduction{}(val)`.  The call is planned as a call of every function passed for that
parameter (address spaces, built-ins: the functions' extras are passed on, so they must need the
same ones).  A parameter passed on (`blockReduce<warp_reduction>(...)` in another such template) joins
the functions of both.  The function-pointer type goes from the port where only such parameters name it.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ...model import Function
from ...source import ident_name, walk

_POINTER_TO_FUNCTION = re.compile(r"\(\s*\*\s*\w*\s*\)\s*\(")  # `R (*)(A)`, `R (*name)(A)`
_FUNCTOR = "kp_fn_{name}"
# by value (a vector element, `bid.x`, binds no reference), or forwarded where the function takes a reference
_FUNCTOR_DEF = ("struct kp_fn_{name} {{ template <typename... A> decltype(auto) operator()(A... a) const "
                "{{ return {callee}(a...); }} }};\n")
_FORWARDING_FUNCTOR_DEF = ("struct kp_fn_{name} {{ template <typename... A> decltype(auto) operator()(A&&... a) const "
                           "{{ return {callee}(static_cast<A&&>(a)...); }} }};\n")


class FunctionArgs:
    """Mixin of MetalTranslator: template parameters that take a device function."""

    def template_head(self, f: Function) -> str:
        """`template <...>` of a template function as the port writes it (its parameters rewritten)."""
        tn, data = f.template_node, self.src.data
        plist = tn.child_by_field_name("parameters")
        if plist is None:
            return data[tn.start_byte:f.node.start_byte].decode("utf-8")
        # (the text after the parameters as the port spells it: a directive line there, `#ifdef __CUDACC__`)
        return data[tn.start_byte:plist.start_byte].decode("utf-8") + self.rw.text(plist) + \
            self.rw.span(tn, plist.end_byte, f.node.start_byte)

    def _fn_template_params(self) -> list[tuple[tuple[str, int], Node]]:
        """((template name, parameter index), the parameter's node) for each template parameter whose type
        is a pointer to a function (by a type alias, or written out); overloads share a key; cached."""
        got = self.__dict__.get("_kp_fn_params")
        if got is not None:
            return got
        got = self.__dict__["_kp_fn_params"] = []
        aliases = self._fn_pointer_aliases()
        for t in self.src.index.of_type("template_declaration"):
            plist = t.child_by_field_name("parameters")
            item = next((c for c in t.named_children if c.type in ("function_definition", "declaration")), None)
            fd = item.child_by_field_name("declarator") if item is not None else None
            while fd is not None and fd.type != "function_declarator":
                fd = fd.child_by_field_name("declarator")
            name = ident_name(fd.child_by_field_name("declarator")) if fd is not None else None
            if plist is None or not name:
                continue
            for i, p in enumerate(plist.named_children):
                ty = p.child_by_field_name("type")
                if p.type == "parameter_declaration" and ty is not None and \
                        (self.src.text_of(ty) in aliases or _POINTER_TO_FUNCTION.search(self.src.text_of(p))):
                    got.append(((name, i), p))
        return got

    def _fn_pointer_aliases(self) -> dict[str, Node]:
        """The file's function-pointer type names (`using F = float (*)(float);`, `typedef float (*F)(float);`)."""
        out = {}
        for n in self.src.index.of_types("alias_declaration", "type_definition"):
            text = self.src.text_of(n)
            if not _POINTER_TO_FUNCTION.search(text):
                continue
            name = n.child_by_field_name("name") if n.type == "alias_declaration" else None
            if n.type == "type_definition":
                d = n.child_by_field_name("declarator")
                name = next((c for c in walk(d) if c.type == "type_identifier"), None) if d is not None else None
            if name is not None:
                out[self.src.text_of(name)] = n
        return out

    def _fn_param_name(self, p: Node) -> str | None:
        d = p.child_by_field_name("declarator")  # `op`, or `(*op)(float)` written out
        name = next((c for c in walk(d) if c.type == "identifier"), None) if d is not None else None
        return self.src.text_of(name) if name is not None else None

    def _fn_arguments(self) -> dict:
        """(template name, index) -> the device functions passed there, with the argument nodes that pass
        them (a parameter passed on joins the functions of the parameter it is)."""
        got = self.__dict__.get("_kp_fn_args")
        if got is not None:
            return got
        params = {k for k, _ in self._fn_template_params()}
        got = self.__dict__["_kp_fn_args"] = {k: ([], []) for k in params}
        links = []
        for n in self.src.index.of_type("template_function"):
            name, args = n.child_by_field_name("name"), n.child_by_field_name("arguments")
            tname = self.src.text_of(name) if name is not None else ""
            for i, a in enumerate(args.named_children if args is not None else ()):
                if (tname, i) not in params:
                    continue
                text = self.src.text_of(a).lstrip("&").strip()
                outer = self._enclosing_fn_param(n, text)
                if outer is not None:
                    links.append(((tname, i), outer))
                elif text.split("::")[-1] in {h.name.split("::")[-1] for h in self.helpers.values()}:
                    got[(tname, i)][0].append(text)
                    got[(tname, i)][1].append(a)
        for _ in range(len(links)):  # a parameter passed on: both parameters take the functions of either
            for a, b in links:
                for x, y in ((a, b), (b, a)):
                    got[x][0].extend(fn for fn in got[y][0] if fn not in got[x][0])
        return got

    def _enclosing_fn_param(self, n: Node, text: str):
        """The (template, index) whose function parameter `text` names, where n is in that template."""
        p = n.parent
        while p is not None and p.type != "template_declaration":
            p = p.parent
        if p is None:
            return None
        return next((k for k, q in self._fn_template_params()
                     if q.parent is not None and q.parent.parent == p and self._fn_param_name(q) == text), None)

    def fn_param_callees(self, f: Function, fn: Node) -> list[Function]:
        """The device functions a call `op(x)` of f's function template parameter `op` may call."""
        if f.template_node is None:
            return []
        name = self.src.text_of(fn)
        for key, p in self._fn_template_params():
            if p.parent is not None and p.parent.parent == f.template_node and self._fn_param_name(p) == name:
                names = {x.split("::")[-1] for x in self._fn_arguments()[key][0]}
                return [h for h in self.helpers.values() if h.name.split("::")[-1] in names]
        return []

    def function_template_args(self) -> None:
        params = self._fn_template_params()
        if not params:
            return
        args = self._fn_arguments()
        for key, p in params:
            if not args[key][0]:
                continue  # no function is passed here in device code: left as written (the checker decides)
            pname = self._fn_param_name(p)
            if _POINTER_TO_FUNCTION.search(self.src.text_of(p)):
                self.rw.replace(p, f"typename {pname}")  # `float (*op)(float)` written out
            else:
                self.rw.replace(p.child_by_field_name("type"), "typename")  # (the alias's name: no use left)
            tmpl = p.parent.parent
            for c in walk(tmpl):
                fn = c.child_by_field_name("function") if c.type == "call_expression" else None
                if fn is not None and fn.type == "identifier" and self.src.text_of(fn) == pname:
                    self.rw.replace(fn, f"{pname}{{}}")
        for fns, nodes in args.values():
            for a in nodes:
                self.rw.replace(a, _FUNCTOR.format(name=self.src.text_of(a).lstrip("&").strip().replace("::", "_")))
        self._write_functors(args)
        used = {self.src.text_of(p.child_by_field_name("type")) for k, p in params if args[k][0]}
        for name, n in self._fn_pointer_aliases().items():
            if name in used and all(self._names_only_fn_params(u) for u in self.src.index.of_type("type_identifier")
                                    if self.src.text_of(u) == name and not (n.start_byte <= u.start_byte < n.end_byte)):
                self.rw.replace(n, f"/* {name}: a function pointer type; each template parameter of it is a "
                                   "function object's type in the Metal port (MSL has no function pointers) */")

    def _names_only_fn_params(self, u: Node) -> bool:
        return u.parent is not None and any(u.parent == p for _, p in self._fn_template_params())

    def _write_functors(self, args: dict) -> None:
        """One function object per function passed, before the first top-level item that names it."""
        first: dict[str, Node] = {}
        for fns, nodes in args.values():
            for text, a in zip(fns, nodes):
                if text not in first or a.start_byte < first[text].start_byte:
                    first[text] = a
        for text, a in sorted(first.items(), key=lambda kv: kv[1].start_byte):
            item = a
            while item.parent is not None and item.parent.type not in ("translation_unit", "declaration_list"):
                item = item.parent
            refs = any(h.name.split("::")[-1] == text.split("::")[-1] and any(self.is_reference(p) for p in h.params)
                       for h in self.helpers.values())  # (a const reference binds a copy as well)
            self.rw.insert_before(item, (_FORWARDING_FUNCTOR_DEF if refs else _FUNCTOR_DEF).format(
                name=text.replace("::", "_"), callee=text))

    def fn_argument_groups(self) -> list[set[str]]:
        """The names of the functions passed for each template function parameter (two or more)."""
        return [set(x.split("::")[-1] for x in fns) for fns, _ in self._fn_arguments().values()
                if len(set(fns)) > 1] if self._fn_template_params() else []

    def share_fn_extras(self, n: str) -> None:
        """Plan n (just worked out) takes what every function passed with it for one template parameter needs,
        and they take what it needs: `op{}(x, ...)` passes one set of extras, whichever function `op` is (a
        function object forwards them all; an extra a function does not read is a parameter it ignores)."""
        from .signatures import BUILTINS
        name = self.device[n].name.split("::")[-1]
        pooled = self.__dict__.setdefault("_kp_fn_extras", {})
        plan = self.plans[n]
        for i, group in enumerate(self.fn_argument_groups()):
            if name not in group:
                continue
            b, c, sh = pooled.setdefault(i, (set(), {}, {}))
            b.update(plan.builtins)
            c.update(dict.fromkeys(plan.constants))
            sh.update({x.name: x for x in plan.shared})
            plan.builtins = [x for x in BUILTINS if x in b]
            plan.constants, plan.shared = list(c), list(sh.values())

    def function_object_args(self, k: Function, targs: list[str]) -> tuple[list[str], bool]:
        """A template kernel's instance arguments with each function passed for a function parameter
        named by its function object, and whether any is (then the instance is declared at the end of
        the port, after the function objects: finish_function_objects)."""
        args = self._fn_arguments() if self._fn_template_params() else {}
        out = [_FUNCTOR.format(name=a.lstrip("&").strip().replace("::", "_")) if args.get((k.name, i), ((),))[0]
               and a.lstrip("&").strip() in args[(k.name, i)][0] else a for i, a in enumerate(targs)]
        return out, out != targs or self._types_defined_after(k, targs)

    def _types_defined_after(self, k: Function, targs: list[str]) -> bool:
        """Whether an instance argument names a type the file defines only below template kernel k (a functor
        `struct Sq` after the kernel, VolumeRender's transfer functions): C++ instantiates the body where the
        instantiation stands, so it goes at the end of the port too, where the type is complete.  A kernel in a
        namespace keeps its place (the instantiation at file scope would have to name the namespace)."""
        words = {w for a in targs for w in re.findall(r"[A-Za-z_]\w*", a)}
        node, p = k.template_node or k.node, (k.template_node or k.node).parent
        while p is not None:
            if p.type == "namespace_definition":
                return False
            p = p.parent
        before = set()
        after = set()
        for t in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            for n in self.src.index.of_type(t):
                name = n.child_by_field_name("name")
                if name is not None and n.child_by_field_name("body") is not None and self.src.text_of(name) in words:
                    (after if n.start_byte > node.end_byte else before).add(self.src.text_of(name))
        return bool(after - before)

    @property
    def late_instances(self) -> list[str]:
        return self.__dict__.setdefault("_kp_late_instances", [])



# what follows a member function's cv-qualifiers in its declarator (C++ [dcl.decl]: cv, ref, then noexcept,
# attributes, a trailing return type; virt-specifiers and requires after)
_AFTER_CV = ("noexcept", "throw_specifier", "trailing_return_type", "virtual_specifier", "requires_clause",
             "attribute_specifier", "ref_qualifier")


def object_qualified(src, d: Node, text: str, space: str) -> str:
    """A member function's declarator `text` (d's port) with the object's address space after its cv-qualifiers
    (`int idx(int x) const constant`): before `noexcept`, `&`, a trailing return type or `override`, where C++
    puts cv-qualifiers (`bool in(float p) const noexcept` -> `const device noexcept`; after it, no parse)."""
    tail = next((c for c in d.children if c.type in _AFTER_CV), None)
    if tail is not None:
        rest = src.data[tail.start_byte:d.end_byte].decode("utf-8", "replace")
        if text.endswith(rest):
            return f"{text[:len(text) - len(rest)].rstrip()} {space} {rest}"
    return f"{text} {space}"


def kernel_macro_spans(tr, f: Function) -> None:
    """A kernel whose `__global__` is a project macro's (`#define CUDA_GLOBAL __global__`, VolumeRender's Common.h;
    the parse sees the use as blanks): the use, between the kernel's start (its template head's) and its name, is
    written as Metal spells the macro's words (`kernel`; `__host__`/`__device__` nothing; `static` nothing, a Metal
    kernel is an entry point).  The macro's definition is left as it is: written `kernel` at the use, the kernel
    reads as one where its instantiations are checked (`template [[host_name]] kernel void k<T>`); a macro with
    any other word is left alone (its use keeps the macro)."""
    from ... import dialect
    if not f.is_kernel or any(tr.src.text_of(c) == "__global__" for c in f.node.children):
        return
    start, end = (f.template_node or f.node).start_byte, tr._declarator(f).start_byte
    for m in tr.src.masks:
        words = (m.expansion or "").split()
        right_before = m.end <= start and not tr.src.data[m.end:start].strip()  # (the parse's node starts after it)
        if m.reason != "attribute" or "__global__" not in words or not (start <= m.start < end or right_before) or \
                (m.start, m.end) in tr.rw.dropped:
            continue
        out = []
        for w in words:
            c = dialect.lookup("cuda", w)
            if c is not None and c.kind == "qualifier":
                out.append(c.spelling("metal") or "")
            elif w == "static":
                out.append("")
            else:
                break
        else:
            tr.rw.drop_span(m.start, m.end, " ".join(o for o in out if o))
