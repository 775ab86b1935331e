"""A cooperative-groups tile vote on a value whose type is a template parameter: the groups the run binds it to.

MVGpuBTree's node.hpp: `template <typename pair_type, typename tile_type, int node_width> struct btree_node
{ ... const tile_type tile_; ... tile_.ballot(p) ... }`, named `btree_node<pair_type, tile_type, branching_factor>`
in gpu_blink_tree.hpp's `template <typename tile_type, ...> cooperative_find(const Key&, const tile_type& tile,
...)`, called from btree_kernels.hpp's kernels with `auto tile = cg::tiled_partition<branching_factor>(block)`.
The header's port is one text for every instance: where every binding the run's files show (a class template's
arguments where it is named, a function template's arguments at its calls, followed through the callers' own
template parameters) is a tile of a thread block, the vote is the backend's tile vote with the tile's size read
from the tile itself (ROCm 5.2's tiles have no votes: backends/hip.py's `cg_members`, `cg_tile_size`).  A binding
the run shows that is another group (a coalesced group, a tile of a tile's parent the file cannot see), one it
cannot follow (an argument of unknown type, the class named without arguments), or no binding where the run
makes tiles is KP210 at the vote: a CUDA tile vote is never left in a port.  A template type the run binds to
types that are no group (a `std::bitset`'s `.any()`) is left as written.
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from . import lazy_re, tile_sizes
from .cg_names import aliases
from .diagnostics import Diagnostic
from .member_uses import receiver_group, tiles_of_blocks

_TILE_TEXT = lazy_re.compile(r"(?:(\w+)::)?(thread_block_tile\s*<[^<>]*>|thread_block|"
                             r"coalesced_group|grid_group|thread_group)")
_GROUP_WORDS = ("tiled_partition", "thread_block_tile", "coalesced_threads", "coalesced_group")
_DEPTH = 16  # callers followed through their own template parameters (each function once)
_SCALAR = lazy_re.compile(r"(?:(?:un)?signed\s*|long\s*|short\s*)*(?:int|char|bool|float|double|long|short|unsigned|"
                          r"size_t|std::size_t|u?int(?:8|16|32|64)_t)?\s*\**")
_SCALAR_ARGS = ("number_literal", "binary_expression", "unary_expression", "string_literal", "true", "false",
                "sizeof_expression", "char_literal", "nullptr")


def _bare_type(text: str) -> str:
    return " ".join(text.replace("&", " ").replace("const", " ").replace("volatile", " ").split())


def _params_of(node: Node | None, src) -> list[str]:
    """A template declaration's parameter names in order (`typename T`, `int N = 16`)."""
    if node is None or node.type != "template_declaration":
        return []
    plist = node.child_by_field_name("parameters")
    out = []
    for p in plist.named_children if plist is not None else ():
        ids = [c for c in p.named_children if c.type in ("type_identifier", "identifier")] or \
            [d for c in p.named_children for d in ([c] if c.type == "identifier" else c.named_children)
             if d.type == "identifier"]
        out.append(src.text_of(ids[0]) if ids else "")
    return out


def _class_of(n: Node) -> Node | None:
    p = n.parent
    while p is not None and p.type not in ("class_specifier", "struct_specifier"):
        p = p.parent
    return p


