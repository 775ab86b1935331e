"""The front end's entry point: preprocess, split, instantiate, rewrite, then parse with pycparser
(an item that does not parse and is not needed by the device side is dropped and the parse retried)."""
from __future__ import annotations

import hashlib
import re

from pycparser import c_ast, c_parser

from ... import backends, dialect
from ...cexpr import split_top_level
from .references import lower_references
from .local_refs import lower_local_references
from .defaults import strip_defaults
from .blockreduce import BlockReduce, lower_block_reduce
from .braced import check as check_braced, lower_braced
from .groups import Groups, lower_groups
from .lambdas import lower_lambdas
from .arrayrefs import group as group_array_refs, lower_array_ref_params
from .classdata import place_structs
from .classtemplates import ClassTemplates, parse_class
from .plain_classes import list_initialised, plain_class, read_as_instances
from .functors import read as read_functors
from .items import CXX_ONLY, Item, _paren_start, balanced, instantiate, item_info, split_items, strip_template_header
from .lowered import AUTO_TYPE, OVERLOAD_SEP, LowerError, Lowered
from .operators import rename_operators
from .preprocess import preprocess
from .ptx import lower_asm
from .device_new import lower_new
from .namespaces import unqualify
from .rewrite import Qualifiers, rewrite_item
from .struct_copies import copy_structs

_CACHE: dict[str, Lowered] = {}


_WORD = re.compile(r"[A-Za-z_]\w*")


def _used_prelude(items: list) -> list:
    """The items with the prelude's typedefs that nothing uses left out: the prelude declares every
    vector and 16-bit type any kernel may name (~60 declarations), and pycparser's parse of them was
    most of a small kernel's lowering (10 of 17 ms).  A typedef is kept where the file's items, or a
    typedef kept, name it (after cpp and the rewrites: the names the parser will see)."""
    prelude = [it for it in items if it.file == "<prelude>"]
    typedefs = {}
    for it in prelude:
        words = _WORD.findall(it.text)
        if words and words[0] == "typedef" and it.text.rstrip().endswith(";"):
            typedefs[id(it)] = words[-1]
    used = {w for it in items if id(it) not in typedefs for w in _WORD.findall(it.text)}
    kept: set[int] = set()
    grew = True
    while grew:
        grew = False
        for it in prelude:
            if id(it) in typedefs and id(it) not in kept and typedefs[id(it)] in used:
                kept.add(id(it))
                used.update(_WORD.findall(it.text))
                grew = True
    return [it for it in items if id(it) not in typedefs or id(it) in kept]

def _one_definition(items: list[Item], q: Qualifiers, spec) -> list[Item]:
    """Overloads of one name whose texts lower alike are one definition to the emulator: Metal's
    per-address-space `kp_bytes(thread T*)` / `(device T*)` / `(threadgroup T*)` differ only in words
    the lowering drops (flat memory), so a call to them has nothing to choose; the first is kept."""
    seen: set[tuple[str, str | None, str]] = set()
    out = []
    for it in items:
        if it.kind in ("device", "plain") and it.name:
            key = (it.name, repr(it.tparams), " ".join(rewrite_item(it.text, q, spec, None).split()))
            if key in seen:
                continue
            seen.add(key)
        out.append(it)
    return out


