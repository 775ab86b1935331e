"""Threads started and CPU of translate --to hip over a tree, each file alone.

    python bench/thread_starts.py CHECKOUT TREE
"""
import sys, time, threading
code = sys.argv[1]; sys.path.insert(0, code)
from pathlib import Path
n = [0]; orig = threading.Thread.start
def start(self): n[0] += 1; return orig(self)
threading.Thread.start = start
from kernelport.errors import KernelportError
import kernelport.project_ports as pp
from kernelport.source import SourceFile
import kernelport.lint.engine, kernelport.templates  # noqa
files = pp.expand([Path(sys.argv[2])])
c0, w0 = time.process_time(), time.perf_counter()
for f in files:
    try:
        src = SourceFile.read(f); src.check_syntax(); pp.make(pp.single(f, src), ["hip"], None, True)
    except KernelportError:
        pass
print(f"{code}: {len(files)} files, threads started {n[0]}, {time.process_time() - c0:.2f} s CPU, {time.perf_counter() - w0:.1f} s wall")
