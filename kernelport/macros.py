"""Macros as the parser needs them: the file's `#define`s, and the masks that let the grammar see
through macros it cannot expand.

tree-sitter parses the text as written, without a preprocessor, so a macro in attribute position
(`HOST_DEVICE int f()`, `void CUDART_CB cb()`, `float* RESTRICT p`), an attribute spelling the
grammar lacks (`__builtin_align__(32)`, `x[4] __attribute__((aligned(16)))`) or a macro used as a
statement without `;` (`CHECK(cudaMalloc(&p, n))`) stops the parse.  A preprocessor cannot help:
its output has other columns than the user's text, and every consumer addresses the user's
text by the tree's byte offsets.  So the copy the grammar sees is *masked* instead: the bytes
that stand in the way become spaces (a statement macro's `(`/`)` become ` `/`;`), never added or
removed, so every byte offset, line and column is the user's.  Only what is needed is masked:
`macro_repair.repair` tries candidates at each error region and keeps one only where the parse
improves.  This module says what a macro is; `SourceFile.masks` records what was masked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence
from . import lazy_re


@dataclass(frozen=True)
class MacroDef:
    """A `#define` as read from a file."""
    name: str
    params: tuple[str, ...] | None  # None: object-like
    body: str  # the replacement list, continuations joined, comments removed
    path: str
    line: int


@dataclass(frozen=True)
class Mask:
    """Bytes [start, end) of the user's text that the grammar saw as blanks."""
    start: int
    end: int
    name: str  # the macro or spelling masked
    reason: str  # "attribute", "statement", "items", "arguments", "conditional"
    expansion: str | None = None  # its replacement list where a definition is known
    alternative: bool = False  # a conditional's branch hidden while another branch is kept
    checked: bool = False  # a branch hidden where it parses in another configuration (kernelport/split_configurations.py)


# A Mask's name: a functional cast of a type of several words seen C-style, `unsigned int(v)`
# (grammar_gaps.functional_cast); the ports write it C-style (lexing.functional_casts)
FUNCTIONAL_CAST = "functional cast"
# A Mask's name: qualifier words nvcc and g++ ignore before a declaration of a type alone, `__device__
# struct Config {...};` (grammar_gaps): no code (what the port does with them: a port that cannot spell
# them drops them, metal/hostcode.py)
IGNORED_QUALIFIERS = "ignored qualifiers"
REFERENCE_QUALIFIER = "& const"  # a Mask's name: a cv-qualifier on a reference declarator (grammar_gaps; the ports drop it)
NEVER = "conditional (never compiled)"  # a Mask's reason: the branch of `#if 0`, which no build compiles
_COMMENT = lazy_re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRINGS = lazy_re.compile(r'(?:L|u8|u|U)?"(?:\\.|[^"\\])*"(?:\s*(?:L|u8|u|U)?"(?:\\.|[^"\\])*")*')
_DIRECTIVE = lazy_re.compile(r"[ \t]*#[ \t]*(define|undef)[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)", re.S)


def _blank(m: re.Match) -> str:
    return re.sub(r"[^\n]", " ", m.group(0))


def definitions(src, path: str | None = None, *, undefined: bool = False,
                skip: "Sequence[tuple[int, int]]" = ()) -> dict[str, MacroDef]:
    """The macros a file defines (`src`: a SourceFile or its text); an `#undef` removes one, unless
    `undefined` (what the file's own uses see: a helper macro defined, used, then undefined).
    `skip`: line ranges (first, last; 0-based) of branches the unit's walk knows no compile of this
    run takes (includewalk.Scan.decided_out): their directives are not read.

    Conditionals are not evaluated: of several definitions of one name the last one wins, except
    that a definition naming a GPU execution space (`__global__`, `__device__`) is kept over one in
    another branch of the same conditional that names none (cuDF's `CUDF_KERNEL`: `__global__
    static` under `#ifdef __HIP_PLATFORM_AMD__`, `static` after `#else`; `HD` defined empty for a
    host compiler): every GPU compile takes a branch that makes the code device code, and lint
    and the port read device code.  A branch no build compiles (`#if 0`) is no such branch.  And
    one in the branch every CUDA compile takes (`#ifdef __CUDACC__`, the `#else` of `#ifndef
    __CUDACC__`: CUDA_COMPILE) is kept over one in another branch of that conditional
    (CudaTracerLib's `#define CUDA_HOST __host__`, empty after `#else`), as the include walk takes it.
    """
    text = src if isinstance(src, str) else src.text
    path = path if path is not None else getattr(src, "path", "<string>")
    if "define" not in text:
        return {}
    global _READ
    if _READ is None:
        from .source import _Kept
        _READ = _Kept(2 << 20)
    # by content for the process: a file's definitions were read again by each asker of a run (its
    # parse's macros, the include walk's, the includer's context) and by each project that includes it
    key = (text, path, undefined, tuple(skip))
    got = _READ.get(key)
    if got is None:
        got = _READ.put(key, _definitions(text, path, undefined, skip), len(text))
    return dict(got)  # (the caller's to change)


