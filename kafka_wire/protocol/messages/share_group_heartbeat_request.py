"""Generated from Kafka's ShareGroupHeartbeatRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ShareGroupHeartbeatRequest'
API_KEY = 76
VALID_VERSIONS = (1, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')


class ShareGroupHeartbeatRequest(Struct):
    """ShareGroupHeartbeatRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 76
    VALID_VERSIONS = (1, 1)

    __slots__ = ('group_id', 'member_id', 'member_epoch', 'rack_id', 'subscribed_topic_names')

    def __init__(self, group_id: Any = '', member_id: Any = '', member_epoch: Any = 0, rack_id: Any = None, subscribed_topic_names: Any = None) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.rack_id = rack_id
        self.subscribed_topic_names = subscribed_topic_names



def _decode_ShareGroupHeartbeatRequest_0(buf: Buffer, pos: int) -> tuple[ShareGroupHeartbeatRequest, int]:
    o = ShareGroupHeartbeatRequest.__new__(ShareGroupHeartbeatRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.rack_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        o.subscribed_topic_names = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('SubscribedTopicNames')
            append(x)
        o.subscribed_topic_names = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ShareGroupHeartbeatRequest_0(o: ShareGroupHeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.member_epoch))
    out.append(enc_compact_string(o.rack_id))
    items = o.subscribed_topic_names
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


DECODERS = {1: _decode_ShareGroupHeartbeatRequest_0}
ENCODERS = {1: _encode_ShareGroupHeartbeatRequest_0}
MESSAGE = ShareGroupHeartbeatRequest
