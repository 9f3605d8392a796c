"""``pykafka produce`` / ``pykafka consume`` (kafka-console-producer/-consumer and kcat -P/-C).

confluent-kafka does the producing and consuming: kafka_wire has no producer or consumer client
(its BrokerConnection sends one request at a time), and librdkafka's batching, retries,
idempotence and group protocol are what an operator expects from a console client.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pykafka_cli.kafka import CliError, librdkafka_config, partitions_of
from pykafka_cli.topics import parse_kv


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("produce", help="produce lines (stdin or files) or whole files as records")
    p.add_argument("topic")
    p.add_argument("files", nargs="*", help="read lines from these files (default: stdin)")
    p.add_argument("-k", "--key", default=None, help="one key for every record")
    p.add_argument("-K", "--key-delimiter", default=None, help="split each line into KEY<delim>VALUE (kcat -K)")
    p.add_argument("-H", "--header", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("-p", "--partition", type=int, default=None)
    p.add_argument("--file-as-record", action="store_true", help="each file is one record (kcat -P with files)")
    p.add_argument("-X", "--property", action="append", default=[], metavar="KEY=VALUE", help="librdkafka config")
    p.set_defaults(run=produce)

    c = sub.add_parser("consume", help="consume records (kcat -C like)")
    c.add_argument("topic")
    c.add_argument("-p", "--partition", type=int, action="append", default=None, help="repeatable; default all")
    c.add_argument(
        "-o",
        "--offset",
        default=None,
        help="beginning (default) | end | N (absolute) | -N (N from the end) | s@MILLIS (first offset at/after "
        "the timestamp)",
    )
    c.add_argument("-G", "--group", default=None, help="consume as a member of this group (subscribe, commit)")
    c.add_argument(
        "--share-group",
        default=None,
        metavar="GROUP",
        help="consume as a member of this share group (KIP-932, a queue): each record is acknowledged once "
        "written; --json adds its delivery_count",
    )
    c.add_argument("-e", "--exit", action="store_true", help="exit at the end of every partition")
    c.add_argument("-c", "--count", type=int, default=None, help="exit after this many records")
    c.add_argument("-f", "--format", default=None, help=r"kcat format: %%t %%p %%o %%k %%s %%T %%h %%S %%K \n \t")
    c.add_argument("--idle-timeout", type=float, default=None, help="exit after this many seconds without records")
    c.add_argument("-X", "--property", action="append", default=[], metavar="KEY=VALUE", help="librdkafka config")
    c.set_defaults(run=consume)


def _records(args: argparse.Namespace) -> Any:
    if args.file_as_record:
        if not args.files:
            raise CliError("--file-as-record needs files")
        for f in args.files:
            yield None, Path(f).read_bytes()
        return
    streams = [open(f, "rb") for f in args.files] if args.files else [sys.stdin.buffer]  # noqa: SIM115
    try:
        for stream in streams:
            for raw in stream:
                line = raw.rstrip(b"\r\n")
                if args.key_delimiter is not None:
                    key, sep, value = line.partition(args.key_delimiter.encode())
                    if not sep:
                        raise CliError(f"line has no key delimiter {args.key_delimiter!r}: {line[:80]!r}")
                    yield key, value
                else:
                    yield None, line
    finally:
        for s in streams:
            if s is not sys.stdin.buffer:
                s.close()


def produce(args: argparse.Namespace) -> int:
    from confluent_kafka import Producer

    conf = {"bootstrap.servers": args.bootstrap_server, "enable.idempotence": True, "linger.ms": 5}
    conf.update(librdkafka_config())  # --command-config
    conf.update(parse_kv(args.property, "-X"))
    headers = [(k, v.encode()) for k, v in parse_kv(args.header, "--header").items()]
    producer = Producer(conf)
    errors: list[str] = []
    delivered = 0

    def on_delivery(err: Any, msg: Any) -> None:
        nonlocal delivered
        if err is not None:
            errors.append(f"{err.name()}: {err.str()}")
        else:
            delivered += 1

    if args.partition is not None:
        count = len(partitions_of(args.bootstrap_server, [args.topic], args.timeout))
        if not 0 <= args.partition < count:
            raise CliError(f"partition {args.partition} does not exist: {args.topic} has {count} partition(s)")
    sent = 0
    for key, value in _records(args):
        kw: dict[str, Any] = {"key": key if key is not None else args.key, "value": value, "on_delivery": on_delivery}
        if headers:
            kw["headers"] = headers
        if args.partition is not None:
            kw["partition"] = args.partition
        while True:
            try:
                producer.produce(args.topic, **kw)
                break
            except BufferError:
                producer.poll(0.1)
        sent += 1
        producer.poll(0)
    remaining = producer.flush(args.timeout)
    if errors or remaining:
        raise CliError(f"{len(errors) + remaining} of {sent} record(s) not delivered: {'; '.join(errors[:3])}")
    print(f"produced {delivered} record(s) to {args.topic}", file=sys.stderr)
    return 0


def _start_offset(spec: str, consumer: Any, tps: list[Any], timeout: float) -> list[Any]:
    from confluent_kafka import OFFSET_BEGINNING, OFFSET_END, TopicPartition

    if spec == "beginning":
        return [TopicPartition(tp.topic, tp.partition, OFFSET_BEGINNING) for tp in tps]
    if spec == "end":
        return [TopicPartition(tp.topic, tp.partition, OFFSET_END) for tp in tps]
    if spec.startswith("s@"):
        try:
            millis = int(spec[2:])
        except ValueError as e:
            raise CliError(f"--offset s@MILLIS needs an integer timestamp, got {spec!r}") from e
        found = consumer.offsets_for_times([TopicPartition(tp.topic, tp.partition, millis) for tp in tps], timeout)
        return [TopicPartition(f.topic, f.partition, f.offset if f.offset >= 0 else OFFSET_END) for f in found]
    try:
        n = int(spec)
    except ValueError as e:
        raise CliError(f"--offset must be beginning, end, N, -N or s@MILLIS, got {spec!r}") from e
    if n >= 0:
        return [TopicPartition(tp.topic, tp.partition, n) for tp in tps]
    out = []
    for tp in tps:
        low, high = consumer.get_watermark_offsets(tp, timeout=timeout)
        out.append(TopicPartition(tp.topic, tp.partition, max(low, high + n)))
    return out


def _text(b: bytes | None) -> str:
    return "" if b is None else b.decode("utf-8", "backslashreplace")


def render(fmt: str | None, msg: Any) -> str:
    if fmt is None:
        return _text(msg.value()) + "\n"
    headers = msg.headers() or []
    parts = {
        "t": msg.topic(),
        "p": str(msg.partition()),
        "o": str(msg.offset()),
        "k": _text(msg.key()),
        "s": _text(msg.value()),
        "T": str(msg.timestamp()[1]),
        "h": ",".join(f"{k}={_text(v)}" for k, v in headers),
        "K": str(-1 if msg.key() is None else len(msg.key())),
        "S": str(-1 if msg.value() is None else len(msg.value())),
        "%": "%",
    }
    out = []
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch == "%" and i + 1 < len(fmt) and fmt[i + 1] in parts:
            out.append(parts[fmt[i + 1]])
            i += 2
        elif ch == "\\" and i + 1 < len(fmt) and fmt[i + 1] in "nt":
            out.append("\n" if fmt[i + 1] == "n" else "\t")
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _record_json(msg: Any, **extra: Any) -> str:
    return json.dumps(
        {
            "topic": msg.topic(),
            "partition": msg.partition(),
            "offset": msg.offset(),
            "timestamp": msg.timestamp()[1],
            "key": None if msg.key() is None else _text(msg.key()),
            "value": None if msg.value() is None else _text(msg.value()),
            "headers": {k: _text(v) for k, v in (msg.headers() or [])},
            **extra,
        }
    )


def consume(args: argparse.Namespace) -> int:
    from confluent_kafka import Consumer, KafkaError, TopicPartition

    if args.share_group is not None:
        from pykafka_cli.share import consume_share

        return consume_share(args, render, lambda msg: _record_json(msg, delivery_count=msg.delivery_count()))
    args.offset = args.offset or "beginning"
    conf = {
        "bootstrap.servers": args.bootstrap_server,
        "group.id": args.group or "pykafka-cli",
        "enable.auto.commit": bool(args.group),
        "enable.partition.eof": True,
        "auto.offset.reset": "latest" if args.offset == "end" else "earliest",
    }
    conf.update(librdkafka_config())  # --command-config
    conf.update(parse_kv(args.property, "-X"))
    parts = partitions_of(args.bootstrap_server, [args.topic], args.timeout)
    if args.partition:
        unknown = [p for p in args.partition if (args.topic, p) not in parts]
        if unknown:
            raise CliError(f"partition(s) {unknown} do not exist in {args.topic} ({len(parts)} partition(s))")
        parts = [(t, p) for t, p in parts if p in args.partition]
    consumer = Consumer(conf)
    try:
        if args.group:
            consumer.subscribe([args.topic])
            pending: set[tuple[str, int]] | None = None  # known once assigned
        else:
            tps = [TopicPartition(t, p) for t, p in parts]
            consumer.assign(_start_offset(args.offset, consumer, tps, args.timeout))
            pending = set(parts)
        seen = 0
        idle_since = time.monotonic()
        while True:
            msg = consumer.poll(0.2)
            if msg is None:
                if args.idle_timeout is not None and time.monotonic() - idle_since > args.idle_timeout:
                    break
                continue
            if pending is None and args.group:
                pending = {(tp.topic, tp.partition) for tp in consumer.assignment()}
            err = msg.error()
            if err is not None:
                if err.code() == KafkaError._PARTITION_EOF:
                    if args.exit and pending is not None:
                        pending.discard((msg.topic(), msg.partition()))
                        if not pending:
                            break
                    continue
                raise CliError(f"consume failed: {err.name()}: {err.str()}")
            idle_since = time.monotonic()
            sys.stdout.write(_record_json(msg) + "\n" if args.json else render(args.format, msg))
            seen += 1
            if args.count is not None and seen >= args.count:
                break
        sys.stdout.flush()
        if args.group:
            try:
                consumer.commit(asynchronous=False)
            except Exception:  # nothing consumed: nothing to commit
                pass
        return 0
    finally:
        consumer.close()
