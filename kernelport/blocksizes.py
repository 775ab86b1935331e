"""The thread counts a file's host code may launch a kernel's blocks with, as far as the file says.

Lint's WS031 reads them: `blockDim.x / warpSize` counts the waves of a block only when the block is
a whole number of waves, so the question is which sizes the host may pick.  Followed, never guessed:
a literal or a constant expression of literals and the file's object-like macros; a host local's
definitions (`int bs = 128;`, `dim3 block(32, 8)`, `dim3 b = {4, 8, n}`); an element of an array with
an initializer (`int block_sizes[] = {32, 64, 128}; int bs = block_sizes[j];`); a `for` loop's start
value; a parameter of the launching function, through the arguments of its callers in the file (a
few calls deep), less the calls whose constant argument makes a guard of the launch false (launchguards.py).  Each value comes with the literal it was read from (the report's related place).
A size the file does not say adds nothing.
"""
from __future__ import annotations

from itertools import product

from tree_sitter import Node

from . import launchguards
from .source import walk
from .warpsites import int_value

_DEPTH = 4  # calls followed up from the launching function
_MAX = 64  # values kept per expression (a sweep's list, the products of a dim3's candidates)


def launch_block_sizes(module, launch) -> list[tuple[int, Node]]:
    """(threads per block, the literal it comes from) for each size the launch's block may have."""
    if len(launch.config) < 2:
        return []
    f = module.function_at(launch.node)
    sizes = module.__dict__.get("_kp_block_sizes")  # one per model: its functions' definitions are read once
    if sizes is None:
        sizes = module.__dict__["_kp_block_sizes"] = _Sizes(module)
    sizes.guard = (f.node.id, launchguards.required(module, f, launch.node)) if f is not None else None
    try:
        return sizes.threads(launch.config[1], f, 0)
    finally:
        sizes.guard = None


