"""C++ that tree-sitter's grammar lacks where compilers accept it, masked in the copy the grammar
sees (kernelport/macro_repair.py tries each candidate at an error region and keeps it only where the
error shrinks): every edit has the length of what it replaces, so the tree's offsets stay the user's."""
from __future__ import annotations

import re
from typing import Callable

from .comma_operands import comma_operands
from .macro_tokens import Tok, match_brace as _match_brace, match_open
from .macros import FUNCTIONAL_CAST, IGNORED_QUALIFIERS, REFERENCE_QUALIFIER, Mask
from .list_directives import list_directives
from .member_pointers import member_pointers
from .typeof_casts import WORDS as TYPEOF_WORDS, typeof_gap

_DIRECTIVE_LINE = re.compile(rb"(?m)^[ \t]*#")
_CONDITIONAL_LINE = re.compile(rb"(?m)^[ \t]*#[ \t]*(if|el|endif)")  # (a branch's lines are not blanked alone)
# GCC's and Clang's type-trait builtins (`__is_same(T, float)`, `__is_base_of(B, D)`, `__has_trivial_destructor(T)`):
# calls whose arguments are types, which the grammar reads as expressions
_TYPE_TRAIT = re.compile(r"__(is|has)_[a-z_]+$")
_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))  # every byte a blank, line ends kept
_SPACES = frozenset({"__host__", "__device__", "__global__", "__forceinline__", "__noinline__"})  # (before `friend`)


def blank_bytes(data: bytes, start: int, end: int) -> bytes:
    return data[start:end].translate(_BLANK)  # (a conditional's variant blanks up to a whole header)


