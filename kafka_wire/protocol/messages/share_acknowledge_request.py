"""Generated from Kafka's ShareAcknowledgeRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ShareAcknowledgeRequest'
API_KEY = 79
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>16s')
_S2 = struct.Struct('>qq')
_S3 = struct.Struct('>i?')


class ShareAcknowledgeRequest(Struct):
    """ShareAcknowledgeRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 79
    VALID_VERSIONS = (1, 2)

    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'is_renew_ack', 'topics')

    def __init__(self, group_id: Any = None, member_id: Any = '', share_session_epoch: Any = 0, is_renew_ack: Any = False, topics: Any = None) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.is_renew_ack = is_renew_ack
        self.topics = [] if topics is None else topics


class AcknowledgeTopic(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class AcknowledgePartition(Struct):
    __slots__ = ('partition_index', 'acknowledgement_batches')

    def __init__(self, partition_index: Any = 0, acknowledgement_batches: Any = None) -> None:
        self.partition_index = partition_index
        self.acknowledgement_batches = [] if acknowledgement_batches is None else acknowledgement_batches


class AcknowledgementBatch(Struct):
    __slots__ = ('first_offset', 'last_offset', 'acknowledge_types')

    def __init__(self, first_offset: Any = 0, last_offset: Any = 0, acknowledge_types: Any = None) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.acknowledge_types = [] if acknowledge_types is None else acknowledge_types



def _decode_AcknowledgementBatch_0(buf: Buffer, pos: int) -> tuple[AcknowledgementBatch, int]:
    o = AcknowledgementBatch.__new__(AcknowledgementBatch)
    (o.first_offset, o.last_offset,) = _S2.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('AcknowledgeTypes')
    else:
        o.acknowledge_types = list(struct.unpack_from('>%db' % n, buf, pos))
        pos += n * 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AcknowledgePartition_0(buf: Buffer, pos: int) -> tuple[AcknowledgePartition, int]:
    o = AcknowledgePartition.__new__(AcknowledgePartition)
    (o.partition_index,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('AcknowledgementBatches')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AcknowledgementBatch_0(buf, pos)
            append(x)
        o.acknowledgement_batches = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AcknowledgeTopic_0(buf: Buffer, pos: int) -> tuple[AcknowledgeTopic, int]:
    o = AcknowledgeTopic.__new__(AcknowledgeTopic)
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AcknowledgePartition_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ShareAcknowledgeRequest_0(buf: Buffer, pos: int) -> tuple[ShareAcknowledgeRequest, int]:
    o = ShareAcknowledgeRequest.__new__(ShareAcknowledgeRequest)
    o.is_renew_ack = False
    o.group_id, pos = read_compact_string(buf, pos)
    o.member_id, pos = read_compact_string(buf, pos)
    (o.share_session_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AcknowledgeTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ShareAcknowledgeRequest_1(buf: Buffer, pos: int) -> tuple[ShareAcknowledgeRequest, int]:
    o = ShareAcknowledgeRequest.__new__(ShareAcknowledgeRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    o.member_id, pos = read_compact_string(buf, pos)
    (o.share_session_epoch, o.is_renew_ack,) = _S3.unpack_from(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AcknowledgeTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AcknowledgementBatch_0(o: AcknowledgementBatch, out: list[Any]) -> None:
    out.append(_S2.pack(o.first_offset, o.last_offset))
    items = o.acknowledge_types
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%db' % len(items), *items))
    out.append(b'\x00')


def _encode_AcknowledgePartition_0(o: AcknowledgePartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index))
    items = o.acknowledgement_batches
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AcknowledgementBatch_0(x, out)
    out.append(b'\x00')


def _encode_AcknowledgeTopic_0(o: AcknowledgeTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AcknowledgePartition_0(x, out)
    out.append(b'\x00')


def _encode_ShareAcknowledgeRequest_0(o: ShareAcknowledgeRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.share_session_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AcknowledgeTopic_0(x, out)
    out.append(b'\x00')


def _encode_ShareAcknowledgeRequest_1(o: ShareAcknowledgeRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S3.pack(o.share_session_epoch, o.is_renew_ack))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AcknowledgeTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_ShareAcknowledgeRequest_0, 2: _decode_ShareAcknowledgeRequest_1}
ENCODERS = {1: _encode_ShareAcknowledgeRequest_0, 2: _encode_ShareAcknowledgeRequest_1}
MESSAGE = ShareAcknowledgeRequest
