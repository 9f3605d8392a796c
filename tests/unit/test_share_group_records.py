"""Share group membership kept as Kafka keeps it (KIP-932 records 10-14 in __consumer_offsets):
the bytes of Kafka 4.3.1's layouts, and a group rebuilt from its records equal to the live one
through joins, leaves, session timeouts, a new partition and a deletion -- members then carry on
with the epochs they had."""

from __future__ import annotations

from typing import Any

from broker_embedded.group.share_group import ShareGroup, ShareGroups
from broker_embedded.group.share_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    GROUP_METADATA,
    MEMBER_METADATA,
    ShareCurrentMemberAssignmentValue,
    ShareGroupKey,
    ShareGroupMetadataValue,
    ShareMemberMetadataValue,
    ShareTargetAssignmentMetadataValue,
    decode_record,
    encode_record,
)

T1, T2 = b"\x01" * 16, b"\x02" * 16


def _groups(topics: dict[str, tuple[bytes, int]], log: list[tuple[str, bytes, bytes | None]]) -> ShareGroups:
    g = ShareGroups(topics.get, timeouts=lambda _: (1_000, 100))
    g.append = lambda gid, records: log.extend((gid, k, v) for k, v in records)
    return g


def _view(group: ShareGroup) -> Any:
    return (
        group.group_epoch,
        group.assignment_epoch,
        group.state,
        {
            m.member_id: (m.member_epoch, m.subscribed_topic_names, m.rack_id, m.client_id, m.client_host, m.assignment)
            for m in group.members.values()
        },
    )


def _replayed(topics: dict[str, tuple[bytes, int]], log: list[tuple[str, bytes, bytes | None]]) -> ShareGroups:
    fresh = _groups(topics, [])
    for _gid, k, v in log:
        assert fresh.replay_raw(k, v)
    fresh.after_load(now_ms=0)
    return fresh


def test_records_in_kafkas_layout() -> None:
    key, value = encode_record((ShareGroupKey(GROUP_METADATA, "g"), ShareGroupMetadataValue(5)))
    assert key == b"\x00\x0b\x00\x01g"
    assert value == b"\x00\x00" + b"\x00\x00\x00\x05" + b"\x00" * 8 + b"\x00"  # v0, epoch, hash, no tags
    member = ShareMemberMetadataValue("r1", "cid", "/h", ("t",))
    key, value = encode_record((ShareGroupKey(MEMBER_METADATA, "g", "m"), member))
    assert key == b"\x00\x0a\x00\x01g\x00\x01m"
    assert value == b"\x00\x00\x03r1\x04cid\x03/h\x02\x02t\x00"
    current = ShareCurrentMemberAssignmentValue(3, 2, 0, {T1: frozenset({1, 0})})
    key, value = encode_record((ShareGroupKey(CURRENT_MEMBER_ASSIGNMENT, "g", "m"), current))
    assert (
        value
        == b"\x00\x00"
        + b"\x00\x00\x00\x03\x00\x00\x00\x02\x00"
        + b"\x02"
        + T1
        + (b"\x03\x00\x00\x00\x00\x00\x00\x00\x01\x00")
        + b"\x00"
    )
    for record in (
        (ShareGroupKey(MEMBER_METADATA, "g", "m"), member),
        (ShareGroupKey(CURRENT_MEMBER_ASSIGNMENT, "g", "m"), current),
        (ShareGroupKey(12, "g"), ShareTargetAssignmentMetadataValue(4, 1_700_000_000_000)),
        (ShareGroupKey(MEMBER_METADATA, "g", "m"), None),
    ):
        assert decode_record(*encode_record(record)) == record
    # other groups' records (consumer 3-8, streams 17+) and type 15 are not share group records
    assert decode_record(b"\x00\x03\x00\x01g", b"\x00\x00") is None
    assert decode_record(b"\x00\x0f\x00\x01g", None) is None


def test_groups_rebuilt_from_their_records_equal_the_live_ones() -> None:
    topics = {"one": (T1, 1), "two": (T2, 2)}
    log: list[tuple[str, bytes, bytes | None]] = []
    g = _groups(topics, log)
    g.heartbeat("g", "a", 0, "rack-a", ["one"], now_ms=0, client_id="ca", client_host="/10.0.0.1")
    g.heartbeat("g", "b", 0, None, ["one", "two"], now_ms=10, client_id="cb", client_host="/10.0.0.2")
    g.heartbeat("g", "a", 1, None, None, now_ms=20)  # moves to the group's epoch
    g.heartbeat("h", "x", 0, None, ["two"], now_ms=20)
    g.heartbeat("h", "y", 0, None, ["two"], now_ms=25)
    g.heartbeat("h", "y", -1, None, None, now_ms=30)  # leaves
    assert _view(_replayed(topics, log).groups["g"]) == _view(g.groups["g"])
    assert {k: _view(v) for k, v in _replayed(topics, log).groups.items()} == {k: _view(v) for k, v in g.groups.items()}
    # a heartbeat that changes nothing writes nothing
    written = len(log)
    b_epoch = g.groups["g"].members["b"].member_epoch
    g.heartbeat("g", "b", b_epoch, None, None, now_ms=40)
    assert len(log) == written
    # a new partition reassigns; "x" times out (no heartbeat since 20: deadline 1 020)
    topics["two"] = (T2, 3)
    g.heartbeat("g", "b", b_epoch, None, None, now_ms=900)
    g.heartbeat("g", "a", g.groups["g"].members["a"].member_epoch, None, None, now_ms=900)
    assert g.expire(1_100) == [("h", "x")]
    again = _replayed(topics, log)
    assert {k: _view(v) for k, v in again.groups.items()} == {k: _view(v) for k, v in g.groups.items()}
    assert again.groups["h"].state == "Empty" and again.groups["h"].members == {}
    # a member read back carries on with its epoch: no fencing, no new epoch, no records
    a = again.groups["g"].members["a"]
    written = len(log)
    again.append = g.append
    out = again.heartbeat("g", "a", a.member_epoch, None, None, now_ms=10)
    assert out.member_epoch == a.member_epoch and out.assignment is None and len(log) == written
    # DeleteGroups of the empty group: its records are tombstoned and it does not come back
    g.delete("h")
    assert set(_replayed(topics, log).groups) == {"g"}
    tombstones = [ShareGroupKey(t, "h") for t in (12, GROUP_METADATA)]
    assert [decode_record(k, v) for gid, k, v in log[-2:]] == [(t, None) for t in tombstones]
    # the members' session timeouts restart on load
    loaded = _replayed(topics, log)
    assert loaded.expire(999) == [] and sorted(m for _g, m in loaded.expire(1_000)) == ["a", "b"]
