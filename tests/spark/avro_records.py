"""The every-Avro-type schema and records of the Spark Avro tests (tests/spark/test_avro*.py)."""

from __future__ import annotations

import datetime as dt
import decimal
import uuid
from typing import Any

FIELDS = [
    {"name": "id", "type": "long"},
    {"name": "b", "type": "boolean"},
    {"name": "i", "type": "int"},
    {"name": "f", "type": "float"},
    {"name": "d", "type": "double"},
    {"name": "s", "type": "string"},
    {"name": "by", "type": "bytes"},
    {"name": "dec", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 3}},
    {
        "name": "fdec",
        "type": {"type": "fixed", "name": "D8", "size": 8, "logicalType": "decimal", "precision": 9, "scale": 2},
    },
    {"name": "date", "type": {"type": "int", "logicalType": "date"}},
    {"name": "tsm", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "tsu", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "lts", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
    {"name": "u", "type": {"type": "string", "logicalType": "uuid"}},
    {"name": "e", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}},
    {"name": "fx", "type": {"type": "fixed", "name": "F4", "size": 4}},
    {"name": "m", "type": {"type": "map", "values": "long"}},
    {"name": "a", "type": {"type": "array", "items": "string"}},
    {"name": "n", "type": ["null", "string"], "default": None},
    {"name": "un", "type": ["int", "string"]},
    {"name": "nested", "type": {"type": "record", "name": "N", "fields": [{"name": "x", "type": "int"}]}},
]
V1 = {"type": "record", "name": "All", "namespace": "t", "fields": FIELDS}
V2 = {**V1, "fields": [*FIELDS, {"name": "added", "type": ["null", "long"], "default": None}]}
UTC = dt.UTC


def record(k: int) -> dict[str, Any]:
    return {
        "id": k,
        "b": k % 2 == 0,
        "i": k - 500,
        "f": k / 4,
        "d": k / 3,
        "s": f"s{k}",
        "by": k.to_bytes(3, "big"),
        "dec": decimal.Decimal(k) / 1000,
        "fdec": decimal.Decimal(-k) / 100,
        "date": dt.date(2020, 1, 1) + dt.timedelta(days=k),
        "tsm": dt.datetime(2024, 1, 1, tzinfo=UTC) + dt.timedelta(milliseconds=k * 1001),
        "tsu": dt.datetime(2024, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=k * 1_000_003),
        "lts": dt.datetime(2024, 1, 1) + dt.timedelta(microseconds=k * 7),
        "u": str(uuid.UUID(int=k)),
        "e": ["RED", "GREEN", "BLUE"][k % 3],
        "fx": k.to_bytes(4, "big"),
        "m": {f"k{k % 3}": k, "z": -k},
        "a": [str(x) for x in range(k % 4)],
        "n": None if k % 5 == 0 else f"n{k}",
        "un": k if k % 2 else f"u{k}",
        "nested": {"x": k * 2},
    }
