"""Generated from Kafka's ListTransactionsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListTransactionsRequest'
API_KEY = 66
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>q')


class ListTransactionsRequest(Struct):
    """ListTransactionsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 66
    VALID_VERSIONS = (0, 2)

    __slots__ = ('state_filters', 'producer_id_filters', 'duration_filter', 'transactional_id_pattern')

    def __init__(self, state_filters: Any = None, producer_id_filters: Any = None, duration_filter: Any = -1, transactional_id_pattern: Any = None) -> None:
        self.state_filters = [] if state_filters is None else state_filters
        self.producer_id_filters = [] if producer_id_filters is None else producer_id_filters
        self.duration_filter = duration_filter
        self.transactional_id_pattern = transactional_id_pattern



def _decode_ListTransactionsRequest_0(buf: Buffer, pos: int) -> tuple[ListTransactionsRequest, int]:
    o = ListTransactionsRequest.__new__(ListTransactionsRequest)
    o.duration_filter = -1
    o.transactional_id_pattern = None
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('StateFilters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('StateFilters')
            append(x)
        o.state_filters = items
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('ProducerIdFilters')
    else:
        o.producer_id_filters = list(struct.unpack_from('>%dq' % n, buf, pos))
        pos += n * 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListTransactionsRequest_1(buf: Buffer, pos: int) -> tuple[ListTransactionsRequest, int]:
    o = ListTransactionsRequest.__new__(ListTransactionsRequest)
    o.transactional_id_pattern = None
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('StateFilters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('StateFilters')
            append(x)
        o.state_filters = items
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('ProducerIdFilters')
    else:
        o.producer_id_filters = list(struct.unpack_from('>%dq' % n, buf, pos))
        pos += n * 8
    (o.duration_filter,) = _S0.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListTransactionsRequest_2(buf: Buffer, pos: int) -> tuple[ListTransactionsRequest, int]:
    o = ListTransactionsRequest.__new__(ListTransactionsRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('StateFilters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('StateFilters')
            append(x)
        o.state_filters = items
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('ProducerIdFilters')
    else:
        o.producer_id_filters = list(struct.unpack_from('>%dq' % n, buf, pos))
        pos += n * 8
    (o.duration_filter,) = _S0.unpack_from(buf, pos)
    pos += 8
    o.transactional_id_pattern, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListTransactionsRequest_0(o: ListTransactionsRequest, out: list[Any]) -> None:
    items = o.state_filters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.producer_id_filters
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%dq' % len(items), *items))
    out.append(b'\x00')


def _encode_ListTransactionsRequest_1(o: ListTransactionsRequest, out: list[Any]) -> None:
    items = o.state_filters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.producer_id_filters
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%dq' % len(items), *items))
    out.append(_S0.pack(o.duration_filter))
    out.append(b'\x00')


def _encode_ListTransactionsRequest_2(o: ListTransactionsRequest, out: list[Any]) -> None:
    items = o.state_filters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.producer_id_filters
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%dq' % len(items), *items))
    out.append(_S0.pack(o.duration_filter))
    out.append(enc_compact_string(o.transactional_id_pattern))
    out.append(b'\x00')


DECODERS = {0: _decode_ListTransactionsRequest_0, 1: _decode_ListTransactionsRequest_1, 2: _decode_ListTransactionsRequest_2}
ENCODERS = {0: _encode_ListTransactionsRequest_0, 1: _encode_ListTransactionsRequest_1, 2: _encode_ListTransactionsRequest_2}
MESSAGE = ListTransactionsRequest
