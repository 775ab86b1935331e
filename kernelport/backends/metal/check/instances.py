"""Template kernels: clang's OpenCL mode rejects them, so each explicit instantiation is checked as
a specialised copy of the template, under `#line` directives pointing back at the template."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ....cexpr import CExprError, evaluate, split_top_level
from .signatures import split_params
from .text import IDENT, Lines, blank, matching

#: presumed file name (``#line``) of the text around specialised template kernels, and the prefix
#: of each instantiation's copy (``<kp-source>@host_name``): both are the checked file
SELF_FILE = "<kp-source>"
_WS = re.compile(r"\s*")


@dataclass
class _TemplateKernel:
    """A templated Metal kernel's definition, by offsets."""
    name: str
    start: int  # offset of `template`
    kernel_at: int  # offset of `kernel` (or of `[[kernel]]`)
    name_at: int
    end: int  # offset after the closing brace of the body
    params: list[tuple[str, str | None]]  # (name, default text)


def _skip_attrs(masked: str, k: int, groups) -> int:
    while True:
        k = _WS.match(masked, k).end()
        grp = next((g for g in groups if g[0] == k), None) if masked.startswith("[[", k) else None
        if grp is None:
            return k
        k = grp[1]


def _kernel_head(masked: str, k: int, groups):
    """At offset k: `kernel void NAME` (attributes allowed around it) -> (kernel offset, name match)."""
    k = _skip_attrs(masked, k, groups)
    kernel_at = k
    mk = re.compile(r"kernel\b").match(masked, k)
    if mk is None:
        grp = next((g for g in groups if g[0] == k and any(a.name == "kernel" for a in g[2])), None)
        if grp is None:
            return None
        k = grp[1]
    else:
        k = mk.end()
    k = _skip_attrs(masked, k, groups)
    mv = re.compile(r"void\b").match(masked, k)
    if mv is None:
        return None
    k = _skip_attrs(masked, mv.end(), groups)
    mn = IDENT.match(masked, k)
    return (kernel_at, mn) if mn else None


def _template_params(inner: str) -> list[tuple[str, str | None]]:
    out = []
    for part in _split_top(inner):
        part = part.strip()
        if not part:
            continue
        default = None
        if "=" in part:
            part, default = (x.strip() for x in part.split("=", 1))
        names = IDENT.findall(part)
        if names:
            out.append((names[-1], default))
    return out


def _split_top(s: str) -> list[str]:
    return [p for p, _ in split_top_level(s, brackets="(<[{", strip=False)]


