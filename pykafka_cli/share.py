"""``pykafka consume TOPIC --share-group G``: watch a queue (a KIP-932 share group) from a terminal.

A confluent-kafka ``ShareConsumer`` in explicit acknowledgement mode: each record is written to
stdout (flushed) and only then acknowledged ACCEPT, so a CLI killed before its output reached the
terminal leaves the record to the group: Kafka redelivers it, to this or another member, with its
delivery count raised (at least once). Records fetched but not written when the command stops
(``-c``, ``--idle-timeout``, Ctrl+C) are released, so other members get them at once instead of
after their acquisition lock expires. Where a new group starts reading is its
``share.auto.offset.reset`` group config (``latest`` by default, as in Kafka), not ``-o``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from pykafka_cli.kafka import CliError, kafka_message, librdkafka_config, partitions_of
from pykafka_cli.topics import parse_kv

# consume options a share group has no use for: the group assigns partitions and keeps the position
_NOT_WITH_SHARE_GROUP = (
    ("group", "-G/--group"),
    ("partition", "-p/--partition"),
    ("offset", "-o/--offset (a share group starts where its share.auto.offset.reset group config says)"),
    ("exit", "-e/--exit (a share group has no partition end; use -c or --idle-timeout)"),
)


def check_args(args: argparse.Namespace) -> None:
    for attr, flag in _NOT_WITH_SHARE_GROUP:
        if getattr(args, attr, None):
            raise CliError(f"--share-group cannot be combined with {flag}")
    if not args.share_group.strip():
        raise CliError("--share-group needs a group id")


def consume_share(args: argparse.Namespace, render: Any, record_json: Any) -> int:
    """The share-group consume loop; `render`/`record_json` write a record as plain `consume` does."""
    from confluent_kafka import AcknowledgeType, KafkaException, ShareConsumer

    check_args(args)
    partitions_of(args.bootstrap_server, [args.topic], args.timeout)  # a missing topic: one line, at once
    conf: dict[str, Any] = {
        "bootstrap.servers": args.bootstrap_server,
        "group.id": args.share_group,
        "share.acknowledgement.mode": "explicit",
    }
    conf.update(librdkafka_config())  # --command-config
    conf.update(parse_kv(args.property, "-X"))
    try:
        consumer = ShareConsumer(conf)
        consumer.subscribe([args.topic])
    except (KafkaException, ValueError) as e:
        raise CliError(f"share consumer: {kafka_message(e)}") from None
    seen = 0
    unacknowledged: list[Any] = []  # this poll's records not yet written
    try:
        idle_since = time.monotonic()
        while True:
            try:
                batch = list(consumer.poll(0.5))
            except KafkaException as e:
                raise CliError(f"consume failed: {kafka_message(e)}") from None
            records = []
            for msg in batch:
                err = msg.error()
                if err is not None:
                    _release(consumer, [m for m in batch if m.error() is None], AcknowledgeType.RELEASE)
                    raise CliError(f"consume failed: {err.name()}: {err.str()}")
                records.append(msg)
            if not records:
                if args.idle_timeout is not None and time.monotonic() - idle_since > args.idle_timeout:
                    break
                continue
            idle_since = time.monotonic()
            unacknowledged = list(records)
            while unacknowledged:
                msg = unacknowledged[0]
                sys.stdout.write(record_json(msg) + "\n" if args.json else render(args.format, msg))
                sys.stdout.flush()  # on the terminal (or in the pipe) before the broker hears ACCEPT
                consumer.acknowledge(msg, AcknowledgeType.ACCEPT)
                unacknowledged.pop(0)
                seen += 1
                if args.count is not None and seen >= args.count:
                    break
            if args.count is not None and seen >= args.count:
                break
            consumer.commit_async()  # the accepted records leave the group's queue now, not at the next poll
        return 0
    finally:
        # fetched but not written (-c reached, Ctrl+C, a broken pipe): back to the group at once
        _release(consumer, unacknowledged, AcknowledgeType.RELEASE)
        try:
            consumer.commit_sync(args.timeout)
        except Exception as e:  # noqa: BLE001  # KafkaException, IllegalStateException: say so, still leave
            print(f"pykafka consume: warning: acknowledgements not confirmed: {kafka_message(e)}", file=sys.stderr)
        try:
            consumer.close()  # leaves the share group: what this member still held goes back
        except Exception as e:  # noqa: BLE001  # the records come back when their locks expire
            print(f"pykafka consume: warning: leaving the share group failed: {kafka_message(e)}", file=sys.stderr)


def _release(consumer: Any, records: list[Any], ack_type: Any) -> None:
    for msg in records:
        try:
            consumer.acknowledge(msg, ack_type)
        except Exception:  # noqa: BLE001  # already acknowledged, or its lock was lost: nothing to give back
            pass