class Bindings:
    """The groups a template-typed receiver is bound to across `modules` (run_modules)."""

    def __init__(self, modules: list):
        self.modules = modules
        self.groups: dict[str, str] = {}  # group text -> where ("file:line")
        self.other: dict[str, str] = {}  # a type that is no group -> where
        self.unknown: list[str] = []  # what could not be followed, located
        self.tiles_of_blocks = True  # every module holding a bound tile partitions thread blocks only
        self.seen: set = set()  # (path, function, parameter) whose calls were followed

    def receiver(self, m, recv: Node, depth: int = 0) -> None:
        """Follow the declared type of `recv` (a name, `this->name`) where it is a template parameter."""
        src = m.source
        name_node = recv.child_by_field_name("field") if recv.type == "field_expression" else recv
        name = src.text_of(name_node) if name_node is not None else ""
        f = m.function_at(recv)
        if f is not None:
            for i, p in enumerate(f.params):
                if p.name == name:
                    t = _bare_type(src.text_of(p.node.child_by_field_name("type")))
                    return self._param(m, f, i, t, recv, depth)
        cls = _class_of(recv)
        while cls is not None:
            body = cls.child_by_field_name("body")
            for fd in (body.named_children if body is not None else ()):
                if fd.type == "field_declaration" and any(
                        src.text_of(d).strip("&* ") == name for d in fd.children_by_field_name("declarator")):
                    t = _bare_type(src.text_of(fd.child_by_field_name("type")))
                    return self._class_param(m, cls, t, recv, depth)
            cls = _class_of(cls)
        self._unknown(m, recv, f"the type of `{name}`")

    def _where(self, m, n: Node) -> str:
        loc = m.source.loc(n)
        return f"{Path(loc.path).name}:{loc.line}"

    def _unknown(self, m, n: Node, what: str) -> None:
        self.unknown.append(f"{what} ({self._where(m, n)})")

    def _param(self, m, f, i: int, t: str, at: Node, depth: int) -> None:
        if t in f.template_params:
            return self._calls(m, f, i, t, depth)
        cls = _class_of(f.node)
        if cls is not None:
            return self._class_param(m, cls, t, at, depth)
        self._type(m, t, at, depth)

    def _type(self, m, text: str, at: Node, depth: int) -> None:
        """A written type: a group's, or another (no group), or a template parameter to follow."""
        g = _group_match(text, m.source)
        if g is not None:
            group = g.group(2)
            size = group.split("<", 1)[1].split(",")[0].strip(" >") if group.startswith("thread_block_tile") else ""
            got = tile_sizes.values(m, size, at) if size and not size.isdigit() else None
            for v in sorted(got or ()):  # a size written as a name: its values (kernelport/tile_sizes.py)
                self.groups.setdefault(f"thread_block_tile<{v}>", self._where(m, at))
            if not got:
                self.groups.setdefault(group, self._where(m, at))
            self.tiles_of_blocks &= tiles_of_blocks(m.source)
        elif text.startswith("decltype("):
            self._unknown(m, at, f"`{text}`")
        elif not _SCALAR.fullmatch(text):  # (a scalar binds another function: see _calls)
            self.other.setdefault(text, self._where(m, at))

    def _class_param(self, m, cls: Node, t: str, at: Node, depth: int) -> None:
        """t, a template parameter of the class `cls`: the argument at its place wherever the run names the class."""
        src = m.source
        params = _params_of(cls.parent, src)
        name = cls.child_by_field_name("name")
        if t not in params or name is None:
            return self._type(m, t, at, depth)
        j, cname = params.index(t), src.text_of(name)
        for m2 in self.modules:
            s2 = m2.source
            own = s2.path == src.path
            for n in s2.index.of_types("template_type", "type_identifier"):
                if n.type == "type_identifier" and (s2.text_of(n) != cname or n.parent is None or
                                                    n.parent.type == "template_type"):
                    continue
                if own and cls.start_byte <= n.start_byte < cls.end_byte:
                    continue  # the class's own body names itself with its own parameters
                if n.type == "type_identifier":
                    if n.parent.type not in ("struct_specifier", "class_specifier"):
                        self._unknown(m2, n, f"`{cname}` named without template arguments")
                    continue
                tn = n.child_by_field_name("name")
                if tn is None or s2.text_of(tn).rsplit("::", 1)[-1] != cname:
                    continue
                args = [a for a in n.child_by_field_name("arguments").named_children if a.type != "comment"]
                if j >= len(args):
                    self._unknown(m2, n, f"`{s2.text_of(n)}` (a default argument)")
                    continue
                self._argument_type(m2, _bare_type(s2.text_of(args[j])), n, depth)

    def _argument_type(self, m, text: str, at: Node, depth: int) -> None:
        f = m.function_at(at)
        if f is not None and text in f.template_params:  # the caller's own parameter: its callers bind it
            idx = next((i for i, p in enumerate(f.params)
                        if _bare_type(m.source.text_of(p.node.child_by_field_name("type"))) == text), None)
            if idx is None:
                return self._unknown(m, at, f"`{text}`, a template parameter no argument of `{f.name}` deduces")
            return self._calls(m, f, idx, text, depth)
        self._type(m, text, at, depth)

    def _calls(self, m, f, i: int, t: str, depth: int) -> None:
        """t deduced from f's parameter i: the argument at each call of f in the run."""
        key = (m.source.path, f.node.start_byte, i)
        if key in self.seen:
            return  # (a cycle of calls, or a function already followed: it binds what it bound)
        self.seen.add(key)
        if depth >= _DEPTH:
            return self._unknown(m, f.node, f"`{f.name}`'s callers, {_DEPTH} levels deep")
        for m2 in self.modules:
            s2 = m2.source
            for c in s2.index.of_type("call_expression"):
                fn = c.child_by_field_name("function")
                while fn is not None and fn.type in ("field_expression", "qualified_identifier", "template_function"):
                    fn = fn.child_by_field_name("field" if fn.type == "field_expression" else "name")
                if fn is None or s2.text_of(fn) != f.name.rsplit("::", 1)[-1]:
                    continue
                args = [a for a in c.child_by_field_name("arguments").named_children if a.type != "comment"]
                if not i < len(args) <= len(f.params):
                    continue  # another overload's call
                caller = m2.function_at(c)
                if caller is not None and caller.node.start_byte == f.node.start_byte and s2.path == m.source.path:
                    continue  # (recursion passes what its callers gave)
                a = args[i]
                g = receiver_group(a, s2)  # (a group's factory, or the type a local or parameter is declared with)
                if g is not None and (_group(g, s2) or a.type == "identifier" and g not in (caller.template_params if
                                                                                       caller is not None else ())):
                    self._type(m2, g, a, depth)
                elif a.type in ("identifier", "field_expression"):
                    self.receiver(m2, a, depth + 1)
                elif a.type in _SCALAR_ARGS:
                    continue  # (another function's call: a vote on a scalar would not compile in CUDA either)
                else:
                    self._unknown(m2, a, f"the argument `{s2.text_of(a)}`")


