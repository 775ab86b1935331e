"""A template kernel's instance over a type Metal lacks (`Mandelbrot0<double><<<...>>>`, cuda-samples
Mandelbrot): the port names each instance with `template [[host_name("Mandelbrot0_double")]] kernel void
Mandelbrot0<double>(...)`, so the type reaches the port through the instance's arguments, which no
`double` of the kernel's own text shows.  The checker then rejected each of the instance's parameters and
locals (KP224 "Metal has no 'double' type" at the kernel's lines, 15 of them in Mandelbrot): one cause under
another code, at lines that name no double.  Now it is the type's own refusal (the backend's `lacked_types`:
KP214 for double), once, where the instance is named, and the instance is not written.

Under its demotion option (`--demote-double`) the instance's arguments are spelled as demoted
(`Mandelbrot0<float>`), its `[[host_name]]` kept (`Mandelbrot0_double`), unless the port has that instance
already: C++ (and MSL) takes one explicit instantiation of a specialisation, so the two would not compile;
refused under the same code, saying so.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import backends, dialect
from ...model import Function
from .template_ids import host_template_ids, launch_template_args, macro_template_ids


class InstanceTypes:
    """Mixin of MetalTranslator: `typed_instance`, which Signatures asks for each instance it writes."""

    def typed_instance(self, k: Function, targs: list[str]) -> list[str] | None:
        """Template arguments `targs` of kernel k's instance as the port writes them: the same, demoted, or
        None where the instance is refused (a type the backend lacks; the diagnostic is given here)."""
        out, refusal = self.written_instance(k, targs)
        if refusal is not None:
            self.problem(refusal[0], self._instance_site(k, targs), refusal[1], refusal[2])
        elif out != targs:
            self.note(self._instance_site(k, targs), ", ".join(out), f"the instance {k.name}<{', '.join(targs)}> "
                      "demoted, its [[host_name]] kept")
        return out

    def written_instance(self, k: Function, targs: list[str]) -> tuple[list[str] | None, tuple | None]:
        """(k's instance `targs` as the port writes it or None, the refusal's (code, message, hint) or None): what
        `typed_instance` gives, without a word said (atomic_instances.py asks it of each instance)."""
        out = list(targs)
        for key_, lacked in backends.get(self.backend).lacked_types.items():
            word = re.compile(r"\b%s\b" % re.escape(dialect.concept(key_).spelling("cuda") or key_))
            if not any(word.search(a) for a in out):
                continue
            written = f"{k.name}<{', '.join(targs)}>"
            if not (lacked.demote_option and self.options.get(lacked.demote_option)):
                return None, (lacked.code, f"{lacked.message}: the instance {written} (Metal names each instance "
                              "of a template kernel)", lacked.hint)
            demoted = [word.sub(lacked.demoted, a) for a in out]
            if demoted in self.template_instances(k):
                return None, (lacked.code, f"{lacked.message}: the instance {written}, demoted, is {k.name}<"
                              f"{', '.join(demoted)}>, which the port instantiates already (C++ takes one explicit "
                              "instantiation of a specialisation)", f"launch {k.name}<{', '.join(demoted)}> in the "
                              f"Metal build, or keep {written} out of it")
            out = demoted
        return out, None

    def _instance_site(self, k: Function, targs: list[str]) -> Node:
        """Where the unit names k's instance `targs` (a launch `k<double><<<...>>>`, or one whose arguments' types
        deduce it, `&k<double>`, an explicit instantiation, a macro's use); else the kernel's template head (an
        instance made through a host template's call)."""
        for launch, _, given in launch_template_args(self.src, self.module, k):
            if given == targs:
                return launch.node
        for node, given, _ in [*host_template_ids(self.src, self.module, k), *macro_template_ids(self.src, self.module, k)]:
            if given == targs:
                return node
        return k.template_node or k.node
