"""Lower CUDA / HIP (and Metal) kernel source text to C99 that pycparser parses.

The semantic side of kernelport (the emulator, the reference interpreter) works on pycparser's
C AST; kernel files are C++ with GPU qualifiers.  Lowering is deliberately simple and robust:

1. line-preserving pre-pass: drop `#include` of headers we cannot see and `#pragma` lines;
2. the C preprocessor (`cpp`) expands the user's macros and emits line markers, so every
   pycparser coordinate is a line of the ORIGINAL file (comments vanish without moving lines);
3. the output is split into top-level items (functions, declarations); template functions are
   instantiated by substituting their arguments; backend qualifiers are stripped or rewritten
   (`__shared__` becomes the storage class `_Thread_local`, which C99 parsers accept and which
   marks the declaration as block-shared for the emulator); C++ casts, `nullptr`, `auto`, `::`
   and attributes `[[...]]` are rewritten;
4. pycparser parses the items; an item that does not parse and is not needed by the device side
   (host code with `<<< >>>`, classes, lambdas) is dropped and the parse retried.

Each backend's `lowering` (kernelport/backends/) says which concepts of the dialect table are
qualifiers and how each is lowered, plus backend-only address-space words and predefined
macros.  Spellings are read from the backends, never written here.

Modules by stage: `preprocess` (1-2), `items` (3: splitting, template headers and instantiation),
`rewrite` (3: one item to C99), `parse` (4, and `lower`, the entry point), `lowered` (the result).
"""
from .items import Item, split_items, strip_template_header
from .lowered import AS_TYPE_FN, AUTO_TYPE, NS_SEP, OVERLOAD_SEP, SHARED_STORAGE, LowerError, Lowered
from .parse import lower
from .preprocess import PRELUDE, preprocess, wave_defines
from .rewrite import Qualifiers, rewrite_item

__all__ = ["lower", "preprocess", "wave_defines", "split_items", "strip_template_header", "rewrite_item",
           "Qualifiers", "Item", "Lowered", "LowerError", "PRELUDE", "SHARED_STORAGE", "AUTO_TYPE", "NS_SEP",
           "AS_TYPE_FN", "OVERLOAD_SEP"]
