"""Generated from Kafka's InitProducerIdRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'InitProducerIdRequest'
API_KEY = 22
VALID_VERSIONS = (0, 6)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>iqh')
_S2 = struct.Struct('>iqh??')


class InitProducerIdRequest(Struct):
    """InitProducerIdRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 22
    VALID_VERSIONS = (0, 6)

    __slots__ = ('transactional_id', 'transaction_timeout_ms', 'producer_id', 'producer_epoch', 'enable2_pc', 'keep_prepared_txn')

    def __init__(self, transactional_id: Any = '', transaction_timeout_ms: Any = 0, producer_id: Any = -1, producer_epoch: Any = -1, enable2_pc: Any = False, keep_prepared_txn: Any = False) -> None:
        self.transactional_id = transactional_id
        self.transaction_timeout_ms = transaction_timeout_ms
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.enable2_pc = enable2_pc
        self.keep_prepared_txn = keep_prepared_txn



def _decode_InitProducerIdRequest_0(buf: Buffer, pos: int) -> tuple[InitProducerIdRequest, int]:
    o = InitProducerIdRequest.__new__(InitProducerIdRequest)
    o.producer_id = -1
    o.producer_epoch = -1
    o.enable2_pc = False
    o.keep_prepared_txn = False
    o.transactional_id, pos = read_string(buf, pos)
    (o.transaction_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_InitProducerIdRequest_1(buf: Buffer, pos: int) -> tuple[InitProducerIdRequest, int]:
    o = InitProducerIdRequest.__new__(InitProducerIdRequest)
    o.producer_id = -1
    o.producer_epoch = -1
    o.enable2_pc = False
    o.keep_prepared_txn = False
    o.transactional_id, pos = read_compact_string(buf, pos)
    (o.transaction_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_InitProducerIdRequest_2(buf: Buffer, pos: int) -> tuple[InitProducerIdRequest, int]:
    o = InitProducerIdRequest.__new__(InitProducerIdRequest)
    o.enable2_pc = False
    o.keep_prepared_txn = False
    o.transactional_id, pos = read_compact_string(buf, pos)
    (o.transaction_timeout_ms, o.producer_id, o.producer_epoch,) = _S1.unpack_from(buf, pos)
    pos += 14
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_InitProducerIdRequest_3(buf: Buffer, pos: int) -> tuple[InitProducerIdRequest, int]:
    o = InitProducerIdRequest.__new__(InitProducerIdRequest)
    o.transactional_id, pos = read_compact_string(buf, pos)
    (o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn,) = _S2.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_InitProducerIdRequest_0(o: InitProducerIdRequest, out: list[Any]) -> None:
    out.append(enc_string(o.transactional_id))
    out.append(_S0.pack(o.transaction_timeout_ms))


def _encode_InitProducerIdRequest_1(o: InitProducerIdRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S0.pack(o.transaction_timeout_ms))
    out.append(b'\x00')


def _encode_InitProducerIdRequest_2(o: InitProducerIdRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S1.pack(o.transaction_timeout_ms, o.producer_id, o.producer_epoch))
    out.append(b'\x00')


def _encode_InitProducerIdRequest_3(o: InitProducerIdRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S2.pack(o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn))
    out.append(b'\x00')


DECODERS = {0: _decode_InitProducerIdRequest_0, 1: _decode_InitProducerIdRequest_0, 2: _decode_InitProducerIdRequest_1, 3: _decode_InitProducerIdRequest_2, 4: _decode_InitProducerIdRequest_2, 5: _decode_InitProducerIdRequest_2, 6: _decode_InitProducerIdRequest_3}
ENCODERS = {0: _encode_InitProducerIdRequest_0, 1: _encode_InitProducerIdRequest_0, 2: _encode_InitProducerIdRequest_1, 3: _encode_InitProducerIdRequest_2, 4: _encode_InitProducerIdRequest_2, 5: _encode_InitProducerIdRequest_2, 6: _encode_InitProducerIdRequest_3}
MESSAGE = InitProducerIdRequest
