#!/bin/sh
# The GPU runs the helpers asked for: every annotated kernel the named tests write (pytest's
# tmp trees, kept under /tmp/pt) and bench/halfvote_words, each through `verify --device cuda`
# (the original on the GPU against its scalar reference and the emulator); then the examples
# (run_h200.sh) and tests/realcode (run_realcode_h200.sh).  devdeps/ carries the dependencies and pytest.
#     sh bench/device/run_pending_h100.sh [TEST_FILE ...]
python3 --version; nvcc --version | tail -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PYTHONPATH=$PWD/devdeps:$PWD
TESTS=${*:-tests/test_abslanes_rows.py tests/test_memberdims.py tests/test_abscallers.py tests/test_macro_run_widths.py tests/test_metal_float_library.py}
rm -rf /tmp/pt
python3 -P -m pytest -q -n 8 -p no:cacheprovider --basetemp=/tmp/pt $TESTS 2>&1 | tail -3
n=0
for f in $(grep -rl --include='*.cu' '@kp kernel' /tmp/pt bench/halfvote_words | grep -v '\.portable\.cu$' | sort); do
  n=$((n+1))
  r=$(python3 -m kernelport verify "$f" --device cuda --format json 2>/dev/null | python3 -c '
import json,sys,collections
try: d=json.load(sys.stdin)
except Exception as e: print("no-json"); sys.exit()
c=collections.Counter((k.get("kind"),k.get("status")) for f in d for k in f.get("checks",[]))
fails=[k.get("detail","")[:160] for f in d for k in f.get("checks",[]) if k.get("status")=="fail"]
print(" ".join(f"{a}:{b}={v}" for (a,b),v in sorted(c.items())), *fails[:3], sep=" | ")')
  echo "$f :: $r"
done
echo "files verified: $n"
sh bench/device/run_h200.sh > $OUT/examples.log 2>&1; tail -3 $OUT/examples.log
sh bench/device/run_realcode_h200.sh > $OUT/realcode.log 2>&1; tail -40 $OUT/realcode.log