_READ = None  # source._Kept: (text, path, undefined, skip) -> definitions


def _definitions(text: str, path: str, undefined: bool, skip) -> dict[str, MacroDef]:
    out: dict[str, MacroDef] = {}
    lines = _COMMENT.sub(_blank, text).split("\n")  # comments blanked: line numbers kept
    # Where each definition stands: the (conditional, branch) pairs around it, outermost first.
    stack: list[tuple[int, int, bool]] = []  # (conditional's line, branch, branch never compiled)
    where: dict[str, tuple[tuple[int, int], ...] | None] = {}
    cuda: dict[int, bool] = {}  # conditional's line -> whether its first branch is the one CUDA compiles take
    i = 0
    while i < len(lines):
        first, logical = i, lines[i]
        while logical.rstrip().endswith("\\") and i + 1 < len(lines):  # continuation lines
            i += 1
            logical = logical.rstrip()[:-1] + " " + lines[i]
        i += 1
        m = _DIRECTIVE.fullmatch(logical)
        if m is None:
            c = _CONDITIONAL.match(logical) if "#" in logical else None
            if c is not None:
                _nest(stack, c.group(1), c.group(2), first)
                if c.group(1) in ("if", "ifdef", "ifndef") and (t := _cuda_test(c.group(1), c.group(2))) is not None:
                    cuda[first] = t
            continue
        if skip and any(a <= first <= b for a, b in skip):
            continue  # a definition no compile of this run reads
        kind, name, params, body = m.groups()
        if kind == "undef":
            out.pop(name, None) if not undefined else None
            continue
        plist = None if params is None else tuple(p.strip() for p in params[1:-1].split(",") if p.strip())
        if plist and plist[-1].endswith("...") and plist[-1] != "...":
            plist, body = _standard_variadic(plist, body)
        new = MacroDef(name, plist, " ".join(body.split()), path, first + 1)
        at = tuple((line, branch) for line, branch, _ in stack)
        old = out.get(name)
        if old is not None and where[name] is not None and _alternatives(where[name], at) \
                and _spaces(old.body) and not _spaces(new.body):
            continue  # another branch of the conditional makes it device code on a GPU compile
        if old is not None and where[name] is not None and _cuda_side(where[name], at, cuda) == "old":
            continue  # the other branch is the one every CUDA compile takes
        out[name] = new
        where[name] = None if any(never for _, _, never in stack) else at  # `#if 0`: no build's
    return out


_CONDITIONAL = lazy_re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)", re.S)
_GPU_SPACES = lazy_re.compile(r"\b(?:__global__|__device__)\b")


def _standard_variadic(plist: tuple[str, ...], body: str) -> tuple[tuple[str, ...], str]:
    """GCC's named variadic parameter (`#define panic(args...) fprintf(stderr, args)`) as the standard
    one: `...`, its name in the body `__VA_ARGS__`, which is what it means."""
    name = plist[-1][:-3].strip()
    return plist[:-1] + ("...",), re.sub(rf"\b{re.escape(name)}\b", "__VA_ARGS__", body) if name else body


def _nest(stack: list[tuple[int, int, bool]], kind: str, test: str, line: int) -> None:
    """Follow one conditional directive: `#if` opens, `#elif`/`#else` start its next branch, `#endif` closes."""
    if kind.startswith("if"):
        stack.append((line, 0, kind == "if" and test.strip() == "0"))
    elif kind == "endif":
        stack.pop() if stack else None
    elif stack:
        opened, branch, _ = stack.pop()
        stack.append((opened, branch + 1, kind == "elif" and test.strip() == "0"))


