"""Template arguments of a launch, as written (`k<float, 256><<<...>>>`) or deduced as C++ does
from the declared types of the arguments, and a parameter's element type by its C name: what
kernelport.infer_inputs asks of a template kernel's launch."""
from __future__ import annotations

import re

from .host_values import Scope, Unknown, pointer_name, typedef_of
from .infer_types import resolve as resolve_type
from .inputs import DTYPES
from .model import Function, Launch, Module


def element_name(p_type: str, tmap: dict[str, str], scope: Scope) -> str:
    """The C scalar type a buffer parameter of type `p_type` holds, by the name DTYPES knows."""
    t = resolve_type(p_type, tmap, scope).name  # through macros, typedefs, aliases (kernelport.infer_types)
    return t if t in DTYPES else typedef_of(scope.module.source.text, t)  # `typedef unsigned char uchar;`



def launch_template_args(m: Module, launch: Launch, scope: Scope) -> list[str] | None:
    """The template arguments written at the launch, each a type name or a value; None without."""
    fn = launch.target
    if fn is None or fn.type != "template_function":
        return None
    al = fn.child_by_field_name("arguments")
    out = []
    for a in (al.named_children if al else []):
        text = m.source.text_of(a).strip()
        d = scope.lookup(text) if re.fullmatch(r"[A-Za-z_]\w*", text) else None
        if d is not None and d.text.strip() in DTYPES:
            out.append(d.text.strip())  # a type macro or alias
        elif a.type == "type_descriptor" and d is None:
            out.append(text)
        else:
            try:
                out.append(str(int(scope.value(text).v)))
            except Unknown:  # a host template's parameter bound to a name (a function, a struct): that name
                named = d is not None and d.note.startswith("the template argument") and \
                    re.fullmatch(r"[A-Za-z_]\w*", d.text.strip())
                out.append(d.text.strip() if named else text)
    return out


def template_notes(m: Module, launch: Launch, scope: Scope) -> list[str]:
    """Where each template argument the launch names by a host template's parameter came from
    (`k<T><<<...>>>` in `launch<T>()`: its call, or its explicit instantiation)."""
    fn = launch.target
    al = fn.child_by_field_name("arguments") if fn is not None and fn.type == "template_function" else None
    out = []
    for a in (al.named_children if al else []):
        text = m.source.text_of(a).strip()
        d = scope.lookup(text) if re.fullmatch(r"[A-Za-z_]\w*", text) else None
        if d is not None and d.note.startswith("the template argument"):
            out.append(f"{text} = {' '.join(d.text.split())} ({d.note})")
    return out


def deduced(k: Function, argn, m: Module, scope: Scope) -> list[str] | None:
    """Type template arguments deduced as C++ does from the declared types of the arguments
    (`T* x` given `float* d_x`); None where one cannot be (a non-type parameter)."""
    out = []
    for tp in k.template_params:
        found = None
        for p, a in zip(k.params, argn):
            if " ".join(p.type.replace("const", "").split()) != tp:
                continue
            name = pointer_name(m.source.text_of(a)) if p.pointer else m.source.text_of(a).strip()
            made = re.fullmatch(r"([A-Za-z_][\w:]*)\s*(?:\(\s*\)|\{\s*\})", name or "") if not p.pointer else None
            if made and resolve_type(made.group(1), {}, scope).struct is not None:  # a temporary: `Add()`, `Add{}`
                found = made.group(1)
                break
            d = scope.lookup(f"{name}#type") if name and re.fullmatch(r"[A-Za-z_]\w*", name) else None
            if d is not None and d.text:
                found = element_name(d.text, {}, scope)
                break
        if found is None:
            return None
        out.append(found)
    return out
