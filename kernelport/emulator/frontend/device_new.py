"""C++'s `new T[n]` and `delete[] p` in device code (heldout64 2DMeanField's filters: `float *channelSum =
new float[dim]; ... delete[] channelSum;` in a `__host__ __device__` helper): CUDA serves a device `new` from
the same per-launch heap as `malloc` (cudaLimitMallocHeapSize), so the emulator runs them as
`(T *)malloc(sizeof(T) * (n))` and `free(p)` (emulator/heap.py: NULL where the heap is full, a use after
free or a second free a fault).  Only an array of a named type; a scalar `new T(...)` (a constructor) and
`new T*[n]` stay as written, which the C parser refuses at their line."""
from __future__ import annotations

import re

from .items import balanced

_NEW = re.compile(r"\bnew\s+((?:(?:unsigned|signed|long|short|struct|const)\s+)*[A-Za-z_]\w*)\s*\[")
_DELETE = re.compile(r"\bdelete\b\s*(?:\[\s*\])?\s*([^;{}]+?)\s*;")


def lower_new(text: str) -> str:
    """`new T[n]` -> `((T *)malloc(sizeof(T) * (n)))`, `delete[] p;` / `delete p;` -> `free(p);`."""
    if "new" not in text and "delete" not in text:
        return text
    out, at = [], 0
    for m in _NEW.finditer(text):
        if m.start() < at:
            continue
        end = balanced(text, m.end() - 1, "[", "]")
        if text[end - 1:end] != "]":
            break  # `new float[n;`: unterminated, left as written (the C parser locates it)
        t, n = " ".join(m.group(1).split()), text[m.end():end - 1]
        out.append(text[at:m.start()] + f"(({t} *)malloc(sizeof({t}) * ({lower_new(n)})))")
        at = end
    text = "".join(out) + text[at:]
    return _DELETE.sub(lambda m: f"free({m.group(1)});", text)
