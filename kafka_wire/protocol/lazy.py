"""Loading the generated codecs (and the broker's handlers) on first use.

The generated codecs are ~110 modules of straight-line code; compiling and executing the ones a
process touches was most of the broker's start (``python -X importtime``; without a bytecode cache
each costs milliseconds to compile). Two mechanisms:

* :class:`LazyModules`: a read-only ``{key: module}`` table of module *names*. Membership,
  iteration and ``len`` import nothing; a lookup imports the one module it returns;
  ``values()``/``items()`` import them all, as an eager dict would have.
* :func:`deferred_submodule`: ``from kafka_wire.protocol.messages import fetch_response`` binds the
  module object at once (it is the one in ``sys.modules``, so identity holds everywhere) but runs
  its code only when one of its attributes is first read. A module used by a part the broker
  wires at start (the client stack, the group coordinator) is then paid for on the first request
  that uses it, not by every start.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import Any, TypeVar

K = TypeVar("K")
_D = TypeVar("_D")


class LazyModules(Mapping[K, ModuleType]):
    """``key -> module`` of ``package``, imported by name (``names[key]``) on first lookup."""

    __slots__ = ("_loaded", "_names", "_package")

    def __init__(self, package: str, names: Mapping[K, str]) -> None:
        self._package = package
        self._names = dict(names)
        self._loaded: dict[K, ModuleType] = {}

    def __getitem__(self, key: K) -> ModuleType:
        module = self._loaded.get(key)
        if module is None:
            module = importlib.import_module(f"{self._package}.{self._names[key]}")
            self._loaded[key] = module
        return module

    # Mapping.get's overloads: one signature with an optional default is the same contract
    def get(self, key: K, default: _D | None = None) -> ModuleType | _D | None:  # type: ignore[override]
        # The request path calls this for every frame: a dict hit first, no exception handling.
        module = self._loaded.get(key)
        if module is not None:
            return module
        if key not in self._names:
            return default
        return self[key]

    def __contains__(self, key: object) -> bool:
        return key in self._names

    def __iter__(self) -> Iterator[K]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def module_name(self, key: K) -> str:
        """The module's name inside the package, without importing it."""
        return self._names[key]

    def loaded(self) -> dict[K, ModuleType]:
        """The modules imported so far (for tests and diagnostics)."""
        return dict(self._loaded)

    def __repr__(self) -> str:
        return f"LazyModules({self._package!r}, {len(self._names)} modules, {len(self._loaded)} loaded)"


# One lock for every deferred module: the first attribute read of one runs its code exactly once
# even when two threads (the broker's loop and a tiered-storage or client thread) get there
# together; importlib.util.LazyLoader does not lock on Python 3.11.
_LOAD_LOCK = threading.RLock()


class _DeferredModule(types.ModuleType):
    """A module created but not yet executed; the first missing-attribute read executes it.

    ``__getattr__`` runs only for names the module's dict lacks, so once the code has run (and the
    class is reset to ``ModuleType``) every lookup is a plain module lookup, at no extra cost.
    """

    def __getattr__(self, attr: str) -> Any:
        with _LOAD_LOCK:
            if type(self) is _DeferredModule:
                spec = object.__getattribute__(self, "__spec__")
                try:
                    spec.loader.exec_module(self)
                except BaseException:
                    sys.modules.pop(spec.name, None)  # the next import starts afresh
                    raise
                # executed: from now on a plain module (no __getattr__ hook)
                self.__class__ = types.ModuleType  # type: ignore[assignment]
        return getattr(self, attr)


def deferred_submodule(package: ModuleType, name: str) -> ModuleType:
    """``package.name``, registered in ``sys.modules`` and on ``package`` but executed on first use."""
    full = f"{package.__name__}.{name}"
    with _LOAD_LOCK:
        module = sys.modules.get(full)
        if module is None:
            spec = importlib.util.find_spec(full)
            if spec is None or spec.loader is None:
                raise ModuleNotFoundError(f"No module named {full!r}", name=full)
            module = importlib.util.module_from_spec(spec)
            module.__class__ = _DeferredModule
            sys.modules[full] = module
        setattr(package, name, module)
        return module


def is_executed(module: ModuleType) -> bool:
    """False while a :func:`deferred_submodule` has not run its code yet (tests, diagnostics)."""
    return type(module) is not _DeferredModule
