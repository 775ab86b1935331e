"""Cooperative groups' thread block and static tiles, lowered to what they are: the block's
barrier and thread index, and sub-warp shuffles and votes of a fixed width.

`cg::thread_block cta = cg::this_thread_block();` and `cg::thread_block_tile<32> t =
cg::tiled_partition<32>(cta);` declare tokens (an int here): each later use of the variable
(`cta.thread_rank()`, `t.shfl_down(v, d)`, `cg::sync(cta)`) is rewritten in the backend's own
spellings (the dialect table), so the emulator runs them as the intrinsics they are.  Groups
whose shape is only known at run time (`thread_group`, `coalesced_group`) are left as written:
the parse then says where.  `cg::reduce(tile, v, cg::plus<float>{})` over a static tile (and
`less`, `greater`, `bit_and`, `bit_or`, `bit_xor`) calls a helper made here, one per operator, type
and width: the butterfly of the tile's width in the backend's spelled shuffle, as a port's own
cg::reduce helper is written (`Groups.helpers`: the items the front end adds).  The namespace is the backend's
`Lowering.group_namespaces`; aliases (`namespace cg = cooperative_groups;`) and
`using namespace` are read from the file.  A tile's size written as a name (`tiled_partition<kTile>(cta)`:
a `constexpr`, a class's constant, a template parameter) is its value as kernelport.tile_sizes reads it in
the original file (one reading for translate and the emulator; a template's instance has the value already
substituted); a size no constant decides is refused at its line, never guessed.
"""
from __future__ import annotations

import re

from ... import dialect
from .items import balanced
from .lowered import LowerError

# tile methods -> (concept, the concept parameter its arguments bind, in order)
_TILE_CALLS = {"shfl": ("shfl", ("value", "lane")), "shfl_up": ("shfl_up", ("value", "delta")),
               "shfl_down": ("shfl_down", ("value", "delta")), "shfl_xor": ("shfl_xor", ("value", "lanemask"))}
_VOTES = {"ballot": "ballot", "any": "any", "all": "all"}
# cg::reduce's operator objects (cooperative_groups/reduce.h): a op b
_REDUCE_OPS = {"plus": "a + b", "less": "b < a ? b : a", "greater": "a < b ? b : a", "bit_and": "a & b",
               "bit_or": "a | b", "bit_xor": "a ^ b"}


