"""Translate's pass over `#include` lines: each as the backend spells it (kept out of translate.py,
which is at the structure limit)."""
from __future__ import annotations

from . import api_fallbacks, backends, dialect


def rewrite_pass(self) -> None:
    """The translator's `rewrite_includes` pass: a header this run ports is included as its port; a CUDA
    header as the backend's (or left to the prologue, or refused KP209 where it has no equivalent and
    the file uses its names); a system header with the target's supplement; an API header by the
    backend's table."""
    folders, written = backends.get(self.backend).include_folder_supplements, set()
    for n in self.src.index.of_type("preproc_include"):
        path = n.child_by_field_name("path")
        if path is None:
            continue
        raw = self.src.text_of(path)
        inner = raw[1:-1]
        port = self.options.get("include_map", {}).get(n.start_byte)  # a header this run ports
        line = next((v for f, v in folders.items() if inner.startswith(f)), None) if port is None else None
        if line is not None and line not in written:  # (what the library's CUDA headers bring in, the target's not)
            self.rw.insert_before(n, line + "\n")
            written.add(line)
        # (what the file uses of a header with a fallback that this local header reaches: api_fallbacks)
        block = api_fallbacks.reached_block(self.src, backends.get(self.backend), n,
                                            tuple(self.options.get("include_dirs", ()))) if raw[:1] == '"' else ""
        if port is not None or block:
            self.rw.replace(path, (raw if port is None else port if port[:1] == '"' else raw[0] + port + raw[-1]) + block)
            continue
        extra = backends.get(self.backend).include_supplements.get(inner) if raw[:1] == "<" else None
        if extra:  # (what the target's system header lacks of the CUDA host compiler's)
            self.rw.replace(path, raw + "\n" + extra)
            continue
        c = dialect.lookup(backends.source().name, inner)
        if c is None or c.kind != "header":
            self.rewrite_api_include(n, path, raw)
            continue
        target = c.spelling(self.backend)
        if target is None and dialect.concept("runtime_header").spelling(self.backend) is not None:
            from . import header_uses
            if header_uses.left_out(self, n, inner):  # a header of names this file never uses
                continue
            self.problem("KP209", n, f"<{inner}> has no {self.backend.upper()} equivalent",
                         "rewrite what it provides with portable operations, or guard the include")
        elif target is None or c.key == "runtime_header":
            self.rw.replace(n, "")  # the prologue includes what the backend needs
        else:
            self.rw.replace(path, raw[0] + target + raw[-1])

