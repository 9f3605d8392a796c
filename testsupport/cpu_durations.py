"""pytest plugin: CPU seconds per test and per file, of everything the pytest run started.

scripts/test.sh runs the suite's three pytest runs side by side on 2 cores, so wall-clock durations
say little about who burns the CPU (a test waiting on a broker is slow but cheap; a child Spark
driver is both). When PYKAFKA_CPU_CGROUP names the run's cgroup v1 cpuacct directory (test.sh sets
it where cgroups are writable), this plugin reads its cpuacct.usage around each test -- setup, call
and teardown, so a module fixture's start is charged to its first test and its stop to its last --
and prints the largest consumers at the end. The cgroup holds every process the run started
(brokers, JVM peers, Spark's JVM and Python workers, orphans too), and nothing of the other runs.

Enable: `-p testsupport.cpu_durations` with PYKAFKA_CPU_CGROUP set; PYKAFKA_CPU_TOP (default 30) is how
many tests to list."""

from __future__ import annotations

import os
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

_usage_file: Path | None = None
_cpu_by_test: dict[str, float] = {}
_wall_by_test: dict[str, float] = {}
_start_ns = 0


def _usage_ns() -> int:
    assert _usage_file is not None
    return int(_usage_file.read_text())


def pytest_configure(config: pytest.Config) -> None:
    global _usage_file, _start_ns
    cgroup = os.environ.get("PYKAFKA_CPU_CGROUP")
    if not cgroup:
        return
    usage = Path(cgroup) / "cpuacct.usage"
    try:
        int(usage.read_text())
    except (OSError, ValueError):
        return  # no cgroup accounting here: the plugin stays silent
    _usage_file = usage
    _start_ns = _usage_ns()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    if _usage_file is None:
        yield
        return
    before, started = _usage_ns(), time.monotonic()
    yield
    _cpu_by_test[item.nodeid] = (_usage_ns() - before) / 1e9
    _wall_by_test[item.nodeid] = time.monotonic() - started


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _usage_file is None or not _cpu_by_test:
        return
    top = int(os.environ.get("PYKAFKA_CPU_TOP", "30"))
    total = (_usage_ns() - _start_ns) / 1e9
    in_tests = sum(_cpu_by_test.values())
    by_file: dict[str, float] = defaultdict(float)
    wall_by_file: dict[str, float] = defaultdict(float)
    for nodeid, cpu in _cpu_by_test.items():
        path = nodeid.split("::", 1)[0]
        by_file[path] += cpu
        wall_by_file[path] += _wall_by_test[nodeid]
    tr = terminalreporter
    tr.write_sep("=", f"CPU seconds of the run: {total:.0f} s, {in_tests:.0f} s inside tests (cgroup cpuacct)")
    tr.write_line(f"largest {top} tests (setup + call + teardown, every process the run started):")
    for nodeid, cpu in sorted(_cpu_by_test.items(), key=lambda kv: -kv[1])[:top]:
        tr.write_line(f"  {cpu:7.1f} s  {nodeid}")
    tr.write_line("largest files by CPU (and their wall time, setup to teardown: what moving a file moves):")
    for path, cpu in sorted(by_file.items(), key=lambda kv: -kv[1])[: max(10, top // 2)]:
        tr.write_line(f"  {cpu:7.1f} s CPU {wall_by_file[path]:7.1f} s wall  {path}")
    tr.write_line("largest files by wall time:")
    for path, wall in sorted(wall_by_file.items(), key=lambda kv: -kv[1])[: max(10, top // 2)]:
        tr.write_line(f"  {wall:7.1f} s wall {by_file[path]:7.1f} s CPU  {path}")
