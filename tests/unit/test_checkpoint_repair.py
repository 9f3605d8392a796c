"""connector.checkpoint: the temporary files a driver killed in Spark's first offset-log write leaves behind
(the Spark side, where Spark refuses such a checkpoint: tests/spark/test_checkpoint_repair.py)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from connector.checkpoint import discard_unfinished_first_batch


def _orphan(directory: Path, batch: int) -> tuple[str, str]:
    directory.mkdir(parents=True, exist_ok=True)
    u = uuid.uuid4()
    tmp, crc = f".{batch}.{u}.tmp", f"..{batch}.{u}.tmp.crc"
    (directory / tmp).write_text('v1\n{"batchWatermarkMs":0}\n')
    (directory / crc).write_bytes(b"crc")
    return tmp, crc


def test_orphans_of_an_unfinished_first_batch_are_removed(tmp_path: Path) -> None:
    tmp, crc = _orphan(tmp_path / "offsets", 0)
    ctmp, ccrc = _orphan(tmp_path / "commits", 0)
    (tmp_path / "metadata").write_text('{"id":"q"}')
    removed = discard_unfinished_first_batch(f"file://{tmp_path}")
    assert sorted(removed) == sorted([f"offsets/{tmp}", f"offsets/{crc}", f"commits/{ctmp}", f"commits/{ccrc}"])
    assert list((tmp_path / "offsets").iterdir()) == [] and list((tmp_path / "commits").iterdir()) == []
    assert (tmp_path / "metadata").exists()  # the query's id stays: the restart is the same query


def test_a_checkpoint_with_a_batch_is_untouched(tmp_path: Path) -> None:
    (tmp_path / "offsets").mkdir()
    (tmp_path / "offsets" / "0").write_text("v1\n")
    tmp, _ = _orphan(tmp_path / "offsets", 1)  # Spark resumes from batch 0 and never reads it
    assert discard_unfinished_first_batch(str(tmp_path)) == []
    assert (tmp_path / "offsets" / tmp).exists()


def test_other_files_and_missing_directories_are_left_alone(tmp_path: Path) -> None:
    assert discard_unfinished_first_batch(str(tmp_path / "never-started")) == []
    (tmp_path / "offsets").mkdir()
    (tmp_path / "offsets" / "notes.txt").write_text("x")  # not Spark's: its error names it
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / ".0.tmp").write_text("x")
    assert discard_unfinished_first_batch(str(tmp_path)) == []
    assert (tmp_path / "offsets" / "notes.txt").exists() and (tmp_path / "state" / ".0.tmp").exists()


def test_a_remote_checkpoint_is_refused_with_the_option_and_what_to_do() -> None:
    with pytest.raises(ValueError, match=r"checkpointLocation 's3a://b/cp'.*scheme 's3a'.*offsets/ and commits/"):
        discard_unfinished_first_batch("s3a://b/cp")