def lower(source_text: str, backend: str | None = None, template_args: dict[str, str] | list[str] | None = None,
          *, path: str = "<kernel>", kernel: str | None = None, defines: dict[str, str] | None = None,
          headers: dict[str, str] | None = None, context: tuple[str, str] | None = None,
          redefine: dict[str, str] | None = None, port_of: str | None = None,
          configured_as: str | None = None) -> Lowered:
    """Lower kernel text to C99 for pycparser.

    template_args: a dict (template parameter name -> C text) applied to template kernels, or a
    list of positional arguments for the template function `kernel`.  backend: the dialect of
    the text (by default the one kernels are written in).  redefine: new values of the file's
    object-like macros (preprocess).  port_of: the backend whose port the text is, where it is read
    as another dialect (a portable port runs as CUDA and as HIP): the names that backend spells its
    own way (kp_wave_size()) mean their concepts too.  configured_as: the file whose configuration
    the text is read with (a port: its original's; preprocess).
    """
    backend = backend or backends.source().name  # headers: texts of headers not on disk (preprocess)
    port_of = None if port_of == backend else port_of  # (one lowering for the original, told or not)
    configured_as = None if configured_as == str(path) else configured_as  # (and read as itself, told or not)
    try:
        be = backends.get(backend)
    except KeyError as e:
        raise LowerError(str(e.args[0]), path) from None
    key = hashlib.sha1(repr((source_text, backend, template_args, path, kernel,
                             sorted((defines or {}).items()), sorted((headers or {}).items()), context,
                             sorted((redefine or {}).items()), port_of, configured_as)).encode()).hexdigest()
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    spec = be.lowering
    q = Qualifiers(be)
    targs_src = None
    if template_args:
        # template arguments may use the file's macros: expand them with the file
        vals = list(template_args.values()) if isinstance(template_args, dict) else list(template_args)
        targs_src = "\n__kp_template_args__ " + " @@ ".join(str(v) for v in vals) + " __kp_end__\n"
    pre = preprocess(source_text + (targs_src or ""), path, backend, defines, headers, context, redefine,
                     configured_as)
    if targs_src is not None:
        m = re.search(r"__kp_template_args__(.*?)__kp_end__", pre, re.S)
        if m:
            vals = [v.strip() for v in m.group(1).split("@@")]
            if isinstance(template_args, dict):
                template_args = dict(zip(template_args.keys(), vals))
            else:
                template_args = vals
            pre = pre[: m.start()] + pre[m.end():]
    items, functors = read_functors(split_items(pre), q.device_words)  # classes with an operator(): C functions

    templates: dict[str, list] = {}
    defaults: dict[str, dict[int, str]] = {}
    param_attrs: dict[str, dict] = {}
    dropped: list[tuple[int, str]] = []
    kernels: list[str] = []
    devices: list[str] = []
    kept: list[Item] = []
    templated: list[Item] = []
    classes: dict[str, list] = {}
    plain: set[str] = set()  # classes with member functions and no template header (plain_classes.py)
    cub = BlockReduce(backend, spec.cub_namespaces) if spec.cub_namespaces and "BlockReduce" in pre else None
    for it in items:
        text, tparams = strip_template_header(it.text)
        it.text = lower_block_reduce(text, cub) if cub is not None else text
        it.text = rename_operators(it.text)  # `float4 operator+(...)`: a name the C99 parser reads
        it.kind, it.name = item_info(it, q)
        if it.kind in ("kernel", "device"):
            it.text = lower_new(it.text)  # `new float[n]` / `delete[] p`: the device heap's malloc and free
        _library_calls([it], be)
        if it.kind != "decl" and it.name:
            head = it.text.split("{", 1)[0]
            it.text, dflt = strip_defaults(it.text, _paren_start(head))
            if dflt:
                defaults[it.name] = dflt
        if tparams is None and (cls := plain_class(it)) is not None:  # `struct S { ... f() const {...} };`
            classes.setdefault(cls.name, []).append(cls)
            plain.add(cls.name)
            continue
        if tparams is not None:
            it.tparams = tparams
            if it.name:
                templates[it.name] = tparams
            elif (cls := parse_class(it, tparams)) is not None:  # a class template: resolved at its uses
                classes.setdefault(cls.name, []).append(cls)
                continue
        if it.kind in ("kernel", "device") and it.name:
            (kernels if it.kind == "kernel" else devices).append(it.name)
        if it.kind == "plain" and CXX_ONLY.search(it.text):
            dropped.append((it.line, "host C++"))
            continue
        if it.kind == "decl" and CXX_ONLY.search(it.text):
            dropped.append((it.line, "C++ declaration"))
            continue
        if it.tparams is not None and it.name:
            templated.append(it)
            continue
        kept.append(it)
    list_initialised(kept + templated, {n for n in plain if not classes[n][0].ctors} | {
        m.group(1) for it in kept if it.kind == "decl" and (m := _STRUCT_DEF.match(it.text))})  # `S s{x}`: `= {x}`
    read_as_instances(kept + templated, plain)  # `S s;` of a plain class S: `S<> s;`, an instance
    unqualify(kept + templated)  # `util::f(...)` of a function `namespace util { }` defines: f
    templated += cub.items(path) if cub is not None else []  # BlockReduce's helpers: instantiated per type
    kept, templated = _one_definition(kept, q, spec), _one_definition(templated, q, spec)
    arefs = group_array_refs(kept + templated)  # renames overloads told apart by array references
    tmpl_items = {it.name: it for it in templated if it.name}

    # Template instantiation: the requested kernel with the given arguments, helpers on demand.
    instances: list[Item] = []
    class_templates = ClassTemplates(classes) if classes else None
    for it in kept if functors else ():
        functors.rewrite(it)
    template_args = functors.template_args(template_args, templates.get(kernel) if kernel else None)
    if tmpl_items or arefs or classes:
        instances = instantiate(kept, tmpl_items, template_args, kernel, path, dropped, arefs, class_templates,
                                functors)
    all_items = kept + instances
    braced = _braced_temporaries(all_items, class_templates)
    if functors.blocked:  # a function object the emulator does not lower, called where the kernel reaches
        functors.check(all_items, _reached_from(all_items, kernel))
    if braced:  # a braced temporary of a class with constructors, where the kernel reaches it
        check_braced(braced, _reached_from(all_items, kernel))
    if class_templates is not None:
        place_structs(all_items, class_templates.struct_items)
    groups = None
    if spec.group_namespaces and any(n in pre for n in spec.group_namespaces):
        from ... import tile_sizes  # (tree-sitter: imported where a file uses groups)
        groups = Groups(backend, spec.group_namespaces, pre, tile_sizes.reader(source_text, path))
    for it in all_items:
        if groups is not None:
            it.text = lower_groups(it.text, groups, it.file, it.line, id(it))
        lower_array_ref_params(it)
        lower_local_references(it, not q.device_words)  # `const T& e = a[i];` -> a pointer read through
        lower_lambdas(it)  # `auto f = [&](int i) {...};` called as statements: inlined (lambdas.py)
        if "asm" in it.text:
            it.text = lower_asm(it.text)
    if groups is not None and groups.unknown:
        groups.check(all_items, _reached_from(all_items, kernel), kernel)
    for name, definition in (groups.helpers if groups is not None else {}).items():  # cg::reduce's
        all_items.append(Item(definition, path, 1, "device", name))
    refs = lower_references(all_items)  # float& out-parameters of helpers: copied back by calls
    all_items.sort(key=lambda it: 0 if it.file == "<prelude>" else 1)  # keep file order otherwise (stable)

    _name_structs(all_items)
    for it in all_items:
        attrs: dict = {}
        it.text = rewrite_item(it.text, q, spec, attrs if it.kind == "kernel" else None)
        if attrs and it.name:
            param_attrs[it.name] = attrs

    all_items = _used_prelude(all_items)
    ast, text, all_items = _parse_with_retries(all_items, path, dropped, kernel)
    overloads = _rename_overloads(ast)
    functions = {e.decl.name: e for e in ast.ext if isinstance(e, c_ast.FuncDef)}
    overrides = {}
    for ckey, what in (("half", "half"), ("bfloat16", "bfloat16")):
        for b in backends.names():
            nm = dialect.concept(ckey).name(b)
            if nm:
                overrides[nm] = what
    overrides[AUTO_TYPE] = "auto"
    low = Lowered(text, ast, path, backend, functions, [k for k in kernels if k in functions] or
                  [k for k in functions if any(k.startswith(t + "__kp") for t in kernels)],
                  [d for d in devices if d in functions], templates, param_attrs, dropped, overrides, overloads)
    low.refs = refs
    low.defaults = defaults
    low.port_of = port_of
    _CACHE[key] = low
    return low