def grammar_gaps(toks: list[Tok], data: bytes, idx, masked_at: set[int], close_of: Callable[[int], "int | None"]):
    """C++ the grammar lacks, masked the same way: `new const T*[n]` is seen as `new T [n]` and
    `typeid(double)` as `typeid(      )` (and a type trait `__is_same(T, float)` as `__is_same(        )`), `template class P<float>;` and `extern template class P<1>;` as a declaration of P, a default
    argument `T x = {}` as `T x`, an unnamed enum's base `enum : size_t {` as `enum {`, a template
    parameter's default pointer type `typename It = T*` as `typename It = T `, a variable's register
    label `int v asm ("eax") = x;` as `int v = x;`, a qualified member operator
    `this->Base::operator=(x)` as `this->      operator=(x)`, a destructor named with its class
    template's arguments `~P<T, N> ()` as `~P ()`, an unnamed pointer parameter's default
    `const char * = "x"` as `const char *`, directives between a constructor's member initializers
    (`, ready (false)` `#define F(n) , n (0)` `#include "fields.inc"` `{`) or between an `if`'s block
    and its `else` (an X-macro's `#include` of more `else if` arms) as blanks, a macro that stands for
    member initializers `: a (x), INITS {` as `: a (x)        {` with the attribute macros of the
    constructor's head (`HOST P<2>::P (` as `     P<2>::P (`),
    a member template's `= delete;` as `;`, a statement's `operator()(i, 0) = x;` as `(*this)   (i, 0) = x;`
    and its `operator[](i) = x;` as `(*this)[   i] = x;`,
    a functional cast of a type of several words `unsigned int(v >> 24)` as `(unsigned  )(v >> 24)`
    (the ports write `((unsigned int)(v >> 24))`), `using typename B::t;` as `using          B::t;`,
    a label that ends its block `end:\n  }` as `end:\n; }`, an array delete of a parenthesised
    operand `delete[](p.q);` as `delete[] p.q ;`, the execution spaces before a friend declaration
    `__host__ __device__ friend bool operator==(` as `friend bool operator==(` (blanks before it),
    a comma expression in a `decltype` `decltype(*u != *u, T())`
    as `decltype(          T())` and a template's pointer array `new Buf<T>*[n]` as `new Buf<T> [n]`
    and a cv-qualifier on a reference declarator `const T& const C<T>::get()` as `const T&       C<T>::get()`
    (the ports drop it: nvcc ignores it, clang rejects it)
    (none changes what the warp analyses read)."""
    for i in idx:
        t = toks[i]
        if i > 0 and (t.text in ("{", ",") and toks[i - 1].text == ")" or
                      t.text == "else" and toks[i - 1].text == "}") and i - 1 not in masked_at:
            s, e = toks[i - 1].end, t.start  # directives between a member initializer and the body, or an if's and its else
            if _DIRECTIVE_LINE.search(data, s, e) and not _CONDITIONAL_LINE.search(data, s, e):
                yield (("directives", s, t.text), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "directives", "grammar")])
            if t.text == "else":
                continue
        if t.text == ":" and i > 0 and toks[i - 1].text == ")" and _lone_colon(toks, i) and i not in masked_at:
            spans = _initializer_macros(toks, i, close_of)
            if spans:  # macros of member initializers, `: a (x), INITS {`: seen without them (and their commas),
                # with the attribute macros of the constructor's head (`HOST P<2>::P (...)`: a constructor
                # has no type, so a word there that is no keyword is a macro), in every initializer
                # list of the file at once (many constructors that each use one: one parse), then here
                here = spans + _constructor_head_macros(toks, i - 1, masked_at)
                every = [sp for k in range(1, len(toks)) if toks[k].text == ":" and toks[k - 1].text == ")"
                         and k not in masked_at and _lone_colon(toks, k)
                         for sp in _with_head(toks, k, _initializer_macros(toks, k, close_of), masked_at)]
                if len(every) > len(here):  # (first: the parses per file are bounded)
                    yield (("initializer macros", 0, ":"), [(s, e, blank_bytes(data, s, e)) for s, e in every],
                           [Mask(s, e, "initializers", "grammar") for s, e in every])
                yield (("initializer macros", t.start, ":"), [(s, e, blank_bytes(data, s, e)) for s, e in here],
                       [Mask(s, e, "initializers", "grammar") for s, e in here])
            continue
        if t.text == ":" and 1 < i < len(toks) - 1 and toks[i + 1].text == "}" and toks[i - 1].kind == "ident" \
                and toks[i - 1].text not in _NOT_LABELS and toks[i - 2].text in (";", "{", "}") and i not in masked_at:
            # a label that ends its block, `end:` right before `}` (a goto's target at a kernel's end;
            # C++23, which nvcc takes): seen as `end:;`, the first blank between them made the empty statement
            blank = re.search(rb"[ \t]", data[t.end:toks[i + 1].start])
            if blank is not None:
                at = t.end + blank.start()
                yield (("end label", t.start, ":"), [(at, at + 1, b";")], [Mask(at, at + 1, "label;", "grammar")])
            continue
        if t.text == "operator" and i not in masked_at:
            q = _member_qualifier(toks, i)
            if q is not None:
                s, e = toks[q].start, toks[i - 1].end
                yield (("member", t.start, "operator"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "::operator", "grammar")])
            elif 0 < i and toks[i - 1].text in (";", "{", "}") and i + 3 < len(toks) and toks[i + 1].text == "(" \
                    and toks[i + 2].text == ")" and toks[i + 3].text == "(" and toks[i + 2].end - t.start == 10:
                # a statement that calls the object's own call operator, `operator()(i, 0) = r.x;` (a matrix
                # class's row setter), which the grammar takes only inside an expression: seen as `(*this)`
                s, e = t.start, toks[i + 2].end
                yield (("call operator", t.start, "operator"), [(s, e, b"(*this)   ")],
                       [Mask(s, e, "operator()", "grammar")])
            elif 0 < i and toks[i - 1].text in (";", "{", "}") and i + 3 < len(toks) and toks[i + 1].text == "[" \
                    and toks[i + 2].text == "]" and toks[i + 3].text == "(" and toks[i + 3].end - t.start == 11:
                # the same with the subscript operator, `operator[](i) = val;` (GpuShareSat's array setAllTo):
                # seen as `(*this)[   i] = val;`, the call's parentheses as the subscript's brackets
                close = close_of(i + 3)
                if close is not None:
                    s, e, c = t.start, toks[i + 3].end, toks[close].start
                    yield (("subscript operator", t.start, "operator"), [(s, e, b"(*this)[   "), (c, c + 1, b"]")],
                           [Mask(s, e, "operator[]", "grammar"), Mask(c, c + 1, "operator[]", "grammar")])
            continue
        if t.text == ";" and i > 0 and toks[i - 1].text == "}" and (span := _type_only_qualifiers(toks, i - 1, masked_at)):
            s, e = span  # `__device__ struct Config { ... };` (mandelspace's util.hpp): seen without the qualifiers
            yield (("ignored qualifiers", s, "struct"), [(s, e, blank_bytes(data, s, e))],
                   [Mask(s, e, IGNORED_QUALIFIERS, "grammar")])
        if t.text in ("const", "volatile") and i not in masked_at and 0 < i < len(toks) - 1 and \
                toks[i - 1].text in ("&", "&&") and \
                (toks[i + 1].kind == "ident" or toks[i + 1].text == ":"):
            # a cv-qualifier on a reference declarator, `const T& const C<T>::get() const {` (heldout100's
            # n-body history class): nvcc's EDG ignores it (warning #512), clang and g++ reject it; seen as
            # `const T&       C<T>::get() const {`, and the ports write it so (lexing.respell_for_clang)
            yield (("reference qualifier", t.start, t.text), [(t.start, t.end, blank_bytes(data, t.start, t.end))],
                   [Mask(t.start, t.end, REFERENCE_QUALIFIER, "grammar")])
            continue
        if t.text == "typename" and i not in masked_at and 0 < i < len(toks) - 3 and toks[i - 1].text == "using" and \
                toks[i + 1].kind == "ident" and toks[i + 2].text == toks[i + 3].text == ":":
            # a using-declaration of a dependent base's type, `using typename grid_t::real_t;` (gpuATTRACT's
            # IntrplGrid): seen as `using          grid_t::real_t;`, the same declaration without the keyword
            yield (("using typename", t.start, "typename"), [(t.start, t.end, blank_bytes(data, t.start, t.end))],
                   [Mask(t.start, t.end, "typename", "grammar")])
            continue
        if t.text == "using" and i not in masked_at and _using_list_rest(toks, i) is not None:
            # C++17's using-declaration of several names, `using cu::round_down, cu::round_up;` (cuinterval's
            # tests): seen as its first declaration `using cu::round_down              ;` (the names only). Every
            # one in the file at once: a header writes dozens, each an error the repair's parses would not reach
            rests = [r for k, u in enumerate(toks) if u.text == "using" and k not in masked_at
                     and (r := _using_list_rest(toks, k)) is not None]
            yield (("using list", t.start, "using"), [(s, e, blank_bytes(data, s, e)) for s, e in rests],
                   [Mask(s, e, "using list", "grammar") for s, e in rests])
            continue
        if t.text == "=" and i not in masked_at and (end := _constrained_default_end(toks, i)) is not None:
            # a constrained template parameter's default, `template<std::floating_point T = double>` (cuinterval's
            # intrinsics.cuh), which the grammar does not take: seen as `template<std::floating_point T         >`
            s, e = t.start, toks[end - 1].end
            yield (("constrained default", t.start, "="), [(s, e, blank_bytes(data, s, e))],
                   [Mask(s, e, "constrained default", "grammar")])
            continue
        if t.text in ("typename", "class") and i not in masked_at:
            marks = _default_type_marks(toks, i)
            if marks:
                edits = [(toks[k].start, toks[k].end, blank_bytes(data, toks[k].start, toks[k].end)) for k in marks]
                yield (("default type", t.start, t.text), edits, [Mask(e[0], e[1], "default type", "grammar") for e in edits])
            continue
        if t.text in ("asm", "__asm__", "__asm") and i not in masked_at and 0 < i and toks[i - 1].kind == "ident" \
                and i + 1 < len(toks) and toks[i + 1].text == "(":  # `register int v asm ("eax") = x;`
            close = close_of(i + 1)
            if close is not None and close > i + 2 and close + 1 < len(toks) and toks[close + 1].text in ("=", ";", ",") \
                    and all(toks[k].kind == "string" for k in range(i + 2, close)):
                s, e = t.start, toks[close].end
                yield (("asm label", t.start, t.text), [(s, e, blank_bytes(data, s, e))], [Mask(s, e, "asm label", "grammar")])
            continue
        if t.text == "new" and i not in masked_at:
            j = i + 1  # the type's words, `::` and template argument lists (`new Buf<T>*[n]`)
            while j < len(toks) and (toks[j].kind == "ident" or toks[j].text == "::" or toks[j].text == "<" and
                                     j > i + 1 and toks[j - 1].kind == "ident" and _angle_close(toks, j) is not None):
                j = _angle_close(toks, j) + 1 if toks[j].text == "<" else j + 1
            stars = j
            while j < len(toks) and toks[j].text == "*":
                j += 1
            if stars > i + 1 and j > stars and j < len(toks) and toks[j].text == "[":
                blank = [k for k in range(i + 1, j) if k >= stars or toks[k].text in ("const", "volatile")]
                edits = [(toks[k].start, toks[k].end, blank_bytes(data, toks[k].start, toks[k].end))
                         for k in blank]
                yield ("new", t.start, "new"), edits, [Mask(e[0], e[1], "new", "grammar") for e in edits]
        elif t.text in TYPEOF_WORDS:  # GNU `typeof`: a cast to it, a sizeof's operand (kernelport/typeof_casts.py)
            if (gap := typeof_gap(toks, i, data, masked_at, close_of)) is not None:
                yield gap
        elif t.text == "decltype" and i + 1 < len(toks) and toks[i + 1].text == "(" and i not in masked_at:
            close = close_of(i + 1)  # `decltype(*u != *u, std::true_type())` (SFINAE): a comma expression the grammar
            comma = _last_comma(toks, i + 2, close) if close is not None else None  # does not take there: seen as
            if comma is not None:  # `decltype(          std::true_type())`, the type of its last operand
                s, e = toks[i + 2].start, toks[comma].end
                yield (("decltype comma", t.start, "decltype"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "decltype comma", "grammar")])
        elif t.text in _TYPE_WORDS and i not in masked_at:
            cast = functional_cast(toks, i)
            if cast is not None:  # `unsigned int(v >> 24)`: seen as the C-style cast `(unsigned  )(v >> 24)`
                s, e = t.start, toks[cast - 1].end
                yield (("functional cast", s, t.text), [(s, e, _cast_mask(toks[i:cast], e - s))],
                       [Mask(s, e, FUNCTIONAL_CAST, "grammar")])
        elif t.text == "delete" and i + 3 < len(toks) and toks[i + 1].text == "[" and toks[i + 2].text == "]" \
                and toks[i + 3].text == "(" and i not in masked_at:  # `delete[](h_output);`: the grammar reads `[](`
            close = close_of(i + 3)  # as a lambda; an operand that is a postfix chain is seen as `delete[] h_output ;`
            if close is not None and _postfix_chain(toks, i + 4, close):
                o, c = toks[i + 3], toks[close]
                yield (("delete[]", t.start, "delete"), [(o.start, o.end, b" "), (c.start, c.end, b" ")],
                       [Mask(o.start, o.end, "delete[] (", "grammar"), Mask(c.start, c.end, "delete[] )", "grammar")])
        elif t.text == "friend" and i > 0 and toks[i - 1].text in _SPACES and i - 1 not in masked_at:
            k = i - 1  # `__host__ __device__ friend bool operator==(...)`, `__global__ friend void f(...)`: the grammar
            while k > 0 and toks[k - 1].text in _SPACES and k - 1 not in masked_at:  # takes them after `friend` only
                k -= 1
            s, e = toks[k].start, toks[i - 1].end
            yield (("friend", s, "friend"), [(s, e, blank_bytes(data, s, e))], [Mask(s, e, "friend", "grammar")])
        elif t.text == "template" and i + 2 < len(toks) and toks[i + 1].text in ("class", "struct") and \
                toks[i + 2].kind == "ident":  # an explicit instantiation, `template class P<float>;`
            s = toks[i - 1].start if i > 0 and toks[i - 1].text == "extern" and i - 1 not in masked_at else t.start
            # (`extern template class P<1>;`, its declaration: the grammar reads neither; seen as `class P<1>;`)
            yield ("template", s, "template"), [(s, t.end, blank_bytes(data, s, t.end))], \
                [Mask(s, t.end, "template", "grammar")]
        elif t.text == "enum" and i + 1 < len(toks) and toks[i + 1].text == ":":  # `enum : size_t {` (no name)
            j = i + 2
            while j < len(toks) and (toks[j].kind == "ident" or toks[j].text == "::"):
                j += 1
            if j > i + 2 and j < len(toks) and toks[j].text == "{":
                s, e = toks[i + 1].start, toks[j - 1].end
                yield (("enum", t.start, "enum"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, ": base", "grammar")])
        elif t.text == "~" and i + 2 < len(toks) and toks[i + 1].kind == "ident" and toks[i + 2].text == "<" \
                and i not in masked_at:  # `~P<T, N> ()`: a template-id names the destructor (C++17)
            close = _angle_close(toks, i + 2)
            if close is not None and close + 1 < len(toks) and toks[close + 1].text == "(":
                s, e = toks[i + 2].start, toks[close].end
                yield (("destructor", t.start, "~"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "<...>", "grammar")])
        elif (t.text == "typeid" or _TYPE_TRAIT.match(t.text)) and i + 1 < len(toks) and toks[i + 1].text == "(":
            close = close_of(i + 1)  # `typeid(T)`, a compiler's type trait `__is_same(T, float)`: types as arguments
            words = ("*", "&", "::") if t.text == "typeid" else ("*", "&", "::", ",", "<", ">")
            if close is not None and close > i + 2 and all(
                    toks[k].kind == "ident" or toks[k].text in words for k in range(i + 2, close)):
                s, e = toks[i + 2].start, toks[close - 1].end
                what = "typeid" if t.text == "typeid" else "type trait"
                yield ((what, t.start, t.text), [(s, e, blank_bytes(data, s, e))], [Mask(s, e, what, "grammar")])
        elif t.text == "=" and i + 1 < len(toks) and toks[i + 1].text == "{" and i > 0 and \
                (toks[i - 1].kind == "ident" or toks[i - 1].text == ">" and toks[i - 1].end < t.start):
            close = _match_brace(toks, i + 1)  # a default argument `T x = {}`: seen as `T x`
            if close is not None and close + 1 < len(toks) and toks[close + 1].text in (")", ","):
                s, e = t.start, toks[close].end
                yield (("default", t.start, "="), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "= {...}", "grammar")])
        elif t.text == "=" and i > 1 and toks[i - 1].text in ("*", "&") and toks[i - 2].kind == "ident" \
                and toks[i - 1].end < t.start and i not in masked_at:  # an unnamed pointer parameter's default, `const char * = "x")` (`*=` is no default)
            end = _argument_end(toks, i + 1)
            if end is not None and end > i + 1:
                s, e = t.start, toks[end - 1].end
                yield (("default", t.start, "="), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "= default", "grammar")])
        elif t.text == "=" and i + 2 < len(toks) and toks[i + 1].text in ("delete", "default") and \
                toks[i + 2].text == ";" and i > 0 and toks[i - 1].text in (")", "const", "noexcept", "override"):
            # a member template's `= delete;` (`template <class V> S& operator+=(const V& v) = delete;`),
            # which the grammar takes only on a plain member: seen as the declaration `...(const V& v);`
            s, e = t.start, toks[i + 1].end
            yield (("deleted", t.start, "="), [(s, e, blank_bytes(data, s, e))], [Mask(s, e, "= delete", "grammar")])
    yield from member_pointers(toks, data, idx, masked_at, close_of)  # `bool (N::*m)(N *)`, `p->*m`
    yield from comma_operands(toks, data, idx, masked_at, close_of)  # `&& (at += n, f(at))` seen as `&&_(at += n, f(at))`
    yield from list_directives(toks, data, idx, masked_at, close_of)  # `return std::tuple{ #define X(...) ... LIST #undef X };`


