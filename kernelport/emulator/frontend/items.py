"""Top-level items of preprocessed text (functions, declarations), template headers and
template instantiation."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...cexpr import split_top_level
from .lowered import AUTO_TYPE, LowerError

if TYPE_CHECKING:
    from .rewrite import Qualifiers


@dataclass
class Item:
    """One top-level item of a source file, as the frontend splits it."""
    text: str
    file: str
    line: int
    kind: str = "decl"  # kernel | device | plain | decl | marker
    name: str | None = None
    tparams: list[tuple[str, str, str | None]] | None = None
    namespace: str = ""  # the named namespaces it is defined in (`a::b`), "" at file scope (namespaces.py)


_MARKER = re.compile(r'#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')
FUNC_HEAD = re.compile(r"^(?!\s*(?:typedef|struct|union|enum|class)\b)[^=]*\)\s*[^;]*$", re.S)


def is_function_head(head: str) -> bool:
    """FUNC_HEAD on the top level of `head`: the `=` of a default argument (`int w = 32`), or of a
    template parameter's default (`template <int N, int SKEW = 0> __device__ void f(...)`), is not
    an initialiser's."""
    head = re.sub(r"\boperator\s*[^\w\s(]+", "operator", strip_template_header(head)[0])  # `operator+=(`
    out, depth = [], 0
    for c in head:
        if c == ")":
            depth -= 1
        out.append(c if depth == 0 or c in "()" else " ")
        if c == "(":
            depth += 1
    return FUNC_HEAD.match("".join(out)) is not None and "(" in head


def split_items(text: str) -> list[Item]:
    items: list[Item] = []
    file, line = "<stdin>", 1
    i, n = 0, len(text)
    buf: list[str] = []
    start: tuple[str, int] | None = None
    depth = 0
    opened: list[str] = []  # the transparent blocks open here: a namespace's name ("" unnamed, extern "C")
    at_line_start = True

    def flush():
        nonlocal buf, start
        t = "".join(buf).strip()
        if t and start is not None:
            items.append(Item(t, start[0], start[1], namespace="::".join(n for n in opened if n)))
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
            if depth == 0 and (ns := re.fullmatch(r'namespace(?:\s+(\w+))?|extern\s*"C(?:\+\+)?"', so_far)):
                opened.append(ns.group(1) or "")
                buf, start = [], None
                i += 1
                continue
            depth += 1
        elif c == "}":
            if depth == 0 and opened:
                flush()
                opened.pop()
                i += 1
                continue
            depth -= 1
            if depth == 0:
                so_far = "".join(buf)
                head = so_far[: so_far.find("{")] if "{" in so_far else so_far
                if is_function_head(head):
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


def line_at(it: Item, offset: int) -> int:
    """The original line of it.text[offset] (cpp's line markers inside an item included)."""
    line, start = it.line, 0
    for m in _MARKER_LINE.finditer(it.text, 0, offset):
        line, start = int(m.group(1)), m.end()
    return line + it.text.count("\n", start, offset)


_MARKER_LINE = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"[^"]*"[^\n]*\n', re.M)


def balanced(text: str, i: int, open_c: str = "(", close_c: str = ")") -> int:
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


def blank(s: str) -> str:
    """Same lines, same length: keeps line numbers and most columns."""
    return re.sub(r"[^\n]", " ", s)


_TEMPLATE = re.compile(r"^\s*template\s*<")


def strip_template_header(text: str) -> tuple[str, list[tuple[str, str, str | None]] | None]:
    m = _TEMPLATE.match(text)
    if not m:
        return text, None
    lt = m.end() - 1
    end = balanced(text, lt, "<", ">")
    inner = text[lt + 1: end - 1]
    params = []
    for part, _ in split_top_level(inner, brackets="(<[{"):  # `<` nests: template<int N = f<2>()>
        if not part:
            continue
        default = None
        if "=" in part:
            part, default = (s.strip() for s in part.split("=", 1))
        words = part.split()
        kind = "type" if words[0] in ("typename", "class") else "value"
        params.append((kind, words[-1], default))
    return blank(text[:end]) + text[end:], params


def _substitute(text: str, mapping: dict[str, str]) -> str:
    if not mapping:
        return text
    pat = re.compile(r"\b(" + "|".join(re.escape(k) for k in mapping) + r")\b")
    return pat.sub(lambda m: mapping[m.group(1)], text)


def item_info(it: Item, q: Qualifiers):
    head = it.text.split("{", 1)[0]
    toks = set(re.findall(r"[A-Za-z_]\w*", head))
    is_func = "{" in it.text and is_function_head(head)
    name = None
    if is_func:
        m = re.search(r"([A-Za-z_]\w*)\s*\($", head[: _paren_start(head)] + "(")
        name = m.group(1) if m else None
    if is_func and toks & q.kernel_words and (q.kernel_head is None or q.kernel_head.search(head)):
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


CXX_ONLY = re.compile(r"<<<|\bclass\b|\boperator\b|\bnew\b|\bdelete\b|\bthrow\b|\btry\b|\bthis\b|\bstd\s*::|"
                       r"\btemplate\b|\bpublic\s*:|\bprivate\s*:")


_CONSTEXPR = re.compile(r"\bconstexpr\s+(?:[A-Za-z_]\w*\s+)+?([A-Za-z_]\w*)\s*(?:=\s*([^;{}]+?)|\{([^;{}]*)\})\s*;")


