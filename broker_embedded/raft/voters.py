"""The voter set as the log defines it (KIP-853): a VotersRecord control entry takes effect on every replica
as soon as it is appended (not when committed), a truncation past it reverts it, and a snapshot carries
the set in force at its end offset. Pure bookkeeping; the leader's rules for changing it live in node.py."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from broker_embedded.raft.messages import LogEntry

VOTERS_RECORD = "VotersRecord"


def voters_record(voters: Iterable[int], endpoints: Mapping[int, tuple[str, int]] | None = None) -> tuple[Any, ...]:
    """("VotersRecord", ids) or, with the voters' listeners known (KIP-853's VotersRecord carries each voter's
    endpoints), ("VotersRecord", ids, ((id, host, port), ...)): every replica learns a new voter's address."""
    ids = tuple(sorted(voters))
    known = tuple((i, *endpoints[i]) for i in ids if endpoints and i in endpoints)
    return (VOTERS_RECORD, ids, known) if known else (VOTERS_RECORD, ids)


def _is_voters_record(entry: LogEntry) -> bool:
    v = entry.value
    return entry.control and isinstance(v, tuple) and len(v) in (2, 3) and v[0] == VOTERS_RECORD


def voters_of(entry: LogEntry) -> frozenset[int] | None:
    return frozenset(entry.value[1]) if _is_voters_record(entry) else None


def endpoints_of(entry: LogEntry) -> dict[int, tuple[str, int]]:
    """The voters' endpoints a VotersRecord names (none for an older record, or any other entry)."""
    if not _is_voters_record(entry) or len(entry.value) < 3:
        return {}
    return {int(i): (str(host), int(port)) for i, host, port in entry.value[2]}


class VoterSetHistory:
    """The voter set at the log start (bootstrap or snapshot) and every change recorded in the log after it."""

    def __init__(self, base: frozenset[int]) -> None:
        self.base = base
        self.changes: list[tuple[int, frozenset[int]]] = []  # (offset of the VotersRecord, the new set)

    @property
    def latest(self) -> frozenset[int]:
        return self.changes[-1][1] if self.changes else self.base

    @property
    def last_change_offset(self) -> int:
        return self.changes[-1][0] if self.changes else -1

    def voters_at(self, end_offset: int) -> frozenset[int]:
        """The set in force once every entry below end_offset is applied."""
        out = self.base
        for offset, voters in self.changes:
            if offset < end_offset:
                out = voters
        return out

    def on_append(self, entries: Iterable[LogEntry]) -> bool:
        changed = False
        for e in entries:
            voters = voters_of(e)
            if voters is not None:
                self.changes.append((e.offset, voters))
                changed = True
        return changed

    def on_truncate(self, end_offset: int) -> bool:
        before = len(self.changes)
        while self.changes and self.changes[-1][0] >= end_offset:
            self.changes.pop()
        return len(self.changes) != before

    def on_log_start(self, start_offset: int, base_at_start: frozenset[int] | None = None) -> None:
        """The log before start_offset became a snapshot (ours or one installed from the leader)."""
        self.base = base_at_start if base_at_start is not None else self.voters_at(start_offset)
        self.changes = [(o, v) for o, v in self.changes if o >= start_offset]


def wrap_snapshot(voters: frozenset[int], data: bytes) -> bytes:
    """KRaft writes the VotersRecord into the snapshot's header; here: one JSON line before the state."""
    return json.dumps({"voters": sorted(voters)}).encode() + b"\n" + data


def unwrap_snapshot(raw: bytes) -> tuple[frozenset[int], bytes]:
    header, _, data = raw.partition(b"\n")
    return frozenset(json.loads(header)["voters"]), data
