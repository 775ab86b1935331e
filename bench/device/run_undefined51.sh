#!/bin/sh
# Stop 51 (h/verify51): classifier_fused's kernels on the GPU against the emulator again, after the
# emulator learned values never written (kernelport/emulator/undefined.py).  Stop 50's run
# (oracle_device_h100_50b.txt) failed fused_classifier_kernel4's device row: dlogits' padding lanes of
# each row's last x128 are registers the kernel never wrote (the H100 stored 4.7e-05, the emulator 0).
# Expected now: kernel4's device row passes with "N element(s) stored from values never written: not
# compared (stored at .../common.h:168:7)"; kernels 1, 3, 5 pass as before; kernel2 is not run
# (`&vec` of a reference parameter).  On the device machine, from the repository root:
#     sh bench/device/run_undefined51.sh
# then read $OUT/oracle_device.json's classifier_fused rows (the script prints them).
sh bench/device/run_oracle_device.sh --match 'llm.c/dev/cuda/classifier_fused' "$@"
python3 - "${OUT:-/tmp}/oracle_device.json" <<'PY'
import json, sys
def rows(x):
    if isinstance(x, dict):
        if x.get("kind") == "device" or (x.get("backend") == "cuda" and "detail" in x):
            yield x
        for v in x.values():
            yield from rows(v)
    elif isinstance(x, list):
        for v in x:
            yield from rows(v)
for r in rows(json.load(open(sys.argv[1]))):
    print(r.get("kernel"), r.get("status"), str(r.get("detail"))[:400])
PY
