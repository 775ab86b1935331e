"""CPU seconds of one `kernelport translate ... --to metal` run, and of its header splicing (metal/headers.py
splice), in-process: process_time, so a loaded machine's waiting is not counted.  Run it once per tree
(the same arguments), e.g.
  PYTHONPATH=/work/main python -P bench/bench_metal_translate_cpu.py FILE -I DIR ... -o /tmp/out
(-P: the current directory's kernelport must not shadow the tree's)."""
from __future__ import annotations

import os
import sys
import time


def main() -> None:
    from kernelport.backends.metal import headers, translator
    acc = [0.0, 0]
    real = headers.splice

    def timed(*a, **k):
        t = time.process_time()
        try:
            return real(*a, **k)
        finally:
            acc[0] += time.process_time() - t
            acc[1] += 1
    headers.splice = translator.splice = timed
    sys.argv = ["kernelport", "translate", *sys.argv[1:], "--to", "metal"]
    from kernelport.entry import main as kp
    out, err = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = open(os.devnull, "w")
    try:
        kp()
    except SystemExit:
        pass
    finally:
        sys.stdout, sys.stderr = out, err
    print(f"{os.environ.get('PYTHONPATH', '')}: total cpu {time.process_time():.2f} s; splice cpu {acc[0]:.2f} s "
          f"in {acc[1]} call(s)")


if __name__ == "__main__":
    main()