class _Sizes:
    def __init__(self, module):
        self.m, self.src = module, module.source
        self._defs: dict[int, dict[str, list[Node]]] = {}
        self.guard: tuple[int, dict[int, int]] | None = None  # the launching function's guards (launchguards.py)

    def text(self, n: Node) -> str:
        return self.src.text_of(n)

    def threads(self, e: Node, f, depth: int) -> list[tuple[int, Node]]:
        """A block argument's thread counts: the product of a dim3's dimensions, else its values."""
        dims = self._dim3(e, f, set())
        if dims is None:
            return self.values(e, f, depth, set())
        if not dims:  # `int blockSize{};` value-initialised, then written through a pointer (evogp's
            return []  # cudaOccupancyMaxPotentialBlockSize(&gridSize, &blockSize, k)): the file says no size
        per = [self.values(d, f, depth, set()) for d in dims]
        if not all(per):
            return []
        out = []
        for combo in product(*per):
            v = 1
            for x, _ in combo:
                v *= x
            out.append((v, next((n for x, n in combo if x != 1), combo[0][1])))
            if len(out) >= _MAX:
                break
        return out

    def _dim3(self, e: Node, f, seen: set) -> list[Node] | None:
        """The dimension expressions of a dim3 the block is (`dim3(32, 8)`, a local `dim3 b(32, 8)` or
        `dim3 b = {4, 8, n}`), None where it is a plain count."""
        if e.type == "call_expression":
            fn = e.child_by_field_name("function")
            if fn is not None and self.text(fn) == "dim3":
                return _args(e.child_by_field_name("arguments"))
            return None
        if e.type == "initializer_list":
            return _args(e)
        if e.type == "identifier" and f is not None and self.text(e) not in seen:
            seen.add(self.text(e))
            defs = self.defs(f).get(self.text(e), [])
            for d in defs:
                if d.type == "argument_list":  # `dim3 block(32, 8);`
                    return _args(d)
                got = self._dim3(d, f, seen)
                if got is not None:
                    return got
        return None

    def defs(self, f) -> dict[str, list[Node]]:
        """Name -> the values a function gives it: declarations, `=` assignments, `dim3 b(x, y)`."""
        got = self._defs.get(f.node.id)
        if got is not None:
            return got
        from .launchrows import local_defs
        out = local_defs(self.src, f.body, plain=True)
        self._defs[f.node.id] = out
        return out

    def values(self, e: Node | None, f, depth: int, seen: set) -> list[tuple[int, Node]]:
        if e is None:
            return []
        t = e.type
        if t == "number_literal":
            v = int_value(self.text(e))
            return [(v, e)] if v is not None else []
        if t in ("parenthesized_expression", "cast_expression"):
            inner = e.child_by_field_name("value") if t == "cast_expression" else (e.named_children or [None])[0]
            return self.values(inner, f, depth, seen)
        if t == "identifier":
            return self._name(self.text(e), f, depth, seen)
        if t == "subscript_expression":  # `block_sizes[j]`: every element of its initializer
            arr = e.child_by_field_name("argument")
            return self._elements(self.text(arr), f) if arr is not None and arr.type == "identifier" else []
        if t == "binary_expression":
            op = self.text(e.child_by_field_name("operator"))
            a = self.values(e.child_by_field_name("left"), f, depth, seen)
            b = self.values(e.child_by_field_name("right"), f, depth, seen)
            out = []
            for (x, xn), (y, yn) in product(a, b):
                v = _binary(op, x, y)
                if v is not None:
                    out.append((v, xn if x not in (0, 1) else yn))
            return out[:_MAX]
        return []

    def _name(self, name: str, f, depth: int, seen: set) -> list[tuple[int, Node]]:
        if name in seen:
            return []
        seen = seen | {name}
        out: list[tuple[int, Node]] = []
        if f is not None:
            for d in self.defs(f).get(name, []):
                out += self.values(d, f, depth, seen)
            i = next((k for k, p in enumerate(f.params) if p.name == name), None)
            if i is not None and depth < _DEPTH:
                for call, g in self._callers(f):
                    args = _args(call.child_by_field_name("arguments"))
                    if depth == 0 and self.guard is not None and self.guard[0] == f.node.id and \
                            launchguards.ruled_out(self.m, self.guard[1], args):
                        continue  # this call's argument makes a guard of the launch false: not its size
                    if i < len(args):
                        out += self.values(args[i], g, depth + 1, set())
        mac = self.m.macros.get(name)
        if not out and mac is not None and mac.value_node is not None:
            v = int_value(mac.value.strip().strip("()"))
            if v is not None:
                out.append((v, mac.value_node))
        return out[:_MAX]

    def _elements(self, name: str, f) -> list[tuple[int, Node]]:
        for d in (self.defs(f).get(name, []) if f is not None else []):
            if d.type == "initializer_list":
                return [(v, x) for x in _args(d) if x.type == "number_literal"
                        and (v := int_value(self.text(x))) is not None][:_MAX]
        return []

    def _callers(self, f):
        """(call, calling function) for each call of `f` by its plain name in the file."""
        own = f.name.split("::")[-1]
        # the identifiers of that text (a bisect on the parse's texts), not every call of the file decoded
        # once per function asked about; a call's function comes first in it, so the order is the calls'
        for fn in self.src.named_under(self.src.root, "identifier", (own,)):
            n = fn.parent
            if n is not None and n.type == "call_expression" and n.child_by_field_name("function") == fn:
                g = self.m.function_at(n)
                if g is not None and g is not f:
                    yield n, g


def _args(n: Node | None) -> list[Node]:
    return [c for c in n.named_children if c.type != "comment"] if n is not None else []


def _binary(op: str, x: int, y: int) -> int | None:
    if op == "*":
        return x * y
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "/" and y:
        return x // y
    if op == "<<" and 0 <= y < 32:
        return x << y
    return None


def partial_wave_block(module, kernel, wide: int) -> tuple[int, Node] | None:
    """The first block size (and its literal) a launch of `kernel` in the file may have that is not a
    whole number of `wide`-lane waves: `blockDim.x / wave` undercounts that block's waves."""
    from . import fnscopes
    for launch in module.launches:
        if any(g is kernel for g in fnscopes.launched(module, launch)):
            bad = next(((v, at) for v, at in launch_block_sizes(module, launch) if v > 0 and v % wide), None)
            if bad is not None:
                return bad
    return None


def kernels_running(module, f) -> list:
    """The kernels of the file whose calls reach device function `f` (fnscopes' definitions, a few
    calls deep), in file order: a helper's `blockDim.x / 32` counts their blocks' warps."""
    from . import fnscopes
    reach = module.__dict__.get("_kp_kernel_reach")
    if reach is None:
        reach = module.__dict__["_kp_kernel_reach"] = {}
        for k in module.kernels:
            seen, todo = {k.node.id}, [(k, 0)]
            while todo:
                g, depth = todo.pop()
                for call in (module.source.index.under(g.body, "call_expression") if g.body is not None and
                             depth < _DEPTH + 4 else ()):
                    for c in fnscopes.callees(module, g, call):
                        if c.node.id not in seen:
                            seen.add(c.node.id)
                            todo.append((c, depth + 1))
            reach[k.node.id] = seen
    return [k for k in module.kernels if f.node.id in reach[k.node.id]]