class Groups:
    """One backend's spellings of what a block or a tile does, and the file's namespace prefixes."""

    def __init__(self, backend: str, namespaces: tuple[str, ...], text: str, sizes=None):
        self.backend = backend
        self.sizes = sizes  # (size text, file, line) -> its value or None (tile_sizes.reader)
        self.unknown: list[tuple[int, LowerError]] = []  # (the item's id, its refusal): a tile of no known size
        names = set(namespaces)
        for m in re.finditer(r"\bnamespace\s+(\w+)\s*=\s*(?:::\s*)?(\w+)\s*;", text):
            if m.group(2) in namespaces:
                names.add(m.group(1))
        bare = any(re.search(rf"\busing\s+namespace\s+{re.escape(n)}\s*;", text) for n in namespaces)
        ns = "|".join(sorted(map(re.escape, names)))
        self.prefix = rf"(?:\b(?:{ns})\s*::\s*)" + ("?" if bare else "")
        spell = {k: dialect.concept(k).name(backend) for k in ("thread_idx", "block_dim", "block_idx")}
        t, d = spell["thread_idx"], spell["block_dim"]
        self.rank = f"({t}.x + {d}.x * ({t}.y + {d}.y * {t}.z))"
        self.size = f"({d}.x * {d}.y * {d}.z)"
        self.spell = spell
        self.full = dialect.concept("full_mask").spelling(backend) or "0xffffffff"
        self.helpers: dict[str, str] = {}  # cg::reduce's helpers: name -> C definition

    def reduce_helper(self, n: int, op: str, ctype: str) -> str:
        """The name of the helper that reduces one value over a tile of n lanes with `op`."""
        name = f"__kp_cg_reduce_{op}_{n}_" + re.sub(r"\W+", "_", ctype.strip())
        if name not in self.helpers:
            shfl = self._render("shfl_xor", value="v", lanemask="o", width=str(n))
            self.helpers[name] = (f"{ctype} {name}({ctype} v) {{\n"
                                  f"    for (int o = {n} / 2; o > 0; o /= 2) {{ {ctype} a = v; {ctype} b = {shfl}; "
                                  f"v = {_REDUCE_OPS[op]}; }}\n    return v;\n}}\n")
        return name

    def _render(self, key: str, **args) -> str:
        return dialect.render(dialect.concept(key), self.backend, {"mask": self.full, **args})

    def tile_sync(self, n: str) -> str:
        """A tile's sync: the warp's, over the tile's own lanes where the backend's sync takes a mask (CUDA's
        tile.sync() is `__syncwarp` of the tile's mask; with the full mask the other tiles of the warp had to
        be there too, and a kernel whose tiles sync apart faulted: "lane mask names inactive lanes")."""
        if n == "32" or not self.full.startswith("0x"):
            return self._render("syncwarp")
        r = self.rank
        return self._render("syncwarp", mask=f"(({self.full}u >> (32 - {n})) << (({r} % 32) / {n} * {n}))")

    def block_member(self, method: str, args: list[str]) -> str | None:
        if args and method != "sync":
            return None
        return {"thread_rank": self.rank, "size": self.size, "num_threads": self.size,
                "sync": self._render("syncthreads"), "thread_index": self.spell["thread_idx"],
                "group_index": self.spell["block_idx"], "group_dim": self.spell["block_dim"],
                "dim_threads": self.spell["block_dim"]}.get(method)

    def tile_member(self, n: int, method: str, args: list[str]) -> str | None:
        if method in ("thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size", "sync") and args:
            return None
        if method == "thread_rank":
            return f"({self.rank} % {n})"
        if method in ("size", "num_threads"):
            return f"({n})"
        if method == "meta_group_rank":
            return f"({self.rank} / {n})"
        if method == "meta_group_size":
            return f"(({self.size} + {n - 1}) / {n})"
        if method == "sync":
            return self.tile_sync(str(n))
        if method in _TILE_CALLS and len(args) == 2:
            key, params = _TILE_CALLS[method]
            return self._render(key, **dict(zip(params, args)), width=str(n))
        if method in _VOTES and len(args) == 1 and n == 32:  # a whole 32-lane warp of the original
            return self._render(_VOTES[method], predicate=args[0])
        return None


    def group_member(self, var: str, method: str, args: list[str]) -> str | None:
        """A `thread_group` variable's member: its value says which group it holds (0 the block, n a
        static tile of n lanes, `lower_groups`), so each member is the block's or the tile's, chosen by it."""
        if args:
            return None
        if method == "thread_rank":
            return f"({var} == 0 ? {self.rank} : {self.rank} % {var})"
        if method in ("size", "num_threads"):
            return f"({var} == 0 ? {self.size} : {var})"
        if method == "sync":  # a statement: the block's barrier or the tile's
            return f"if ({var} == 0) {self._render('syncthreads')}; else {self.tile_sync(var)}"
        return None

    def check(self, items: list, used: set[str] | None, kernel: str | None) -> None:
        """The refusal of a tile of no known size in an item the kernel runs (another kernel's, or a helper's
        it never calls, is dropped with that item as any code not C99 is)."""
        for it in items:
            for e in (e for key, e in self.unknown if key == id(it)):
                if it.kind == "kernel" and (kernel is None or it.name == kernel) or \
                        it.kind != "kernel" and (used is None or it.name in used):
                    raise e


def _args(text: str, open_i: int) -> tuple[list[str], int]:
    """The comma-separated arguments of the call whose '(' is at open_i, and the index past ')'."""
    end = balanced(text, open_i)
    inner = text[open_i + 1: end - 1]
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out, end


def _size(g: Groups, size: str, text: str, at: int, file: str, line: int) -> int | LowerError:
    """A tile's size as written (a literal, a constant expression, a name the original's constants decide),
    or the located refusal of one nothing here decides."""
    from ...blockdims import evaluate
    v = evaluate(size, {})
    where = line + text.count("\n", 0, at)
    if v is None and g.sizes is not None:
        v = g.sizes(size, file, where)
    if v is None or v <= 0:
        return LowerError(f"the tile size `{' '.join(size.split())}` is no constant the emulator reads (not yet)",
                          file, where, at - text.rfind("\n", 0, at))
    return v


def _pow2_tile(size: str) -> int | None:
    from ...blockdims import evaluate
    v = evaluate(size, {})
    return v if isinstance(v, int) and 0 < v <= 32 and v & (v - 1) == 0 else None


