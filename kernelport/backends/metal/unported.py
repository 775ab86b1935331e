"""CUDA that has no Metal meaning: an error at its line (KP223), never left in the port silently.

Two mechanisms, both over the device code the port keeps:

- constructs Metal lacks, each with its reason (the backend's `no_meaning` table: device-side
  `printf`, `malloc`, `clock()`, textures and surfaces, warp-matrix `wmma`), and those found
  by structure: a kernel launched from device code (dynamic parallelism), `new`/`delete`,
  recursion, function pointers, `__managed__` memory.  Cache-hinted loads (`__ldg`, `__ldcs`,
  ...) have a meaning, a plain load, and become one.
- names nothing defines: a function or type that device code uses, that this file does not
  declare, the translation does not map, and Metal's standard library (the checker's model of
  it, check/metal_stdlib.h) does not have, comes from a header the port cannot include
  (`cub::BlockReduce`, `curand_uniform`, a project type from a header not beside the source):
  the port would not compile, so it is refused where the name is used.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from tree_sitter import Node

from ... import backends, device_pass, dialect, guards
from ...reserved_names import declared_names
from ...source import call_args, walk
from ...vector_declarations import tagged_vectors
from ...typeof_casts import WORDS as TYPEOF_WORDS
from .self_calls import YES, callee_name, calls_itself, cycles, runs_user_function

# A pointer to a member function (`float (S::*op)(float) const`, `R (ns::C<T>::*)(A)`), as the text spells it
_MEMBER_POINTER = re.compile(r"\(\s*(?:\w+(?:\s*<[^()]*>)?\s*::\s*)+\*\s*\w*\s*\)\s*\(")
_NO_MEMBER_POINTERS = ("MSL has no pointers to member functions; its function pointers, MSL 2.3's, are to "
                       "[[visible]] free functions through a visible_function_table")
_MEMBER_POINTER_HINT = ("call the member directly, or choose it by a value (`which ? s.twice(x) : s.half(x)`, a "
                        "switch): each call then names its function")
_C_WORDS = frozenset({"if", "for", "while", "switch", "return", "sizeof", "alignof", "decltype", "defined",
                      "static_cast", "reinterpret_cast", "const_cast", "do"}) | TYPEOF_WORDS  # (GNU `typeof(x)`)


@lru_cache(maxsize=1)
def metal_library_names() -> frozenset[str]:
    """Every identifier the checker's model of the Metal standard library mentions, less the names of
    member functions called only on an object (a texture's `sample`, `read`, `get_width`): no free names."""
    text = (Path(__file__).parent / "check" / "metal_stdlib.h").read_text(encoding="utf-8")
    text = re.sub(r"^\s+\w+\s+\w+\([^()]*\)\s*const;", "", text, flags=re.M)
    return frozenset(re.findall(r"[A-Za-z_]\w*", text))


def _code(macro_value: str) -> str:
    """A macro's value without its comments (`#define TILE 32  // the partials (per block)`)."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", macro_value, flags=re.S)


def _without_attributes(code: str) -> str:
    """`code` less its `__attribute__((...))` / `__declspec(...)` groups: what they name (`visibility`,
    `noinline`, `dllexport`) are attribute names, not calls a header must define (QuickSES's
    `#define API __attribute__((visibility("default")))`, heldout73)."""
    out, i = [], 0
    for m in re.finditer(r"\b(?:__attribute__|__declspec)\s*\(", code):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            j += 1
        out.append(code[i:m.start()] + " ")
        i = j
    return "".join(out) + code[i:]


def _target(rw, pointer: Node) -> str:
    """What a cache-hinted load or store's pointer points at: `*(p)`, or the member itself for the address of
    a member (`__stcg(&(v->x), s)`: `v->x` may be a vector's component, whose address Metal does not take;
    `*&m` is `m`)."""
    n = _unparenthesised(pointer)
    if n.type == "pointer_expression" and n.children and n.children[0].type == "&":
        member = _unparenthesised(n.child_by_field_name("argument"))
        if member.type == "field_expression":
            return f"({rw.text(member)})"
    return f"*({rw.text(pointer)})"


def _unparenthesised(n: Node) -> Node:
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


class Unported:
    """Mixin of MetalTranslator: the `no_metal_meaning` pass."""

    def no_metal_meaning(self) -> None:
        table = backends.get(self.backend).no_meaning
        loads = backends.get(self.backend).plain_loads
        stores = backends.get(self.backend).plain_stores
        renamed = backends.get(self.backend).renamed_calls
        cuda_own = backends.get(self.backend).float_math  # CUDA's own overload the prologue defines
        declared = self._declared_names()
        # the prologue's: <stdint.h>'s constant macros, CUDA's float functions with Metal definitions
        library = metal_library_names() | set(backends.get(self.backend).integer_constant_macros) | set(cuda_own) | \
            {c.split("(")[0] for c in backends.get(self.backend).complex_macros} | \
            set(backends.get(self.backend).complex_functions)  # cuComplex.h's (the prologue's)
        reported: set[str] = set()
        self._double_complex(declared, reported)
        # a function no nvcc pass compiles (helper_math.h's host `rsqrtf` under `#ifndef __CUDACC__`) neither
        # is a host function device code may not call nor replaces CUDA's own of its name: nvcc never sees it
        memo: dict = {}
        seen = [g for g in self.module.functions.values()
                if not guards.amd_only(g.template_node or g.node, self.src, memo=memo)]
        host_only = {f.name for f in self.host.values() if any(f is g for g in seen)} - set(self.device)
        dead = self._dead_on_metal()
        defined = {g.name for g in seen}
        # a definition of a CUDA cache-hinted store only under an `#if` (llm.c's bf16 `__stcs` for nvcc < 12):
        # a polyfill of CUDA's own, a store too; the file's calls of the name are plain stores
        defined -= {g.name for g in self.module.functions.values() if g.name in stores and all(
            self._conditional(h.node) for h in self.module.functions.values() if h.name == g.name)}
        ndebug = self._ndebug()
        dropped: set[tuple[int, int]] = set()  # calls the port drops or records: `assert(...)`, `__trap()`
        asserts = backends.get(self.backend).assertion_calls
        calls: list = []
        fn_types = self._function_pointer_types(reported)
        for f in self.device.values():
            for n in self.src.index.subtree(f.template_node or f.node):
                if dead and any(s <= n.start_byte < e for s, e in dead):
                    continue  # `#if __CUDA_ARCH__ >= 130` with an #else: Metal compiles the #else
                t = n.type
                if t == "call_expression":
                    if any(c.type == "kernel_call_syntax" for c in n.children):
                        self._refuse(n, "a kernel launch in device code (dynamic parallelism)",
                                     "launch it from the host: Metal kernels cannot dispatch work")
                        continue
                    fn = n.child_by_field_name("function")
                    name = self.src.text_of(fn)
                    if (called := callee_name(fn, self.src.text_of)) is not None and called != f.name:
                        calls.append((f, n, called))  # (recursion through other functions: cycles below)
                    if name == "assert" and ndebug and "assert" not in defined:
                        # C: with NDEBUG defined, assert(e) is ((void)0), in CUDA's device code too
                        self.rw.replace(n, "((void)0)")
                        self.note(n, "((void)0)", "NDEBUG is defined: assert(...) is ((void)0), as C defines it")
                        dropped.add((fn.start_byte, fn.end_byte))
                    elif fn.type == "identifier" and name in asserts and name not in declared and \
                            self.record_assertion(n, name):  # a failure the host reads back (assertions.py)
                        dropped.add((fn.start_byte, fn.end_byte))
                    elif name in loads and len(call_args(n)) == 1:
                        arg = call_args(n)[0]
                        self.rw.replace(n, lambda rw, _n, a=arg: _target(rw, a))
                        self.note(n, "*(...)", f"{name} is a cache hint on a load: Metal loads plainly")
                    elif name in stores and len(call_args(n)) == 2 and (
                            name not in defined or not runs_user_function(self, f, n, name)):
                        ptr, val = call_args(n)
                        self.rw.replace(n, lambda rw, _n, p=ptr, v=val: f"({_target(rw, p)} = ({rw.text(v)}))")
                        self.note(n, "*(...) = ...", f"{name} is a cache hint on a store: Metal stores plainly")
                    elif fn.type == "identifier" and name in renamed and name not in defined:  # (a prototype of
                        # CUDA's own, `__device__ uint32_t __byte_perm(uint32_t, uint32_t, uint32_t);`, defines nothing)
                        self.rw.replace(fn, renamed[name])
                        self.note(fn, renamed[name], f"Metal's name for {name}")
                    elif fn.type == "identifier" and name in host_only:
                        self._refuse(n, f"a call of host function '{name}' from device code",
                                     f"mark '{name}' __device__ (or __host__ __device__)",
                                     "(it is host code, left out of the port; nvcc rejects it too)")
                    elif callee_name(fn, self.src.text_of) == f.name and f.is_device and \
                            calls_itself(self, f, n) == YES:
                        # by overload resolution on the arguments' types (self_calls.py): `float3 sin(float3 v)`'s
                        # `sin(v.x)` calls CUDA's float sin; `int f(int)`'s `f((float)n)` the user's f(float)
                        self._refuse(n, f"'{f.name}' calls itself (recursion)", "rewrite it as a loop with an "
                                     "explicit stack: Metal functions cannot recurse")
                elif t in ("new_expression", "delete_expression"):
                    self._refuse(n, f"'{t.split('_')[0]}' in device code (dynamic memory)",
                                 "allocate on the host and pass a buffer")
                elif t == "function_declarator" and n.child_by_field_name("declarator") is not None and \
                        n.child_by_field_name("declarator").type == "parenthesized_declarator" and \
                        not self.rw.within(n):  # (a template's function parameter: a type (function_args.py))
                    if _MEMBER_POINTER.search(self.src.text_of(n)):  # `float (S::*op)(float) const = &S::twice;`
                        self._refuse(n, "a member-function pointer in device code", _MEMBER_POINTER_HINT,
                                     f"({_NO_MEMBER_POINTERS})")
                    else:
                        self._refuse(n, "a function pointer in device code", "call the function directly, or switch "
                                     "on a value: Metal has no function pointers in this form")
                    # its name is the pointer's, refused here: no "defined neither" at its calls (`op(x)`, `(s.*op)(x)`)
                    reported.update(self.src.text_of(c) for c in walk(n.child_by_field_name("declarator"))
                                    if c.type in ("identifier", "type_identifier"))
                elif t in ("identifier", "type_identifier", "namespace_identifier") and not self.rw.has(n) and \
                        (n.start_byte, n.end_byte) not in dropped:
                    name = self.src.text_of(n)
                    if name in table and name not in declared:
                        self._refuse(n, f"'{name}' in device code", "remove it from device code, or guard it with "
                                     "#ifndef __METAL_VERSION__ in a shared header", table[name])
                    elif name in fn_types and n.type == "type_identifier":
                        if name not in reported:  # the file's typedef: say what Metal lacks, not "defined neither"
                            reported.add(name)
                            self._refuse(n, *fn_types[name])
                    elif name not in reported and name not in loads and name not in stores and name not in renamed and \
                            self._unresolved(n, name, declared, library):
                        reported.add(name)
                        self.problem("KP223", n, f"'{name}' is defined neither in this file nor in Metal's standard "
                                     "library (it comes from a header the Metal port cannot include)",
                                     "define it in the file, or write it with what Metal has")
        for n, cycle in cycles(self, calls):
            self._refuse(n, f"a call in a cycle of calls ({cycle}: recursion)", "rewrite it as a loop with an "
                         "explicit stack: Metal functions cannot recurse")
        self._unresolved_in_macros(declared, library, reported)
        for f in self.host.values():  # host code is left out: a device lambda in it would go silently
            for n in self.src.index.subtree(f.template_node or f.node) if f.name not in self.device else ():
                if n.type == "lambda_expression" and self._device_lambda(n):
                    self._refuse(n, "a device lambda in host code (a kernel body passed to a launch helper)",
                                 "write it as a __global__ kernel: the Metal port leaves host code out")
        for item in self.src.index.of_type("declaration"):
            if any(self.src.text_of(c) == "__managed__" for c in item.children):
                self._refuse(item, "'__managed__' memory (unified memory)", "use a device buffer the host fills")

    def _double_complex(self, declared: set[str], reported: set[str]) -> None:
        """cuComplex.h's double-precision complex (`cuDoubleComplex`, `cuCmul`) wherever the port keeps it (device
        code, a file-scope typedef or struct it needs): Metal has no double, KP214 as for `double` (once per name);
        with --demote-double its float name (`cuFloatComplex`, `cuCmulf`), which the prologue defines."""
        doubles = backends.get(self.backend).double_complex
        host = {id(f.node) for f in self.host.values() if f.name not in self.device}
        for n in self.src.index.of_type("identifier") + self.src.index.of_type("type_identifier"):
            name = self.src.text_of(n)
            if name not in doubles or name in declared or self.rw.has(n) or self.rw.within(n) or \
                    self.left_out_at(n):
                continue
            f = self.module.function_at(n)
            if f is not None and id(f.node) in host:  # host code: left out of the port
                continue
            if self.demote_double:
                self.rw.replace(n, doubles[name])
                if name not in reported:
                    reported.add(name)
                    self.note(n, doubles[name], "Metal has no double; demoted to float complex (--demote-double)")
            elif name not in reported:
                reported.add(name)
                self.problem("KP214", n, f"'{name}' is cuComplex.h's double-precision complex: Metal has no "
                             "double-precision type", f"use {doubles[name]}, or pass --demote-double to demote every "
                             "double to float")

    def _member_fn_pointer_aliases(self) -> dict[str, Node]:
        """The file's member-function-pointer type names (`typedef float (S::*Op)(float) const;`, `using Op = float
        (S::*)(float);`), which the grammar reads as function pointers in its copy (member_pointers.py) while the
        text keeps `S::*`: each name -> its declaration."""
        out = {}
        for n in self.src.index.of_types("alias_declaration", "type_definition"):
            text = self.src.text_of(n)
            if not _MEMBER_POINTER.search(text):
                continue
            name = n.child_by_field_name("name") if n.type == "alias_declaration" else next(
                (c for c in walk(n.child_by_field_name("declarator") or n) if c.type == "type_identifier"), None)
            if name is not None:
                out[self.src.text_of(name)] = n
        return out

    def _function_pointer_types(self, reported: set[str]) -> dict[str, tuple[str, str]]:
        """The file's function-pointer type names (`typedef unsigned (*HashFunc)(State*)`) -> KP223's words for a
        use; a program-scope `__device__`/`__constant__` variable of one (a device table of functions,
        `__device__ HashFunc hash[] = {h0, h1}`) is refused here, at its declaration.  A template parameter
        of such a type that function_args.py made a function object's type is rewritten, so not seen."""
        hint = "call the function directly, or switch on a value: Metal has no function pointers"
        out = {name: (f"the function-pointer type '{name}' (the file's, line {self.src.loc(alias).line})", hint)
               for name, alias in self._fn_pointer_aliases().items()}
        out.update({name: (f"the member-function-pointer type '{name}' (the file's, line {self.src.loc(alias).line})",
                           _MEMBER_POINTER_HINT, f"({_NO_MEMBER_POINTERS})")
                    for name, alias in self._member_fn_pointer_aliases().items()})
        for d in self.src.index.of_type("declaration") if out else ():
            ty = d.child_by_field_name("type")
            name = self.src.text_of(ty) if ty is not None else ""
            if name in out and name not in reported and not self.rw.has(d) and not self.rw.within(d) and \
                    any(self.src.text_of(c) in ("__device__", "__constant__") for c in d.children) and \
                    (d.parent is None or d.parent.type in ("translation_unit", "declaration_list")):
                reported.add(name)
                self._refuse(d, f"a device variable of {out[name][0]}", hint)
        return out

    @staticmethod
    def _conditional(n: Node) -> bool:
        """Whether `n` sits in a preprocessor conditional's branch."""
        p = n.parent
        while p is not None and p.type not in guards.CONDITIONALS:
            p = p.parent
        return p is not None

    def _dead_on_metal(self) -> list[tuple[int, int]]:
        """Byte spans of preprocessor branches no Metal compile reaches (every platform macro,
        `__CUDA_ARCH__`, `__CUDACC__`, `__HIPCC__`, ..., is undefined there, but for a device-pass test the
        port respells, kernelport/device_pass.py): their code is not Metal's."""
        spans = []
        b = backends.get(self.backend)  # `#ifdef __CUDA_ARCH__` the port spells `__METAL_VERSION__`: taken
        known = guards.Defines(values={k: int(v) for k, v in b.lowering.defines.items() if v.isdigit()})
        for n in self.src.index.of_types(*guards.CONDITIONALS):
            v = guards.holds(n, self.src, "metal", lambda m, n=None: device_pass.spelling(self, m, n) or m, known=known)
            alt, test = n.child_by_field_name("alternative"), guards.test_node(n)
            if v == 0:
                spans.append((test.end_byte if test is not None else n.start_byte,
                              alt.start_byte if alt is not None else n.end_byte))
            elif v == 1 and alt is not None:
                spans.append((alt.start_byte, alt.end_byte))
        return spans

    def atomics_in_macros(self) -> None:
        """A Metal atomic needs its operand's address space and type, which a macro body (text, not
        code of one function) does not give: such a body is refused at the macro (KP212)."""
        atomics = {n for n, c in dialect._by_name("cuda").items() if c.kind == "atomic"}
        for m in self.src.index.of_type("preproc_function_def") + self.src.index.of_type("preproc_def"):
            value = m.child_by_field_name("value")
            if value is None or self.rw.has(m) or self.rw.has(value):
                continue
            hit = sorted(set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", _code(self.src.text_of(value)))) & atomics)
            if hit:
                self.problem("KP212", value, f"'{hit[0]}' inside a macro body: the Metal atomic needs the address "
                             "space and type of its operand, which a macro does not give",
                             "call the atomic in a __device__ function instead of a macro")
                self.rw.replace(value, self.src.text_of(value))  # kept as written: the body is not rewritten

    def _unresolved_in_macros(self, declared: set[str], library: frozenset[str], reported: set[str]) -> None:
        """A macro device code uses that calls what nothing defines (`POLYBENCH_LOOP_BOUND(N, n)`
        from a header not beside the source): refused at the macro."""
        needed = self._device_needs()
        renamed = backends.get(self.backend).renamed_calls
        for m in self.src.index.of_type("preproc_function_def") + self.src.index.of_type("preproc_def"):
            macro, value = self.src.text_of(m.child_by_field_name("name")), m.child_by_field_name("value")
            if macro not in needed or value is None or self.rw.has(m):
                continue
            params = m.child_by_field_name("parameters")
            own = set(re.findall(r"\w+", self.src.text_of(params))) if params is not None else set()
            calls = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", _without_attributes(_code(self.src.text_of(value)))))
            hit = sorted(n for n in calls & set(renamed) if n not in own and n not in declared)
            if hit and not self.rw.has(value):  # `#define IMUL(a, b) __mul24(a, b)`: renamed in the body
                self.rw.replace(value, re.sub(r"\b(" + "|".join(hit) + r")(?=\s*\()",
                                              lambda w: renamed[w.group(1)], self.src.text_of(value)))
                self.note(value, ", ".join(renamed[n] for n in hit), f"Metal's name for {', '.join(hit)}")
            for name in sorted(calls):
                if name in own or name in _C_WORDS or name in reported or name in declared or name in library or \
                        name.startswith("__builtin_") or _translated(name) or name in renamed:
                    continue
                reported.add(name)
                self.problem("KP223", value, f"'{name}' (in macro '{macro}', which device code uses) is "
                             "defined neither in this file nor in Metal's standard library (it comes from a header "
                             "the Metal port cannot include)", "define it in the file, or write it with what Metal has")

    def _device_lambda(self, n: Node) -> bool:
        """`[=] __device__ (int i) {...}`, or its qualifier behind a macro (`[=] MGPU_DEVICE (int i)`)."""
        body = n.child_by_field_name("body")
        end = body.start_byte if body is not None else n.end_byte
        return "__device__" in self.src.data[n.start_byte:end].decode("utf-8", "replace") or any(
            n.start_byte <= m.start < end and "__device__" in (m.expansion or "") for m in self.src.masks)

    def block_votes(self) -> None:
        """`__syncthreads_or(p)` (and `_and`, `_count`) in a kernel: the prologue's kp_ helper over a
        threadgroup atomic the kernel declares at its top.  In a device function it is refused (KP223):
        Metal declares threadgroup memory in the kernel only."""
        b = backends.get(self.backend)
        kernels = {k.name for k in self.kernels}
        declared: set[str] = set()
        for n in self.src.index.of_type("call_expression"):
            fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
            name = self.src.text_of(fn) if fn is not None else ""
            if name not in b.block_votes or args is None or self.rw.has(fn) or self.rw.within(n):
                continue
            f = self.module.function_at(n)
            if f is None or f.name not in self.device:
                continue  # host code: left out of the port
            if f.name not in kernels or len(call_args(n)) != 1:
                self._refuse(n, f"'{name}' in device function '{f.name}'", "call it in the kernel: Metal declares the "
                             "threadgroup memory its vote counts in in the kernel only")
                self.rw.replace(fn, name)  # said once: not again as a name nothing defines
                continue
            kind, var = b.block_vote_scratch
            self.rw.replace(fn, b.block_votes[name])
            self.rw.replace(args, lambda rw, a, v=var: rw.stitch(a)[:-1].rstrip() + f", {v})")
            self.note(n, b.block_votes[name], f"{name}: a barrier that counts the predicate in threadgroup memory")
            if f.name not in declared and f.body is not None and f.body.named_child_count:
                declared.add(f.name)
                first = f.body.named_children[0]
                self.rw.insert_before(first, f"{kind} {var};  // {name}'s count (kp_{name.lstrip('_')})\n"
                                             + " " * self.src.loc(first).column.__sub__(1))

    def _ndebug(self) -> bool:
        """Whether NDEBUG is defined where the file is compiled: by the run's `-D` (the CUDA build's), or by
        a `#define NDEBUG` the model reads (the file's, or its headers')."""
        if any(n == "NDEBUG" for n, _ in self.options.get("defines", ())):
            return True
        vis = self.module.visible
        return "NDEBUG" in self.module.macros or (vis is not None and "NDEBUG" in vis.macros)

    def _refuse(self, node: Node, what: str, hint: str, why: str = "") -> None:
        self.problem("KP223", node, f"{what} has no Metal meaning" + (f" {why}" if why else ""), hint)

    def _unresolved(self, n: Node, name: str, declared: set[str], library: frozenset[str]) -> bool:
        """A function called, or a type or namespace named, that nothing in reach defines."""
        p = n.parent
        if p is None or name in _C_WORDS:  # (`(typeof(v)) e` read as a call of `typeof`: the port's `__typeof__`)
            return False
        if n.type == "identifier":
            if not (p.type == "call_expression" and p.child_by_field_name("function") == n):
                return False
        elif n.type == "namespace_identifier":
            if p.type != "qualified_identifier" or p.child_by_field_name("scope") != n:
                return False
        q = p.parent if p.type == "template_type" else p
        if q is not None and q.type == "qualified_identifier" and q.child_by_field_name("name") in (n, p):
            return False  # `ns::f`, `ns::T<32>`: its namespace is what is checked
        if name in declared or name in library or name.startswith("__builtin_"):
            return False
        return not _translated(name)

    def _declared_names(self) -> set[str]:
        """Every name this file declares or defines, anywhere (locals and parameters included), and the
        run's -D the port writes at its top (`-D DW_DTYPE=float`).  `struct float4;` and `struct float4 *p`
        name Metal's own float4 (vector_declarations), declaring nothing."""
        metal_own = {(t.start_byte, t.end_byte) for t, _ in tagged_vectors(self.src, backends.get(self.backend).vector_types)}
        return declared_names(self.src, self.module, self.written_defines(), metal_own)


def _translated(name: str) -> bool:
    """A CUDA name the concept table translates (a CUDA library API name is not: Metal has none)."""
    c = dialect.lookup("cuda", name)
    return c is not None and c.key != "api"