# Words nvcc and g++ ignore (a warning) before a declaration that declares a type and nothing else,
# where the grammar wants a declarator after them (masked as macros.IGNORED_QUALIFIERS)
_IGNORED_ON_TYPES = frozenset({"__device__", "__host__", "__constant__", "__shared__", "__managed__", "const",
                               "volatile", "static", "extern", "inline"})


def _type_only_qualifiers(toks: list[Tok], close: int, masked_at: set[int]) -> tuple[int, int] | None:
    """The span of the qualifier words before `struct Name {` whose `}` is toks[close] and is followed by
    `;` (the declaration declares the type alone: the grammar reports a missing declarator there), else None."""
    o = match_open(toks, close)
    if o is None or o < 3 or toks[o - 1].kind != "ident" or toks[o - 2].text not in ("struct", "class", "union"):
        return None
    k = o - 2
    while k > 0 and toks[k - 1].text in _IGNORED_ON_TYPES and k - 1 not in masked_at:
        k -= 1
    return (toks[k].start, toks[o - 3].end) if k < o - 2 else None


_NOT_LABELS = frozenset({"public", "private", "protected", "default"})  # `public: }`: no label
_TYPE_WORDS = frozenset({"unsigned", "signed", "short", "long", "int", "char", "double"})
_BEFORE_VALUE = frozenset({"return", "throw", "case", "co_return", "co_yield"})  # (words a value follows)


