"""Address spaces: where each pointer of a Metal port points (device, threadgroup, constant, thread).

CUDA pointers carry no address space; Metal's must.  A kernel's pointer parameters are device
buffers; a helper's take the spaces of its call sites, so `plan_calls` walks the calls from
every kernel and gives a helper one signature (one overload) per combination of spaces seen.
Local pointers and pointer casts get the space of what initialises them, computed per
signature when the function is rendered (`_dynamic_prefix`).
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function, Param
from ...product_casts import is_product
from ...rewrite import key
from ...source import call_args, ident_name, walk
from .member_callees import candidates
from .pointer_members import device_levels


# The spaces a bare local pointer takes from its later assignments (a constant one, and any the model cannot
# tell, keep the unqualified `thread` they had: what the port wrote before, refused where it is wrong).
_ADOPTED = frozenset({"device", "threadgroup"})


NULL_POINTERS = ("nullptr", "NULL", "0")  # a null pointer constant: no space of its own (every pass asks here)


class AddressSpaces:
    """Mixin of MetalTranslator: the address-space passes and queries."""

    # -- calls and address spaces -------------------------------------------------------------
    def _calls(self, f: Function) -> list[tuple[Node, Function]]:
        out = []
        for n in walk(f.body):
            if n.type == "call_expression":
                fn = n.child_by_field_name("function")
                if fn is not None and fn.type == "template_function":
                    fn = fn.child_by_field_name("name")
                if fn is not None and fn.type == "identifier" and "::" in f.name and \
                        (h := self.helpers.get(f"{f.name.rsplit('::', 1)[0]}::{self.src.text_of(fn)}")) is not None:
                    out.append((n, h))  # `g(x)` in `C::f`, defined out of class C: the member C::g, as C++ looks it up
                elif fn is not None and fn.type == "identifier" and self.src.text_of(fn) in self.helpers:
                    out.append((n, self._overload_called(n, self.src.text_of(fn))))
                elif fn is not None and fn.type == "field_expression" and (h := self._member_helper(fn)) is not None:
                    out.append((n, h))  # `obj.f(...)`: its spaces and extras as a free helper's
                elif fn is not None and fn.type == "field_expression" and (hs := self.member_overloads(fn)):
                    out.extend((n, h) for h in hs)  # a const/non-const getter pair (member_returns.py)
                elif fn is not None and fn.type == "identifier" and (h := self._functor_helper(f, fn)) is not None:
                    out.append((n, h))  # `ntt(p)` of a local `fwdntt ntt;`: its operator()
                elif fn is not None and fn.type == "identifier" and (hs := self.fn_param_callees(f, fn)):
                    out.extend((n, h) for h in hs)  # `op(x)` of `template <F op>`: each function passed (function_args.py)
                elif fn is not None and fn.type == "qualified_identifier" and (h := self._qualified_helper(f, n)):
                    out.append((n, h))  # `util::swap(s, i, j)`: a namespace's helper, as C++ looks it up
        return out

    def _qualified_helper(self, f: Function, call: Node) -> Function | None:
        """The helper a qualified call (`ns::g(...)`) runs, where the file's scopes resolve it to one."""
        from ...fnscopes import callees
        found = [g for g in callees(self.module, f, call) if id(g) in self.fkeys and not g.is_kernel]
        return self.helpers.get(self.fkeys[id(found[0])]) if len(found) == 1 else None

    def _overload_called(self, call: Node, name: str) -> Function:
        """The helper `name(...)` calls: of overloads (bisect_util.cu's two storeIntervalConverged, 13 and 14
        parameters), the one overload that takes that many arguments (defaulted parameters counted as
        optional); else the first definition, as before."""
        found = [h for h in self.helpers.values() if h.name == name]
        # (not where an overload declares __shared__ memory: instance_shared.py gives each template instance
        # its own arrays from the calls as they were resolved, llm.c's blockReduce<op>(v) -> blockReduce<op>(v, ...))
        if len(found) > 1 and not any(s.function == name for s in self.module.shared):
            n = len(call_args(call))
            fits = [h for h in found if sum(p.node.child_by_field_name("default_value") is None for p in h.params)
                    <= n <= len(h.params)]
            if len(fits) == 1:
                return fits[0]
        return self.helpers[name]

    def _functor_helper(self, f: Function, fn: Node) -> Function | None:
        """The device `C::operator()` a call of a local object of class type C calls (one definition);
        C may be a class template's instance (`device::sha3<Bits> f;`: sha3's operator())."""
        decl = self._local_decl(f, self.src.text_of(fn))
        t = decl.child_by_field_name("type") if decl is not None else None
        if t is None or t.type not in ("type_identifier", "qualified_identifier", "template_type"):
            return None
        cls = self.src.text_of(t).split("<", 1)[0].split("::")[-1].strip()
        found = [h for h in self.helpers.values() if h.name.split("::")[-2:] == [cls, "operator()"]
                 or (h.name == "operator()" and h.node.parent is not None and h.node.parent.parent is not None
                     and (c := h.node.parent.parent.child_by_field_name("name")) is not None
                     and self.src.text_of(c) == cls)]
        return found[0] if len(found) == 1 else None

    def _member_helper(self, fn: Node) -> Function | None:
        """The device member function `obj.f` / `obj->f` calls: the file's only function named f, or the only
        one of the object's class (member_callees.py), a device member (several of one class: not resolved)."""
        field = fn.child_by_field_name("field")
        name = self.src.text_of(field) if field is not None and field.type == "field_identifier" else None
        found = [h for h in self.helpers.values() if name and h.name.split("::")[-1] == name]
        if len(found) != 1 or sum(f.name.split("::")[-1] == name for f in self.module.functions.values()) != 1:
            own = candidates(self.src, fn.parent, name, self.module.functions.values()) if name else []
            if len(own) != 1 or not any(h is own[0] for h in self.helpers.values()) or \
                    sum(f.name.split("::")[-1] == name for f in self.module.functions.values()) == len(own):
                return None  # (not one of its class: `candidates` gave every function of the name)
            found = own
        h = found[0]  # defined in its class, or out of it (`int fwd::twice(int* q) {...}`)
        in_class = h.node.parent is not None and h.node.parent.type == "field_declaration_list"
        return h if in_class or "::" in h.name else None

    def plan_calls(self) -> None:
        for name, p in self.plans.items():
            p.callees = []
            for _, h in self._calls(p.fn) + self.operator_calls(p.fn):  # by key: `operator()` of two classes are two (and a header's
                k = self.fkeys.get(id(h), h.name)  # one nothing reaches is left out of self.device: hostcode.py)
                if k not in p.callees:
                    p.callees.append(k)
        # Address-space signatures of helpers, from their call sites (a worklist from the kernels; then
        # from each helper no kernel reaches, ported with device memory, whose calls give its callees theirs)
        seen: set = set()
        self._propagate_spaces([(k, ()) for k in self.kernels], seen)
        self._propagate_spaces(self.extern_roots(), seen)  # calls from the run's other sources (extern_spaces.py)
        called = {c for p in self.plans.values() for c in p.callees}
        for name, h in sorted(self.helpers.items(), key=lambda nh: nh[0] in called):  # roots first
            if not self.plans[name].sigs:  # never called from a kernel: device memory (a reference: thread)
                self.plans[name].sigs.append(tuple("device" if p.pointer else "thread" for p in self.spaced_params(h)))
                self._propagate_spaces([(h, self.plans[name].sigs[0])], seen)
        for name, h in self.helpers.items():
            self.cur_sig[name] = self.plans[name].sigs[0]
        for k in self.kernels:
            self.cur_sig[k.name] = ()

    def _propagate_spaces(self, work: list, seen: set) -> None:
        while work:
            f, sig = work.pop(0)
            fkey = self.fkeys.get(id(f), f.name)  # two functions of one name (operator() of two classes) are two
            if (fkey, sig) in seen:
                continue
            seen.add((fkey, sig))
            self.cur_sig[f.name] = sig
            for call, h in self._calls(f) + self.operator_calls(f):  # (`out[i] += w`: operator_calls.py)
                args = self.operand_args(call)
                hsig = []
                for i, p in enumerate(h.params):  # a defaulted argument (`T* p = nullptr`): device
                    if p.pointer:
                        hsig.append(self.space_of(args[i] if i < len(args) else None, f) or "device")
                    elif self.spaced_reference(p):  # `uint &key` given `s_key[i]`: where the object lives
                        hsig.append(self.reference_space(p, args[i] if i < len(args) else None, f,
                                                         self.copies_constant_argument(h, len(args), i)))
                hsig = tuple(self.with_object_space(call, f, h, hsig))  # a member's `this` (object_spaces.py)
                for g, gsig in [(h, hsig), *self._constant_overloads(call, h, hsig)]:
                    if gsig not in self.plan_of(g).sigs:
                        self.plan_of(g).sigs.append(gsig)
                    work.append((g, gsig))

    def _constant_overloads(self, call: Node, h: Function, hsig: tuple) -> list[Function]:
        """The other overloads a call that binds `constant` memory to a `const T&` may run: in a template
        (`add_vector(sum, constant_data_p[j+i])` with T unknown) C++ picks one per instance, so each
        overload of that name taking as many arguments, with a signature as wide, gets the `constant` one."""
        if "constant" not in hsig or not any(self.spaced_reference(p) and not self.is_reference(p) for p in h.params):
            return []
        n = len(call_args(call))
        out = []
        for g in self.helpers.values():
            if g is h or g.name != h.name or len(g.params) != n or len(self.spaced_params(g)) != len(hsig):
                continue
            # its overload for thread objects first (the one it has where no call binds `constant` memory)
            plain = tuple("thread" if s == "constant" and not self.is_reference(p) else s
                          for s, p in zip(hsig, self.spaced_params(g)))
            out += [(g, plain), (g, hsig)]
        return out

    @staticmethod
    def is_reference(p: Param) -> bool:
        """`uint &key`: a parameter bound to an object where it lives (in MSL an unqualified reference
        is `thread`: one to threadgroup or device memory must say so).  A `const` reference is not:
        it binds a thread copy of the argument, which keeps a function that returns it right (`T const &
        max(const T& a, const T& b)` on device lvalues: a device-space parameter returned as a thread
        reference would be a reference to a temporary)."""
        d = p.node.child_by_field_name("declarator")
        return d is not None and d.type == "reference_declarator" and \
            not any(c.type == "type_qualifier" and c.text == b"const" for c in p.node.children)

    @classmethod
    def spaced_reference(cls, p: Param) -> bool:
        """A reference parameter the signature covers: `T&`, and `const T&` (it stays unqualified, i.e.
        thread, except where a call binds it to `constant` memory, which no other space's reference binds:
        gpumembench's `add_vector(sum, constant_data_p[j+i])` of `add_vector(int& t, const int& v)`)."""
        d = p.node.child_by_field_name("declarator")
        return d is not None and d.type == "reference_declarator"

    def reference_space(self, p: Param, arg: Node | None, f: Function, copied: bool = False) -> str:
        """The space a call's argument `arg` gives reference parameter p (`copied`: a `constant` argument
        of a `const T&` that constant_refs.py copies to a thread temporary)."""
        space = (self._space_of_lvalue(arg, f) if arg is not None else None) or "thread"
        return space if self.is_reference(p) or (space == "constant" and not copied) else "thread"

    def spaced_params(self, f: Function) -> list[Param]:
        """The parameters a helper's address-space signature covers: pointers and references."""
        return [p for p in f.params if p.pointer or self.spaced_reference(p)]

    def _param_space(self, f: Function, p: Param) -> str:
        if f.is_kernel:
            return "device"
        idx = [q.name for q in self.spaced_params(f)].index(p.name)
        sig = self.cur_sig.get(f.name) or ()
        return sig[idx] if idx < len(sig) else "device" if p.pointer else "thread"

    def _local_decl(self, f: Function, name: str) -> Node | None:
        """The first declaration in f's body (pre-order) that declares name."""
        return self._local_decls(f).get(name)

    def _local_decls(self, f: Function) -> dict[str, Node]:
        """Each name f's body declares -> its first declaration: one walk per body, where a walk per
        query made the passes that ask about every call and identifier quadratic in a function's size
        (a 700-line header's helpers: most of a Metal translation's time).  Keyed by the body node,
        which holds its tree: a re-parse gives new nodes, never a stale answer."""
        memo = self.__dict__.setdefault("_kp_local_decls", {})
        got = memo.get(f.body)
        if got is None:
            got = memo[f.body] = {}
            for n in walk(f.body):
                if n.type == "declaration":
                    for d in n.children_by_field_name("declarator"):
                        got.setdefault(ident_name(d), n)
        return got

    def space_of(self, expr: Node | None, f: Function) -> str | None:
        """Address space of a pointer-valued expression in function f (current specialisation)."""
        if expr is None:
            return None
        t = expr.type
        if t in ("parenthesized_expression",):
            return self.space_of(expr.named_children[0] if expr.named_children else None, f)
        if t == "initializer_list":  # `T* const p{e}` (a pointer's brace initialiser): the value is e
            return self.space_of(expr.named_children[0], f) if expr.named_child_count == 1 else None
        if t == "cast_expression":
            return self.space_of(expr.child_by_field_name("value"), f)
        if t == "call_expression":  # reinterpret_cast<int*>(smem + off) keeps the space of its operand
            if self._named_cast(expr):
                return self.space_of(call_args(expr)[0], f)
            return self.member_return_space(expr, f)  # `obj->getter()` of `return &m;` (member_returns.py)
        if t == "pointer_expression":
            op = expr.child_by_field_name("operator")
            arg = expr.child_by_field_name("argument")
            if op is not None and self.src.text_of(op) == "&":
                return self._space_of_lvalue(arg, f)
            return self.loaded_pointer_space(expr, f)  # `*tab` of `float **tab` (loaded_pointers.py)
        if t == "subscript_expression":  # `tab[i]` of `float **tab`: a pointer stored in device memory
            return self.loaded_pointer_space(expr, f)
        if t == "binary_expression":
            return self.space_of(expr.child_by_field_name("left"), f) or \
                self.space_of(expr.child_by_field_name("right"), f)
        if t == "conditional_expression":  # `batched ? b + i * n : b` (deepwave): the arms' one space; a null arm
            arms = [expr.child_by_field_name(k) for k in ("consequence", "alternative")]  # points nowhere
            got = {self.space_of(a, f) for a in arms if a is not None and self.src.text_of(a) not in NULL_POINTERS}
            return got.pop() if len(got) == 1 else None
        if t == "field_expression" and self.src.text_of(expr.child_by_field_name("field")) in \
                self.device_pointer_fields() | self.device_pointer_tables():
            return "device"  # `grid.cells`: a pointer member of a kernel's struct (pointer_members.py), a table
            # of device pointers (pointer_tables.py)
        if t == "field_expression" and self._array_fields().get(self.src.text_of(expr.child_by_field_name("field"))):
            return self._space_of_lvalue(expr, f)  # `ctx->data`, an array member: where its struct is
        if t == "identifier":
            # a pointer whose initialiser reaches itself (`p = q + 1` in one scope, `q = p` in
            # another: names are looked up per function, not per scope) has no space to find
            busy = self.__dict__.setdefault("_spaces_resolving", set())
            here = (f.name, self.src.text_of(expr), self.cur_sig.get(f.name, ()))
            if here in busy:
                return None
            busy.add(here)
            try:
                return self._space_of_identifier(expr, f)
            finally:
                busy.discard(here)
        return None

    def _space_of_identifier(self, expr: Node, f: Function) -> str | None:
        name = self.src.text_of(expr)
        p = f.param(name)
        if p is not None:
            return self._param_space(f, p) if p.pointer else None
        if any(s.name == name and (s.function == f.name) for s in self.module.shared):
            return "threadgroup"
        if (f.name, name) in self.local_spaces:
            sp = self.local_spaces[(f.name, name)]
            return sp(self.cur_sig.get(f.name, ())) if callable(sp) else sp
        decl = self._local_decl(f, name)
        if decl is not None:
            for d in decl.children_by_field_name("declarator"):  # a local pointer: where it points
                inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else None
                if ident_name(d) == name and inner is not None and inner.type == "pointer_declarator":
                    init = d.child_by_field_name("value")
                    return (self.space_of(init, f) if init is not None else None) or "thread"
                if ident_name(d) == name and d.type == "pointer_declarator":  # `T *p; ... p = buf + i;`, asked
                    return self._adopted_space(f, name) or "thread"  # before local_pointers (a call's argument)
            return "thread"  # a local array
        if any(s.name == name and s.function is None for s in self.module.shared):
            return "threadgroup"
        if name in self._program_constants():
            return "constant" if self._program_constants()[name] else None
        if self.constant_pointer_space(expr, 0, f):
            return "device"  # a `__constant__ T *p` the host filled with a device address (constant_pointers.py)
        # an array member read bare in a member (`sum4(buf)` in `Quad::total`): where the object is
        return self.own_field_space(f, name) if self._array_fields().get(name) else None

    def _program_constants(self) -> dict[str, bool]:
        """The file's program-scope variables the port keeps in Metal's constant address space (an
        initialised `__constant__`, `__device__ const` table, or one bound as a `constant` buffer:
        file_scope, constants.py), each with whether it is an array (as a value, a pointer into
        `constant` memory); a pointer variable is not one (where it points is not known here)."""
        got = self.__dict__.get("_kp_program_constants")
        if got is None:
            from ...model import file_scope_items
            got = self.__dict__["_kp_program_constants"] = {}
            for n in file_scope_items(self.src):
                words = {self.src.text_of(c) for c in n.children} if n.type == "declaration" else set()
                if not words & {"__constant__", "__device__"} or "__shared__" in words or \
                        ("__constant__" not in words and not words & {"const", "constexpr"}
                         and ident_name(n.child_by_field_name("declarator")) not in getattr(self, "bound", {})):
                    continue
                for d in n.children_by_field_name("declarator"):
                    inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                    if inner is not None and inner.type in ("identifier", "array_declarator"):
                        got[ident_name(d)] = inner.type == "array_declarator"
        return got

    def _array_fields(self) -> dict[str, bool]:
        """Field name -> whether every struct field of that name in the file is an array (`BYTE
        data[64]`: as a value it is a pointer into the struct's own storage; a pointer field's
        target is not known here)."""
        got = self.__dict__.get("_kp_array_fields")
        if got is None:
            got = self.__dict__["_kp_array_fields"] = {}
            for fd in self.src.index.of_type("field_declaration"):
                for d in fd.children_by_field_name("declarator"):
                    name = ident_name(d)
                    if name is not None:
                        got[name] = got.get(name, True) and d.type == "array_declarator"
        return got

    def _space_of_lvalue(self, n: Node, f: Function) -> str | None:
        while n is not None and n.type in ("subscript_expression", "field_expression", "parenthesized_expression"):
            if n.type == "subscript_expression" and self.space_of(n.child_by_field_name("argument"), f) == "device" \
                    and n.child_by_field_name("argument").type in ("field_expression", "subscript_expression"):
                return "device"  # `grid.cells[i]`, `outs[c][i]`: an element where a stored device pointer points
            if n.type == "field_expression" and self.src.text_of(n).find("->") >= 0:
                return self.space_of(n.child_by_field_name("argument"), f)
            n = n.child_by_field_name("argument") if n.type != "parenthesized_expression" else \
                (n.named_children[0] if n.named_children else None)
        if n is None:
            return None
        if n.type in ("identifier", "type_identifier"):  # (the latter: `float& r(tile[i])`, reference_spaces)
            name = self.src.text_of(n)
            p = f.param(name)
            if p is not None:
                return self._param_space(f, p) if p.pointer or self.spaced_reference(p) else "thread"
            sp = self.space_of(n, f) if n.type == "identifier" else self._space_of_identifier(n, f)
            if sp is None and self._local_decl(f, name) is None and name in self._program_constants():
                return "constant"  # `&c` of a program-scope constant scalar
            if sp is None and self._local_decl(f, name) is None:
                sp = self.own_field_space(f, name)  # a data member of the object a member is called on
            return sp or "thread"
        if n.type == "pointer_expression":
            return self.space_of(n.child_by_field_name("argument"), f)
        return None

    def elem_type_of(self, expr: Node, f: Function) -> str | None:
        """CUDA element type of the object a pointer expression addresses."""
        n = expr
        while n is not None and n.type in ("parenthesized_expression", "pointer_expression", "subscript_expression",
                                           "binary_expression", "cast_expression", "call_expression"):
            if n.type == "call_expression":  # reinterpret_cast<unsigned long long*>(p) and its kin
                fn = n.child_by_field_name("function")
                if fn is None or fn.type != "template_function" or self.src.text_of(
                        fn.child_by_field_name("name")) not in ("reinterpret_cast", "static_cast", "const_cast"):
                    return None
                targs = fn.child_by_field_name("arguments")
                t = self.src.text_of(targs)[1:-1] if targs is not None else ""
                return " ".join(t.replace("*", " ").replace("const", " ").split()) or None
            if n.type == "binary_expression":
                n = n.child_by_field_name("left")
            elif n.type == "cast_expression":
                td = n.child_by_field_name("type")
                tn = td.child_by_field_name("type") if td is not None else None
                return " ".join(self.src.text_of(tn).split()) if tn is not None else None
            elif n.type == "parenthesized_expression":
                n = n.named_children[0] if n.named_children else None
            else:
                n = n.child_by_field_name("argument")
        if n is not None and n.type == "field_expression":  # `&node->info[0]`: the member's declared type
            return self._declared_member_type(self.src.text_of(n.child_by_field_name("field")))
        if n is None or n.type != "identifier":
            return None
        name = self.src.text_of(n)
        p = f.param(name)
        if p is not None:
            return " ".join(p.type.split())
        for s in self.module.shared:
            if s.name == name and s.function in (f.name, None):
                return " ".join(s.type.split())
        decl = self._local_decl(f, name)
        if decl is not None and decl.child_by_field_name("type") is not None:
            return " ".join(self.src.text_of(decl.child_by_field_name("type")).split())
        return None

    def _declared_member_type(self, field: str) -> str | None:
        """The element type every member of that name in the file declares (`float *info;`), less
        qualifiers; None where two differ or none is declared (main took such an atomic for an int one)."""
        got = {" ".join(w for w in self.src.text_of(fd.child_by_field_name("type")).split() if w not in ("const", "volatile"))
               for fd in self.src.index.of_type("field_declaration") if fd.child_by_field_name("type") is not None
               and any(ident_name(d) == field for d in fd.children_by_field_name("declarator"))}
        return got.pop() if len(got) == 1 else None

    # -- local pointers ------------------------------------------------------------------------
    def local_pointers(self) -> None:
        """Pointer variables and pointer casts in device code get the address space they point into."""
        for f in self.device.values():
            for n in walk(f.body):
                if n.type == "declaration" and not any(self.src.text_of(c) == "__shared__" for c in n.children):
                    tnode, names = n.child_by_field_name("type"), []
                    for d in n.children_by_field_name("declarator"):
                        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                        if inner is None or inner.type != "pointer_declarator":
                            continue
                        init = d.child_by_field_name("value") if d.type == "init_declarator" else None
                        name = ident_name(d)

                        later = (self.pointer_array_stores(f, n, d) or self._assigned_values(f, name)) \
                            if init is None else []  # `T *vert[3]; vert[k] = ..`: local_pointer_arrays.py

                        def space(sig, f=f, init=init, later=later):
                            saved = self.cur_sig.get(f.name)
                            self.cur_sig[f.name] = sig
                            try:
                                if init is not None:
                                    return self.space_of(init, f)
                                return self._adopted_space(f, name, later)  # `T* p; ... p = buf + i;`
                            finally:
                                self.cur_sig[f.name] = saved
                        self.local_spaces[(f.name, name)] = lambda sig, space=space: space(sig) or "thread"
                        # every specialisation: `float *p = tab[i]` is device for a device `float **tab`, unknown
                        # for a threadgroup one (loaded_pointers.py)
                        lost = [sig for sig in ([()] if f.is_kernel else self.plan_of(f).sigs) if space(sig) is None]
                        if init is not None and lost:
                            where = "" if f.is_kernel or len(lost) == len(self.plan_of(f).sigs) else \
                                f" when '{f.name}' is called with ({', '.join(lost[0])}) arguments"
                            self.problem("KP215", d, f"cannot tell which address space '{name}' points into{where}",
                                         "initialise the pointer from a kernel parameter, a __shared__ array "
                                         "or a local array")
                        elif later and len(seen := {self.space_of(v, f) for v in later} & _ADOPTED) > 1:
                            self.problem("KP215", d, f"cannot tell which address space '{name}' points into: it is "
                                         "assigned pointers into " + " and ".join(sorted(seen)),
                                         "use one pointer per address space, each initialised where it is declared")
                        names.append((name, d))
                    if names:
                        self._declaration_prefix(f, tnode, names)
                        self._split_scalar_declarators(f, n, tnode, names)
                    elif not self.alias_pointer_locals(f, n):  # `fptr p = buf;`: alias_pointers.py
                        self.local_references(f, n)  # `T& r = nodes[i]`: the object's space (reference_spaces.py)
                elif n.type == "expression_statement":  # `T (*p)[N] = x;` read as an expression: alias_pointers.py
                    self.array_pointer_statement(f, n)
                elif n.type == "cast_expression" or self._named_cast(n):
                    # `(float4*)p` and `reinterpret_cast<const float4*>(p)` (static_cast, const_cast):
                    # an unqualified pointer type is `thread` in Metal, a cast from device memory an error
                    if n.type == "cast_expression":
                        if is_product(self.src, f.node, n):
                            continue  # `(col*(stride))`: a product tree-sitter reads as a cast (product_casts.py)
                        td, val = n.child_by_field_name("type"), n.child_by_field_name("value")
                    else:
                        targs = n.child_by_field_name("function").child_by_field_name("arguments")
                        td, val = next((c for c in targs.named_children if c.type == "type_descriptor"), None), call_args(n)[0]
                    if td is None or not any(c.type == "abstract_pointer_declarator" for c in walk(td)):
                        continue
                    if self._const_reference_address(f, val):
                        continue  # unqualified, `thread` in Metal (and the checker's generic: its reference)
                    self._dynamic_prefix(td.child_by_field_name("type") or td,
                                         lambda sig, f=f, val=val: self._space_at(f, sig, val) or "thread")

    def _declaration_prefix(self, f: Function, tnode: Node, names: list[tuple[str, Node]]) -> None:
        """One space written before the type that the declaration's pointers share (`T *a, *b;`: the
        space qualifies the type, so it is written once); pointers of one declaration into different
        spaces cannot share it: refused at the second, located."""
        def spaces(sig) -> list[str]:
            return [self.local_spaces[(f.name, name)](sig) for name, _ in names]
        for sig in [()] if f.is_kernel else self.plan_of(f).sigs:
            got = spaces(sig)
            if len(set(got)) > 1:
                at = next(i for i, sp in enumerate(got) if sp != got[0])
                self.problem("KP215", names[at][1], f"'{names[0][0]}' and '{names[at][0]}' are declared together "
                             f"but point into {got[0]} and {got[at]} memory: Metal writes the space once, on "
                             "their shared type", "declare them apart")
                break
        if not self._scalars_first(f, tnode.parent, names):  # else each run of pointers gets it (the split)
            self._dynamic_prefix(tnode, lambda sig: spaces(sig)[0])
        sigs = [()] if f.is_kernel else self.plan_of(f).sigs
        for i, (_, d) in enumerate(names):  # `T **children = tmp->childs;`: a pointer into device memory reads
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d  # device pointers
            if all(spaces(sig)[i] == "device" for sig in sigs) and \
                    (text := device_levels(self.src, inner, self.rw.text(inner))) != self.rw.text(inner):
                self.rw.replace(inner, text)  # (the port writes every table in device memory so: device_levels)

    def _pointer_flags(self, decl: Node) -> list[bool]:
        """For each declarator of `decl`, whether it declares a pointer."""
        return [(d.child_by_field_name("declarator") if d.type == "init_declarator" else d).type == "pointer_declarator"
                for d in decl.children_by_field_name("declarator")]

    def _needs_split(self, f: Function, decl: Node, names: list[tuple[str, Node]]) -> bool:
        """Whether the declaration's pointers need a space that its non-pointers may not take: pointers
        that all point into thread memory need none (`thread` on a local scalar is MSL's default)."""
        sigs = [()] if f.is_kernel else self.plan_of(f).sigs
        return not all(self.local_spaces[(f.name, name)](sig) == "thread" for sig in sigs for name, _ in names) \
            and not all(self._pointer_flags(decl))

    def _scalars_first(self, f: Function, decl: Node | None, names: list[tuple[str, Node]]) -> bool:
        """`float sum, *X;`: a declaration that opens with non-pointers, split before its pointers (not the
        one statement of a for's or a condition's declaration, which cannot be split)."""
        return decl is not None and decl.type == "declaration" and not self._pointer_flags(decl)[0] and \
            self._needs_split(f, decl, names) and (decl.parent is None or
                                                   decl.parent.type not in ("for_statement", "condition_clause"))

    def _split_scalar_declarators(self, f: Function, decl: Node, tnode: Node, names: list[tuple[str, Node]]) -> None:
        """`float *p = a, x;` and `float sum, *X, *Y;`: the space written before the shared type would make
        a non-pointer a device float (no local may be one), so the declaration is split where it turns
        from pointers to non-pointers or back, in order (`device float *p = a; float x;`, `float sum;
        device float *X, *Y;`), each run of pointers with the space they share.  In a for's or a
        condition's one declaration, which cannot be split, non-pointers beside such pointers are refused,
        located."""
        if not self._needs_split(f, decl, names):
            return
        ds, ptr = decl.children_by_field_name("declarator"), self._pointer_flags(decl)
        first = ptr.index(False)
        if decl.parent is not None and decl.parent.type in ("for_statement", "condition_clause"):
            self.problem("KP215", ds[first], f"'{ident_name(ds[first])}' is declared with pointers in a for's or a "
                         "condition's one declaration: Metal writes their address space once, on the shared type",
                         "declare the non-pointer before the statement")
            return
        spec = self.src.text_of(decl)[:tnode.start_byte - decl.start_byte]  # `const`, `register`, ...

        def type_text(rw) -> str:  # the type's text without the space the pointers' prefix writes before it
            return rw.text(tnode)[len(''.join(rw.before.get(key(tnode), ()))):]
        for i in range(1, len(ds)):
            comma = ds[i].prev_sibling
            if ptr[i] == ptr[i - 1] or comma is None or comma.type != ",":
                continue
            if ptr[i]:  # `; device float` before a run of pointers after non-pointers
                self.rw.insert_before(comma, "; ")
                self._dynamic_prefix(comma, lambda sig: self.local_spaces[(f.name, names[0][0])](sig))
                self.rw.replace(comma, lambda rw, node: f"{spec}{type_text(rw)}")
            else:
                self.rw.replace(comma, lambda rw, node: f"; {spec}{type_text(rw)}")

    def _adopted_space(self, f: Function, name: str, later: list[Node] | None = None) -> str | None:
        """The one space (device or threadgroup) of every value a pointer declared bare is assigned; else None."""
        got = {self.space_of(v, f) for v in (self._assigned_values(f, name) if later is None else later)}
        return got.pop() if len(got) == 1 and got <= _ADOPTED else None

    def _assigned_values(self, f: Function, name: str) -> list[Node]:
        """The values a local pointer declared with no initialiser is given (`p = dist + j * n;`), in f.
        (Names are looked up per function, as `_local_decl` does.)"""
        out = []
        for n in walk(f.body):
            if n.type == "assignment_expression" and self.src.text_of(n.child_by_field_name("operator")) == "=":
                left = n.child_by_field_name("left")
                if left is not None and left.type == "identifier" and self.src.text_of(left) == name:
                    out.append(n.child_by_field_name("right"))
        return out

    def _const_reference_address(self, f: Function, val: Node) -> bool:
        """`&v` of a helper's `const T& v` parameter (llm.c's `vec_at(const float4& vec, int i)` reading
        `reinterpret_cast<const float*>(&vec)[i]`): a thread reference in Metal, whose cast's unqualified
        pointer is `thread` too.  Written `thread`, the checker refused it: it gives such a reference
        the generic space (thread_params.py: a const reference also binds temporaries)."""
        while val.type == "parenthesized_expression" and val.named_children:
            val = val.named_children[0]
        arg = val.child_by_field_name("argument") if val.type == "pointer_expression" else None
        if arg is None or self.src.text_of(val.child_by_field_name("operator")) != "&" or arg.type != "identifier" \
                or f.is_kernel:
            return False
        p = f.param(self.src.text_of(arg))
        d = p.node.child_by_field_name("declarator") if p is not None else None
        return d is not None and d.type == "reference_declarator" and not self.is_reference(p)

    def _named_cast(self, n: Node) -> bool:
        """`reinterpret_cast<T>(x)`, `static_cast<T>(x)` or `const_cast<T>(x)`, one operand."""
        fn = n.child_by_field_name("function") if n.type == "call_expression" else None
        return fn is not None and fn.type == "template_function" and len(call_args(n)) == 1 and \
            fn.child_by_field_name("arguments") is not None and \
            self.src.text_of(fn.child_by_field_name("name")) in ("reinterpret_cast", "static_cast", "const_cast")

    def _space_at(self, f: Function, sig, expr: Node, how=None) -> str | None:
        """`space_of(expr)` (or `how(expr, f)`: _space_of_lvalue, where an object lives) under f's specialisation sig."""
        saved = self.cur_sig.get(f.name)
        self.cur_sig[f.name] = sig
        try:
            return (how or self.space_of)(expr, f)
        finally:
            self.cur_sig[f.name] = saved

    def _dynamic_prefix(self, node: Node, fn) -> None:
        """Text before `node` computed when it is rendered (for the current specialisation)."""
        f = self.module.function_at(node)
        self.rw.insert_before(node, "")
        lst = self.rw.before[key(node)]
        self._lazy_prefixes.append((f.name, lst, len(lst) - 1, fn))

    def _apply_prefixes(self, fname: str, sig) -> None:
        for name, lst, i, fn in self._lazy_prefixes:
            if name == fname:
                lst[i] = f"{space} " if (space := fn(sig)) else ""  # "": nothing written (member_returns.py)
