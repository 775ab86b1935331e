"""depth.on_big_stack keeps its big-stack thread for the next call (a tree translate makes thousands)."""
from __future__ import annotations

import os
import signal
import sys
import threading

import pytest

from kernelport import depth


def _here():
    return threading.current_thread()


def test_consecutive_calls_share_one_deep_thread():
    a = depth.on_big_stack(_here)  # (the Thread objects are kept alive: `is` cannot meet a recycled id)
    b = depth.on_big_stack(_here)
    assert a is not threading.main_thread() and a.name == "kernelport-deep"
    assert a is b


def test_results_errors_nesting_and_the_limit_as_before():
    before = sys.getrecursionlimit()
    assert depth.on_big_stack(lambda x, y=0: x + y, 2, y=3) == 5
    def fail():
        raise ValueError("boom")
    with pytest.raises(ValueError, match="boom"):
        depth.on_big_stack(fail)
    # after an error the thread serves again, and a call from inside it runs there, inline
    inner = depth.on_big_stack(lambda: (threading.current_thread(), depth.on_big_stack(_here),
                                        sys.getrecursionlimit()))
    assert inner[0] is inner[1] and inner[2] >= depth.RECURSION_LIMIT
    assert sys.getrecursionlimit() == before

    def deep(n):  # a recursion the default stack and limit would not hold
        return 0 if n == 0 else 1 + deep(n - 1)
    assert depth.on_big_stack(deep, 20_000) == 20_000


def test_concurrent_callers_are_not_serialised():
    met = threading.Barrier(2, timeout=20)  # each call waits for the other: one thread for both would hang
    got: list = []

    def call():
        got.append(depth.on_big_stack(lambda: (met.wait(), threading.current_thread())[1]))
    ts = [threading.Thread(target=call) for _ in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(30)
    assert len(got) == 2 and got[0] is not got[1]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_makes_its_own_deep_thread():
    parent = depth.on_big_stack(_here)  # an idle thread the child does not have (lint -j forks after one)
    pid = os.fork()
    if pid == 0:  # the child: a kept thread would never answer, so the alarm ends it with a failure
        signal.alarm(20)
        ok = False
        try:
            ok = depth.on_big_stack(_here) is not parent and depth.on_big_stack(lambda: 7) == 7
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
