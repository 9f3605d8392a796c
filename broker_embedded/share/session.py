"""Share sessions (KIP-932): one per (group, member), tied to the connection that opened it. Sans-IO.

The rules of Kafka's ShareSessionCache / SharePartitionManager.newContext:

* ShareFetch epoch 0 opens a session (replacing one the member had); it may carry no
  acknowledgements (INVALID_REQUEST); past ``group.share.max.share.sessions`` sessions,
  SHARE_SESSION_LIMIT_REACHED. The new session's epoch is 1.
* Epoch -1 closes: the session must exist (SHARE_SESSION_NOT_FOUND); the caller processes the
  acknowledgements and then ``release_session`` (the member's acquired records go back).
* Any other epoch must equal the session's (INVALID_SHARE_SESSION_EPOCH); the fetch adds
  partitions, ``forgotten`` removes them, and the epoch moves on (wrapping to 1 after 2^31-1).
* ShareAcknowledge never opens a session (epoch 0 -> INVALID_SHARE_SESSION_EPOCH).
* A closed connection ends the member's session as if the member had left (``on_disconnect``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum

from .partition import ShareErrorCode, SharePartitionError

INITIAL_EPOCH = 0
FINAL_EPOCH = -1
DEFAULT_MAX_SHARE_SESSIONS = 2_000  # group.share.max.share.sessions

TopicIdPartition = tuple[str, int]  # (topic id, partition index)


def next_epoch(epoch: int) -> int:
    if epoch < 0:
        return FINAL_EPOCH
    return 1 if epoch == 2**31 - 1 else epoch + 1


def _not_found() -> SharePartitionError:
    return SharePartitionError(ShareErrorCode.SHARE_SESSION_NOT_FOUND, "The share session was not found.")


@dataclass(slots=True)
class ShareSession:
    group_id: str
    member_id: str
    epoch: int
    connection_id: str
    partitions: dict[TopicIdPartition, None] = field(default_factory=dict)  # insertion-ordered set


class ContextKind(Enum):
    FULL = "full"  # a new session: answer for every requested partition
    SESSION = "session"  # an existing session: incremental
    FINAL = "final"  # closing: acknowledge, then release


@dataclass(frozen=True, slots=True)
class ShareFetchContext:
    kind: ContextKind
    epoch: int  # the request's epoch
    partitions: tuple[TopicIdPartition, ...]  # what to fetch from (empty for FINAL)


class ShareSessionCache:
    def __init__(self, max_entries: int = DEFAULT_MAX_SHARE_SESSIONS) -> None:
        if max_entries < 1:
            raise ValueError("group.share.max.share.sessions must be >= 1")
        self.max_entries = max_entries
        self._sessions: dict[tuple[str, str], ShareSession] = {}
        # connection id -> session key it opened last (a replaced session leaves a stale entry)
        self._connections: dict[str, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def get(self, group_id: str, member_id: str) -> ShareSession | None:
        with self._lock:
            return self._sessions.get((group_id, member_id))

    def __len__(self) -> int:
        return len(self._sessions)

    def new_context(
        self,
        group_id: str,
        member_id: str,
        epoch: int,
        fetch: list[TopicIdPartition],
        forgotten: list[TopicIdPartition],
        has_acknowledgements: bool,
        connection_id: str,
    ) -> ShareFetchContext:
        """The session step of a ShareFetch request; raises SharePartitionError with Kafka's code."""
        key = (group_id, member_id)
        with self._lock:
            if epoch == FINAL_EPOCH:
                if key not in self._sessions:
                    raise SharePartitionError(
                        ShareErrorCode.SHARE_SESSION_NOT_FOUND, "The share session was not found."
                    )
                return ShareFetchContext(ContextKind.FINAL, epoch, ())
            if epoch == INITIAL_EPOCH:
                if has_acknowledgements:
                    raise SharePartitionError(
                        ShareErrorCode.INVALID_REQUEST, "Acknowledge data present in the initial share fetch"
                    )
                self._sessions.pop(key, None)
                if len(self._sessions) >= self.max_entries:
                    raise SharePartitionError(
                        ShareErrorCode.SHARE_SESSION_LIMIT_REACHED,
                        "The limit of share sessions has been reached.",
                    )
                opened = ShareSession(group_id, member_id, next_epoch(INITIAL_EPOCH), connection_id)
                opened.partitions.update(dict.fromkeys(fetch))
                self._sessions[key] = opened
                self._connections[connection_id] = key
                return ShareFetchContext(ContextKind.FULL, epoch, tuple(fetch))
            session = self._sessions.get(key)
            if session is None:
                raise _not_found()
            if session.epoch != epoch:
                raise SharePartitionError(
                    ShareErrorCode.INVALID_SHARE_SESSION_EPOCH,
                    f"The share session epoch is invalid: expected {session.epoch}, got {epoch}.",
                )
            session.partitions.update(dict.fromkeys(fetch))
            for tp in forgotten:
                session.partitions.pop(tp, None)
            session.epoch = next_epoch(session.epoch)
            return ShareFetchContext(ContextKind.SESSION, epoch, tuple(session.partitions))

    def acknowledge_session_update(self, group_id: str, member_id: str, epoch: int) -> bool:
        """The session step of a ShareAcknowledge; True when it is the final one (release after)."""
        if epoch == INITIAL_EPOCH:
            raise SharePartitionError(
                ShareErrorCode.INVALID_SHARE_SESSION_EPOCH, "A share session cannot be opened by ShareAcknowledge."
            )
        with self._lock:
            session = self._sessions.get((group_id, member_id))
            if session is None:
                raise _not_found()
            if epoch == FINAL_EPOCH:
                return True
            if session.epoch != epoch:
                raise SharePartitionError(
                    ShareErrorCode.INVALID_SHARE_SESSION_EPOCH,
                    f"The share session epoch is invalid: expected {session.epoch}, got {epoch}.",
                )
            session.epoch = next_epoch(session.epoch)
            return False

    def release_session(self, group_id: str, member_id: str) -> list[TopicIdPartition]:
        """Remove the session; the partitions whose SharePartition must release the member's records."""
        with self._lock:
            session = self._sessions.pop((group_id, member_id), None)
            if session is None:
                raise _not_found()
            return list(session.partitions)

    def has_group(self, group_id: str) -> bool:
        """Whether any member of the group has a share session here."""
        with self._lock:
            return any(g == group_id for g, _ in self._sessions)

    def on_disconnect(self, connection_id: str) -> ShareSession | None:
        """The connection closed: its (still current) session ends; the caller releases its records."""
        with self._lock:
            key = self._connections.pop(connection_id, None)
            if key is None:
                return None
            session = self._sessions.get(key)
            # A session since re-opened on another connection is not this connection's to end.
            if session is None or session.connection_id != connection_id:
                return None
            del self._sessions[key]
            return session
