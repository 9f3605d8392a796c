"""The `pykafka` Spark data source (Python Data Source API, pyspark >= 4.2).

Kept small on purpose: the source lives in `connector.source.reader`, the sink in `connector.sink.writer`; this
class only validates options and hands out readers/writers. Spark creates it in short-lived
driver workers, so nothing here holds connections.
"""

from __future__ import annotations

from pyspark.sql.datasource import (
    DataSource,
    DataSourceReader,
    DataSourceStreamReader,
    DataSourceStreamWriter,
    DataSourceWriter,
)
from pyspark.sql.types import StructType

from connector.options import SourceOptionError, SourceOptions, parse_source_options, validate_batch, validate_stream
from connector.schema import spark_schema


class PyKafkaDataSource(DataSource):
    """`spark.read/readStream.format("pykafka")` (and `write/writeStream`, see connector.sink.writer)."""

    @classmethod
    def name(cls) -> str:
        return "pykafka"

    def _source_options(self) -> SourceOptions:
        return parse_source_options(self.options)

    def schema(self) -> StructType:
        # called at load(): option errors surface there, like Spark's Kafka source
        opts = self._source_options()
        return spark_schema(opts.include_headers)

    def _check_schema(self, schema: StructType, opts: SourceOptions) -> None:
        expected = spark_schema(opts.include_headers)
        if schema != expected:
            raise SourceOptionError(
                "The pykafka source has a fixed schema and cannot be set with a custom one: expected "
                f"{expected.simpleString()}, got {schema.simpleString()}"
            )

    def reader(self, schema: StructType) -> DataSourceReader:
        from connector.source.reader import PyKafkaBatchReader

        opts = self._source_options()
        validate_batch(opts)
        self._check_schema(schema, opts)
        return PyKafkaBatchReader(opts)

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        from connector.source.reader import PyKafkaStreamReader

        opts = self._source_options()
        validate_stream(opts)
        self._check_schema(schema, opts)
        return PyKafkaStreamReader(opts)

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        # df.write: options and columns are checked here, on the driver, so save() fails early
        from connector.sink.writer import create_batch_writer

        return create_batch_writer(self.options, schema, overwrite)

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        # df.writeStream: Spark calls this when planning each micro-batch (not at start())
        from connector.sink.writer import create_stream_writer

        return create_stream_writer(self.options, schema, overwrite)


__all__ = ["PyKafkaDataSource"]