def _constexpr_values(args: list[str], text: str) -> list[str]:
    """Template arguments a caller names by its own constexpr locals (`constexpr size_t
    NUM_THREADS{BX * BY};` then `load<T, NUM_THREADS>(...)`): their values, which the helper's
    instance is made with (the local is no name in the helper's body)."""
    consts = {m.group(1): f"({(m.group(2) or m.group(3)).strip()})" for m in _CONSTEXPR.finditer(text)}
    if not consts:
        return args
    out = []
    for a in args:
        for _ in range(8):  # a constexpr defined through another
            b = _substitute(a, consts)
            if b == a:
                break
            a = b
        out.append(a)
    return out


def instantiate(kept, tmpl_items, template_args, kernel, path, dropped, arefs=None, classes=None,
                functors=None) -> list[Item]:
    """Template kernels with their arguments, then the helpers their calls name, to a fixed point;
    `arefs` (arrayrefs.group): names whose calls choose a definition by their array arguments;
    `classes` (classtemplates.ClassTemplates): class-template members, resolved in each text;
    `functors` (functors.Functors): the calls of function objects an instance's arguments name."""
    from .arrayrefs import resolve
    arefs = arefs or {}
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
        if functors:
            functors.rewrite(new)
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
    names = [n for n, it in tmpl_items.items() if it.kind != "kernel"] + [n for n in arefs if n not in tmpl_items]
    if not names and classes is None:
        return out
    file_scope = "\n".join(it.text for it in kept if it.kind == "decl")
    if classes is not None:
        classes.file_scope = file_scope

    def calls(names):
        return re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b\s*(<)?")  # \b: not `ldg` of `ldg_stream`
    call = calls(names or ["__kp_no_name__"])
    pending = list(kept) + list(out)
    seen = 0
    while pending and seen < 200 + len(kept):  # the file's items, then at most 200 instances
        seen += 1
        it = pending.pop(0)
        if classes is not None:
            it.text = classes.resolve(it.text, (it.file, it.line))
            for new in classes.new_items:  # member functions made free functions
                if new.tparams is not None:
                    tmpl_items[new.name] = new
                    names.append(new.name)
                    call = calls(names)
                else:
                    out.append(new)
                    pending.append(new)
            classes.new_items.clear()
        text = it.text
        res, pos = [], 0
        for m in call.finditer(text):
            if m.start() < pos:
                continue
            name = m.group(1)
            if it.name == name and it.tparams is not None:
                continue
            # overloads (several definitions, templates among them): `f(args)`, or `f<targs>(args)` whose
            # written template arguments only a template of the arity takes (llm.c's blockReduce<warpReduceMax>(v)
            # beside blockReduce<warpReduceMax>(v, false, 0.0f))
            explicit, after = None, m.end()
            if name in arefs and m.group(2) and name not in tmpl_items:
                after = balanced(text, m.end() - 1, "<", ">")
                explicit = _constexpr_values([a for a, _ in split_top_level(text[m.end(): after - 1],
                                                                            brackets="(<[{") if a], text)
            if name in arefs and (not m.group(2) or explicit is not None) and re.match(r"\s*\(", text[after:]):
                open_i = after + text[after:].index("(")
                args = [a for a, _ in split_top_level(text[open_i + 1: balanced(text, open_i) - 1])]
                hit = resolve(arefs[name], args, text, m.start(), file_scope, explicit)
                if hit is None and len(arefs[name]) == 1 and arefs[name][0].tparams is not None:
                    hit = arefs[name][0], {}  # nothing deduced: the template's own defaults, or its error
                if hit is None:
                    written = f"<{', '.join(explicit)}>" if explicit is not None else ""
                    raise LowerError(f"cannot choose the definition of {name} for `{name}{written}({', '.join(args)})`: "
                                     f"it has several definitions (overloads, templates, array references), and "
                                     f"none or several take these arguments (an array argument must name a local, "
                                     f"parameter or file-scope array of a known element type and length)",
                                     it.file, line_at(it, m.start()))
                cand, bound = hit
                before = len(out)
                try:
                    inst = make(cand.key, None, bound) if cand.tparams is not None else cand.key
                except LowerError:  # a template deduced from its arguments (a port's cg::reduce(tile, v, op)):
                    continue  # left as written, as an original's library call is; a kernel that calls it cannot run
                res.append(text[pos: m.start()] + inst + " " * max(0, after - m.start() - len(inst)))
                pos = after
                if len(out) > before:
                    pending.append(out[-1])
                continue
            if m.group(2):
                end = balanced(text, m.end() - 1, "<", ">")
                if not re.match(r"\s*\(", text[end:]):
                    continue
                args = [a for a, _ in split_top_level(text[m.end(): end - 1], brackets="(<[{") if a]
                args = _constexpr_values(args, text)
                before = len(out)
                inst = make(name, args)
                res.append(text[pos: m.start()] + inst + " " * (end - m.start() - len(inst)))
                pos = end
            else:
                if not re.match(r"\s*\(", text[m.end():]):
                    continue
                before = len(out)
                try:
                    inst = make(name, None)
                except LowerError:  # (as above)
                    continue
                res.append(text[pos: m.start()] + inst)
                pos = m.end()
            if len(out) > before:
                pending.append(out[-1])
        if res:
            it.text = "".join(res) + text[pos:]
    return out
