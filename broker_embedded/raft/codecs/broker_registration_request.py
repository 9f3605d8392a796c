"""Generated from Kafka's BrokerRegistrationRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'BrokerRegistrationRequest'
API_KEY = 62
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>16s')
_S2 = struct.Struct('>Hh')
_S3 = struct.Struct('>hh')
_S4 = struct.Struct('>?')
_S5 = struct.Struct('>q')


class BrokerRegistrationRequest(Struct):
    """BrokerRegistrationRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 62
    VALID_VERSIONS = (0, 4)

    __slots__ = ('broker_id', 'cluster_id', 'incarnation_id', 'listeners', 'features', 'rack', 'is_migrating_zk_broker', 'log_dirs', 'previous_broker_epoch')

    def __init__(self, broker_id: Any = 0, cluster_id: Any = '', incarnation_id: Any = ZERO_UUID, listeners: Any = None, features: Any = None, rack: Any = '', is_migrating_zk_broker: Any = False, log_dirs: Any = None, previous_broker_epoch: Any = -1) -> None:
        self.broker_id = broker_id
        self.cluster_id = cluster_id
        self.incarnation_id = incarnation_id
        self.listeners = [] if listeners is None else listeners
        self.features = [] if features is None else features
        self.rack = rack
        self.is_migrating_zk_broker = is_migrating_zk_broker
        self.log_dirs = [] if log_dirs is None else log_dirs
        self.previous_broker_epoch = previous_broker_epoch


class Listener(Struct):
    __slots__ = ('name', 'host', 'port', 'security_protocol')

    def __init__(self, name: Any = '', host: Any = '', port: Any = 0, security_protocol: Any = 0) -> None:
        self.name = name
        self.host = host
        self.port = port
        self.security_protocol = security_protocol


class Feature(Struct):
    __slots__ = ('name', 'min_supported_version', 'max_supported_version')

    def __init__(self, name: Any = '', min_supported_version: Any = 0, max_supported_version: Any = 0) -> None:
        self.name = name
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version



def _decode_Listener_0(buf: Buffer, pos: int) -> tuple[Listener, int]:
    o = Listener.__new__(Listener)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port, o.security_protocol,) = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Feature_0(buf: Buffer, pos: int) -> tuple[Feature, int]:
    o = Feature.__new__(Feature)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.min_supported_version, o.max_supported_version,) = _S3.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_BrokerRegistrationRequest_0(buf: Buffer, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    o = BrokerRegistrationRequest.__new__(BrokerRegistrationRequest)
    o.is_migrating_zk_broker = False
    o.log_dirs = []
    o.previous_broker_epoch = -1
    (o.broker_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.incarnation_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Listeners')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Listener_0(buf, pos)
            append(x)
        o.listeners = items
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Features')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Feature_0(buf, pos)
            append(x)
        o.features = items
    o.rack, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_BrokerRegistrationRequest_1(buf: Buffer, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    o = BrokerRegistrationRequest.__new__(BrokerRegistrationRequest)
    o.log_dirs = []
    o.previous_broker_epoch = -1
    (o.broker_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.incarnation_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Listeners')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Listener_0(buf, pos)
            append(x)
        o.listeners = items
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Features')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Feature_0(buf, pos)
            append(x)
        o.features = items
    o.rack, pos = read_compact_string(buf, pos)
    (o.is_migrating_zk_broker,) = _S4.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_BrokerRegistrationRequest_2(buf: Buffer, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    o = BrokerRegistrationRequest.__new__(BrokerRegistrationRequest)
    o.previous_broker_epoch = -1
    (o.broker_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.incarnation_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Listeners')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Listener_0(buf, pos)
            append(x)
        o.listeners = items
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Features')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Feature_0(buf, pos)
            append(x)
        o.features = items
    o.rack, pos = read_compact_string(buf, pos)
    (o.is_migrating_zk_broker,) = _S4.unpack_from(buf, pos)
    pos += 1
    n, pos = read_compact_array_len(buf, pos, 16)
    if n < 0:
        null_field('LogDirs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            (x,) = _S1.unpack_from(buf, pos)
            pos += 16
            append(x)
        o.log_dirs = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_BrokerRegistrationRequest_3(buf: Buffer, pos: int) -> tuple[BrokerRegistrationRequest, int]:
    o = BrokerRegistrationRequest.__new__(BrokerRegistrationRequest)
    (o.broker_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.incarnation_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Listeners')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Listener_0(buf, pos)
            append(x)
        o.listeners = items
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Features')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Feature_0(buf, pos)
            append(x)
        o.features = items
    o.rack, pos = read_compact_string(buf, pos)
    (o.is_migrating_zk_broker,) = _S4.unpack_from(buf, pos)
    pos += 1
    n, pos = read_compact_array_len(buf, pos, 16)
    if n < 0:
        null_field('LogDirs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            (x,) = _S1.unpack_from(buf, pos)
            pos += 16
            append(x)
        o.log_dirs = items
    (o.previous_broker_epoch,) = _S5.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_Listener_0(o: Listener, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.host))
    out.append(_S2.pack(o.port, o.security_protocol))
    out.append(b'\x00')


def _encode_Feature_0(o: Feature, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S3.pack(o.min_supported_version, o.max_supported_version))
    out.append(b'\x00')


def _encode_BrokerRegistrationRequest_0(o: BrokerRegistrationRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.incarnation_id))
    items = o.listeners
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Listener_0(x, out)
    items = o.features
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Feature_0(x, out)
    out.append(enc_compact_string(o.rack))
    out.append(b'\x00')


def _encode_BrokerRegistrationRequest_1(o: BrokerRegistrationRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.incarnation_id))
    items = o.listeners
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Listener_0(x, out)
    items = o.features
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Feature_0(x, out)
    out.append(enc_compact_string(o.rack))
    out.append(_S4.pack(o.is_migrating_zk_broker))
    out.append(b'\x00')


def _encode_BrokerRegistrationRequest_2(o: BrokerRegistrationRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.incarnation_id))
    items = o.listeners
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Listener_0(x, out)
    items = o.features
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Feature_0(x, out)
    out.append(enc_compact_string(o.rack))
    out.append(_S4.pack(o.is_migrating_zk_broker))
    items = o.log_dirs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(_S1.pack(x))
    out.append(b'\x00')


def _encode_BrokerRegistrationRequest_3(o: BrokerRegistrationRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.broker_id))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.incarnation_id))
    items = o.listeners
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Listener_0(x, out)
    items = o.features
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Feature_0(x, out)
    out.append(enc_compact_string(o.rack))
    out.append(_S4.pack(o.is_migrating_zk_broker))
    items = o.log_dirs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(_S1.pack(x))
    out.append(_S5.pack(o.previous_broker_epoch))
    out.append(b'\x00')


DECODERS = {0: _decode_BrokerRegistrationRequest_0, 1: _decode_BrokerRegistrationRequest_1, 2: _decode_BrokerRegistrationRequest_2, 3: _decode_BrokerRegistrationRequest_3, 4: _decode_BrokerRegistrationRequest_3}
ENCODERS = {0: _encode_BrokerRegistrationRequest_0, 1: _encode_BrokerRegistrationRequest_1, 2: _encode_BrokerRegistrationRequest_2, 3: _encode_BrokerRegistrationRequest_3, 4: _encode_BrokerRegistrationRequest_3}
MESSAGE = BrokerRegistrationRequest
