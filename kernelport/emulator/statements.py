"""Statements of a function body: each compiles to (fn, is_gen, may_exit), fn a function of
(frame, mask); control flow is masks (see lanes.Frame), and statements that can reach a barrier
(or, in the thread schedule, a warp collective) are generators."""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from . import flips
from .compaction import compaction, run_compacted
from .definite import assigned_before_read
from .ctype import AUTO, vector_row
from .errors import EmulatorError
from .expressions import isarr
from .lanes import live, merge
from .ops import truth
from .undefined import decide


class StatementCompiler:
    """FnCompiler's statements (a mixin: declarations are compiled by FnCompiler itself)."""

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
        body = node.block_items or []
        for i, it in enumerate(body):  # locals every path assigns before a read: never marked (emulator.definite)
            for d in it.decls if isinstance(it, c_ast.DeclList) else [it] if isinstance(it, c_ast.Decl) else ():
                if d.init is None and d.name and assigned_before_read(body[i + 1:], d.name):
                    self.definite.add(id(d))
        for it in body:
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

    def s_Typedef(self, node):
        """A block-scope typedef (`typedef int PackedType;` in a kernel body) names its type from
        here on; the emulator keeps one type per typedef name in a file, so a second that differs
        is refused."""
        from pycparser import c_generator
        tr, gen = self.c.tr, c_generator.CGenerator()
        prev = tr.typedefs.get(node.name)
        if prev is not None and gen.visit(prev) != gen.visit(node.type):
            raise self.err(node, f"typedef {node.name} names two different types in this file")
        tr.typedefs[node.name] = node.type
        tr.cache.pop(node.name, None)
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
        definite = self.definite_slots
        effects = flips.has_effects(node.iftrue, node.iffalse)

        def branch(fr, br, cp, t):
            if cp is not None:
                idx = compaction(fr.g, t, fr.g.W, cp[0])
                if idx is not None:
                    if idx.shape[0]:
                        run_compacted(br, fr, t, idx, cp[1], not cp[0], definite)
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
            cv = cond(fr, m)
            c = truth(decide(cv[0], m, fr.g, node, "this branch"))
            if cv[1] is not None:
                flips.decided(fr.g, node.cond, cv, m, "this branch", effects)
            if not isarr(c):
                br = then if c else els
                if br is not None:
                    if br[1]:
                        yield from br[0](fr, m)
                    else:
                        br[0](fr, m)
                return
            w = fr.g.ctx.writes  # (global races: the two sides of a divergent branch are unordered)
            sides = w.sides if w is not None and then is not None and els is not None else None
            if then is not None:
                if sides is not None:
                    sides.push(fr.g, node, True)
                yield from branch(fr, then, then_cp, c if m is fr.g.full else m & c)
                if sides is not None:
                    sides.pop(fr.g)
            if els is not None:
                if sides is not None:
                    sides.push(fr.g, node, False)
                yield from branch(fr, els, els_cp, m & ~c)
                if sides is not None:
                    sides.pop(fr.g)

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
        effects = flips.has_effects(body_node, next_node)

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
                    cv = cond(fr, act)
                    c = truth(decide(cv[0], act, fr.g, node, "this loop"))
                    if cv[1] is not None:
                        flips.decided(fr.g, cond_node, cv, act, "this loop", effects)
                    if isarr(c):
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
                g.ctx.step(line)
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
        row = vector_row(rt) if rt is not AUTO else None
        if row is not None:  # `return *(const float4*)p;`: the row is read at the return, by value
            from .vectors import vector_value
            cv = lambda v, g, m: vector_value(v, *row, g, m, node, self.pos)  # noqa: E731

        def plain(fr, m):
            v = cv(f(fr, m), fr.g, m) if row is not None else cv(f(fr, m), fr.g)
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
            cv = cond(fr, m)
            v = decide(cv[0], m, fr.g, node, "this switch")
            if cv[1] is not None and not np.iscomplexobj(cv[1]):
                flips.decided(fr.g, node.cond, cv, m, "this switch", True)
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
