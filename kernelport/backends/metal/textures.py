"""CUDA texture objects in a Metal port: a texture argument and the sampler the host builds.

A `cudaTextureObject_t` (`CUtexObject`) carries a texture and its sampler state, which the host
sets in a `cudaTextureDesc`; the kernel knows neither.  Metal binds the two as kernel arguments
(MSL 2.9, 2.10): `texture2d<float, access::sample> tex [[texture(i)]]` and `sampler tex_sampler
[[sampler(i)]]`, whose MTLSamplerDescriptor the host fills from the same descriptor (the sidecar
says field by field).  A fetch is Metal's `sample` with that sampler:

    tex2D<float4>(tex, x, y)   ->  tex.sample(tex_sampler, float2(x, y))
    tex2D<float>(tex, x, y)    ->  tex.sample(tex_sampler, float2(x, y)).x
    tex2D<uchar2>(tex, x, y)   ->  uchar2(tex.sample(tex_sampler, float2(x, y)).xy)    // a texture2d<uint>

`tex1Dfetch<T>(tex, i)` reads linear memory only (CUDA programming guide, "Texture fetching"): the object
is a buffer of T and its length, `device const T* tex` and `constant uint& tex_count`, and the fetch
`kp_tex1Dfetch(tex, tex_count, i)` (element i unconverted, zero outside), as of a texture reference
(metal/texture_buffers.py); one the file's host reads normalised (integers as floats) stays refused.

A device function the object is passed to takes both (`texture2d<...> tex, sampler tex_sampler`),
and its call sites pass both.  The texture type comes from the fetches of the object, through the
functions it is passed to (a `convolutionRow<-1>` that fetches nothing takes its caller's type).
Refused at the line (KP223), never guessed: a fetch the backend's table lacks (no_meaning says
why), a texel type the backend's `texture_texels` lacks, an object fetched as float and as integer
texels (a Metal texture has one component type), an object fetched at two dimensions, one used other than fetched or passed on, or one
no fetch gives a type.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from ... import backends
from ...source import call_args
from .scalars import metal_type


@dataclass
class TextureSlot:
    """One texture-object parameter of a device function, and those it is passed to (one group)."""
    fkey: str
    index: int
    name: str
    uses: list[tuple[Node, str, str]] = field(default_factory=list)  # (fetch call, fetch name, texel type)
    kind: str = ""  # texture1d, texture2d
    type: str = ""
    texel: str = ""
    sampler: str = ""


class Textures:
    """Mixin of MetalTranslator: the `textures` pass, and the parameters it gives the signatures."""

    texture_slots: dict[tuple[str, int], TextureSlot]

    def textures(self) -> None:
        b = backends.get(self.backend)
        self.texture_slots = {}
        slots: dict[tuple[str, int], TextureSlot] = {}
        for key, f in self.device.items():
            for i, p in enumerate(f.params):
                if not p.pointer and p.type.replace("const", "").strip() in b.texture_objects:
                    slots[(key, i)] = TextureSlot(key, i, p.name)
        if not slots:
            return
        group = {s: s for s in slots}

        def root(s):
            while group[s] != s:
                s = group[s]
            return s

        bad: set[tuple[str, int]] = set()
        passes: list[tuple[Node, tuple[str, int]]] = []
        for s, slot in slots.items():
            f = self.device[slot.fkey]
            for n in self.src.index.subtree(f.body) if f.body is not None else ():
                if n.type != "identifier" or self.src.text_of(n) != slot.name:
                    continue
                call = n.parent.parent if n.parent is not None and n.parent.type == "argument_list" else None
                fn = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
                args = call_args(call) if fn is not None else []
                name_node = fn.child_by_field_name("name") if fn is not None and fn.type == "template_function" else fn
                name = self.src.text_of(name_node) if name_node is not None else ""
                if name in b.texture_fetches and args and args[0] == n and fn.type == "template_function":
                    targs = fn.child_by_field_name("arguments")
                    slot.uses.append((call, name, " ".join(self.src.text_of(targs)[1:-1].split())))
                    continue
                callees = [(k, g) for k, g in self.device.items()  # `f<-1>`, a specialisation, is one of them
                           if g.name.split("<")[0] == name and len(g.params) == len(args)]
                j = next((j for j, a in enumerate(args) if a == n), None)
                if callees and j is not None and all((k, j) in slots for k, _ in callees):
                    for k, _ in callees:
                        group[root((k, j))] = root(s)
                    passes.append((n, s))
                    continue
                bad.add(root(s))
                self.problem("KP223", n, f"texture object '{slot.name}' used other than in a fetch ({', '.join(b.texture_fetches)}) "
                             "or passed to a device function has no Metal meaning (Metal binds a texture as an argument)",
                             "fetch from it, or pass it to a __device__ function that does")
        members: dict[tuple[str, int], list[tuple[str, int]]] = {}
        for s in slots:
            members.setdefault(root(s), []).append(s)
        taken = {self.src.text_of(n) for t in ("identifier", "type_identifier", "field_identifier")
                 for n in self.src.index.of_type(t)}
        for r, ss in members.items():
            uses = [u for s in ss for u in slots[s].uses]
            kinds = {b.texture_fetches[name][0] for _, name, _ in uses}
            odd = [(c, t) for c, _, t in uses if t not in b.texture_texels]
            if odd:
                self.problem("KP223", odd[0][0], f"a texture fetched as '{odd[0][1]}' has no Metal meaning kernelport can "
                             "give (it ports texels of float and of 8-, 16- and 32-bit integers, of 1, 2 or 4 components)",
                             "fetch one of those texel types, or read the data from a buffer")
                continue
            components = {b.texture_texels[t][0] for _, _, t in uses}
            if len(components) > 1:
                self.problem("KP223", uses[-1][0], f"a texture object fetched as {' and '.join(sorted(components))} "
                             "texels has no Metal meaning (a Metal texture has one component type)",
                             "fetch it as one kind of texel")
                continue
            if len(kinds) > 1:
                shown = sorted("linear memory (tex1Dfetch)" if k == "buffer" else k for k in kinds)
                self.problem("KP223", uses[-1][0], f"a texture object fetched as {' and '.join(shown)} has no "
                             "Metal meaning (a Metal texture has one type)", "fetch it at one dimension")
                continue
            if not kinds:
                if r not in bad:
                    p = self.device[r[0]].params[r[1]]
                    self.problem("KP223", p.node, f"texture object '{p.name}' has no fetch kernelport ports "
                                 f"({', '.join(b.texture_fetches)}, in device code): its Metal texture type is unknown",
                                 "fetch from it with tex1D/tex2D, or read the data from a buffer")
                continue
            if r in bad:
                continue
            kind = kinds.pop()
            if kind == "buffer" and not self._linear_object(ss, slots, uses):
                continue
            for s in ss:
                slot = slots[s]
                sampler = f"{slot.name}_{'count' if kind == 'buffer' else 'sampler'}"  # a buffer's length
                while sampler in taken:
                    sampler = f"kp_{sampler}"
                slot.kind, slot.sampler = kind, sampler
                slot.type = (b.texture_buffer_params["texture"].format(type=metal_type(uses[0][2]), name="").strip()
                             if kind == "buffer" else b.texture_type.format(kind=kind, component=next(iter(components))))
                slot.texel = "/".join(sorted({t for _, _, t in uses}))
                self.texture_slots[s] = slot
                p = self.device[slot.fkey].params[slot.index]
                tnode = p.node.child_by_field_name("type")
                if tnode is not None:
                    self.rw.replace(tnode, slot.type)
                for call, name, texel in slot.uses:
                    self._texture_fetch(call, name, texel, slot)
        for n, s in passes:
            slot = self.texture_slots.get(s)
            if slot is not None:
                self.rw.replace(n, f"{slot.name}, {slot.sampler}")
                self.note(n, f"{slot.name}, {slot.sampler}", "a texture object is a Metal texture and its sampler: "
                          "both are passed on")

    def _linear_object(self, ss: list, slots: dict, uses: list) -> bool:
        """Texture objects read with tex1Dfetch (linear memory: a buffer and its length) of one element
        type, which no descriptor of the file's host code reads normalised (a float fetch of integer
        memory, converted: no buffer read of T has that meaning); False after a KP223 at the fetch."""
        texels = sorted({t for _, _, t in uses})
        if len(texels) > 1:
            self.problem("KP223", uses[-1][0], f"a texture object over linear memory fetched as {' and '.join(texels)} "
                         "has no Metal meaning (its buffer holds one element type)", "fetch it as one element type")
            return False
        objects = [o for s in ss if self.device[s[0]].is_kernel for o in self._passed_as(self.device[s[0]], slots[s])]
        found = self.texture_descriptors()
        if any(fields.get("readMode") == "cudaReadModeNormalizedFloat" for o in objects for fields in found.get(o, ())):
            self.problem("KP223", uses[0][0], "tex1Dfetch of a texture object the host reads with "
                         "cudaReadModeNormalizedFloat (integers converted to float) has no buffer meaning",
                         "read the integers from a buffer and convert them in the kernel")
            return False
        return True

    def _texture_fetch(self, call: Node, name: str, texel: str, slot: TextureSlot) -> None:
        b = backends.get(self.backend)
        _, coord, dims = b.texture_fetches[name]
        args = call_args(call)
        fn = call.child_by_field_name("function")
        if len(args) != dims + 1:
            self.problem("KP223", call, f"'{name}' with {len(args) - 1} coordinates has no Metal meaning kernelport "
                         f"gives", f"fetch with {dims} coordinates")
            return
        if slot.kind == "buffer":  # element i of the linear memory, zero outside it (as of a texture reference)
            spelled = b.texture_buffer_fetches[name]
            self.rw.replace(call, lambda rw, _n, i=args[1]: spelled.format(texture=slot.name, count=slot.sampler,
                                                                         index=rw.text(i)))
            self.rw.replace(fn.child_by_field_name("name"), name)  # said: the no-meaning pass leaves it
            self.note(call, spelled.split("(")[0], f"tex1Dfetch of a texture object over linear memory: a read of "
                      f"that buffer ('{slot.name}'), zero outside its length as CUDA's fetch")
            return
        _, pick, cast = b.texture_texels[texel]

        def text(rw, _n, coords=args[1:]):
            at = ", ".join(rw.text(a) for a in coords)
            sample = f"{slot.name}.sample({slot.sampler}, {f'{coord}({at})' if dims > 1 else at}){pick}"
            return f"{cast}({sample})" if cast else sample
        self.rw.replace(call, text)
        self.rw.replace(fn.child_by_field_name("name"), name)  # said: the no-meaning pass leaves it
        self.note(call, f"{slot.name}.sample(...)", f"{name}: Metal samples the texture with the sampler the host "
                  "builds from the texture object's cudaTextureDesc")

    def texture_param(self, f, index: int, attr: int | None) -> str | None:
        """The Metal parameters of a texture object (with their bindings on a kernel), or None."""
        slot = getattr(self, "texture_slots", {}).get((self.fkeys.get(id(f), f.name), index))
        if slot is None:
            return None
        if slot.kind == "buffer":  # a kernel's: linear_texture_param
            return f"{slot.type} {slot.name}, {self._count_param(slot)}" if attr is None else None
        if attr is None:
            return f"{slot.type} {slot.name}, sampler {slot.sampler}"
        return f"{slot.type} {slot.name} [[texture({attr})]], sampler {slot.sampler} [[sampler({attr})]]"

    def linear_texture_param(self, f, index: int) -> TextureSlot | None:
        """The slot of a texture object over linear memory (a buffer argument and its length), or None."""
        slot = getattr(self, "texture_slots", {}).get((self.fkeys.get(id(f), f.name), index))
        return slot if slot is not None and slot.kind == "buffer" else None

    def _count_param(self, slot: TextureSlot) -> str:
        return backends.get(self.backend).texture_buffer_params["texture_count"].format(name=slot.sampler)

    def linear_texture_sidecar(self, k, slot: TextureSlot, index: int, count_index: int) -> list[dict]:
        """A texture object over linear memory, for the sidecar: its buffer and the buffer's length."""
        objects = ", ".join(self._passed_as(k, slot)) or f"the object passed as '{slot.name}'"
        return [{"name": slot.name, "index": index, "kind": "buffer", "type": metal_type(slot.texel), "texel": slot.texel,
                 "access": "read", "host": "setBuffer:offset:atIndex:",
                 "from": f"res.linear.devPtr of the cudaResourceDesc of {objects} (cudaResourceTypeLinear)"},
                {"name": slot.sampler, "index": count_index, "kind": "bytes", "type": "uint", "bytes": "sizeof(uint)",
                 "bytes_value": 4, "host": "setBytes:length:atIndex:",
                 "from": f"res.linear.sizeInBytes / sizeof({slot.texel}) of the cudaResourceDesc of {objects}"}]

    def texture_descriptors(self) -> dict[str, list[dict[str, str]]]:
        """What the file's host code sets, per texture object: at each `cudaCreateTextureObject(&obj,
        &res, &desc, ...)`, the `desc.field = value` assignments before it in its function (a
        `memset(&desc, ...)` clears them), as CUDA reads the descriptor there."""
        if getattr(self, "_texture_descriptors", None) is not None:
            return self._texture_descriptors
        b = backends.get(self.backend)
        out: dict[str, list[dict[str, str]]] = {}
        calls = self.src.index.of_type("call_expression")
        for call in calls:
            fn, args = call.child_by_field_name("function"), call_args(call)
            f = self.module.function_at(call)
            if fn is None or self.src.text_of(fn) not in b.texture_creators or len(args) < 3 or f is None:
                continue
            obj, desc = (re.sub(r"^&\s*|\s+", "", self.src.text_of(a)) for a in (args[0], args[2]))
            fields: dict[str, str] = {}
            events = [n for n in self.src.index.subtree(f.node) if n.end_byte <= call.start_byte and n.type in
                      ("assignment_expression", "call_expression")]
            for n in sorted(events, key=lambda n: n.start_byte):
                if n.type == "call_expression":
                    head = self.src.text_of(n.child_by_field_name("function") or n)
                    first = call_args(n)[0] if call_args(n) else None
                    if head == "memset" and first is not None and \
                            re.sub(r"^&\s*|\s+", "", self.src.text_of(first)) == desc:
                        fields.clear()
                    continue
                left = re.sub(r"\s+", "", self.src.text_of(n.child_by_field_name("left")))
                if left.startswith(desc + ".") and n.child_by_field_name("operator") is not None and \
                        self.src.text_of(n.child_by_field_name("operator")) == "=":
                    fields[left[len(desc) + 1:]] = " ".join(self.src.text_of(n.child_by_field_name("right")).split())
            out.setdefault(obj, []).append(fields)
        self._texture_descriptors = out
        return out

    def _passed_as(self, k, slot: TextureSlot) -> list[str]:
        """The texture objects the file's launches of kernel `k` pass as `slot`."""
        return list(dict.fromkeys(re.sub(r"\s+", "", self.src.text_of(la.args[slot.index]))
                                  for la in self.module.launches if la.kernel == k.name and len(la.args) > slot.index))

    def texture_sidecar(self, k, slot: TextureSlot, index: int) -> list[dict]:
        """The two arguments a texture object is bound as, for the sidecar; the sampler with what the
        file's host code sets in the descriptors of the objects its launches pass."""
        b = backends.get(self.backend)
        found = self.texture_descriptors()
        set_in_file = [{"object": obj, **fields} for obj in self._passed_as(k, slot) for fields in found.get(obj, ())]
        return [{"name": slot.name, "index": index, "kind": "texture", "type": slot.type, "texel": slot.texel,
                 "host": "setTexture:atIndex:", "from": "the cudaResourceDesc of the texture object passed as "
                 f"'{slot.name}': a {slot.kind} of its size and pixel format"},
                {"name": slot.sampler, "index": index, "kind": "sampler", "type": "sampler",
                 "host": "setSamplerState:atIndex:", "from": f"the cudaTextureDesc of the texture object passed as "
                 f"'{slot.name}', field by field", "fields": dict(b.texture_sampler),
                 "set_in_file": set_in_file or None}]