def _alternatives(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    """Whether two places are in different branches of one conditional (no compile reaches both)."""
    for (ca, ba), (cb, bb) in zip(a, b):
        if ca != cb:
            return False
        if ba != bb:
            return True
    return False


# What every compile of the CUDA source defines, host and device passes alike (nvcc and clang), and every
# port renames to a macro its own compiler defines (HIP's API table: __HIPCC__; `compiler_macros`): the
# include walk (kernelport.includewalk) and `definitions` take `#ifdef __CUDACC__`, not its `#else`.
CUDA_COMPILE = frozenset({"__CUDACC__"})
_DEFINED_TEST = lazy_re.compile(r"\s*(!?)\s*defined\s*\(?\s*([A-Za-z_]\w*)\s*\)?\s*")


def _cuda_test(kind: str, test: str) -> bool | None:
    """Whether a conditional's first branch is what CUDA compiles take (`#ifdef __CUDACC__`: True;
    `#ifndef __CUDACC__`, `#if !defined(__CUDACC__)`: False); None where its test is no such name."""
    if kind in ("ifdef", "ifndef"):
        words = test.split()
        return kind == "ifdef" if words and words[0] in CUDA_COMPILE else None
    m = _DEFINED_TEST.fullmatch(test)
    return (not m.group(1)) if m is not None and m.group(2) in CUDA_COMPILE else None


def _cuda_side(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...], cuda: dict[int, bool]) -> str | None:
    """Of two places in different branches of one conditional on CUDA_COMPILE, the one CUDA compiles
    take ("old": `a`, "new": `b`); None where neither or no such conditional."""
    for (ca, ba), (cb, bb) in zip(a, b):
        if ca != cb:
            return None
        if ba != bb:
            first = cuda.get(ca)
            if first is None:
                return None
            taken = (lambda br: br == 0) if first else (lambda br: br != 0)
            return "old" if taken(ba) and not taken(bb) else "new" if taken(bb) and not taken(ba) else None
    return None


def _spaces(body: str) -> bool:
    return _GPU_SPACES.search(body) is not None


# -- what a macro is --------------------------------------------------------------------------
# Words that qualify or decorate a declaration and never make one: a macro that expands only to
# these (or to nothing) can be masked without changing what the declaration declares, except for
# the qualifiers themselves, which `Mask.expansion` keeps for the model.
ATTRIBUTE_WORDS = frozenset("""
__host__ __device__ __global__ __forceinline__ __noinline__ __inline__ __inline inline static extern
constexpr __restrict__ __restrict restrict __managed__ __shared__ __constant__ volatile const
__stdcall __cdecl __fastcall CUDART_CB CUDAAPI __CUDA_ALIGN__ __grid_constant__ __device_builtin__
""".split())
# Execution spaces and inlining words that nvcc also takes after a function's return type (a
# sequence-alignment library's `T const & __device__ __host__ max(`): the grammar takes them only
# before it.  Masked there, each keeps its word as the mask's expansion, so the model still reads it.
SPACE_WORDS = frozenset("__host__ __device__ __global__ __forceinline__ __noinline__".split())
# The standard library's macros that stand for a string literal, lower-case letters and all: the
# <inttypes.h> format specifiers (`"%" PRIu64 "\n"`, `SCNd32`), concatenated with the literals
# beside them.
STRING_MACROS = lazy_re.compile(r"(?:PRI|SCN)[diouxX](?:8|16|32|64|LEAST(?:8|16|32|64)|FAST(?:8|16|32|64)|MAX|PTR)")
# Attribute spellings that take a parenthesised argument list.
ATTRIBUTE_CALLS = frozenset("""
__attribute__ __declspec __align__ __builtin_align__ __launch_bounds__ alignas __cluster_dims__
__maxnreg__ _Alignas
""".split())


def attribute_like(m: MacroDef, macros: Mapping[str, MacroDef], depth: int = 0) -> bool:
    """Whether the macro expands only to attributes and qualifiers (or nothing)."""
    body = re.sub(r'extern\s*"C(\+\+)?"', " ", m.body)
    body = re.sub(r"\[\[.*?\]\]", " ", body)
    toks = _words_and_groups(body)  # a string outside an attribute's parentheses: not attribute-like
    if toks is None:
        return False
    for tok in toks:
        if tok in ATTRIBUTE_WORDS or tok.split("(")[0].strip() in ATTRIBUTE_CALLS:
            continue
        inner = macros.get(tok.split("(")[0].strip())
        if inner is not None and inner is not m and depth < 8 and attribute_like(inner, macros, depth + 1):
            continue
        return False
    return True


