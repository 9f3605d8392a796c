"""Streams groups on a fake clock: the interactive-query endpoint information (PartitionsByUserEndpoint,
EndpointInformationEpoch) follows the members' current active and standby tasks, mapped to the source
and repartition source partitions, and moves on with joins, task moves and a session expiry."""

from __future__ import annotations

from typing import Any

from broker_embedded.group.streams_group import TasksTuple
from tests.unit.test_streams_group import CONFIG, Harness


def _endpoint(port: int) -> dict[str, Any]:
    return {"host": "localhost", "port": port}


def _settle(h: Harness, members: dict[str, int]) -> dict[str, Any]:
    """Heartbeats every member, confirming what it was given, until nothing moves."""
    last: dict[str, Any] = {}
    for _ in range(12):
        h.advance(1001)
        for name in members:
            m = h.member(name)
            last[name] = h.hb(name, m.member_epoch, owned=m.assigned, endpoint_information_epoch=members[name])
            members[name] = last[name].endpoint_information_epoch
    return last


def test_endpoint_information_follows_the_tasks() -> None:
    h = Harness()
    h.coordinator.config = {**CONFIG, "group.streams.num.standby.replicas": 1}
    first = h.hb("a", 0, user_endpoint=_endpoint(7001))
    # a joining member gets the map at once: itself, with no tasks yet
    assert first.partitions_by_user_endpoint == [("localhost", 7001, {}, {})]
    h.advance(3001)
    h.hb("b", 0, user_endpoint=_endpoint(7002))
    epochs = {"a": first.endpoint_information_epoch, "b": 0}
    last = _settle(h, epochs)
    group = h.coordinator.groups["app"]
    assert group.state() == "Stable"
    # the last round: every member current, nothing sent
    assert all(out.partitions_by_user_endpoint is None for out in last.values())
    epoch = group.endpoint_information_epoch
    assert epochs == {"a": epoch, "b": epoch}
    out = h.hb("a", h.member("a").member_epoch, endpoint_information_epoch=epoch - 1)
    by_port = {port: (active, standby) for _h, port, active, standby in out.partitions_by_user_endpoint}
    assert set(by_port) == {7001, 7002}
    for name, port in (("a", 7001), ("b", 7002)):
        active, standby = by_port[port]
        m = h.member(name)
        # subtopology 0 reads "in", subtopology 1 the repartition topic "app-rep"
        topics = {"0": "in", "1": "app-rep"}
        want = {topics[s]: sorted(ps) for s, ps in m.assigned.active.items()}
        assert active == dict(sorted(want.items()))
        assert standby == {"app-rep": sorted(m.assigned.standby["1"])}  # only the stateful subtopology
    # all four active tasks and the stateful subtopology's standbys are behind the endpoints
    assert sorted(p for a, _s in by_port.values() for ps in a.values() for p in ps) == [0, 0, 1, 1]
    assert sum(len(s.get("app-rep", [])) for _a, s in by_port.values()) == 2
    # "b" stops heartbeating: expired after the session timeout, the map moves on without it
    for _ in range(10):
        h.advance(5000)
        m = h.member("a")
        out = h.hb("a", m.member_epoch, owned=m.assigned, endpoint_information_epoch=epochs["a"])
        epochs["a"] = out.endpoint_information_epoch
    assert set(h.coordinator.groups["app"].members) == {"a"}
    assert h.coordinator.groups["app"].endpoint_information == (
        ("localhost", 7001, {"app-rep": [0, 1], "in": [0, 1]}, {}),
    )
    assert epochs["a"] > epoch
    assert h.member("a").assigned.standby == TasksTuple().standby
