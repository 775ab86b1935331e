"""Kernel launches from device code (CUDA's dynamic parallelism) where the backend has none (ROCm's
HIP): KP210 at the launch, not a port that hipcc refuses.  A launch in a branch of a preprocessor
test the file does not decide (an allocator's `#if GALLATIN_USING_DYNAMIC_PARALLELISM` around its
device-side memclear launch, the #else trapping) is compiled only by builds that define the test's
macro: as an API name with no spelling there (api_names.rewrite_api_name), it is left as written
with a KP210 warning, and the build this run describes ports.

A launch in a `__host__ __device__` function template that no device code of the file calls (a helper
library's `fillCu<T>`, called by host code only) is host code in every instance the program makes: nvcc
and hipcc alike compile a template's device side only for an instance device code names, so it is left
as written; a device caller in the file keeps the KP210 error at the launch."""
from __future__ import annotations

from . import backends
from .diagnostics import Diagnostic


def check(tr) -> None:
    """The translator's check (kernelport.api_names.ApiNames.check_device_launches)."""
    b = backends.get(tr.backend)
    if b.launches_from_device:
        return
    for launch in tr.module.launches:
        f = tr.module.function_at(launch.node)
        if f is None or not f.is_device or tr.cuda_only_region(launch.node) or _host_only_template(tr, f):
            continue
        where = f"{b.api_checked_with}'s {b.display_name}" if b.api_checked_with else b.display_name
        message = f"a kernel launch from device code ('{launch.kernel}' in '{f.name}': CUDA's dynamic parallelism) " \
                  f"is not in {where}"
        if tr._optional_code(launch.node):
            tr.port.diagnostics.append(Diagnostic(
                "KP210", tr.src.loc(launch.node), message + "; left as written: it is under a preprocessor test that "
                "only some builds compile", "fix it before a build that defines the test's macro", "warning"))
            continue
        tr.problem("KP210", launch.node, message, "launch it from the host (a loop of launches, or one kernel doing "
                   "the child's work), or guard it so that only the CUDA build compiles it")


def _host_only_template(tr, f) -> bool:
    """`f` is a `__host__ __device__` function template that no device function of the file calls by its name
    (a call from an unknown file's device code gets hipcc's own error there, not a silent port)."""
    if not f.is_host or f.template_node is None:
        return False
    from .fnscopes import callee_name
    name = f.name.rsplit("::", 1)[-1]  # a member defined out of class is `S::go`, called as `S::go(...)`: `go`
    for call in tr.src.index.of_type("call_expression"):
        if callee_name(call.child_by_field_name("function")) != name:
            continue
        g = tr.module.function_at(call)
        if g is not None and g.is_device and g.node != f.node:
            return False
    return True
