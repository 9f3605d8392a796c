"""Compatibility levels over any schema type: BACKWARD = the new schema reads the old one's data,
FORWARD = the old schema reads the new one's data, FULL = both; *_TRANSITIVE against every live
version instead of only the latest. The per-type rule (``backward_messages``) lives in ``formats``;
Avro's schema resolution is re-exported here for the callers that used it from this module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .formats.avro import PRIMITIVES, PROMOTIONS, reader_can_read

LEVELS = (
    "NONE",
    "BACKWARD",
    "BACKWARD_TRANSITIVE",
    "FORWARD",
    "FORWARD_TRANSITIVE",
    "FULL",
    "FULL_TRANSITIVE",
)


def check_level(level: str, new: Any, existing: list[Any], backward: Callable[[Any, Any], list[str]]) -> list[str]:
    """Messages explaining why ``new`` breaks ``level`` against ``existing`` (oldest first); empty if
    fine. ``backward(old, new)`` is the schema type's rule."""
    if level == "NONE" or not existing:
        return []
    targets = existing if level.endswith("_TRANSITIVE") else existing[-1:]
    base = level.removesuffix("_TRANSITIVE")
    messages: list[str] = []
    for old in reversed(targets):
        if base in ("BACKWARD", "FULL"):
            messages += [f"BACKWARD: {m}" for m in backward(old, new)]
        if base in ("FORWARD", "FULL"):
            messages += [f"FORWARD: {m}" for m in backward(new, old)]
    return messages


__all__ = ["LEVELS", "PRIMITIVES", "PROMOTIONS", "check_level", "reader_can_read"]
