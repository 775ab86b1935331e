#!/bin/sh
# On a machine with an NVIDIA GPU: build the generated saxpy launcher with a C driver and run it
# (and the generated Rust crate's example when cargo exists). Usage: sh bench/bind/run_device.sh OUTDIR
set -e
OUT=${1:-/tmp/kp-bind-device}
mkdir -p "$OUT"
[ -f "$OUT/saxpy_launch.cu" ] || python3 -m kernelport bind examples/saxpy.cu --rust -o "$OUT"
ARCH=${KERNELPORT_CUDA_ARCH:-sm_90}
nvcc -arch="$ARCH" -x cu -c "$OUT/saxpy_launch.cu" -o "$OUT/saxpy_launch.o"
CUDA_LIB=$(dirname "$(dirname "$(command -v nvcc)")")/lib64
g++ -O2 -I "$OUT" -x c++ -c bench/bind/saxpy_device.c -o "$OUT/driver.o"
g++ "$OUT/driver.o" "$OUT/saxpy_launch.o" -L "$CUDA_LIB" -L /usr/local/cuda/lib64 -lcudart -lm -o "$OUT/driver"
"$OUT/driver"
if command -v cargo >/dev/null 2>&1; then
  mkdir -p "$OUT/saxpy_rs/examples"
  cp bench/bind/saxpy_device.rs "$OUT/saxpy_rs/examples/device.rs"
  (cd "$OUT/saxpy_rs" && KERNELPORT_CUDA_ARCH="$ARCH" cargo run --offline --quiet --example device)
else
  echo "cargo: not on this machine (the C driver above is the device check)"
fi
