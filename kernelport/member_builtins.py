"""A class's own member named as a CUDA built-in variable (`enum { warpSize = 32 };`, `static constexpr int
warpSize = 32;`), and the uses that read it, in translate's model: the member, not the built-in.

The model read every identifier spelled `warpSize` as the built-in, so the port renamed the enumerator
itself (`enum { KP_WAVE_SIZE = 32 };`: hipcc read `enum { 64 = 32 }`), a qualified use (`Tile::warpSize`
became `Tile::KP_WAVE_SIZE`, no such member) and an unqualified use inside the class (its 32 read as the
wave's width: `static constexpr int rows = 256 / warpSize;` became `256 / KP_WAVE_SIZE`, another value on
CDNA).  Lint's WS013 already read a class's members so (kernelport/lint/membernames.py, which now reads
enumerators too); the model asks the same question.  What the member's value means for the wave width stays
lint's (WS001/WS014 on a class member; translate's KP225: kernelport/kept_hazards.py)."""
from __future__ import annotations

from tree_sitter import Node


class _Text:
    """membernames' reader (`ctx.text`) over a source file."""
    __slots__ = ("text",)

    def __init__(self, src):
        self.text = src.text_of


def is_member(src, node: Node) -> bool:
    """Identifier `node` (a built-in variable's spelling) names a class's own member, not the built-in."""
    from .lint.membernames import names_member
    return names_member(_Text(src), node, src.text_of(node))
