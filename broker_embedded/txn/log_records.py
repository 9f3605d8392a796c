"""Records of the internal ``__transaction_state`` topic, in Kafka's schemas.

Key: TransactionLogKey v0 (int16 version, string transactional id). Value: TransactionLogValue v0
(producer id, epoch, timeout, status, partitions by topic, last update and start timestamps); a
null value is a tombstone (the id expired). Kafka's layout keeps the topic readable by Kafka's
tooling and lets compaction keep one record per id.
"""

from __future__ import annotations

import struct

from broker_embedded.txn.state import TransactionMetadata, TransactionState

TRANSACTION_STATE_TOPIC = "__transaction_state"

_h = struct.Struct(">h")
_i = struct.Struct(">i")
_VALUE_HEAD = struct.Struct(">hqhib")  # version, producer id, epoch, timeout, status
_TS = struct.Struct(">qq")


def _string(v: str) -> bytes:
    data = v.encode()
    return _h.pack(len(data)) + data


def encode_key(transactional_id: str) -> bytes:
    return _h.pack(0) + _string(transactional_id)


def decode_key(buf: bytes) -> str | None:
    """The transactional id, or None for a key version this broker does not know."""
    (version,) = _h.unpack_from(buf, 0)
    if version != 0:
        return None
    (n,) = _h.unpack_from(buf, 2)
    return bytes(buf[4 : 4 + n]).decode()


def encode_value(m: TransactionMetadata) -> bytes:
    parts = [_VALUE_HEAD.pack(0, m.producer_id, m.producer_epoch, m.txn_timeout_ms, m.state.value)]
    by_topic: dict[str, list[int]] = {}
    for topic, partition in sorted(m.partitions):
        by_topic.setdefault(topic, []).append(partition)
    parts.append(_i.pack(len(by_topic)))
    for topic, indexes in by_topic.items():
        parts.append(_string(topic))
        parts.append(_i.pack(len(indexes)))
        parts.extend(_i.pack(p) for p in indexes)
    parts.append(_TS.pack(m.txn_last_update_timestamp, m.txn_start_timestamp))
    return b"".join(parts)


def decode_value(transactional_id: str, buf: bytes) -> TransactionMetadata | None:
    """The metadata a value describes, or None for a value version this broker does not know."""
    version, pid, epoch, timeout, status = _VALUE_HEAD.unpack_from(buf, 0)
    if version != 0:
        return None
    pos = _VALUE_HEAD.size
    (ntopics,) = _i.unpack_from(buf, pos)
    pos += 4
    partitions: set[tuple[str, int]] = set()
    for _ in range(max(ntopics, 0)):
        (n,) = _h.unpack_from(buf, pos)
        topic = bytes(buf[pos + 2 : pos + 2 + n]).decode()
        pos += 2 + n
        (count,) = _i.unpack_from(buf, pos)
        pos += 4
        for _ in range(count):
            (p,) = _i.unpack_from(buf, pos)
            pos += 4
            partitions.add((topic, p))
    last_update, start = _TS.unpack_from(buf, pos)
    return TransactionMetadata(
        transactional_id,
        pid,
        epoch,
        timeout,
        TransactionState(status),
        partitions,
        txn_start_timestamp=start,
        txn_last_update_timestamp=last_update,
    )
