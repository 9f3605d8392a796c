"""Differential tests of the generated codecs against two independent implementations.

For every (message, version) both oracles know:

* bytes from OUR encoder decode with the oracle to the same field values, and
* bytes from the ORACLE's encoder decode with ours to the same values (and, where the two
  encoders agree on what to emit, are byte-identical to what we would have written).

The oracles are kafka-python 3.x (`kafka.protocol.*`: ApiMessage/ApiData/ApiHeader classes built
from the same JSON specs at runtime) and kio (`kio.schema.<api>.v<N>`: dataclasses generated from
the Kafka specs ahead of time, with a Rust reader and a Python writer). Values are compared as plain
nested dicts keyed by our snake_case field names (`plain` below), after undoing each oracle's
representation choices (UUID objects, enums, timedeltas, bit sets, tuples, ...).
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import importlib
import io
import pkgutil
import struct
import types
import typing
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka_wire.protocol import decode_request, decode_response, encode_request, encode_response
from kafka_wire.protocol.generator import FieldSpec, SpecModel, StructSpec
from tests.unit.test_protocol_roundtrip import (
    MODELS,
    MODULES,
    PAIRS,
    ZERO_UUID,
    MessageStrategies,
    decode,
    encode,
    pair_id,
)

ORACLE_SETTINGS = settings(
    max_examples=10,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- our side: objects -> plain values ----------------------------------------------------------


def plain(obj: Any, st_spec: StructSpec, v: int) -> dict[str, Any]:
    """Our message object as nested dicts/lists of the fields present in version `v`."""
    return {f.py_name: _plain_value(getattr(obj, f.py_name), f, v) for f in st_spec.fields if v in f.versions}


def _plain_value(val: Any, f: FieldSpec, v: int) -> Any:
    if val is None:
        return None
    if f.is_array:
        return [_plain_elem(x, f, v) for x in val]
    return _plain_elem(val, f, v)


def _plain_elem(x: Any, f: FieldSpec, v: int) -> Any:
    if f.struct is not None:
        return plain(x, f.struct, v)
    if f.elem_type in ("bytes", "records"):
        return bytes(x)
    return x


def default_plain(name: str, f: FieldSpec, v: int) -> dict[str, Any]:
    assert f.struct is not None
    return plain(getattr(MODULES[name], f.struct.name)(), f.struct, v)


# =================================================================================================
# kafka-python
# =================================================================================================

kafka = pytest.importorskip("kafka")
from kafka.protocol.api_data import ApiData  # noqa: E402
from kafka.protocol.api_header import ApiHeader, RequestHeader, ResponseHeader  # noqa: E402
from kafka.protocol.api_message import ApiMessage  # noqa: E402
from kafka.protocol.schemas.fields.codecs import BitField  # noqa: E402


def _all_subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_all_subclasses(sub))
    return out


def _kp_classes() -> dict[str, type]:
    """Our module name -> kafka-python's primary class for the same spec."""
    import kafka.protocol as kp

    for info in pkgutil.walk_packages(kp.__path__, "kafka.protocol."):
        if ".old" in info.name or info.name.endswith("generate_stubs"):
            continue  # the pre-3.0 hand-written structs, and a dev script
        importlib.import_module(info.name)
    by_key: dict[tuple[str, int | None], type] = {}
    by_name: dict[str, type] = {}
    for cls in _all_subclasses(ApiMessage):
        if cls._class_version is None:  # skip the Foo[v] version wrappers
            by_key[(cls.type, cls.API_KEY)] = cls
    for cls in _all_subclasses(ApiData):
        by_name[cls.name] = cls
    by_name["RequestHeader"] = RequestHeader
    by_name["ResponseHeader"] = ResponseHeader
    out = {}
    for name, model in MODELS.items():
        if model.kind in ("request", "response"):
            cls = by_key.get((model.kind, model.api_key))
        else:
            cls = by_name.get(model.name)
        if cls is not None:
            assert cls._json["name"] == model.name
            out[name] = cls
    return out


KP_CLASSES = _kp_classes()


