"""How many of a tree translate's analyses with includes a content-keyed cache across projects could share.

    python bench/header_analysis_keys.py [--code CHECKOUT] [DIR]

Every CUDA file under DIR (default tests/realcorpus) translated alone to hip (a project per file, as
bench_translate.py --tree does); each analysis Project.analysis builds is keyed on the unit's path, its
options, the project decisions it sees (`_model_key`) and the bytes of every file its scan reaches.
Prints the analyses built and the distinct keys: the difference is what issue 15's header cache could
skip (an upper bound on the key, not a claim that the analyses are equal: that needs port_hashes).
"""
from __future__ import annotations

import collections
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s shared modules (under -P too)
from checkout_tree import arguments, drive  # noqa: E402


def main() -> None:
    args = arguments(__doc__, None)
    from kernelport.project import Project
    keys: collections.Counter = collections.Counter()
    analysis = Project.analysis

    def counted(self, path, opts=None):
        (root, o), seen = self._model_key(path, opts)
        h = hashlib.sha1()
        for f in sorted(str(f) for f in self.scan(root, o).files()):
            h.update(f.encode() + b"\0" + Path(f).read_bytes())
        self.module(path, opts)
        if self._models[self._model_key(path, opts)[0]][2] is None:  # about to be built
            keys[(str(root), repr(o), seen, h.hexdigest())] += 1
        return analysis(self, path, opts)
    Project.analysis = counted
    drive(args.tree, "hip", True)
    print(f"{args.code.resolve()}: analyses built by Project.analysis {sum(keys.values())}, distinct content keys {len(keys)}")


if __name__ == "__main__":
    main()
