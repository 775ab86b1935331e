"""Which held-out HIP ports a change touches: translate each matching source of held-out sets with two
kernelports (the scoreboard's per-file command: `translate FILE --to hip -o TMP` + the manifest's -I/-D)
and compare exit code, first error and the written files (hashed less the checksum line).  Only the
files whose output differs need hipcc again (bench/scoreboard.py --match).

    python -P bench/hip_output_diff.py --main KP --branch KP SET:REGEX [SET:REGEX ...]   # SET under /work
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scoreboard as sb  # noqa: E402


def digest(d):
    h = hashlib.sha256()
    for p in sorted(Path(d).rglob('*')):
        if p.is_file():
            t = re.sub(r'kernelport-checksum: \w+', '', p.read_text(errors='replace'))
            h.update(str(p.relative_to(d)).encode() + t.encode())
    return h.hexdigest()[:12]


args = sys.argv[1:]
KPS = {}
while args and args[0] in ('--main', '--branch'):
    KPS[args[0][2:]] = str(Path(args[1]).absolute())
    args = args[2:]
for arg in args:
    setname, pat = arg.split(':', 1)
    for pr in sb.load_projects(f'/work/{setname}'):
        for src in pr.sources:
            rel = f'{pr.name}/{src.relative_to(pr.root)}'
            if not re.search(pat, rel):
                continue
            res = {}
            for k, exe in KPS.items():
                out = tempfile.mkdtemp(prefix='hr42td_')
                p = subprocess.run(['nice', '-n', '10', exe, 'translate', str(src), '--to', 'hip', '-o', out, *sb.project_flags(pr)],
                                   capture_output=True, text=True, cwd=src.parent, env={**os.environ, 'NO_COLOR': '1'}, timeout=900)
                errs = [l for l in (p.stdout + p.stderr).splitlines() if ' error' in l]
                res[k] = (p.returncode, digest(out), errs[0][:200] if errs else '')
            same = res['main'] == res['branch']
            print(f"{setname} {rel}: {'same' if same else 'DIFFERS'} main={res['main']} branch={res['branch']}", flush=True)
