"""The rules, one module per family: importing this package registers them all."""
from . import platform, sync, tool, warp_size  # noqa: F401
