"""LogManager.describe: what DescribeLogDirs (API 35) reports for one log dir."""

from __future__ import annotations

from pathlib import Path

from broker_embedded.log import LogConfig, LogManager
from tests.unit.test_log_helpers import batch


def test_describe_sizes_filter_and_file_system(tmp_path: Path) -> None:
    mgr = LogManager(tmp_path / "d", LogConfig())
    mgr.startup()
    try:
        a = mgr.get_or_create_log("a", 0)
        mgr.get_or_create_log("a", 1)
        mgr.get_or_create_log("b", 0)
        for _ in range(5):
            a.append_as_leader(batch(3, value_size=100), 1)
        d = mgr.describe()
        assert d.path == str((tmp_path / "d").absolute()) and d.offline_reason is None
        assert set(d.partitions) == {("a", 0), ("a", 1), ("b", 0)}
        assert d.partitions[("a", 0)] == (a.size, 0, False) and a.size > 5 * 3 * 100
        assert d.partitions[("a", 1)] == (0, 0, False)
        assert d.total_bytes >= d.usable_bytes > 0
        # only the partitions asked for; unknown ones are left out (as Kafka does)
        assert set(mgr.describe({"a": [1, 7], "zz": [0]}).partitions) == {("a", 1)}
        assert mgr.describe({}).partitions == {}
    finally:
        mgr.shutdown()


def test_describe_an_offline_dir_lists_no_partitions(tmp_path: Path) -> None:
    mgr = LogManager(tmp_path, LogConfig())
    mgr.startup()
    try:
        mgr.get_or_create_log("a", 0)
        mgr.dir_state.fail("a test write", OSError(28, "No space left on device"))
        d = mgr.describe()
        assert d.offline_reason is not None and "No space left" in d.offline_reason
        assert d.partitions == {}
    finally:
        mgr.shutdown()
