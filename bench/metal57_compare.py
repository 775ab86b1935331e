"""Metal columns of two scoreboard runs side by side: python bench/metal57_compare.py [--tag metal58] 53 54 ...
(reads bench/scoreboard_heldoutN_<tag>_{main,after}.json, tag metal57 by default): written / pass / refused /
other, and each row that moved."""
import json, re, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
def load(p):
    d = json.load(open(p)); return {(r['project'], r['file']): r for r in d['rows']}
def locs(r):
    return sorted(set(re.findall(r"KP2\d\d", r.get('metal_codes') or '')))
def counts(rows):
    w = sum(r['metal'] == 'written' for r in rows.values())
    p = sum(r['metal'] == 'written' and r['checker'] == 'pass' for r in rows.values())
    ref = sum(r['metal'] == 'refused' for r in rows.values())
    other = len(rows) - w - ref
    return w, p, ref, other, len(rows)
args = sys.argv[1:]
tag = args[args.index('--tag') + 1] if '--tag' in args else 'metal57'
for n in [a for i, a in enumerate(args) if a != '--tag' and (i == 0 or args[i - 1] != '--tag')]:
    a, b = load(HERE / f'scoreboard_heldout{n}_{tag}_main.json'), load(HERE / f'scoreboard_heldout{n}_{tag}_after.json')
    ca, cb = counts(a), counts(b)
    print(f"heldout{n}  main {ca[0]} / {ca[1]} / {ca[2]} / {ca[3]} of {ca[4]}   branch {cb[0]} / {cb[1]} / {cb[2]} / {cb[3]} of {cb[4]}")
    for k in sorted(set(a) | set(b)):
        ra, rb = a.get(k), b.get(k)
        sa = (ra['metal'], ra['checker'], ra['metal_codes']) if ra else None
        sb = (rb['metal'], rb['checker'], rb['metal_codes']) if rb else None
        if sa != sb:
            print(f"   {k[0]}/{k[1]}: {sa} -> {sb}")
            if rb and rb['metal'] != 'written':
                print(f"      branch: {(rb['metal_error'] or '')[:260]}")
