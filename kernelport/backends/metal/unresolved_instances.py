"""A launch of a template kernel whose instance this unit cannot name, beside instances it can (held-out set
74, cupressor's ACuBuffer.cu: `kernel_compare<unsigned char><<<...>>>` is named, `kernel_compare<TYPE><<<...>>>`
in a host template whose TYPE comes through overloads chosen by `enable_if` is not).  The port names each
instance with `[[host_name]]`; one it does not name is a kernel a Metal host looks up and does not find.  With
no instance at all the kernel is KP216 (an error); beside named ones it was silent: now a KP216 warning at the
launch, naming the instance as written and those the port has."""
from __future__ import annotations

from ...diagnostics import Diagnostic
from .template_ids import concrete_words, launch_template_args


class UnresolvedInstances:
    """Mixin of MetalTranslator: the `check_unresolved_instances` pass (after the kernels are rendered)."""

    def check_unresolved_instances(self) -> None:
        for k in self.kernels:
            spec = self.specs.get(k.name)
            known = self.template_instances(k) if k.template_node is not None else []
            if not known or (spec is not None and spec.instantiate) or k.name in self.left_out_kernels:
                continue  # no instance: KP216 (an error) at the kernel; `@kp instantiate`: the user's list
            for launch, host, given in launch_template_args(self.src, self.module, k):
                targ = ", ".join(given)
                if given and concrete_words(self.src, launch.node, host, targ) and self._concrete(targ, host, 0):
                    continue
                names = ", ".join(f"{k.name}<{', '.join(a)}>" for a in known)
                self.port.diagnostics.append(Diagnostic(
                    "KP216", self.src.loc(launch.node), f"the instance of template kernel '{k.name}' this launch makes "
                    f"({k.name}<{targ or '...'}>) is not known in this unit: the port names {names} only, and a Metal "
                    "host finds no other",
                    f"add '// @kp instantiate <...>' above '{k.name}' for each instance the program launches", "warning"))