def _declared_at(m, recv: Node) -> tuple | None:
    """Where the receiver's name is declared, as a key (a parameter of its function; else its class's member)."""
    name_node = recv.child_by_field_name("field") if recv.type == "field_expression" else recv
    name = m.source.text_of(name_node) if name_node is not None else ""
    f = m.function_at(recv)
    if f is not None and any(p.name == name for p in f.params):
        return ("parameter", f.node.start_byte, name)
    cls = _class_of(recv)
    return ("member", cls.start_byte, name) if cls is not None else None


def _template_param(m, n: Node, t: str) -> bool:
    """t is a template parameter of the function around n or of a class template around it."""
    f = m.function_at(n)
    if f is not None and t in f.template_params:
        return True
    cls = _class_of(n)
    while cls is not None:
        if t in _params_of(cls.parent, m.source):
            return True
        cls = _class_of(cls)
    return False


def _group_match(text: str, src):
    """The group type `text` names (`cg::thread_block_tile<16>`: group 2), through cooperative_groups or an alias
    of it the file declares (cg_names.aliases), or None."""
    g = _TILE_TEXT.fullmatch(text.replace(" ", ""))
    return g if g is not None and (g.group(1) is None or g.group(1) in aliases(src)) else None


def _group(text: str | None, src) -> bool:
    return text is not None and _group_match(text, src) is not None


def run_modules(tr) -> list:
    """The unit's module, then the run's files and their headers (kernelport.includers.Elsewhere's run): a file
    that binds the template need not include the unit itself (btree_kernels.hpp is included partway through the
    file that includes node.hpp); more files only add bindings."""
    from .includers import _run_files
    ew = getattr(getattr(tr.module, "visible", None), "elsewhere", None)
    out = [tr.module]
    if ew is None or ew.root is None:
        return out
    for f in _run_files(ew.project):
        if f == ew.root:
            continue
        try:
            out.append(ew.project.module(f))
        except Exception:  # noqa: BLE001 - a file that does not parse binds nothing; the command reports it
            continue
    return out


