"""Zig-zag varints (Kafka's ``varint``/``varlong``, as used inside record batch v2).

The protocol layer's *unsigned* varints (compact lengths, tagged fields) live in
``kafka_wire.protocol.primitives``; these are the signed, zig-zag flavour of the record format.
"""

from __future__ import annotations

from kafka_wire.errors import CorruptRecordError

_Buffer = bytes | bytearray | memoryview

# Single-byte encodings of zig-zag values 0..127, so the common case is one lookup, no allocation.
_ONE_BYTE: tuple[bytes, ...] = tuple(bytes((u,)) for u in range(128))
# zig-zag decode of a single byte: ZIGZAG1[b] for b < 0x80.
ZIGZAG1: tuple[int, ...] = tuple((b >> 1) ^ -(b & 1) for b in range(128))

MAX_VARINT_BYTES = 5
MAX_VARLONG_BYTES = 10


def zigzag(value: int) -> int:
    """Map a signed value onto an unsigned one: 0, -1, 1, -2, ... -> 0, 1, 2, 3, ..."""
    return value << 1 if value >= 0 else (~value << 1) | 1


def size_of_varint(value: int) -> int:
    """Encoded size in bytes of `value` as a zig-zag varint/varlong."""
    u = value << 1 if value >= 0 else (~value << 1) | 1
    n = 1
    while u >= 0x80:
        u >>= 7
        n += 1
    return n


def encode_varint(value: int) -> bytes:
    u = value << 1 if value >= 0 else (~value << 1) | 1
    if u < 0x80:
        return _ONE_BYTE[u]
    out = bytearray()
    while u >= 0x80:
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def write_varint(out: bytearray, value: int) -> None:
    """Append the zig-zag varint encoding of `value` to `out`."""
    u = value << 1 if value >= 0 else (~value << 1) | 1
    while u >= 0x80:
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u)


def decode_varint(buf: _Buffer, pos: int) -> tuple[int, int]:
    """Decode a zig-zag varint/varlong at `pos`; returns (value, new position).

    Raises CorruptRecordError when the buffer ends mid-varint or the varint exceeds 10 bytes.
    """
    try:
        b = buf[pos]
        if b < 0x80:
            return ZIGZAG1[b], pos + 1
        u = b & 0x7F
        shift = 7
        pos += 1
        while True:
            b = buf[pos]
            pos += 1
            u |= (b & 0x7F) << shift
            if b < 0x80:
                return (u >> 1) ^ -(u & 1), pos
            shift += 7
            if shift >= 7 * MAX_VARLONG_BYTES:
                raise CorruptRecordError("varint longer than 10 bytes")
    except IndexError:
        raise CorruptRecordError("buffer ends inside a varint") from None
