"""Lower CUDA / HIP (and Metal) kernel source text to C99 that pycparser parses.

The semantic side of kernelport (the emulator, the reference interpreter) works on pycparser's
C AST; kernel files are C++ with GPU qualifiers.  Lowering is deliberately simple and robust:

1. line-preserving pre-pass: drop `#include` of headers we cannot see and `#pragma` lines;
2. the C preprocessor (`cpp`) expands the user's macros and emits line markers, so every
   pycparser coordinate is a line of the ORIGINAL file (comments vanish without moving lines);
3. the output is split into top-level items (functions, declarations); template functions are
   instantiated by substituting their arguments; backend qualifiers are stripped or rewritten
   (`__shared__` becomes the storage class `_Thread_local`, which C99 parsers accept and which
   marks the declaration as block-shared for the emulator); C++ casts, `nullptr`, `auto`, `::`
   and attributes `[[...]]` are rewritten;
4. pycparser parses the items; an item that does not parse and is not needed by the device side
   (host code with `<<< >>>`, classes, lambdas) is dropped and the parse retried.

Each backend's `lowering` (kernelport/backends/) says which concepts of the dialect table are
qualifiers and how each is lowered, plus backend-only address-space words and predefined
macros.  Spellings are read from the backends, never written here.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

from pycparser import c_ast, c_parser

from .. import dialect
from ..cexpr import split_top_level

SHARED_STORAGE = "_Thread_local"  # the storage class that marks a block-shared declaration
AUTO_TYPE = "__kp_auto"  # a type deduced at run time (C++ `auto`, undeduced template params)
NS_SEP = "__NS__"  # `a::b` becomes the identifier `a__NS__b`


class LowerError(ValueError):
    """The kernel text cannot be lowered; carries the original file position."""

    def __init__(self, message: str, path: str = "<kernel>", line: int = 0, column: int = 0):
        super().__init__(f"{path}:{line}:{column}: {message}")
        self.message, self.path, self.line, self.column = message, path, line, column


def _backends_names() -> tuple[str, ...]:
    from .. import backends
    return backends.names()


def _backend(name: str):
    from .. import backends
    return backends.get(name)


def wave_defines(backend: str, wave: int) -> dict[str, str]:
    """Predefined macros a real compiler sets for a target of this wave width."""
    return _backend(backend).wave_defines(wave)


# C99 declarations so that pycparser knows every type name a kernel may use.  Only the names
# matter to the parser; the emulator gives the GPU types their real meaning.
PRELUDE = r"""
typedef _Bool bool;
typedef struct { unsigned int x, y, z; } uint3;
typedef uint3 dim3;
typedef unsigned long size_t; typedef long ptrdiff_t; typedef long intptr_t; typedef unsigned long uintptr_t;
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long long int64_t; typedef unsigned long long uint64_t;
typedef unsigned int uint; typedef unsigned long ulong; typedef unsigned short ushort; typedef unsigned char uchar;
typedef int __kp_auto;
typedef unsigned short __half; typedef unsigned short half; typedef unsigned short __nv_bfloat16;
typedef unsigned short __hip_bfloat16; typedef unsigned short bfloat;
typedef struct { float x, y; } float2; typedef struct { float x, y, z; } float3; typedef struct { float x, y, z, w; } float4;
typedef struct { int x, y; } int2; typedef struct { int x, y, z; } int3; typedef struct { int x, y, z, w; } int4;
typedef struct { unsigned int x, y; } uint2; typedef struct { unsigned int x, y, z, w; } uint4;
typedef struct { double x, y; } double2;
typedef float atomic_float; typedef int atomic_int; typedef unsigned int atomic_uint;
extern uint3 threadIdx, blockIdx; extern dim3 blockDim, gridDim; extern int warpSize;
"""
PRELUDE_DEFINES = {"true": "1", "false": "0", "nullptr": "0", "NULL": "0", "__restrict__": "",
                   "__forceinline__": "__forceinline__"}
VECTOR_TYPES = {"float2", "float3", "float4", "int2", "int3", "int4", "uint2", "uint4", "double2"}


# ---------------------------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------------------------
@dataclass
class Lowered:
    text: str
    ast: c_ast.FileAST
    path: str
    backend: str
    functions: dict[str, c_ast.FuncDef]
    kernels: list[str]  # functions marked with the backend's kernel qualifier
    device_functions: list[str]
    templates: dict[str, list[tuple[str, str, str | None]]]  # name -> [(kind, param, default)]
    param_attrs: dict[str, dict[str, tuple[str, str | None]]]  # Metal: func -> param -> (attr, arg)
    dropped: list[tuple[int, str]]  # (original line, why) of items left out
    typedef_overrides: dict[str, str]  # typedef name -> emulator type key (half, auto, ...)
    # Metal/C++ overloads: name -> the renamed definitions (name__kpov0, ...), chosen per call by
    # the argument types (definitions that differ only in address spaces are merged into one)
    overloads: dict[str, list[str]] = field(default_factory=dict)

    def is_shared(self, decl: c_ast.Decl) -> bool:
        return SHARED_STORAGE in (decl.storage or [])

    def line_of(self, node) -> int:
        return node.coord.line if node is not None and node.coord is not None else 0

    def shared_decls(self, func: str) -> list[c_ast.Decl]:
        out = []

        class V(c_ast.NodeVisitor):
            def visit_Decl(self, n):
                if SHARED_STORAGE in (n.storage or []):
                    out.append(n)
                self.generic_visit(n)

        V().visit(self.functions[func])
        return out


# ---------------------------------------------------------------------------------------------
# Preprocessing
# ---------------------------------------------------------------------------------------------
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
_PRAGMA = re.compile(r"^\s*#\s*pragma\b")


def _prepass(src: str, path: str) -> str:
    """Drop headers we cannot (or need not) see and pragmas, keeping every line in place."""
    base = os.path.dirname(path) if path and not path.startswith("<") else None
    out = []
    lines = src.split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = _INCLUDE.match(ln)
        if m and not (m.group(1) == '"' and base and os.path.exists(os.path.join(base, m.group(2)))):
            out.append("")
        elif _PRAGMA.match(ln):
            out.append("")
            while ln.rstrip().endswith("\\") and i + 1 < len(lines):  # continued pragma
                i += 1
                ln = lines[i]
                out.append("")
        else:
            out.append(ln)
        i += 1
    return "\n".join(out)


def preprocess(src: str, path: str = "<kernel>", backend: str = "cuda",
               defines: dict[str, str] | None = None) -> str:
    """Run the C preprocessor; the output carries line markers of `path`."""
    spec = _backend(backend).lowering
    d = dict(PRELUDE_DEFINES)
    d.pop("__forceinline__")
    d.update(spec.defines)
    d.update(defines or {})
    head = "".join(f"#define {k} {v}\n" for k, v in d.items())
    text = head + '# 1 "<prelude>"\n' + PRELUDE + f'# 1 "{path}"\n' + _prepass(src, path)
    cpp = shutil.which("cpp")
    if cpp is None:
        return _mini_cpp(text)
    args = [cpp, "-x", "c", "-undef", "-nostdinc", "-w"]
    base = os.path.dirname(path) if path and not path.startswith("<") else None
    if base:
        args += ["-I", base]
    r = subprocess.run(args + ["-"], input=text, capture_output=True, text=True)
    if r.returncode != 0:
        m = re.search(r"^(.*?):(\d+):(\d+): (?:fatal )?error: (.*)$", r.stderr, re.M)
        if m:
            raise LowerError(m.group(4), path, int(m.group(2)), int(m.group(3)))
        raise LowerError("preprocessor failed: " + r.stderr.strip()[:300], path, 0, 0)
    return r.stdout


def _mini_cpp(text: str) -> str:
    """Fallback without a C preprocessor: strip comments (keeping lines), object-like #defines."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    defs: dict[str, str] = {}
    out = []
    for ln in text.split("\n"):
        m = re.match(r"\s*#\s*define\s+(\w+)(?!\()\s*(.*)$", ln)
        if m:
            defs[m.group(1)] = m.group(2)
            out.append("")
            continue
        if re.match(r"\s*#\s*(if|ifdef|ifndef|endif|else|elif|undef|error|warning)\b", ln):
            out.append("")
            continue
        if defs:
            for _ in range(4):
                ln2 = re.sub(r"\b\w+\b", lambda mm: defs.get(mm.group(0), mm.group(0)), ln)
                if ln2 == ln:
                    break
                ln = ln2
        out.append(ln)
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Top-level items
# ---------------------------------------------------------------------------------------------
@dataclass
class Item:
    text: str
    file: str
    line: int
    kind: str = "decl"  # kernel | device | plain | decl | marker
    name: str | None = None
    tparams: list[tuple[str, str, str | None]] | None = None


