"""PySpark connectors: the `pykafka` source (and sink).

After `pip install`, `spark.read.format("pykafka")` and `spark.readStream.format("pykafka")` work in
any SparkSession (Spark imports the top-level module `pyspark_pykafka` and registers its
`DefaultSource`); `register(spark)` does the same explicitly.

Attributes are loaded lazily: Spark imports this package in short-lived driver workers at every
`load()`, which need the data source class and nothing else.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "PyKafkaDataSource": "connector.datasource",
    "PyKafkaDeltaDataSource": "connector.delta.datasource",
    "LagListener": "connector.source.lag",
    "lag_from_progress": "connector.source.lag",
    "source_lag": "connector.source.lag",
    "pin_ending_offsets": "connector.source.lag",
    "commit_batch_offsets": "connector.source.lag",
    "from_confluent_avro": "connector.avro",
    "to_confluent_avro": "connector.avro",
    "from_confluent_json": "connector.confluent_json",
    "to_confluent_json": "connector.confluent_json",
    "from_confluent_protobuf": "connector.confluent_protobuf",
    "to_confluent_protobuf": "connector.confluent_protobuf",
}


def register(spark: Any) -> None:
    """Register the `pykafka` and `pykafka-delta` formats in `spark` (a SparkSession)."""
    from connector.datasource import PyKafkaDataSource
    from connector.delta.datasource import PyKafkaDeltaDataSource

    spark.dataSource.register(PyKafkaDataSource)
    spark.dataSource.register(PyKafkaDeltaDataSource)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'connector' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "LagListener",
    "PyKafkaDataSource",
    "PyKafkaDeltaDataSource",
    "commit_batch_offsets",
    "from_confluent_avro",
    "from_confluent_json",
    "from_confluent_protobuf",
    "lag_from_progress",
    "pin_ending_offsets",
    "register",
    "source_lag",
    "to_confluent_avro",
    "to_confluent_json",
    "to_confluent_protobuf",
]
