"""The ``pykafka`` command line (pykafka_cli): every subcommand against an embedded broker, in
process (``main(argv)``) with ``--json`` output, plus the console entry point as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from pykafka_cli.clients import render
from pykafka_cli.main import main

pytest.importorskip("confluent_kafka")


@pytest.fixture(scope="module", params=["ours", "apache"])
def cli_broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    """The CLI talks to any Kafka: every test runs against our broker, then the session's real
    Apache Kafka (the JVM peer; skipped with the reason when the peers are not installed)."""
    if request.param == "ours":
        with EmbeddedBroker(num_partitions=3) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")


class Cli:
    def __init__(self, bootstrap: str, capsys: pytest.CaptureFixture[str]) -> None:
        self.bootstrap = bootstrap
        self.capsys = capsys

    def __call__(self, *argv: str, rc: int = 0) -> str:
        self.capsys.readouterr()
        got = main(["-b", self.bootstrap, *argv])
        out, err = self.capsys.readouterr()
        assert got == rc, f"pykafka {' '.join(argv)} -> {got}, expected {rc}\nstdout: {out}\nstderr: {err}"
        self.err = err
        return out

    def json(self, *argv: str, rc: int = 0) -> Any:
        return json.loads(self(*argv, "--json", rc=rc))

    def lines(self, *argv: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self(*argv, "--json").splitlines() if line]


@pytest.fixture
def cli(cli_broker: Any, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(cli_broker.bootstrap_servers, capsys)


def test_topics_lifecycle(cli: Cli, topic_name: str) -> None:
    assert cli.json("topics", "create", topic_name, "-p", "3", "-c", "retention.ms=123456") == [
        {"topic": topic_name, "created": True}
    ]
    cli("topics", "create", topic_name, rc=1)
    assert "TOPIC_ALREADY_EXISTS" in cli.err
    assert cli.json("topics", "create", topic_name, "--if-not-exists") == [{"topic": topic_name, "created": False}]
    assert {"topic": topic_name, "partitions": 3} in cli.json("topics", "list")
    rows = cli.json("topics", "describe", topic_name)
    assert [r["partition"] for r in rows] == [0, 1, 2]
    assert rows[0]["configs"]["retention.ms"] == "123456" and rows[0]["isr"] == [rows[0]["leader"]]
    cli("topics", "alter", topic_name, "--set", "cleanup.policy=compact", "--delete", "retention.ms")
    configs = cli.json("topics", "describe", topic_name)[0]["configs"]
    assert configs.get("cleanup.policy") == "compact" and "retention.ms" not in configs
    cli("topics", "alter", topic_name, "--set", "nonsense", rc=1)
    assert "KEY=VALUE" in cli.err
    assert cli.json("topics", "delete", topic_name) == [{"topic": topic_name, "deleted": True}]
    cli("topics", "describe", topic_name, rc=1)
    cli("topics", "delete", topic_name, rc=1)
    assert "not found" in cli.err
    assert cli.json("topics", "delete", topic_name, "--if-exists") == [{"topic": topic_name, "deleted": False}]


def test_produce_keys_headers_partition_and_consume_formats(cli: Cli, topic_name: str, tmp_path: Path) -> None:
    cli("topics", "create", topic_name, "-p", "3")
    lines = tmp_path / "in.txt"
    lines.write_text("k1:v1\nk2:v2\nk3:v3\n")
    cli("produce", topic_name, str(lines), "-K", ":", "-H", "src=test", "-H", "n=1", "-p", "2")
    assert "produced 3 record(s)" in cli.err
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"line1\nline2")
    cli("produce", topic_name, str(blob), "--file-as-record", "-k", "file", "-p", "0")
    cli("produce", topic_name, str(lines), "-p", "7", rc=1)
    assert "partition 7 does not exist" in cli.err

    recs = cli.lines("consume", topic_name, "-e")
    assert len(recs) == 4
    by_p = {p: [r for r in recs if r["partition"] == p] for p in (0, 2)}
    assert [(r["key"], r["value"], r["offset"]) for r in by_p[2]] == [("k1", "v1", 0), ("k2", "v2", 1), ("k3", "v3", 2)]
    assert by_p[2][0]["headers"] == {"src": "test", "n": "1"}
    assert by_p[0][0] == {**by_p[0][0], "key": "file", "value": "line1\nline2"}

    # kcat -f format, one partition, from an absolute offset, and N from the end
    out = cli("consume", topic_name, "-p", "2", "-o", "1", "-e", "-f", r"%t|%p|%o|%k|%s|%h\n")
    assert out.splitlines() == [f"{topic_name}|2|1|k2|v2|src=test,n=1", f"{topic_name}|2|2|k3|v3|src=test,n=1"]
    assert cli("consume", topic_name, "-p", "2", "-o", "-1", "-e", "-f", r"%s\n") == "v3\n"
    assert cli("consume", topic_name, "-p", "2", "-o", "end", "-e") == ""
    assert [r["value"] for r in cli.lines("consume", topic_name, "-p", "2", "-c", "2")] == ["v1", "v2"]
    # from a timestamp: everything was produced after t0; nothing after "now + 1h"
    ts = by_p[2][1]["timestamp"]
    assert [r["offset"] for r in cli.lines("consume", topic_name, "-p", "2", "-o", f"s@{ts}", "-e")][0] <= 1
    assert cli.lines("consume", topic_name, "-p", "2", "-o", f"s@{int(time.time() * 1000) + 3_600_000}", "-e") == []
    cli("consume", topic_name, "-o", "sometime", "-e", rc=1)
    assert "--offset must be" in cli.err
    cli("consume", topic_name, "-p", "9", "-e", rc=1)
    cli("consume", "no-such-topic-" + topic_name, "-e", rc=1)


def test_groups_consume_describe_reset_delete(cli: Cli, topic_name: str, tmp_path: Path) -> None:
    group = f"g-{topic_name}"
    cli("topics", "create", topic_name, "-p", "2")
    data = tmp_path / "d.txt"
    data.write_text("".join(f"{i}\n" for i in range(10)))
    cli("produce", topic_name, str(data), "-p", "0")
    cli("produce", topic_name, str(data), "-p", "1")
    # group mode: consume 10 of 20, committed on exit
    assert len(cli.lines("consume", topic_name, "-G", group, "-c", "10")) == 10
    assert {"group": group, "state": "Empty"} in cli.json("groups", "list")
    rows = cli.json("groups", "describe", group)
    assert {r["partition"]: r["latest"] for r in rows} == {0: 10, 1: 10}
    assert sum(r["committed"] or 0 for r in rows) == 10
    # lag = latest - committed; a partition the group never committed shows no lag (as Kafka's tool: "-")
    assert all(r["lag"] == (None if r["committed"] is None else 10 - r["committed"]) for r in rows)
    # group mode, exit at end: the rest
    assert len(cli.lines("consume", topic_name, "-G", group, "-e")) == 10
    assert all(r["lag"] == 0 and r["committed"] == 10 for r in cli.json("groups", "describe", group))

    # reset: dry run changes nothing, --execute does
    dry = cli.json("groups", "reset-offsets", group, "--topic", topic_name, "--to-offset", "4", "--partition", "1")
    assert dry == [{"group": group, "topic": topic_name, "partition": 1, "new_offset": 4}]
    assert {r["partition"]: r["committed"] for r in cli.json("groups", "describe", group)} == {0: 10, 1: 10}
    cli("groups", "reset-offsets", group, "--topic", topic_name, "--to-earliest", "--execute")
    assert {r["partition"]: r["lag"] for r in cli.json("groups", "describe", group)} == {0: 10, 1: 10}
    cli("groups", "reset-offsets", group, "--topic", topic_name, "--to-datetime", "2999-01-01T00:00:00Z", "--execute")
    assert {r["partition"]: r["committed"] for r in cli.json("groups", "describe", group)} == {0: 10, 1: 10}
    cli("groups", "reset-offsets", group, "--topic", topic_name, "--to-offset", "99", rc=1)
    assert "outside" in cli.err
    assert cli.json("groups", "describe", group, "--members") == []

    assert cli.json("groups", "delete", group) == [{"group": group, "deleted": True}]
    assert group not in [g["group"] for g in cli.json("groups", "list")]
    cli("groups", "describe", group, rc=1)
    cli("groups", "delete", group, rc=1)


def _spark_checkpoint(root: Path, query_id: str, batches: dict[int, dict[str, Any]], committed: int) -> None:
    """A checkpoint laid out as Spark writes it: metadata, offsets/<batch>, commits/<batch>."""
    (root / "offsets").mkdir(parents=True)
    (root / "commits").mkdir()
    (root / "metadata").write_text(json.dumps({"id": query_id}) + "\n")
    for batch, offsets in batches.items():
        meta = {"batchWatermarkMs": 0, "batchTimestampMs": 0, "conf": {}}
        (root / "offsets" / str(batch)).write_text(f"v1\n{json.dumps(meta)}\n{json.dumps(offsets)}")
        if batch <= committed:
            (root / "commits" / str(batch)).write_text('v1\n{"nextBatchWatermarkMs":0}')


def test_lag_and_offsets_of_a_query_and_its_delta_table(cli: Cli, topic_name: str, tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    deltalake = pytest.importorskip("deltalake")
    from offsets.delta_store import app_id, query_app_id

    cli("topics", "create", topic_name, "-p", "2")
    data = tmp_path / "d.txt"
    data.write_text("".join(f"{i}\n" for i in range(8)))
    cli("produce", topic_name, str(data), "-p", "0")
    cli("produce", topic_name, str(data), "-p", "1")
    query_id = "3f1b0c52-0000-4000-8000-000000000001"
    ckpt = tmp_path / "ckpt"
    # batch 1 is committed (5 and 3 read), batch 2 only planned
    _spark_checkpoint(
        ckpt,
        query_id,
        {0: {topic_name: {"0": 2, "1": 1}}, 1: {topic_name: {"0": 5, "1": 3}}, 2: {topic_name: {"0": 8}}},
        1,
    )
    rows = cli.json("lag", "--checkpoint", str(ckpt))
    assert [(r["partition"], r["checkpoint"], r["latest"], r["lag"]) for r in rows] == [(0, 5, 8, 3), (1, 3, 8, 5)]
    assert cli("lag", "--checkpoint", str(ckpt), "--max-lag", "7", rc=3)
    cli("lag", "--checkpoint", str(ckpt), "--max-lag", "8")

    table = tmp_path / "table"
    txns = [deltalake.Transaction(app_id(query_id, topic_name, 0), 6), deltalake.Transaction(query_app_id(query_id), 1)]
    txns += [deltalake.Transaction(app_id("other-group", topic_name, 1), 8)]
    deltalake.write_deltalake(
        str(table),
        pa.table({"value": ["x"]}),
        commit_properties=deltalake.CommitProperties(app_transactions=txns),
    )
    rows = cli.json("lag", "--checkpoint", str(ckpt), "--table", str(table))
    assert [(r["partition"], r["checkpoint"], r["table"], r["lag"]) for r in rows] == [(0, 5, 6, 2), (1, 3, None, 8)]
    rows = cli.json("lag", "--table", str(table), "--owner", "other-group")
    assert [(r["partition"], r["table"], r["lag"]) for r in rows] == [(0, None, 8), (1, 8, 0)]

    offs = cli.json("offsets", str(table))
    assert sorted((r["owner"], r["partition"], r["next_offset"]) for r in offs) == [
        (query_id, 0, 6),
        ("other-group", 1, 8),
    ]
    assert [r["batch"] for r in offs if r["owner"] == query_id] == [1]
    assert cli.json("offsets", str(table), "--owner", "other-group")[0]["next_offset"] == 8
    cli("offsets", str(table), "--owner", "nobody", rc=1)
    cli("offsets", str(tmp_path / "missing"), rc=1)
    cli("lag", rc=1)
    assert "--checkpoint" in cli.err
    cli("lag", "--checkpoint", str(tmp_path), rc=1)
    assert "not a Spark checkpoint" in cli.err


def test_render_kcat_format() -> None:
    class Msg:
        def topic(self) -> str:
            return "t"

        def partition(self) -> int:
            return 1

        def offset(self) -> int:
            return 42

        def key(self) -> bytes | None:
            return None

        def value(self) -> bytes:
            return b"\xffv"

        def timestamp(self) -> tuple[int, int]:
            return (1, 1700000000000)

        def headers(self) -> list[tuple[str, bytes]]:
            return [("a", b"1")]

    assert (
        render(r"%t/%p@%o k=%k(%K) %s(%S) %T %h %%\t|\n", Msg()) == "t/1@42 k=(-1) \\xffv(2) 1700000000000 a=1 %\t|\n"
    )
    assert render(None, Msg()) == "\\xffv\n"


def test_console_script_stdin_usage_errors_and_broker(cli_broker: Any, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))
    bs = cli_broker.bootstrap_servers

    def run(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "pykafka_cli", *argv]
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, timeout=120)

    topic = f"stdin-{os.getpid()}"
    assert run("-b", bs, "topics", "create", topic).returncode == 0
    assert run("-b", bs, "produce", topic, "-k", "same", stdin="a\nb\n").returncode == 0
    r = run("--json", "-b", bs, "consume", topic, "-e")
    assert [json.loads(x)["value"] for x in r.stdout.splitlines()] == ["a", "b"]
    r = run("topics", "list")  # no bootstrap: usage error
    assert r.returncode == 2 and "bootstrap" in r.stderr
    assert run("-b", bs, "topics", "frobnicate").returncode == 2
    r = run("-b", bs, "topics", "list")  # the human table
    assert r.returncode == 0 and topic in r.stdout and "partitions" in r.stdout
    # pykafka broker == python -m broker_embedded: prints its bootstrap, stops on SIGTERM
    proc = subprocess.Popen(
        [sys.executable, "-m", "pykafka_cli", "broker", "--log-dir", str(tmp_path / "b")],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("bootstrap.servers=127.0.0.1:")
        r = run("-b", line.strip().split("=", 1)[1], "--json", "topics", "list")
        assert r.returncode == 0 and json.loads(r.stdout) == []
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0


# --- issue 33: errors that name the cause, and the secure broker's client settings ----------------------


@pytest.fixture(scope="module")
def secure_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Path, str]]:
    """`python -m broker_embedded --secure DIR`: (process, DIR, its `listeners=` line)."""
    from tests.integration.wire_util import BrokerProcess, read_line

    secure_dir = tmp_path_factory.mktemp("secure")
    proc = BrokerProcess("--secure", str(secure_dir)).start()
    try:
        listeners = read_line(proc.proc, 10)
        assert listeners is not None
        yield proc, secure_dir, listeners.strip()
    finally:
        proc.terminate()


def test_secure_broker_prints_every_listener_and_files_name_their_listener(secure_broker: Any) -> None:
    proc, secure_dir, line = secure_broker
    assert line.startswith("listeners=")
    listeners = dict(item.split("://") for item in line.split("=", 1)[1].split(","))
    assert set(listeners) == {"SASL_SSL", "SSL", "SASL_PLAINTEXT"}
    assert listeners["SASL_SSL"] == proc.bootstrap
    for name, expected in (("alice-SCRAM-SHA-512", "SASL_SSL"), ("alice-PLAIN", "SASL_SSL"), ("alice-mtls", "SSL")):
        props = (secure_dir / f"{name}.properties").read_text().splitlines()
        assert f"bootstrap.servers={listeners[expected]}" in props, (name, props)
    info = json.loads((secure_dir / "secure.json").read_text())
    assert info["listeners"] == {"SASL_SSL": listeners["SASL_SSL"], "SSL": listeners["SSL"],
                                 "SASL_PLAINTEXT": listeners["SASL_PLAINTEXT"]}  # fmt: skip


def test_properties_file_alone_is_enough(secure_broker: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The written file names its broker: `--command-config FILE` without -b works (-b would win)."""
    _proc, secure_dir, _line = secure_broker
    assert main(["--command-config", str(secure_dir / "alice-SCRAM-SHA-512.properties"), "topics", "list"]) == 0
    assert main(["--command-config", str(secure_dir / "alice-mtls.properties"), "--json", "topics", "list"]) == 0