def kp_version_known(name: str, v: int) -> bool:
    cls = KP_CLASSES.get(name)
    if cls is None:
        return False
    lo, hi = cls._valid_versions  # the spec's own range, unclamped
    # Quirk: ApiMessage clamps the *class's* min version to 0 (it accepts v0-v2 of ProduceRequest
    # although the spec says 3-13); we only ask it about versions in the spec's validVersions.
    return lo <= v <= hi


def _kp_fields(st_spec: StructSpec, kstruct: Any) -> list[tuple[FieldSpec, Any]]:
    # kafka-python parses the same JSON files, so fields line up by position. Matching by
    # position (not by name) absorbs its json_patch renames, e.g. MetadataResponse's
    # ClusterAuthorizedOperations -> `authorized_operations`.
    kfields = kstruct._fields or ()
    assert len(kfields) == len(st_spec.fields), (st_spec.name, kfields)
    return list(zip(st_spec.fields, kfields, strict=True))


def _kp_is_bitfield(kf: Any) -> bool:
    return getattr(kf, "_type", None) is BitField


def kp_plain(obj: Any, st_spec: StructSpec, kstruct: Any, v: int, name: str) -> dict[str, Any]:
    out = {}
    for f, kf in _kp_fields(st_spec, kstruct):
        if v in f.versions:
            out[f.py_name] = _kp_plain_value(getattr(obj, kf.name), f, kf, v, name)
    return out


def _kp_plain_value(val: Any, f: FieldSpec, kf: Any, v: int, name: str) -> Any:
    if f.is_array:
        if val is None:
            return None
        return [_kp_plain_elem(x, f, kf.array_of, v, name) for x in val]
    if f.struct is not None and val is None and v not in f.nullable_versions:
        # Quirk: kafka-python's default for a tagged struct is None; the spec's (and ours) is the
        # struct with its fields' defaults. A tagged struct absent from the wire decodes to None.
        return default_plain(name, f, v)
    return _kp_plain_elem(val, f, kf, v, name)


def _kp_plain_elem(x: Any, f: FieldSpec, kf: Any, v: int, name: str) -> Any:
    if _kp_is_bitfield(kf):
        # Quirk: kafka-python json_patches the int32 *AuthorizedOperations fields into a set of bit
        # positions, with None for the "not requested" sentinel INT32_MIN.
        bits = 0
        for b in {31} if x is None else x:
            bits |= 1 << b
        return bits - (1 << 32) if bits & 0x80000000 else bits
    if f.elem_type == "uuid":
        return ZERO_UUID if x is None else x.bytes
    if x is None:
        return None
    if f.struct is not None:
        return kp_plain(x, f.struct, kf, v, name)
    if f.elem_type in ("bytes", "records"):
        return bytes(x)
    return x


def kp_build(p: dict[str, Any], st_spec: StructSpec, kstruct: Any, v: int, name: str, top_cls: Any = None) -> Any:
    """A kafka-python object holding the plain values `p`."""
    kwargs = {}
    for f, kf in _kp_fields(st_spec, kstruct):
        if v in f.versions:
            kwargs[kf.name] = _kp_build_value(p[f.py_name], f, kf, v, name)
    if top_cls is not None:
        return top_cls(version=v, **kwargs) if not issubclass(top_cls, ApiHeader) else top_cls(**kwargs)
    return kstruct.data_class(**kwargs)


def _kp_build_value(val: Any, f: FieldSpec, kf: Any, v: int, name: str) -> Any:
    if f.is_array:
        if val is None:
            return None
        return [_kp_build_elem(x, f, kf.array_of, v, name) for x in val]
    if f.struct is not None and val == default_plain(name, f, v) and v in f.tagged_versions:
        return None  # see _kp_plain_value: kafka-python's tagged-struct default is None
    return _kp_build_elem(val, f, kf, v, name)


def _kp_build_elem(x: Any, f: FieldSpec, kf: Any, v: int, name: str) -> Any:
    if _kp_is_bitfield(kf):
        bits = BitField.from_32_bit_field(x & 0xFFFFFFFF)
        return None if bits == {31} else bits
    if f.elem_type == "uuid":
        # kafka-python's uuid default is None (encoded as zeros): keep tagged uuids at default
        return None if x == ZERO_UUID else uuid.UUID(bytes=x)
    if x is None:
        return None
    if f.struct is not None:
        return kp_build(x, f.struct, kf, v, name)
    return x


