"""A read-only ``{key: module}`` mapping that imports each module on first use.

The generated codecs are ~110 modules whose import builds hundreds of classes; a broker answering
Metadata needs four of them. ``REQUESTS``/``RESPONSES`` (and the broker's handler table) are
therefore tables of module *names*: membership, iteration and ``len`` never import anything, a
lookup imports the one module it returns (``importlib`` serialises concurrent first imports), and
``values()``/``items()`` import them all, as an eager dict would have.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType
from typing import TypeVar

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
