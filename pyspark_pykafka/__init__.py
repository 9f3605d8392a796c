"""Auto-registration hook: pyspark imports every top-level module named `pyspark_*` at the first
Python data source lookup and registers its `DefaultSource` (pyspark/sql/worker/lookup_data_sources.py),
so `format("pykafka")` works with no `spark.dataSource.register` call."""

from connector.datasource import PyKafkaDataSource as DefaultSource

__all__ = ["DefaultSource"]
