"""Generated from Kafka's AddPartitionsToTxnRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AddPartitionsToTxnRequest'
API_KEY = 24
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>qh')
_S1 = struct.Struct('>qh?')


class AddPartitionsToTxnRequest(Struct):
    """AddPartitionsToTxnRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 24
    VALID_VERSIONS = (0, 5)

    __slots__ = ('transactions', 'v3_and_below_transactional_id', 'v3_and_below_producer_id', 'v3_and_below_producer_epoch', 'v3_and_below_topics')

    def __init__(self, transactions: Any = None, v3_and_below_transactional_id: Any = '', v3_and_below_producer_id: Any = 0, v3_and_below_producer_epoch: Any = 0, v3_and_below_topics: Any = None) -> None:
        self.transactions = [] if transactions is None else transactions
        self.v3_and_below_transactional_id = v3_and_below_transactional_id
        self.v3_and_below_producer_id = v3_and_below_producer_id
        self.v3_and_below_producer_epoch = v3_and_below_producer_epoch
        self.v3_and_below_topics = [] if v3_and_below_topics is None else v3_and_below_topics


class AddPartitionsToTxnTransaction(Struct):
    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'verify_only', 'topics')

    def __init__(self, transactional_id: Any = '', producer_id: Any = 0, producer_epoch: Any = 0, verify_only: Any = False, topics: Any = None) -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.verify_only = verify_only
        self.topics = [] if topics is None else topics


class AddPartitionsToTxnTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions



def _decode_AddPartitionsToTxnTopic_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnTopic, int]:
    o = AddPartitionsToTxnTopic.__new__(AddPartitionsToTxnTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_AddPartitionsToTxnRequest_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnRequest, int]:
    o = AddPartitionsToTxnRequest.__new__(AddPartitionsToTxnRequest)
    o.transactions = []
    o.v3_and_below_transactional_id, pos = read_string(buf, pos)
    if o.v3_and_below_transactional_id is None:
        null_field('V3AndBelowTransactionalId')
    (o.v3_and_below_producer_id, o.v3_and_below_producer_epoch,) = _S0.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('V3AndBelowTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTopic_0(buf, pos)
            append(x)
        o.v3_and_below_topics = items
    return o, pos


def _decode_AddPartitionsToTxnTopic_1(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnTopic, int]:
    o = AddPartitionsToTxnTopic.__new__(AddPartitionsToTxnTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
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


def _decode_AddPartitionsToTxnRequest_1(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnRequest, int]:
    o = AddPartitionsToTxnRequest.__new__(AddPartitionsToTxnRequest)
    o.transactions = []
    o.v3_and_below_transactional_id, pos = read_compact_string(buf, pos)
    if o.v3_and_below_transactional_id is None:
        null_field('V3AndBelowTransactionalId')
    (o.v3_and_below_producer_id, o.v3_and_below_producer_epoch,) = _S0.unpack_from(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('V3AndBelowTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTopic_1(buf, pos)
            append(x)
        o.v3_and_below_topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AddPartitionsToTxnTransaction_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnTransaction, int]:
    o = AddPartitionsToTxnTransaction.__new__(AddPartitionsToTxnTransaction)
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    (o.producer_id, o.producer_epoch, o.verify_only,) = _S1.unpack_from(buf, pos)
    pos += 11
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AddPartitionsToTxnRequest_2(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnRequest, int]:
    o = AddPartitionsToTxnRequest.__new__(AddPartitionsToTxnRequest)
    o.v3_and_below_transactional_id = ''
    o.v3_and_below_producer_id = 0
    o.v3_and_below_producer_epoch = 0
    o.v3_and_below_topics = []
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        null_field('Transactions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTransaction_0(buf, pos)
            append(x)
        o.transactions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AddPartitionsToTxnTopic_0(o: AddPartitionsToTxnTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_AddPartitionsToTxnRequest_0(o: AddPartitionsToTxnRequest, out: list[Any]) -> None:
    out.append(enc_string(o.v3_and_below_transactional_id))
    out.append(_S0.pack(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch))
    items = o.v3_and_below_topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTopic_0(x, out)


def _encode_AddPartitionsToTxnTopic_1(o: AddPartitionsToTxnTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_AddPartitionsToTxnRequest_1(o: AddPartitionsToTxnRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.v3_and_below_transactional_id))
    out.append(_S0.pack(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch))
    items = o.v3_and_below_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTopic_1(x, out)
    out.append(b'\x00')


def _encode_AddPartitionsToTxnTransaction_0(o: AddPartitionsToTxnTransaction, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S1.pack(o.producer_id, o.producer_epoch, o.verify_only))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTopic_1(x, out)
    out.append(b'\x00')


def _encode_AddPartitionsToTxnRequest_2(o: AddPartitionsToTxnRequest, out: list[Any]) -> None:
    items = o.transactions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTransaction_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AddPartitionsToTxnRequest_0, 1: _decode_AddPartitionsToTxnRequest_0, 2: _decode_AddPartitionsToTxnRequest_0, 3: _decode_AddPartitionsToTxnRequest_1, 4: _decode_AddPartitionsToTxnRequest_2, 5: _decode_AddPartitionsToTxnRequest_2}
ENCODERS = {0: _encode_AddPartitionsToTxnRequest_0, 1: _encode_AddPartitionsToTxnRequest_0, 2: _encode_AddPartitionsToTxnRequest_0, 3: _encode_AddPartitionsToTxnRequest_1, 4: _encode_AddPartitionsToTxnRequest_2, 5: _encode_AddPartitionsToTxnRequest_2}
MESSAGE = AddPartitionsToTxnRequest
