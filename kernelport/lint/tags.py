"""The thread-dependence tags of divergence.py, ordered (a join is their max): UNIFORM, the same in
every thread of the block; WARP, the same within a warp (or wave) only; WARP32, the same within a
32-lane warp but not across a 64-lane wave (`threadIdx.x / 32`, `>> 5`); ROW, the same within a
32-lane warp only where blockDim.x is a multiple of 32 (`threadIdx.y` where no launch decides the
block's x extent: kernelport/lint/rowtags.py); THREAD, per thread.  WARP32 and ROW come only from a
wave-aware analysis (lint's); translate's group-mask checks read those values as before (WARP, THREAD)."""
UNIFORM, WARP, WARP32, ROW, THREAD = 0, 1, 2, 3, 4
