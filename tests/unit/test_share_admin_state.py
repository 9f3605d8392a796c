"""Share-group admin and the share coordinator's RPCs, sans-IO: the ShareStateService answers of
Initialize/Read/Write/Delete/ReadSummary (the codes Apache Kafka 4.3.1 answers, see
tests/integration/test_share_admin.py), the FindCoordinator key type 2 parser, and the
SharePartitionManager's reset and delete of share-partition start offsets (AlterShareGroupOffsets /
DeleteShareGroupOffsets) without a persister."""

from __future__ import annotations

import base64
import uuid
from typing import Any

from broker_embedded.purgatory import ManualClock, SystemTimer
from broker_embedded.share.manager import SharePartitionManager, ShareSettings
from broker_embedded.share.persister import SHARE_STATE_TOPIC, SharePersister, parse_coordinator_key
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService
from kafka_wire.errors import ErrorCode

TID = uuid.uuid4()
KEY = ShareGroupStateKey("g", str(TID), 0)
ACKNOWLEDGED, AVAILABLE, ARCHIVED = 2, 0, 4


class _Appends:
    """A __share_group_state partition that only counts the coordinator's appends."""

    def __init__(self) -> None:
        self.batches: list[bytes] = []

    def append_as_coordinator(self, batch: bytearray) -> None:
        self.batches.append(bytes(batch))


class _Topics:
    def get(self, name: str) -> Any:
        return object() if name == SHARE_STATE_TOPIC else None


def _service() -> tuple[ShareStateService, _Appends]:
    log = _Appends()
    persister = SharePersister(_Topics(), lambda topic, index: log, lambda *a: None, num_partitions=3)  # type: ignore[arg-type]
    return ShareStateService(persister), log


def test_state_service_answers_as_kafka() -> None:
    s, log = _service()
    assert s.read(KEY, 0).error == ErrorCode.INVALID_REQUEST  # never initialized
    assert s.summary(KEY, 0).start_offset == -1 and s.summary(KEY, 0).error == ErrorCode.NONE
    assert s.write(KEY, 0, 0, 0, []).error == ErrorCode.INVALID_REQUEST
    assert not log.batches  # refused requests write nothing
    assert s.initialize(KEY, 1, 5).error == ErrorCode.NONE
    assert s.initialize(KEY, 0, 7).error == ErrorCode.FENCED_STATE_EPOCH  # older state epoch
    assert s.read(KEY, 0).start_offset == 5
    assert s.write(KEY, 0, 1, 5, []).error == ErrorCode.FENCED_STATE_EPOCH
    assert s.write(KEY, 1, 2, 5, [(5, 6, ACKNOWLEDGED, 1), (7, 7, AVAILABLE, 2)], 2).error == ErrorCode.NONE
    assert s.read(KEY, 1).error == ErrorCode.FENCED_LEADER_EPOCH
    assert s.write(KEY, 1, 1, 5, []).error == ErrorCode.FENCED_LEADER_EPOCH
    assert s.write(KEY, 1, 2, 5, [(8, 8, 1, 1)]).error == ErrorCode.INVALID_REQUEST  # ACQUIRED is never persisted
    assert s.write(KEY, 1, 2, -1, [(8, 8, ARCHIVED, 1)]).error == ErrorCode.NONE
    r = s.read(KEY, 2)
    assert (r.state_epoch, r.start_offset) == (1, 5)
    assert [(b.first_offset, b.last_offset, int(b.delivery_state), b.delivery_count) for b in r.batches] == [
        (5, 6, ACKNOWLEDGED, 1),
        (7, 7, AVAILABLE, 2),
        (8, 8, ARCHIVED, 1),
    ]
    assert s.write(KEY, 1, 3, 7, [], 1).error == ErrorCode.NONE
    summary = s.summary(KEY, 3)
    assert (summary.start_offset, summary.leader_epoch, summary.delivery_complete_count) == (7, 3, 1)
    assert [b.first_offset for b in s.read(KEY, 3).batches] == [7, 8]  # below the start offset: dropped
    written = len(log.batches)
    assert s.delete(KEY).error == ErrorCode.NONE and len(log.batches) == written + 1  # a tombstone
    assert s.read(KEY, 3).error == ErrorCode.INVALID_REQUEST
    assert s.delete(KEY).error == ErrorCode.NONE and len(log.batches) == written + 1  # nothing to delete


def test_coordinator_key_parsing() -> None:
    b64 = base64.urlsafe_b64encode(TID.bytes).decode().rstrip("=")
    assert parse_coordinator_key(f"g:{b64}:3") == ShareGroupStateKey("g", str(TID), 3)
    assert parse_coordinator_key(f"a:b:{b64}:0") == ShareGroupStateKey("a:b", str(TID), 0)  # a colon in the group
    for bad in ("nocolons", f":{b64}:0", f"g:{b64}:-1", f"g:{b64}:x", "g:AAAA:0", f"g:{b64}"):
        assert parse_coordinator_key(bad) is None, bad


def test_manager_reset_and_delete_without_a_persister() -> None:
    timer = SystemTimer(ManualClock())
    m = SharePartitionManager(timer, lambda t, i: None, lambda g: ShareSettings(), lambda k: None, node_id=0)
    tid = TID.bytes
    assert m.summaries("g") == {}
    m.reset_start_offset("g", "t", tid, 0, 4)
    m.reset_start_offset("g", "t", tid, 1, -1)
    m.reset_start_offset("other", "t", tid, 0, 9)
    got = m.summaries("g")
    assert {k: (v.start_offset, v.delivery_complete_count) for k, v in got.items()} == {
        (tid, 0): (4, 0),
        (tid, 1): (-1, 0),
    }
    m.delete_state("g", "t", tid)
    assert m.summaries("g") == {} and m.summaries("other")[(tid, 0)].start_offset == 9
