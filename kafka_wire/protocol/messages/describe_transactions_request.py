"""Generated from Kafka's DescribeTransactionsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeTransactionsRequest'
API_KEY = 65
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)



class DescribeTransactionsRequest(Struct):
    """DescribeTransactionsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 65
    VALID_VERSIONS = (0, 0)

    __slots__ = ('transactional_ids',)

    def __init__(self, transactional_ids: Any = None) -> None:
        self.transactional_ids = [] if transactional_ids is None else transactional_ids



def _decode_DescribeTransactionsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeTransactionsRequest, int]:
    o = DescribeTransactionsRequest.__new__(DescribeTransactionsRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('TransactionalIds')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('TransactionalIds')
            append(x)
        o.transactional_ids = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeTransactionsRequest_0(o: DescribeTransactionsRequest, out: list[Any]) -> None:
    items = o.transactional_ids
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeTransactionsRequest_0}
ENCODERS = {0: _encode_DescribeTransactionsRequest_0}
MESSAGE = DescribeTransactionsRequest
