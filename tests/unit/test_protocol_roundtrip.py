"""Property tests: every generated codec round-trips every valid message of every version.

The random messages are built from the same JSON specs the generator read (so the strategy knows,
per version, which fields exist, which are nullable and which are tagged), not from the generated
code under test. Other protocol tests import the helpers defined here (`MODELS`, `PAIRS`,
`message_strategy`, `encode`, ...).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka_wire.protocol import messages
from kafka_wire.protocol.generator import (
    EXTRA_SPECS,
    FieldSpec,
    SpecModel,
    StructSpec,
    default_clients_jar,
    extra_specs,
    load_spec,
    module_name,
)

try:
    from kafka_wire.protocol.generator import default_spec_dir

    SPEC_DIR: Path | None = default_spec_dir()
    if not SPEC_DIR.is_dir():  # pragma: no cover - depends on the installed kafka-python
        SPEC_DIR = None
except ModuleNotFoundError:  # pragma: no cover - kafka-python not installed
    SPEC_DIR = None

if SPEC_DIR is None:  # pragma: no cover
    pytest.skip("kafka-python's JSON message specs are not installed", allow_module_level=True)

ZERO_UUID = b"\x00" * 16

INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "uint16": (0, 2**16 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
}


def _load_models() -> dict[str, SpecModel]:
    assert SPEC_DIR is not None
    models = {}
    specs = [load_spec(path) for path in sorted(SPEC_DIR.glob("*.json"))]
    # the KIP-848 APIs kafka-python's copy lacks come from Kafka's kafka-clients jar (the JVM peers')
    specs += extra_specs(default_clients_jar(), {spec["name"] for spec in specs})
    for spec in specs:
        model = SpecModel(spec)
        models[module_name(model.name)] = model
    return models


MODELS: dict[str, SpecModel] = _load_models()
MODULES: dict[str, ModuleType] = {name: importlib.import_module(f"{messages.__name__}.{name}") for name in MODELS}


def versions_of(name: str) -> range:
    model = MODELS[name]
    return range(model.valid.lo, model.valid.hi + 1)


# Every (generated module, version) pair: requests, responses, headers and the consumer-protocol data.
PAIRS: list[tuple[str, int]] = [(name, v) for name in sorted(MODELS) for v in versions_of(name)]


def pair_id(pair: tuple[str, int]) -> str:
    return f"{pair[0]}-v{pair[1]}"


# --- encoding helpers ---------------------------------------------------------------------------


def encode(module: ModuleType, version: int, obj: Any) -> bytes:
    out: list[Any] = []
    module.ENCODERS[version](obj, out)
    return b"".join(bytes(c) if isinstance(c, memoryview) else c for c in out)


def decode(module: ModuleType, version: int, data: Any, pos: int = 0) -> tuple[Any, int]:
    return module.DECODERS[version](data, pos)


def is_flexible(model: SpecModel, version: int) -> bool:
    return version in model.flexible


def present(f: FieldSpec, version: int) -> bool:
    return version in f.versions


def is_tagged(model: SpecModel, f: FieldSpec, version: int) -> bool:
    return is_flexible(model, version) and version in f.tagged_versions and f.tag is not None


def nullable(f: FieldSpec, version: int) -> bool:
    return version in f.nullable_versions


# --- the strategy -------------------------------------------------------------------------------

# An override gets (model, struct, field, version) and returns a strategy for the field's *element*
# values (or None to use the default one). The oracle tests use it to stay inside what an oracle can
# represent (kio, for instance, models error codes as an enum).
Override = Callable[[SpecModel, StructSpec, FieldSpec, int], "st.SearchStrategy[Any] | None"]


def scalar_strategy(elem: str) -> st.SearchStrategy[Any]:
    if elem in INT_RANGES:
        lo, hi = INT_RANGES[elem]
        return st.integers(lo, hi)
    if elem == "bool":
        return st.booleans()
    if elem == "float64":
        return st.floats(allow_nan=False)
    if elem == "uuid":
        return st.binary(min_size=16, max_size=16)
    if elem == "string":
        return st.text(max_size=12)
    if elem == "bytes":
        return st.binary(max_size=12)
    if elem == "records":
        return st.binary(max_size=40)
    raise AssertionError(f"unknown type {elem}")


class MessageStrategies:
    """Builds hypothesis strategies for the structs of one generated module at one version."""

    def __init__(self, name: str, version: int, override: Override | None = None) -> None:
        self.model = MODELS[name]
        self.module = MODULES[name]
        self.version = version
        self.override = override

    def field_strategy(self, st_spec: StructSpec, f: FieldSpec, depth: int) -> st.SearchStrategy[Any]:
        v = self.version
        elem: st.SearchStrategy[Any] | None = None
        if self.override is not None:
            elem = self.override(self.model, st_spec, f, v)
        if elem is None:
            if f.struct is not None:
                elem = self.struct_strategy(f.struct, depth + 1)
            else:
                elem = scalar_strategy(f.elem_type)
        if f.is_array:
            # keep nesting from exploding: deep levels get at most two elements
            value: st.SearchStrategy[Any] = st.lists(elem, max_size=3 if depth < 2 else 2)
        else:
            value = elem
        if nullable(f, v):
            value = st.none() | value
        return value

    def struct_strategy(self, st_spec: StructSpec, depth: int = 0) -> st.SearchStrategy[Any]:
        cls = getattr(self.module, st_spec.name)
        fields = {f.py_name: self.field_strategy(st_spec, f, depth) for f in st_spec.fields if present(f, self.version)}
        # absent fields are left at the constructor's defaults
        return st.fixed_dictionaries(fields).map(lambda kw: cls(**kw))

    def message(self) -> st.SearchStrategy[Any]:
        return self.struct_strategy(self.model.root)


@functools.cache
def message_strategy(name: str, version: int) -> st.SearchStrategy[Any]:
    """Random valid `MESSAGE` objects of generated module `name` at `version`."""
    return MessageStrategies(name, version).message()


# --- tests --------------------------------------------------------------------------------------

ROUNDTRIP_SETTINGS = settings(
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_roundtrip(pair: tuple[str, int]) -> None:
    name, version = pair
    module = MODULES[name]

    @ROUNDTRIP_SETTINGS
    @given(message_strategy(name, version))
    def check(msg: Any) -> None:
        data = encode(module, version, msg)
        obj, end = decode(module, version, data)
        assert end == len(data)
        assert obj == msg
        # re-encoding what was decoded is byte-identical
        assert encode(module, version, obj) == data
        # decoding works at an offset inside a larger buffer of any bytes-like type
        framed = memoryview(bytearray(b"\xa5" * 3 + data + b"\x5a" * 5))
        obj2, end2 = decode(module, version, framed, 3)
        assert end2 == 3 + len(data)
        assert obj2 == msg

    check()


@pytest.mark.parametrize("pair", PAIRS, ids=pair_id)
def test_default_message_roundtrip(pair: tuple[str, int]) -> None:
    """A message built with no arguments encodes (every default is valid) and round-trips."""
    name, version = pair
    module = MODULES[name]
    msg = module.MESSAGE()
    data = encode(module, version, msg)
    obj, end = decode(module, version, data)
    assert end == len(data)
    assert obj == msg
    assert encode(module, version, obj) == data


def test_every_generated_module_is_covered() -> None:
    generated = {p.stem for p in Path(messages.__file__).parent.glob("*.py")} - {"__init__"}
    if default_clients_jar() is None:  # without the JVM peers' jar the EXTRA_SPECS modules go unchecked
        generated -= {module_name(name) for name in EXTRA_SPECS}
    assert generated == set(MODELS)
    for name, model in MODELS.items():
        module = MODULES[name]
        assert module.VALID_VERSIONS == (model.valid.lo, model.valid.hi)
        assert set(module.DECODERS) == set(module.ENCODERS) == set(versions_of(name))
        assert module.MESSAGE.__name__ == model.name
    assert {m.API_KEY for m in messages.REQUESTS.values()} == set(messages.REQUESTS)
    assert {m.API_KEY for m in messages.RESPONSES.values()} == set(messages.RESPONSES)
    assert set(messages.REQUESTS) == set(messages.RESPONSES)


def test_tagged_fields_at_default_are_not_encoded() -> None:
    """In flexible versions a tagged field costs no bytes unless it differs from its default."""
    from kafka_wire.protocol.messages import fetch_response as fr

    empty = encode(fr, 12, fr.FetchResponse())
    partition = fr.PartitionData(partition_index=1)
    with_default = encode(fr, 12, fr.FetchResponse(responses=[fr.FetchableTopicResponse(partitions=[partition])]))
    partition.current_leader = fr.LeaderIdAndEpoch(leader_id=3, leader_epoch=7)
    with_tag = encode(fr, 12, fr.FetchResponse(responses=[fr.FetchableTopicResponse(partitions=[partition])]))
    assert len(with_tag) > len(with_default) > len(empty)
    # the tag section of the partition: one field, tag 1, 9 bytes (int32 + int32 + empty tags)
    assert b"\x01\x01\x09\x00\x00\x00\x03\x00\x00\x00\x07\x00" in with_tag
    obj, _ = decode(fr, 12, with_tag)
    assert obj.responses[0].partitions[0].current_leader == fr.LeaderIdAndEpoch(leader_id=3, leader_epoch=7)
    assert obj.responses[0].partitions[0].diverging_epoch == fr.EpochEndOffset()


def test_unknown_tagged_fields_are_skipped() -> None:
    from kafka_wire.protocol.messages import api_versions_request as avr

    plain = encode(avr, 3, avr.ApiVersionsRequest(client_software_name="x", client_software_version="1"))
    assert plain.endswith(b"\x00")
    # the same body with two unknown tags (99: 3 bytes, 100: 0 bytes) in its tag section
    tagged = plain[:-1] + b"\x02\x63\x03abc\x64\x00"
    obj, end = decode(avr, 3, tagged)
    assert end == len(tagged)
    assert obj == avr.ApiVersionsRequest(client_software_name="x", client_software_version="1")


def test_constructors_keep_every_argument() -> None:
    """Keyword arguments are stored as given; in particular None is kept for nullable fields
    (a null array is not the same message as an empty one), while absent arguments get the spec's
    default as a fresh object."""
    for name, model in MODELS.items():
        module = MODULES[name]
        for st_spec in model.structs.values():
            cls = getattr(module, st_spec.name)
            markers = {f.py_name: object() for f in st_spec.fields}
            obj = cls(**markers)
            for f in st_spec.fields:
                assert getattr(obj, f.py_name) is markers[f.py_name], (name, st_spec.name, f.name)
            nullable_fields = [f.py_name for f in st_spec.fields if not f.nullable_versions.empty]
            obj = cls(**dict.fromkeys(nullable_fields))
            for py_name in nullable_fields:
                assert getattr(obj, py_name) is None, (name, st_spec.name, py_name)
            a, b = cls(), cls()
            assert a == b
            for f in st_spec.fields:
                if f.is_array and f.default != "null":
                    assert getattr(a, f.py_name) == [] and getattr(a, f.py_name) is not getattr(b, f.py_name)
