"""The fields of a device's properties (`cudaGetDeviceProperties(&deviceProp, 0)`) a launch's sizes
read: only the run's device gives them, so verify's inputs choose those of one reference device,
an A100 (sm_80; CUDA's documented figures), the same for the original and every port.

llm.c's global_norm launches `maxThreadsPerMultiProcessor * multiProcessorCount / block_size` blocks
("just enough to fill the grid"): 2048 * 108 / 512 = 432.  `warpSize` is not among them: the wave
is each run's own (32 for the original, 64 for a port on CDNA), never an input chosen once; a size
read from it stays not run, as do array fields (maxGridSize[1]: 65535 blocks).
"""
from __future__ import annotations

from . import cexpr

# CUDA type of the properties -> field -> (C type, the reference device's value)
REFERENCE = "an A100's (sm_80)"
DEVICE_PROPS: dict[str, dict[str, tuple[str, int]]] = {
    "cudaDeviceProp": {
        "multiProcessorCount": ("int", 108),
        "maxThreadsPerMultiProcessor": ("int", 2048),
        "maxBlocksPerMultiProcessor": ("int", 32),
        "maxThreadsPerBlock": ("int", 1024),
        "regsPerBlock": ("int", 65536),
        "regsPerMultiprocessor": ("int", 65536),
        "sharedMemPerBlock": ("size_t", 49152),
        "sharedMemPerMultiprocessor": ("size_t", 167936),
        "sharedMemPerBlockOptin": ("size_t", 166912),
        "l2CacheSize": ("int", 41943040),
        "major": ("int", 8),
        "minor": ("int", 0),
    },
}


def device_property(scope, name: str | None) -> tuple[cexpr.CType, int, str] | None:
    """(C type, value, why) when `name` is `v.field` of a variable host code declares with a device
    properties type (`cudaDeviceProp deviceProp;`) and the field is one a size may read; else None."""
    if not name or name.count(".") != 1:
        return None
    base, member = (s.strip() for s in name.split("."))
    d = scope.lookup(f"{base}#type") or scope.lookup(f"{base}#pointee")
    props = DEVICE_PROPS.get(" ".join(d.text.replace("&", " ").replace("struct ", " ").split())) if d else None
    if not props or member not in props:
        return None
    ctype, value = props[member]
    return cexpr.ctype(ctype), value, f"the device's {member}: {REFERENCE}, a reference device's property chosen"
