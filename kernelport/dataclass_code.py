"""kernelport's dataclass methods compiled once, kept on disk between command runs.

`dataclasses` writes each class's `__init__`, `__repr__`, `__eq__`, ... as Python source and compiles
it with `exec` as the class is made: the ~60 classes a one-file lint imports cost ~250 compiles, a
third of kernelport's import time (~30 ms of a ~150 ms lint, measured).  The code object `compile`
makes depends only on the source text, the interpreter's bytecode (its magic number) and its
optimisation level, so it is kept in a file named by those two, keyed by the exact text: a text not
in it (a changed class, another interpreter) is compiled as `dataclasses` would and the file
rewritten at exit.  `install()` (the `kernelport` executable calls it) shadows `exec` in the
`dataclasses` module for the process; source that no kernelport module's class made goes to `exec`
untouched.  $KERNELPORT_CODE_CACHE names the directory ($XDG_CACHE_HOME/kernelport or
~/.cache/kernelport by default); `off` turns the cache off.  The file is trusted as Python's own
`__pycache__` is: it lives in the user's own cache directory.
"""
from __future__ import annotations

import builtins
import os
import sys
from types import CodeType

ENV = "KERNELPORT_CODE_CACHE"
LIMIT = 4000  # entries; past it the file keeps only the run's own (old versions' texts would pile up)

_state: dict = {}  # path, codes (text -> code), used (texts looked up), new (count compiled this run)


def cache_file() -> str | None:
    d = os.environ.get(ENV)
    if d is not None:
        d = d.strip()
        if d.lower() in ("", "off"):
            return None
    else:
        d = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                         "kernelport")
    try:  # the bootstrap's own module, always loaded: importlib.util costs a start-up ~5 ms to import
        from _frozen_importlib_external import MAGIC_NUMBER
    except ImportError:  # pragma: no cover - an interpreter without CPython's frozen bootstrap
        from importlib.util import MAGIC_NUMBER
    return os.path.join(d, f"dataclass-code-{MAGIC_NUMBER.hex()}-O{sys.flags.optimize}.marshal")


def _codes() -> dict:
    """The file's codes, read on the first class made (a command that makes none reads nothing)."""
    if "codes" not in _state:
        import marshal
        codes: dict = {}
        try:
            with open(_state["path"], "rb") as f:
                got = marshal.loads(f.read())
            if isinstance(got, dict):
                codes = got
        except (OSError, EOFError, ValueError, TypeError):
            pass  # none yet, or unreadable: compiled afresh and rewritten
        _state["codes"] = codes
    return _state["codes"]


def _exec(source, globals=None, locals=None):  # noqa: A002 (exec's own parameter names)
    if type(source) is not str or not isinstance(globals, dict) \
            or not str(globals.get("__name__", "")).startswith("kernelport"):
        return builtins.exec(source, globals, locals)
    codes = _codes()
    code = codes.get(source)
    if type(code) is not CodeType:
        # dont_inherit: this module's `from __future__ import annotations` must not reach the methods
        code = codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
        _state["new"] += 1
    _state["used"].add(source)
    return builtins.exec(code, globals, locals)


def _save() -> None:
    if not _state.get("new"):
        return
    import marshal
    codes, used = _state["codes"], _state["used"]
    if len(codes) > LIMIT:
        codes = {t: c for t, c in codes.items() if t in used}
    path = _state["path"]
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(marshal.dumps(codes))
        os.replace(tmp, path)  # whole or not at all, whichever process writes last
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def install() -> None:
    """Compile kernelport's dataclass methods through the cache for the rest of this process."""
    path = cache_file()
    if path is None or _state:
        return
    import atexit
    import dataclasses
    _state.update(path=path, used=set(), new=0)
    dataclasses.exec = _exec  # the module's global `exec` is looked up before the builtin
    atexit.register(_save)


def stats() -> dict:
    """Texts compiled and looked up in this process (tests read them)."""
    return {"compiled": _state.get("new", 0), "looked_up": len(_state.get("used", ()))}