def lower_groups(text: str, g: Groups, file: str = "<kernel>", line: int = 1, key: int = 0) -> str:
    """One item's block and tile variables as ints, their uses as the backend's intrinsics (`file`, `line`:
    where the item starts in the original, to read a size written as a name there; `key`: the item's id, by
    which a tile of no known size is refused, `Groups.check`)."""
    p = g.prefix
    kinds: dict[str, int] = {}  # variable -> 0 (the block), the tile's width, or -1 (a `thread_group`: its value says)
    decl = re.compile(rf"{p}(thread_group\b|thread_block\b|thread_block_tile\s*<\s*([^<>;{{}}]+?)\s*>)(\s*(?:const\s*)?&?\s*)(\w+)")
    # `auto t = cg::tiled_partition<16>(block);` / `auto b = cg::this_thread_block();`: the type its initialiser makes
    auto = re.compile(rf"\bauto\b(\s*(?:const\s*)?&?\s*)(\w+)(?=\s*=\s*{p}(?:this_thread_block\s*\(|"
                      rf"tiled_partition\s*<\s*([^<>;{{}}]+?)\s*>\s*\())")
    unknown = set()
    for m, size, var in [(m, 2, 4) for m in decl.finditer(text)] + [(m, 3, 2) for m in auto.finditer(text)]:
        n = _size(g, m.group(size), text, m.start(size), file, line) if m.group(size) else \
            -1 if m.group(1) == "thread_group" else 0
        if isinstance(n, LowerError):
            g.unknown.append((key, n))
            unknown.add(m.group(var))  # (left as written: the item is dropped or refused)
        else:
            kinds[m.group(var)] = n
    if not kinds:
        return text
    text = decl.sub(lambda m: m.group(0) if m.group(4) in unknown else "int" + m.group(3) + m.group(4), text)
    text = auto.sub(lambda m: m.group(0) if m.group(2) in unknown else "int" + m.group(1) + m.group(2), text)
    text = re.sub(rf"{p}this_thread_block\s*\(\s*\)", "0", text)
    # a tile's value is its width, the block's 0: what a `thread_group` it is passed as reads (group_member)
    text = re.sub(rf"{p}tiled_partition\s*<\s*([^<>;{{}}]+?)\s*>\s*\(\s*\w+\s*\)",
                  lambda m: str(n) if isinstance(n := _size(g, m.group(1), text, m.start(1), file, line), int) else "0",
                  text)
    # `tiled_partition(block, 4)`: a tile of a width known here (a power of two up to a warp's 32, as CUDA
    # requires), whose value is its width; one of any other width is left as written (the parse says where)
    text = re.sub(rf"{p}tiled_partition\s*\(\s*\w+\s*,\s*([^(),;{{}}]+?)\s*\)",
                  lambda m: str(v) if (v := _pow2_tile(m.group(1))) else m.group(0), text)
    names = "|".join(map(re.escape, kinds))
    text = _lower_reduces(text, g, kinds, names)
    use = re.compile(rf"{p}sync\s*\(\s*({names})\s*\)|\b({names})\s*\.\s*(\w+)\s*\(")
    pos = 0
    while True:
        m = use.search(text, pos)
        if m is None:
            return text
        if m.group(1):
            var, method, args, end = m.group(1), "sync", [], m.end()
        else:
            var, method = m.group(2), m.group(3)
            args, end = _args(text, m.end() - 1)
        n = kinds[var]
        new = g.block_member(method, args) if n == 0 else g.tile_member(n, method, args) if n > 0 else \
            g.group_member(var, method, args)
        if n < 0 and method == "sync" and new is not None:  # `g.sync();`: a statement of its own, braced
            semi = re.match(r"\s*;", text[end:])
            new, end = (None, end) if semi is None else ("{ " + new + "; }", end + semi.end())
        if new is None and n < 0:  # a member of a thread_group not modelled: refused where the kernel reaches it
            at = m.start()
            g.unknown.append((key, LowerError(
                f"cannot lower for the emulator: `{var}.{method}(...)` of a thread_group (a group whose shape only its "
                "value says: thread_rank(), size(), num_threads() and sync() are modelled; not yet this)",
                file, line + text.count("\n", 0, at), at - text.rfind("\n", 0, at))))
        if new is None:  # not lowered: the parse says where
            pos = m.end()
            continue
        text = text[: m.start()] + new + text[end:]
        pos = m.start()  # a use inside the arguments is next


def _lower_reduces(text: str, g: Groups, kinds: dict[str, int], names: str) -> str:
    """`cg::reduce(tile, v, cg::plus<float>{})` over a static tile: its helper's call on `v`; any
    other (a block, an operator object of the file's own) is left as written."""
    call = re.compile(rf"{g.prefix}reduce\s*\(\s*({names})\s*,")
    op = re.compile(rf"\s*{g.prefix}({'|'.join(_REDUCE_OPS)})\s*<\s*([\w\s]+?)\s*>\s*(?:\{{\s*\}}|\(\s*\))\s*")
    pos = 0
    while (m := call.search(text, pos)) is not None:
        open_i = text.index("(", m.start())
        args, end = _args(text, open_i)
        how = op.fullmatch(args[2]) if len(args) == 3 else None
        if kinds[m.group(1)] == 0 or how is None:
            pos = m.end()
            continue
        text = text[: m.start()] + f"{g.reduce_helper(kinds[m.group(1)], how.group(1), how.group(2))}({args[1]})" \
            + text[end:]
        pos = m.start()  # a reduce inside the value is next
    return text
