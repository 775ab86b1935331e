"""Compile a lowered kernel's C AST into Python closures, once, that run over all lanes.

Every expression becomes `f(fr, m) -> (value, error_bound)` and every statement a function of
(frame, mask); control flow is masks (see `Frame`).  Statements that can reach a barrier (or,
in the thread schedule, a warp collective) are generators that `yield` a request to the
scheduler; calls that yield are hoisted out of their expression and run first ("pres").

Names of GPU builtins and intrinsics are mapped to concepts only through the dialect table
(`dialect.spelled_by` + `dialect.bind`); `intrinsics` implements the concepts.
"""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from .. import dialect
from .frontend import AS_TYPE_FN, NS_SEP, SHARED_STORAGE, Lowered
from . import intrinsics as K
from .ctype import (AUTO, BOOL, F32, F64, I32, I64, U32, U64, VOID, ArrT, PtrT, StructT, TypeResolver, base_scalar,
                    char_literal, common, conv, float_literal, inner_dims, int_literal, scalar_count, sizeof)
from .errors import EmulatorError
from .memory import Buffer, Pointer
from .ops import arith, bitnot, convert, fma, lnot, neg, truth

ZERO = (np.int32(0), None)
# MSL atomic functions with no concept in the dialect table (the kp_atomic_* CAS loops use them)
METAL_ATOMIC_FNS = frozenset({"atomic_load_explicit", "atomic_store_explicit",
                              "atomic_compare_exchange_weak_explicit", "atomic_compare_exchange_strong_explicit"})


class Frame:
    """One activation of a function for all lanes of a group.

    ret / brk / cont: lanes that returned, broke out of, or continued the innermost loop (None:
    none).  A statement runs for `m & ~(ret | brk | cont)`."""
    __slots__ = ("env", "g", "ret", "brk", "cont", "retval", "tmp")

    def __init__(self, g, nslots: int):
        self.env = [None] * nslots
        self.g = g
        self.ret = self.brk = self.cont = None
        self.retval = None
        self.tmp = {}


def live(fr: Frame, m):
    off = fr.ret
    if fr.brk is not None:
        off = fr.brk if off is None else off | fr.brk
    if fr.cont is not None:
        off = fr.cont if off is None else off | fr.cont
    if off is None:
        return m
    r = m & ~off
    return r if r.any() else None


_INDEX_OK = (np.dtype(np.int32), np.dtype(np.int64))


def _index(k):
    """An index/offset value: int32 and int64 stay as they are (numpy indexes with either)."""
    if k.dtype in _INDEX_OK:
        return k
    return k.astype(np.int64)


def _isarr(v):
    return isinstance(v, np.ndarray) and v.ndim > 0


def merge(g, old, new, m):
    """Assign `new` to the lanes of mask m, keeping `old` elsewhere."""
    if old is None or m is g.full:
        return new
    vo, eo = old
    vn, en = new
    if isinstance(vn, Pointer):
        if not isinstance(vo, Pointer):
            return new
        if vo.buf is not vn.buf or vo.dt != vn.dt:
            if m.all():
                return new
            raise EmulatorError("a pointer assigned under divergent control flow points into different buffers "
                                "(not supported by the emulator)", g.ctx.path)
        off = np.where(m, vn.off, vo.off)
        base = vn.base if isinstance(vn.base, int) else np.where(m, vn.base, vo.base)
        return Pointer(vn.buf, vn.dt, base, off, vn.size, vn.dims), None
    if m.all():
        return new
    if vo.dtype != vn.dtype:
        vo = conv(vo, vn.dtype)
    v = np.where(m, vn, vo)
    if en is None and eo is None:
        return v, None
    return v, np.where(m, 0.0 if en is None else en, 0.0 if eo is None else eo)



# ---------------------------------------------------------------------------------------------
# Compaction of sparsely taken branches
# ---------------------------------------------------------------------------------------------
COMPACT_FRACTION = 0.5  # run a branch on its lanes only when at most this fraction of lanes take it
_NO_LANES = np.zeros(0, np.int64)


def _gather_val(val, idx):
    if val is None:
        return None
    v, e = val
    if isinstance(v, Pointer):
        base = v.base[idx] if isinstance(v.base, np.ndarray) and v.base.ndim else v.base
        off = v.off[idx] if isinstance(v.off, np.ndarray) and v.off.ndim else v.off
        v = Pointer(v.buf, v.dt, base, off, v.size, v.dims)
    elif isinstance(v, np.ndarray) and v.ndim:
        v = v[idx]
    if isinstance(e, np.ndarray) and e.ndim:
        e = e[idx]
    return v, e


def _gather_mask(x, idx):
    return None if x is None else x[idx]


def _scatter_mask(old, new, idx, n):
    out = np.zeros(n, bool) if old is None else old.copy()
    out[idx] = new
    return out


def _spread(x, idx, n, dt, old=None):
    """An array over the parent's n lanes: `old` (or zeros) with x at lanes idx."""
    out = np.zeros(n, dt)
    if old is not None:
        out[...] = old
    out[idx] = x
    return out


def _scatter_val(g, old, new, idx, n):
    """The parent value of a variable the compacted branch assigned (what merge() would give)."""
    if new is None:
        return None
    vn, en = new
    vo, eo = (None, None) if old is None else old
    if isinstance(vn, Pointer):
        if isinstance(vo, Pointer) and (vo.buf is not vn.buf or vo.dt != vn.dt):
            raise EmulatorError("a pointer assigned under divergent control flow points into different buffers "
                                "(not supported by the emulator)", g.ctx.path)
        po = vo if isinstance(vo, Pointer) else None
        off = _spread(vn.off, idx, n, np.int64, None if po is None else po.off)
        if isinstance(vn.base, int) and (po is None or (isinstance(po.base, int) and po.base == vn.base)):
            base = vn.base
        else:
            base = _spread(vn.base, idx, n, np.int64, None if po is None else po.base)
        return Pointer(vn.buf, vn.dt, base, off, vn.size, vn.dims), None
    dt = vn.dtype
    if isinstance(vo, Pointer):
        vo = None
    v = _spread(vn, idx, n, dt, None if vo is None else conv(vo, dt))
    if en is None and eo is None:
        return v, None
    edt = np.result_type(*[x for x in (en, eo) if x is not None])
    if edt.kind != "f":
        edt = np.dtype(np.float64)
    e = _spread(0.0 if en is None else en, idx, n, edt, 0.0 if eo is None else eo)
    return v, e


def compaction(g, t, W, by_warp):
    """Lane indices to run a branch on when few lanes take it (None: run on the whole group;
    an empty array: no lane takes it)."""
    n = t.shape[0]
    if n < 256:
        return None if t.any() else _NO_LANES
    if by_warp:
        if n % W:
            return None
        wact = t.reshape(-1, W).any(axis=1)
        nw = int(np.count_nonzero(wact))
        if nw == 0:
            return _NO_LANES
        if nw * W > n * COMPACT_FRACTION:
            return None
        return (np.flatnonzero(wact)[:, None] * W + np.arange(W, dtype=np.int64)).reshape(-1)
    k = int(np.count_nonzero(t))
    if k == 0:
        return _NO_LANES
    if k > n * COMPACT_FRACTION:
        return None
    return np.flatnonzero(t)


def run_compacted(br, fr, t, idx, slots, all_taken):
    """Run the (non-yielding) statement br on the lanes idx of fr's group, then scatter back the
    variables (slots: those the statement references) and control state it changed."""
    from .schedule import SubGroup
    g = fr.g
    n = g.n
    sg = SubGroup(g, idx)
    sub = Frame(sg, len(fr.env))
    env, senv = fr.env, sub.env
    gathered = []
    for s in slots:
        v = _gather_val(env[s], idx)
        senv[s] = v
        gathered.append(v)
    sub.ret, sub.brk, sub.cont = (_gather_mask(x, idx) for x in (fr.ret, fr.brk, fr.cont))
    r0, b0, c0 = sub.ret, sub.brk, sub.cont
    rv0 = sub.retval = _gather_val(fr.retval, idx)
    if all_taken:  # idx is exactly the lanes of t
        ms = sg.full
    else:
        mt = t[idx]
        ms = sg.full if mt.all() else mt
    if br[1]:
        for _ in br[0](sub, ms):
            raise EmulatorError("internal: a compacted branch yielded", g.ctx.path)
    else:
        br[0](sub, ms)
    g.steps = sg.steps
    for s, a in zip(slots, gathered):
        b = senv[s]
        if a is not b:
            env[s] = _scatter_val(g, env[s], b, idx, n)
    if sub.ret is not r0:
        fr.ret = _scatter_mask(fr.ret, sub.ret, idx, n)
    if sub.brk is not b0:
        fr.brk = None if sub.brk is None else _scatter_mask(fr.brk, sub.brk, idx, n)
    if sub.cont is not c0:
        fr.cont = None if sub.cont is None else _scatter_mask(fr.cont, sub.cont, idx, n)
    if sub.retval is not rv0:
        fr.retval = _scatter_val(g, fr.retval, sub.retval, idx, n)