def _braced_temporaries(items: list[Item], class_templates: ClassTemplates | None) -> list:
    """C++'s `T{a, b}` in expressions (braced.py); returns those the emulator does not build (check_braced)."""
    from ...vector_types import VECTORS
    inst = class_templates.instances.values() if class_templates is not None else ()
    return lower_braced(items, {v: n for v, (_, n) in VECTORS.items()},
                        {i.sname: i.not_aggregate for i in inst if i.not_aggregate},
                        class_templates.struct_items if class_templates is not None else ())


def _library_calls(items: list[Item], be) -> None:
    """A port's call of the backend's polyfill of a C library function the emulator has (Metal's
    `kp_memcpy`: byte loops over the bytes of its pointers) that passes the address of a named
    object (`&bits`, `&self.payload`: a local, whose address the emulator does not model) is a call
    of that function (emulator/bitcopy.py); a call on arrays, elements and buffers runs the polyfill."""
    renamed = {new: old for old, new in getattr(be, "renamed_calls", {}).items() if old in ("memcpy",)}
    if not renamed:
        return
    pat = re.compile(r"\b(" + "|".join(map(re.escape, renamed)) + r")\s*\(")
    named = re.compile(r"\s*&\s*[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*\s*")
    for it in items:
        if it.name in renamed or not pat.search(it.text):
            continue  # (the definition itself)
        out, pos = [], 0
        for m in pat.finditer(it.text):
            args = split_top_level(it.text[m.end(): balanced(it.text, m.end() - 1) - 1])
            if any(named.fullmatch(a) for a, _ in args):
                out.append(it.text[pos: m.start()] + renamed[m.group(1)].ljust(len(m.group(1))))
                pos = m.end(1)
        it.text = "".join(out) + it.text[pos:]


