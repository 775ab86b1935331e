"""Per call CPU of depth.on_big_stack (500 calls, empty and a 200-level recursion), with CHECKOUT's kernelport.

    python bench/deep_calls.py CHECKOUT
"""
sys.path.insert(0, sys.argv[1])
from kernelport.depth import on_big_stack
def rec(n): return 0 if n == 0 else 1 + rec(n - 1)
for depth in (0, 200):
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(500):
        on_big_stack(rec, depth)
    c, w = time.process_time() - c0, time.perf_counter() - w0
    c0 = time.process_time()
    for _ in range(500):
        rec(depth)
    b = time.process_time() - c0
    print(f"depth {depth}: {c/500*1e3:.3f} ms CPU, {w/500*1e3:.3f} ms wall per call; the call itself {b/500*1e3:.3f} ms")
