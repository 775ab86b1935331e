#!/bin/sh
# Stop 51 (h/verify51): classifier_fused's kernels on the GPU against the emulator again, after the
# emulator learned values never written (kernelport/emulator/undefined.py).  Stop 50's run
# (oracle_device_h100_50b.txt) failed fused_classifier_kernel4's device row: dlogits' padding lanes of
# each row's last x128 are registers the kernel never wrote (the H100 stored 4.7e-05, the emulator 0).
# Expected now: kernel4's device row passes with "N element(s) (of dlogits n, probs n) stored from values
# never written: not compared (stored at .../common.h:168:7)"; kernels 1, 3, 5 pass as before; kernel2, a
# "not run" before (`&vec` of a reference parameter), runs on the GPU for the first time (its Metal port
# matches the emulator's original here).  On the device machine, from the repository root:
#     sh bench/device/run_undefined51.sh
# then read $OUT/oracle_device.json's classifier_fused rows (the script prints them).
sh bench/device/run_oracle_device.sh --match 'llm.c/dev/cuda/classifier_fused' "$@"
python3 - "${OUT:-/tmp}/oracle_device.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):  # bench/oracle_corpus.py's --json: per file, per kernel
    for name, k in sorted(r["kernels"].items()):
        print(r["path"], name, *(k.get("device") or ("no device row",)))
PY