def kp_encode(name: str, v: int, kobj: Any) -> bytes:
    model = MODELS[name]
    if model.kind == "header":
        data = kobj.encode(flexible=v in model.flexible)
    elif model.kind == "data":
        data = kobj.encode(version=v, header=False)
    else:
        data = kobj.encode(version=v)
    return bytes(data)


def kp_decode(name: str, v: int, data: bytes) -> Any:
    model = MODELS[name]
    cls = KP_CLASSES[name]
    if model.kind == "header":
        return cls.decode(io.BytesIO(data), flexible=v in model.flexible)
    if model.kind == "data":
        return cls.decode(io.BytesIO(data), version=v, header=False)
    return cls.decode(data, version=v)


def _kp_override(model: SpecModel, st_spec: StructSpec, f: FieldSpec, v: int) -> Any:
    if model.name == "ApiVersionsResponse" and st_spec is model.root and f.name == "ErrorCode":
        # Quirk: kafka-python decodes an ApiVersionsResponse with a non-zero error code as v0,
        # whatever version was asked for (what a broker answers to a version it does not know).
        return st.just(0)
    return None


@functools.cache
def kp_strategy(name: str, v: int) -> Any:
    return MessageStrategies(name, v, override=_kp_override).message()


def _kp_pair(pair: tuple[str, int]) -> tuple[str, int]:
    name, v = pair
    if name not in KP_CLASSES:
        pytest.skip(f"kafka-python has no class for {MODELS[name].name}")
    if not kp_version_known(name, v):
        pytest.skip(f"kafka-python does not know {MODELS[name].name} v{v}")
    return name, v


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_ours_to_kafka_python(pair: tuple[str, int]) -> None:
    name, v = _kp_pair(pair)
    model = MODELS[name]
    module = MODULES[name]
    kstruct = KP_CLASSES[name]._struct

    @ORACLE_SETTINGS
    @given(kp_strategy(name, v))
    def check(msg: Any) -> None:
        data = encode(module, v, msg)
        kobj = kp_decode(name, v, data)
        assert kp_plain(kobj, model.root, kstruct, v, name) == plain(msg, model.root, v)

    check()


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_kafka_python_to_ours(pair: tuple[str, int]) -> None:
    name, v = _kp_pair(pair)
    model = MODELS[name]
    module = MODULES[name]
    cls = KP_CLASSES[name]

    @ORACLE_SETTINGS
    @given(kp_strategy(name, v))
    def check(msg: Any) -> None:
        p = plain(msg, model.root, v)
        data = kp_encode(name, v, kp_build(p, model.root, cls._struct, v, name, top_cls=cls))
        obj, end = decode(module, v, data)
        assert end == len(data)
        assert plain(obj, model.root, v) == p
        # Both encoders emit the same bytes: tagged fields only when they differ from their default
        # (kp_build maps our defaults onto kafka-python's), in ascending tag order. (kafka-python
        # writes tags in declaration order, which is ascending in every current spec.)
        assert data == encode(module, v, msg)

    check()


# =================================================================================================
# kio
# =================================================================================================

pytest.importorskip("kio")
from kio.index import load_entity_schema  # noqa: E402
from kio.schema.errors import ErrorCode as KioErrorCode  # noqa: E402
from kio.schema.index import api_key_map as kio_api_key_map  # noqa: E402
from kio.serial import entity_reader, entity_writer  # noqa: E402
from kio.static.constants import EntityType  # noqa: E402

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MS = datetime.timedelta(milliseconds=1)


def _norm(name: str) -> str:
    return name.replace("_", "").lower()


def kio_class(name: str, v: int) -> type | None:
    model = MODELS[name]
    if model.kind in ("request", "response"):
        kio_name = kio_api_key_map.get(model.api_key)
        entity_type = EntityType[model.kind]
    else:
        kio_name = name  # request_header, consumer_protocol_subscription, ...
        entity_type = EntityType.header if model.kind == "header" else EntityType.data
    if kio_name is None:
        return None
    try:
        return load_entity_schema(kio_name, v, entity_type)
    except Exception:  # kio.index.UnknownEntity: the version is not in kio's index
        return None