def rewrite_votes(tr, b) -> None:
    """Each tile vote (`x.ballot(p)`, the backend's members with a `{predicate}`) on a receiver member_calls
    could not type: the backend's vote where every binding is a tile of a block, else KP210 (or left: no group)."""
    votes = {m for (g, m), t in b.cg_members.items() if g == "thread_block_tile" and t and "{predicate}" in t}
    src = tr.src
    if not votes or not any(w.encode() in src.data for w in votes):
        return
    modules, cache = None, {}
    for call in src.index.of_type("call_expression"):
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if fn is None or fn.type != "field_expression" or args is None or tr.rw.has(call):
            continue
        member, recv = fn.child_by_field_name("field"), fn.child_by_field_name("argument")
        if member is None or recv is None or src.text_of(member) not in votes or tr.cuda_only_region(call):
            continue
        args = [a for a in args.named_children if a.type != "comment"]
        t = receiver_group(recv, src)  # (a group's type as written is member_calls'; another declared type is no group)
        if len(args) != 1 or recv.type not in ("identifier", "field_expression") or \
                t is not None and (_group(t, src) or not _template_param(tr.module, recv, t)):
            continue
        modules = run_modules(tr) if modules is None else modules
        key = _declared_at(tr.module, recv)
        bound = cache.get(key) if key is not None else None
        if bound is None:
            bound = Bindings(modules)
            bound.receiver(tr.module, recv)
            cache[key] = bound
        _decide(tr, b, call, recv, src.text_of(member), args[0], bound, modules)


def _decide(tr, b, call: Node, recv: Node, member: str, arg: Node, bound: Bindings, modules) -> None:
    src, what = tr.src, f"`{tr.src.text_of(call)}`"
    tiles = [g for g in bound.groups if g.startswith("thread_block_tile")]
    big = [g for g in tiles if (n := g.split("<", 1)[1].split(",")[0].strip(" >")).isdigit() and int(n) > 32]
    tiles_in_run = any(w.encode() in m.source.data for m in modules for w in _GROUP_WORDS)
    if not bound.groups and (not bound.unknown or not tiles_in_run):
        if not bound.other and not bound.unknown and tiles_in_run:
            tr.port.diagnostics.append(Diagnostic(  # (dependent: hipcc checks it where it is instantiated)
                "KP210", src.loc(call), f"{what} is left as written: a cooperative-groups vote on a value whose type "
                f"is a template parameter that the run's files bind to nothing; {b.api_checked_with}'s "
                f"{b.display_name} tiles have no `{member}` (an instance with a tile does not compile there)",
                "translate it with the files that instantiate it, or give the value a tile's type", "warning"))
        return  # a type the run makes no group of: not cooperative groups' vote
    if tiles and len(tiles) == len(bound.groups) and not big and not bound.unknown and not bound.other and \
            bound.tiles_of_blocks and b.cg_tile_size:
        size = b.cg_tile_size.replace("{group}", src.text_of(recv))
        target = b.cg_members[("thread_block_tile", member)].replace("{size}", size)
        tr.rw.replace(call, lambda rw, _, t=target, a=arg: t.replace("{predicate}", rw.text(a)))
        tr._api_note(call, src.text_of(call), target.replace("{predicate}", "p"),
                     f"cooperative-groups member (a tile the run binds: {', '.join(sorted(bound.groups))})")
        return
    why = "; ".join([f"{g} at {w}" for g, w in sorted(bound.groups.items()) if not g.startswith("thread_block_tile")
                     or g in big] + [f"{t} at {w}" for t, w in sorted(bound.other.items())] + bound.unknown[:3])
    tr.problem("KP210", call, f"{what}: a cooperative-groups vote on a value whose type is a template parameter, which "
               f"the run does not bind to tiles of thread blocks of up to 32 threads only "
               f"({why or 'a tile of a group other than a thread block'}); {b.api_checked_with}'s {b.display_name} "
               f"tiles have no `{member}`", "give the value a tile's type (`cg::thread_block_tile<16>`), or guard the "
               "vote so that only the CUDA build compiles it")
