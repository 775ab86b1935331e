"""Compile a lowered kernel's C AST into Python closures, once, that run over all lanes.

Every expression becomes `f(fr, m) -> (value, error_bound)` and every statement a function of
(frame, mask); control flow is masks (see `lanes.Frame`).  Statements that can reach a barrier (or,
in the thread schedule, a warp collective) are generators that `yield` a request to the
scheduler; calls that yield are hoisted out of their expression and run first ("pres").

Names of GPU builtins and intrinsics are mapped to concepts only through the dialect table
(`dialect.spelled_by` + `dialect.bind`); `intrinsics` implements the concepts.

The function compiler is one class, `FnCompiler`, assembled from the statement, expression and
call compilers (`statements`, `expressions`, `calls`); declarations and parameters are here.
"""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from .. import backends, dialect
from . import undefined
from .bitcopy import BitCopyCompiler
from .calls import CallCompiler
from .ctype import VOID, ArrT, PtrT, StructT, TypeResolver, base_scalar, char_literal, conv, float_literal, \
    inner_dims, int_literal, row_scalar, scalar_count, sizeof, vector_row
from .errors import EmulatorError
from .expressions import ExpressionCompiler
from .stores import StoreCompiler
from .frontend import SHARED_STORAGE, Lowered
from .lanes import merge
from .memory import Buffer, Pointer
from .operators import OperatorCompiler
from .ops import convert
from .statements import StatementCompiler
from .vectors import VecVal, VectorCompiler
from .structs import StructCompiler, is_struct


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


class Compiler:
    """Compiles the functions of one lowered file for one schedule mode."""

    def spelled_by(self, name: str):
        """dialect.spelled_by of `name` in the first of self.dialects that spells it (None: none)."""
        return next((hit for b in self.dialects if (hit := dialect.spelled_by(b, name)) is not None), None)

    def __init__(self, low: Lowered, mode: str):
        self.low = low
        self.backend = low.backend
        self.be = backends.get(low.backend)
        # a name means a concept as the dialect read spells it, else as the port's own backend does
        # (a portable port read as CUDA or HIP: kp_wave_size() where its header is not read)
        self.dialects = tuple(dict.fromkeys(b for b in (low.backend, low.port_of) if b))
        self.mode = mode
        self.path = low.path
        self.enums: dict[str, int] = {}
        # `const int N = 4 / 2;` in the function being compiled: C++ lets N size an array
        self.local_consts: dict[str, int] = {}
        self.globals: dict[str, tuple[c_ast.Decl, object]] = {}
        self.file_shared: dict[str, c_ast.Decl] = {}  # (held as one grid-wide global, every block read the others')
        self.tr = TypeResolver(low.ast, low.typedef_overrides, self.const_eval, self.err)
        self.warp_size_dtype = self.tr.resolve(c_ast.IdentifierType(self.be.warp_size_type.split()))
        for e in low.ast.ext:
            if isinstance(e, c_ast.Decl):
                self._collect_enums(e.type)
                if e.name and not isinstance(e.type, c_ast.FuncDecl) and "typedef" not in (e.storage or []):
                    if e.name in ("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"):
                        continue
                    if SHARED_STORAGE in (e.storage or []):  # file-scope `__shared__`: each block's own (FnCompiler)
                        self.file_shared[e.name] = e
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
        """A constant expression's value; one that C would reject or overflow (a division by zero,
        a shift past 64 bits) is a located error, never Python's exception."""
        try:
            with np.errstate(all="ignore"):  # a float piece's overflow or 0/0: IEEE's inf and nan, as C's, silently
                return self._const_eval(node)
        except (ArithmeticError, ValueError, MemoryError) as e:
            raise self.err(node, f"this constant expression cannot be evaluated ({type(e).__name__}: {e})") from None

    def _const_eval(self, node):
        if isinstance(node, c_ast.Constant):
            if node.type in ("int", "unsigned int", "long int", "unsigned long int", "long long int",
                             "unsigned long long int") or node.type.endswith("int"):
                return int(int_literal(node.value))
            if node.type == "char":
                return int(char_literal(node.value))
            # typed as C types them: `0.5f` a float (np.float32), `0.5` a double (np.float64, a Python float too),
            # so that numpy's promotion computes float pieces in float and int-with-float as C converts them
            v = float(float_literal(node.value))
            return np.float32(v) if node.value.lower().endswith("f") else np.float64(v)
        if isinstance(node, c_ast.ID):
            if node.name in self.local_consts:  # shadows a file-scope name
                return self.local_consts[node.name]
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
            if op in ("<<", ">>") and not 0 <= b < 64:
                raise self.err(node, f"shift count {b} is out of range (0 to 63)")
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
            if isinstance(t, np.dtype) and t.kind == "f":
                return t.type(v)  # `(float)x` rounds to float, `(double)x` widens
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
                return sizeof(getattr(ent, "array", None) or ent[2])  # a local array: its size, not a pointer's
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
        saved, self.local_consts = self.local_consts, {}
        try:
            FnCompiler(self, cf, fd).compile()
        except BaseException:
            del self.funcs[name]  # half built: the next run (this compiler is cached) says the same error
            raise
        finally:
            self.local_consts = saved
        return cf