def _kio_inner(t: Any) -> Any:
    """The entity class inside `X`, `X | None`, `tuple[X, ...]` or `tuple[X, ...] | None`."""
    for _ in range(3):
        if typing.get_origin(t) in (types.UnionType, typing.Union):
            t = next(a for a in typing.get_args(t) if a is not type(None))
        elif typing.get_origin(t) is tuple:
            t = typing.get_args(t)[0]
    return t


def _kio_optional(t: Any) -> bool:
    return typing.get_origin(t) in (types.UnionType, typing.Union) and type(None) in typing.get_args(t)


def kio_field(kcls: type, f: FieldSpec) -> dataclasses.Field[Any]:
    """kio's dataclass field for our field: snake_case names, except that kio drops the `Ms`
    suffix of fields it models as timedelta/datetime (ThrottleTimeMs -> throttle_time)."""
    by_norm = {_norm(kf.name): kf for kf in dataclasses.fields(kcls)}
    key = _norm(f.py_name)
    kf = by_norm.get(key)
    if kf is None and key.endswith("ms"):
        kf = by_norm.get(key[:-2])
    assert kf is not None, f"kio's {kcls.__name__} has no field for {f.name}"
    return kf


def kio_plain(obj: Any, st_spec: StructSpec, kcls: type, v: int) -> dict[str, Any]:
    out = {}
    names = set()
    for f in st_spec.fields:
        if v not in f.versions:
            continue
        kf = kio_field(kcls, f)
        names.add(kf.name)
        out[f.py_name] = _kio_plain_value(getattr(obj, kf.name), f, kf, v)
    # kio's version-specific classes have exactly the fields of that version
    assert names == {kf.name for kf in dataclasses.fields(kcls)}
    return out


def _kio_plain_value(val: Any, f: FieldSpec, kf: dataclasses.Field[Any], v: int) -> Any:
    if f.is_array:
        if val is None:
            return None
        return [_kio_plain_elem(x, f, kf, v) for x in val]
    return _kio_plain_elem(val, f, kf, v)


def _kio_plain_elem(x: Any, f: FieldSpec, kf: dataclasses.Field[Any], v: int) -> Any:
    kind = kf.metadata.get("kafka_type")
    if f.elem_type == "uuid":
        return ZERO_UUID if x is None else x.bytes  # kio decodes the all-zero uuid as None
    if x is None:
        if kind == "datetime_i64":
            return -1  # kio's nullable timestamps: -1 <-> None
        return None
    if f.struct is not None:
        return kio_plain(x, f.struct, _kio_inner(kf.type), v)
    if kind in ("timedelta_i32", "timedelta_i64"):
        return x // MS
    if kind == "datetime_i64":
        return (x - EPOCH) // MS
    if kind == "error_code":
        return int(x.value)
    if f.elem_type in ("bytes", "records"):
        return bytes(x)
    if f.elem_type == "float64":
        return float(x)
    if f.elem_type == "bool":
        return bool(x)
    if f.elem_type == "string":
        return str(x)
    return int(x)


def kio_build(p: dict[str, Any], st_spec: StructSpec, kcls: type, v: int) -> Any:
    kwargs = {}
    for f in st_spec.fields:
        if v in f.versions:
            kf = kio_field(kcls, f)
            kwargs[kf.name] = _kio_build_value(p[f.py_name], f, kf, v)
    return kcls(**kwargs)


def _kio_build_value(val: Any, f: FieldSpec, kf: dataclasses.Field[Any], v: int) -> Any:
    if f.is_array:
        if val is None:
            return None
        return tuple(_kio_build_elem(x, f, kf, v) for x in val)
    return _kio_build_elem(val, f, kf, v)