def specialise_templates(text: str, masked: str, chars: list[str], groups, lines: Lines, err) -> None:
    """Replace template kernels (which clang's OpenCL mode cannot check) by specialised copies.

    Each template kernel definition is blanked; each explicit instantiation
    ``template [[host_name("h")]] kernel void f<A, ...>(...);`` becomes a copy of ``f``'s
    definition with the template parameters replaced by the instantiation's arguments (defaults
    where it gives none), as ``kernel void h`` (``h`` the host name, else ``f__kp_<i>``).  The copy
    sits where the instantiation was (where C++ instantiates it), between ``#line`` directives:
    the copy's lines are the template's own lines, so clang's diagnostics land on them, under the
    presumed file ``<kp-source>@h``; the text after it goes back to the original lines.  The
    instantiation's attributes were checked like a kernel's (``find_kernels`` sees it)."""
    templates: dict[str, _TemplateKernel] = {}
    for m in re.finditer(r"\btemplate\s*<", masked):
        lt = m.end() - 1
        gt = matching(masked, lt, "<", ">")
        if gt < 0:
            continue
        head = _kernel_head(masked, gt + 1, groups)
        if head is None:
            continue
        kernel_at, mn = head
        k = _WS.match(masked, mn.end()).end()
        if not masked.startswith("(", k):
            continue  # an explicit specialisation f<...>(...) {...}: left to clang
        close = matching(masked, k, "(", ")")
        if close < 0:
            continue
        k = _skip_attrs(masked, close + 1, groups)
        if not masked.startswith("{", k):
            continue  # a declaration
        body_end = matching(masked, k, "{", "}")
        if body_end < 0:
            continue
        templates[mn.group(0)] = _TemplateKernel(mn.group(0), m.start(), kernel_at, mn.start(), body_end + 1,
                                                 _template_params(masked[lt + 1: gt]))
    if not templates:
        return

    instances = []  # (start, end, template, host name, args)
    rejected: list[tuple[int, int]] = []
    for m in re.finditer(r"\btemplate\b(?!\s*<)", masked):
        k = _skip_attrs(masked, m.end(), groups)
        host = None
        for g in groups:
            if m.end() <= g[0] < k:
                for a in g[2]:
                    if a.name == "host_name" and a.args and re.fullmatch(r'"[A-Za-z_]\w*"', a.args):
                        host = a.args.strip('"')
        head = _kernel_head(masked, m.end(), groups)
        if head is None:
            continue
        _, mn = head
        name = mn.group(0)
        k = _WS.match(masked, mn.end()).end()
        args: list[str] = []
        if masked.startswith("<", k):
            gt = matching(masked, k, "<", ">")
            if gt < 0:
                continue
            args = [a.strip() for a in _split_top(text[k + 1: gt]) if a.strip()]
            k = _WS.match(masked, gt + 1).end()
        if not masked.startswith("(", k):
            continue
        close = matching(masked, k, "(", ")")
        if close < 0:
            continue
        semi = _skip_attrs(masked, close + 1, groups)
        if not masked.startswith(";", semi):
            continue
        t = templates.get(name)
        statement = (m.start(), semi + 1)  # left out of clang's text where rejected here
        if t is None:
            err(mn.start(), f"explicit instantiation of '{name}', which is not a template kernel defined in this file")
            rejected.append(statement)
            continue
        nparams = len(split_params(masked, k, close))
        tk = _WS.match(masked, t.name_at + len(t.name)).end()
        tparams = len(split_params(masked, tk, matching(masked, tk, "(", ")")))
        if nparams != tparams:
            err(mn.start(), f"explicit instantiation of '{name}' has {nparams} parameters, the template kernel "
                            f"{tparams}")
            rejected.append(statement)
            continue
        if len(args) > len(t.params):
            err(mn.start(), f"explicit instantiation of '{name}' gives {len(args)} template arguments, the template "
                            f"takes {len(t.params)}")
            rejected.append(statement)
            continue
        values = []
        for i, (pname, default) in enumerate(t.params):
            values.append(args[i] if i < len(args) else default)
        if any(v is None for v in values):
            missing = [p for (p, _), v in zip(t.params, values) if v is None]
            err(mn.start(), f"explicit instantiation of '{name}' does not give template argument(s) "
                            f"{', '.join(missing)}: kernelport's Metal checker does not deduce them "
                            f"(write {name}<...>)", "warning")
            rejected.append(statement)
            continue
        instances.append((m.start(), semi + 1, t, host, dict(zip((p for p, _ in t.params), values))))

    for s0, e0 in rejected:
        blank(chars, text, s0, e0)
    before = list(chars)
    instantiated = {t.name for _, _, t, _, _ in instances}
    for t in templates.values():
        blank(chars, text, t.start, t.end)
        if t.name not in instantiated:
            err(t.name_at, f"template kernel '{t.name}' has no explicit instantiation "
                           f"(template [[host_name(\"...\")]] kernel void {t.name}<...>(...);): not type-checked",
                "warning")

    for i, (s, e, t, host, mapping) in enumerate(instances):
        new_name = host or f"{t.name}__kp_{i}"
        line_start = text.rfind("\n", 0, t.kernel_at) + 1
        copy = [" " * len(ch.encode("utf-8")) if ch != "\n" else "\n" for ch in text[line_start: t.kernel_at]]
        # the definition as clang would have seen it (attributes blanked), then substituted
        pieces = before[t.kernel_at: t.end]
        body_masked = masked[t.kernel_at: t.end]
        name_off = t.name_at - t.kernel_at
        for mm in re.finditer(r"[A-Za-z_]\w*", body_masked):
            w = mm.group(0)
            if mm.start() == name_off:
                rep = new_name
            elif w in mapping and not re.search(r"(\.|->|::)\s*$", body_masked[max(mm.start() - 8, 0): mm.start()]):
                rep = mapping[w]
                rep = rep + " " * (len(w) - len(rep)) if len(rep) < len(w) else rep
            else:
                continue
            pieces[mm.start()] = rep
            for q in range(mm.start() + 1, mm.end()):
                pieces[q] = ""
        copy_text = _fold_constexpr_ifs("".join(copy) + "".join(pieces), text)
        head_line = lines.pos(line_start)[0]
        end_line, _ = lines.pos(e)
        end_col = len(text[text.rfind("\n", 0, e) + 1: e].encode("utf-8"))
        chars[s] = (f'\n#line {head_line} "{SELF_FILE}@{new_name}"\n{copy_text}\n'
                    f'#line {end_line} "{SELF_FILE}"\n' + " " * end_col)
        for q in range(s + 1, e):
            chars[q] = ""


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([^\n]+?)[ \t]*$", re.M)


def _fold_constexpr_ifs(code: str, whole: str) -> str:
    """In a specialised copy, drop the discarded branch of `if constexpr (cond)` where cond is now a
    constant: a template would never instantiate it (a `static_assert` there must not fire)."""
    macros = {m.group(1): m.group(2) for m in _DEFINE.finditer(whole)}

    def expand(t: str) -> str:
        for _ in range(8):
            new = re.sub(r"[A-Za-z_]\w*", lambda m: f"({macros[m.group(0)]})" if m.group(0) in macros else m.group(0), t)
            if new == t:
                break
            t = new
        return t

    def blank(s: str, i: int, j: int) -> str:  # keep the braces and the newlines
        return s[:i] + "".join(c if c == "\n" else " " for c in s[i:j]) + s[j:]

    def branch(s: str, k: int) -> tuple[int, int] | None:
        k = _WS.match(s, k).end()
        if s.startswith("{", k):
            e = matching(s, k, "{", "}")
            return (k + 1, e) if e > 0 else None
        e = s.find(";", k)
        return (k, e) if e > 0 else None

    for m in reversed(list(re.finditer(r"\bif\s+constexpr\s*\(", code))):
        open_at = m.end() - 1
        close = matching(code, open_at, "(", ")")
        if close < 0:
            continue
        try:
            value = evaluate(expand(code[open_at + 1: close]), {})
        except (CExprError, RecursionError):
            continue
        then = branch(code, close + 1)
        if then is None:
            continue
        after = _WS.match(code, then[1] + 1).end()
        if value:
            if code.startswith("else", after):
                other = branch(code, after + 4)
                if other is not None:
                    code = blank(code, *other)
        else:
            code = blank(code, *then)
    return code
