"""Metal's pass over a project's operators on CUDA vector types (the shapes and the reasons:
kernelport/vector_operators.py), on the device functions left once the host code is split off."""
from __future__ import annotations

from ... import backends
from ...vector_operators import Reader


class VectorOperators:
    """Mixin of MetalTranslator: the `builtin_vector_operators` pass."""

    def builtin_vector_operators(self) -> None:
        reader = Reader(self.src, backends.get(self.backend))
        for key, f in list(self.device.items()):
            if f.is_kernel or f.template_node is not None:
                continue
            sig = reader.meaning(f.node)
            if sig is None:
                continue
            self.rw.replace(f.node, f"// {sig}: Metal's vector types define it (component-wise), left out")
            self._drop_leading_macros(f.node)
            self.note(f.node, "(left out)", f"{sig} is component-wise, as Metal's built-in operator is")
            self._forget(key, f.node)
