"""The thread-dependence tags of divergence.py, ordered (a join is their max): UNIFORM, the same in
every thread of the block; WARP, the same within a warp only; THREAD, per thread."""
UNIFORM, WARP, THREAD = 0, 1, 2
