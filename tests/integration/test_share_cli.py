"""``pykafka consume TOPIC --share-group G`` as separate processes, differential (ours and Apache
Kafka 4.3.1 through ``either_broker``).

One scenario per broker:

* a CLI is SIGKILLed while it holds records it has not written yet: its stdout is a pipe nobody
  reads, so it blocks writing a record of a batch it acquired (the pipe is full), and its
  acknowledgements of that batch never reach the broker (it sends them once the batch is out);
* two more CLIs on the same share group then read everything between them: each record exactly
  once between the two, every record the killed CLI had not written among them, and the record it
  was blocked on comes back with delivery count 2 (the broker released the killed member's records
  when its connection closed, long before their 30 s acquisition lock would expire);
* Ctrl+C (SIGINT) stops a CLI cleanly (exit code 130).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import termios
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.test_share_groups import _name, _share_group

pytest.importorskip("confluent_kafka")

BIG = 30  # records of ~7 KB: more than the 64 KiB pipe holds
SMALL = 60
_ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))


@pytest.fixture
def broker(either_broker: Any) -> Any:
    return either_broker


def _sigint_as_a_terminal_gives_it() -> None:
    # A run started as a background job of a non-interactive shell (test.sh's parallel runs, a CI runner)
    # inherits SIGINT ignored, and Python then installs no KeyboardInterrupt handler: the CLI would never
    # see the test's Ctrl+C (session 13's run B: both CLIs SIGKILLed after 30 s). A terminal's child has it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(bs: str, topic: str, group: str, stdout: Any, stderr: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "pykafka_cli", "-b", bs, "--json", "consume", topic, "--share-group", group]
    with stderr.open("wb") as err:
        return subprocess.Popen(cmd, stdout=stdout, stderr=err, env=_ENV, preexec_fn=_sigint_as_a_terminal_gives_it)


class _Lines:
    """A CLI's stdout read line by line on a thread (JSON records)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.records: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip():
                self.records.append(json.loads(line))


def _produce(bs: str, topic: str, values: list[str]) -> None:
    p = Producer({"bootstrap.servers": bs, "linger.ms": 5})
    for v in values:
        p.produce(topic, v.encode(), partition=0)
    assert p.flush(30) == 0


def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _stop(proc: subprocess.Popen[bytes], sig: int, timeout: float = 30) -> int:
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait(timeout=10)


def test_share_group_clis_read_each_record_once_and_a_killed_clis_records_go_to_the_others(
    broker: Any, tmp_path: Path
) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("cli"), _share_group(broker, _name("gcli"))
    create_topic(bs, topic, 1)
    big = [f"big-{i:03d}-" + "x" * 7001 for i in range(BIG)]
    _produce(bs, topic, big)

    # the CLI to kill: stdout a pipe nobody reads until it is dead
    read_end, write_end = os.pipe()
    killed = _cli(bs, topic, group, write_end, tmp_path / "killed.err")
    os.close(write_end)
    unread: list[tuple[float, int]] = []

    def blocked_writing() -> bool:
        """The CLI's main thread waits in the kernel for room in the pipe (its wait channel); where
        /proc hides wait channels, the bytes in the pipe have not moved for 2 s."""
        assert killed.poll() is None, (tmp_path / "killed.err").read_text()
        wchan = Path(f"/proc/{killed.pid}/wchan").read_text().strip()
        if wchan not in ("", "0"):
            return "pipe_write" in wchan
        n = bytearray(4)
        fcntl.ioctl(read_end, termios.FIONREAD, n)
        size = int.from_bytes(n, sys.byteorder)
        if not unread or unread[-1][1] != size:
            unread.append((time.monotonic(), size))
        return size > 0 and time.monotonic() - unread[-1][0] > 2

    others: list[_Lines] = []
    try:
        _wait(blocked_writing, 60, "the CLI never filled its stdout")
        killed.kill()
        killed.wait(timeout=10)
        with os.fdopen(read_end, "rb") as f:
            lines = f.read().split(b"\n")
        written = [json.loads(line)["value"] for line in lines[:-1]]  # the last one is cut off
        assert written == big[: len(written)] and len(written) < BIG
        blocked_on = big[len(written)]

        small = [f"small-{i:03d}" for i in range(SMALL)]
        _produce(bs, topic, small)
        others = [_Lines(_cli(bs, topic, group, subprocess.PIPE, tmp_path / f"o{i}.err")) for i in range(2)]
        left = set(big[len(written) :]) | set(small)

        def everything_read() -> bool:
            for o in others:
                assert o.proc.poll() is None, (tmp_path / "o0.err").read_text() + (tmp_path / "o1.err").read_text()
            return left <= {r["value"] for o in others for r in o.records}

        _wait(everything_read, 60, "the other CLIs did not read the killed CLI's records and the new ones")
        # Ctrl+C: a clean stop -- the CLI confirms its acknowledgements (up to --timeout, 15 s) and leaves
        # the group; under CI load against Apache Kafka that once took over 30 s (session 18), so up to 60
        t0 = time.monotonic()
        codes = [_stop(o.proc, signal.SIGINT, timeout=60) for o in others]
        errs = "".join((tmp_path / f"o{i}.err").read_text(errors="replace")[-2000:] for i in range(2))
        assert codes == [130, 130], f"{codes} after {time.monotonic() - t0:.1f}s; stderr: {errs}"
    finally:
        for p in [killed, *(o.proc for o in others)]:
            if p.poll() is None:
                p.kill()
                p.wait(timeout=10)
    got = [r for o in others for r in o.records]
    counts = Counter(r["value"] for r in got)
    # exactly once between the two: nothing they accepted came back
    assert [v for v, n in counts.items() if n > 1] == []
    # the records the killed CLI wrote may come back (its acks of that batch were never sent); the
    # one it was blocked on was acquired by it, so it comes back as a second delivery
    assert set(counts) <= set(big) | set(small)
    assert {r["delivery_count"] for r in got if r["value"] == blocked_on} == {2}
    assert {r["delivery_count"] for r in got if r["value"] in small} == {1}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"group": "g2"}, "-G/--group"),
        ({"partition": [0]}, "-p/--partition"),
        ({"offset": "end"}, "share.auto.offset.reset"),
        ({"exit": True}, "-e/--exit"),
        ({"share_group": " "}, "needs a group id"),
    ],
)
def test_share_group_refuses_options_it_has_no_use_for(extra: dict[str, Any], message: str) -> None:
    import argparse

    from pykafka_cli.kafka import CliError
    from pykafka_cli.share import check_args

    args = argparse.Namespace(
        **{"share_group": "g", "group": None, "partition": None, "offset": None, "exit": False, **extra}
    )
    with pytest.raises(CliError, match=message.replace(".", r"\.")):
        check_args(args)
