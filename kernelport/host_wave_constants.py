"""Host code's reads of a file-scope constant the port makes the wave width.

`constexpr int WARP = 32;` at file scope, read by a kernel that folds a whole warp (`for (o = WARP / 2; ...)`,
`HEAD / WARP` elements per lane) and by its host launch (`row_dot<<<rows, WARP>>>`): where the group is
the wave, the port writes `constexpr int WARP = KP_WAVE_SIZE;`, which each pass reads as its own value:
64 in gfx90a's device pass, but 32 in the host pass (no __GFX9__ there).  The launch then runs blocks of
32 threads for a kernel that gives each of 64 lanes a share and folds from lane 32: half the data summed,
a shuffle from lanes that do not run (undefined on AMD), a port that compiles and computes something else.

So, as for a warp-size macro (Translator.rewrite_macro_uses), a host-only function's read of such a
constant asks the device at run time (`kp_device_warp_size()`, with a note verify's oracle reads to launch
at each wave), and one in a constant expression of host code (an array bound, a template argument) is
refused (KP206): the host pass cannot know the device's wave.  A host function that declares its own
variable of the name reads its own, and a constant the port keeps 32 (a logical 32-lane group) is not
this."""
from __future__ import annotations

from .code_contexts import context
from .launchrows import local_defs
from .source import ident_name


def constants(tr) -> dict[str, object]:
    """Name -> declarator of the file-scope constants whose initializer the port makes the wave width."""
    out = {}
    for s in tr.wave_sites():
        d = s.node.parent
        if s.role != "ws" or d is None or d.type != "init_declarator" or d.child_by_field_name("value") != s.node:
            continue
        decl = d.parent
        if decl is None or decl.type != "declaration" or tr.module.function_at(decl) is not None:
            continue
        if (name := ident_name(d.child_by_field_name("declarator"))):
            out[name] = d
    return out


def _reads(tr):
    """The names read: identifiers, and a template argument's bare name, which the grammar reads as a type
    (`per<WARP>()`: a `type_identifier` in a `type_descriptor`; a constant expression of host code all the same)."""
    yield from tr.src.index.of_type("identifier")
    for n in tr.src.index.of_type("type_identifier"):
        d = n.parent
        if d is not None and d.type == "type_descriptor" and d.named_child_count == 1 and d.parent is not None \
                and d.parent.type == "template_argument_list":
            yield n


def rewrite(tr) -> None:
    """Translator pass (see the module doc)."""
    if not tr.wide_waves():
        return
    try:
        host = tr.spell("host_wave_size")
    except LookupError:
        return  # this backend carries no host code
    names = constants(tr)
    if not names:
        return
    own: dict[int, set[str]] = {}  # a host function's own variables of those names (its locals shadow them)
    for n in _reads(tr):
        name = tr.src.text_of(n)
        if name not in names or tr.rw.has(n) or tr.cuda_only_region(n):
            continue
        f = tr.module.function_at(n)
        if f is None or f.is_device or f.body is None:
            continue
        key = f.body.id
        if key not in own:
            own[key] = set(local_defs(tr.src, f.body)) | {p.name for p in f.params}
        if name in own[key]:
            continue
        ctx = context(n, tr.module)
        if ctx in ("const", "size"):
            tr.problem("KP206", n, f"'{name}' is the wave width in a constant expression of host code (the port "
                       f"makes its definition at line {tr.src.loc(names[name]).line} the device's wave): the host "
                       "pass cannot know the device's wave width",
                       "choose at run time, e.g. kp_device_warp_size() == 64 ? k<64><<<...>>> : k<32><<<...>>>")
        elif ctx == "host":
            tr.rw.replace(n, host)
            tr.note(n, host, f"'{name}' is the device's wave width in the port: host code must ask the device")
