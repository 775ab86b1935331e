"""The self-check's lints of the ports, by why each port was linted, with their thread CPU.

    python -P bench/port_lint_kinds.py [--code CHECKOUT] [--to hip] [DIR]

Translate lints a port unless it is its original's text or the original under renames lint reads alike
(kernelport/renamed_ports.py).  Each port's lint of the one command `translate DIR --to ... --stdout` is
put in one class: `renames` (the text is the original's up to names; the names listed are every rename
`_read_alike` refuses in it: what readers reading both spellings would save), `includes` (the same up to names
once every angled include is set aside, those inside conditionals too, which hipbuild reads), else `code`
(the port changes more than names).  Stop 55 counted 75 of 126 as renames by a coarser test.
"""
from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s shared modules (under -P too)
from checkout_tree import arguments, drive  # noqa: E402


def main() -> None:
    args = arguments(__doc__)
    from kernelport import renamed_ports
    from kernelport.lint import engine
    import re
    refused: list[tuple[str, str]] = []
    texts: list[tuple[str, str]] = []  # the last (original, port body) the self-check compared
    read_alike, lint_text, alike = renamed_ports._read_alike, engine.lint_text, renamed_ports.alike
    angled = re.compile(r"(?m)^[ \t]*#[ \t]*include[ \t]*<[^>\n]*>[ \t]*\n")

    def compared(src, body, prologue, backend):
        texts[:] = [(src.text, body)]
        return alike(src, body, prologue, backend)

    asked: list[tuple[str, str]] = []  # the texts renamed_only compared (the runs of angled includes set aside)
    renamed_only = renamed_ports.renamed_only

    def compared_names(o, p, prologue, backend):
        asked[:] = [(o, p)]
        return renamed_only(o, p, prologue, backend)

    def names_and_includes(o: str, p: str) -> bool:
        o, p = (angled.sub("", renamed_ports._LOCAL_INCLUDE.sub(r"\1", t)) for t in (o, p))
        return renamed_ports._NAME.split(o) == renamed_ports._NAME.split(p)

    def watched(a, b, backend, table):
        ok = read_alike(a, b, backend, table)
        if not ok and not refused:  # renamed_only stops at the first: every other rename asked too
            refused.append((a, b))
            o, p = (renamed_ports._LOCAL_INCLUDE.sub(r"\1", t) for t in asked[0]) if asked else ("", "")
            pairs = set(zip(renamed_ports._NAME.findall(o), renamed_ports._NAME.findall(p)))
            refused.extend(sorted((x, y) for x, y in pairs if x != y and (x, y) != (a, b) and
                                  not read_alike(x, y, backend, table)))
        return ok

    n: collections.Counter = collections.Counter()
    cpu: collections.Counter = collections.Counter()

    def timed(text, path, *a, **k):
        c0 = time.thread_time()
        got = lint_text(text, path, *a, **k)
        if k.get("parsed") is None:  # a port's lint (the original's reads translate's parse)
            kind = ("renames", tuple(sorted({x for x, _ in refused}))) if refused else \
                ("includes", None) if texts and names_and_includes(*texts[0]) else ("code", None)
            n[kind] += 1
            cpu[kind] += time.thread_time() - c0
        refused.clear()
        texts.clear()
        asked.clear()
        return got
    renamed_ports._read_alike, engine.lint_text, renamed_ports.alike = watched, timed, compared
    renamed_ports.renamed_only = compared_names
    drive(args.tree, args.to, False)
    print(f"{args.code.resolve()}: translate {args.tree} --to {args.to} (one command): {sum(n.values())} ports' lints, "
          f"{sum(cpu.values()):.2f} s thread CPU")
    for kind, c in sorted(n.items(), key=lambda kc: -cpu[kc[0]]):
        print(f"{c:5d} {cpu[kind]:7.2f} s  {kind[0]:8s} {'' if kind[1] is None else ', '.join(kind[1])}")


if __name__ == "__main__":
    main()