def _postfix_chain(toks: list[Tok], a: int, b: int) -> bool:
    """Whether toks[a:b] is one postfix expression (`h`, `m.elements`, `p->q[i]`, `ns::f(x)`): without
    the parentheses around it nothing binds differently.  (The tokens are single characters: `->` is
    `-` `>` and `::` is `:` `:`, each pair adjacent.)"""
    depth, prev, k = 0, None, a
    while k < b:
        x = toks[k].text
        if x in ("(", "["):
            if depth == 0 and not (prev is not None and (prev.kind == "ident" or prev.text in (")", "]"))):
                return False  # (a parenthesised operand inside: not a plain chain)
            depth += 1
        elif x in (")", "]"):
            depth -= 1
        elif depth == 0 and toks[k].kind != "ident" and x != ".":
            pair = toks[k + 1] if k + 1 < b else None
            if pair is None or pair.start != toks[k].end or (x, pair.text) not in (("-", ">"), (":", ":")):
                return False
            k += 1
        prev = toks[k]
        k += 1
    return b > a and depth == 0


def functional_cast(toks: list[Tok], i: int) -> int | None:
    """The index of the `(` of a functional cast whose type is several words (`unsigned int(v)`,
    `long long(x)`: nvcc's EDG takes it, C++ and the grammar do not) whose first word is toks[i],
    or None (`unsigned int x(5);`, `sizeof(unsigned int)`, `(unsigned int)(v)`, `unsigned int (*f)(int)`)."""
    if i > 0 and (toks[i - 1].kind == "ident" and toks[i - 1].text not in _BEFORE_VALUE or
                  toks[i - 1].text in ("::", ".", "->")):
        return None  # (not where the type starts: `const unsigned int(...)`, `static long long(...)`)
    j = i
    while j < len(toks) and toks[j].kind == "ident" and toks[j].text in _TYPE_WORDS:
        j += 1
    if j - i < 2 or j + 1 >= len(toks) or toks[j].text != "(" or toks[j + 1].text in ("*", "&", ")"):
        return None
    return j