def _kio_build_elem(x: Any, f: FieldSpec, kf: dataclasses.Field[Any], v: int) -> Any:
    kind = kf.metadata.get("kafka_type")
    if f.elem_type == "uuid":
        return None if x == ZERO_UUID else uuid.UUID(bytes=x)
    if x is None:
        return None
    if f.struct is not None:
        return kio_build(x, f.struct, _kio_inner(kf.type), v)
    if kind in ("timedelta_i32", "timedelta_i64"):
        return datetime.timedelta(milliseconds=x)
    if kind == "datetime_i64":
        if x == -1 and _kio_optional(kf.type):
            return None
        return EPOCH + x * MS
    if kind == "error_code":
        return KioErrorCode(x)
    return x


KIO_ERROR_CODES = sorted(int(e.value) for e in KioErrorCode)


def kio_override(kcls_of: dict[str, type]) -> Any:
    """Keep random values inside what kio can represent (it is stricter than the wire)."""

    def override(model: SpecModel, st_spec: StructSpec, f: FieldSpec, v: int) -> Any:
        kcls = kcls_of.get(st_spec.name)
        if kcls is None:
            return None
        kind = kio_field(kcls, f).metadata.get("kafka_type")
        if kind == "error_code":
            return st.sampled_from(KIO_ERROR_CODES)  # an enum: unknown codes are rejected
        if kind == "timedelta_i64":
            return st.integers(-(2**40), 2**40)  # timedelta's range is narrower than int64 ms
        if kind == "datetime_i64":
            # TZAware datetimes: no negative timestamps (-1 is null where the field is nullable)
            ts = st.integers(0, 2**41)
            return st.just(-1) | ts if _kio_optional(kio_field(kcls, f).type) else ts
        if kind == "float64":
            return st.floats(allow_nan=False, allow_infinity=False)  # kio's f64 must be finite
        return None

    return override


def _kio_struct_classes(st_spec: StructSpec, kcls: type, v: int, out: dict[str, type]) -> dict[str, type]:
    out[st_spec.name] = kcls
    for f in st_spec.fields:
        if v in f.versions and f.struct is not None:
            _kio_struct_classes(f.struct, _kio_inner(kio_field(kcls, f).type), v, out)
    return out


def _kio_pair(pair: tuple[str, int]) -> tuple[str, int, type]:
    name, v = pair
    kcls = kio_class(name, v)
    if kcls is None:
        pytest.skip(f"kio does not know {MODELS[name].name} v{v}")
    return name, v, kcls


def kio_encode(kcls: type, kobj: Any) -> bytes:
    buf = io.BytesIO()
    entity_writer(kcls)(buf, kobj)
    return buf.getvalue()


def kio_strategy(name: str, v: int, kcls: type) -> Any:
    classes = _kio_struct_classes(MODELS[name].root, kcls, v, {})
    return MessageStrategies(name, v, override=kio_override(classes)).message()


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_ours_to_kio(pair: tuple[str, int]) -> None:
    name, v, kcls = _kio_pair(pair)
    model = MODELS[name]
    module = MODULES[name]
    read = entity_reader(kcls)

    @ORACLE_SETTINGS
    @given(kio_strategy(name, v, kcls))
    def check(msg: Any) -> None:
        data = encode(module, v, msg)
        kobj, size = read(data, 0)
        assert size == len(data)
        assert kio_plain(kobj, model.root, kcls, v) == plain(msg, model.root, v)

    check()


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_kio_to_ours(pair: tuple[str, int]) -> None:
    name, v, kcls = _kio_pair(pair)
    model = MODELS[name]
    module = MODULES[name]

    @ORACLE_SETTINGS
    @given(kio_strategy(name, v, kcls))
    def check(msg: Any) -> None:
        p = plain(msg, model.root, v)
        data = kio_encode(kcls, kio_build(p, model.root, kcls, v))
        obj, end = decode(module, v, data)
        assert end == len(data)
        assert plain(obj, model.root, v) == p
        assert data == encode(module, v, msg)

    check()


# =================================================================================================
# whole frames: headers
# =================================================================================================

REQUEST_PAIRS = [(name, v) for name, v in PAIRS if MODELS[name].kind == "request"]
RESPONSE_PAIRS = [(name, v) for name, v in PAIRS if MODELS[name].kind == "response"]


