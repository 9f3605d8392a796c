"""Freeze what a reused Python worker has loaded, once per process (the executor's read and write paths).

pyspark's daemon runs a full `gc.collect()` in a reused Python worker after every task
(pyspark/daemon.py). With pyspark, pyarrow, pandas and our read or write path loaded that walks
~76-80k tracked objects: 22-56 ms of CPU per task (measured on 2 cores, session 11 for the read
path, session 12 for the sinks), often more than the task's own work on one partition of a
micro-batch. What is loaded at a task's start is modules, classes and functions that live as long
as the process, so they go to the permanent generation (`gc.freeze()`, O(1)); objects created
afterwards are collected as before. No collection first: with spark.python.worker.reuse=false every
task is a fresh process and would pay it. Cyclic garbage of that moment (imports, the first task's
objects once they die) is never reclaimed: once per process, bounded.
"""

from __future__ import annotations

import gc

_gc_frozen = False


def freeze_gc_once() -> bool:
    """Freeze the garbage collector's current objects the first time it is called in this
    process; returns whether this call froze."""
    global _gc_frozen
    if _gc_frozen:
        return False
    _gc_frozen = True
    gc.freeze()
    return True
