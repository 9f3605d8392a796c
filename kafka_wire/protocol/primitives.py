"""Runtime helpers shared by the generated message codecs.

The generated modules inline fixed-width fields as `struct` calls; what lives here is the
variable-width machinery (unsigned varints, strings, bytes, tagged-field sections) that is
the same for every message.
"""

from __future__ import annotations

import struct
from typing import Any

from kafka_wire.errors import ProtocolDecodeError

Buffer = bytes | bytearray | memoryview

_i16 = struct.Struct(">h")
_i32 = struct.Struct(">i")
_i16_unpack = _i16.unpack_from
_i32_unpack = _i32.unpack_from
_i16_pack = _i16.pack
_i32_pack = _i32.pack

ZERO_UUID = b"\x00" * 16


class _Unset:
    """A constructor argument that was not passed, where None would be a value (a null field)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Struct:
    """Base of every generated message and struct class: value equality and a readable repr."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable values

    def __repr__(self) -> str:
        args = ", ".join(f"{s}={getattr(self, s)!r}" for s in self.__slots__)
        return f"{type(self).__name__}({args})"


# uvarint encodings of small numbers are by far the most common: precompute them.
_UVARINT_CACHE = [bytes([n]) for n in range(128)]


def read_uvarint(buf: Buffer, pos: int) -> tuple[int, int]:
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    result = b & 0x7F
    shift = 7
    pos += 1
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 35:
            raise ProtocolDecodeError("unsigned varint is longer than 5 bytes")


def uvarint(n: int) -> bytes:
    if n < 128:
        return _UVARINT_CACHE[n]
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _check(buf: Buffer, end: int) -> None:
    if end > len(buf):
        raise ProtocolDecodeError("field runs past the end of the frame")


def null_field(name: str) -> None:
    """A -1 (null) length for a field whose spec does not allow null: Kafka refuses the request."""
    raise ProtocolDecodeError(f"non-nullable field {name} was null")


def read_string(buf: Buffer, pos: int) -> tuple[str | None, int]:
    (n,) = _i16_unpack(buf, pos)
    pos += 2
    if n < 0:
        return None, pos
    end = pos + n
    _check(buf, end)
    return str(buf[pos:end], "utf-8"), end


def read_compact_string(buf: Buffer, pos: int) -> tuple[str | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    end = pos + n - 1
    _check(buf, end)
    return str(buf[pos:end], "utf-8"), end


def read_bytes(buf: Buffer, pos: int) -> tuple[bytes | None, int]:
    (n,) = _i32_unpack(buf, pos)
    pos += 4
    if n < 0:
        return None, pos
    end = pos + n
    _check(buf, end)
    return bytes(buf[pos:end]), end


def read_compact_bytes(buf: Buffer, pos: int) -> tuple[bytes | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    end = pos + n - 1
    _check(buf, end)
    return bytes(buf[pos:end]), end


def read_records(buf: Buffer, pos: int) -> tuple[memoryview | None, int]:
    """Record data is handed out as a view of the frame: produce stamps offsets in place."""
    (n,) = _i32_unpack(buf, pos)
    pos += 4
    if n < 0:
        return None, pos
    end = pos + n
    _check(buf, end)
    return memoryview(buf)[pos:end], end


def read_compact_records(buf: Buffer, pos: int) -> tuple[memoryview | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    end = pos + n - 1
    _check(buf, end)
    return memoryview(buf)[pos:end], end


def read_array_len(buf: Buffer, pos: int, min_elem: int = 1) -> tuple[int, int]:
    """An array's element count, refused unless `n` elements of at least `min_elem` wire bytes
    each fit in what is left of the frame: checked before anything is allocated for them (a
    2-billion count in a 20-byte frame must not build a list first)."""
    (n,) = _i32_unpack(buf, pos)
    pos += 4
    if n > 0 and n * (min_elem or 1) > len(buf) - pos:
        raise ProtocolDecodeError(f"array length {n} exceeds the {len(buf) - pos} bytes left in the frame")
    return n, pos


def read_compact_array_len(buf: Buffer, pos: int, min_elem: int = 1) -> tuple[int, int]:
    n, pos = read_uvarint(buf, pos)
    n -= 1
    if n > 0 and n * (min_elem or 1) > len(buf) - pos:
        raise ProtocolDecodeError(f"array length {n} exceeds the {len(buf) - pos} bytes left in the frame")
    return n, pos


def skip_tagged_fields(buf: Buffer, pos: int) -> int:
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        _tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        pos += size
    _check(buf, pos)
    return pos


def enc_string(s: str | None) -> bytes:
    if s is None:
        return b"\xff\xff"
    data = s.encode()
    return _i16_pack(len(data)) + data


def enc_compact_string(s: str | None) -> bytes:
    if s is None:
        return b"\x00"
    data = s.encode()
    return uvarint(len(data) + 1) + data


def enc_bytes(b: Buffer | None) -> bytes:
    if b is None:
        return b"\xff\xff\xff\xff"
    return _i32_pack(len(b)) + bytes(b)


def enc_compact_bytes(b: Buffer | None) -> bytes:
    if b is None:
        return b"\x00"
    return uvarint(len(b) + 1) + bytes(b)


def enc_records(out: list[Any], b: Buffer | None) -> None:
    """Records are appended as their own chunk so large fetch data is never copied here."""
    if b is None:
        out.append(b"\xff\xff\xff\xff")
        return
    out.append(_i32_pack(len(b)))
    out.append(b)


def enc_compact_records(out: list[Any], b: Buffer | None) -> None:
    if b is None:
        out.append(b"\x00")
        return
    out.append(uvarint(len(b) + 1))
    out.append(b)


def enc_array_len(items: list[Any] | None) -> bytes:
    if items is None:
        return b"\xff\xff\xff\xff"
    return _i32_pack(len(items))


def enc_compact_array_len(items: list[Any] | None) -> bytes:
    if items is None:
        return b"\x00"
    return uvarint(len(items) + 1)


def enc_tagged_fields(fields: list[tuple[int, list[Any]]]) -> list[Any]:
    """A tagged-field section from (tag, encoded chunks) pairs in ascending tag order."""
    out: list[Any] = [uvarint(len(fields))]
    for tag, chunks in fields:
        size = sum(len(c) for c in chunks)
        out.append(uvarint(tag))
        out.append(uvarint(size))
        out.extend(chunks)
    return out
