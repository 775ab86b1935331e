"""CUDA texture references over linear memory in a Metal port: a buffer read.

A file-scope texture reference, `texture<T, 1, cudaReadModeElementType> t;`, is bound by the host to
linear device memory (`cudaBindTexture(&offset, t, ptr, bytes)`), and device code reads it with
`tex1Dfetch(t, i)`: element `i` of that memory, unconverted (cudaReadModeElementType), no filtering,
no addressing mode, and zero for an index outside the bound range (CUDA programming guide,
"Texture fetching": tex1Dfetch of linear memory).  Metal's meaning of that is a buffer and its length:

    tex1Dfetch(t, i)   ->  kp_tex1Dfetch(t, t_count, i)      // i < t_count ? t[i] : T(0)

`t` is a `device const T*` argument and `t_count` (the bound size in elements) a `constant uint&`
argument of every kernel that reads it, directly or through helpers, after the kernel's own buffers,
passed down as `__constant__` memory the host fills is (metal/constants.py); the sidecar names the
`cudaBindTexture` calls that bound it.  Only where that is the whole meaning: a reference whose every
use in device code is a `tex1Dfetch` of it, of one dimension, read as its element type.  Anything else
(`tex1D`/`tex2D` of a reference, which sample a CUDA array with filtering and addressing modes,
`cudaReadModeNormalizedFloat`, a reference used other than fetched) stays refused at its line (KP223,
KP213), as before.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import backends
from ...source import call_args
from .constants import BoundConstant


class TextureBuffers:
    """Mixin of MetalTranslator: the `texture_references` pass (before no_metal_meaning and bind_constants)."""

    def texture_references(self) -> None:
        b = backends.get(self.backend)
        self.linear_textures: dict[str, BoundConstant] = {}
        refs: dict[str, tuple[Node, Node]] = {}  # name -> (declaration, texel type)
        twice: set[str] = set()
        for n in self.src.index.of_type("declaration"):
            t = n.child_by_field_name("type")
            if t is None or t.type != "template_type" or self.module.function_at(n) is not None or self.rw.has(n):
                continue
            name_node, targs = t.child_by_field_name("name"), t.child_by_field_name("arguments")
            if name_node is None or targs is None or self.src.text_of(name_node) not in b.texture_references:
                continue
            args = [a for a in targs.named_children]
            rest = [" ".join(self.src.text_of(a).split()) for a in args[1:]]
            if not args or any(r not in ok for r, ok in zip(rest, b.texture_reference_linear)) or len(rest) > 2:
                continue  # 2-D, layered, or a normalised read: no buffer meaning (refused as before)
            for d in n.children_by_field_name("declarator"):
                if d.type != "identifier":
                    continue
                name = self.src.text_of(d)
                if name in refs:
                    twice.add(name)  # declared in two `#if` branches: which one Metal compiles is not asked here
                refs[name] = (n, args[0])
        for name in twice:
            refs.pop(name)
        if not refs:
            return
        fetches: dict[str, list[Node]] = {name: [] for name in refs}
        for f in self.device.values():
            for n in self.src.index.under(f.node, "identifier"):
                name = self.src.text_of(n)
                if name not in fetches or fetches[name] is None or f.param(name) is not None:
                    continue
                call = n.parent.parent if n.parent is not None and n.parent.type == "argument_list" else None
                fn = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
                if fn is not None and fn.type == "identifier" and self.src.text_of(fn) in b.texture_buffer_fetches \
                        and len(call_args(call)) == 2 and call_args(call)[0] == n:
                    fetches[name].append(call)
                else:
                    fetches[name] = None  # another use: no buffer meaning (refused at its line)
        taken = {self.src.text_of(n) for t in ("identifier", "type_identifier", "field_identifier")
                 for n in self.src.index.of_type(t)}
        for name, calls in fetches.items():
            if not calls:
                continue
            decl, texel = refs[name]
            count = f"{name}_count"
            while count in taken:
                count = f"kp_{count}"
            taken.add(count)
            ref = BoundConstant(name, texel, [], decl, space="texture")
            ref.filled_by = [" ".join(self.src.text_of(c).split()) for c in self.src.index.of_type("call_expression")
                             if (fn := c.child_by_field_name("function")) is not None
                             and self.src.text_of(fn) in b.texture_binders and len(call_args(c)) > 1
                             and re.sub(r"^&\s*|\s+", "", self.src.text_of(call_args(c)[1])) == name]
            self.linear_textures[name] = ref
            self.linear_textures[count] = BoundConstant(count, texel, [], decl, space="texture_count", pair=name)
            ref.pair = count
            for call in calls:
                fn, index = call.child_by_field_name("function"), call_args(call)[1]
                spelled = b.texture_buffer_fetches[self.src.text_of(fn)]
                self.rw.replace(call, lambda rw, _n, i=index, s=spelled, t=name, c=count:
                                s.format(texture=t, count=c, index=rw.text(i)))
                self.rw.replace(fn, self.src.text_of(fn))  # said: the no-meaning pass leaves it
                self.note(call, spelled.split("(")[0], f"tex1Dfetch of a texture reference bound to linear memory: a "
                          f"read of that buffer ('{name}'), zero outside the bound range as CUDA's fetch")
        for name, ref in self.linear_textures.items():
            if ref.space == "texture" and not self.rw.has(ref.node):
                names = [n for n, r in self.linear_textures.items() if r.node == ref.node and r.space == "texture"]
                self.rw.replace(ref.node, f"/* {', '.join(names)}: a texture reference over linear memory: a `device` "
                                          "buffer argument and its length of the kernels that fetch from it (see the sidecar) */")