def _cast_mask(words: list[Tok], width: int) -> bytes:
    """`(` the type's leading words that fit `)`, blank-padded to `width` bytes (`unsigned int` is
    seen as `(unsigned  )`, `unsigned long long` as `(unsigned long)`): a cast the grammar takes, its
    type as close to the user's as the width allows (the analyses read no more of it)."""
    names = [w.text for w in words]
    if len(names) > 1 and names[-1] == "int":
        names.pop()  # (`unsigned long int` is `unsigned long`)
    while len(" ".join(names)) + 2 > width:
        names.pop()
    return ("(" + " ".join(names) + ")").ljust(width).encode()


def _initializer_macros(toks: list[Tok], i: int, close_of) -> list[tuple[int, int]]:
    """The spans of the names that stand alone (a macro's use) in the member initializer list that
    the `:` at toks[i] opens, each with the comma before it (after it for the first), or [] where
    the list is not one of `name (...)`, `name {...}` and lone names up to the body's `{`."""
    spans, k = [], i + 1
    while k < len(toks) and len(spans) < 64:
        if toks[k].kind != "ident":
            return []
        j = k + 1
        while j + 2 < len(toks) and toks[j].text == ":" and toks[j + 1].text == ":" and toks[j + 2].kind == "ident":
            j += 3  # a qualified base, `ns::Base (x)`
        if j >= len(toks):
            return []
        if toks[j].text == "(":
            close = close_of(j)
        elif toks[j].text == "{" and j + 1 < len(toks) and toks[j + 1].text != "}" and _brace_item(toks, j):
            close = _match_brace(toks, j)  # `name {x}` (a body opened right after a lone name is no item)
        elif toks[j].text in (",", "{"):  # a name alone: a macro's use
            first = k == i + 1
            spans.append((toks[k].start, toks[j].end) if first and toks[j].text == "," else
                         (toks[k].start if first else toks[k - 1].start, toks[k].end))
            close = j - 1
        else:
            return []
        if close is None or close + 1 >= len(toks):
            return []
        if toks[close + 1].text == "{":
            return spans
        if toks[close + 1].text != ",":
            return []
        k = close + 2
    return []


