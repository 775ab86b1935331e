"""What kernelport knows about one kernel, gathered once for every part of the plan: the model,
the annotations, lint findings, what translate does for each backend, and an emulator run that
counts memory traffic and floating-point work on the annotated sizes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..depth import big_stack
from .. import annotations, backends
from ..errors import KernelportError, Location
from ..model import Function, Module, build
from ..source import SourceFile, walk


@dataclass
class PortFacts:
    """translate's result for one backend, restricted to this kernel's code."""
    backend: str
    ok: bool
    diagnostics: list  # translate.Diagnostic
    notes: list  # translate.Note (every rewrite with its reason)
    context: dict  # prologue context (Metal: msl_version, msl_reasons)
    body: str


@dataclass
class Facts:
    """What `plan` reads of one kernel."""
    path: Path
    src: SourceFile
    module: Module
    kernel: Function
    spec: annotations.KernelSpec
    scope: list[Function]  # the kernel and every device function it reaches
    lines: set[int]  # source lines of that code
    findings: list  # lint Findings on those lines (and on file-scope lines)
    ports: dict[str, PortFacts]
    counts: object | None = None  # emulator.counting.Counting of one run
    emulator_error: str | None = None
    template_args: list[str] | None = None
    extra: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.kernel.name

    def text(self, node) -> str:
        return self.src.text_of(node)

    def line(self, node) -> int:
        return node.start_point[0] + 1

    def uses(self, kind: str | None = None, key: str | None = None) -> list:
        """Concept uses inside the kernel's scope."""
        names = {f.name for f in self.scope}
        return [u for u in self.module.uses if u.function in names and (kind is None or u.concept.kind == kind)
                and (key is None or u.concept.key == key)]

    def nodes(self, *types: str):
        for f in self.scope:
            for n in walk(f.node):
                if n.type in types:
                    yield f, n


def _callees(module: Module, kernel: Function) -> list[Function]:
    """The kernel and the device functions it calls, transitively (by name)."""
    by_name: dict[str, list[Function]] = {}
    for f in module.functions.values():
        if f.is_device and not f.is_kernel:
            by_name.setdefault(f.name, []).append(f)
    seen, order, todo = set(), [], [kernel]
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        order.append(f)
        for n in walk(f.body) if f.body is not None else ():
            if n.type == "call_expression":
                fn = n.child_by_field_name("function")
                if fn is not None and fn.type == "template_function":
                    fn = fn.child_by_field_name("name")
                if fn is not None and fn.type == "identifier":
                    todo.extend(by_name.get(module.source.text_of(fn), []))
    return order


def _lines_of(functions: list[Function]) -> set[int]:
    out: set[int] = set()
    for f in functions:
        node = f.template_node or f.node
        out.update(range(node.start_point[0] + 1, node.end_point[0] + 2))
    return out


def _file_scope_lines(module: Module) -> set[int]:
    inside: set[int] = set()
    for f in module.functions.values():
        node = f.template_node or f.node
        inside.update(range(node.start_point[0] + 1, node.end_point[0] + 2))
    total = module.source.text.count("\n") + 1
    return set(range(1, total + 1)) - inside


def _port(src: SourceFile, backend: str, lines: set[int]) -> PortFacts:
    from ..translate import translate
    port, _ = translate(src, backend)
    keep = [d for d in port.diagnostics if d.location.line in lines]
    return PortFacts(backend, not any(d.severity == "error" for d in keep), keep,
                     [n for n in port.notes if n.location.line in lines], dict(port.context), port.body)


@big_stack  # recursive analyses: depth.MAX_DEPTH levels of nesting need a big stack
def gather(path: Path, kernel: str | None = None, *, run_emulator: bool = True) -> Facts:
    src = SourceFile.read(path)
    src.check_syntax()
    module = build(src)
    specs = annotations.parse(module)
    if not module.kernels:
        raise KernelportError(f"{path} has no __global__ kernel", Location(str(path), 1, 1),
                              hint="kernelport plan reads an annotated CUDA kernel file")
    if kernel is None:
        annotated = [k for k in module.kernels if k.name in specs]
        if not annotated:
            k = module.kernels[0]
            raise KernelportError(f"kernel '{k.name}' has no // @kp annotations", src.loc(k.node),
                                  hint="the plan needs the launch geometry and buffers: see docs/annotations.md")
        k = annotated[0]
    else:
        k = next((f for f in module.kernels if f.name == kernel), None)
        if k is None:
            raise KernelportError(f"no kernel named '{kernel}' in {path}", Location(str(path), 1, 1),
                                  hint="kernels: " + ", ".join(f.name for f in module.kernels))
        if k.name not in specs:
            raise KernelportError(f"kernel '{k.name}' has no // @kp annotations", src.loc(k.node),
                                  hint="the plan needs the launch geometry and buffers: see docs/annotations.md")
    spec = specs[k.name]
    scope = _callees(module, k)
    lines = _lines_of(scope)
    file_lines = _file_scope_lines(module)

    from ..lint import lint_text
    findings = [f for f in lint_text(src.text, str(path), "cuda") if f.line in lines or f.line in file_lines]
    ports = {b.name: _port(src, b.name, lines | file_lines) for b in backends.ports()}
    facts = Facts(path, src, module, k, spec, scope, lines, findings, ports)
    if spec.instantiate:
        from ..cexpr import split_top_level
        facts.template_args = [p for p, _ in split_top_level(spec.instantiate[0].text.strip()[1:-1])]
    if run_emulator:
        _count(facts)
    return facts


def _count(facts: Facts) -> None:
    """Run the original once in the emulator's thread schedule (each lane one thread, so branches
    are exact per thread) with the counters on."""
    from .. import inputs
    from ..emulator import EmulatorError, counting, run_kernel
    spec = facts.spec
    try:
        args = inputs.make_args(facts.kernel, spec)
        with counting.Counting() as c:
            run_kernel(facts.src.text, facts.name, args=args, grid=spec.dims("grid"), block=spec.dims("block"),
                       shared_bytes=spec.shared_bytes(), wave=32, schedule="thread", seed=spec.seed,
                       template_args=facts.template_args, path=str(facts.path), error_bound=False,
                       check_races=False)
        facts.counts = c
    except (EmulatorError, KernelportError) as e:
        facts.emulator_error = str(e)
