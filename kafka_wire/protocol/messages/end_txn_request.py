"""Generated from Kafka's EndTxnRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'EndTxnRequest'
API_KEY = 26
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>qh?')


class EndTxnRequest(Struct):
    """EndTxnRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 26
    VALID_VERSIONS = (0, 5)

    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'committed')

    def __init__(self, transactional_id: Any = '', producer_id: Any = 0, producer_epoch: Any = 0, committed: Any = False) -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.committed = committed



def _decode_EndTxnRequest_0(buf: Buffer, pos: int) -> tuple[EndTxnRequest, int]:
    o = EndTxnRequest.__new__(EndTxnRequest)
    o.transactional_id, pos = read_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    (o.producer_id, o.producer_epoch, o.committed,) = _S0.unpack_from(buf, pos)
    pos += 11
    return o, pos


def _decode_EndTxnRequest_1(buf: Buffer, pos: int) -> tuple[EndTxnRequest, int]:
    o = EndTxnRequest.__new__(EndTxnRequest)
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    (o.producer_id, o.producer_epoch, o.committed,) = _S0.unpack_from(buf, pos)
    pos += 11
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_EndTxnRequest_0(o: EndTxnRequest, out: list[Any]) -> None:
    out.append(enc_string(o.transactional_id))
    out.append(_S0.pack(o.producer_id, o.producer_epoch, o.committed))


def _encode_EndTxnRequest_1(o: EndTxnRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S0.pack(o.producer_id, o.producer_epoch, o.committed))
    out.append(b'\x00')


DECODERS = {0: _decode_EndTxnRequest_0, 1: _decode_EndTxnRequest_0, 2: _decode_EndTxnRequest_0, 3: _decode_EndTxnRequest_1, 4: _decode_EndTxnRequest_1, 5: _decode_EndTxnRequest_1}
ENCODERS = {0: _encode_EndTxnRequest_0, 1: _encode_EndTxnRequest_0, 2: _encode_EndTxnRequest_0, 3: _encode_EndTxnRequest_1, 4: _encode_EndTxnRequest_1, 5: _encode_EndTxnRequest_1}
MESSAGE = EndTxnRequest
