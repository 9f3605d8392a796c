"""Keep a librdkafka mock cluster alive in its own process.

Run as ``python -m bench.mock_cluster``. The process creates a confluent-kafka
Producer with ``test.mock.num.brokers=1``, which makes librdkafka start a
one-broker mock cluster on an ephemeral 127.0.0.1 port. It reads the address
from the ``debug: mock`` log line, prints ``bootstrap.servers=HOST:PORT`` on
stdout (the same contract as ``python -m broker_embedded``), and then keeps the
handle alive until stdin reaches EOF or the process gets SIGTERM/SIGINT.

The mock has no CreateTopics over the wire; topics are auto-created (with the
mock's default of 4 partitions) on the first Metadata request that names them.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
import time
from types import FrameType

from confluent_kafka import Producer

_BOOTSTRAP_MARKER = "bootstrap.servers="
_STARTUP_TIMEOUT_S = 10.0


class _BootstrapCatcher(logging.Handler):
    """Logging handler that remembers the mock cluster's bootstrap address."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.bootstrap: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self.bootstrap is not None:
            return  # After start-up the (per-request) mock debug lines are dropped.
        message = record.getMessage()
        if "Mock cluster" in message and _BOOTSTRAP_MARKER in message:
            self.bootstrap = message.split(_BOOTSTRAP_MARKER, 1)[1].split()[0]


def main() -> int:
    stop = threading.Event()

    def _on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)

    def _watch_stdin() -> None:
        # The parent holds our stdin open; EOF means it is gone (even if it was SIGKILLed).
        sys.stdin.buffer.read()
        stop.set()

    threading.Thread(target=_watch_stdin, name="stdin-watch", daemon=True).start()

    catcher = _BootstrapCatcher()
    logger = logging.getLogger("bench.mock_cluster")
    logger.addHandler(catcher)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False

    # No bootstrap.servers: with test.mock.num.brokers the handle talks to its own mock.
    handle = Producer(
        {
            "test.mock.num.brokers": 1,
            "debug": "mock",
            "logger": logger,
        }
    )
    deadline = time.monotonic() + _STARTUP_TIMEOUT_S
    while catcher.bootstrap is None and time.monotonic() < deadline and not stop.is_set():
        handle.poll(0.05)  # Logs are delivered through the handle's queue.
    if catcher.bootstrap is None:
        print("error: no 'Mock cluster ... bootstrap.servers=' log line seen", file=sys.stderr)
        return 1

    print(f"{_BOOTSTRAP_MARKER}{catcher.bootstrap}", flush=True)
    while not stop.is_set():
        # Keep draining the log queue: with debug=mock the mock logs every request.
        handle.poll(0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