_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')
_FUNC_HEAD = re.compile(r"^(?!\s*(?:typedef|struct|union|enum|class)\b)[^=]*\)\s*[^;]*$", re.S)


def split_items(text: str) -> list[Item]:
    items: list[Item] = []
    file, line = "<stdin>", 1
    i, n = 0, len(text)
    buf: list[str] = []
    start: tuple[str, int] | None = None
    depth = 0
    transparent = 0
    at_line_start = True

    def flush():
        nonlocal buf, start
        t = "".join(buf).strip()
        if t and start is not None:
            items.append(Item(t, start[0], start[1]))
        buf, start = [], None

    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            m = _MARKER.match(text, i, j)
            if m:
                if depth == 0 and not "".join(buf).strip():
                    buf, start = [], None
                    file, line = m.group(2), int(m.group(1))
                    i = j + 1
                    continue
                buf.append(text[i:j + 1])
                file, line = m.group(2), int(m.group(1))
                i = j + 1
                continue
            buf.append(text[i:j + 1])  # other directive (#pragma kept by cpp): keep verbatim
            i = j + 1
            line += 1
            continue
        if c == "\n":
            buf.append(c)
            line += 1
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
            if start is None:
                start = (file, line)
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            buf.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "{":
            so_far = "".join(buf).strip()
            if depth == 0 and re.fullmatch(r'(namespace(\s+\w+)?|extern\s*"C(\+\+)?")', so_far):
                transparent += 1
                buf, start = [], None
                i += 1
                continue
            depth += 1
        elif c == "}":
            if depth == 0 and transparent:
                transparent -= 1
                flush()
                i += 1
                continue
            depth -= 1
            if depth == 0:
                so_far = "".join(buf)
                head = so_far[: so_far.find("{")] if "{" in so_far else so_far
                if _FUNC_HEAD.match(head) and "(" in head:
                    buf.append(c)
                    flush()
                    i += 1
                    continue
        elif c == ";" and depth == 0:
            buf.append(c)
            flush()
            i += 1
            continue
        buf.append(c)
        i += 1
    flush()
    return items


