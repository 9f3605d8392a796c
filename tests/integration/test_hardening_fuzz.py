"""Issue 22 fuzzing: structured requests of every API key and version we advertise (hypothesis
strategies from Kafka's JSON specs) and byte-level mutations of them, sent to one broker while a
bystander producer keeps writing. Bounded for CI (FUZZ_FRAMES frames, well under 60 s); longer
runs: `python bench/fuzz_broker.py --frames 100000`.

Fails on any broker log line at ERROR with a traceback (a handler crash), on a bystander record
that is not acknowledged or not read back, and on RSS growth past a bound.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from broker_embedded import EmbeddedBroker
from tests.integration import fuzz_frames as fz
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(180)

FUZZ_FRAMES = int(os.environ.get("FUZZ_FRAMES", "2500"))
MUTATIONS_PER_FRAME = 3
RSS_GROWTH_BOUND_MB = 300


@pytest.fixture(scope="module")
def fuzz_target() -> Iterator[tuple[EmbeddedBroker, fz.ErrorLogCapture, fz.Bystander]]:
    capture = fz.ErrorLogCapture()
    capture.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    logger = logging.getLogger("broker_embedded")
    logger.addHandler(capture)
    try:
        with EmbeddedBroker(**fz.broker_configs()) as b:
            bystander = fz.Bystander(b.bootstrap_servers).start()
            try:
                yield b, capture, bystander
            finally:
                bystander.stop()
    finally:
        logger.removeHandler(capture)


def test_fuzz_every_api_key_and_version(fuzz_target: tuple[EmbeddedBroker, fz.ErrorLogCapture, fz.Bystander]) -> None:
    broker, capture, bystander = fuzz_target
    advertised = broker.call(lambda b: dict(b.advertised))
    sender = fz.FrameSender(*w.host_port(broker.bootstrap_servers))
    rss0 = fz.rss_mb()
    start = time.monotonic()
    rng = random.Random(22)

    @settings(
        max_examples=FUZZ_FRAMES // (1 + MUTATIONS_PER_FRAME),
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(frame=fz.valid_frames(advertised))
    def send(frame: bytes) -> None:
        sender.send(frame)
        for _ in range(MUTATIONS_PER_FRAME):
            sender.send(fz.mutate(frame, rng))

    try:
        send()
    finally:
        sender.close()
    elapsed = time.monotonic() - start
    time.sleep(1)  # let delayed answers and closes settle
    grown = fz.rss_mb() - rss0
    bystander.stop()
    problems = bystander.verify()
    p99 = sorted(bystander.latencies)[int(len(bystander.latencies) * 0.99)] * 1000 if bystander.latencies else -1
    print(
        f"fuzz: {sender.frames_sent} frames in {elapsed:.1f}s over {sender.connections} connections "
        f"({sender.closed_by_broker} closed by the broker); bystander {len(bystander.acked)} acked, "
        f"p99 {p99:.0f} ms; RSS +{grown:.0f} MB"
    )
    assert not capture.records, "broker tracebacks:\n" + "\n\n".join(capture.records[:5])
    assert not problems, problems
    assert grown < RSS_GROWTH_BOUND_MB, grown
