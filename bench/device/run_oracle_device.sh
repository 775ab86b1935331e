#!/bin/sh
# The differential oracle over tests/realcorpus with each original also run on the GPU against the
# emulator's run of it (bench/oracle_corpus.py --device cuda: verify --device's row per kernel), so the
# emulator's model of CUDA is checked on real hardware over every real kernel the oracle runs.
#     sh bench/device/run_oracle_device.sh [extra oracle_corpus.py options]
python3 --version; nvcc --version | tail -1; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export PYTHONPATH=$PWD/devdeps:$PWD
python3 -P bench/oracle_corpus.py -j 16 --timeout 60 --device cuda --json ${OUT:-/tmp}/oracle_device.json "$@"
