"""Generated from Kafka's DescribeTransactionsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeTransactionsResponse'
API_KEY = 65
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>iqqh')


class DescribeTransactionsResponse(Struct):
    """DescribeTransactionsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 65
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'transaction_states')

    def __init__(self, throttle_time_ms: Any = 0, transaction_states: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.transaction_states = [] if transaction_states is None else transaction_states


class TransactionState(Struct):
    __slots__ = ('error_code', 'transactional_id', 'transaction_state', 'transaction_timeout_ms', 'transaction_start_time_ms', 'producer_id', 'producer_epoch', 'topics')

    def __init__(self, error_code: Any = 0, transactional_id: Any = '', transaction_state: Any = '', transaction_timeout_ms: Any = 0, transaction_start_time_ms: Any = 0, producer_id: Any = 0, producer_epoch: Any = 0, topics: Any = None) -> None:
        self.error_code = error_code
        self.transactional_id = transactional_id
        self.transaction_state = transaction_state
        self.transaction_timeout_ms = transaction_timeout_ms
        self.transaction_start_time_ms = transaction_start_time_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.topics = [] if topics is None else topics


class TopicData(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions



def _decode_TopicData_0(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
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


def _decode_TransactionState_0(buf: Buffer, pos: int) -> tuple[TransactionState, int]:
    o = TransactionState.__new__(TransactionState)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    o.transaction_state, pos = read_compact_string(buf, pos)
    if o.transaction_state is None:
        null_field('TransactionState')
    (o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch,) = _S2.unpack_from(buf, pos)
    pos += 22
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeTransactionsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeTransactionsResponse, int]:
    o = DescribeTransactionsResponse.__new__(DescribeTransactionsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 28)
    if n < 0:
        null_field('TransactionStates')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TransactionState_0(buf, pos)
            append(x)
        o.transaction_states = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_TopicData_0(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_TransactionState_0(o: TransactionState, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.transactional_id))
    out.append(enc_compact_string(o.transaction_state))
    out.append(_S2.pack(o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)
    out.append(b'\x00')


def _encode_DescribeTransactionsResponse_0(o: DescribeTransactionsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.transaction_states
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TransactionState_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeTransactionsResponse_0}
ENCODERS = {0: _encode_DescribeTransactionsResponse_0}
MESSAGE = DescribeTransactionsResponse
