"""Calls in a function body: to the file's functions (and C++ overloads), to built-ins and
intrinsics through the dialect table (barriers, warp collectives, atomics, math and bit
operations), and to the C library."""
from __future__ import annotations

import numpy as np
from pycparser import c_ast, c_parser

from .. import dialect
from .frontend.curand_model import INIT_WORD
from . import async_copies, bitbounds, flips, intrinsics as K, order as schedule_order, undefined
from .addressed import addressed_local, copy_back, temporary
from .ctype import AUTO, BOOL, U32, PtrT, base_scalar, conv, vector_row
from .errors import EmulatorError, KernelFault
from .expressions import INDEX_3D, ZERO
from .frontend import AS_TYPE_FN, NS_SEP
from .frontend.ptx import NOT_EMULATED
from .nulls import non_pointer
from .lanes import Frame
from .modf_calls import ModfCalls
from .memory import Pointer
from .ops import truth
from .vectors import VecVal, vector_value

class CallCompiler(ModfCalls):
    """FnCompiler's calls (a mixin)."""

    def e_FuncCall(self, node):
        if not isinstance(node.name, c_ast.ID):
            raise self.err(node, "call through a function pointer")
        name = node.name.name
        args = list(node.args.exprs) if node.args is not None else []
        low = self.c.low
        mine = [name] if name in low.functions else low.overloads.get(name, [])
        if mine and self.scope.lookup(name) is None and not self._own_helper(name):
            counts = {len(a.params) if (a := low.functions[f].decl.type.args) is not None else 0 for f in mine}
            if len(args) not in counts:  # the file's make_uint4(s) (helper_math's make_float4(float3 a, float w))
                made = self.make_vector(name, args, node)  # beside the built-in make_uint4(x, y, z, w)
                if made is not None:
                    return made
            return self._user_call(name, args, node) if name in low.functions else \
                self._overloaded_call(name, args, node)
        if name == AS_TYPE_FN:
            return self._as_type_call(args, node)
        if name == NOT_EMULATED:  # frontend/ptx.py: an instruction outside its table
            raise self.err(node, f"inline PTX `{args[0].value.strip(chr(34))}` not emulated (its table is "
                                 f"kernelport/emulator/frontend/ptx.py; hint: give the kernel a C version of it)")
        explicit = self.c.be.explicit_atomics.get(name)
        if explicit is not None:
            return self._explicit_atomic_call(name, *explicit, args, node)
        made = self.make_vector(name, args, node) or self.half2_call(name, args, node)
        if made is not None:
            return made
        spelled = name.replace(NS_SEP, "::")
        hit = self.c.spelled_by(spelled) or self._scoped_atomic(spelled)
        if hit is not None:
            return self._concept_call(hit[0], hit[1], args, node)
        if name in K.C_LIBRARY:
            return self._clib_call(name, args, node)
        scope, _, fn = spelled.rpartition("::")
        c_name = K.SCOPED_MATH.get(fn, fn + "f")
        if scope in self.c.be.math_scopes and c_name in K.C_LIBRARY:  # Metal's `precise::fmod(x, y)`
            return self._clib_call(c_name, args, node)
        lib = dialect.library_call(self.c.backend, spelled)
        if lib is not None:  # a library's warp helper not in the file (PyTorch's WARP_SHFL): its meaning
            concept, names, required = lib
            if not required <= len(args) <= len(names):
                raise self.err(node, f"`{spelled}` called with {len(args)} arguments (it takes {required} to "
                                     f"{len(names)})")
            bound = {p: None for p in concept.params}
            bound.update(zip(names, args))
            return self._concept_call(concept, self.c.backend, args, node, bound)
        if name == INIT_WORD:  # frontend/curand_model.py's curand_init: the state (emulator.xorwow)
            from .xorwow import init_word_call
            return init_word_call(self, args, node)
        if name in ("malloc", "free") and len(args) == 1:  # device heap (emulator.heap)
            return self._heap_call(name, args[0], node)
        if name == "memcpy":  # <string.h>'s, left out with the headers: a bit copy (bitcopy.py)
            return self.memcpy_call(args, node)
        if name in ("assert", "printf"):  # <assert.h>, <stdio.h>: left out with the headers
            return self._assert_call(args, node) if name == "assert" else (lambda fr, m: ZERO)
        if name in async_copies.NAMES:  # <cuda_pipeline.h>'s primitives (the file defines none of its own)
            return async_copies.call(self, name, args, node)
        if name in ("__trap", "__builtin_trap") and not args:  # CUDA's trap (HIP's spelling): a lane that runs it faults
            return self._assert_call([c_ast.Constant("int", "0", node.coord)], node)
        raise self.err(node, f"unknown function `{spelled}` (not in the dialect table, not a C library function, "
                             f"not defined in the file)")

    def _scoped_atomic(self, spelled: str):
        """`atomicAdd_system(p, v)`: the scoped form of an atomic (the backend's `atomic_scopes`) as that
        atomic's concept; a name whose stem is no atomic stays unknown."""
        for suffix in self.c.be.lowering.atomic_scopes:
            if spelled.endswith(suffix):
                hit = self.c.spelled_by(spelled[: -len(suffix)])
                if hit is not None and hit[0].kind == "atomic":
                    return hit
        return None

    def _heap_call(self, name, arg, node):
        from . import heap
        fa, line = self.ex(arg), self.pos(node)[0]
        if name == "malloc":
            return lambda fr, m: heap.malloc(fr.g, fa(fr, m)[0], m, node, line)

        def free(fr, m):
            heap.free(fr.g, fa(fr, m), m, node)
            return ZERO
        return free

    def _assert_call(self, args, node):
        """Device `assert(cond)`: a lane whose condition is false stops the kernel (a fault of the
        code on these inputs, as the GPU's trap is); `printf` prints nothing and returns 0."""
        if len(args) != 1:
            raise self.err(node, f"assert takes 1 argument, {len(args)} given")
        cond = self.ex(args[0])
        from pycparser import c_generator
        text = c_generator.CGenerator().visit(args[0])
        line, col = self.pos(node)

        def f(fr, m):
            c = truth(undefined.decide(cond(fr, m)[0], m, fr.g, node, "this assertion"))
            bad = ~c & m if isinstance(c, np.ndarray) and c.ndim else (m if not c else None)
            if bad is not None and np.any(bad):
                lane = int(np.flatnonzero(np.broadcast_to(bad, fr.g.full.shape))[0])
                raise KernelFault(f"assertion `{text}` failed (in lane {lane} of the run)", fr.g.ctx.path,
                                  line, col)
            return ZERO
        return f

    def _own_helper(self, name: str) -> bool:
        """kernelport's own helpers (`kp_syncwarp`) that spell a concept of this backend are that
        concept: their bodies are target intrinsics (`__builtin_amdgcn_wave_barrier`); so are the prologue's
        overloads of the target's own functions for more types (Metal's 64-bit simd_shuffle)."""
        return (name.startswith("kp_") or name in self.c.be.builtin_overloads) and self.c.spelled_by(name) is not None

    def _param_converter(self, t, node):
        """The value a parameter of type t holds from its argument: a vector parameter (float2
        passed by value, `a[i]` of a float2 buffer or a vector variable) holds its components."""
        row = vector_row(t) if t is not AUTO else None
        copied = self.by_value(t, node) if t is not AUTO else None
        if copied is not None:
            return copied
        if row is not None:
            dt, n = row
            return lambda v, g, m: vector_value(v, dt, n, g, m, node, self.pos)
        cv = self._converter(t) if t is not AUTO else (lambda v, g: v)
        return lambda v, g, m: cv(v, g)

    def _user_call(self, name, args, node):
        cf = self.c.function(name)
        self.warp_ops |= cf.warp_ops
        self.local_arr |= cf.local_arr
        args = args + self._default_args(name, len(args), len(cf.params), node)
        refs = self.c.low.refs.get(name, ())
        # `&x` of a local: a temporary the callee writes through, copied back to x (emulator.addressed)
        addressed = {i: at for i, a in enumerate(args) if i not in refs and (at := addressed_local(self, a))}
        if addressed and isinstance(cf.ret_type, PtrT):  # it may point into the temporary, gone at the return
            raise self.err(node, f"{name}() returns a pointer and is given a local's address (`&x`): the emulator "
                           "keeps locals in registers, so a pointer into x cannot outlive the call (not yet)")
        # a variable passed to a reference parameter may be unset yet (the callee assigns it)
        argfns = [temporary(*addressed[i], a.expr.name, self.pos(a)[0], node, self.pos(a)) if i in addressed
                  else self._unset_ok(a) if i in refs else self.ex(a) for i, a in enumerate(args)]
        if len(argfns) != len(cf.params):
            raise self.err(node, f"{name} takes {len(cf.params)} arguments, {len(argfns)} given")
        convs = [self._param_converter(t, node) for _, t, _ in cf.params]
        params = cf.params

        def bind(fr, m):
            g = fr.g
            callee = Frame(g, cf.nslots)
            for i, ((pname, t, s), af, cv) in enumerate(zip(params, argfns, convs)):
                v = af(fr, m)
                callee.env[s] = cv(v, g, m) if v is not None else None
                if i in addressed:
                    callee.tmp[("addressed", i)] = v[0]
            return callee

        # reference parameters: the callee's final value goes back to the caller's argument
        backs = [(params[i][2], self._store(self.lvalue(args[i]), node))
                 for i in sorted(self.c.low.refs.get(name, ())) if i < len(args)]

        backs_addressed = [(i, addressed[i][1], self._store(self.lvalue(args[i].expr), node), self.pos(args[i]))
                           for i in addressed]

        def result(callee, fr=None, m=None):
            for s, st in backs:
                if callee.env[s] is not None:
                    st(fr, m, callee.env[s])
            for i, t, st, pos in backs_addressed:
                st(fr, m, copy_back(callee.tmp[("addressed", i)], t, fr.g, m, node, pos))
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
                fr.tmp[k] = result(callee, fr, m)

            self.pres.append(pre)
            return lambda fr, m: fr.tmp[k]

        def call(fr, m):
            callee = bind(fr, m)
            for _ in cf.body(callee, m):
                raise EmulatorError("internal: a non-synchronising function yielded", fr.g.ctx.path)
            return result(callee, fr, m)
        return call

    def _unset_ok(self, arg):
        """The value of a local variable, None while it is unset; any other argument as usual."""
        ent = self.scope.lookup(arg.name) if isinstance(arg, c_ast.ID) else None
        if ent is None or ent[0] != "local":
            return self.ex(arg)
        s = ent[1]
        self.used.add(s)
        return lambda fr, m: fr.env[s]

    def _default_args(self, name, given, wanted, node):
        """The C++ default values of the parameters a call leaves out, as expressions of the
        caller (an instance `f__kp0` of a template has the defaults of `f`)."""
        if given >= wanted:
            return []
        dflt = self.c.low.defaults.get(name) or self.c.low.defaults.get(name.split("__kp")[0], {})
        out = []
        for i in range(given, wanted):
            if i not in dflt:
                return []   # the count check below reports the call
            try:
                ast = c_parser.CParser().parse(f"void __kp_default(void) {{ ({dflt[i]}); }}")
            except c_parser.ParseError:
                raise self.err(node, f"default argument `{dflt[i]}` of {name} is not supported by the emulator")
            expr = ast.ext[0].body.block_items[0]
            for n in _walk(expr):
                n.coord = node.coord
            out.append(expr)
        return out

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
            convs = [self._param_converter(t, node) for _, t, _ in cfn.params]

            def call(fr, m, vals):
                g = fr.g
                callee = Frame(g, cfn.nslots)
                for (_, _, s), v, cv in zip(cfn.params, vals, convs):
                    callee.env[s] = cv(v, g, m)
                for _ in cfn.body(callee, m):
                    raise EmulatorError("internal: a non-synchronising function yielded", g.ctx.path)
                return callee.retval if callee.retval is not None else ZERO
            return call

        calls = [caller(cfn) for cfn in cands]

        def score(cfn, vals):
            total = 0
            for (_, t, _), v in zip(cfn.params, vals):
                row = vector_row(t) if t is not AUTO and not isinstance(t, (PtrT, np.dtype)) else None
                if isinstance(v, VecVal) or row is not None:  # a vector argument takes a vector of its width
                    if not (isinstance(v, VecVal) and row is not None and len(v) == row[1]):
                        return -1
                    total += 3 if np.asarray(v[0][0]).dtype == row[0] else 1
                    continue
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
            key = tuple(("vector", len(v), np.asarray(v[0][0]).dtype) if isinstance(v, VecVal) else
                        v[0].dt if isinstance(v[0], Pointer) else np.asarray(v[0]).dtype for v in vals)
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
            r = undefined.view_as(v, t) if arr.ndim else arr.reshape(1).view(t)[0]
            # the error bound of a float travels with its bits (a CAS loop on a float's bits)
            return r, (bitbounds.reinterpret(e, arr.dtype, t) if fr.g.ctx.track else None)
        return f if t.kind != "f" else self._bits_to_float(f, node, f"as_type<{t}>")

    def _explicit_atomic_call(self, name, op, want, args, node):
        """Explicit atomics that are not concepts (the backend's `explicit_atomics`: what Metal's
        kp_atomic_* CAS loops use, HIP's `__hip_atomic_fetch_max` of its prologue); op is "load", "store",
        "cas" or a read-modify-write of memory.atomic ("add", "max", ...) that returns the old value."""
        if len(args) != want:
            raise self.err(node, f"`{name}` takes {want} arguments, {len(args)} given")
        fa = self.ex(args[0])

        def ptr(fr, m):
            p = fa(fr, m)[0]
            if not isinstance(p, Pointer):
                raise non_pointer(fr.g, p, m, name, self.pos(node))
            return p

        if op == "load":
            def f(fr, m):
                g = fr.g
                return g.ctx.mem.atomic(g, "load", ptr(fr, m), ZERO, m, node, g.ctx.track)
            return f
        if op not in ("store", "cas"):  # fetch-and-op (the memory order and scope arguments: no effect here)
            fo = self.ex(args[1])

            def f(fr, m):
                g = fr.g
                return g.ctx.mem.atomic(g, op, ptr(fr, m), fo(fr, m), m, node, g.ctx.track)
            return f
        if op == "store":
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
        if kind == "modf":  # the integral part written through the second argument (modf_calls.py)
            return self.modf_call(name, args, node, dt)
        if kind == "frexp":  # the exponent written through the second argument (modf_calls.py)
            return self.frexp_call(name, args, node, dt)
        if kind == "sincos":  # the sine and cosine written through pointers (or MSL's reference: modf_calls.py)
            return self.sincos_call(name, args, node, dt, what == "fast")
        if kind == "ldg" and len(args) == 1:  # a read-only load is p[0], a vector's row included
            return self.ex(c_ast.ArrayRef(args[0], c_ast.Constant("int", "0", coord=node.coord), coord=node.coord))
        if kind == "stg" and len(args) == 2:  # a hinted store is p[0] = v
            return self.ex(c_ast.Assignment("=", c_ast.ArrayRef(args[0], c_ast.Constant("int", "0", coord=node.coord),
                                                                coord=node.coord), args[1], coord=node.coord))
        if kind == "stg":
            raise self.err(node, f"{name} takes (address, value), not {len(args)} arguments")
        argfns = [self.ex(a) for a in args]
        if kind == "ldg":  # a wrong arity: the load's own error
            f0 = argfns[0]

            def f(fr, m):
                p = f0(fr, m)[0]
                return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
            return f
        if kind == "bar_red":
            return self._barrier_call(node, argfns[0] if argfns else None, what)
        if kind == "bits" and dt.kind == "f":
            return self._bits_to_float(lambda fr, m: K.c_library(kind, what, dt, [a(fr, m) for a in argfns],
                                                                 fr.g.ctx.track), node, name)
        return lambda fr, m: K.c_library(kind, what, dt, [a(fr, m) for a in argfns], fr.g.ctx.track)

    @staticmethod
    def _bits_to_float(fn, node, name):
        """fn, a float made of bits; where their bound was lost on the way, the run notes where."""
        def f(fr, m):
            r = fn(fr, m)
            if r[1] is not None and bitbounds.is_lost(r[1]):
                bitbounds.record(fr.g.ctx, node, f"{name} of bits whose bound was not followed")
            return r
        return f

    def _concept_call(self, concept, canon, args, node, bound=None):
        key, kind = concept.key, concept.kind
        bound = bound or dialect.bind(concept, canon, args)
        if bound is None and kind == "atomic" and len(args) >= 2:
            # Metal spells atomics with the address cast to an atomic type: the address is arg 0
            bound = {"address": args[0], "value": args[1]} if key != "atomic_cas" else \
                {"address": args[0], "compare": args[1], "value": args[2]}
        if bound is None and kind == "barrier":
            bound = {}  # Metal spells the memory scope as a fixed argument (mem_flags::...)
        if bound is None:
            raise self.err(node, f"`{node.name.name}` called with {len(args)} arguments "
                                 f"(the dialect table spells {concept.spelling(canon)})")
        if key == "cuda_only___match_all_sync" and bound.get("pred") is not None:
            return self._match_all(bound, node)
        fns = {p: self.ex(a) for p, a in bound.items() if a is not None}
        be = self.c.be
        if kind == "barrier":
            if key == "syncthreads":
                return self._barrier_call(node, None, None)
            if key == "syncwarp":
                return self._syncwarp_call(node, fns.get("mask"))
            return self._fence  # fences: memory is always coherent in the emulator
        if kind in ("shuffle", "vote", "reduction", "warp_reduce") or key in K.MATCHES:
            return self._collective_call(key, fns, node)
        if kind == "bitop":
            f0 = fns["x"]
            overloaded = be.bitops_overloaded
            return lambda fr, m: K.bitop(key, f0(fr, m), overloaded)
        if kind == "atomic":
            op = key.split("_", 1)[1]
            fa, fv, fc = fns["address"], fns["value"], fns.get("compare")

            def f(fr, m):
                g = fr.g
                p = fa(fr, m)[0]
                if not isinstance(p, Pointer):
                    raise non_pointer(g, p, m, "atomic access", self.pos(node))
                if op in ("inc", "dec") and p.dt != U32:  # (CUDA's and HIP's only overload: nvcc refuses others)
                    raise EmulatorError(f"`{node.name.name}` on a pointer to {p.dt}: the wrapping increment and "
                                        "decrement atomics take unsigned int* only (cast the address to it)",
                                        g.ctx.path, *self.pos(node))
                return g.ctx.mem.atomic(g, op, p, fv(fr, m), m, node, g.ctx.track,
                                        None if fc is None else fc(fr, m))
            return f
        if kind == "math":
            order = [p for p in concept.params if p in fns]
            afs = [fns[p] for p in order]
            overloaded = be.math_overloaded
            return lambda fr, m: K.math_concept(key, [a(fr, m) for a in afs], fr.g.ctx.track, overloaded)
        if kind == "index":
            return self._builtin_value(key, None if key not in INDEX_3D else 0, node)
        raise self.err(node, f"concept {key} ({kind}) cannot be executed by the emulator")

    @staticmethod
    def _fence(fr, m):
        """A fence orders nothing the emulator runs out of order; the global race watch (where on)
        takes it as a protocol it cannot see through (GlobalWrites.sync)."""
        if fr.g.ctx.writes is not None:
            fr.g.ctx.writes.sync(fr.g, m)
        return ZERO

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
            if schedule_order.WATCH is not None:  # (the thread schedule gathers its lanes as a collective's)
                schedule_order.WATCH.collective(g, m, node)
            g.ctx.syncwarp(g, m, node, None if mk is None else mk[0])
            return ZERO
        return f

    def _match_all(self, bound, node):
        """`__match_all_sync(mask, v, &pred)`: the collective's mask, and `pred` written through its
        pointer: 1 where every active lane of the warp holds v's bits, else 0 (a local's address: the
        local itself is assigned)."""
        pred = bound["pred"]
        get = self._collective_call("cuda_only___match_all_sync",
                                    {p: self.ex(a) for p, a in bound.items() if a is not None and p != "pred"}, node)
        local = isinstance(pred, c_ast.UnaryOp) and pred.op == "&" and isinstance(pred.expr, c_ast.ID) and \
            (ent := self.scope.lookup(pred.expr.name)) is not None and ent[0] == "local" and not hasattr(ent, "array")
        st = self._store(self.lvalue(pred.expr), node) if local else None
        pf = None if local else self.ex(pred)

        def f(fr, m):
            r = get(fr, m)
            flag = ((np.asarray(r[0]) != 0).astype(np.int32), None)
            if st is not None:
                st(fr, m, flag)
            else:
                g, p = fr.g, pf(fr, m)[0]
                if not isinstance(p, Pointer):
                    raise EmulatorError("__match_all_sync's predicate is not a pointer", g.ctx.path, *self.pos(node))
                g.ctx.mem.store(g, p, flag if p.dt == flag[0].dtype else (flag[0].astype(p.dt), None), m, node,
                                g.ctx.track)
            return r
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
            if schedule_order.WATCH is not None:
                schedule_order.WATCH.collective(g, m, node, args)
            if g.ctx.flip_any or any(type(a) is tuple and a[1] is not None and getattr(a[0], 'dtype', None) == BOOL
                                         for a in args.values()):
                flips.collective(g, args, m, g.W)  # (a tainted lane, or a predicate that may flip: its warp)
            return K.collective(key, args, m, g.W, g.ctx, node)
        return f


def _walk(node):
    yield node
    for _, child in node.children():
        yield from _walk(child)
