"""The `pykafka-delta` sink's optional offset mirror: a batch's committed next offsets copied to the
broker's offsets of a consumer group, for Kafka tooling (`kafka-consumer-groups --describe`).

Over the client stack (`kafka_wire.client.KafkaClient.commit_offsets`, generation -1 and member id
"", as Kafka's admin `alterConsumerGroupOffsets`): a moved coordinator, a dead broker or a
timed-out request are retried within `kafka.default.api.timeout.ms` like every other network path
of the connector. The Delta table is the truth; the mirror never fails a commit: a group with live
members refuses the commit (it commits its own offsets), and a cluster that stays unreachable for
the whole timeout only costs a log line.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from kafka_wire.client.config import ClientConfig

log = logging.getLogger("connector.offset_mirror")

MIRROR_CLIENT_ID = "pykafka-delta-offset-mirror"


def mirror_offsets(
    owner: str, kafka_params: Iterable[tuple[str, str]], next_offsets: Mapping[tuple[str, int], int]
) -> bool:
    """Commit `next_offsets` to group `owner`; `kafka_params` are the sink's `kafka.*` options
    without the prefix (Kafka config names). Returns whether the broker took them."""
    if not next_offsets:
        return True
    from kafka_wire.client.cluster import KafkaClient

    try:
        config = ClientConfig.from_kafka_params(dict(kafka_params), MIRROR_CLIENT_ID)
        client = KafkaClient(config)
    except (ValueError, KeyError) as exc:
        log.info("pykafka-delta: offset mirror to group %s skipped: %s", owner, exc)
        return False
    try:
        client.commit_offsets(owner, dict(next_offsets))
        return True
    except Exception as exc:  # noqa: BLE001 - a mirror, never the source of truth
        log.info("pykafka-delta: offset mirror to group %s refused or skipped: %s", owner, exc)
        return False
    finally:
        client.close()


__all__ = ["mirror_offsets"]
