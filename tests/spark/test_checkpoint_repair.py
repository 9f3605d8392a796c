"""Spark 4 refuses to restart a query whose driver was killed while it wrote its first batch's offsets (a
temporary file left in the offset log: STATE_STORE_CHECKPOINT_LOCATION_NOT_EMPTY, whatever the source and sink;
the crash test met it in CI), and `connector.checkpoint.discard_unfinished_first_batch` makes such a checkpoint
restartable. Spark's own `rate` source and `noop` sink: the behaviour is Spark's, not our connector's."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from connector.checkpoint import discard_unfinished_first_batch


def _start(spark: Any, checkpoint: Path) -> Any:
    return (
        spark.readStream.format("rate")
        .option("rowsPerSecond", 10)
        .load()
        .writeStream.format("noop")
        .option("checkpointLocation", str(checkpoint))
        .trigger(processingTime="100 milliseconds")
        .start()
    )


def _killed_in_its_first_offset_write(checkpoint: Path) -> None:
    """What a SIGKILL between Spark's write of offsets/.0.<uuid>.tmp and its rename leaves (seen in CI)."""
    offsets = checkpoint / "offsets"
    offsets.mkdir(parents=True)
    (checkpoint / "commits").mkdir()
    u = uuid.uuid4()
    (offsets / f".0.{u}.tmp").write_text('v1\n{"batchWatermarkMs":0,"batchTimestampMs":0,"conf":{}}\n0\n')
    (offsets / f"..0.{u}.tmp.crc").write_bytes(b"crc\x00\x00\x00\x00\x00\x00\x00\x00")


def test_a_checkpoint_killed_in_its_first_offset_write_restarts_once_repaired(spark: Any, tmp_path: Path) -> None:
    refused = tmp_path / "as-left"
    _killed_in_its_first_offset_write(refused)
    query = _start(spark, refused)
    try:
        with pytest.raises(Exception, match="STATE_STORE_CHECKPOINT_LOCATION_NOT_EMPTY"):
            query.awaitTermination(60)
            raise AssertionError("Spark ran the query over the orphaned temporary file")
    finally:
        query.stop()

    repaired = tmp_path / "repaired"
    _killed_in_its_first_offset_write(repaired)
    assert len(discard_unfinished_first_batch(str(repaired))) == 2
    query = _start(spark, repaired)
    try:
        deadline = time.monotonic() + 60
        while not (repaired / "commits" / "0").exists():
            assert query.isActive, query.exception()
            assert time.monotonic() < deadline, "no batch committed within 60 s"
            time.sleep(0.1)
    finally:
        query.stop()
    assert query.exception() is None
