"""Generated from Kafka's BrokerHeartbeatRequest.json by kafka_wire.protocol.generator: do not edit."""

# ruff: noqa
from __future__ import annotations

import struct
from typing import Any

from kafka_wire.protocol.primitives import (
    UNSET, Buffer, Struct, ZERO_UUID,
    enc_array_len, enc_bytes, enc_compact_array_len, enc_compact_bytes,
    enc_compact_records, enc_compact_string, enc_records, enc_string, enc_tagged_fields,
    read_array_len, read_bytes, read_compact_array_len, read_compact_bytes,
    read_compact_records, read_compact_string, read_records, read_string, read_uvarint,
    null_field, skip_tagged_fields,
)

NAME = 'BrokerHeartbeatRequest'
API_KEY = 63
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>iqq??')
_S1 = struct.Struct('>16s')


class BrokerHeartbeatRequest(Struct):
    """BrokerHeartbeatRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 63
    VALID_VERSIONS = (0, 2)

    __slots__ = ('broker_id', 'broker_epoch', 'current_metadata_offset', 'want_fence', 'want_shut_down', 'offline_log_dirs', 'cordoned_log_dirs')

    def __init__(self, broker_id: Any = 0, broker_epoch: Any = -1, current_metadata_offset: Any = 0, want_fence: Any = False, want_shut_down: Any = False, offline_log_dirs: Any = None, cordoned_log_dirs: Any = None) -> None:
        self.broker_id = broker_id
        self.broker_epoch = broker_epoch
        self.current_metadata_offset = current_metadata_offset
        self.want_fence = want_fence
        self.want_shut_down = want_shut_down
        self.offline_log_dirs = [] if offline_log_dirs is None else offline_log_dirs
        self.cordoned_log_dirs = cordoned_log_dirs



def _decode_BrokerHeartbeatRequest_0(buf: Buffer, pos: int) -> tuple[BrokerHeartbeatRequest, int]:
    o = BrokerHeartbeatRequest.__new__(BrokerHeartbeatRequest)
    o.offline_log_dirs = []
    o.cordoned_log_dirs = None
    (o.broker_id, o.broker_epoch, o.current_metadata_offset, o.want_fence, o.want_shut_down,) = _S0.unpack_from(buf, pos)
    pos += 22
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_BrokerHeartbeatRequest_1(buf: Buffer, pos: int) -> tuple[BrokerHeartbeatRequest, int]:
    o = BrokerHeartbeatRequest.__new__(BrokerHeartbeatRequest)
    o.offline_log_dirs = []
    o.cordoned_log_dirs = None
    (o.broker_id, o.broker_epoch, o.current_metadata_offset, o.want_fence, o.want_shut_down,) = _S0.unpack_from(buf, pos)
    pos += 22
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            n, pos = read_compact_array_len(buf, pos, 16)
            if n < 0:
                null_field('OfflineLogDirs')
            else:
                items = []
                append = items.append
                for _ in range(n):
                    (x,) = _S1.unpack_from(buf, pos)
                    pos += 16
                    append(x)
                o.offline_log_dirs = items
        pos = end
    return o, pos


def _decode_BrokerHeartbeatRequest_2(buf: Buffer, pos: int) -> tuple[BrokerHeartbeatRequest, int]:
    o = BrokerHeartbeatRequest.__new__(BrokerHeartbeatRequest)
    o.offline_log_dirs = []
    o.cordoned_log_dirs = None
    (o.broker_id, o.broker_epoch, o.current_metadata_offset, o.want_fence, o.want_shut_down,) = _S0.unpack_from(buf, pos)
    pos += 22
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            n, pos = read_compact_array_len(buf, pos, 16)
            if n < 0:
                null_field('OfflineLogDirs')
            else:
                items = []
                append = items.append
                for _ in range(n):
                    (x,) = _S1.unpack_from(buf, pos)
                    pos += 16
                    append(x)
                o.offline_log_dirs = items
        elif tag == 1:
            n, pos = read_compact_array_len(buf, pos, 16)
            if n < 0:
                o.cordoned_log_dirs = None
            else:
                items = []
                append = items.append
                for _ in range(n):
                    (x,) = _S1.unpack_from(buf, pos)
                    pos += 16
                    append(x)
                o.cordoned_log_dirs = items
        pos = end
    return o, pos


def _encode_BrokerHeartbeatRequest_0(o: BrokerHeartbeatRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id, o.broker_epoch, o.current_metadata_offset, o.want_fence, o.want_shut_down))
    out.append(b'\x00')


def _encode_BrokerHeartbeatRequest_1(o: BrokerHeartbeatRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id, o.broker_epoch, o.current_metadata_offset, o.want_fence, o.want_shut_down))
    tagged = []
    if o.offline_log_dirs:
        outer, out = out, []
        items = o.offline_log_dirs
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                out.append(_S1.pack(x))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_BrokerHeartbeatRequest_2(o: BrokerHeartbeatRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id, o.broker_epoch, o.current_metadata_offset, o.want_fence, o.want_shut_down))
    tagged = []
    if o.offline_log_dirs:
        outer, out = out, []
        items = o.offline_log_dirs
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                out.append(_S1.pack(x))
        tagged.append((0, out))
        out = outer
    if o.cordoned_log_dirs != None:
        outer, out = out, []
        items = o.cordoned_log_dirs
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                out.append(_S1.pack(x))
        tagged.append((1, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {0: _decode_BrokerHeartbeatRequest_0, 1: _decode_BrokerHeartbeatRequest_1, 2: _decode_BrokerHeartbeatRequest_2}
ENCODERS = {0: _encode_BrokerHeartbeatRequest_0, 1: _encode_BrokerHeartbeatRequest_1, 2: _encode_BrokerHeartbeatRequest_2}
MESSAGE = BrokerHeartbeatRequest
