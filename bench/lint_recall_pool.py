"""Pool the per-set summaries of bench/lint_recall.py runs into one figure.

    for s in labelled labelled_heldout labelled4 ... labelled11; do echo "== $s";
        python bench/lint_recall.py --labels tests/$s/labels.tsv --kernelport EXE -j 2; done > runs.txt
    python bench/lint_recall_pool.py runs.txt

Sums the found / labelled hazard lines, the look-alikes flagged, the consistent lines flagged and the
unlabelled lines flagged over every `== SET` block of the file (the text form of lint_recall.py).
"""
import re, sys
text = open(sys.argv[1]).read()
tp = hz = fp = un = cf = cn = 0
ctx_hz = ctx_la = 0  # labels named only as a finding's context (stop 50: not counted; absent before)
sets = []
for block in text.split("== ")[1:]:
    name = block.split("\n")[0].strip()
    m = re.search(r"  lint   recall [\d.]+ \((\d+)/(\d+)\).*?precision [\d.]+ \((\d+) look-alikes? flagged\)\s+consistent flagged (\d+)/(\d+)", block)
    u = re.search(r"lint flagged (\d+) unlabelled lines", block)
    a, b, f, c1, c2 = map(int, m.groups())
    c = re.search(r"named as context only \(not counted\): (\d+) hazards, (\d+) look-alikes", block)
    if c:
        ctx_hz += int(c.group(1)); ctx_la += int(c.group(2))
    tp += a; hz += b; fp += f; un += int(u.group(1)); cf += c1; cn += c2
    sets.append(f"{name} {a}/{b}")
prec = tp / (tp + fp) if tp + fp else 1.0
print(f"== pooled over {len(sets)} sets ({', '.join(sets)})")
print(f"  lint   recall {tp/hz:.3f} ({tp}/{hz})  precision {prec:.3f} ({fp} look-alikes flagged)  consistent flagged {cf}/{cn}  unlabelled flagged lines {un}"
      f"  named as context only {ctx_hz} hazards, {ctx_la} look-alikes")