def _words_and_groups(body: str) -> list[str] | None:
    """`a b(c(d)) e` -> ['a', 'b(c(d))', 'e']; None if anything else stands there."""
    out, i, n = [], 0, len(body)
    while i < n:
        if body[i].isspace():
            i += 1
            continue
        m = re.match(r"[A-Za-z_]\w*", body[i:])
        if not m:
            return None
        j = i + m.end()
        k = j
        while k < n and body[k].isspace():
            k += 1
        if k < n and body[k] == "(":
            depth = 0
            while k < n:
                depth += body[k] == "("
                depth -= body[k] == ")"
                k += 1
                if depth == 0:
                    break
            if depth:
                return None
            j = k
        out.append(body[i:j])
        i = j
    return out


def expansion(name: str, macros: Mapping[str, MacroDef], depth: int = 0) -> str | None:
    """A macro's replacement list with object-like macros in it expanded (bounded), or None."""
    m = macros.get(name)
    if m is None:
        return None
    if depth >= 8:
        return m.body
    return re.sub(r"[A-Za-z_]\w*", lambda w: (expansion(w.group(0), macros, depth + 1) or w.group(0))
                  if w.group(0) != name and w.group(0) in macros and macros[w.group(0)].params is None
                  else w.group(0), m.body)


_LAST_CALL = lazy_re.compile(r"([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$")
# ... whose name is pasted together (`B##_KERNEL(...)`, `pre##B(...)`)
_PASTED_CALL = lazy_re.compile(r"((?:[A-Za-z_]\w*\s*##\s*)+[A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$")


def one_group(body: str, brackets: str = "()") -> bool:
    """Whether a replacement list is one parenthesized group, `(a && b)`: where C requires a
    parenthesized condition, the macro's use supplies it (`brackets="{}"`: one braced block)."""
    body = body.strip()
    if not body.startswith(brackets[0]):
        return False
    depth, quote = 0, ""
    for i, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote and body[i - 1] != "\\" else quote
        elif ch in "'\"":
            quote = ch
        elif ch == brackets[0]:
            depth += 1
        elif ch == brackets[1]:
            depth -= 1
            if depth == 0:
                return i == len(body) - 1
    return False


def ends_definition(m: MacroDef, macros: Mapping[str, MacroDef], depth: int = 0) -> bool:
    """Whether a macro's replacement list ends a definition or declaration (`}` or `;`), directly
    or through the function-like macro it ends by calling (b40c's `CUB_LOAD_BASE(t, ...)` is
    `CUB_LOAD(t, ..., cg) CUB_LOAD(t, ..., ca)`, each a `template<> ... { asm(...); }`): a use of
    it at file scope defines what it expands to."""
    body = m.body.rstrip()
    if body.endswith(("}", ";")):
        return True
    inners = ending_calls(m, macros)
    return bool(inners) and depth < 8 and all(
        (inner := macros.get(n)) is not None and inner is not m and inner.params is not None
        and ends_definition(inner, macros, depth + 1) for n in inners)


def ending_calls(m: MacroDef, macros: Mapping[str, MacroDef]) -> list[str]:
    """The macros a replacement list ends by calling: the name of its last call, or every defined name
    that call's pasted name may be (`BASE##_KERNEL(...)`, _pasted_names)."""
    body = m.body.rstrip()
    last = _LAST_CALL.search(body)
    pasted = _PASTED_CALL.search(body) if last is not None and "##" in body else None
    return _pasted_names(pasted.group(1), m.params or (), macros) if pasted is not None else \
        [last.group(1)] if last is not None else []


def _pasted_names(pasted: str, params: tuple[str, ...], macros: Mapping[str, MacroDef]) -> list[str]:
    """The macros a call's name pasted from parameters may name (sync-ubench's `KERNEL_DDEP(BASE, ...)`
    ends by calling `BASE##_KERNEL(...)`): every defined name the paste matches, a parameter standing
    for any identifier's part (no pre-expansion: `##`'s operands are the arguments as written)."""
    parts = [p.strip() for p in pasted.split("##")]
    shape = re.compile("".join(r"\w*" if p in params else re.escape(p) for p in parts))
    return [n for n in macros if shape.fullmatch(n)]