@pytest.mark.parametrize("pair", REQUEST_PAIRS, ids=pair_id)
def test_kafka_python_request_frame_decodes(pair: tuple[str, int]) -> None:
    """A whole request frame (header included) written by kafka-python decodes with ours."""
    name, v = _kp_pair(pair)
    model = MODELS[name]
    cls = KP_CLASSES[name]

    @settings(ORACLE_SETTINGS, max_examples=3)
    @given(kp_strategy(name, v), st.integers(-(2**31), 2**31 - 1), st.none() | st.text(max_size=10))
    def check(msg: Any, correlation_id: int, client_id: str | None) -> None:
        p = plain(msg, model.root, v)
        kobj = kp_build(p, model.root, cls._struct, v, name, top_cls=cls)
        kobj.with_header(correlation_id=correlation_id, client_id=client_id)
        frame = bytes(kobj.encode(version=v, header=True, framed=True))
        (size,) = struct.unpack_from(">i", frame)
        assert size == len(frame) - 4
        header, body = decode_request(memoryview(frame)[4:])
        assert (header.api_key, header.api_version) == (model.api_key, v)
        assert (header.correlation_id, header.client_id) == (correlation_id, client_id)
        assert plain(body, model.root, v) == p
        # and our client-side encoder writes exactly the same frame
        assert encode_request(model.api_key, v, correlation_id, client_id, msg) == frame

    check()


@pytest.mark.parametrize("pair", RESPONSE_PAIRS, ids=pair_id)
def test_response_frame_decodes_with_kafka_python(pair: tuple[str, int]) -> None:
    """A whole response frame from `encode_response` parses with kafka-python (header included)."""
    name, v = _kp_pair(pair)
    model = MODELS[name]
    cls = KP_CLASSES[name]

    @settings(ORACLE_SETTINGS, max_examples=3)
    @given(kp_strategy(name, v), st.integers(-(2**31), 2**31 - 1))
    def check(msg: Any, correlation_id: int) -> None:
        chunks = encode_response(model.api_key, v, correlation_id, msg)
        frame = b"".join(bytes(c) for c in chunks)
        (size,) = struct.unpack_from(">i", frame)
        assert size == len(frame) - 4
        kobj = cls.decode(frame, version=v, header=True, framed=True)
        assert kobj.header.correlation_id == correlation_id
        assert kp_plain(kobj, model.root, cls._struct, v, name) == plain(msg, model.root, v)
        cid, body = decode_response(model.api_key, v, frame[4:])
        assert cid == correlation_id
        assert body == msg

    check()


def test_api_versions_response_header_is_always_v0() -> None:
    """KIP-511: even a flexible ApiVersions response carries a v0 (tagless) response header."""
    from kafka_wire.protocol import response_header_version
    from kafka_wire.protocol.messages import api_versions_response as avr

    assert response_header_version(18, 3) == 0
    msg = avr.ApiVersionsResponse(api_keys=[avr.ApiVersion(api_key=0, min_version=3, max_version=13)])
    frame = b"".join(bytes(c) for c in encode_response(18, 3, 77, msg))
    assert frame[4:8] == b"\x00\x00\x00\x4d"
    assert frame[8:] == encode(avr, 3, msg)  # no tag byte between the correlation id and the body
    kobj = KP_CLASSES["api_versions_response"].decode(frame, version=3, header=True, framed=True)
    assert kobj.header.correlation_id == 77
    assert kobj.api_keys[0].max_version == 13


def test_request_header_client_id_is_never_compact() -> None:
    """RequestHeader v2's ClientId keeps its int16 length (flexibleVersions "none" in the spec)."""
    from kafka_wire.protocol.messages import metadata_request as mr

    frame = encode_request(3, 12, 5, "abc", mr.MetadataRequest(topics=None))
    assert frame[4:18] == b"\x00\x03\x00\x0c\x00\x00\x00\x05\x00\x03abc\x00"
    kio_header = load_entity_schema("request_header", 2, EntityType.header)
    hdr, size = entity_reader(kio_header)(frame[4:], 0)
    assert (hdr.request_api_key, hdr.request_api_version) == (3, 12)
    assert (hdr.correlation_id, hdr.client_id) == (5, "abc")
    body, _ = entity_reader(kio_class("metadata_request", 12))(frame[4:], size)
    assert body.topics is None
