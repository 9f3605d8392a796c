"""`python -m broker_embedded`: help, the single bootstrap line, configs from a file and overrides,
config errors, startup time, signals, and what happens to the log dir."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from broker_embedded.config import BROKER_CONFIGS
from kafka_wire.errors import ErrorCode
from kafka_wire.records import build_batch
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(90)

BOOTSTRAP_LINE = re.compile(r"^bootstrap\.servers=127\.0\.0\.1:(\d+)$")


def run_cli(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "broker_embedded", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=w.REPO_ROOT,
        stdin=subprocess.DEVNULL,
    )


def test_help_documents_options_and_configs() -> None:
    r = run_cli("--help")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for opt in ("--port", "--log-dir", "--config", "--override"):
        assert opt in out, f"--help does not mention {opt}"
    # the broker configs are listed, with their defaults
    for name in (
        "num.partitions",
        "message.max.bytes",
        "socket.request.max.bytes",
        "log.retention.ms",
        "log.segment.bytes",
        "auto.create.topics.enable",
    ):
        assert name in out, f"--help does not list {name}"
    missing = [name for name in BROKER_CONFIGS if name not in out]
    assert not missing, f"configs missing from --help: {missing}"
    assert re.search(r"num\.partitions\s*=\s*1\b", out)


def test_exactly_one_stdout_line_and_clean_sigterm() -> None:
    with w.BrokerProcess() as proc:
        assert proc.bootstrap
        m = BOOTSTRAP_LINE.match(proc.stdout_lines[0])
        assert m, proc.stdout_lines
        # it really listens there, and works
        with w.connect(proc.bootstrap) as c:
            md = w.metadata(c, ["cli-topic"], auto_create=True)
            assert md.topics[0].error_code == ErrorCode.NONE
            assert md.brokers[0].host == "127.0.0.1" and md.brokers[0].port == int(m.group(1))
            r = w.produce(c, "cli-topic", 0, build_batch(w.records(3)))
            assert r.error_code == ErrorCode.NONE
        rc = proc.terminate()
        assert rc == 0, proc.stderr
        assert proc.stdout_lines == [proc.stdout_lines[0]], f"extra stdout: {proc.stdout_lines[1:]}"


def test_sigint_also_stops_cleanly(tmp_path: Path) -> None:
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        assert proc.terminate(sig=signal.SIGINT) == 0, proc.stderr
        assert len(proc.stdout_lines) == 1
    assert (tmp_path / ".kafka_cleanshutdown").exists()


def test_fixed_port() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with w.BrokerProcess(port=port) as proc:
        assert proc.bootstrap == f"127.0.0.1:{port}"
        with w.connect(proc.bootstrap) as c:
            assert w.metadata(c).brokers[0].port == port
        assert proc.terminate() == 0


def test_port_in_use_fails_fast() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        t0 = time.monotonic()
        r = run_cli("--port", str(port), timeout=30)
        assert r.returncode != 0
        assert "bootstrap.servers" not in r.stdout
        assert time.monotonic() - t0 < 20


def _partitions(bootstrap: str, topic: str) -> int:
    with w.connect(bootstrap) as c:
        md = w.metadata(c, [topic], auto_create=True)
        assert md.topics[0].error_code == ErrorCode.NONE
        return len(md.topics[0].partitions)


def test_config_file_and_override_precedence(tmp_path: Path) -> None:
    props = tmp_path / "server.properties"
    props.write_text(
        "# a Kafka-style properties file\n"
        "num.partitions=3\n"
        "message.max.bytes: 5000\n"
        "! another comment style\n"
        "auto.create.topics.enable = true\n"
        "some.unknown.config=whatever\n"
    )
    with w.BrokerProcess("--config", str(props)) as proc:
        assert proc.bootstrap
        assert _partitions(proc.bootstrap, "from-file") == 3
        with w.connect(proc.bootstrap) as c:
            big = build_batch([(None, None, os.urandom(8000), [])])
            assert w.produce(c, "from-file", 0, big).error_code == ErrorCode.MESSAGE_TOO_LARGE
        assert proc.terminate() == 0
    with w.BrokerProcess(
        "--config", str(props), "--override", "num.partitions=5", "--override", "message.max.bytes=100000"
    ) as proc:
        assert proc.bootstrap
        assert _partitions(proc.bootstrap, "overridden") == 5
        with w.connect(proc.bootstrap) as c:
            big = build_batch([(None, None, os.urandom(8000), [])])
            assert w.produce(c, "overridden", 0, big).error_code == ErrorCode.NONE
        assert proc.terminate() == 0
    # the last override of a key wins
    with w.BrokerProcess("--override", "num.partitions=2", "--override", "num.partitions=7") as proc:
        assert proc.bootstrap
        assert _partitions(proc.bootstrap, "last-wins") == 7
        assert proc.terminate() == 0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--override", "num.partitions=abc"), "num.partitions"),
        (("--override", "num.partitions=0"), "num.partitions"),
        (("--override", "auto.create.topics.enable=maybe"), "auto.create.topics.enable"),
        (("--override", "log.message.timestamp.type=Wallclock"), "log.message.timestamp.type"),
        (("--override", "noequals"), "noequals"),
        (("--config", "/nonexistent/server.properties"), "/nonexistent/server.properties"),
        (("--port", "notaport"), "--port"),
    ],
)
def test_bad_config_exits_nonzero_naming_it(args: tuple[str, ...], needle: str) -> None:
    r = run_cli(*args)
    assert r.returncode != 0
    assert r.stdout == "", "no bootstrap line for a broker that does not start"
    assert needle in r.stderr, r.stderr
    assert "Traceback" not in r.stderr, r.stderr  # a message, not a crash


def test_startup_time() -> None:
    times = []
    for _ in range(2):
        with w.BrokerProcess() as proc:
            assert proc.startup_seconds is not None
            times.append(proc.startup_seconds)
            assert proc.terminate() == 0
    print(f"bootstrap line after {', '.join(f'{t:.3f}s' for t in times)} (process start to ready)")
    assert min(times) < 2.0


def test_log_dir_kept_temp_dir_removed(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with w.BrokerProcess(log_dir=data) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            w.create_topic(c, "kept", 2)
            w.produce(c, "kept", 1, build_batch(w.records(2)))
        assert proc.terminate() == 0
    assert (data / "meta.properties").exists()
    assert (data / "kept-1").is_dir() and list((data / "kept-1").glob("*.log"))
    # restarting on it finds the topic
    with w.BrokerProcess(log_dir=data) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            assert w.list_offset(c, "kept", 1) == 2
        assert proc.terminate() == 0

    tmp_root = tmp_path / "tmp"
    tmp_root.mkdir()
    with w.BrokerProcess(env={"TMPDIR": str(tmp_root)}) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            w.create_topic(c, "temp", 1)
            w.produce(c, "temp", 0, build_batch(w.records(2)))
        dirs = list(tmp_root.iterdir())
        assert len(dirs) == 1 and (dirs[0] / "meta.properties").exists(), dirs
        assert (dirs[0] / "temp-0").is_dir()
        assert proc.terminate() == 0
    assert list(tmp_root.iterdir()) == [], "the temporary log dir outlived the broker"
