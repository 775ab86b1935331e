"""Cooperative groups' 32-thread tiles in a Metal port: `cg::thread_block_tile<32>` (from
`cg::tiled_partition<32>(block)`) is the SIMD-group, under the same 32-wide assumption as a full-warp
`__shfl_sync` (Apple's SIMD-group is 32 wide; the port's lint gate says where a width matters).  The
tile is an empty token type of the prologue (as `cg::thread_block` is); its members and `cg::reduce`
over it are Metal's SIMD-group functions, spelled in the Metal backend's `cg_tile_members` and
`cg_reduce_ops`.  A tile of 16, 8, 4 or 2 threads is a segment of the SIMD-group of that many lanes
(`cg_subtile_members`: CUDA's width-W shuffles, the tile's bits of the ballot); its `sync()` and a
`cg::reduce` over it have no such meaning.  A tile of another size, another member, a reduce with
another operator, or a tile the port cannot follow (a template parameter, an array of tiles, one name
for tiles of two widths) stays KP217 at its line."""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import backends
from ...rewrite import Rewriter
from ...source import call_args, ident_name, walk

_TILE = re.compile(r"^(thread_block_tile|tiled_partition)\s*<\s*(\w+)\s*>$")
# `cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);` in a body, which the grammar reads
# as the expression `cg::thread_block_tile < 32 > warp = ...`
_DECLARED = re.compile(r"^(\w+)\s*::\s*thread_block_tile\s*<\s*(\w+)\s*>\s*(\w+)\s*=\s*"
                       r"(\w+)\s*::\s*tiled_partition\s*<\s*(\w+)\s*>\s*\(\s*\w+\s*\)\s*;$")
_OP = re.compile(r"^(?:\w+\s*::\s*)?(\w+)\s*<[^<>]*>\s*(?:\{\s*\}|\(\s*\))$")


class CooperativeTiles:
    """Mixin of MetalTranslator: `_tile` (a cg:: name of a tile) and `_tile_calls` (its members)."""

    def _tile(self, n: Node, what: str, names: set[str]) -> bool:
        """`thread_block_tile<32>` and `tiled_partition<32>(block)`: the SIMD-group token; the
        variables and parameters declared of it are remembered for `_tile_calls`. False: not a 32-tile."""
        size, token = backends.get(self.backend).cg_tile
        sizes = (size,) + backends.get(self.backend).cg_subtiles
        stmt = n.parent
        while stmt is not None and stmt.type in ("binary_expression", "assignment_expression"):
            stmt = stmt.parent
        if what == "thread_block_tile" and stmt is not None and stmt.type == "expression_statement":
            d = _DECLARED.match(" ".join(self.src.text_of(stmt).split()))
            if d is None or d.group(2) not in sizes or d.group(5) != d.group(2) or not {d.group(1), d.group(4)} <= names:
                return False
            self.rw.replace(stmt, f"{token} {d.group(3)} = {token}();")
            self.cg_done.append((stmt.start_byte, stmt.end_byte))
            return self._tile_named(d.group(3), d.group(2), stmt)
        m = _TILE.match(what)
        if m is None or m.group(2) not in sizes:
            return False
        if m.group(1) == "tiled_partition":
            if n.parent.type != "call_expression":
                return False
            self.rw.replace(n.parent, f"{token}()")
            init = n.parent.parent  # `const auto tile = cg::tiled_partition<32>(cta);`
            if init is not None and init.type == "init_declarator" and ident_name(init) is not None:
                return self._tile_named(ident_name(init), m.group(2), n)
            return m.group(2) == size  # a sub-tile the port cannot follow: its width would be lost
        self.rw.replace(n, token)
        decl = n.parent
        if decl.type in ("parameter_declaration", "declaration"):
            for d in (decl.children_by_field_name("declarator")):
                name = ident_name(d)
                if name is not None and not self._tile_named(name, m.group(2), n):
                    return False
        return m.group(2) == size or decl.type in ("parameter_declaration", "declaration")

    def _tile_named(self, name: str, width: str, at: Node) -> bool:
        """Remember a tile variable's width; one name of two widths (the token type does not carry it)
        is KP217 here, as is anything a tile's width could not follow."""
        if self.cg_tile_width.setdefault(name, width) != width:
            self.problem("KP217", at, f"cooperative groups' tiles of {self.cg_tile_width[name]} and {width} threads "
                         f"both named '{name}': kernelport follows a tile's width by its name",
                         "give tiles of different widths different names")
            return False
        self.cg_tiles.add(name)
        return True

    def _tile_reduce(self, call: Node, names: set[str]) -> bool:
        """`cg::reduce(tile, v, cg::plus<T>{})`: Metal's SIMD-group reduction of v."""
        args = call_args(call)
        ops = backends.get(self.backend).cg_reduce_ops
        if len(args) != 3 or self.src.text_of(args[0]) not in self.cg_tiles or \
                self.cg_tile_width.get(self.src.text_of(args[0])) != backends.get(self.backend).cg_tile[0]:
            return False  # (a sub-tile's reduce: KP217)
        m = _OP.match(" ".join(self.src.text_of(args[2]).split()))
        if m is None or m.group(1) not in ops or not self._cg_scoped(args[2], names):
            return False
        value, spelled = args[1], ops[m.group(1)]
        self.rw.replace(call, lambda rw, _n: spelled.format(value=rw.text(value)))
        return True

    def _cg_scoped(self, n: Node, names: set[str]) -> bool:
        text = self.src.text_of(n)
        return any(text.startswith(f"{s}::") for s in names)

    def _tile_calls(self) -> bool:
        """`tile.member(args)` of a 32-tile: Metal's spelling; False after a KP217 for another member."""
        b = backends.get(self.backend)
        for n in walk(self.src.root):
            fn = n.child_by_field_name("function") if n.type == "call_expression" else None
            if fn is None or fn.type != "field_expression" or \
                    self.src.text_of(fn.child_by_field_name("argument")) not in self.cg_tiles:
                continue
            width = int(self.cg_tile_width[self.src.text_of(fn.child_by_field_name("argument"))])
            members = b.cg_tile_members if str(width) == b.cg_tile[0] else b.cg_subtile_members
            member = self.src.text_of(fn.child_by_field_name("field"))
            if member not in members:
                self.problem("KP217", n, f"cooperative groups' tile member {member}() has no Metal counterpart "
                             "kernelport knows", "use the members Metal has (thread_rank, size, meta_group_rank, "
                             "meta_group_size, sync, shfl*, any, all, ballot) or warp intrinsics")
                return False
            args = call_args(n)
            texts = {"lane_id": self.names["lane_id"], "warp_id": self.names["warp_id"],
                     "block_dim": self.names["block_dim"], "w": width, "m": width - 1, "bits": (1 << width) - 1}

            def render(rw: Rewriter, _n: Node, spelled=members[member], args=args, texts=texts) -> str:
                return spelled.format(*(rw.text(a) for a in args), **texts)
            self.rw.replace(n, render)
        return True