# ---------------------------------------------------------------------------------------------
# Rewrites
# ---------------------------------------------------------------------------------------------
def _balanced(text: str, i: int, open_c: str = "(", close_c: str = ")") -> int:
    """Index just past the bracket group that starts at text[i] == open_c."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _blank(s: str) -> str:
    """Same lines, same length: keeps line numbers and most columns."""
    return re.sub(r"[^\n]", " ", s)


_TEMPLATE = re.compile(r"^\s*template\s*<")
_CXX_CAST = re.compile(r"\b(?:static|reinterpret|const|dynamic)_cast\s*<")


def _strip_template_header(text: str) -> tuple[str, list[tuple[str, str, str | None]] | None]:
    m = _TEMPLATE.match(text)
    if not m:
        return text, None
    lt = m.end() - 1
    end = _balanced(text, lt, "<", ">")
    inner = text[lt + 1: end - 1]
    params = []
    for part in _split_commas(inner):
        part = part.strip()
        if not part:
            continue
        default = None
        if "=" in part:
            part, default = (s.strip() for s in part.split("=", 1))
        words = part.split()
        kind = "type" if words[0] in ("typename", "class") else "value"
        params.append((kind, words[-1], default))
    return _blank(text[:end]) + text[end:], params


def _split_commas(s: str) -> list[str]:
    return [p for p, _ in split_top_level(s, brackets="(<[{", strip=False)]


def _substitute(text: str, mapping: dict[str, str]) -> str:
    if not mapping:
        return text
    pat = re.compile(r"\b(" + "|".join(re.escape(k) for k in mapping) + r")\b")
    return pat.sub(lambda m: mapping[m.group(1)], text)


def _rewrite_casts(text: str) -> str:
    while True:
        m = _CXX_CAST.search(text)
        if not m:
            return text
        lt = m.end() - 1
        end = _balanced(text, lt, "<", ">")
        ty = text[lt + 1: end - 1].strip()
        text = text[: m.start()] + "(" + ty + ")" + text[end:]


_AS_TYPE = re.compile(r"\bas_type\s*<")
AS_TYPE_FN = "__kp_as_type"  # Metal's as_type<T>(x) becomes __kp_as_type((T)0, x)


def _rewrite_as_type(text: str) -> str:
    """Metal's bit reinterpretation `as_type<T>(x)`: a call whose first argument carries T."""
    while True:
        m = _AS_TYPE.search(text)
        if not m:
            return text
        lt = m.end() - 1
        end = _balanced(text, lt, "<", ">")
        ty = text[lt + 1: end - 1].strip()
        rest = re.match(r"\s*\(", text[end:])
        if not rest:
            return text
        text = text[: m.start()] + f"{AS_TYPE_FN}(({ty})0, " + text[end + rest.end():]


