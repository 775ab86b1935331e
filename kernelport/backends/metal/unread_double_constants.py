"""A `__constant__` `double` table no device code names: the port leaves its declaration out, so no KP214.

Metal has no double (KP214).  heldout102's LBMProject headers declare every D3Q19 table for each unit that
includes them (`extern __constant__ double w_double[19];` beside the float `w`), and boundary_conditions.cu's
kernels read only the float ones: its Metal port was refused for a double no kernel reads.  bind_constants
(constants.py) turns each `__constant__` (and host-filled read-only `__device__`) declaration into a comment and
binds the table as a `constant` buffer argument of the kernels that read it, so an unread one puts no double
anywhere in the port.  The conditions, all checked, else KP214 stands:
  - the `double` is the type of a declaration every declarator of which bind_constants bound (a texture's or an
    assertion's binding is not one: their declarations are written elsewhere);
  - no device function of the port, and no macro's value, spells any name it declares as a word (the words
    unread_double_members.py collects: a name check, never a guess at scopes).
A kernel (or a device function it calls, or a macro it names) that reads the table keeps KP214 at this type.
"""
from __future__ import annotations

from tree_sitter import Node

from ...source import ident_name


class UnreadDoubleConstants:
    """Mixin of MetalTranslator (after bind_constants): `unread_double_constant(node)` for a `double` type use."""

    def unread_double_constant(self, node: Node) -> bool:
        decl = node.parent
        if decl is None or decl.type != "declaration" or decl.child_by_field_name("type") != node:
            return False
        bound = getattr(self, "bound", {})
        names = [ident_name(d) for d in decl.children_by_field_name("declarator")]
        if not names or any(n is None or n not in bound or bound[n].node != decl or
                            bound[n].space not in ("__constant__", "__device__") for n in names):
            return False
        return not set(names) & self._device_field_names()
