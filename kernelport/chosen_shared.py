"""Sizes verify chose against the shared arrays a kernel sizes itself (stop 64).

A value only the run gives (`n_sat = atoi(argv[1])`, a parameter no call passes) is chosen (infer_inputs:
1024 for a size).  A kernel may assume far smaller ones: heldout86 gnss's weight_kernel stages `n_sat`
satellites in `__shared__ double s_sat[MAX_SATS * 3]` (MAX_SATS = 64; the program never passes more),
heldout85 gpu-conv's tiles hold `(16 + 2 * (kSize / 2))^2` floats in `tile[18 * 18]`.  An access past such
an array at chosen sizes is no defect of the original: the choice broke the kernel's assumption.  The
inputs are then inferred again with every chosen size halved (as `--arg NAME=VALUE` would give them), until
the original runs or no chosen size can shrink; then the not-run reason says the kernel assumes smaller
sizes than verify can choose, and which values to pass.  A size host code gives stays the original's fault.
"""
from __future__ import annotations

from dataclasses import replace

from .annotations import Text
from .errors import Location
from .infer_inputs import CommandLine, Inferred

_HERE = Location("<chosen sizes halved>", 1, 1)
# (the reasons infer_inputs and device_props give a value that is the program's or the device's, not a size choice)
_PROGRAM_S = ("its value before", "a reference device's property")


def _sizes(got: Inferred) -> dict[str, int]:
    """The chosen sizes (not buffer lengths) that can still be halved: name -> value.  Only verify's own
    choices: a reference device's property (`prop.maxThreadsPerBlock`) and a value the program had before the
    run changed it (an option's default) are the program's geometry; halved with the sizes they shrank its
    launch (to blocks narrower than a wave of 64, where no port's wave-64 defect can show)."""
    return {n: v for n, v in got.values.items() if n in got.chosen and not n.endswith("[]") and v > 1
            and not any(w in got.chosen[n] for w in _PROGRAM_S)}


def past_shared(got: Inferred, fault) -> bool:
    """An access past a shared array, or a file-scope one (`__constant__ float w[31 * 31]`, no parameter of the
    kernel: host code copies `k_rows * k_cols` floats into it), a size the kernel's own text fixes, at sizes
    verify chose."""
    return array_kind(got, fault) is not None and any(not k.endswith("[]") for k in got.chosen)


def array_kind(got: Inferred, fault) -> str | None:
    """'shared' or 'file-scope' for an access past an array the kernel's text sizes, else None."""
    space = getattr(fault, "space", None)
    if space == "shared":
        return "shared"
    buf = getattr(fault, "buffer", None)
    return "file-scope" if space in ("global", "constant") and buf is not None and buf not in got.spec.args else None


def halved(got: Inferred, smaller, given: CommandLine | None, fault: str, kind: str = "shared") -> Inferred | None:
    """The inputs inferred again with each chosen size halved (None where none can shrink, or the
    inference no longer gives inputs).  smaller(given=..., shrink=...): verify's re-inference."""
    sizes = _sizes(got)
    if not sizes:
        return None
    given = given or CommandLine()
    cl = replace(given, scalars={**given.scalars, **{n: Text(str(v // 2), _HERE) for n, v in sizes.items()}})
    again = smaller(given=cl, shrink=0)
    if not isinstance(again, Inferred):
        return None
    again.chosen.update({n: got.chosen[n] for n in sizes})  # still verify's choice, not the program's
    again.values.update({n: v // 2 for n, v in sizes.items()})
    first = again.first_chosen = getattr(got, "first_chosen", sizes)
    given_notes = {f"{n} = {v // 2} from the command line" for n, v in sizes.items()}
    again.inferred = [x for x in again.inferred if x not in given_notes]
    again.inferred.append(", ".join(f"{n} = {v // 2}" for n, v in sizes.items()) + " chosen (halved from "
                          + ", ".join(f"{v}" for v in sizes.values()) + ", first " + ", ".join(
                              f"{first.get(n, v)}" for n, v in sizes.items()) + ": at those the original accessed "
                          f"past a {kind} array its own text sizes, {fault}; pass --arg NAME=VALUE to choose)")
    return again


def past_shared_text(got: Inferred, wave: int, fault: str, kind: str = "shared") -> str:
    """The not-run text where no chosen size can shrink further and the original still overruns the array."""
    names = ", ".join(f"--arg {n}=VALUE" for n in got.chosen if not n.endswith("[]"))
    return (f"not run: the sizes verify chose overrun a {kind} array the kernel sizes itself, at wave {wave} "
            f"({fault}): the kernel assumes smaller ones than verify can choose here (hint: pass the program's "
            f"values: {names})")