def opens_else(m: MacroDef, macros: Mapping[str, MacroDef], depth: int = 0) -> bool:
    """Whether a macro's replacement list begins with `else`, directly or through the macro it begins
    by calling: a link of an else-if chain (marlin's `__CALL_IF(...)`, `else if (...) { ... }`, and
    `CALL_IF_AFFINE(...)`, four of them), used after `if (false) {}` and before the chain's `else`."""
    first = re.match(r"\s*([A-Za-z_]\w*)", m.body)
    if first is None:
        return False
    if first.group(1) == "else":
        return True
    inner = macros.get(first.group(1))
    return inner is not None and inner is not m and depth < 8 and opens_else(inner, macros, depth + 1)


def ends_list_item(m: MacroDef, macros: Mapping[str, MacroDef], depth: int = 0) -> bool:
    """Whether a macro's replacement list ends with a list item's `,`, directly or through the macro
    it ends with (libBEVFusion's kernel table `{DefineAllFunction nullptr}`: `DefineAllFunction` is
    `DefineDataType`, `DefineInterpolation(half)`, two `DefineNormType(...)`, each `k<A, B>, ... k<C, D>,`):
    a use of it before an item in a braced list or call's arguments supplies items of its own."""
    body = m.body.rstrip()
    if body.endswith(","):
        return True
    if depth >= 8:
        return False
    last = _LAST_CALL.search(body)
    word = re.search(r"([A-Za-z_]\w*)$", body)
    inner = macros.get(last.group(1)) if last is not None else macros.get(word.group(1)) if word is not None else None
    return inner is not None and inner is not m and (inner.params is not None) == (last is not None) \
        and ends_list_item(inner, macros, depth + 1)


def in_place(name: str, macros: Mapping[str, MacroDef]) -> bytes | None:
    """What the grammar must see for an object-like macro it cannot read through as a name: one that
    opens or closes a scope (`BEGIN_NS` -> `namespace ns {`, `END_NS` -> `}`), stands for string
    literals (an asm constraint `__LDG_PTR` -> `"l"`) or for a pointer behind attributes (OpenGL's
    `APIENTRYP` -> `APIENTRY *` -> `*`), as its expansion padded to the name's length;
    None for any other macro, or where the expansion does not fit (no byte may be added)."""
    m = macros.get(name)
    if m is None or m.params is not None:
        return None
    body = " ".join((expansion(name, macros) or "").split())
    pointer = re.fullmatch(r"((?:[A-Za-z_]\w*\s+)*)([*&]+)", body)  # `APIENTRYP` -> `APIENTRY *`
    if pointer and all(w in ATTRIBUTE_WORDS or w in macros and attribute_like(macros[w], macros)
                       for w in pointer.group(1).split()):
        return pointer.group(2).encode("utf-8").ljust(len(name))  # a calling convention's pointer: `(APIENTRYP f)(`
    if body.count("{") == body.count("}") and not _STRINGS.fullmatch(body):
        return None
    if len(body) > len(name):
        body = re.sub(r"^namespace\s+\w+(?:::\w+)*\s*\{$", "namespace{", body)  # a name the analyses need not see
    return body.encode("utf-8").ljust(len(name)) if len(body.encode("utf-8")) <= len(name) else None


def arguments(args: str) -> list[str]:
    """A macro use's arguments, the text between its parentheses split at its top-level commas, stripped."""
    parts, depth, cur = [], 0, ""
    for ch in args:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts, cur = parts + [cur.strip()], ""
        else:
            cur += ch
    return parts + [cur.strip()] if cur.strip() or parts else parts


def call_in_place(m: MacroDef, args: str, macros: Mapping[str, MacroDef], width: int) -> bytes | None:
    """A function-like macro's use `NAME(args)` written as its expansion (the arguments put in, the
    object-like macros in it expanded), padded to the use's `width` bytes; None where it does not
    fit, or where the body pastes or quotes (`##`, `#`), which this does not evaluate."""
    if m.params is None or "#" in m.body:
        return None
    parts = arguments(args)
    if len(parts) != len(m.params) or "..." in m.params:
        return None
    given = dict(zip(m.params, parts))

    def word(w: re.Match) -> str:
        name = w.group(0)
        if name in given:
            return given[name]
        return (expansion(name, macros) or name) if name in macros and macros[name].params is None else name
    body = re.sub(r"[A-Za-z_]\w*", word, m.body)
    out = " ".join(body.split()).encode("utf-8")
    return out.ljust(width) if 0 < len(out) <= width else None


