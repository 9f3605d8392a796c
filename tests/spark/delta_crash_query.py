"""The crash test's child driver: `examples/kafka_to_delta.py` with the Delta sink's commit fault point
(`connector.delta.faults`) installed, so the test's SIGKILLs land before, inside and after commits.

    python -m tests.spark.delta_crash_query [--commit-delay S] [--commit-trace FILE] <kafka_to_delta args>

Spark runs the sink's ``commit()`` in a Python worker of its own, not in this process: the script
registers, under the sink's format name, a subclass of the data source built in a function, which
cloudpickle ships by value (the fault settings included) to the workers; its writer factories install
the fault point in whatever process Spark creates the writers in, which is where ``commit()`` runs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from pyspark.sql.datasource import DataSourceStreamWriter, DataSourceWriter
from pyspark.sql.types import StructType

from connector.delta.datasource import PyKafkaDeltaDataSource
from connector.delta.faults import CommitFaults, install_commit_faults


class DelayAndTrace:
    """Appends ``begin <batch>`` / ``skip <batch>`` / ``end <batch> <version>`` lines to a trace file,
    so the test can tell where a kill landed, and sleeps a random time up to `delay_s` after ``begin``
    and after ``end``, so a kill can land inside ``commit()`` and between the Delta commit and Spark
    logging the batch as done."""

    def __init__(self, delay_s: float, trace_path: str | None) -> None:
        self.delay_s = delay_s
        self.trace_path = trace_path

    def _trace(self, line: str) -> None:
        if self.trace_path:
            with open(self.trace_path, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def _sleep(self) -> None:
        if self.delay_s:
            time.sleep(random.uniform(0, self.delay_s))

    def begin(self, batch_id: int | None) -> None:
        self._trace(f"begin {batch_id}")
        self._sleep()

    def skipped(self, batch_id: int | None) -> None:
        self._trace(f"skip {batch_id}")

    def end(self, batch_id: int | None, version: int | None) -> None:
        self._trace(f"end {batch_id} {version}")
        self._sleep()


def delta_source_with_faults(faults: CommitFaults) -> type[PyKafkaDeltaDataSource]:
    """The `pykafka-delta` data source with `faults` installed before its writers are made. Defined
    in this function on purpose: a class Python cannot import by name is pickled by value."""

    class FaultyDeltaDataSource(PyKafkaDeltaDataSource):
        def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
            install_commit_faults(faults)
            return PyKafkaDeltaDataSource.writer(self, schema, overwrite)

        def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:  # noqa: N802
            install_commit_faults(faults)
            return PyKafkaDeltaDataSource.streamWriter(self, schema, overwrite)

    return FaultyDeltaDataSource


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, allow_abbrev=False)
    p.add_argument("--commit-delay", type=float, default=0.0, help="sleep up to S seconds around the Delta commit")
    p.add_argument("--commit-trace", default=None, help="append begin/skip/end lines to this file")
    ours, rest = p.parse_known_args(argv)
    faults = DelayAndTrace(ours.commit_delay, os.path.abspath(ours.commit_trace) if ours.commit_trace else None)
    source = delta_source_with_faults(faults)

    from examples import kafka_to_delta

    return kafka_to_delta.main(rest, prepare=lambda spark: spark.dataSource.register(source))


if __name__ == "__main__":
    sys.exit(main())