_HEAD_WORDS = frozenset({"inline", "explicit", "constexpr", "static", "virtual", "__host__", "__device__",
                         "__forceinline__", "__inline__", "__noinline__", "template", "typename"})


def _with_head(toks: list[Tok], k: int, spans: list[tuple[int, int]], masked_at: set[int]) -> list[tuple[int, int]]:
    return spans + _constructor_head_macros(toks, k - 1, masked_at) if spans else []


def _constructor_head_macros(toks: list[Tok], close: int, masked_at: set[int]) -> list[tuple[int, int]]:
    """The spans of the words before a qualified constructor's name (`HOST P<2>::P (` or `HOST P::P (`,
    whose parameters' `)` is toks[close]) that are no keyword: a constructor has no type, so each is an
    attribute macro; [] where the name is no qualified constructor's."""
    depth, p = 0, close
    while p >= 0:  # the `(` that opens the parameters
        x = toks[p].text
        depth += x == ")"
        depth -= x == "("
        if depth == 0:
            break
        p -= 1
    if p < 4 or toks[p - 1].kind != "ident" or toks[p - 2].text != ":" or toks[p - 3].text != ":":
        return []
    name, q = toks[p - 1].text, p - 4
    if toks[q].text == ">":  # `P<...>::P`: back over the class template's arguments
        angles = 0
        while q >= 0:
            angles += toks[q].text == ">"
            angles -= toks[q].text == "<"
            if angles == 0:
                break
            q -= 1
        q -= 1
    if q < 0 or toks[q].text != name:
        return []
    spans, q = [], q - 1
    while q >= 0 and toks[q].kind == "ident" and toks[q].text != name:
        if toks[q].text not in _HEAD_WORDS and q not in masked_at:
            spans.append((toks[q].start, toks[q].end))
        q -= 1
    return spans


