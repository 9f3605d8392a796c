"""The Spark schema of the source: Spark's Kafka source schema, column for column.

Imports only pyspark's type classes: `DataSource.schema()` runs in a fresh driver worker at every
`load()`, so this path stays light (no pyarrow, no protocol codecs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql.types import StructType

SCHEMA_DDL = (
    "key binary, value binary, topic string, partition int, offset long, timestamp timestamp, timestampType int"
)
SCHEMA_DDL_WITH_HEADERS = SCHEMA_DDL + ", headers array<struct<key: string, value: binary>>"


def spark_schema(include_headers: bool) -> StructType:
    """The Spark schema of the Kafka source (all columns nullable, as Spark declares them)."""
    from pyspark.sql.types import (
        ArrayType,
        BinaryType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
        TimestampType,
    )

    fields = [
        StructField("key", BinaryType()),
        StructField("value", BinaryType()),
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("timestamp", TimestampType()),
        StructField("timestampType", IntegerType()),
    ]
    if include_headers:
        header = StructType([StructField("key", StringType()), StructField("value", BinaryType())])
        fields.append(StructField("headers", ArrayType(header)))
    return StructType(fields)


__all__ = ["SCHEMA_DDL", "SCHEMA_DDL_WITH_HEADERS", "spark_schema"]