def _pointee_address_spaces(text: str, spec) -> str:
    """Metal: an address space before a pointer (or reference) declarator qualifies the POINTEE
    (`threadgroup float* p`, casts `(threadgroup atomic_uint*)x`): it is dropped there, so that
    only a declaration of threadgroup OBJECTS (`threadgroup float a[N];`) is block-shared."""
    words = [w for w, how in spec.address_spaces.items() if how == "shared"]
    if not words:
        return text
    pat = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")
    out, pos = [], 0
    for m in pat.finditer(text):
        k = m.end()
        # skip the type words (and a template argument list) up to the declarator
        while True:
            w = re.compile(r"\s*([A-Za-z_]\w*)").match(text, k)
            if w is None:
                break
            k = w.end()
            t = re.compile(r"\s*<").match(text, k)
            if t is not None and w.group(1) != "operator":
                k = _balanced(text, t.end() - 1, "<", ">")
        nxt = re.compile(r"\s*(\(\s*)?([*&])").match(text, k)
        if nxt is not None:
            out.append(text[pos: m.start()] + " " * (m.end() - m.start()))
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


class _Qualifiers:
    def __init__(self, backend):
        spec = backend.lowering
        self.kernel_words: set[str] = set()
        self.device_words: set[str] = set()
        self.drop: set[str] = set(spec.extra_drop)
        self.drop_call: set[str] = set()
        self.shared: set[str] = set()
        for key, how in spec.qualifier_concepts.items():
            c = dialect.concept(key)
            name = c.name(backend.name)
            names = {name} if name else set()
            names |= set(c.aliases.get(backend.name, ()))
            if not names:
                continue
            if how == "kernel":
                self.kernel_words |= names
            elif how == "drop":
                self.drop |= names
                if key == "device_fn":
                    self.device_words |= names
            elif how == "drop_call":
                self.drop_call |= names
            elif how == "shared":
                self.shared |= names
        for word, how in spec.address_spaces.items():
            (self.shared if how == "shared" else self.drop).add(word)
        self.all_words = self.kernel_words | self.drop | self.shared | self.drop_call


