"""Instances of a kernel launched by a member of a class template, from the class's explicit
instantiations (held-out set 74, cupressor: `kernel_shiftData<TYPE><<<...>>>` in `template <typename TYPE>
void CuShiftBuffer<TYPE>::shift(uint)`, and `template class CuShiftBuffer<float>;` written by
`INSTANTIATE_TEMPLATE_CLASSES(float)` through a second macro in templateInstantiation.cu, which includes
CuShiftBuffer.cu).  C++ instantiates every (non-template) member of the class for an explicit instantiation
definition, so `shift` exists for float, float2 and int, and each launches its kernel instance: the port
names each with `[[host_name]]`, where before the kernel was KP216 "has no instantiation".

Read from the unit's text: function-like macros expanded (their arguments substituted, `##` pasted, up to
four levels), comments and directives left out; `extern template class C<T>;` (instantiated in another unit)
gives none.  A member template's own parameters stay unknown here (the instance needs a call of it).

Only the member that launches the kernel itself is read so: a member reaching the launch through a host
function template is not, since the calls of that template are matched by name (signatures._calls_of), which
cannot tell overloads chosen by `enable_if` apart (cupressor's `compareKernelWrapper`: `kernel_compare<TYPE>`
only for types with `!=`, bytes for `float2`), and an instance CUDA never makes could be named."""
from __future__ import annotations

import re

from ... import cexpr
from ...model import Function
from .template_ids import _balanced

_LEVELS = 4


class ClassInstances:
    """Mixin of MetalTranslator: `class_instantiated`, which Signatures._concrete asks where a host function
    template has no call that gives its arguments."""

    def class_instantiated(self, targ: str, host: Function | None, concrete) -> list[str]:
        """`targ` (written in `host`, a member `C<P...>::f` of a class template) with the class's parameters bound to
        each explicit instantiation `template class C<A...>;` of the unit, then `concrete` (the caller's
        resolution of what is left); [] where host is no such member."""
        m = re.fullmatch(r"(?:\w+::)*(\w+)\s*<(.*)>\s*::\s*~?\w+", host.name, re.S) if host is not None else None
        if m is None:
            return []
        cparams = _arguments(m.group(2))
        if not cparams or not set(cparams) <= set(host.template_params):
            return []
        rest = set(host.template_params) - set(cparams)  # a member template's own: not given by the class
        if rest & set(re.findall(r"\w+", targ)):
            return []
        from .template_ids import substitute_types
        out: list[str] = []
        for args in self.explicit_class_instances(m.group(1)):
            if len(args) == len(cparams):
                out += [t for t in concrete(substitute_types(targ, dict(zip(cparams, args)))) if t not in out]
        return out

    def explicit_class_instances(self, cls: str) -> list[list[str]]:
        """The argument lists of the unit's explicit instantiation definitions of class template `cls`."""
        memo = self.__dict__.setdefault("_kp_class_instances", {})
        if cls not in memo:
            text = _expanded(self.src)
            found: list[list[str]] = []
            for m in re.finditer(r"(\bextern\s+)?\btemplate\s+(?:class|struct)\s+(?:\w+\s*::\s*)*%s\s*<" % re.escape(cls), text):
                close = _balanced(text, m.end() - 1, "<", ">")
                if m.group(1) or close < 0 or not re.match(r"\s*;", text[close:]):
                    continue  # `extern template class C<T>;`: another unit's instance
                args = _arguments(text[m.end():close - 1])
                if args not in found:
                    found.append(args)
            memo[cls] = found
        return memo[cls]


def _arguments(text: str) -> list[str]:
    """Template arguments split at the top level: `Pair<int, 2>, float` is two."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c in "<([{") - (c in ">)]}")
        if c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    return [a for a in out + [text[start:].strip()] if a]


def _expanded(src) -> str:
    """The unit's code outside directives and comments, its function-like macros' uses expanded."""
    defs = {}
    for d in src.index.of_type("preproc_function_def"):
        value, params = d.child_by_field_name("value"), d.child_by_field_name("parameters")
        if value is not None and params is not None:
            defs[src.text_of(d.child_by_field_name("name"))] = (
                [src.text_of(p).strip() for p in params.named_children if p.type == "identifier"],
                src.text_of(value).replace("\\\n", " "))
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", src.text, flags=re.S)
    text = re.sub(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text)  # directives, continued lines too
    if not defs:
        return text
    use = re.compile(r"\b(%s)\s*\(" % "|".join(map(re.escape, defs)))
    for _ in range(_LEVELS):
        out, i, changed = [], 0, False
        for m in use.finditer(text):
            if m.start() < i:
                continue
            end = _balanced(text, m.end() - 1, "(", ")")
            params, body = defs[m.group(1)]
            args = [a.strip() for a, _ in cexpr.split_top_level(text[m.end():end - 1])] if end > 0 else []
            if end < 0 or len(args) != len(params) and not (params == [] and args == [""]):
                continue
            bound = dict(zip(params, args))
            value = re.sub(r"\b[A-Za-z_]\w*\b", lambda w: bound.get(w.group(0), w.group(0)), body)
            out += [text[i:m.start()], " " + re.sub(r"\s*##\s*", "", value) + " "]
            i, changed = end, True
        text = "".join(out) + text[i:]
        if not changed:
            break
    return text
