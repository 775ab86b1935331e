"""Cooperative groups' receivers (kernelport/member_uses.py) are resolved through one _Scopes per parse, and
`tiles_of_blocks` is answered once per parse: rewrite_cg_members asked it at every tile member it rewrote, and
each pass (member calls, struct fields, each `tiles_of_blocks`) listed the file's declarations again (stop 61)."""
from __future__ import annotations

import textwrap

from kernelport import member_uses
from kernelport.source import SourceFile

_CODE = textwrap.dedent("""\
    #include <cooperative_groups.h>
    namespace cg = cooperative_groups;
    __global__ void k(int *out) {
        cg::thread_block block = cg::this_thread_block();
        auto tile = cg::tiled_partition<16>(block);
        out[0] = tile.meta_group_rank();
        out[1] = tile.meta_group_size();
        out[2] = block.group_dim().x;
    }
    """)


def test_one_listing_of_each_scope_per_parse_and_one_answer(monkeypatch):
    walked = []
    real = member_uses._walk_decls
    monkeypatch.setattr(member_uses, "_walk_decls", lambda scope: walked.append(scope.type) or real(scope))
    # a text no other test parses: the process's parse cache must not hand over a parse already listed
    src = SourceFile.from_text(_CODE + "\n// one listing\n", "t_one_listing.cu")
    assert [(g, m) for _, g, m in member_uses.member_calls(src)] == [
        ("thread_block_tile<16>", "meta_group_rank"), ("thread_block_tile<16>", "meta_group_size"),
        ("thread_block", "group_dim")]
    assert member_uses.tiles_of_blocks(src) and member_uses.tiles_of_blocks(src)
    assert member_uses.field_uses(src, {"thread_block"}) == []
    assert walked == ["function_definition"], walked  # the kernel listed once (main: three times)
    # the port reads the block's threads for both tile members
    from kernelport.translate import translate
    port, text = translate(SourceFile.from_text(_CODE, "t.cu"), "hip")
    assert port.ok and "tile.meta_group_rank()" not in text and "tile.meta_group_size()" not in text, text


def test_a_tile_of_a_tile_is_not_a_blocks_and_another_parse_is_asked_again():
    # look-alike: the same words, but the tile partitions a tile; a parse of it gets its own answer
    src = SourceFile.from_text(_CODE, "t.cu")
    assert member_uses.tiles_of_blocks(src)
    other = SourceFile.from_text(_CODE.replace("tiled_partition<16>(block)",
                                               "tiled_partition<16>(cg::tiled_partition<32>(block))"), "t2.cu")
    assert not member_uses.tiles_of_blocks(other) and member_uses.tiles_of_blocks(src)