class CFunc:
    def __init__(self, name):
        self.name = name
        self.params: list[tuple[str, object, int]] = []
        self.body = None
        self.nslots = 0
        self.ret_type = VOID
        self.yields = False
        self.node = None
        self.param_builtins: dict[int, tuple[str, object]] = {}
        self.const_params: set[str] = set()  # pointer parameters to const data (never written)
        self.warp_ops = False  # uses warp collectives (needs whole warps)
        self.local_arr = False  # declares local arrays


class LV:
    """An lvalue: load / store / address."""
    kind = "?"


class LocalLV(LV):
    kind = "local"

    def __init__(self, slot, t):
        self.slot, self.t = slot, t


class MemLV(LV):
    kind = "mem"

    def __init__(self, ptr_fn, t):
        self.ptr_fn, self.t = ptr_fn, t


# concept keys of builtin index variables -> accessor on a group
_INDEX_3D = {"thread_idx": "tid", "block_idx": "bid", "block_dim": "bdim", "grid_dim": "gdim"}


class Compiler:
    """Compiles the functions of one lowered file for one schedule mode."""

    def __init__(self, low: Lowered, mode: str):
        self.low = low
        self.backend = low.backend
        self.mode = mode
        self.path = low.path
        self.enums: dict[str, int] = {}
        self.globals: dict[str, tuple[c_ast.Decl, object]] = {}
        self.tr = TypeResolver(low.ast, low.typedef_overrides, self.const_eval)
        for e in low.ast.ext:
            if isinstance(e, c_ast.Decl):
                self._collect_enums(e.type)
                if e.name and not isinstance(e.type, c_ast.FuncDecl) and "typedef" not in (e.storage or []):
                    if e.name in ("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"):
                        continue
                    self.globals[e.name] = (e, None)
            elif isinstance(e, c_ast.Typedef):
                self._collect_enums(e.type)
        for name, (d, _) in list(self.globals.items()):
            try:
                self.globals[name] = (d, self.tr.resolve(d.type))
            except Exception:
                del self.globals[name]
        self.funcs: dict[str, CFunc] = {}
        self.missing_concepts: set[str] = set()
        self.static_shared: dict[int, tuple[str, object, int]] = {}  # id(decl) -> (name, type, line)
        self.dynamic_shared: list[tuple[str, object]] = []

    def _collect_enums(self, t):
        while isinstance(t, (c_ast.TypeDecl, c_ast.Decl)):
            t = t.type
        if isinstance(t, c_ast.Enum) and t.values:
            val = -1
            for en in t.values.enumerators:
                val = self.const_eval(en.value) if en.value is not None else val + 1
                self.enums[en.name] = val

    # ---------------------------------------------------------------- errors / positions
    def err(self, node, msg):
        line = node.coord.line if node is not None and node.coord else 0
        col = node.coord.column if node is not None and node.coord else 0
        return EmulatorError(msg, self.path, line, col)

    # ---------------------------------------------------------------- constants
    def const_eval(self, node):
        if isinstance(node, c_ast.Constant):
            if node.type in ("int", "unsigned int", "long int", "unsigned long int", "long long int",
                             "unsigned long long int") or node.type.endswith("int"):
                return int(int_literal(node.value))
            if node.type == "char":
                return int(char_literal(node.value))
            return float(float_literal(node.value))
        if isinstance(node, c_ast.ID):
            if node.name in self.enums:
                return self.enums[node.name]
            if node.name in self.globals:
                d, _ = self.globals[node.name]
                if d.init is not None:
                    return self.const_eval(d.init)
            raise self.err(node, f"`{node.name}` is not a constant expression")
        if isinstance(node, c_ast.BinaryOp):
            a, b = self.const_eval(node.left), self.const_eval(node.right)
            op = node.op
            if op == "/":
                if isinstance(a, int) and isinstance(b, int):
                    q = abs(a) // abs(b)
                    return q if (a >= 0) == (b >= 0) else -q
                return a / b
            if op == "%":
                return a - b * int(a / b) if isinstance(a, int) else a % b
            return {"+": a + b, "-": a - b, "*": a * b, "<<": (a << b) if op == "<<" else 0,
                    ">>": (a >> b) if op == ">>" else 0, "&": (a & b) if op == "&" else 0,
                    "|": (a | b) if op == "|" else 0, "^": (a ^ b) if op == "^" else 0,
                    "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b), "==": int(a == b),
                    "!=": int(a != b), "&&": int(bool(a) and bool(b)), "||": int(bool(a) or bool(b))}[op]
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                return self.sizeof_node(node.expr)
            a = self.const_eval(node.expr)
            return {"-": -a, "+": a, "~": ~a if isinstance(a, int) else a, "!": int(not a)}[node.op]
        if isinstance(node, c_ast.Cast):
            v = self.const_eval(node.expr)
            t = self.tr.resolve(node.to_type)
            return int(v) if isinstance(t, np.dtype) and t.kind in "iu" else v
        if isinstance(node, c_ast.TernaryOp):
            return self.const_eval(node.iftrue if self.const_eval(node.cond) else node.iffalse)
        raise self.err(node, "not a constant expression")

    def sizeof_node(self, node, scope=None):
        if isinstance(node, c_ast.Typename):
            return sizeof(self.tr.resolve(node.type))
        if isinstance(node, c_ast.ID) and scope is not None:
            ent = scope.lookup(node.name)
            if ent is not None and len(ent) > 2:
                return sizeof(ent[2])
        if isinstance(node, c_ast.ID) and node.name in self.globals:
            return sizeof(self.globals[node.name][1])
        return 4

    # ---------------------------------------------------------------- functions
    def function(self, name: str) -> CFunc:
        cf = self.funcs.get(name)
        if cf is not None:
            if cf.body is None:
                raise EmulatorError(f"recursive call to {name} is not supported by the emulator", self.path,
                                    cf.node.coord.line if cf.node is not None else 0)
            return cf
        fd = self.low.functions.get(name)
        if fd is None:
            raise EmulatorError(f"function `{name}` not found in the lowered source", self.path)
        cf = CFunc(name)
        cf.node = fd
        self.funcs[name] = cf
        FnCompiler(self, cf, fd).compile()
        return cf


class Scope:
    def __init__(self):
        self.stack: list[dict] = [{}]

    def push(self):
        self.stack.append({})

    def pop(self):
        self.stack.pop()

    def add(self, name, ent):
        self.stack[-1][name] = ent

    def lookup(self, name):
        for d in reversed(self.stack):
            if name in d:
                return d[name]
        return None