def _brace_item(toks: list[Tok], j: int) -> bool:
    """Whether the `{` at toks[j] opens a braced initializer `name {x}` (its `}` followed by `,` or
    the body's `{`) rather than the constructor's body."""
    close = _match_brace(toks, j)
    return close is not None and close + 1 < len(toks) and toks[close + 1].text in (",", "{")


def _lone_colon(toks: list[Tok], k: int) -> bool:
    """Whether toks[k] is a `:` that is no half of a `::`."""
    t = toks[k]
    return t.text == ":" and not (k > 0 and toks[k - 1].text == ":" and toks[k - 1].end == t.start) \
        and not (k + 1 < len(toks) and toks[k + 1].text == ":" and toks[k + 1].start == t.end)


def _argument_end(toks: list[Tok], i: int) -> int | None:
    """Index of the `,` or `)` that ends the argument starting at toks[i] (brackets nested), or None
    where a `;`, `{` or `}` comes first."""
    depth = 0
    for k in range(i, min(len(toks), i + 256)):
        x = toks[k].text
        if x in (";", "{", "}"):
            return None
        if x in ("(", "["):
            depth += 1
        elif x in (")", "]"):
            if depth == 0:
                return k if x == ")" else None
            depth -= 1
        elif x == "," and depth == 0:
            return k
    return None


def _angle_close(toks: list[Tok], i: int) -> int | None:
    """Index of the `>` closing the template argument list that the `<` at toks[i] opens (nested
    `<...>` and brackets counted), or None where a `;`, `{` or `}` comes first."""
    angles, brackets = 0, 0
    for k in range(i, min(len(toks), i + 256)):
        x = toks[k].text
        if x in (";", "{", "}"):
            return None
        if x in ("(", "["):
            brackets += 1
        elif x in (")", "]"):
            brackets -= 1
            if brackets < 0:
                return None
        elif brackets == 0 and x == "<":
            angles += 1
        elif brackets == 0 and x == ">":
            angles -= 1
            if angles == 0:
                return k
    return None


