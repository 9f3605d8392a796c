"""Generated from Kafka's ShareFetchRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ShareFetchRequest'
API_KEY = 78
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>iiiiii')
_S1 = struct.Struct('>16s')
_S2 = struct.Struct('>i')
_S3 = struct.Struct('>qq')
_S4 = struct.Struct('>iiiiiib?')


class ShareFetchRequest(Struct):
    """ShareFetchRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 78
    VALID_VERSIONS = (1, 2)

    __slots__ = ('group_id', 'member_id', 'share_session_epoch', 'max_wait_ms', 'min_bytes', 'max_bytes', 'max_records', 'batch_size', 'share_acquire_mode', 'is_renew_ack', 'topics', 'forgotten_topics_data')

    def __init__(self, group_id: Any = None, member_id: Any = '', share_session_epoch: Any = 0, max_wait_ms: Any = 0, min_bytes: Any = 0, max_bytes: Any = 2147483647, max_records: Any = 0, batch_size: Any = 0, share_acquire_mode: Any = 0, is_renew_ack: Any = False, topics: Any = None, forgotten_topics_data: Any = None) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.share_session_epoch = share_session_epoch
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.max_records = max_records
        self.batch_size = batch_size
        self.share_acquire_mode = share_acquire_mode
        self.is_renew_ack = is_renew_ack
        self.topics = [] if topics is None else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is None else forgotten_topics_data


class FetchTopic(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class FetchPartition(Struct):
    __slots__ = ('partition_index', 'partition_max_bytes', 'acknowledgement_batches')

    def __init__(self, partition_index: Any = 0, partition_max_bytes: Any = 0, acknowledgement_batches: Any = None) -> None:
        self.partition_index = partition_index
        self.partition_max_bytes = partition_max_bytes
        self.acknowledgement_batches = [] if acknowledgement_batches is None else acknowledgement_batches


class AcknowledgementBatch(Struct):
    __slots__ = ('first_offset', 'last_offset', 'acknowledge_types')

    def __init__(self, first_offset: Any = 0, last_offset: Any = 0, acknowledge_types: Any = None) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.acknowledge_types = [] if acknowledge_types is None else acknowledge_types


class ForgottenTopic(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions



def _decode_AcknowledgementBatch_0(buf: Buffer, pos: int) -> tuple[AcknowledgementBatch, int]:
    o = AcknowledgementBatch.__new__(AcknowledgementBatch)
    (o.first_offset, o.last_offset,) = _S3.unpack_from(buf, pos)
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


def _decode_FetchPartition_0(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.partition_max_bytes = 0
    (o.partition_index,) = _S2.unpack_from(buf, pos)
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


def _decode_FetchTopic_0(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ForgottenTopic_0(buf: Buffer, pos: int) -> tuple[ForgottenTopic, int]:
    o = ForgottenTopic.__new__(ForgottenTopic)
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ShareFetchRequest_0(buf: Buffer, pos: int) -> tuple[ShareFetchRequest, int]:
    o = ShareFetchRequest.__new__(ShareFetchRequest)
    o.share_acquire_mode = 0
    o.is_renew_ack = False
    o.group_id, pos = read_compact_string(buf, pos)
    o.member_id, pos = read_compact_string(buf, pos)
    (o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size,) = _S0.unpack_from(buf, pos)
    pos += 24
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_0(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_0(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ShareFetchRequest_1(buf: Buffer, pos: int) -> tuple[ShareFetchRequest, int]:
    o = ShareFetchRequest.__new__(ShareFetchRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    o.member_id, pos = read_compact_string(buf, pos)
    (o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size, o.share_acquire_mode, o.is_renew_ack,) = _S4.unpack_from(buf, pos)
    pos += 26
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_0(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_0(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AcknowledgementBatch_0(o: AcknowledgementBatch, out: list[Any]) -> None:
    out.append(_S3.pack(o.first_offset, o.last_offset))
    items = o.acknowledge_types
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%db' % len(items), *items))
    out.append(b'\x00')


def _encode_FetchPartition_0(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index))
    items = o.acknowledgement_batches
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AcknowledgementBatch_0(x, out)
    out.append(b'\x00')


def _encode_FetchTopic_0(o: FetchTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_0(x, out)
    out.append(b'\x00')


def _encode_ForgottenTopic_0(o: ForgottenTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_ShareFetchRequest_0(o: ShareFetchRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_0(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_0(x, out)
    out.append(b'\x00')


def _encode_ShareFetchRequest_1(o: ShareFetchRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S4.pack(o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size, o.share_acquire_mode, o.is_renew_ack))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_0(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_ShareFetchRequest_0, 2: _decode_ShareFetchRequest_1}
ENCODERS = {1: _encode_ShareFetchRequest_0, 2: _encode_ShareFetchRequest_1}
MESSAGE = ShareFetchRequest
