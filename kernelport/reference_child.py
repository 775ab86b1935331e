"""The child process that interprets a reference (kernelport.reference._interpret_in_child).

    python -m kernelport.reference_child IN.pkl OUT.pkl

IN holds (source, func, args, path, backend, promote); OUT gets ("ok", outputs) or ("error",
message).  Only kernelport writes and reads these files.
"""
from __future__ import annotations

import pickle
import sys


def main(inp: str, outp: str) -> int:
    with open(inp, "rb") as f:
        source, func, args, path, backend, promote = pickle.load(f)
    from .reference import _interpret
    try:
        result = ("ok", _interpret(source, func, args, path, backend, promote))
    except RecursionError as e:
        result = ("error", f"the emulator could not interpret {func} (RecursionError: {e})")
    except Exception as e:  # the emulator's located errors, and its limits: the message is the verdict
        located = hasattr(e, "path")  # EmulatorError, LowerError: "file:line:col: message"
        result = ("error", f"interpreting {func}: {e}" if located else f"interpreting {func}: {type(e).__name__}: {e}")
    with open(outp, "wb") as f:
        pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