def refuse_wave_count(tr, n: Node) -> bool:
    """Translator: the 32 of a kernel's `blockDim.x / 32` (the 5 of `>> 5`, or of `>> LOG_WARP_SIZE`), which the
    port makes the wave width, where a launch in the file may run blocks that are not whole waves of the backend's
    widest run: the port's count would be 0 (or drop a partial wave) there, so there is no safe rewrite (KP233 at
    the division).  A device helper no kernel of the file runs (a header's) is judged by the run's other files'
    kernels that call it.  True when refused."""
    from . import backends
    div = n.parent
    while div is not None and div.type == "parenthesized_expression":
        div = div.parent
    if div is None or div.type != "binary_expression" or \
            tr.src.text_of(div.child_by_field_name("operator")) not in ("/", ">>"):
        return False
    if not reads_builtin(tr.src, div.child_by_field_name("left"), "block_dim", backends.source().name):
        return False
    f = tr.module.function_at(div)
    wide = max(r.wave for r in backends.get(tr.backend).runs)
    kernels = ([f] if f.is_kernel else kernels_running(tr.module, f)) if f is not None and wide > 32 else []
    k, bad = next(((k, b) for k in kernels if (b := partial_wave_block(tr.module, k, wide)) is not None), (f, None))
    if bad is not None:
        _refuse(tr, div, f, k, bad[0], tr.src.loc(bad[1]).line, "", wide)
        return True
    if f is None or f.is_kernel or not f.is_device or kernels or wide <= 32:
        return False
    # a header's helper no kernel of its file runs: its blocks are those of the run's other files'
    # kernels that call it (as refuse_macro_wave_counts does for `blockDim.x / WARP_SIZE`)
    k, bad, where = _includer_partial_wave(tr, f, wide)
    if bad is None:
        return False
    _refuse(tr, div, f, k, bad[0], bad[1], where, wide)
    return True


def _refuse(tr, div: Node, f, k, v: int, line: int, where: str, wide: int) -> None:
    """KP233 at `div`: kernel `k` (running `f`) may be launched with a `v`-thread block (at `line`,
    of the file `where` names, "" for this one), which is not a whole number of `wide`-lane waves."""
    from . import fnscopes
    g = tr.widths.by_function.get(fnscopes.of(tr.module).key(f)) if f is not None else None
    why = f" ({g.rows_not_kept})" if g is not None and g.rows_not_kept else ""
    run = "" if k is f else f" of `{k.name}`{where} (which runs `{f.name}`)"
    tr.problem("KP233", div, f"`{' '.join(tr.src.text_of(div).split())}` counts the block's 32-lane warps; the port "
               f"would make it the block's count of {wide}-lane waves, which is "
               + (f"0 for the {v}-thread block" if v < wide else f"{v // wide} for the {v}-thread block (of {-(-v // wide)})")
               + f" a launch{run} may have (line {line}): the port cannot make this count the wave's{why}",
               f"launch whole {wide}-lane waves (query the device's wave width on the host), or keep 32-lane "
               f"groups explicitly (`// @kp warp-width 32`) where the kernel's code allows it")


def refuse_macro_wave_counts(tr, n: Node) -> bool:
    """Translator, at a warp-size macro's value the port makes the wave's (`#define WARP_SIZE 32U`):
    a `blockDim.x / WARP_SIZE` of the file in a device helper no kernel of the file runs (a header's
    block reduction) counts the blocks of the kernels that call it in the run's other files; where
    one of them may be launched with a block that is not whole waves (llm.c's global_norm.cu sweeps
    block sizes from 32 into common.h's blockReduce: `num_warps` 0 at wave 64), KP233 at the division.
    (The file's own kernels are checked by the port's self-check, WS031.)  True when refused."""
    from . import backends
    d = n.parent
    while d is not None and d.type != "preproc_def":
        d = d.parent
    name = d.child_by_field_name("name") if d is not None else None
    wide = max(r.wave for r in backends.get(tr.backend).runs)
    if name is None or wide <= 32:
        return False
    name = tr.src.text_of(name)
    lang = backends.source().name
    refused = False
    for div in tr.src.index.of_type("binary_expression"):
        right = div.child_by_field_name("right")
        while right is not None and right.type == "parenthesized_expression":
            right = right.named_children[0] if right.named_children else None
        if right is None or right.type != "identifier" or tr.src.text_of(right) != name or \
                tr.src.text_of(div.child_by_field_name("operator")) != "/" or \
                not reads_builtin(tr.src, div.child_by_field_name("left"), "block_dim", lang):
            continue
        f = tr.module.function_at(div)
        if f is None or f.is_kernel or not f.is_device or kernels_running(tr.module, f):
            continue
        k, bad, where = _includer_partial_wave(tr, f, wide)
        if bad is not None:
            _refuse(tr, div, f, k, bad[0], bad[1], where, wide)
            refused = True
    return refused


