"""Names the target's runtime header makes visible in namespace std that CUDA's does not (the backend's
`std_names_added`: HIP's hip_runtime.h includes <algorithm>, <array>, <string>, ...; cuda_runtime.h none
of them).  Where a translation unit says `using namespace std;` at file scope and declares an enumerator
of an unscoped enum at file scope with such a name (`enum reduction_op {max_op, min_op, sum, count};`),
nvcc's unqualified `count` finds only the enumerator, and hipcc's finds `std::count` too: "reference to
'count' is ambiguous".  The port writes each such use as `::count` (qualified lookup in the global
namespace finds its own declaration and does not follow the using-directive), with a note.

Conditions, checked: the directive and the enumerator are in the file or the project headers it
includes (read through kernelport.includes; a header it cannot read adds nothing); a use is an
expression (not a declaration, a member, a call's callee, or already qualified); the function around
it declares no local or parameter of that name, and is no class member (a member of that name would be
what the use means).  Elsewhere the use is left as written.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from tree_sitter import Node

from . import backends, includes
from .reserved_names import is_declared_name

_USING_STD = re.compile(r"(?m)^[ \t]*using[ \t]+namespace[ \t]+(?:::)?std[ \t]*;")
_LOCAL_INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*"([^"]+)"')
_ENUM = re.compile(r"\benum\s+(?!class\b|struct\b)(?:[A-Za-z_]\w*\s*)?(?::\s*[\w:\s]+?)?\{([^{}]*)\}")
_ENUMERATOR = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
# a use these parents give is no expression of the name's value
_NOT_USES = ("qualified_identifier", "field_expression", "enumerator", "template_function", "destructor_name")
_FUNCTIONS = ("function_definition", "lambda_expression")
_CLASSES = ("class_specifier", "struct_specifier", "union_specifier")


@functools.lru_cache(maxsize=None)
def _words(names: frozenset[str]) -> re.Pattern:
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")


def _unit_texts(path: str, text: str, depth: int = 8) -> list[str]:
    """`text` and the project headers it includes, transitively (each once; depth-bounded)."""
    out, seen, todo = [text], set(), [(path, text, 0)]
    while todo:
        here, body, d = todo.pop()
        if d >= depth:
            continue
        for name in _LOCAL_INCLUDE.findall(body):
            found = includes.readable(here, name)
            if found is None or found in seen:
                continue
            seen.add(found)
            try:
                sub = Path(found).read_text(errors="replace")
            except OSError:
                continue
            out.append(sub)
            todo.append((str(found), sub, d + 1))
    return out


def _file_scope_enumerators(text: str) -> set[str]:
    """Enumerators of the unscoped enums `text` declares at file scope (brace depth 0 where `enum` opens)."""
    text = _COMMENTS.sub(" ", text)
    names: set[str] = set()
    for m in _ENUM.finditer(text):
        if text.count("{", 0, m.start()) - text.count("}", 0, m.start()) == 0:
            names |= {e for e in _ENUMERATOR.findall(m.group(1))}
    return names


class StdClashes:
    """Mixin of the translators: the `qualify_std_clashes` pass."""

    def qualify_std_clashes(self) -> None:
        """A translator pass: each plain use of a file-scope enumerator whose name the target's runtime header
        also puts in std (with `using namespace std;` in the unit) written `::name`, as the module docstring says."""
        added = backends.get(self.backend).std_names_added
        if not added or not _words(added).search(self.src.text):
            return  # (nothing of the names here: no include walk)
        texts = _unit_texts(str(self.src.path), self.src.text)
        if not any(_USING_STD.search(_COMMENTS.sub(" ", t)) for t in texts):
            return
        clashes = set().union(*(_file_scope_enumerators(t) for t in texts)) & added
        noted: set[str] = set()
        for n in self.src.index.of_type("identifier"):
            name = self.src.text_of(n)
            if name in clashes and not self.rw.has(n) and _a_plain_use(n) and _free_in_function(self.src, n, name):
                self.rw.replace(n, f"::{name}")
                if name not in noted:
                    noted.add(name)
                    self.note(n, f"::{name}", f"'{name}' is a file-scope enumerator and, with `using namespace std;`, "
                              f"std::{name} from {self.backend}'s runtime header too: qualified as the global one")


def _a_plain_use(n: Node) -> bool:
    p = n.parent
    if p is None or p.type in _NOT_USES or is_declared_name(n):
        return False
    return not (p.type == "call_expression" and p.child_by_field_name("function") == n)


def _free_in_function(src, n: Node, name: str) -> bool:
    """Whether the function around `n` (none: file scope) declares no `name` of its own and is no class member."""
    fn = n.parent
    while fn is not None and fn.type not in _FUNCTIONS:
        if fn.type in _CLASSES:
            return False
        fn = fn.parent
    if fn is None:
        return True
    outer = fn.parent
    while outer is not None:
        if outer.type in _CLASSES or outer.type in _FUNCTIONS:
            return False  # a member (its class may have a `name`), or a lambda inside a function: not looked into
        outer = outer.parent
    decl = fn.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    if decl is not None and (head := decl.child_by_field_name("declarator")) is not None \
            and head.type == "qualified_identifier":
        return False  # `void P::f() {...}`: a member defined outside its class
    for m in src.index.of_type("identifier"):
        if fn.start_byte <= m.start_byte < fn.end_byte and src.text_of(m) == name and is_declared_name(m):
            return False
    return True
