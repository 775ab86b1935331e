#!/bin/sh
# Materialise ROCm's rocThrust headers for measuring HIP ports that include <thrust/...>
# (bench/scoreboard.py --hip-include DIR). Not run in CI: it installs a package as root and
# reads a fetched mirror.
#
#   scripts/rocthrust_headers.sh [TAG] [MIRROR] [DEST]
#
# TAG     rocThrust release tag (default rocm-5.3.3: Debian bookworm's librocprim-dev, which
#         rocThrust is header-only on top of, is 5.3.3; rocThrust 5.2.3 and 5.3.3 are both
#         "2.10.9" and need rocprim >= 2.10.1, but 5.3.3 is the one released with that rocPRIM)
# MIRROR  a bare clone of github.com/ROCm/rocThrust (default /work/.mirror/ROCm+rocThrust/repo;
#         `git clone --bare https://github.com/ROCm/rocThrust MIRROR` makes one)
# DEST    where thrust/ and the license go (default /work/rocthrust-TAG)
#
# Then: HIP_PLATFORM=amd hipcc --offload-arch=gfx90a --offload-arch=gfx1030 -I DEST -c x.hip
set -eu
TAG=${1:-rocm-5.3.3}
MIRROR=${2:-/work/.mirror/ROCm+rocThrust/repo}
DEST=${3:-/work/rocthrust-$TAG}

if ! dpkg -s librocprim-dev >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then apt-get install -y librocprim-dev
    else sudo apt-get install -y librocprim-dev; fi
fi
mkdir -p "$DEST"
git --git-dir="$MIRROR" archive "$TAG" thrust LICENSE NOTICES.txt | tar -x -C "$DEST"
echo "rocThrust $TAG ($(git --git-dir="$MIRROR" rev-parse "$TAG^{commit}")) headers in $DEST"
