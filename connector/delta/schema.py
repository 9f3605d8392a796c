"""Schemas of the Delta sink: Spark types -> the Arrow types of the Parquet files -> Delta, and the
input checked against an existing table (driver, before any task runs).

The input's columns must exist in the table with the same types (nullability is not compared:
tables are created with every column nullable, as Spark's Delta writer does); columns of the table
missing from the input are written as null. A mismatch raises ``DeltaSchemaMismatchError`` naming
both schemas. With ``mergeSchema`` the input's new columns are added to the table (nullable).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DataType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    ShortType,
    StringType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from connector.delta.errors import DeltaSchemaMismatchError

if TYPE_CHECKING:
    import pyarrow as pa

    from connector.delta.options import DeltaSinkOptions

log = logging.getLogger(__name__)

# Spark types Delta accepts as partition columns
PARTITION_TYPES = (
    StringType,
    ByteType,
    ShortType,
    IntegerType,
    LongType,
    BooleanType,
    DateType,
    TimestampType,
    TimestampNTZType,
    DecimalType,
)


def spark_to_arrow_type(dt: DataType, column: str) -> pa.DataType:
    """Arrow type of the Parquet column for a Spark type; every field nullable (as Delta tables
    written from Spark DataFrames are). Raises DeltaSchemaMismatchError for types Delta lacks."""
    import pyarrow as pa

    if isinstance(dt, BooleanType):
        return pa.bool_()
    if isinstance(dt, ByteType):
        return pa.int8()
    if isinstance(dt, ShortType):
        return pa.int16()
    if isinstance(dt, IntegerType):
        return pa.int32()
    if isinstance(dt, LongType):
        return pa.int64()
    if isinstance(dt, FloatType):
        return pa.float32()
    if isinstance(dt, DoubleType):
        return pa.float64()
    if isinstance(dt, DecimalType):
        return pa.decimal128(dt.precision, dt.scale)
    if isinstance(dt, StringType):  # CharType/VarcharType reach Python sinks as strings
        return pa.string()
    if isinstance(dt, BinaryType):
        return pa.binary()
    if isinstance(dt, DateType):
        return pa.date32()
    if isinstance(dt, TimestampType):
        return pa.timestamp("us", tz="UTC")
    if isinstance(dt, TimestampNTZType):
        return pa.timestamp("us")
    if isinstance(dt, ArrayType):
        return pa.list_(pa.field("element", spark_to_arrow_type(dt.elementType, column + ".element")))
    if isinstance(dt, MapType):
        return pa.map_(
            pa.field("key", spark_to_arrow_type(dt.keyType, column + ".key"), nullable=False),
            pa.field("value", spark_to_arrow_type(dt.valueType, column + ".value")),
        )
    if isinstance(dt, StructType):
        return pa.struct([pa.field(f.name, spark_to_arrow_type(f.dataType, f"{column}.{f.name}")) for f in dt.fields])
    raise DeltaSchemaMismatchError(
        f"column '{column}' has type {dt.simpleString()}, which the pykafka-delta sink cannot store in Delta; "
        "accepted: boolean, tinyint, smallint, int, bigint, float, double, decimal, string, binary, date, "
        "timestamp, timestamp_ntz and arrays, maps and structs of them (cast the column first)"
    )


def spark_to_arrow_schema(schema: StructType) -> pa.Schema:
    import pyarrow as pa

    names = [f.name for f in schema.fields]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise DeltaSchemaMismatchError(f"the input has duplicate column names {dupes}; Delta columns must be unique")
    return pa.schema([pa.field(f.name, spark_to_arrow_type(f.dataType, f.name)) for f in schema.fields])


def _delta_type_text(field: Any) -> str:
    # deltalake's types print as e.g. PrimitiveType("long"); compare them through their JSON form
    return json.dumps(json.loads(field.to_json())["type"], sort_keys=True)


def _schema_text(schema: Any) -> str:
    try:
        return ", ".join(f"{f.name}: {json.loads(f.to_json())['type']}" for f in schema.fields)
    except Exception:  # noqa: BLE001
        return str(schema)


def check_schema(table: Any, arrow_schema: pa.Schema, opts: DeltaSinkOptions) -> None:
    """Compare the input with the table's schema; with mergeSchema add the input's new columns."""
    from deltalake import Field, Schema

    incoming = Schema.from_arrow(arrow_schema)
    existing = table.schema()
    have = {f.name: f for f in existing.fields}
    new_fields = [f for f in incoming.fields if f.name not in have]
    wrong = [
        (f.name, f, have[f.name])
        for f in incoming.fields
        if f.name in have and _delta_type_text(f) != _delta_type_text(have[f.name])
    ]
    case_clash = [f.name for f in new_fields if f.name.lower() in {n.lower() for n in have}]
    if wrong or case_clash or (new_fields and not opts.merge_schema):
        details = []
        if wrong:
            details.append(
                "different types: "
                + ", ".join(
                    f"{n} (table {json.loads(t.to_json())['type']}, input {json.loads(i.to_json())['type']})"
                    for n, i, t in wrong
                )
            )
        if case_clash:
            details.append(f"columns differing from the table's only in case: {case_clash}")
        if new_fields and not opts.merge_schema:
            details.append(
                f"columns not in the table: {[f.name for f in new_fields]} "
                "(set .option('mergeSchema', 'true') to add them)"
            )
        raise DeltaSchemaMismatchError(
            f"the input does not match the schema of the Delta table at {opts.table_path}: {'; '.join(details)}.\n"
            f"table schema: {_schema_text(existing)}\ninput schema: {_schema_text(incoming)}"
        )
    if new_fields:
        table.alter.add_columns([Field(f.name, f.type, nullable=True) for f in new_fields])
        log.info("pykafka-delta: added columns %s to %s (mergeSchema)", [f.name for f in new_fields], opts.table_path)


__all__ = ["PARTITION_TYPES", "check_schema", "spark_to_arrow_schema", "spark_to_arrow_type"]
