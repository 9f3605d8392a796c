"""A streams group survives a broker restart: its records in __consumer_offsets (types 17, 19-23)
are replayed on load (ours only: it restarts our broker on its log directory)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from broker_embedded import EmbeddedBroker
from kafka_wire.protocol.messages import streams_group_heartbeat_request as q
from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.test_streams_group import _describe, _topology
from tests.integration.wire_util import connect

# no initial delay and no assignment interval: the test drives the heartbeats itself
CONFIG = {"group.streams.initial.rebalance.delay.ms": 0, "group.streams.assignment.interval.ms": 0}


def _heartbeat(bs: str, **fields: Any) -> Any:
    with connect(bs) as conn:
        deadline = time.monotonic() + 30
        while True:
            r = conn.request(88, q.StreamsGroupHeartbeatRequest(**fields), 0)
            if r.error_code not in (14, 15):  # coordinator loading / not available yet
                return r
            assert time.monotonic() < deadline, r
            time.sleep(0.1)


def test_streams_group_survives_a_restart(tmp_path: Path) -> None:
    app = "streams-replay"
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=2, **CONFIG) as broker:
        bs = broker.bootstrap_servers
        create_topic(bs, "replay-in", 2)
        state: dict[str, tuple[int, list[Any]]] = {}
        for member in ("a", "b"):
            r = _heartbeat(
                bs, group_id=app, member_id=member, member_epoch=0, rebalance_timeout_ms=30000,
                process_id=f"p-{member}", topology=_topology("replay-in", app),
                active_tasks=[], standby_tasks=[], warmup_tasks=[],
            )  # fmt: skip
            assert r.error_code == 0, r
            state[member] = (r.member_epoch, r.active_tasks)
        deadline = time.monotonic() + 30
        before = _describe(bs, app)
        while before.group_state != "Stable" or any(not m.assignment.active_tasks for m in before.members):
            assert time.monotonic() < deadline, before
            for member, (epoch, owned) in state.items():
                r = _heartbeat(bs, group_id=app, member_id=member, member_epoch=epoch, active_tasks=owned)
                assert r.error_code == 0, r
                state[member] = (r.member_epoch, owned if r.active_tasks is None else r.active_tasks)
            before = _describe(bs, app)
    with EmbeddedBroker(log_dir=tmp_path, num_partitions=2, **CONFIG) as broker:
        bs = broker.bootstrap_servers
        after = _describe(bs, app)
        assert after == before
        # the members go on with their epochs, as if nothing happened
        epoch, owned = state["a"]
        r = _heartbeat(bs, group_id=app, member_id="a", member_epoch=epoch, active_tasks=owned)
        assert (r.error_code, r.member_epoch) == (0, epoch)