def test_wrong_password_is_one_line_naming_the_kafka_error(secure_broker: Any, tmp_path: Path) -> None:
    """Issue 33: 17.9 s, ~150 librdkafka log lines and a traceback saying 'Broker transport failure'."""
    proc, secure_dir, _line = secure_broker
    wrong = tmp_path / "wrong.properties"
    text = (secure_dir / "alice-SCRAM-SHA-512.properties").read_text()
    wrong.write_text(text.replace(json.loads((secure_dir / "secure.json").read_text())["users"]["alice"], "not-it"))
    t0 = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "pykafka_cli", "-b", proc.bootstrap, "--command-config", str(wrong), "topics", "list"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    elapsed = time.monotonic() - t0
    assert out.returncode == 1, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "SASL_AUTHENTICATION_FAILED" in lines[0], out.stderr
    assert "not-it" not in out.stderr
    # the budget is 5 s; the interpreter's start is in it, so a loaded 2-core machine gets some slack
    assert elapsed < 8, elapsed


def test_unreachable_broker_is_one_line_within_the_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    t0 = time.monotonic()
    assert main(["-b", "127.0.0.1:1", "--timeout", "2", "topics", "list"]) == 1
    elapsed = time.monotonic() - t0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach 127.0.0.1:1 within 2 s (--timeout)" in err[0], err
    assert elapsed < 10, elapsed


def test_librdkafka_logs_only_with_verbose() -> None:
    from pykafka_cli import kafka

    try:
        kafka.VERBOSE = False
        assert kafka.librdkafka_config()["log_level"] == 0
        kafka.VERBOSE = True
        assert kafka.librdkafka_config()["log_level"] == 6
    finally:
        kafka.VERBOSE = False
