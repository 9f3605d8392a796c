"""An embedded, Kafka-compatible broker written in Python."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from broker_embedded.cluster import EmbeddedCluster
    from broker_embedded.embedded import EmbeddedBroker

# resolved on first use (PEP 562): `python -m broker_embedded` and a process that only needs one of
# them do not import the other (the cluster's subprocess machinery; issue 17: start -> ready)
_LAZY = {"EmbeddedBroker": "broker_embedded.embedded", "EmbeddedCluster": "broker_embedded.cluster"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = ["EmbeddedBroker", "EmbeddedCluster"]
