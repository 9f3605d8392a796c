"""One module per Kafka API, mirroring the protocol (like franz-go kfake's ``00_produce.go``).

Each module defines ``API_KEY`` and ``handle(broker, ctx, request)`` returning the response
object, an ``asyncio.Future`` of one (requests parked in the purgatory), or ``None`` when the
protocol sends no response (acks=0 produce).

A handler registers itself by being here: every module of this package that defines ``API_KEY``
is collected into ``HANDLERS`` (as kfake's ``regKey`` in each file), so adding an API key touches
one file. ``versions.py`` then advertises it when the release profile has it.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def _collect() -> dict[int, ModuleType]:
    handlers: dict[int, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        key = getattr(module, "API_KEY", None)
        if key is None:
            continue  # a helper module shared by handlers
        if key in handlers:
            raise RuntimeError(f"API key {key} is handled by both {handlers[key].__name__} and {module.__name__}")
        if not callable(getattr(module, "handle", None)):
            raise RuntimeError(f"{module.__name__} defines API_KEY {key} but no handle()")
        handlers[key] = module
    return handlers


HANDLERS: dict[int, ModuleType] = _collect()