def in_place_edits(uses: Mapping[str, list[tuple[int, int]]], macros: Mapping[str, MacroDef]):
    """(edits, masks) that write every use (byte spans per name) of such a macro as in_place says."""
    edits, masks = [], []
    for name, spans in uses.items():
        rep = in_place(name, macros)
        for s, e in spans if rep is not None else ():
            edits.append((s, e, rep))
            masks.append(Mask(s, e, name, "expansion", rep.decode("utf-8").strip()))
    return edits, masks


def hides_code(m: Mask) -> bool:
    """Whether the mask took code from the parse (not only a macro's name or a directive line)."""
    return m.reason not in ("conditional", NEVER) and m.name != IGNORED_QUALIFIERS  # `#if 0` hides no build's code


def hidden_words(data: bytes, masks) -> list[tuple[Mask, list[str]]]:
    """Per mask that hides code, the identifiers it hid (the macro's own name left out)."""
    out = []
    for m in masks:
        if hides_code(m):
            words = [w for w in re.findall(r"[A-Za-z_]\w*", data[m.start:m.end].decode("utf-8", "replace"))
                     if w != m.name]
            if words:
                out.append((m, words))
    return out


# A pointer declared (`unsigned int* as =`, `const T *p;`, a parameter `float *dbg,`) or a cast to one
# (`(float *) sm`) where a declaration or an operand starts: its name, or the cast's type
_POINTER_DECLARATION = lazy_re.compile(r"(?:^|[;{}(,])\s*(?:(?:const|volatile|unsigned|signed|struct)\s+)*[A-Za-z_]\w*"
                                       r"(?:\s*<[^;<>]*>)?\s*\*+\s*(?:const\s+)?([A-Za-z_]\w*)\s*(?=[=;,)\[])", re.M)
_POINTER_CAST = lazy_re.compile(r"\(\s*((?:(?:const|volatile|unsigned|signed|struct)\s+)*[A-Za-z_]\w*\s*\*+)\s*\)")


def _pointers(text: str) -> list[str]:
    text = _COMMENT.sub(" ", text)
    return [f"pointer '{m.group(1)}' (no address space)" for m in _POINTER_DECLARATION.finditer(text)] + \
        [f"cast to '{re.sub(r'[ ]+', ' ', m.group(1))}' (no address space)" for m in _POINTER_CAST.finditer(text)]


def masked_code_diagnostics(src, backend: str, ported=None) -> list:
    """KP230 warnings for a port: code the parse saw as blanks (a conditional's other branch, a
    macro's arguments that are not an expression) is not rewritten, so where it names something
    `backend` spells differently the port would keep it silently.  `ported(byte)`: whether the
    code there is part of the port (a Metal port leaves host code out)."""
    from . import backends, dialect, masked_types
    from .diagnostics import Diagnostic
    source = backends.source().name
    spaced = backends.get(backend).pointers_spaced
    out = []
    for m, words in hidden_words(src.data, src.masks):
        if ported is not None and not ported(m.start):
            continue
        renamed: list[str] = []
        for w in words:
            c = dialect.lookup(source, w)
            if c is not None and masked_types.renamed_type(w, m.reason, backend) is not None:
                continue  # renamed in the port (kernelport/masked_types.py)
            if c is not None and dialect.rename(c, w, source, backend) != w and w not in renamed:
                renamed.append(w)
        shown = [repr(w) for w in renamed]
        if spaced:  # `float *as = (float *) sm;`: no address space is written there
            shown += [p for p in _pointers(src.data[m.start:m.end].decode("utf-8", "replace")) if p not in shown]
        if not shown:
            continue
        first, last = src.location(m.start), src.location(max(m.start, m.end - 1))
        branch = m.reason.startswith("conditional (")
        what = (f"the branch of '#{m.name}' not taken" if m.reason.endswith("(taken)") else
                f"the branch of '#{m.name}' taken" if m.reason.endswith("(not taken)") else
                f"the arguments of macro '{m.name}'" if m.reason == "arguments" else
                f"'{m.name}' here (C++ the grammar lacks)" if m.reason == "grammar" else f"macro '{m.name}' here")
        out.append(Diagnostic(
            "KP230", first, f"{what} (lines {first.line}-{last.line}) could not be parsed with the rest of the "
            f"file and is left as written: {', '.join(shown[:4])} there "
            f"{'is' if len(shown) == 1 else 'are'} not ported to {backend}",
            "make each branch of the conditional a whole statement or declaration, so that both parse" if branch
            else "end the macro's statement with ';', or let kernelport read the header that defines the macro",
            "warning"))
    return out
