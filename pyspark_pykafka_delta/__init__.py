"""Auto-registration hook of the `pykafka-delta` sink: pyspark imports every top-level module named
`pyspark_*` at the first Python data source lookup and registers its `DefaultSource`, so
`df.writeStream.format("pykafka-delta")` works with no `spark.dataSource.register` call."""

from connector.delta.datasource import PyKafkaDeltaDataSource as DefaultSource

__all__ = ["DefaultSource"]
