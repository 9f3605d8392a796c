"""The KRaft RPCs' encodings and the file-backed Raft log (issue 32).

- Each core message survives a round trip through Kafka 4.3.1's wire format (request header, body,
  response header), including Fetch's KRaft fields (DivergingEpoch, SnapshotId, CurrentLeader).
- The generated codecs in broker_embedded/raft/codecs are what the generator makes of the jar's specs.
- FileRaftLog / FileQuorumStateStore: what was flushed survives a reopen; a torn or truncated tail is
  cut off; truncation and snapshots are durable; the quorum-state file is replaced atomically.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.apis import begin_quorum_epoch, end_quorum_epoch, fetch_snapshot, vote
from broker_embedded.raft import ElectionState, LogEntry, OffsetAndEpoch, fetch_wire, gen_codecs, wire
from broker_embedded.raft import messages as m
from broker_embedded.raft.file_log import LOG_FILE, FileQuorumStateStore, FileRaftLog
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.generator import default_clients_jar


def _request(key: int, version: int, body: object) -> object:
    k, v, corr, decoded = wire.decode_request(wire.encode_request(key, version, 7, "t", body)[4:])
    assert (k, v, corr) == (key, version, 7)
    return decoded


def _response(key: int, version: int, body: object) -> object:
    corr, decoded = wire.decode_response(key, version, wire.encode_response(key, version, 9, body)[4:])
    assert corr == 9
    return decoded


def test_core_messages_round_trip_the_wire() -> None:
    req = m.VoteRequest(3, 1, 5, 4, 100, pre_vote=True)
    assert vote.from_wire_request(_request(52, 2, vote.to_wire_request(req, 2, "c")), 3) == req
    # PreVote is a v2 field: an older version carries a standard vote
    assert not vote.from_wire_request(_request(52, 1, vote.to_wire_request(req, 2, "c")), 3).pre_vote
    resp = m.VoteResponse(3, ErrorCode.FENCED_LEADER_EPOCH, None, 6, False, True)
    assert vote.from_wire_response(_response(52, 2, vote.to_wire_response(resp)), 3, True) == resp

    begin = m.BeginQuorumEpochRequest(4, 1, 7)
    assert (
        begin_quorum_epoch.from_wire_request(_request(53, 1, begin_quorum_epoch.to_wire_request(begin, 2, None)), 4)
        == begin
    )
    end = m.EndQuorumEpochRequest(5, 1, 7, (3, 2))
    for v in (0, 1):
        body = _request(54, v, end_quorum_epoch.to_wire_request(end, None, v))
        assert end_quorum_epoch.from_wire_request(body, 5, v) == end
    end_resp = m.EndQuorumEpochResponse(5, ErrorCode.NONE, 2, 8)
    assert (
        end_quorum_epoch.from_wire_response(_response(54, 1, end_quorum_epoch.to_wire_response(end_resp)), 5)
        == end_resp
    )

    entries = (
        LogEntry(10, 2, ("LeaderChange", 1, 2), control=True),
        LogEntry(11, 2, b"record"),
        LogEntry(12, 3, ("VotersRecord", (1, 2, 3)), control=True),
    )
    fetch_resp = m.FetchResponse(6, ErrorCode.NONE, 1, 3, 12, 4, entries, diverging_epoch=OffsetAndEpoch(9, 1))
    assert fetch_wire.from_wire_response(_response(1, 17, fetch_wire.to_wire_response(fetch_resp)), 6) == fetch_resp
    snap_resp = m.FetchResponse(6, ErrorCode.NONE, 1, 3, 12, 8, snapshot_id=OffsetAndEpoch(8, 2))
    assert fetch_wire.from_wire_response(_response(1, 17, fetch_wire.to_wire_response(snap_resp)), 6) == snap_resp
    fetch_req = m.FetchRequest(6, 2, 3, 11, 2, 100)
    assert (
        fetch_wire.from_wire_request(_request(1, 17, fetch_wire.to_wire_request(fetch_req, None, 500)), 6, 100)
        == fetch_req
    )

    sreq = m.FetchSnapshotRequest(7, 2, 3, OffsetAndEpoch(8, 2), 16, 1024)
    assert fetch_snapshot.from_wire_request(_request(59, 1, fetch_snapshot.to_wire_request(sreq, None)), 7) == sreq
    sresp = m.FetchSnapshotResponse(7, ErrorCode.NONE, 1, 3, OffsetAndEpoch(8, 2), 40, 16, b"chunk")
    assert fetch_snapshot.from_wire_response(_response(59, 1, fetch_snapshot.to_wire_response(sresp)), 7) == sresp


def test_a_request_for_another_partition_is_refused() -> None:
    body = vote.to_wire_request(m.VoteRequest(1, 1, 1, 0, 0), 2, None)
    body.topics[0].topic_name = "other"
    with pytest.raises(ValueError):
        vote.from_wire_request(body, 1)


@pytest.mark.skipif(default_clients_jar() is None, reason="kafka-clients jar (peers) not set up")
def test_generated_codecs_are_up_to_date() -> None:
    assert gen_codecs.main(["--check"]) == 0


def _entries(start: int, n: int, epoch: int) -> list[LogEntry]:
    return [LogEntry(start + i, epoch, f"v{start + i}".encode()) for i in range(n)]


def test_flushed_entries_survive_a_reopen_and_a_torn_tail_is_cut(tmp_path: Path) -> None:
    log = FileRaftLog(tmp_path)
    log.append(_entries(0, 5, 1))
    log.flush()
    log.append(_entries(5, 2, 2))
    log.flush()
    log.close()
    path = tmp_path / LOG_FILE
    whole = path.read_bytes()

    # a torn write: the last batch's bytes half garbage (CRC mismatch)
    torn = bytearray(whole)
    torn[-5:] = b"\xff" * 5
    path.write_bytes(bytes(torn))
    log = FileRaftLog(tmp_path)
    assert (log.start_offset, log.end_offset, log.last_epoch) == (0, 6, 2)
    assert log.recovered_tail_bytes > 0 and path.stat().st_size < len(whole)
    assert log.entry(5).value == b"v5"
    log.close()

    # a truncated tail (the page cache lost the end of the file): cut back to the last whole batch
    path.write_bytes(whole[:-3])
    log = FileRaftLog(tmp_path)
    assert log.end_offset == 6 and log.flushed_offset == 6
    log.append(_entries(6, 1, 3))  # appends continue after the cut
    log.flush()
    log.close()
    log = FileRaftLog(tmp_path)
    assert [e.offset for e in log.read(0, 100)] == list(range(7))
    assert log.end_offset_for_epoch(2) == OffsetAndEpoch(6, 2)
    log.close()


def test_truncation_and_snapshots_are_durable(tmp_path: Path) -> None:
    log = FileRaftLog(tmp_path)
    log.append(_entries(0, 6, 1) + _entries(6, 4, 2))
    log.flush()
    log.truncate_to(7)  # a diverging suffix
    log.append(_entries(7, 2, 3))
    log.flush()
    log.create_snapshot(OffsetAndEpoch(5, 1), b"state@5")
    log.close()

    log = FileRaftLog(tmp_path)
    assert (log.start_offset, log.end_offset) == (5, 9)
    assert log.latest_snapshot_id == OffsetAndEpoch(5, 1)
    assert log.read_snapshot(OffsetAndEpoch(5, 1)) == b"state@5"
    assert [(e.offset, e.epoch) for e in log.read(5, 10)] == [(5, 1), (6, 2), (7, 3), (8, 3)]
    log.install_snapshot(OffsetAndEpoch(20, 4), b"leader's")
    log.close()
    log = FileRaftLog(tmp_path)
    assert (log.start_offset, log.end_offset, log.last_epoch) == (20, 20, 4)
    assert len(list(tmp_path.glob("*.checkpoint"))) == 1
    log.close()


def test_quorum_state_is_replaced_atomically(tmp_path: Path) -> None:
    store = FileQuorumStateStore(tmp_path)
    assert store.read() is None
    store.write(ElectionState(3, voted_id=2))
    store.write(ElectionState(4, voted_id=None, leader_id=1))
    (tmp_path / "quorum-state.tmp").write_text("{half")  # a write that crashed before its rename
    assert FileQuorumStateStore(tmp_path).read() == ElectionState(4, None, 1)
