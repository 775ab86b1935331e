"""How often translate ports each file over a tree (each file alone, --to hip): `translate.port_file` calls, their CPU,
those that port a file already ported in another file's project and how many of those give the same port body.

    python bench/port_repeats.py CHECKOUT [TREE]
"""
import sys, time, collections
code = sys.argv[1]; sys.path.insert(0, code)
from pathlib import Path
from kernelport import translate
from kernelport.errors import KernelportError
import kernelport.project_ports as pp
from kernelport.source import SourceFile
orig = translate.port_file
calls = []
def wrapped(src, backend, *a, **k):
    c = time.process_time(); r = orig(src, backend, *a, **k); calls.append((str(Path(src.path).resolve()), hash(src.text), time.process_time() - c, hash(r[0].body)))
    return r
translate.port_file = wrapped
files = pp.expand([Path(sys.argv[2] if len(sys.argv) > 2 else "tests/realcorpus")])
given = {str(f.resolve()) for f in files}
c0 = time.process_time()
for f in files:
    try:
        src = SourceFile.read(f); src.check_syntax(); pp.make(pp.single(f, src), ["hip"], None, True)
    except KernelportError:
        pass
tot = time.process_time() - c0
per = collections.Counter(c[0] for c in calls)
hdr = [c for c in calls if per[c[0]] > 1]
print(f"total {tot:.1f} s CPU; port_file calls {len(calls)} of {len(per)} files, {sum(c[2] for c in calls):.1f} s")
print(f"files ported more than once: {sum(1 for p in per if per[p] > 1)}, their calls {len(hdr)}, {sum(c[2] for c in hdr):.1f} s")
firsts = {}
rep = 0.0; same_out = 0
for c in calls:
    if c[0] in firsts:
        rep += c[2]; same_out += firsts[c[0]] == c[3]
    else:
        firsts[c[0]] = c[3]
print(f"calls after a file's first: {len(calls) - len(firsts)}, {rep:.1f} s; with the same output text as its first: {same_out}")
for p, n in per.most_common(8): print(n, p.replace(str(Path.cwd()) + '/', ''))
