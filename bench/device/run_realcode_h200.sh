#!/bin/sh
# verify --device cuda over tests/realcode/ on a GPU machine without kernelport's dependencies
# (carried in devdeps/, as run_h200.sh): the ports are written into a copy first, so the drift
# checks see them; the device rows compare each original on the GPU with the reference and the
# emulator.  Summary: python3 bench/device/realcode_summary.py $OUT/verify_realcode_device.json
python3 --version; nvcc --version | tail -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PYTHONPATH=$PWD/devdeps:$PWD
python3 -m kernelport --version || exit 1
rm -rf /tmp/rc && cp -r tests/realcode /tmp/rc
python3 -m kernelport translate /tmp/rc/*.cu --to hip,metal,portable > $OUT/translate_realcode.log 2>&1; echo "translate rc=$?"
python3 -m kernelport verify /tmp/rc --device cuda --format json -j 16 > $OUT/verify_realcode_device.json 2> $OUT/verify_realcode.err
echo "verify rc=$?"
python3 bench/device/realcode_summary.py $OUT/verify_realcode_device.json