def _last_comma(toks: list[Tok], a: int, b: int) -> int | None:
    """The last comma of toks[a:b] outside any bracket and any template argument list (`f<A, B>(x)`'s is
    not one), or None."""
    depth, last, k = 0, None, a
    while k < b:
        x = toks[k].text
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            depth -= 1
        elif x == "<" and k > a and toks[k - 1].kind == "ident":
            end = _angle_close(toks, k)
            if end is not None and end < b:
                k = end
        elif x == "," and depth == 0:
            last = k
        k += 1
    return last


def _member_qualifier(toks: list[Tok], i: int) -> int | None:
    """The first token of the `Base::` (or `ns::Base::`) between `.`/`->` and the `operator` at
    toks[i], or None where no member access is qualified there."""
    j = i
    while j >= 3 and toks[j - 1].text == ":" and toks[j - 2].text == ":" and toks[j - 3].kind == "ident" \
            and toks[j - 2].end == toks[j - 1].start:
        j -= 3
    if j == i or j < 1:
        return None
    dot = toks[j - 1].text == "." or toks[j - 1].text == ">" and j >= 2 and toks[j - 2].text == "-" \
        and toks[j - 2].end == toks[j - 1].start
    return j if dot else None


def _default_type_marks(toks: list[Tok], i: int) -> list[int]:
    """The `*`, `&` and cv-qualifiers around the type of the default of the template type parameter
    that toks[i] (`typename`/`class`) opens (`typename It = const uint32*`), which the grammar's
    default type does not take; [] where there are none or the default is no plain type."""
    if i + 3 >= len(toks) or toks[i + 1].kind != "ident" or toks[i + 2].text != "=":
        return []
    marks, depth, typed = [], 0, False
    for k in range(i + 3, min(len(toks), i + 64)):
        x = toks[k].text
        if x in ("(", ")", "[", ";", "{", "}"):
            return []
        if x == "<":
            depth += 1
        elif x == ">" or x == "," and depth == 0:
            if depth == 0:
                return marks if typed else []
            depth -= 1
        elif depth == 0 and x in ("*", "&", "const", "volatile"):
            marks.append(k)
        elif toks[k].kind == "ident":
            typed = True
    return []


def _using_list_rest(toks: list[Tok], i: int) -> tuple[int, int] | None:
    """The bytes from the first comma of `using A::x, B::y;` (qualified names and commas only, so no
    alias, `using namespace` or template arguments) to its `;`, or None."""
    k, comma = i + 1, None
    while k < len(toks) and (toks[k].kind == "ident" or toks[k].text in (":", ",", "typename")):
        if toks[k].text == "," and comma is None:
            comma = k
        k += 1
    if comma is None or k >= len(toks) or toks[k].text != ";" or toks[i + 1].text == "namespace" or \
            toks[comma - 1].kind != "ident":
        return None
    return toks[comma].start, toks[k - 1].end


def _constrained_default_end(toks: list[Tok], i: int) -> int | None:
    """Where the default that toks[i] (`=`) opens ends (its `>` or `,`) when it is a constrained template
    type parameter's, `template<C T = X>` or `template<ns::C T = X>` (the first parameter), else None."""
    k = i - 2
    if k < 2 or toks[i - 1].kind != "ident" or toks[k].kind != "ident":
        return None
    while k >= 2 and toks[k - 1].text == ":" and toks[k - 2].text == ":" and toks[k - 3].kind == "ident":
        k -= 3
    if toks[k - 1].text != "<" or toks[k - 2].text != "template" or toks[k].text in ("typename", "class"):
        return None
    depth = 0
    for j in range(i + 1, min(len(toks), i + 64)):
        x = toks[j].text
        if x in ("(", ")", "[", ";", "{", "}"):
            return None
        if x == "<":
            depth += 1
        elif x in (">", ",") and depth == 0:
            return j
        elif x == ">":
            depth -= 1
    return None
