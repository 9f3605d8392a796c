"""Generated from Kafka's AlterUserScramCredentialsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterUserScramCredentialsRequest'
API_KEY = 51
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>b')
_S1 = struct.Struct('>bi')


class AlterUserScramCredentialsRequest(Struct):
    """AlterUserScramCredentialsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 51
    VALID_VERSIONS = (0, 0)

    __slots__ = ('deletions', 'upsertions')

    def __init__(self, deletions: Any = None, upsertions: Any = None) -> None:
        self.deletions = [] if deletions is None else deletions
        self.upsertions = [] if upsertions is None else upsertions


class ScramCredentialDeletion(Struct):
    __slots__ = ('name', 'mechanism')

    def __init__(self, name: Any = '', mechanism: Any = 0) -> None:
        self.name = name
        self.mechanism = mechanism


class ScramCredentialUpsertion(Struct):
    __slots__ = ('name', 'mechanism', 'iterations', 'salt', 'salted_password')

    def __init__(self, name: Any = '', mechanism: Any = 0, iterations: Any = 0, salt: Any = b'', salted_password: Any = b'') -> None:
        self.name = name
        self.mechanism = mechanism
        self.iterations = iterations
        self.salt = salt
        self.salted_password = salted_password



def _decode_ScramCredentialDeletion_0(buf: Buffer, pos: int) -> tuple[ScramCredentialDeletion, int]:
    o = ScramCredentialDeletion.__new__(ScramCredentialDeletion)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.mechanism,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ScramCredentialUpsertion_0(buf: Buffer, pos: int) -> tuple[ScramCredentialUpsertion, int]:
    o = ScramCredentialUpsertion.__new__(ScramCredentialUpsertion)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.mechanism, o.iterations,) = _S1.unpack_from(buf, pos)
    pos += 5
    o.salt, pos = read_compact_bytes(buf, pos)
    if o.salt is None:
        null_field('Salt')
    o.salted_password, pos = read_compact_bytes(buf, pos)
    if o.salted_password is None:
        null_field('SaltedPassword')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterUserScramCredentialsRequest_0(buf: Buffer, pos: int) -> tuple[AlterUserScramCredentialsRequest, int]:
    o = AlterUserScramCredentialsRequest.__new__(AlterUserScramCredentialsRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Deletions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ScramCredentialDeletion_0(buf, pos)
            append(x)
        o.deletions = items
    n, pos = read_compact_array_len(buf, pos, 9)
    if n < 0:
        null_field('Upsertions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ScramCredentialUpsertion_0(buf, pos)
            append(x)
        o.upsertions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ScramCredentialDeletion_0(o: ScramCredentialDeletion, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S0.pack(o.mechanism))
    out.append(b'\x00')


def _encode_ScramCredentialUpsertion_0(o: ScramCredentialUpsertion, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S1.pack(o.mechanism, o.iterations))
    out.append(enc_compact_bytes(o.salt))
    out.append(enc_compact_bytes(o.salted_password))
    out.append(b'\x00')


def _encode_AlterUserScramCredentialsRequest_0(o: AlterUserScramCredentialsRequest, out: list[Any]) -> None:
    items = o.deletions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ScramCredentialDeletion_0(x, out)
    items = o.upsertions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ScramCredentialUpsertion_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AlterUserScramCredentialsRequest_0}
ENCODERS = {0: _encode_AlterUserScramCredentialsRequest_0}
MESSAGE = AlterUserScramCredentialsRequest
