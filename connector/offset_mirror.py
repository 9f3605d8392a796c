"""Offsets copied to a consumer group on the broker for Kafka tooling, without group membership.

Two users: the `pykafka-delta` sink's optional mirror (a batch's committed next offsets, `mirror_offsets`)
and the source's `commitOffsetsToGroup` option (each finished micro-batch's end offsets,
`GroupOffsetCommitter`). Both send an OffsetCommit with generation -1 and member id "", as Kafka's
`commitSync` under manual assignment and the admin `alterConsumerGroupOffsets` do, over the client
stack (`kafka_wire.client.KafkaClient.commit_offsets`: a moved coordinator, a dead broker or a
timed-out request are retried within the client's `default.api.timeout.ms`).

Such a commit is only taken while the group has no live members: a group whose consumers commit
their own offsets refuses it (UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION), which `GroupHasMembersError`
names. The offsets are never read back: the query's checkpoint (or the Delta table) is the truth.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from kafka_wire.client.config import ClientConfig
from kafka_wire.errors import ErrorCode, PykafkaError
from kafka_wire.types import TopicPartition

log = logging.getLogger("connector.offset_mirror")

MIRROR_CLIENT_ID = "pykafka-delta-offset-mirror"
# next offsets per partition, keyed by TopicPartition or a plain (topic, partition) tuple (they compare equal)
NextOffsets = Mapping[TopicPartition, int] | Mapping[tuple[str, int], int]

# what a coordinator answers a memberless commit to a group that has members (Kafka returns
# UNKNOWN_MEMBER_ID for generation -1 on a non-empty group; a rebalance or a static member can show
# up as the others)
MEMBER_ERRORS = frozenset(
    {
        ErrorCode.UNKNOWN_MEMBER_ID,
        ErrorCode.ILLEGAL_GENERATION,
        ErrorCode.REBALANCE_IN_PROGRESS,
        ErrorCode.FENCED_INSTANCE_ID,
    }
)


class GroupHasMembersError(PykafkaError, RuntimeError):
    """The coordinator refused a memberless commit because the group has live members."""

    def __init__(self, group_id: str, code: ErrorCode, detail: str) -> None:
        super().__init__(
            f"consumer group {group_id!r} refused the offset commit ({code.name}): it has live members, which "
            f"commit their own offsets. 'commitOffsetsToGroup' needs a group no consumer is a member of: pick a "
            f"group id of its own for this query (e.g. '<team group>-lag-<query name>'). ({detail})"
        )
        self.group_id = group_id
        self.code = code


def commit_metadata(**fields: Any) -> str:
    """The OffsetCommit metadata string: compact JSON, so tooling shows who committed what."""
    return json.dumps({"committer": "pykafka", **{k: v for k, v in fields.items() if v is not None}},
                      separators=(",", ":"), sort_keys=True)  # fmt: skip


class GroupOffsetCommitter:
    """Memberless OffsetCommits to one group, with one long-lived client (the driver-side stream
    reader keeps one per query). `timeout_ms` bounds each commit's retries: it runs on Spark's
    planning path and must not hold a micro-batch for `default.api.timeout.ms` (60 s by default)."""

    def __init__(self, group_id: str, config: ClientConfig, timeout_ms: int | None = None) -> None:
        self.group_id = group_id
        if timeout_ms is not None:
            config = dataclasses.replace(
                config,
                default_api_timeout_ms=min(config.default_api_timeout_ms, timeout_ms),
                request_timeout_ms=min(config.request_timeout_ms, timeout_ms),
            )
        self.config = config
        self._client: Any = None

    def commit(self, offsets: NextOffsets, metadata: str = "") -> None:
        """Commit `offsets` (partition -> next offset); raises `GroupHasMembersError` when live
        members refuse it, `kafka_wire.client.kafka_client.KafkaClientError` for other failures."""
        if not offsets:
            return
        from kafka_wire.client.kafka_client import KafkaClient, KafkaClientError

        if self._client is None or self._client.closed:
            self._client = KafkaClient(self.config)
        try:
            self._client.commit_offsets(self.group_id, dict(offsets), metadata=metadata)
        except KafkaClientError as e:
            code = getattr(e, "code", None)
            if code in MEMBER_ERRORS:
                raise GroupHasMembersError(self.group_id, code, str(e)) from e
            raise

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


class FinishedBatchCommits:
    """`commitOffsetsToGroup`: the end offsets of each finished micro-batch of a stream, committed to
    `group_id` from the driver-side stream reader.

    `finished(offsets)` is called from `latestOffset(start)`: Spark plans batch N+1 only after batch N
    is committed to the sink, so `start` is a finished batch's end (or the query's initial offsets)
    and never runs ahead of the data; the same offsets are not committed twice. Spark does not tell
    a Python data source its query id or batch id: with the query's `checkpointLocation` (local or
    file://) the metadata names both (`<checkpoint>/metadata`, the newest entry of `<checkpoint>/commits`),
    else the reader's run id only.

    A refusal because the group has live members is logged once as an error naming the group (the
    query goes on: its checkpoint is the truth, and the next accepted commit is logged too); other
    failures (cluster unreachable within the timeout) are warnings, retried at the next batch.
    """

    def __init__(
        self, group_id: str, config: ClientConfig, checkpoint: str | None = None, timeout_ms: int = 5000
    ) -> None:
        import uuid

        self.group_id = group_id
        self.checkpoint = checkpoint
        self.run_id = str(uuid.uuid4())
        self._committer = GroupOffsetCommitter(group_id, config, timeout_ms)
        self._last: dict[tuple[str, int], int] | None = None
        self.refused: GroupHasMembersError | None = None  # set while the group refuses our commits
        self.commits = 0

    def _query_and_batch(self) -> tuple[str | None, int | None]:
        if not self.checkpoint:
            return None, None
        from offsets.delta_store import _local_path, query_id_from_checkpoint

        query = query_id_from_checkpoint(self.checkpoint)
        path = _local_path(self.checkpoint)
        batch = None
        if path is not None:
            import os

            try:
                done = [int(n) for n in os.listdir(os.path.join(path, "commits")) if n.isdigit()]
            except OSError:
                done = []
            batch = max(done) if done else None
        return query, batch

    def finished(self, offsets: NextOffsets) -> bool:
        """Commit a finished batch's end offsets; returns whether the broker has them now."""
        current: dict[tuple[str, int], int] = dict(offsets.items())
        if not current or current == self._last:
            return current == self._last
        query, batch = self._query_and_batch()
        metadata = commit_metadata(query=query, batch=batch, run=None if query else self.run_id)
        try:
            self._committer.commit(current, metadata)
        except GroupHasMembersError as e:
            if self.refused is None:
                log.error("commitOffsetsToGroup: %s", e)
            self.refused = e
            return False
        except Exception as e:  # noqa: BLE001 - monitoring output: the checkpoint stays the truth
            log.warning("commitOffsetsToGroup: commit to group %r failed (retried at the next batch): %s",
                        self.group_id, e)  # fmt: skip
            return False
        if self.refused is not None:
            log.warning("commitOffsetsToGroup: group %r takes the query's commits again", self.group_id)
            self.refused = None
        self._last = current
        self.commits += 1
        log.info("commitOffsetsToGroup: committed %s to group %r (%s)", current, self.group_id, metadata)
        return True

    def close(self) -> None:
        self._committer.close()


def mirror_offsets(owner: str, kafka_params: Iterable[tuple[str, str]], next_offsets: NextOffsets) -> bool:
    """Commit `next_offsets` to group `owner`; `kafka_params` are the sink's `kafka.*` options
    without the prefix (Kafka config names). Returns whether the broker took them. A mirror never
    fails the sink's commit: refusals and an unreachable cluster only cost a log line."""
    if not next_offsets:
        return True
    try:
        config = ClientConfig.from_kafka_params(dict(kafka_params), MIRROR_CLIENT_ID)
    except (ValueError, KeyError) as exc:
        log.info("pykafka-delta: offset mirror to group %s skipped: %s", owner, exc)
        return False
    committer = GroupOffsetCommitter(owner, config)
    try:
        committer.commit(next_offsets)
        return True
    except Exception as exc:  # noqa: BLE001 - a mirror, never the source of truth
        log.info("pykafka-delta: offset mirror to group %s refused or skipped: %s", owner, exc)
        return False
    finally:
        committer.close()


__all__ = [
    "FinishedBatchCommits",
    "GroupHasMembersError",
    "GroupOffsetCommitter",
    "MEMBER_ERRORS",
    "commit_metadata",
    "mirror_offsets",
]