def _rewrite_item(text: str, q: _Qualifiers, spec, attrs: dict | None) -> str:
    """`spec`: the backend's `Lowering`."""
    # attributes [[...]]: record parameter attributes (Metal), then remove
    if spec.attributes and "[[" in text:
        if attrs is not None:
            for m in re.finditer(r"(\w+)\s*\[\[\s*(\w+)\s*(?:\(\s*([^)]*)\))?\s*\]\]", text):
                attrs[m.group(1)] = (m.group(2), m.group(3))
        text = re.sub(r"\[\[.*?\]\]", lambda m: _blank(m.group(0)), text, flags=re.S)
    for word in q.drop_call:
        for m in list(re.finditer(r"\b" + re.escape(word) + r"\s*\(", text))[::-1]:
            end = _balanced(text, m.end() - 1)
            text = text[: m.start()] + _blank(text[m.start():end]) + text[end:]
    text = _rewrite_casts(text)
    if spec.address_spaces:
        text = _rewrite_as_type(text)
        text = _pointee_address_spaces(text, spec)
    if "::" in text:
        text = re.sub(r"\bstd\s*::\s*", "", text)
        text = re.sub(r"(\b\w+)\s*::\s*(\w+)", lambda m: m.group(1) + NS_SEP + m.group(2), text)
    words = q.all_words

    def word(m):
        w = m.group(0)
        if w in q.shared:
            return SHARED_STORAGE
        if w in words:
            return " " * len(w)
        if w == "auto":
            return AUTO_TYPE
        if w == "__restrict__" or w == "__restrict":
            return "restrict"
        return w

    text = re.sub(r"\b[A-Za-z_]\w*\b", word, text)
    if spec.address_spaces:
        # `constant int& n` / `const device float& x`: pass scalars by value
        text = re.sub(r"(\w)\s*&\s*(\w+\s*[,)])", r"\1 \2", text)
        text = re.sub(r"\busing\s+namespace\s+\w+\s*;", lambda m: _blank(m.group(0)), text)
    return text


def _item_info(it: Item, q: _Qualifiers):
    head = it.text.split("{", 1)[0]
    toks = set(re.findall(r"[A-Za-z_]\w*", head))
    is_func = "{" in it.text and _FUNC_HEAD.match(head) is not None and "(" in head
    name = None
    if is_func:
        m = re.search(r"([A-Za-z_]\w*)\s*\($", head[: _paren_start(head)] + "(")
        name = m.group(1) if m else None
    if is_func and toks & q.kernel_words and (q.kernel_words != {"kernel"} or re.search(r"\bkernel\s+void\b", head)):
        kind = "kernel"
    elif is_func and toks & q.device_words:
        kind = "device"
    elif is_func:
        kind = "plain"
    else:
        kind = "decl"
    return kind, name


def _paren_start(head: str) -> int:
    """Index of the '(' opening the parameter list of a function head."""
    depth = 0
    for j in range(len(head) - 1, -1, -1):
        if head[j] == ")":
            depth += 1
        elif head[j] == "(":
            depth -= 1
            if depth == 0:
                return j
    return len(head)


_CXX_ONLY = re.compile(r"<<<|\bclass\b|\boperator\b|\bnew\b|\bdelete\b|\bthrow\b|\btry\b|\bthis\b|\bstd\s*::|"
                       r"\btemplate\b|\bpublic\s*:|\bprivate\s*:")


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------
_CACHE: dict[str, Lowered] = {}


