"""The macro repair's trial parses and CPU as a file's error sites grow, beside another checkout.

    python bench/repair_sites.py [--sites 10,20,40,80] [--against CHECKOUT] [--file F ...]

A generated class template (tests/test_repair_trials.py's `_header`, copied below): n constructors behind an
attribute macro the file does not define (an error the repair cannot mend, as a header read
without its includer's macros) and n `= delete`d member templates (a grammar gap it masks).  Each
size is parsed with the repair in a fresh child process per checkout: the parses tried, the
`= delete`s masked (all n where the repair is not cut by its bound of 160 parses), the errors
left and the CPU seconds.  --file: the same for real files (their own macros and the toolkit's).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def header(n: int) -> str:
    """tests/test_repair_trials.py's class template with n of each (kept here: main's checkout has no such test)."""
    parts = ["#pragma once\nnamespace ns {\ntemplate <typename T> class Arr {\npublic:\n"]
    for i in range(n):
        parts.append(f"    cu_host inline Arr(const int n{i})\n        : p_(nullptr), n_(n{i}) {{\n        grow();\n    }}\n"
                     f"    template <class V> Arr& operator+=(const V& v{i}) = delete;\n")
    return "".join(parts) + "private:\n    T* p_;\n    int n_;\n};\n}\n"


def child(code: str, n: int, path: str | None) -> dict:
    sys.path.insert(0, code)
    from kernelport import source
    from kernelport.macro_sites import error_sites
    text = Path(path).read_text() if path else header(n)
    real = source._parser()
    parses = []

    class Counting:
        def parse(self, *a):
            parses.append(1)
            return real.parse(*a)
    source._parser = lambda: Counting()
    c0 = time.process_time()
    got = source.SourceFile._parse(text, path or "arr.hpp", None)
    cpu = time.process_time() - c0
    return {"lines": text.count("\n"), "parses": len(parses), "deletes": sum(m.name == "= delete" for m in got.masks),
            "masks": len(got.masks), "errors": len(error_sites(got.tree)), "cpu": cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sites", default="10,20,40,80")
    ap.add_argument("--against", metavar="CHECKOUT")
    ap.add_argument("--file", action="append", default=[])
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        code, n, path = args.child
        print(json.dumps(child(code, int(n), path or None)))
        return
    codes = [str(ROOT)] + ([str(Path(args.against).resolve())] if args.against else [])
    cases = [(int(n), "") for n in args.sites.split(",") if n] + [(0, f) for f in args.file]
    for n, f in cases:
        for code in codes:
            out = subprocess.run([sys.executable, "-P", __file__, "--child", code, str(n), f],
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out.splitlines()[-1])
            what = f or f"{n} sites"
            print(f"{code}: {what} ({r['lines']} lines): {r['parses']} parses, {r['masks']} masks "
                  f"({r['deletes']} `= delete`), {r['errors']} errors left, {r['cpu']:.2f} s CPU", flush=True)


if __name__ == "__main__":
    main()
