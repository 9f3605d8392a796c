"""Clients the subcommands use.

Admin operations (topics, group listing/deletion/offset reset) and produce/consume use
confluent-kafka (librdkafka): a well-kept client that talks to any Kafka, with routing to
controllers, coordinators and partition leaders built in. The project's own unified admin client
(``kafka_wire/client/``) has not landed yet; ``groups describe`` and ``lag`` already use the
project's ``offsets.group_lag`` (kafka_wire's BrokerConnection) for members, assignments,
committed offsets and lag. Switch the rest to ``kafka_wire``'s client when it lands.
"""

from __future__ import annotations

from typing import Any


class CliError(Exception):
    """A failure to report on stderr with exit code 1."""


def admin(bootstrap: str, extra: dict[str, str] | None = None) -> Any:
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap, **(extra or {})})


def wait(futures: dict[Any, Any], timeout: float) -> dict[Any, Any]:
    """Results of a confluent admin call's futures, raising CliError naming the failed item."""
    out: dict[Any, Any] = {}
    errors: list[str] = []
    for key, fut in futures.items():
        try:
            out[key] = fut.result(timeout=timeout)
        except Exception as e:  # KafkaException carries the broker's error
            errors.append(f"{getattr(key, 'group_id', getattr(key, 'name', key))}: {kafka_message(e) or repr(e)}")
    if errors:
        raise CliError("; ".join(errors))
    return out


def error_name(e: BaseException) -> str | None:
    """The Kafka error name (e.g. TOPIC_ALREADY_EXISTS) a confluent-kafka exception carries."""
    arg = e.args[0] if e.args else None
    name = getattr(arg, "name", None)
    return name() if callable(name) else None


def kafka_message(e: BaseException) -> str:
    arg = e.args[0] if e.args else e
    name = getattr(arg, "name", None)
    text = getattr(arg, "str", None)
    if callable(name) and callable(text):
        return f"{name()}: {text()}"
    return str(e)


def watermarks(bootstrap: str, partitions: list[tuple[str, int]], timeout: float) -> dict[tuple[str, int], int]:
    """The latest (high watermark) offset of each partition, from the partition leaders."""
    from confluent_kafka import Consumer, TopicPartition

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "pykafka-cli-watermarks"})
    try:
        out = {}
        for t, p in partitions:
            _, high = consumer.get_watermark_offsets(TopicPartition(t, p), timeout=timeout)
            out[(t, p)] = high
        return out
    finally:
        consumer.close()


def partitions_of(bootstrap: str, topics: list[str], timeout: float) -> list[tuple[str, int]]:
    md = admin(bootstrap).list_topics(timeout=timeout)
    out = []
    for t in topics:
        tm = md.topics.get(t)
        if tm is None or tm.error is not None:
            raise CliError(f"topic {t!r} not found" + (f": {tm.error}" if tm is not None and tm.error else ""))
        out += [(t, p) for p in sorted(tm.partitions)]
    return out