def _ids(node):
    """The c_ast.ID nodes under `node` (iteratively: deep expressions)."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, c_ast.ID):
            yield n
        todo.extend(ch for _, ch in n.children())


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


class ArrayEntry(tuple):
    """A local array's scope entry: ("local", slot, pointer to its element), as its uses decay to;
    `array`, its own type, for sizeof."""

    def __new__(cls, entry, array):
        self = super().__new__(cls, entry)
        self.array = array
        return self


class FnCompiler(StatementCompiler, ExpressionCompiler, StoreCompiler, CallCompiler, VectorCompiler, StructCompiler,
                 OperatorCompiler, BitCopyCompiler):
    """Compiles one function: its parameters and declarations here, the rest in the mixins."""

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
        self.const_slots: set[int] = set()  # locals declared const (their address is read-only: addressed.py)
        self.definite: set[int] = set()  # id() of declarations every path assigns before a read (definite.py)
        self.definite_slots: set[int] = set()  # their slots: a first assignment marks nothing (undefined.py)
        if c.file_shared:  # the file-scope `__shared__` variables the function names: declared in its scope
            named = {n.name for n in _ids(fd)}
            for name, d in c.file_shared.items():
                if name in named:
                    self.s_Decl(d)

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
                if p.name in attrs and attrs[p.name][0] == self.c.be.dynamic_shared_attribute:
                    # Metal's dynamic threadgroup memory (CUDA's extern __shared__): the block's
                    # dynamic shared buffer, sized by the launch (run_kernel's shared_bytes)
                    self._threadgroup_param(p, t, attrs[p.name][1])
                    cf.param_builtins[s] = ("dynamic_shared", None)
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
                if "const" in (p.quals or []):
                    self.const_slots.add(s)
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
        be = self.c.be
        if name in (be.argument_attribute, be.dynamic_shared_attribute):
            return None
        for c in dialect.CONCEPTS:
            a = c.attribute(self.c.backend)
            if a and a[1] == name:
                comp = None if isinstance(t, StructT) else 0
                return (c.key, comp)
        if name in be.derived_builtin_attributes:
            return (be.derived_builtin_attributes[name], None if isinstance(t, StructT) else 0)
        raise self.err(node, f"unsupported {be.name} attribute [[{name}]]")

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
            if isinstance(t, ArrT) and t.n is None:  # (`extern` of a complete type: nvcc's static definition, #20044)
                self.scope.add(node.name, ("dyn", None, t, node))
                self.c.dynamic_shared.append((node.name, t))
            else:
                if row_scalar(t) is None:
                    raise self.err(node, f"shared variable `{node.name}` of struct type: the emulator holds shared "
                                         "arrays of numbers and of vector types (float2, uint4, ...) only")
                self.c.static_shared[id(node)] = (node.name, t, self.pos(node)[0])
                self.scope.add(node.name, ("shared", id(node), t, node))
            return None
        if isinstance(t, ArrT):
            return self._local_array(node, t, storage)
        if isinstance(t, StructT) and vector_row(t) is not None:
            return self.vector_decl(node, t)
        if is_struct(t):
            return self.struct_decl(node, t)
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
            if "const" in (node.quals or []) and isinstance(t, np.dtype) and t.kind in "iuf" and t.itemsize >= 4:
                # nvcc folds `const` locals, float and double ones too, into array bounds (`float a[nMax + 1]` with
                # `const int nMax = (t1 - t0) / dt` over `const double`s or `const float`s); const_eval types its
                # values as C does (float pieces in np.float32, doubles in np.float64), so each rounds as C's
                try:
                    v = self.c.const_eval(init_node)
                    self.c.local_consts[node.name] = int(v) if t.kind in "iu" else t.type(v)
                except (EmulatorError, OverflowError, ValueError):  # (an int local of an inf or nan: int() fails)
                    self.c.local_consts.pop(node.name, None)  # a run-time value: no array length
        self.scope.add(node.name, ("local", s, t))
        if "const" in (node.quals or []):
            self.const_slots.add(s)
        conv_fn = self._converter(t)
        if init is None and id(node) in self.definite:
            self.definite_slots.add(s)

            def plain(fr, m):
                fr.env[s] = None
        elif init is None:
            def plain(fr, m):
                fr.env[s] = None
                fr.tmp[("declared", s)] = m  # (the lanes a first assignment leaves unwritten: emulator.undefined)
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
                if isinstance(val, VecVal):
                    raise EmulatorError("a vector assigned to a scalar variable", g.ctx.path)
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
        rows = row_scalar(t)  # `float4 rhs[8]`: 8 rows of 4 floats, as a shared array of vectors is
        if rows is None:
            raise self.err(node, "arrays of structs are not supported by the emulator yet")
        elem, row = rows
        if row and node.init is not None:
            raise self.err(node, "an initialised local array of vector types is not supported by the emulator yet")
        count = scalar_count(t)
        dims = inner_dims(t)[1:] + row
        init_vals = None
        if node.init is not None:
            init_vals = self._flat_init(node.init, count)
        s = self.slot()
        self.scope.add(node.name, ArrayEntry(("local", s, PtrT(t.elem)), t))
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
            if init_fns is None:  # no element written yet (emulator.undefined)
                undefined.unwritten(buf, base)
            p = Pointer(buf, elem, base, np.int64(0), count, dims)
            if init_fns is not None:
                view = buf.data.reshape(n, count)
                for k, v in enumerate(consts):
                    if callable(v):
                        val, e = convert(v(fr, m), elem, g.ctx.track)
                        view[:, k] = conv(val, elem)
                        if e is not None and buf.track:  # (the element's bound, as a store gives it)
                            buf.err_for_store().reshape(n, count)[:, k] = e
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