_STRUCT_DEF = re.compile(r"\s*struct\s+([A-Za-z_]\w*)\s*\{")


def _name_structs(items: list[Item]) -> None:
    """C++ names a struct type by its tag alone (`Params p`): each `struct NAME {...};` of the file
    is followed by `typedef struct NAME NAME;` on its last line (no line moves)."""
    named = []
    for it in items:
        m = _STRUCT_DEF.match(it.text)
        if m and it.file != "<prelude>":
            it.text = it.text.rstrip() + f" typedef struct {m.group(1)} {m.group(1)};"
            named.append((it, m.group(1)))
    copy_structs(items, named)  # `S(x)`: the struct's copy (struct_copies.py)


def _rename_overloads(ast: c_ast.FileAST) -> dict[str, list[str]]:
    """Several definitions of one function name (C++ overloads, e.g. Metal's kp_ helpers per type
    and address space): identical signatures after lowering (they differed in address space only)
    keep the first; different ones are renamed name__kpov0, name__kpov1, ... for the emulator to
    choose from by the argument types of each call."""
    from pycparser import c_generator

    defs: dict[str, list[c_ast.FuncDef]] = {}
    for e in ast.ext:
        if isinstance(e, c_ast.FuncDef):
            defs.setdefault(e.decl.name, []).append(e)
    gen = c_generator.CGenerator()
    out: dict[str, list[str]] = {}
    drop: set[int] = set()
    for name, fds in defs.items():
        if len(fds) < 2:
            continue
        by_sig: dict[str, c_ast.FuncDef] = {}
        for fd in fds:
            params = fd.decl.type.args.params if fd.decl.type.args is not None else []
            sig = ",".join(gen.visit(p.type) if not isinstance(p, c_ast.EllipsisParam) else "..." for p in params)
            if sig in by_sig:
                drop.add(id(fd))
            else:
                by_sig[sig] = fd
        if len(by_sig) == 1:
            continue
        names = []
        for k, fd in enumerate(by_sig.values()):
            new = f"{name}{OVERLOAD_SEP}{k}"
            fd.decl.name = new
            t = fd.decl.type.type
            while not isinstance(t, c_ast.TypeDecl):
                t = t.type
            t.declname = new
            names.append(new)
        out[name] = names
    if drop:
        ast.ext = [e for e in ast.ext if id(e) not in drop]
    return out


