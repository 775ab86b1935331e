"""Kernels that call one of their by-value parameters (`f(x)` of `F f`): the files h/metal60b can move.

    python bench/metal60b_called_params.py ROOT...    (prints file, kernel, parameter; heldout: /work/heldout55 ...)
"""
from __future__ import annotations

import sys
from pathlib import Path

from kernelport.model import build
from kernelport.source import SourceFile, walk


def main() -> None:
    files = sorted({p for r in sys.argv[1:] for ext in ("*.cu", "*.cuh") for p in Path(r).rglob(ext)})
    for path in files:
        txt = path.read_text(encoding="utf-8", errors="replace")
        if "__global__" not in txt:
            continue
        try:
            src = SourceFile.from_text(txt, str(path))
            m = build(src)
        except Exception:  # a file the parse refuses moves nowhere
            continue
        for f in m.functions.values():
            if not f.is_kernel or f.body is None:
                continue
            for p in f.params:
                if not p.pointer and any(_calls(src, n, p.name) for n in walk(f.body)):
                    print(path, f.name, p.name, sep="\t")
    print(len(files), "files scanned", file=sys.stderr)


def _calls(src, n, name: str) -> bool:
    fn = n.child_by_field_name("function") if n.type == "call_expression" else None
    while fn is not None and fn.type == "parenthesized_expression" and fn.named_children:
        fn = fn.named_children[0]
    return fn is not None and fn.type == "identifier" and src.text_of(fn) == name


if __name__ == "__main__":
    main()
