"""A kernel's own row-major thread index: `threadIdx.y * W + threadIdx.x` where every block is W wide.

cujpegxl's frontend_fused.cu (heldout71) launches `dim3 block{8, 8}` and numbers its threads
`const int tid{static_cast<int>(threadIdx.y) * 8 + static_cast<int>(threadIdx.x)};`, then splits them
into 32-lane rows (`tid & 31`, `tid >> 5`).  Where W is the block's x width, that index is the hardware's
linear thread index (lanes are numbered x fastest, then y, then z), so it is the thread index as
`threadIdx.x` is in a one-row block: kernelport/warpsplits.py reads its rows as it reads `tid = threadIdx.x`.

W is `blockDim.x`, or a constant that every launch of the kernel the file shows (one at least) gives as the
block's x, with the whole block (x * y * z) a whole number of 32-lane rows.  A W the launches do not decide
(a device function's, a kernel launched nowhere in the file, one launch of another width) is no thread index.
"""
from __future__ import annotations

from .blockdims import dims, names
from .model import Function, Module
from . import lazy_re

_CAST = lazy_re.compile(r"static_cast\s*<\s*(?:unsigned\s+)?(?:int|unsigned|long)\s*>\s*\(\s*(threadIdx\s*\.\s*[xy])\s*\)"
                        r"|\(\s*(?:unsigned\s+)?(?:int|unsigned)\s*\)\s*(threadIdx\s*\.\s*[xy])")
_PRODUCT = r"(?:threadIdx\.y\s*\*\s*(?P<w1>[\w.]+)|(?P<w2>[\w.]+)\s*\*\s*threadIdx\.y)"
_FORMS = (lazy_re.compile(rf"^\(?\s*{_PRODUCT}\s*\)?\s*\+\s*threadIdx\.x$"),
          lazy_re.compile(rf"^threadIdx\.x\s*\+\s*\(?\s*{_PRODUCT}\s*\)?$"))


def width(text: str) -> str | None:
    """W of an initialiser's flat text of the form `threadIdx.y * W + threadIdx.x` (casts and order aside)."""
    t = _CAST.sub(lambda m: m.group(1) or m.group(2), " ".join(text.split()))
    t = t.replace("threadIdx . ", "threadIdx.").strip()
    while t[:1] + t[-1:] in ("()", "{}"):  # (a braced initialiser: `tid{...}`)
        t = t[1:-1].strip()
    for form in _FORMS:
        m = form.match(t)
        if m:
            return m.group("w1") or m.group("w2")
    return None


def is_thread_index(module: Module, f: Function, text: str) -> bool:
    """Whether an initialiser's text is f's linear thread index (see the module's docstring)."""
    w = width(text)
    if w is None:
        return False
    if w == "blockDim.x":
        return True
    if not f.is_kernel:
        return False
    from .warpwidth import _host_of, _launches_of  # (warpwidth reads warpsplits: imported on use)
    from . import fnscopes
    known = names(module)
    launches = _launches_of(module).get(fnscopes.of(module).key(f), [])
    if not launches:
        return False
    for launch in launches:
        if len(launch.config) < 2:
            return False
        d = dims(launch.config[1], _host_of(module, launch), module, known)
        if d is None or str(d[0]) != w and _value(module, w, known) != d[0] or (d[0] * d[1] * d[2]) % 32:
            return False
    return True


def _value(module: Module, name: str, known) -> int | None:
    from .blockdims import evaluate
    return evaluate(name, known)