def lower(source_text: str, backend: str = "cuda", template_args: dict[str, str] | list[str] | None = None,
          *, path: str = "<kernel>", kernel: str | None = None, defines: dict[str, str] | None = None) -> Lowered:
    """Lower kernel text to C99 for pycparser.

    template_args: a dict (template parameter name -> C text) applied to template kernels, or a
    list of positional arguments for the template function `kernel`.
    """
    try:
        be = _backend(backend)
    except KeyError as e:
        raise LowerError(str(e.args[0]), path) from None
    key = hashlib.sha1(repr((source_text, backend, template_args, path, kernel,
                             sorted((defines or {}).items()))).encode()).hexdigest()
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    spec = be.lowering
    q = _Qualifiers(be)
    targs_src = None
    if template_args:
        # template arguments may use the file's macros: expand them with the file
        vals = list(template_args.values()) if isinstance(template_args, dict) else list(template_args)
        targs_src = "\n__kp_template_args__ " + " @@ ".join(str(v) for v in vals) + " __kp_end__\n"
    pre = preprocess(source_text + (targs_src or ""), path, backend, defines)
    if targs_src is not None:
        m = re.search(r"__kp_template_args__(.*?)__kp_end__", pre, re.S)
        if m:
            vals = [v.strip() for v in m.group(1).split("@@")]
            if isinstance(template_args, dict):
                template_args = dict(zip(template_args.keys(), vals))
            else:
                template_args = vals
            pre = pre[: m.start()] + pre[m.end():]
    items = split_items(pre)

    templates: dict[str, list] = {}
    param_attrs: dict[str, dict] = {}
    dropped: list[tuple[int, str]] = []
    kernels: list[str] = []
    devices: list[str] = []
    kept: list[Item] = []
    tmpl_items: dict[str, Item] = {}
    for it in items:
        text, tparams = _strip_template_header(it.text)
        it.text = text
        it.kind, it.name = _item_info(it, q)
        if tparams is not None:
            it.tparams = tparams
            if it.name:
                templates[it.name] = tparams
        if it.kind in ("kernel", "device") and it.name:
            (kernels if it.kind == "kernel" else devices).append(it.name)
        if it.kind == "plain" and _CXX_ONLY.search(it.text):
            dropped.append((it.line, "host C++"))
            continue
        if it.kind == "decl" and _CXX_ONLY.search(it.text):
            dropped.append((it.line, "C++ declaration"))
            continue
        if it.tparams is not None and it.name:
            tmpl_items[it.name] = it
            continue
        kept.append(it)

    # Template instantiation: the requested kernel with the given arguments, helpers on demand.
    instances: list[Item] = []
    if tmpl_items:
        instances = _instantiate(kept, tmpl_items, template_args, kernel, path, dropped)
    all_items = kept + instances
    all_items.sort(key=lambda it: 0 if it.file == "<prelude>" else 1)  # keep file order otherwise (stable)

    for it in all_items:
        attrs: dict = {}
        it.text = _rewrite_item(it.text, q, spec, attrs if it.kind == "kernel" else None)
        if attrs and it.name:
            param_attrs[it.name] = attrs

    ast, text, all_items = _parse_with_retries(all_items, path, dropped)
    overloads = _rename_overloads(ast)
    functions = {e.decl.name: e for e in ast.ext if isinstance(e, c_ast.FuncDef)}
    overrides = {}
    for ckey, what in (("half", "half"), ("bfloat16", "bfloat16")):
        for b in _backends_names():
            nm = dialect.concept(ckey).name(b)
            if nm:
                overrides[nm] = what
    overrides[AUTO_TYPE] = "auto"
    low = Lowered(text, ast, path, backend, functions, [k for k in kernels if k in functions] or
                  [k for k in functions if any(k.startswith(t + "__kp") for t in kernels)],
                  [d for d in devices if d in functions], templates, param_attrs, dropped, overrides, overloads)
    _CACHE[key] = low
    return low


OVERLOAD_SEP = "__kpov"


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


