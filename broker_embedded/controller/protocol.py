"""Framing of the controller <-> broker protocol: a 4-byte big-endian length, then a JSON object.

See the package docstring (`broker_embedded.controller`) for the messages.
"""

from __future__ import annotations

import asyncio
import json
import struct
from typing import Any

_LEN = struct.Struct(">I")
MAX_MESSAGE_BYTES = 64 << 20


class ProtocolError(Exception):
    pass


def encode(msg: dict[str, Any]) -> bytes:
    body = json.dumps(msg, separators=(",", ":")).encode()
    return _LEN.pack(len(body)) + body


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message, or None at a clean end of stream."""
    try:
        head = await reader.readexactly(4)
    except asyncio.IncompleteReadError as e:
        if not e.partial:
            return None
        raise ProtocolError("truncated frame header") from None
    (size,) = _LEN.unpack(head)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"frame of {size} bytes is too large")
    body = await reader.readexactly(size)
    msg = json.loads(body)
    if not isinstance(msg, dict) or "op" not in msg:
        raise ProtocolError("a message must be a JSON object with an 'op'")
    return msg