def _parse_with_retries(items: list[Item], path: str, dropped: list,
                        kernel: str | None = None) -> tuple[c_ast.FileAST, str, list[Item]]:
    """pycparser's AST of the items; an item it cannot parse is dropped when the kernel to run
    does not need it (host code, another kernel), else a located LowerError."""
    items = list(items)
    used = _reached_from(items, kernel)
    for _ in range(len(items) + 1):
        text = "".join(f'# {it.line} "{it.file}"\n{it.text}\n' for it in items)
        parser = c_parser.CParser()
        try:
            return parser.parse(text, filename=path), text, items
        except c_parser.ParseError as e:
            file, line, col = _error_location(parser, str(e), path)
            # the items at the error's line, the last first; instances of one template share their lines
            # (Mandelbrot1's CalcMandelbrot<float> beside another kernel's CalcMandelbrot<__kp_auto>, whose
            # `T(4.0)` is not C): one the kernel does not reach takes the error first; if it stays, the next
            at = [it for it in items if it.file == file and it.line <= line <= it.line + it.text.count("\n")][::-1]
            bad = next((it for it in at if it.name and (it.kind == "kernel" and kernel is not None and it.name != kernel
                                                         or it.kind in ("device", "plain") and used is not None
                                                         and it.name not in used)), at[0] if at else None)
            other_kernel = bad is not None and bad.kind == "kernel" and kernel is not None and bad.name != kernel
            unused = bad is not None and bad.kind == "device" and used is not None and bad.name not in used
            if bad is None or (bad.kind in ("kernel", "device") and not other_kernel and not unused) \
                    or bad.file == "<prelude>":
                msg = str(e).split(": ", 1)[-1] if ": " in str(e) else str(e)
                raise LowerError(f"cannot lower for the emulator: {msg}", file if file != "<stdin>" else path,
                                 line, col) from None
            dropped.append((bad.line, "another kernel, not C99" if other_kernel else
                            "a helper the kernel does not call, not C99" if unused else "not C99"))
            items.remove(bad)
    raise LowerError("cannot lower", path)


def _reached_from(items: list[Item], kernel: str | None) -> set[str] | None:
    """The names of the functions the kernel calls, directly or through helpers (by the names its
    text mentions): a helper outside this set that pycparser cannot read (a class-template helper
    of a shared header) is dropped rather than failing a kernel that never calls it.  None when the
    kernel is not named or not among the items (then every helper counts as needed)."""
    if kernel is None:
        return None
    funcs: dict[str, list[Item]] = {}
    for it in items:
        if it.kind in ("kernel", "device", "plain") and it.name:
            funcs.setdefault(it.name, []).append(it)
    todo = [n for n in funcs if n == kernel or n.startswith(kernel + "__kp")]
    if not todo:
        return None
    seen = set(todo)
    while todo:
        for it in funcs[todo.pop()]:
            for word in set(re.findall(r"[A-Za-z_]\w*", it.text)):
                if word in funcs and word not in seen:
                    seen.add(word)
                    todo.append(word)
    return seen


def _error_location(parser, msg: str, path: str) -> tuple[str, int, int]:
    m = re.match(r"(.*?):(\d+):(\d+):", msg)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3))
    try:
        tok = parser._peek() or getattr(parser, "_last_tok", None)
        return parser.clex.filename, tok.lineno, tok.column
    except Exception:
        return path, 0, 0