def _instantiate(kept, tmpl_items, template_args, kernel, path, dropped) -> list[Item]:
    out: list[Item] = []
    done: dict[tuple, str] = {}

    def make(name: str, args: list[str] | None, explicit_map: dict | None = None) -> str:
        it = tmpl_items[name]
        mapping: dict[str, str] = {}
        for k, (kind, pname, default) in enumerate(it.tparams):
            if explicit_map is not None and pname in explicit_map:
                val = explicit_map[pname]
            elif args is not None and k < len(args):
                val = args[k]
            elif default is not None:
                val = default
            elif kind == "type":
                val = AUTO_TYPE
            else:
                raise LowerError(f"template parameter {pname} of {name} has no value "
                                 f"(give it with `@kp instantiate` / template_args)", path, it.line)
            val = val.strip()
            mapping[pname] = val if kind == "type" else f"({val})"
        key = (name, tuple(sorted(mapping.items())))
        if key in done:
            return done[key]
        inst = name if it.kind == "kernel" else f"{name}__kp{len(done)}"
        done[key] = inst
        body = _substitute(it.text, mapping)
        if inst != name:
            body = re.sub(r"\b" + re.escape(name) + r"(\s*\()", inst + r"\1", body, count=1)
        new = Item(body, it.file, it.line, it.kind, inst)
        out.append(new)
        return inst

    # kernels
    for name, it in tmpl_items.items():
        if it.kind != "kernel":
            continue
        if isinstance(template_args, dict):
            make(name, None, template_args)
        elif template_args is not None and (kernel is None or kernel == name):
            make(name, list(template_args))
        else:
            try:
                make(name, None)
            except LowerError:
                if kernel == name:
                    raise
                dropped.append((it.line, "template kernel without arguments"))

    # helper calls `f<args>(` or `f(` in kept and instantiated items (to a fixed point)
    names = [n for n, it in tmpl_items.items() if it.kind != "kernel"]
    if not names:
        return out
    call = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\s*(<)?")
    pending = list(kept) + list(out)
    seen = 0
    while pending and seen < 200:
        seen += 1
        it = pending.pop(0)
        text = it.text
        res, pos = [], 0
        for m in call.finditer(text):
            if m.start() < pos:
                continue
            name = m.group(1)
            if it.name == name and it.tparams is not None:
                continue
            if m.group(2):
                end = _balanced(text, m.end() - 1, "<", ">")
                if not re.match(r"\s*\(", text[end:]):
                    continue
                args = _split_commas(text[m.end(): end - 1])
                before = len(out)
                inst = make(name, [a for a in args if a.strip()])
                res.append(text[pos: m.start()] + inst + " " * (end - m.start() - len(inst)))
                pos = end
            else:
                if not re.match(r"\s*\(", text[m.end():]):
                    continue
                before = len(out)
                inst = make(name, None)
                res.append(text[pos: m.start()] + inst)
                pos = m.end()
            if len(out) > before:
                pending.append(out[-1])
        if res:
            it.text = "".join(res) + text[pos:]
    return out


def _parse_with_retries(items: list[Item], path: str, dropped: list) -> tuple[c_ast.FileAST, str, list[Item]]:
    items = list(items)
    for _ in range(len(items) + 1):
        text = "".join(f'# {it.line} "{it.file}"\n{it.text}\n' for it in items)
        parser = c_parser.CParser()
        try:
            return parser.parse(text, filename=path), text, items
        except c_parser.ParseError as e:
            file, line, col = _error_location(parser, str(e), path)
            bad = None
            for it in items:
                if it.file == file and it.line <= line <= it.line + it.text.count("\n"):
                    bad = it
            if bad is None or bad.kind in ("kernel", "device") or bad.file == "<prelude>":
                msg = str(e).split(": ", 1)[-1] if ": " in str(e) else str(e)
                raise LowerError(f"cannot lower for the emulator: {msg}", file if file != "<stdin>" else path,
                                 line, col) from None
            dropped.append((bad.line, "not C99"))
            items.remove(bad)
    raise LowerError("cannot lower", path)


def _error_location(parser, msg: str, path: str) -> tuple[str, int, int]:
    m = re.match(r"(.*?):(\d+):(\d+):", msg)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3))
    try:
        tok = parser._peek() or getattr(parser, "_last_tok", None)
        return parser.clex.filename, tok.lineno, tok.column
    except Exception:
        return path, 0, 0