class FnCompiler:
    def __init__(self, c: Compiler, cf: CFunc, fd: c_ast.FuncDef):
        self.c = c
        self.cf = cf
        self.fd = fd
        self.scope = Scope()
        self.nslots = 0
        self.pres: list | None = None
        self.ntmp = 0
        self.yields = False
        self.thread_mode = c.mode == "thread"
        self.warp_ops = False
        self.local_arr = False
        self.used: set[int] = set()  # local slots referenced (by the statement being compiled)

    def slot(self):
        s = self.nslots
        self.nslots += 1
        return s

    def err(self, node, msg):
        return self.c.err(node, msg)

    def pos(self, node):
        return (node.coord.line, node.coord.column) if node is not None and node.coord else (0, 0)

    # ---------------------------------------------------------------- compile a function
    def compile(self):
        fd, cf = self.fd, self.cf
        fdecl = fd.decl.type
        cf.ret_type = self.c.tr.resolve(fdecl.type)
        attrs = self.c.low.param_attrs.get(cf.name, {})
        if fdecl.args is not None:
            for p in fdecl.args.params:
                if isinstance(p, c_ast.EllipsisParam):
                    continue
                if isinstance(p, c_ast.Typename) or p.name is None:
                    continue
                t = self.c.tr.resolve(p.type)
                if t is VOID:
                    continue
                if isinstance(t, ArrT):
                    t = PtrT(t.elem)
                if isinstance(p.type, c_ast.PtrDecl) and "const" in (getattr(p.type.type, "quals", None) or []):
                    cf.const_params.add(p.name)
                s = self.slot()
                if p.name in attrs and attrs[p.name][0] == "threadgroup":
                    # Metal's dynamic threadgroup memory (CUDA's extern __shared__): the block's
                    # dynamic shared buffer, sized by the launch (run_kernel's shared_bytes)
                    self._threadgroup_param(p, t, attrs[p.name][1])
                    cf.param_builtins[s] = ("threadgroup", None)
                    cf.params.append((p.name, t, s))
                    continue
                if p.name in attrs:
                    b = self._attr_builtin(attrs[p.name], t, p)
                    if b is not None:
                        self.scope.add(p.name, ("builtin",) + b)
                        cf.param_builtins[s] = b
                        cf.params.append((p.name, t, s))
                        continue
                self.scope.add(p.name, ("local", s, t))
                cf.params.append((p.name, t, s))
        body = self.stmt(fd.body)
        cf.body = body[0]
        cf.nslots = self.nslots
        cf.yields = self.yields
        cf.warp_ops = self.warp_ops
        cf.local_arr = self.local_arr

    def _threadgroup_param(self, p, t, index):
        if not isinstance(t, PtrT):
            raise self.err(p, f"[[threadgroup({index})]] parameter `{p.name}` must be a threadgroup pointer")
        try:
            idx = int(str(index).strip().rstrip("uUlL"), 0)
        except ValueError:
            raise self.err(p, f"[[threadgroup({index})]]: the index must be an integer constant") from None
        if idx != 0:
            raise self.err(p, f"[[threadgroup({idx})]]: the emulator has one dynamic threadgroup buffer "
                              f"(threadgroup(0), sized by the launch's shared bytes)")
        at = ArrT(t.elem, None)
        self.scope.add(p.name, ("dyn", None, at, p))
        self.c.dynamic_shared.append((p.name, at))

    def _attr_builtin(self, attr, t, node):
        """Metal: a parameter bound to a built-in by its attribute (through the concept table)."""
        name, arg = attr
        if name in ("buffer", "threadgroup"):
            return None
        for c in dialect.CONCEPTS:
            a = c.attribute(self.c.backend)
            if a and a[1] == name:
                comp = None if isinstance(t, StructT) else 0
                return (c.key, comp)
        extra = {"thread_position_in_grid": ("global_idx", None), "thread_index_in_threadgroup": ("linear_tid", 0)}
        if name in extra:
            k, comp = extra[name]
            return (k, None if isinstance(t, StructT) else 0)
        raise self.err(node, f"unsupported Metal attribute [[{name}]]")

    # ---------------------------------------------------------------- statements
    # each returns (fn, is_gen, may_exit)
    def stmt(self, node):
        meth = getattr(self, "s_" + type(node).__name__, None)
        if meth is None:
            raise self.err(node, f"unsupported statement {type(node).__name__}")
        return meth(node)

    def _with_pres(self, node, build):
        """Compile expressions of one statement, collecting hoisted yielding calls."""
        saved = self.pres
        self.pres = []
        try:
            out = build()
            pres = self.pres
        finally:
            self.pres = saved
        return out, pres

    def s_Compound(self, node):
        self.scope.push()
        items = []
        for it in node.block_items or []:
            r = self.stmt(it)
            if r is not None:
                items.append(r)
        self.scope.pop()
        items = tuple(items)

        def run(fr, m):
            for fn, gen, ex in items:
                if gen:
                    yield from fn(fr, m)
                else:
                    fn(fr, m)
                if ex:
                    m = live(fr, m)
                    if m is None:
                        return

        return run, True, any(ex for _, _, ex in items)

    def s_EmptyStatement(self, node):
        return None

    def s_Pragma(self, node):
        return None

    def _leaf(self, plain, pres):
        if not pres:
            return plain, False
        pres = tuple(pres)

        def run(fr, m):
            for p in pres:
                yield from p(fr, m)
            plain(fr, m)

        return run, True

    def _expr_stmt(self, node):
        f, pres = self._with_pres(node, lambda: self.ex(node))

        def plain(fr, m):
            f(fr, m)

        fn, gen = self._leaf(plain, pres)
        return fn, gen, False

    s_FuncCall = s_Assignment = s_UnaryOp = s_BinaryOp = s_ExprList = s_TernaryOp = s_Cast = s_ID = s_Constant = \
        s_ArrayRef = _expr_stmt

    def s_DeclList(self, node):
        items = [r for r in (self.s_Decl(d) for d in node.decls) if r is not None]

        def run(fr, m):
            for fn, gen, _ in items:
                if gen:
                    yield from fn(fr, m)
                else:
                    fn(fr, m)

        return run, True, False

    def s_Decl(self, node):
        storage = node.storage or []
        if isinstance(node.type, c_ast.FuncDecl):
            return None
        if node.name is None:
            return None
        t = self.c.tr.resolve(node.type)
        if SHARED_STORAGE in storage:
            if "extern" in storage or (isinstance(t, ArrT) and t.n is None):
                self.scope.add(node.name, ("dyn", None, t, node))
                self.c.dynamic_shared.append((node.name, t))
            else:
                self.c.static_shared[id(node)] = (node.name, t, self.pos(node)[0])
                self.scope.add(node.name, ("shared", id(node), t, node))
            return None
        if isinstance(t, ArrT):
            return self._local_array(node, t, storage)
        if isinstance(t, StructT):
            raise self.err(node, f"struct variables ({t.name or 'anonymous'}) are not supported by the emulator yet")
        s = self.slot()
        self.used.add(s)
        init = None
        pres = []
        if node.init is not None:
            if isinstance(node.init, c_ast.InitList):
                if len(node.init.exprs) != 1:
                    raise self.err(node, "brace initialiser of a scalar")
                init_node = node.init.exprs[0]
            else:
                init_node = node.init
            init, pres = self._with_pres(node, lambda: self.ex(init_node))
        self.scope.add(node.name, ("local", s, t))
        conv_fn = self._converter(t)
        if init is None:
            def plain(fr, m):
                fr.env[s] = None
        else:
            def plain(fr, m):
                v = conv_fn(init(fr, m), fr.g)
                if m is fr.g.full:
                    fr.env[s] = v
                else:
                    fr.env[s] = merge(fr.g, fr.env[s], v, m)
        fn, gen = self._leaf(plain, pres)
        return fn, gen, False

    def _converter(self, t):
        """Conversion of an assigned value to the declared type t."""
        if isinstance(t, np.dtype):
            def cv(val, g):
                v = val[0]
                if isinstance(v, Pointer):
                    raise EmulatorError("a pointer assigned to an integer variable", g.ctx.path)
                if v.dtype == t:
                    return val
                return convert(val, t, g.ctx.track)
            return cv
        if isinstance(t, PtrT):
            elem = base_scalar(t.elem)
            dims = inner_dims(t.elem)

            def cp(val, g):
                v = val[0]
                if isinstance(v, Pointer):
                    if isinstance(elem, np.dtype) and v.dt != elem:
                        return v.cast(elem, dims), None
                    return val
                return val  # null pointers and integers stored in pointers stay as they are
            return cp
        return lambda val, g: val

    def _local_array(self, node, t, storage):
        self.local_arr = True
        elem = base_scalar(t)
        if not isinstance(elem, np.dtype):
            raise self.err(node, "arrays of structs are not supported by the emulator yet")
        count = scalar_count(t)
        dims = inner_dims(t)[1:]
        init_vals = None
        if node.init is not None:
            init_vals = self._flat_init(node.init, count)
        s = self.slot()
        self.scope.add(node.name, ("local", s, PtrT(t.elem)))
        name = node.name
        line = self.pos(node)[0]
        if init_vals is not None and ("static" in storage or (node.quals and "const" in node.quals)
                                      or all(isinstance(v, (int, float)) for v in init_vals)) \
                and all(isinstance(v, (int, float)) for v in init_vals) and ("static" in storage or "const" in (node.quals or [])):
            # a constant table: one copy shared by every lane
            data = np.array(init_vals + [0] * (count - len(init_vals)), dtype=elem)
            holder = {}

            def plain(fr, m):
                buf = holder.get(id(fr.g.ctx))
                if buf is None:
                    buf = Buffer(name, data.copy(), "const", count, False, line)
                    holder.clear()
                    holder[id(fr.g.ctx)] = buf
                fr.env[s] = (Pointer(buf, elem, 0, np.int64(0), count, dims), None)

            return plain, False, False
        init_fns = None
        if init_vals is not None:
            init_fns = [v if callable(v) else None for v in init_vals]
            consts = [v for v in init_vals]

        def plain(fr, m):
            g = fr.g
            n = g.n
            buf = Buffer(name, np.zeros(n * count, dtype=elem), "local", count, g.ctx.track, line)
            base = g.lane_idx * count
            p = Pointer(buf, elem, base, np.int64(0), count, dims)
            if init_fns is not None:
                view = buf.data.reshape(n, count)
                for k, v in enumerate(consts):
                    if callable(v):
                        val = conv(v(fr, m)[0], elem)
                        view[:, k] = val
                    else:
                        view[:, k] = v
            fr.env[s] = (p, None)

        return plain, False, False

    def _flat_init(self, init, count):
        out = []

        def walk(n):
            if isinstance(n, c_ast.InitList):
                for e in n.exprs:
                    walk(e)
            else:
                try:
                    out.append(self.c.const_eval(n))
                except EmulatorError:
                    out.append(self.ex(n))

        walk(init)
        if len(out) > count:
            out = out[:count]
        return out

    def _compactable(self, node):
        """Compile a branch; also say how it may be compacted: None (never), "lane" or "warp"."""
        saved = (self.yields, self.warp_ops, self.local_arr)
        saved_used = self.used
        self.yields = self.warp_ops = self.local_arr = False
        self.used = set()
        r = self.stmt(node)
        info = (self.yields, self.warp_ops, self.local_arr)
        used = self.used
        self.yields, self.warp_ops, self.local_arr = (a or b for a, b in zip(saved, info))
        self.used = saved_used | used
        if r is None or self.thread_mode or info[0] or info[2]:
            return r, None
        return r, (info[1], tuple(sorted(used)))

    def s_If(self, node):
        (cond, then, els), pres = self._with_pres(node, lambda: (self.ex(node.cond), None, None))
        then, then_cp = self._compactable(node.iftrue) if node.iftrue is not None else (None, None)
        els, els_cp = self._compactable(node.iffalse) if node.iffalse is not None else (None, None)
        pres = tuple(pres)

        def branch(fr, br, cp, t):
            if cp is not None:
                idx = compaction(fr.g, t, fr.g.W, cp[0])
                if idx is not None:
                    if idx.shape[0]:
                        run_compacted(br, fr, t, idx, cp[1], not cp[0])
                    return
            elif not t.any():
                return
            if br[1]:
                yield from br[0](fr, t)
            else:
                br[0](fr, t)

        def run(fr, m):
            for p in pres:
                yield from p(fr, m)
            c = truth(cond(fr, m)[0])
            if not _isarr(c):
                br = then if c else els
                if br is not None:
                    if br[1]:
                        yield from br[0](fr, m)
                    else:
                        br[0](fr, m)
                return
            if then is not None:
                yield from branch(fr, then, then_cp, c if m is fr.g.full else m & c)
            if els is not None:
                yield from branch(fr, els, els_cp, m & ~c)

        ex = (then is not None and then[2]) or (els is not None and els[2])
        return run, True, ex

    def _loop(self, node, init, cond_node, next_node, body_node, do_while=False):
        self.scope.push()
        init_r = self.stmt(init) if init is not None else None
        cond, cpres = (self._with_pres(node, lambda: self.ex(cond_node)) if cond_node is not None else (None, []))
        nxt, npres = (self._with_pres(node, lambda: self.ex(next_node)) if next_node is not None else (None, []))
        body = self.stmt(body_node) if body_node is not None else None
        self.scope.pop()
        cpres, npres = tuple(cpres), tuple(npres)
        line = self.pos(node)

        def run(fr, m):
            if init_r is not None:
                if init_r[1]:
                    yield from init_r[0](fr, m)
                else:
                    init_r[0](fr, m)
            saved_brk, saved_cont = fr.brk, fr.cont
            fr.brk = fr.cont = None
            act = m
            g = fr.g
            first = True
            while True:
                if not (do_while and first) and cond is not None:
                    for p in cpres:
                        yield from p(fr, act)
                    c = truth(cond(fr, act)[0])
                    if _isarr(c):
                        act = act & c
                        if not act.any():
                            break
                    elif not c:
                        break
                first = False
                if body is not None:
                    if body[1]:
                        yield from body[0](fr, act)
                    else:
                        body[0](fr, act)
                    if fr.brk is not None or fr.ret is not None:
                        off = fr.brk if fr.ret is None else (fr.ret if fr.brk is None else fr.brk | fr.ret)
                        act = act & ~off
                        if not act.any():
                            break
                    fr.cont = None
                if nxt is not None:
                    for p in npres:
                        yield from p(fr, act)
                    nxt(fr, act)
                g.steps += 1
                if g.steps > g.ctx.budget:
                    raise EmulatorError(f"step budget of {g.ctx.budget} loop iterations exceeded (an infinite "
                                        f"loop, or a spin-wait on other threads?)", g.ctx.path, *line)
            fr.brk, fr.cont = saved_brk, saved_cont

        return run, True, (body is not None and body[2] and False) or self._has_return(body_node)

    def _has_return(self, node):
        class V(c_ast.NodeVisitor):
            found = False

            def visit_Return(self, n):
                V.found = True

        V.found = False
        if node is not None:
            V().visit(node)
        return V.found

    def s_For(self, node):
        return self._loop(node, node.init, node.cond, node.next, node.stmt)

    def s_While(self, node):
        return self._loop(node, None, node.cond, None, node.stmt)

    def s_DoWhile(self, node):
        return self._loop(node, None, node.cond, None, node.stmt, do_while=True)

    def s_Break(self, node):
        def plain(fr, m):
            fr.brk = m if fr.brk is None else fr.brk | m
        return plain, False, True

    def s_Continue(self, node):
        def plain(fr, m):
            fr.cont = m if fr.cont is None else fr.cont | m
        return plain, False, True

    def s_Return(self, node):
        rt = self.cf.ret_type
        if node.expr is None:
            def plain(fr, m):
                fr.ret = m if fr.ret is None else fr.ret | m
            return plain, False, True
        f, pres = self._with_pres(node, lambda: self.ex(node.expr))
        cv = self._converter(rt) if rt is not AUTO else (lambda v, g: v)

        def plain(fr, m):
            v = cv(f(fr, m), fr.g)
            fr.retval = merge(fr.g, fr.retval, v, m) if fr.retval is not None else v
            fr.ret = m if fr.ret is None else fr.ret | m

        fn, gen = self._leaf(plain, pres)
        return fn, gen, True

    def s_Switch(self, node):
        (cond,), pres = self._with_pres(node, lambda: (self.ex(node.cond),))
        pres = tuple(pres)
        cases = []  # (values or None for default, [stmts])
        body = node.stmt.block_items if isinstance(node.stmt, c_ast.Compound) else [node.stmt]
        self.scope.push()
        for it in body or []:
            if isinstance(it, (c_ast.Case, c_ast.Default)):
                val = self.c.const_eval(it.expr) if isinstance(it, c_ast.Case) else None
                stmts = [r for r in (self.stmt(s) for s in it.stmts or []) if r is not None]
                cases.append((val, stmts))
            else:
                r = self.stmt(it)
                if r is not None and cases:
                    cases[-1][1].append(r)
        self.scope.pop()

        def run(fr, m):
            for p in pres:
                yield from p(fr, m)
            v = cond(fr, m)[0]
            saved = fr.brk
            fr.brk = None
            matched_any = None
            for val, _ in cases:
                if val is not None:
                    eq = v == val
                    matched_any = eq if matched_any is None else matched_any | eq
            running = None
            for val, stmts in cases:
                sel = (~matched_any if matched_any is not None else True) if val is None else (v == val)
                sel = np.broadcast_to(sel, m.shape) & m
                running = sel if running is None else (running | sel)
                cur = live(fr, running)
                if cur is None:
                    continue
                for fn, gen, _ in stmts:
                    if gen:
                        yield from fn(fr, cur)
                    else:
                        fn(fr, cur)
                    cur = live(fr, cur)
                    if cur is None:
                        break
            fr.brk = saved

        return run, True, self._has_return(node)

    def s_Label(self, node):
        raise self.err(node, "goto/labels are not supported by the emulator")

    s_Goto = s_Label

    # ---------------------------------------------------------------- expressions
    def ex(self, node):
        meth = getattr(self, "e_" + type(node).__name__, None)
        if meth is None:
            raise self.err(node, f"unsupported expression {type(node).__name__}")
        return meth(node)

    def e_Constant(self, node):
        t = node.type
        if t == "string":
            raise self.err(node, "string literals are not supported in device code by the emulator")
        if t == "char":
            v = (char_literal(node.value), None)
        elif t in ("float", "double", "long double"):
            v = (float_literal(node.value), None)
        else:
            v = (int_literal(node.value), None)
        return lambda fr, m: v

    def e_ID(self, node):
        name = node.name
        ent = self.scope.lookup(name)
        if ent is not None:
            kind = ent[0]
            if kind == "local":
                s = ent[1]
                self.used.add(s)

                def f(fr, m):
                    v = fr.env[s]
                    if v is None:
                        raise EmulatorError(f"`{name}` is read before it is assigned", fr.g.ctx.path,
                                            *self.pos(node))
                    return v
                return f
            if kind in ("shared", "dyn"):
                lv = self.lvalue(node)
                if isinstance(ent[2], ArrT):
                    pf = lv.ptr_fn
                    return lambda fr, m: (pf(fr, m), None)
                return self._load_lv(lv, node)
            if kind == "builtin":
                return self._builtin_value(ent[1], ent[2], node)
        if name in self.c.enums:
            v = (np.int32(self.c.enums[name]), None)
            return lambda fr, m: v
        if name in self.c.globals:
            d, t = self.c.globals[name]
            lv = self.lvalue(node)
            if isinstance(t, ArrT):
                pf = lv.ptr_fn
                return lambda fr, m: (pf(fr, m), None)
            if "const" in (d.quals or []) and d.init is not None:
                try:
                    cv = self.c.const_eval(d.init)
                    v = (conv(np.asarray(cv), t)[()] if isinstance(t, np.dtype) else cv, None)
                    return lambda fr, m: v
                except EmulatorError:
                    pass
            return self._load_lv(lv, node)
        b = self._lookup_builtin_name(name)
        if b is not None:
            return self._builtin_value(*b, node)
        if NS_SEP in name:
            raise self.err(node, f"unknown name `{name.replace(NS_SEP, '::')}`")
        raise self.err(node, f"unknown name `{name}`")

    def _lookup_builtin_name(self, name):
        hit = dialect.spelled_by(self.c.backend, name)
        if hit is not None and hit[0].kind == "index":
            return hit[0].key, None
        for comp, suf in enumerate(("_x", "_y", "_z")):
            if name.endswith(suf):
                hit = dialect.spelled_by(self.c.backend, name[:-2])
                if hit is not None and hit[0].kind == "index":
                    return hit[0].key, comp
        return None

    def _builtin_value(self, key, comp, node):
        if key in _INDEX_3D:
            attr = _INDEX_3D[key]
            if comp is None:
                raise self.err(node, f"use of the whole built-in vector {key} (take .x/.y/.z)")
            return lambda fr, m: (getattr(fr.g, attr)[comp], None)
        if key == "warp_size":
            return lambda fr, m: (np.uint32(fr.g.W) if self.c.backend == "metal" else np.int32(fr.g.W), None)
        if key == "lane_id":
            return lambda fr, m: (fr.g.lane_u32, None)
        if key == "warp_id":
            return lambda fr, m: (fr.g.warp_u32, None)
        if key == "global_idx":
            if comp is None:
                raise self.err(node, "use of the whole built-in vector (take .x/.y/.z)")
            return lambda fr, m: (fr.g.bid[comp] * fr.g.bdim[comp] + fr.g.tid[comp], None)
        if key == "linear_tid":
            return lambda fr, m: (fr.g.ltid_u32, None)
        raise self.err(node, f"unsupported built-in {key}")

    def e_StructRef(self, node):
        if isinstance(node.name, c_ast.ID) and node.type == ".":
            nm = node.name.name
            ent = self.scope.lookup(nm)
            field = node.field.name
            comp = "xyz".find(field)
            if ent is not None and ent[0] == "builtin":
                if comp < 0:
                    raise self.err(node, f"unknown component .{field}")
                return self._builtin_value(ent[1], comp, node)
            if ent is None:
                b = self._lookup_builtin_name(nm)
                if b is not None and comp >= 0:
                    return self._builtin_value(b[0], comp, node)
        raise self.err(node, "struct members are not supported by the emulator yet (only built-in .x/.y/.z)")

    def _load_lv(self, lv, node):
        if lv.kind == "local":
            s = lv.slot
            return lambda fr, m: fr.env[s]
        pf = lv.ptr_fn

        def f(fr, m):
            p = pf(fr, m)
            return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
        return f

    def lvalue(self, node) -> LV:
        if isinstance(node, c_ast.ID):
            ent = self.scope.lookup(node.name)
            if ent is not None:
                if ent[0] == "local":
                    self.used.add(ent[1])
                    return LocalLV(ent[1], ent[2])
                if ent[0] == "shared":
                    key, t = ent[1], ent[2]
                    elem = base_scalar(t)
                    dims = inner_dims(t)[1:] if isinstance(t, ArrT) else ()
                    return MemLV(lambda fr, m: fr.g.shared_ptr(key, elem, dims), t)
                if ent[0] == "dyn":
                    t = ent[2]
                    elem = base_scalar(t)
                    dims = inner_dims(t)[1:] if isinstance(t, ArrT) else ()
                    return MemLV(lambda fr, m: fr.g.dynamic_ptr(elem, dims), t)
            if node.name in self.c.globals:
                d, t = self.c.globals[node.name]
                name = node.name
                elem = base_scalar(t)
                dims = inner_dims(t)[1:] if isinstance(t, ArrT) else ()
                return MemLV(lambda fr, m: fr.g.ctx.global_ptr(name, elem, dims), t)
            raise self.err(node, f"`{node.name}` is not assignable")
        if isinstance(node, c_ast.ArrayRef):
            base = self.ex(node.name)
            idx = self.ex(node.subscript)

            def pf(fr, m):
                p = base(fr, m)[0]
                if not isinstance(p, Pointer):
                    raise EmulatorError("subscript of a non-pointer", fr.g.ctx.path, *self.pos(node))
                k = _index(idx(fr, m)[0])
                return p.index(k) if p.dims else p.add(k)
            return MemLV(pf, None)
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            pe = self.ex(node.expr)

            def pf(fr, m):
                p = pe(fr, m)[0]
                if not isinstance(p, Pointer):
                    raise EmulatorError("dereference of a non-pointer", fr.g.ctx.path, *self.pos(node))
                return p
            return MemLV(pf, None)
        if isinstance(node, c_ast.Cast):
            return self.lvalue(node.expr)
        raise self.err(node, f"unsupported assignment target {type(node).__name__}")

    def e_ArrayRef(self, node):
        base = self.ex(node.name)
        idx = self.ex(node.subscript)

        def f(fr, m):
            p = base(fr, m)[0]
            if not isinstance(p, Pointer):
                raise EmulatorError("subscript of a non-pointer", fr.g.ctx.path, *self.pos(node))
            k = _index(idx(fr, m)[0])
            if p.dims:  # a row of a multi-dimensional array: decays to a pointer
                return p.index(k), None
            return fr.g.ctx.mem.load(fr.g, p.add(k), m, node, fr.g.ctx.track)
        return f

    def _store(self, lv, node):
        """Returns store(fr, m, val) -> stored value."""
        if lv.kind == "local":
            s = lv.slot
            cv = self._converter(lv.t) if lv.t is not None else (lambda v, g: v)

            def st(fr, m, val):
                val = cv(val, fr.g)
                fr.env[s] = merge(fr.g, fr.env[s], val, m) if fr.env[s] is not None else val
                return val
            return st
        pf = lv.ptr_fn

        def st(fr, m, val):
            p = pf(fr, m)
            g = fr.g
            v = val
            if isinstance(v[0], Pointer):
                raise EmulatorError("storing a pointer into memory is not supported by the emulator",
                                    g.ctx.path, *self.pos(node))
            if v[0].dtype != p.dt:
                v = convert(v, p.dt, g.ctx.track)
            g.ctx.mem.store(g, p, v, m, node, g.ctx.track)
            return v
        return st

    def e_Assignment(self, node):
        lv = self.lvalue(node.lvalue)
        rhs = self.ex(node.rvalue)
        st = self._store(lv, node)
        if node.op == "=":
            return lambda fr, m: st(fr, m, rhs(fr, m))
        op = node.op[:-1]
        cur = self._load_lv(lv, node)
        binop = self._binop_fn(op, node)
        if lv.kind == "mem":
            # evaluate the address once: load and store through the same pointer
            pf = lv.ptr_fn

            def f(fr, m):
                p = pf(fr, m)
                g = fr.g
                old = g.ctx.mem.load(g, p, m, node, g.ctx.track)
                new = binop(old, rhs(fr, m), g)
                if new[0].dtype != p.dt:
                    new = convert(new, p.dt, g.ctx.track)
                g.ctx.mem.store(g, p, new, m, node, g.ctx.track)
                return new
            return f
        return lambda fr, m: st(fr, m, binop(cur(fr, m), rhs(fr, m), fr.g))

    def _binop_fn(self, op, node):
        def f(a, b, g):
            va, vb = a[0], b[0]
            if isinstance(va, Pointer) or isinstance(vb, Pointer):
                return self._ptr_arith(op, a, b, g, node)
            return arith(op, a, b, g.ctx.track)
        return f

    def _ptr_arith(self, op, a, b, g, node):
        va, vb = a[0], b[0]
        if isinstance(va, Pointer) and isinstance(vb, Pointer):
            if op == "-":
                return (np.int64(0) + (va.off - vb.off)) // max(va.stride, 1), None
            if op in ("==", "!=", "<", ">", "<=", ">="):
                return arith(op, (np.asarray(va.off), None), (np.asarray(vb.off), None), False)
        if isinstance(va, Pointer) and op in ("+", "-"):
            k = _index(vb)
            return va.add(k if op == "+" else -k.astype(np.int64)), None
        if isinstance(vb, Pointer) and op == "+":
            return vb.add(_index(va)), None
        if op in ("==", "!="):  # comparison with a null pointer
            return (np.bool_(op == "!="), None)
        raise EmulatorError(f"unsupported pointer operation `{op}`", g.ctx.path, *self.pos(node))

    def e_BinaryOp(self, node):
        op = node.op
        if op in ("&&", "||"):
            return self._logical(node)
        if op == "+" and self.c_contract() and isinstance(node.left, c_ast.BinaryOp) and node.left.op == "*":
            return self._contracted(node.left.left, node.left.right, node.right, node, False)
        if op == "+" and self.c_contract() and isinstance(node.right, c_ast.BinaryOp) and node.right.op == "*":
            return self._contracted(node.right.left, node.right.right, node.left, node, False)
        lf, rf = self.ex(node.left), self.ex(node.right)
        binop = self._binop_fn(op, node)
        return lambda fr, m: binop(lf(fr, m), rf(fr, m), fr.g)

    def c_contract(self):
        return True

    def _contracted(self, xa, xb, xc, node, neg_c):
        """a*b + c contracted into one fused multiply-add when all are floats (nvcc's default)."""
        fa, fb, fc = self.ex(xa), self.ex(xb), self.ex(xc)

        def f(fr, m):
            a, b, c = fa(fr, m), fb(fr, m), fc(fr, m)
            va, vb, vc = a[0], b[0], c[0]
            g = fr.g
            if isinstance(va, Pointer) or isinstance(vb, Pointer) or isinstance(vc, Pointer):
                return self._binop_fn("+", node)(arith("*", a, b, g.ctx.track), c, g)
            t = common(common(va.dtype, vb.dtype), vc.dtype)
            if t.kind == "f" and g.ctx.contract:
                return fma(a, b, c, g.ctx.track, t)
            return arith("+", arith("*", a, b, g.ctx.track), c, g.ctx.track)
        return f

    def _logical(self, node):
        lf = self.ex(node.left)
        rf, rp = self._branch(node.right)
        is_and = node.op == "&&"

        if rp:
            def evaluate(fr, m):
                a = truth(lf(fr, m)[0])
                if not _isarr(a):
                    if bool(a) != is_and:
                        return np.bool_(not is_and), None
                    for p in rp:
                        yield from p(fr, m)
                    return truth(rf(fr, m)[0]), None
                sub = (m & a) if is_and else (m & ~a)
                if not sub.any():
                    return a, None
                for p in rp:
                    yield from p(fr, sub)
                b = truth(rf(fr, sub)[0])
                return ((a & b) if is_and else (a | b)), None
            return self._hoist_conditional(evaluate)

        def f(fr, m):
            a = truth(lf(fr, m)[0])
            if not _isarr(a):
                if bool(a) != is_and:
                    return np.bool_(not is_and), None
                return truth(rf(fr, m)[0]), None
            sub = (m & a) if is_and else (m & ~a)
            if not sub.any():
                return a, None
            b = truth(rf(fr, sub)[0])
            return ((a & b) if is_and else (a | b)), None
        return f

    def _branch(self, node):
        """Compile a conditionally evaluated operand with its own hoisted calls."""
        if self.pres is None:
            return self.ex(node), ()
        f, pres = self._with_pres(node, lambda: self.ex(node))
        return f, tuple(pres)

    def _hoist_conditional(self, evaluate):
        """A ?: / && / || whose operands synchronise runs as a hoisted step of its own, so each
        operand's calls run only for the lanes that evaluate it."""
        self.yields = True
        k = self.ntmp
        self.ntmp += 1

        def pre(fr, m):
            fr.tmp[k] = yield from evaluate(fr, m)

        self.pres.append(pre)
        return lambda fr, m: fr.tmp[k]

    def e_TernaryOp(self, node):
        cf = self.ex(node.cond)
        tf, tp = self._branch(node.iftrue)
        ff, fp = self._branch(node.iffalse)

        def select(fr, m, c, a, b, t):
            va, vb = a[0], b[0]
            if isinstance(va, Pointer) or isinstance(vb, Pointer):
                return merge(fr.g, b, a, t)
            dt = common(va.dtype, vb.dtype)
            v = np.where(c, conv(va, dt), conv(vb, dt))
            if a[1] is None and b[1] is None:
                return v, None
            return v, np.where(c, 0.0 if a[1] is None else a[1], 0.0 if b[1] is None else b[1])

        if tp or fp:
            def evaluate(fr, m):
                c = truth(cf(fr, m)[0])
                if not _isarr(c):
                    for p in (tp if c else fp):
                        yield from p(fr, m)
                    return tf(fr, m) if c else ff(fr, m)
                t, fm = m & c, m & ~c
                a = b = None
                if t.any():
                    for p in tp:
                        yield from p(fr, t)
                    a = tf(fr, t)
                if fm.any():
                    for p in fp:
                        yield from p(fr, fm)
                    b = ff(fr, fm)
                if a is None or b is None:
                    return a if b is None else b
                return select(fr, m, c, a, b, t)
            return self._hoist_conditional(evaluate)

        def f(fr, m):
            c = truth(cf(fr, m)[0])
            if not _isarr(c):
                return tf(fr, m) if c else ff(fr, m)
            t = m & c
            fm = m & ~c
            if not fm.any():
                return tf(fr, m)
            if not t.any():
                return ff(fr, m)
            return select(fr, m, c, tf(fr, t), ff(fr, fm), t)
        return f

    def e_UnaryOp(self, node):
        op = node.op
        if op == "sizeof":
            v = (np.uint64(self.c.sizeof_node(node.expr, self.scope)), None)
            return lambda fr, m: v
        if op in ("++", "--", "p++", "p--"):
            lv = self.lvalue(node.expr)
            st = self._store(lv, node)
            one = (np.int32(1), None)
            aop = "+" if "+" in op else "-"
            post = op.startswith("p")
            binop = self._binop_fn(aop, node)
            if lv.kind == "mem":
                pf = lv.ptr_fn

                def f(fr, m):
                    p = pf(fr, m)
                    g = fr.g
                    old = g.ctx.mem.load(g, p, m, node, g.ctx.track)
                    new = convert(binop(old, one, g), p.dt, g.ctx.track)
                    g.ctx.mem.store(g, p, new, m, node, g.ctx.track)
                    return old if post else new
                return f
            cur = self._load_lv(lv, node)

            def f(fr, m):
                old = cur(fr, m)
                if old is None:
                    raise EmulatorError("increment of an unassigned variable", fr.g.ctx.path, *self.pos(node))
                new = st(fr, m, binop(old, one, fr.g))
                return old if post else new
            return f
        if op == "&":
            lv = self.lvalue(node.expr)
            if lv.kind == "local":
                raise self.err(node, "taking the address of a local variable is not supported by the emulator")
            pf = lv.ptr_fn
            return lambda fr, m: (pf(fr, m), None)
        if op == "*":
            lv = self.lvalue(node)
            pf = lv.ptr_fn

            def f(fr, m):
                p = pf(fr, m)
                if p.dims:
                    return p, None
                return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
            return f
        a = self.ex(node.expr)
        if op == "-":
            return lambda fr, m: neg(a(fr, m))
        if op == "+":
            return lambda fr, m: (lambda v: (conv(v[0], common(v[0].dtype, v[0].dtype)), v[1]))(a(fr, m))
        if op == "~":
            return lambda fr, m: bitnot(a(fr, m))
        if op == "!":
            return lambda fr, m: lnot(a(fr, m))
        raise self.err(node, f"unsupported operator {op}")

    def e_Cast(self, node):
        t = self.c.tr.resolve(node.to_type)
        a = self.ex(node.expr)
        if t is AUTO or t is VOID:
            return a
        if isinstance(t, np.dtype):
            def f(fr, m):
                v = a(fr, m)
                if isinstance(v[0], Pointer):
                    raise EmulatorError("casting a pointer to an integer is not supported by the emulator",
                                        fr.g.ctx.path, *self.pos(node))
                return convert(v, t, fr.g.ctx.track)
            return f
        if isinstance(t, PtrT):
            elem = base_scalar(t.elem)
            dims = inner_dims(t.elem)

            def f(fr, m):
                v = a(fr, m)
                p = v[0]
                if isinstance(p, Pointer) and isinstance(elem, np.dtype):
                    return p.cast(elem, dims), None
                return v
            return f
        raise self.err(node, "unsupported cast")

    def e_ExprList(self, node):
        fs = [self.ex(e) for e in node.exprs]

        def f(fr, m):
            r = ZERO
            for x in fs:
                r = x(fr, m)
            return r
        return f

    def e_Typename(self, node):
        raise self.err(node, "a type where a value is expected")

    def e_InitList(self, node):
        raise self.err(node, "brace initialiser in an expression")

    # ---------------------------------------------------------------- calls
    def e_FuncCall(self, node):
        if not isinstance(node.name, c_ast.ID):
            raise self.err(node, "call through a function pointer")
        name = node.name.name
        args = list(node.args.exprs) if node.args is not None else []
        if name in self.c.low.functions and self.scope.lookup(name) is None:
            return self._user_call(name, args, node)
        if name in self.c.low.overloads and self.scope.lookup(name) is None:
            return self._overloaded_call(name, args, node)
        if name == AS_TYPE_FN:
            return self._as_type_call(args, node)
        if self.c.backend == "metal" and name in METAL_ATOMIC_FNS:
            return self._metal_atomic_call(name, args, node)
        spelled = name.replace(NS_SEP, "::")
        hit = dialect.spelled_by(self.c.backend, spelled)
        if hit is not None:
            return self._concept_call(hit[0], hit[1], args, node)
        if name in K.C_LIBRARY:
            return self._clib_call(name, args, node)
        raise self.err(node, f"unknown function `{spelled}` (not in the dialect table, not a C library function, "
                             f"not defined in the file)")

    def _user_call(self, name, args, node):
        cf = self.c.function(name)
        self.warp_ops |= cf.warp_ops
        self.local_arr |= cf.local_arr
        argfns = [self.ex(a) for a in args]
        if len(argfns) != len(cf.params):
            raise self.err(node, f"{name} takes {len(cf.params)} arguments, {len(argfns)} given")
        convs = [self._converter(t) if t is not AUTO else (lambda v, g: v) for _, t, _ in cf.params]
        params = cf.params

        def bind(fr, m):
            g = fr.g
            callee = Frame(g, cf.nslots)
            for (pname, t, s), af, cv in zip(params, argfns, convs):
                callee.env[s] = cv(af(fr, m), g)
            return callee

        def result(callee):
            return callee.retval if callee.retval is not None else ZERO

        if cf.yields:
            if self.pres is None:
                raise self.err(node, f"call to {name} (which synchronises) in an unsupported position")
            self.yields = True
            k = self.ntmp
            self.ntmp += 1

            def pre(fr, m):
                callee = bind(fr, m)
                yield from cf.body(callee, m)
                fr.tmp[k] = result(callee)

            self.pres.append(pre)
            return lambda fr, m: fr.tmp[k]

        def call(fr, m):
            callee = bind(fr, m)
            for _ in cf.body(callee, m):
                raise EmulatorError("internal: a non-synchronising function yielded", fr.g.ctx.path)
            return result(callee)
        return call

    def _overloaded_call(self, name, args, node):
        """A call to one of several definitions of `name` (C++ overloads): the definition whose
        parameter types match the arguments' types best, chosen when the call runs."""
        cands = []
        for cname in self.c.low.overloads[name]:
            cfn = self.c.function(cname)
            if len(cfn.params) == len(args):
                cands.append(cfn)
        if not cands:
            raise self.err(node, f"no definition of {name} takes {len(args)} arguments")
        for cfn in cands:
            self.warp_ops |= cfn.warp_ops
            self.local_arr |= cfn.local_arr
        if len(cands) == 1:
            return self._user_call(cands[0].name, args, node)
        if any(cfn.yields for cfn in cands):
            raise self.err(node, f"overloads of {name} that synchronise are not supported by the emulator")
        argfns = [self.ex(a) for a in args]
        chosen: dict[tuple, object] = {}

        def caller(cfn):
            convs = [self._converter(t) if t is not AUTO else (lambda v, g: v) for _, t, _ in cfn.params]

            def call(fr, m, vals):
                g = fr.g
                callee = Frame(g, cfn.nslots)
                for (_, _, s), v, cv in zip(cfn.params, vals, convs):
                    callee.env[s] = cv(v, g)
                for _ in cfn.body(callee, m):
                    raise EmulatorError("internal: a non-synchronising function yielded", g.ctx.path)
                return callee.retval if callee.retval is not None else ZERO
            return call

        calls = [caller(cfn) for cfn in cands]

        def score(cfn, vals):
            total = 0
            for (_, t, _), v in zip(cfn.params, vals):
                v = v[0]
                if isinstance(t, PtrT):
                    if not isinstance(v, Pointer):
                        return -1
                    e = base_scalar(t.elem)
                    total += 3 if e == v.dt else (1 if isinstance(e, np.dtype) and e.kind == v.dt.kind else 0)
                elif isinstance(t, np.dtype):
                    if isinstance(v, Pointer):
                        return -1
                    dt = np.asarray(v).dtype
                    total += 3 if dt == t else (2 if dt.kind == t.kind else (1 if "f" not in (dt.kind + t.kind) else 0))
                else:
                    total += 1
            return total

        def f(fr, m):
            vals = [a(fr, m) for a in argfns]
            key = tuple(v[0].dt if isinstance(v[0], Pointer) else np.asarray(v[0]).dtype for v in vals)
            best = chosen.get(key)
            if best is None:
                scored = [(score(cfn, vals), k) for k, cfn in enumerate(cands)]
                top = max(sc for sc, _ in scored)
                if top < 0:
                    raise EmulatorError(f"no definition of {name} accepts these arguments", fr.g.ctx.path,
                                        *self.pos(node))
                best = chosen[key] = calls[next(k for sc, k in scored if sc == top)]
            return best(fr, m, vals)
        return f

    def _as_type_call(self, args, node):
        """Metal's as_type<T>(x) (lowered to __kp_as_type((T)0, x)): the bits of x as a T."""
        if len(args) != 2 or not isinstance(args[0], c_ast.Cast):
            raise self.err(node, "as_type<T>(x) takes one argument")
        t = self.c.tr.resolve(args[0].to_type)
        if not isinstance(t, np.dtype):
            raise self.err(node, "as_type to a vector or struct type is not supported by the emulator")
        a = self.ex(args[1])

        def f(fr, m):
            v, e = a(fr, m)
            if isinstance(v, Pointer):
                raise EmulatorError("as_type of a pointer is not supported by the emulator", fr.g.ctx.path,
                                    *self.pos(node))
            arr = np.asarray(v)
            if arr.dtype.itemsize != t.itemsize:
                raise EmulatorError(f"as_type<{t}> of a {arr.dtype} value: the sizes differ", fr.g.ctx.path,
                                    *self.pos(node))
            r = np.ascontiguousarray(arr).view(t) if arr.ndim else arr.reshape(1).view(t)[0]
            # the error bound of a float travels with its bits (a CAS loop on a float's bits)
            return r, (e if (arr.dtype.kind == "f" or t.kind == "f") else None)
        return f

    def _metal_atomic_call(self, name, args, node):
        """MSL atomics that are not concepts: what the kp_atomic_* CAS loops use."""
        want = {"atomic_load_explicit": 2, "atomic_store_explicit": 3,
                "atomic_compare_exchange_weak_explicit": 5, "atomic_compare_exchange_strong_explicit": 5}[name]
        if len(args) != want:
            raise self.err(node, f"`{name}` takes {want} arguments, {len(args)} given")
        fa = self.ex(args[0])

        def ptr(fr, m):
            p = fa(fr, m)[0]
            if not isinstance(p, Pointer):
                raise EmulatorError(f"{name} on a non-pointer", fr.g.ctx.path, *self.pos(node))
            return p

        if name == "atomic_load_explicit":
            def f(fr, m):
                g = fr.g
                return g.ctx.mem.atomic(g, "load", ptr(fr, m), ZERO, m, node, g.ctx.track)
            return f
        if name == "atomic_store_explicit":
            fv = self.ex(args[1])

            def f(fr, m):
                g = fr.g
                g.ctx.mem.atomic(g, "exch", ptr(fr, m), fv(fr, m), m, node, g.ctx.track)
                return ZERO
            return f
        # compare-exchange: `expected` is updated with the value found; true where it was stored
        exp_node = args[1]
        if isinstance(exp_node, c_ast.UnaryOp) and exp_node.op == "&":
            exp_lv = self.lvalue(exp_node.expr)
        else:
            exp_lv = self.lvalue(c_ast.UnaryOp("*", exp_node, exp_node.coord))
        load_exp = self._load_lv(exp_lv, node)
        st = self._store(exp_lv, node)
        fv = self.ex(args[2])

        def f(fr, m):
            g = fr.g
            p = ptr(fr, m)
            expected = load_exp(fr, m)
            if expected is None:
                raise EmulatorError(f"{name}: `expected` is read before it is assigned", g.ctx.path, *self.pos(node))
            ev = conv(np.asarray(expected[0]), p.dt)
            old = g.ctx.mem.atomic(g, "cas", p, fv(fr, m), m, node, g.ctx.track, (ev, expected[1]))
            ok = np.asarray(old[0] == ev)
            st(fr, m, old)
            return ok.astype(BOOL) if ok.ndim else BOOL.type(ok), None
        return f

    def _clib_call(self, name, args, node):
        kind, what, dt = K.C_LIBRARY[name]
        argfns = [self.ex(a) for a in args]
        if kind == "ldg":
            f0 = argfns[0]

            def f(fr, m):
                p = f0(fr, m)[0]
                return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
            return f
        if kind == "bar_red":
            return self._barrier_call(node, argfns[0] if argfns else None, what)
        return lambda fr, m: K.c_library(kind, what, dt, [a(fr, m) for a in argfns], fr.g.ctx.track)

    def _concept_call(self, concept, canon, args, node):
        key, kind = concept.key, concept.kind
        bound = dialect.bind(concept, canon, args)
        if bound is None and kind == "atomic" and len(args) >= 2:
            # Metal spells atomics with the address cast to an atomic type: the address is arg 0
            bound = {"address": args[0], "value": args[1]} if key != "atomic_cas" else \
                {"address": args[0], "compare": args[1], "value": args[2]}
        if bound is None and kind == "barrier":
            bound = {}  # Metal spells the memory scope as a fixed argument (mem_flags::...)
        if bound is None:
            raise self.err(node, f"`{node.name.name}` called with {len(args)} arguments "
                                 f"(the dialect table spells {concept.spelling(canon)})")
        fns = {p: self.ex(a) for p, a in bound.items() if a is not None}
        backend = self.c.backend
        if kind == "barrier":
            if key == "syncthreads":
                return self._barrier_call(node, None, None)
            if key == "syncwarp":
                return self._syncwarp_call(node, fns.get("mask"))
            return lambda fr, m: ZERO  # fences: memory is always coherent in the emulator
        if kind in ("shuffle", "vote", "reduction"):
            return self._collective_call(key, fns, node)
        if kind == "bitop":
            f0 = fns["x"]
            return lambda fr, m: K.bitop(key, f0(fr, m), backend)
        if kind == "atomic":
            op = key.split("_", 1)[1]
            fa, fv, fc = fns["address"], fns["value"], fns.get("compare")

            def f(fr, m):
                g = fr.g
                p = fa(fr, m)[0]
                if not isinstance(p, Pointer):
                    raise EmulatorError("atomic on a non-pointer", g.ctx.path, *self.pos(node))
                return g.ctx.mem.atomic(g, op, p, fv(fr, m), m, node, g.ctx.track,
                                        None if fc is None else fc(fr, m))
            return f
        if kind == "math":
            order = [p for p in concept.params if p in fns]
            afs = [fns[p] for p in order]
            return lambda fr, m: K.math_concept(key, [a(fr, m) for a in afs], fr.g.ctx.track, backend)
        if kind == "index":
            return self._builtin_value(key, None if key not in _INDEX_3D else 0, node)
        raise self.err(node, f"concept {key} ({kind}) cannot be executed by the emulator")

    def _barrier_call(self, node, pred_fn, reduce_op):
        if self.pres is None:
            raise self.err(node, "barrier in an unsupported position")
        self.yields = True
        k = self.ntmp
        self.ntmp += 1

        def pre(fr, m):
            pred = None if pred_fn is None else truth(pred_fn(fr, m)[0])
            res = yield ("bar", node, m, fr, pred, reduce_op)
            fr.tmp[k] = res if res is not None else ZERO

        self.pres.append(pre)
        return lambda fr, m: fr.tmp[k]

    def _syncwarp_call(self, node, mask_fn):
        self.warp_ops = True
        if self.thread_mode:
            if self.pres is None:
                raise self.err(node, "warp sync in an unsupported position")
            self.yields = True

            def pre(fr, m):
                mk = None if mask_fn is None else mask_fn(fr, m)
                yield ("coll", "syncwarp", node, {"mask": mk} if mk is not None else {}, m)

            self.pres.append(pre)
            return lambda fr, m: ZERO

        def f(fr, m):
            g = fr.g
            mk = None if mask_fn is None else mask_fn(fr, m)
            g.ctx.syncwarp(g, m, node, None if mk is None else mk[0])
            return ZERO
        return f

    def _collective_call(self, key, fns, node):
        self.warp_ops = True
        if self.thread_mode:
            if self.pres is None:
                raise self.err(node, "warp collective in an unsupported position")
            self.yields = True
            k = self.ntmp
            self.ntmp += 1

            def pre(fr, m):
                args = {p: f(fr, m) for p, f in fns.items()}
                fr.tmp[k] = yield ("coll", key, node, args, m)

            self.pres.append(pre)
            return lambda fr, m: fr.tmp[k]

        def f(fr, m):
            g = fr.g
            args = {p: fn(fr, m) for p, fn in fns.items()}
            return K.collective(key, args, m, g.W, g.ctx, node)
        return f
