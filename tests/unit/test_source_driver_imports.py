"""The stream reader's driver process imports only what planning needs.

Spark starts a fresh Python process for every streaming query's reader (pyspark's
python_streaming_source_runner); whatever `connector.datasource` and `connector.source.reader` import is
paid at every query start, before the first trigger. The executor's decoder (pyarrow.compute,
crc32c, and pandas, which pyarrow loads at the decoder's first `pa.array`) cost ~1 s there.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = [
    "connector.source.partition_reader",
    "connector.source.arrow",
    "kafka_wire.columnar",
    "pandas",
    "pyarrow.compute",
    "connector.source.group_mode",
    "connector.offset_mirror",
    "consumer_group.membership",
]


def test_driver_side_reader_does_not_import_the_decoder() -> None:
    code = (
        "import json, sys\n"
        "from connector.datasource import PyKafkaDataSource\n"
        "ds = PyKafkaDataSource({'kafka.bootstrap.servers': '127.0.0.1:1', 'subscribe': 't'})\n"
        "reader = ds.streamReader(ds.schema())\n"
        "reader.getDefaultReadLimit()\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_read_partition_is_still_exported_by_the_source() -> None:
    # tests and scripts import it from connector.source.reader; it loads the read path on first use
    from connector.source import partition_reader
    from connector.source import reader as source
    from connector.source.input_partition import KafkaInputPartition, ReadSpec

    assert partition_reader.KafkaInputPartition is KafkaInputPartition
    assert partition_reader.ReadSpec is ReadSpec
    assert source.KafkaInputPartition is KafkaInputPartition
    assert callable(source.read_partition)
