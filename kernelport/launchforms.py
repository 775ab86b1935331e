"""Kernel launches written otherwise than `k<<<grid, block>>>(args)`: the model's Launch for each.

- A runtime call (the backends' `launch_forms`: `cudaLaunchKernel((void*)k, grid, block, args,
  shmem, stream)`, `cudaLaunchCooperativeKernel`, `cudaLaunchKernelEx(&cfg, k, args...)`,
  `hipLaunchKernelGGL(k, grid, block, shmem, stream, args...)`): the kernel is the argument at the
  form's position with its casts taken off (`(void*)k`, `reinterpret_cast<const void*>(&k)`,
  `HIP_KERNEL_NAME(k<T>)`); the geometry is the arguments at the form's positions, or, for a
  launch-configuration struct (`cudaLaunchConfig_t cfg`), the values the same function gives its
  fields: an aggregate initialiser (`= {grid, block, 0, s}`, designated ones too) and assignments
  (`cfg.blockDim = dim3(256);`, the last before the launch).
- A project macro that wraps a launch (DeepEP's `LAUNCH_KERNEL(&cfg, kernel, ...)` around
  `cudaLaunchKernelEx(config, kernel, ##__VA_ARGS__)`, or around `kernel<<<g, b>>>(__VA_ARGS__)`):
  expanded for analysis, its parameters mapped to the positions of the launch it wraps, so a call
  of the macro is a launch with the call's own argument nodes; a macro that declares a
  configuration struct from its parameters (DeepEP's `SETUP_LAUNCH_CONFIG(num_sms, num_threads,
  stream)`: `cudaLaunchConfig_t cfg = {(num_sms), (num_threads), 0, stream, ...}`) gives the
  struct's fields the call's arguments.

- A project macro whose body launches a named kernel with `<<<...>>>` (jpeggpu's `DISPATCH(N)`:
  `transpose_interleaved<N><<<grid, block, 0, stream>>>(...)`): each call is a launch of that kernel,
  its geometry (the body's own text) unknown.

- A runtime call given the arguments' addresses in an array (`void *args[] = {&a, &n};` then
  `cudaLaunchCooperativeKernel((void *)k, g, b, args)`: the form's `arg_array`): the arguments are the
  variables the array's initialiser takes the addresses of.

A value the file does not give (a field never set, a macro's geometry that is no parameter) is
left out of the launch's config: the geometry is unknown there, never guessed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from . import backends
from .backends.base import LaunchForm
from .source import call_args, ident_name

_CASTS = ("cast_expression", "parenthesized_expression", "pointer_expression")
_KERNEL_NODES = ("identifier", "qualified_identifier", "template_function")
_VA = ("__VA_ARGS__", "##__VA_ARGS__")


@dataclass(frozen=True)
class Fixed:
    """A macro whose body launches one named kernel (DeepEP's `NOTIFY_DISPATCH_LAUNCH_CASE(ranks)`:
    `LAUNCH_KERNEL(&cfg, notify_dispatch<ranks>, ...)`): the kernel's name as written, and the
    configuration struct the launch reads (None: its geometry is the macro's own text)."""
    kernel: str
    config: str | None


@dataclass(frozen=True)
class Forms:
    """The launch forms a file's calls may use: runtime calls and macros that wrap one (name ->
    LaunchForm), macros that declare a configuration struct (name -> (the struct's name, the
    macro parameter's position for grid, block, shared and stream, None where no parameter)), and
    macros that launch a named kernel (name -> Fixed): called, or passed to a macro that calls them
    (DeepEP's `SWITCH_RANKS(NOTIFY_DISPATCH_LAUNCH_CASE)`)."""
    calls: dict[str, LaunchForm]
    configs: dict[str, tuple[str, tuple[int | None, ...]]]
    fixed: dict[str, Fixed] = field(default_factory=dict)


def kernel_of(node: Node | None) -> Node | None:
    """The kernel's name expression in a launch's kernel argument (casts, `&`, parentheses and
    `HIP_KERNEL_NAME(...)` taken off)."""
    while node is not None and node.type not in _KERNEL_NODES:
        if node.type in _CASTS:
            node = node.child_by_field_name("value") or node.child_by_field_name("argument") or (
                node.named_children[-1] if node.named_children else None)
        elif node.type == "call_expression":  # reinterpret_cast<const void*>(k), HIP_KERNEL_NAME(k<T>)
            args = call_args(node)
            node = args[0] if len(args) == 1 else None
        else:
            return None
    return node


def _split_args(text: str, start: int) -> list[str] | None:
    """The top-level comma-separated arguments of the parenthesis opening at text[start]."""
    from .verbatim_args import arg_spans
    spans = arg_spans(text, start)
    return None if spans is None else [text[a:b].strip() for a, b in spans]


def _param(arg: str, params: list[str]) -> int | None:
    """The macro parameter an argument of the body is (`(num_sms)`, `&cfg`, `*config` too)."""
    a = arg.strip()
    while a.startswith("(") and a.endswith(")"):
        a = a[1:-1].strip()
    a = a.lstrip("&*").strip()
    if a in _VA:
        a = "..."
    return params.index(a) if a in params else None


def macro_forms(defs: list[Node], runtime: dict[str, LaunchForm], configs: dict) -> Forms:
    """Function-like macros (preproc_function_def nodes, in definition order) that wrap a launch, or
    declare a launch configuration, read from their bodies."""
    calls: dict[str, LaunchForm] = {}
    decl: dict[str, tuple[str, tuple[int | None, ...]]] = {}
    fixed: dict[str, Fixed] = {}
    for d in defs:
        name_n, plist, body_n = (d.child_by_field_name(f) for f in ("name", "parameters", "value"))
        if name_n is None or plist is None or body_n is None:
            continue
        params = [p.text.decode().strip() for p in plist.named_children] + \
            (["..."] if "..." in plist.text.decode() else [])
        body = body_n.text.decode().replace("\\\n", " ")
        known = {**runtime, **calls}
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", body):
            form = known.get(m.group(1))
            args = _split_args(body, m.end() - 1) if form is not None else None
            if form is None or args is None:
                continue
            pos = {f: _param(args[i], params) if i is not None and i < len(args) else None
                   for f, i in vars(form).items()}
            if pos["kernel"] is not None:
                calls[name_n.text.decode()] = LaunchForm(**pos)
                break
            kname = re.sub(r"<.*", "", args[form.kernel].strip().lstrip("&(").rstrip(")")) \
                if form.kernel < len(args) else ""
            if re.fullmatch(r"[A-Za-z_][\w:]*", kname) and kname not in params:  # a named kernel
                cfg = args[form.config].strip().lstrip("&*").strip() if form.config is not None and \
                    form.config < len(args) else ""
                fixed[name_n.text.decode()] = Fixed(kname, cfg if re.fullmatch(r"[A-Za-z_]\w*", cfg) and
                                                    cfg not in params else None)
                break
        else:
            m = re.search(r"([A-Za-z_]\w*)\s*<<<(.*?)>>>\s*\(", body, re.S)
            if m is not None and m.group(1) in params:
                cfg = _split_args("(" + m.group(2) + ")", 0) or []
                at = [_param(c, params) for c in cfg] + [None] * 4
                rest = _split_args(body, m.end() - 1) or []
                calls[name_n.text.decode()] = LaunchForm(kernel=params.index(m.group(1)), grid=at[0], block=at[1],
                                                         shared=at[2], stream=at[3],
                                                         args=_param(rest[0], params) if rest else None)
                continue
            n = re.search(r"([A-Za-z_][\w:]*)\s*(?:<[^<>;]*>)?\s*<<<", body)  # jpeggpu's `DISPATCH(N)`: `k<N><<<g, b>>>(...)`
            if n is not None and n.group(1) not in params:
                fixed[name_n.text.decode()] = Fixed(n.group(1), None)  # (its geometry is the body's text: unknown here)
                continue
        for t in configs:
            m = re.search(rf"\b{re.escape(t)}\s+([A-Za-z_]\w*)\s*=?\s*\{{", body)
            items = _split_args(body, m.end() - 1) if m is not None else None
            if items is not None and name_n.text.decode() not in calls:
                decl[name_n.text.decode()] = (m.group(1), tuple(_param(a, params) for a in items[:4]))
    return Forms(calls, decl, fixed)


def forms_of(src, known: dict[str, LaunchForm] | None = None) -> Forms:
    """The runtime's launch forms, `known` ones (its headers' launch macros) and those of the file's
    own macros (which may wrap either)."""
    own = list(src.index.of_types("preproc_function_def"))
    runtime = {**backends.launch_forms(), **(known or {})}
    found = macro_forms(own, runtime, backends.launch_configs())
    return Forms({**runtime, **found.calls}, found.configs, found.fixed)


def _config_values(src, name: str, body: Node, before: int, forms: Forms) -> list[Node | None]:
    """The grid, block, shared and stream a configuration struct `name` holds at byte `before` of
    `body`: its initialiser, a config macro's arguments, then the field assignments up to there."""
    fields_of = backends.launch_configs()
    order = next(iter(fields_of.values()), ("gridDim", "blockDim", "dynamicSmemBytes", "stream"))
    vals: list[Node | None] = [None] * 4
    for n in src.index.under_types(body, "init_declarator", "call_expression", "assignment_expression"):
        if n.start_byte >= before:
            break
        if n.type == "init_declarator" and ident_name(n.child_by_field_name("declarator")) == name:
            v = n.child_by_field_name("value")
            if v is not None and v.type == "initializer_list":
                vals = [None] * 4
                items = [c for c in v.named_children if c.type != "comment"]
                for i, item in enumerate(items):
                    if item.type == "initializer_pair":  # `.blockDim = dim3(256)`
                        fld = item.child_by_field_name("designator")
                        fname = fld.text.decode().lstrip(".") if fld is not None else ""
                        if fname in order:
                            vals[order.index(fname)] = item.child_by_field_name("value")
                    elif i < 4:
                        vals[i] = item
        elif n.type == "call_expression":
            fn = n.child_by_field_name("function")
            got = forms.configs.get(src.text_of(fn)) if fn is not None and fn.type == "identifier" else None
            if got is not None and got[0] == name:
                args = call_args(n)
                vals = [args[p] if p is not None and p < len(args) else None for p in got[1]] + [None] * 4
                vals = vals[:4]
        elif n.type == "assignment_expression" and src.text_of(n.child_by_field_name("operator")) == "=":
            left = n.child_by_field_name("left")
            if left is not None and left.type == "field_expression":
                obj, fld = left.child_by_field_name("argument"), left.child_by_field_name("field")
                if obj is not None and fld is not None and src.text_of(obj) == name and src.text_of(fld) in order:
                    vals[order.index(src.text_of(fld))] = n.child_by_field_name("right")
    return vals


def fixed_config(src, fixed: Fixed, node: Node, body: Node | None, forms: Forms) -> list[Node]:
    """The geometry a named-kernel launch macro's configuration struct holds where `node` calls it."""
    if fixed.config is None or body is None:
        return []
    out: list[Node] = []
    for v in _config_values(src, fixed.config, body, node.start_byte, forms):
        if v is None:
            break
        out.append(v)
    return out


def launch_parts(src, node: Node, form: LaunchForm, body: Node | None, forms: Forms) \
        -> tuple[Node | None, list[Node], list[Node]] | None:
    """(the kernel's name expression, the config nodes: grid, block[, shared[, stream]] as far as
    they are known in a row, the kernel arguments passed one by one) of a runtime or macro launch."""
    args = call_args(node)
    if form.kernel >= len(args):
        return None
    target = kernel_of(args[form.kernel])
    if form.config is not None:
        cfg = args[form.config] if form.config < len(args) else None
        name = kernel_of(cfg)
        vals = _config_values(src, src.text_of(name), body, node.start_byte, forms) \
            if name is not None and name.type == "identifier" and body is not None else [None] * 4
    else:
        vals = [args[i] if i is not None and i < len(args) else None for i in (form.grid, form.block, form.shared,
                                                                              form.stream)]
    config: list[Node] = []
    for v in vals:  # the config is positional: it stops at the first value the file does not give
        if v is None:
            break
        config.append(v)
    kargs = args[form.args:] if form.args is not None and form.args <= len(args) else []
    if not kargs and form.arg_array is not None and form.arg_array < len(args) and body is not None:
        kargs = _array_args(src, args[form.arg_array], body, node.start_byte)
    return target, config, kargs


def _chain(d: Node | None) -> list[str]:
    """The declarator's node types, outermost first (`void *a[]`: pointer_declarator, array_declarator)."""
    out = []
    while d is not None and d.type != "identifier":
        out.append(d.type)
        d = d.child_by_field_name("declarator")
    return out


def _array_args(src, arr: Node, body: Node, before: int) -> list[Node]:
    """The kernel arguments a `void **args` launch passes (`void *args[] = {(void *)&a, &n};` before it in
    the launching function): the variable each element takes the address of, in order.  [] where the array
    is not a local with such an initialiser, or an element is anything but `&x` under casts (its value is
    then unknown: the launch stays 'passes 0 arguments', never a guess)."""
    name = src.text_of(arr).strip() if arr.type == "identifier" else None
    found: Node | None = None
    for n in src.index.under_types(body, "init_declarator"):
        if n.start_byte >= before:
            break
        d = n.child_by_field_name("declarator")
        if name and d is not None and ident_name(d) == name and "array_declarator" in _chain(d):  # `void *a[]`
            found = n.child_by_field_name("value")
    if found is None or found.type != "initializer_list":
        return []
    out: list[Node] = []
    for item in (c for c in found.named_children if c.type != "comment"):
        while item is not None and item.type in ("cast_expression", "parenthesized_expression"):
            item = item.child_by_field_name("value") or (item.named_children[-1] if item.named_children else None)
        op = item.child_by_field_name("operator") if item is not None and item.type == "pointer_expression" else None
        if op is None or src.text_of(op) != "&":
            return []
        out.append(item.child_by_field_name("argument"))
    return out
