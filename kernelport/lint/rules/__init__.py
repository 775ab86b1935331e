"""The rules, one module per family (the WS family in `ws_*.py` by what its rules look at):
importing this package registers them all."""
from . import (platform, sync, tool, ws_constants, ws_counts, ws_fullmask, ws_geometry, ws_groups, ws_hipbuild,  # noqa: F401
               sync_slots, ws_lanemasks, ws_ladders, ws_lanes, ws_masks, ws_propblocks, ws_tiles, ws_tuning, ws_warpcounts, ws_widths)
