"""Kafka request/response codecs: headers, bodies and frames, on top of the generated modules.

Sans-IO: everything here works on bytes. A server decodes a request frame with
`decode_request` and encodes its answer with `encode_response`; a client does the mirror image
with `encode_request` and `decode_response`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from kafka_wire.errors import ProtocolDecodeError, PykafkaError
from kafka_wire.protocol.messages import (
    REQUEST_FLEXIBLE_VERSIONS,
    REQUESTS,
    RESPONSE_FLEXIBLE_VERSIONS,
    RESPONSES,
    request_header,
    response_header,
)
from kafka_wire.protocol.primitives import Buffer, read_string, skip_tagged_fields

API_VERSIONS_KEY = 18
_i32 = struct.Struct(">i")
_header_v1 = struct.Struct(">hhi")


class UnsupportedVersionError(PykafkaError):
    """The (API key, version) pair is outside what our codecs know."""

    def __init__(self, api_key: int, api_version: int) -> None:
        super().__init__(f"unsupported API key {api_key} version {api_version}")
        self.api_key = api_key
        self.api_version = api_version


def _is_flexible(flexible_versions: dict[int, tuple[int, int] | None], api_key: int, version: int) -> bool:
    # From the generated table, not the codec module: a header decodes without importing it.
    flex = flexible_versions.get(api_key)
    return flex is not None and flex[0] <= version <= flex[1]


def request_module(api_key: int) -> ModuleType | None:
    return REQUESTS.get(api_key)


def response_module(api_key: int) -> ModuleType | None:
    return RESPONSES.get(api_key)


def request_header_version(api_key: int, api_version: int) -> int:
    return 2 if _is_flexible(REQUEST_FLEXIBLE_VERSIONS, api_key, api_version) else 1


def response_header_version(api_key: int, api_version: int) -> int:
    # KIP-511: an ApiVersions response always carries a v0 header, so a client that sent a
    # version the broker does not know can still read the error.
    if api_key == API_VERSIONS_KEY:
        return 0
    return 1 if _is_flexible(RESPONSE_FLEXIBLE_VERSIONS, api_key, api_version) else 0


@dataclass(slots=True)
class RequestHeader:
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None


def decode_request_header(buf: Buffer) -> tuple[RequestHeader, int]:
    """Decode the header of a request frame (without its size prefix)."""
    try:
        api_key, api_version, correlation_id = _header_v1.unpack_from(buf, 0)
        client_id, pos = read_string(buf, 8)
        if request_header_version(api_key, api_version) >= 2:
            pos = skip_tagged_fields(buf, pos)
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise ProtocolDecodeError(f"malformed request header: {e}") from e
    return RequestHeader(api_key, api_version, correlation_id, client_id), pos


def decode_request_body(header: RequestHeader, buf: Buffer, pos: int) -> Any:
    module = REQUESTS.get(header.api_key)
    if module is None:
        raise UnsupportedVersionError(header.api_key, header.api_version)
    decoder = module.DECODERS.get(header.api_version)
    if decoder is None:
        raise UnsupportedVersionError(header.api_key, header.api_version)
    try:
        body, end = decoder(buf, pos)
    except (struct.error, IndexError, UnicodeDecodeError, ValueError, MemoryError) as e:
        raise ProtocolDecodeError(f"malformed {module.NAME} v{header.api_version}: {e}") from e
    if end > len(buf):
        raise ProtocolDecodeError(f"{module.NAME} v{header.api_version} runs past its frame")
    return body


def decode_request(buf: Buffer) -> tuple[RequestHeader, Any]:
    header, pos = decode_request_header(buf)
    return header, decode_request_body(header, buf, pos)


def encode_response(api_key: int, api_version: int, correlation_id: int, body: Any) -> list[Any]:
    """Chunks of a whole response frame (size prefix included), ready for writelines."""
    module = RESPONSES.get(api_key)
    encoder = None if module is None else module.ENCODERS.get(api_version)
    if encoder is None:
        raise UnsupportedVersionError(api_key, api_version)
    chunks: list[Any] = [b"", _i32.pack(correlation_id)]
    if response_header_version(api_key, api_version) >= 1:
        chunks.append(b"\x00")
    encoder(body, chunks)
    size = sum(len(c) for c in chunks)
    chunks[0] = _i32.pack(size)
    return chunks


def encode_request(api_key: int, api_version: int, correlation_id: int, client_id: str | None, body: Any) -> bytes:
    module = REQUESTS.get(api_key)
    encoder = None if module is None else module.ENCODERS.get(api_version)
    if encoder is None:
        raise UnsupportedVersionError(api_key, api_version)
    header = request_header.RequestHeader(
        request_api_key=api_key,
        request_api_version=api_version,
        correlation_id=correlation_id,
        client_id=client_id,
    )
    chunks: list[Any] = []
    request_header.ENCODERS[request_header_version(api_key, api_version)](header, chunks)
    encoder(body, chunks)
    payload = b"".join(bytes(c) if isinstance(c, memoryview) else c for c in chunks)
    return _i32.pack(len(payload)) + payload


def decode_response(api_key: int, api_version: int, buf: Buffer) -> tuple[int, Any]:
    """(correlation id, body) of a response frame without its size prefix."""
    module = RESPONSES.get(api_key)
    decoder = None if module is None else module.DECODERS.get(api_version)
    if decoder is None:
        raise UnsupportedVersionError(api_key, api_version)
    hv = response_header_version(api_key, api_version)
    try:
        header, pos = response_header.DECODERS[hv](buf, 0)
        body, end = decoder(buf, pos)
    except (struct.error, IndexError, UnicodeDecodeError, ValueError, MemoryError) as e:
        raise ProtocolDecodeError(f"malformed response for API {api_key} v{api_version}: {e}") from e
    if end > len(buf):
        raise ProtocolDecodeError(f"response for API {api_key} v{api_version} runs past its frame")
    return header.correlation_id, body


__all__ = [
    "REQUESTS",
    "RESPONSES",
    "RequestHeader",
    "UnsupportedVersionError",
    "decode_request",
    "decode_request_body",
    "decode_request_header",
    "decode_response",
    "encode_request",
    "encode_response",
    "request_header_version",
    "response_header_version",
    "request_module",
    "response_module",
]
