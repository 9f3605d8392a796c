"""Generated from Kafka's ListTransactionsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListTransactionsResponse'
API_KEY = 66
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>q')


class ListTransactionsResponse(Struct):
    """ListTransactionsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 66
    VALID_VERSIONS = (0, 2)

    __slots__ = ('throttle_time_ms', 'error_code', 'unknown_state_filters', 'transaction_states')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, unknown_state_filters: Any = None, transaction_states: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_state_filters = [] if unknown_state_filters is None else unknown_state_filters
        self.transaction_states = [] if transaction_states is None else transaction_states


class TransactionState(Struct):
    __slots__ = ('transactional_id', 'producer_id', 'transaction_state')

    def __init__(self, transactional_id: Any = '', producer_id: Any = 0, transaction_state: Any = '') -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.transaction_state = transaction_state



def _decode_TransactionState_0(buf: Buffer, pos: int) -> tuple[TransactionState, int]:
    o = TransactionState.__new__(TransactionState)
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    (o.producer_id,) = _S1.unpack_from(buf, pos)
    pos += 8
    o.transaction_state, pos = read_compact_string(buf, pos)
    if o.transaction_state is None:
        null_field('TransactionState')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListTransactionsResponse_0(buf: Buffer, pos: int) -> tuple[ListTransactionsResponse, int]:
    o = ListTransactionsResponse.__new__(ListTransactionsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('UnknownStateFilters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('UnknownStateFilters')
            append(x)
        o.unknown_state_filters = items
    n, pos = read_compact_array_len(buf, pos, 11)
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


def _encode_TransactionState_0(o: TransactionState, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S1.pack(o.producer_id))
    out.append(enc_compact_string(o.transaction_state))
    out.append(b'\x00')


def _encode_ListTransactionsResponse_0(o: ListTransactionsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    items = o.unknown_state_filters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.transaction_states
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TransactionState_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ListTransactionsResponse_0, 1: _decode_ListTransactionsResponse_0, 2: _decode_ListTransactionsResponse_0}
ENCODERS = {0: _encode_ListTransactionsResponse_0, 1: _encode_ListTransactionsResponse_0, 2: _encode_ListTransactionsResponse_0}
MESSAGE = ListTransactionsResponse
