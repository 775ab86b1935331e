#!/usr/bin/env bash
# Runs scripts/mutation_test.py's sample in N parts at once, each part in its own copy of this checkout
# (mutants are written in place: two parts never share a tree), then prints the parts' combined report.
#
#   scripts/mutation_parallel.sh N OUT --sample 25 --seed S [--modules ...]
#
# For a machine with many cores (one part a core).  PYTHON (default python3) must import kernelport's
# dependencies, pytest and cosmic-ray, or EXTRA_SITE must name a folder that holds what it lacks (a
# `pip install --target` of wheels).  Each copy gets a venv of its own that sees PYTHON's packages and
# EXTRA_SITE through a .pth file, with the copy itself as kernelport, and first runs each module's
# tests once unmutated (`--baseline`): a test that fails or skips there would miscount every mutant.
set -euo pipefail
n=$1 out=$(realpath -m "$2"); shift 2
py=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/.." && pwd)
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  t=$out/tree$i
  rm -rf "$t" && mkdir -p "$t"
  tar -C "$root" --exclude=./.venv --exclude=./.git --exclude=./.whl --exclude=./.gl -cf - . | tar -C "$t" -xf -
  (cd "$t" && git init -q && git add -A && git -c user.name=m -c user.email=m@localhost commit -qm base)
  "$py" -m venv --without-pip "$t/.venv"
  vsite=$("$t/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  printf '%s\n' "$t" "$site" ${EXTRA_SITE:+"$EXTRA_SITE"} > "$vsite/_kernelport_mutation.pth"
  printf '#!%s\nimport sys\nfrom cosmic_ray.cli import main\nsys.exit(main())\n' "$t/.venv/bin/python" \
    > "$t/.venv/bin/cosmic-ray"
  chmod +x "$t/.venv/bin/cosmic-ray"
done
for i in $(seq 1 "$n"); do
  (cd "$out/tree$i" && .venv/bin/python -P scripts/mutation_test.py --baseline "$@" --shard "$i/$n" \
     > "$out/base$i.log" 2>&1 || touch "$out/base.failed") &
done
wait
cat "$out"/base*.log
[ ! -e "$out/base.failed" ] || { echo "baseline failed: fix the tests on this machine first" >&2; exit 1; }
for i in $(seq 1 "$n"); do
  (cd "$out/tree$i" && .venv/bin/python -P scripts/mutation_test.py "$@" --shard "$i/$n" \
     --json "$out/part$i.json" --work "$out/work$i" > "$out/part$i.log" 2>&1) &
done
wait
cd "$out/tree1" && .venv/bin/python -P scripts/mutation_test.py --combine "$out"/part*.json
