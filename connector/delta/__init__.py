"""The ``pykafka-delta`` sink: exactly-once writes of a (Kafka) DataFrame into a Delta table.

``df.writeStream.format("pykafka-delta").option("checkpointLocation", ...).start(path)`` and
``df.write.format("pykafka-delta").mode("append"|"overwrite").save(path)``.

How a micro-batch becomes one Delta commit (ARCHITECTURE.md §4), one module per side:

* ``options`` and ``schema`` (driver, before any task runs): the sink's options, and the input's
  Spark schema mapped to Arrow/Delta and checked against the table; ``datasource`` plans the write.
* ``files`` (executors, ``write()``): pyarrow writes Parquet files straight into the table
  directory, one per (topic, partition) of the Kafka source's columns and per Delta partition; each
  task returns the files' add actions (path, size, partition values, stats) and offset ranges.
* ``commit`` (driver, ``commit()``): all files of the batch in ONE Delta commit that also carries
  the app transactions ``pykafka:query:<query id>`` -> batch id and
  ``pykafka:<owner>:<topic>:<partition>`` -> next offset, fenced against the offsets the table
  already holds. ``faults`` is the commit's test fault point (a no-op in production).

The sink writes with pyarrow and commits with delta-rs on a local (or mounted) file system.
"""

from __future__ import annotations

from connector.delta.commit import CommitPlan, CommitResult, commit_files, mirror_offsets
from connector.delta.datasource import FORMAT_NAME, DeltaBatchWriter, DeltaStreamWriter, PyKafkaDeltaDataSource
from connector.delta.errors import (
    DeltaCommitError,
    DeltaSchemaMismatchError,
    DeltaSinkOptionError,
    DeltaSinkWriteError,
)
from connector.delta.faults import CommitFaults, install_commit_faults
from connector.delta.files import DeltaCommitMessage, DeltaFile, WritePlan, write_files
from connector.delta.options import DeltaSinkOptions, parse_delta_options

__all__ = [
    "FORMAT_NAME",
    "CommitFaults",
    "CommitPlan",
    "CommitResult",
    "DeltaBatchWriter",
    "DeltaCommitError",
    "DeltaCommitMessage",
    "DeltaFile",
    "DeltaSchemaMismatchError",
    "DeltaSinkOptionError",
    "DeltaSinkOptions",
    "DeltaSinkWriteError",
    "DeltaStreamWriter",
    "PyKafkaDeltaDataSource",
    "WritePlan",
    "commit_files",
    "install_commit_faults",
    "mirror_offsets",
    "parse_delta_options",
    "write_files",
]
