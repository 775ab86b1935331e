"""tree-sitter queries (run in C by py-tree-sitter's QueryCursor) against the node index's cursor walk
and its look-ups, over the parses of a tree: what moving per-node work into compiled queries buys.

    python bench/query_index.py [DIR ...] [--rounds 3]

Each file is parsed as lint parses it (`SourceFile.read`); then, per round, thread CPU of:
the node index (`NodeIndex(root)`, one cursor pass: pre-order, kinds, depth), the query `_ @n` (every
node, what the index holds), one alternation of the node types lint asks the index for (counted in one
`lint -j 1` run over tests/realcorpus and examples, stop 55), one of two types, and a candidate search
(calls whose callee is one of a few names) as a compiled query with `#any-of?` against the index's
look-up (`of_type` and each node's text), the index already built as every lint run builds it.
Exactness: whether each query captured the nodes the index holds, and in which order.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The types lint asked the index for over tests/realcorpus and examples (46; 45 of them in the grammar: asm_statement is not).
ASKED = """call_expression init_declarator identifier assignment_expression preproc_def binary_expression template_type
declaration return_statement expression_statement preproc_function_def preproc_include template_argument_list
goto_statement field_expression subscript_expression preproc_if field_declaration comment preproc_ifdef preproc_elif
type_identifier primitive_type function_definition for_statement array_declarator template_declaration
using_declaration namespace_alias_definition gnu_asm_expression preproc_elifdef preproc_call type_definition
alias_declaration parameter_declaration number_literal static_assert_declaration update_expression class_specifier
struct_specifier compound_statement while_statement do_statement field_initializer gnu_asm_output_operand""".split()
NAMES = ("__syncthreads", "__syncwarp", "__shfl_sync", "__shfl_down_sync", "__ballot_sync")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", default=["tests/realcorpus", "examples"])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from tree_sitter import Language, Query, QueryCursor
    import tree_sitter_cuda
    from kernelport.lint.discovery import kind
    from kernelport.source import NodeIndex, SourceFile
    lang = Language(tree_sitter_cuda.language())
    files = sorted(p for d in args.dirs for p in (ROOT / d).rglob("*") if p.is_file() and kind(p) is not None)
    srcs = [SourceFile.read(f) for f in files]
    roots = [s.root for s in srcs]
    every = Query(lang, "_ @n (ERROR) @n")  # (the wildcard skips ERROR nodes)
    asked = Query(lang, "[" + " ".join(f"({t})" for t in ASKED) + "] @n")
    two = Query(lang, "[(call_expression) (identifier)] @n")
    names = " ".join(f'"{n}"' for n in NAMES)
    calls = Query(lang, f'(call_expression function: (identifier) @f (#any-of? @f {names})) @call')
    indexes = [s.index for s in srcs]  # (built once per parse, as lint builds it)

    def by_index():
        return [[n for n in ix.of_type("call_expression")
                 if (f := n.child_by_field_name("function")) is not None and f.type == "identifier"
                 and s.text_of(f) in NAMES] for s, ix in zip(srcs, indexes)]

    def run(query):
        return [QueryCursor(query).captures(r) for r in roots]

    nodes = sum(r.descendant_count for r in roots)
    print(f"{len(files)} files, {sum(len(s.data.splitlines()) for s in srcs)} lines, {nodes} nodes")
    got = run(every)
    same_set = all(sorted(n.id for n in c.get("n", [])) == sorted(n.id for n in ix.order) for c, ix in zip(got, indexes))
    same_order = all(c.get("n", []) == ix.order for c, ix in zip(got, indexes))
    print(f"`_ @n` captures every node the index holds: {same_set}; in the index's pre-order: {same_order}")
    found = [c.get("call", []) for c in run(calls)]
    listed = by_index()
    print(f"calls by name: query {sum(map(len, found))}, index {sum(map(len, listed))}, the same nodes: "
          f"{all(sorted(n.id for n in a) == sorted(n.id for n in b) for a, b in zip(found, listed))}, "
          f"in the same order: {found == listed}")
    rows = {"node index (cursor walk)": lambda: [NodeIndex(r) for r in roots],
            "query `_ @n`": lambda: run(every),
            f"query of the {len(ASKED)} types lint asks for": lambda: run(asked),
            "query of call_expression, identifier": lambda: run(two),
            "calls by name: compiled query (#any-of?)": lambda: run(calls),
            "calls by name: the index's look-up": by_index}
    best = {k: float("inf") for k in rows}
    for _ in range(args.rounds):
        for name, fn in rows.items():
            t = time.thread_time()
            fn()
            best[name] = min(best[name], time.thread_time() - t)
    for name, s in best.items():
        print(f"{name:48} {s:7.3f} s thread CPU (best of {args.rounds})")


if __name__ == "__main__":
    main()
