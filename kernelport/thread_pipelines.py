"""libcu++'s <cuda/pipeline> where the port defines a thread's own pipeline only (HIP: the polyfill of
kernelport/backends/hip_async_copies.py, copies made synchronously): each use of a pipeline shared by
threads is refused at its line (KP209), never left to the compiler or ported.  A consumer of a shared
pipeline waits for copies other threads made; the port's copies are each thread's own and complete at once,
so it would need a barrier among the pipeline's threads that nothing here proves.  Refused: a
`cuda::pipeline<S>` of a scope S other than `cuda::thread_scope_thread`, `cuda::make_pipeline(...)` with
arguments (a group and its shared state), a `cuda::memcpy_async` other than (dst, src, size, pipe) (the
group's form), and `cuda::pipeline_shared_state`, `cuda::pipeline_role`, `cuda::pipeline_producer_commit`,
`cuda::barrier`.  A project's own `namespace cuda` is left alone."""
from __future__ import annotations

import re

HEADER = "cuda/pipeline"
NAMESPACE = HEADER.split("/")[0]  # libcu++'s names of the header
SHARED = frozenset({"pipeline_shared_state", "pipeline_role", "pipeline_producer_commit", "barrier"})
WHY = ("a pipeline shared by threads waits for copies other threads made: the port defines a thread's own pipeline "
       "only (`cuda::make_pipeline()`), whose copies are synchronous")


def _outer(n):
    while n.parent is not None and n.parent.type == "qualified_identifier" and n.parent.child_by_field_name("name") == n:
        n = n.parent
    return n


def _args(call) -> int:
    args = call.child_by_field_name("arguments")
    return len([a for a in args.named_children if a.type != "comment"]) if args is not None else 0


def refuse_shared(tr, header: str) -> bool:
    """KP209 at each use of a shared pipeline in a file that includes <cuda/pipeline>; True when one was."""
    if header != HEADER or NAMESPACE in tr.declared_names():
        return False
    refused = False
    for q in tr.src.index.of_type("qualified_identifier"):
        scope, name = q.child_by_field_name("scope"), q.child_by_field_name("name")
        if scope is None or name is None or tr.src.text_of(scope) != NAMESPACE or tr.cuda_only_region(q):
            continue
        head = name.child_by_field_name("name") if name.type in ("template_type", "template_function") else \
            name.child_by_field_name("scope") if name.type == "qualified_identifier" else name  # `pipeline_role::consumer`
        word, text = tr.src.text_of(head) if head is not None else "", " ".join(tr.src.text_of(q).split())
        up = _outer(q).parent
        call = up if up is not None and up.type == "call_expression" else None
        bad = word in SHARED or \
            word == "pipeline" and name.type == "template_type" and not re.search(r"<\s*(::\s*)?cuda\s*::\s*thread_scope_thread\s*>$", text) or \
            word == "make_pipeline" and call is not None and _args(call) > 0 or \
            word == "memcpy_async" and call is not None and _args(call) != 4
        if bad:
            refused = True
            what = tr.src.text_of(call) if call is not None else text
            tr.problem("KP209", q, f"`{' '.join(what.split())[:80]}`: <{header}> has no {tr.backend.upper()} equivalent, "
                       f"and {WHY}", "give each thread its own pipeline (`cuda::make_pipeline()`) and a __syncthreads() "
                       "before reading what other threads copied, or keep it under #ifdef so that only the CUDA build "
                       "compiles it")
    return refused