def refuse_runtime_wave_counts(tr) -> None:
    """Translator: `blockDim.x / warpSize` (the run-time width, which the port keeps: the dataflow makes no
    site of it) in a device helper no kernel of its file runs (a header's block reduction): on CUDA it
    counts 32-lane warps, in the port the device's waves.  Where a kernel of the
    run's other files that calls the helper may be launched with a block that is not whole waves of the
    backend's widest run (a block-size sweep from 32), the count is 0 (or drops the partial wave) at
    wave 64: KP233 at the division, as for `blockDim.x / WARP_SIZE` (the file's own kernels: lint's
    WS015/WS031 in the port's self-check)."""
    from . import backends, dialect
    wide = max(r.wave for r in backends.get(tr.backend).runs)
    if wide <= 32:
        return
    lang = backends.source().name
    for div in tr.src.index.of_type("binary_expression"):
        right = div.child_by_field_name("right")
        while right is not None and right.type == "parenthesized_expression":
            right = right.named_children[0] if right.named_children else None
        got = dialect.lookup(lang, tr.src.text_of(right)) if right is not None and right.type == "identifier" \
            else None
        left = div.child_by_field_name("left")
        if got is None or got.key != "warp_size" or tr.src.text_of(div.child_by_field_name("operator")) != "/" or \
                not reads_builtin(tr.src, left, "block_dim", lang) or \
                any(c.type == "identifier" and tr.src.text_of(c) == tr.src.text_of(right) for c in walk(left)):
            continue  # (`(blockDim.x + warpSize - 1) / warpSize` rounds up: a partial wave counts)
        f = tr.module.function_at(div)
        if f is None or f.is_kernel or not f.is_device or kernels_running(tr.module, f) or tr.cuda_only_region(div):
            continue
        k, bad, where = _includer_partial_wave(tr, f, wide)
        if bad is not None:
            _refuse(tr, div, f, k, bad[0], bad[1], where, wide)


def _includer_partial_wave(tr, f, wide: int):
    """(kernel, (size, line), " in PATH") for a helper no kernel of its own file runs: the kernels of
    the run's files that call it and their launches; (f, None, "") when none may be a partial wave."""
    elsewhere = getattr(getattr(tr.module, "visible", None), "elsewhere", None)
    if elsewhere is None:
        return f, None, ""
    todo, seen = [f], {f.node.id}
    while todo:  # the overload's own calls, and through its own file's helpers that call it (llm.c common.h's
        g = todo.pop()  # `blockReduce(val)` calls `blockReduce(val, false, 0.0f)`: global_norm.cu's kernels run both)
        calls, _ = elsewhere.calls(g.name.split("::")[-1], callee=g)  # (that overload's calls only)
        for m, _call, caller in calls:
            if caller is None:
                continue
            if m is tr.module:
                if not caller.is_kernel and caller.node.id not in seen:
                    seen.add(caller.node.id)
                    todo.append(caller)
                continue
            for k in [caller] if caller.is_kernel else kernels_running(m, caller):
                bad = partial_wave_block(m, k, wide)
                if bad is not None:
                    return k, (bad[0], m.source.loc(bad[1]).line), f" in {m.source.path}"
    return f, None, ""


def reads_builtin(src, n: Node | None, key: str, lang: str) -> bool:
    """Whether `n` reads a field of the dialect's built-in `key` (`block_dim`: `blockDim.x`)."""
    from . import dialect
    for c in walk(n) if n is not None else ():
        if c.type == "field_expression":
            base = c.child_by_field_name("argument")
            got = dialect.lookup(lang, src.text_of(base)) if base is not None else None
            if got is not None and got.key == key:
                return True
    return False
