#!/bin/sh
# One session on a GPU machine without kernelport's dependencies: they are carried in devdeps/ (the
# pure-Python packages and cp312 wheels of tree-sitter, tree-sitter-cuda, pydantic-core, markupsafe,
# unpacked), and kernelport runs from this tree: verify --device cuda and plan --device cuda.
python3 --version; nvcc --version | tail -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PYTHONPATH=$PWD/devdeps:$PWD
python3 -c "import numpy; print('numpy', numpy.__version__)"
python3 -m kernelport --version || exit 1
python3 -m kernelport verify examples/ --device cuda --format json -j 16 > $OUT/verify_device.json 2> $OUT/verify_device.err; echo "verify rc=$?"
python3 -m kernelport plan examples/softmax.cu --device cuda > $OUT/plan_softmax_device.md 2> $OUT/plan.err; echo "plan rc=$?"
python3 -m kernelport plan examples/saxpy.cu --device cuda --format json > $OUT/plan_saxpy_device.json 2>> $OUT/plan.err; echo "plan2 rc=$?"
