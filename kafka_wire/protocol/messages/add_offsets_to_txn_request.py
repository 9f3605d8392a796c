"""Generated from Kafka's AddOffsetsToTxnRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AddOffsetsToTxnRequest'
API_KEY = 25
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>qh')


class AddOffsetsToTxnRequest(Struct):
    """AddOffsetsToTxnRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 25
    VALID_VERSIONS = (0, 4)

    __slots__ = ('transactional_id', 'producer_id', 'producer_epoch', 'group_id')

    def __init__(self, transactional_id: Any = '', producer_id: Any = 0, producer_epoch: Any = 0, group_id: Any = '') -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.group_id = group_id



def _decode_AddOffsetsToTxnRequest_0(buf: Buffer, pos: int) -> tuple[AddOffsetsToTxnRequest, int]:
    o = AddOffsetsToTxnRequest.__new__(AddOffsetsToTxnRequest)
    o.transactional_id, pos = read_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    (o.producer_id, o.producer_epoch,) = _S0.unpack_from(buf, pos)
    pos += 10
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    return o, pos


def _decode_AddOffsetsToTxnRequest_1(buf: Buffer, pos: int) -> tuple[AddOffsetsToTxnRequest, int]:
    o = AddOffsetsToTxnRequest.__new__(AddOffsetsToTxnRequest)
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    (o.producer_id, o.producer_epoch,) = _S0.unpack_from(buf, pos)
    pos += 10
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AddOffsetsToTxnRequest_0(o: AddOffsetsToTxnRequest, out: list[Any]) -> None:
    out.append(enc_string(o.transactional_id))
    out.append(_S0.pack(o.producer_id, o.producer_epoch))
    out.append(enc_string(o.group_id))


def _encode_AddOffsetsToTxnRequest_1(o: AddOffsetsToTxnRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S0.pack(o.producer_id, o.producer_epoch))
    out.append(enc_compact_string(o.group_id))
    out.append(b'\x00')


DECODERS = {0: _decode_AddOffsetsToTxnRequest_0, 1: _decode_AddOffsetsToTxnRequest_0, 2: _decode_AddOffsetsToTxnRequest_0, 3: _decode_AddOffsetsToTxnRequest_1, 4: _decode_AddOffsetsToTxnRequest_1}
ENCODERS = {0: _encode_AddOffsetsToTxnRequest_0, 1: _encode_AddOffsetsToTxnRequest_0, 2: _encode_AddOffsetsToTxnRequest_0, 3: _encode_AddOffsetsToTxnRequest_1, 4: _encode_AddOffsetsToTxnRequest_1}
MESSAGE = AddOffsetsToTxnRequest
