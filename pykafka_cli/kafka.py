"""Clients the subcommands use.

The project's client stack (``kafka_wire.client.KafkaClient``) does metadata, ListOffsets
(earliest/latest/by time), and OffsetCommit without membership (``groups reset-offsets``);
``groups describe`` is ``connector.group_lag`` (same stack: DescribeGroups, OffsetFetch, lag).
What that stack does not have yet -- the admin APIs (CreateTopics, DeleteTopics, DescribeConfigs,
IncrementalAlterConfigs, ListGroups, DeleteGroups) and a producer/consumer -- comes from
confluent-kafka (librdkafka), a well-kept client that talks to any Kafka.
"""

from __future__ import annotations

from typing import Any

from kafka_wire.errors import PykafkaError


class CliError(PykafkaError):
    """A failure to report on stderr with exit code 1."""


# `--command-config FILE` (the Kafka tools' flag): Kafka client properties (security.protocol,
# sasl.*, ssl.*) every client of the command uses; set once by `main`
CLIENT_PROPERTIES: dict[str, str] = {}


def load_command_config(path: str) -> None:
    """Read a Java properties file of client settings; validate the security ones (errors name
    the setting, never a secret)."""
    from kafka_wire.client.librdkafka import LibrdkafkaOptionError, to_librdkafka
    from kafka_wire.client.security import SecurityConfig, SecurityConfigError

    try:
        text = open(path, encoding="utf-8").read()  # noqa: SIM115, PTH123 - read at once
    except OSError as e:
        raise CliError(f"--command-config {path}: {e.strerror or e}") from None
    props: dict[str, str] = {}
    logical = ""
    for raw in text.splitlines():
        line = raw.strip() if not logical else raw.lstrip()
        if not logical and (not line or line[0] in "#!"):
            continue
        if line.endswith("\\") and not line.endswith("\\\\"):
            logical += line[:-1]
            continue
        line, logical = logical + line, ""
        key, _, value = line.partition("=") if "=" in line else line.partition(":")
        props[key.strip().lower()] = value.strip()
    try:
        SecurityConfig.from_params(props, prefix="")
        to_librdkafka(props, prefix="")
    except (SecurityConfigError, LibrdkafkaOptionError) as e:
        raise CliError(f"--command-config {path}: {e}") from None
    CLIENT_PROPERTIES.clear()
    CLIENT_PROPERTIES.update(props)


# `-v`: librdkafka's own log lines on stderr (off otherwise: a wrong password printed ~150 of them
# before the command's one-line error)
VERBOSE = False


def librdkafka_config() -> dict[str, Any]:
    """`CLIENT_PROPERTIES` for confluent-kafka clients (the one Java -> librdkafka translation),
    and librdkafka's log level (syslog levels: 6 is its default, 0 only emergencies)."""
    conf: dict[str, Any] = {"log_level": 6 if VERBOSE else 0}
    if not CLIENT_PROPERTIES:
        return conf
    from kafka_wire.client.librdkafka import to_librdkafka

    translated = to_librdkafka(CLIENT_PROPERTIES, prefix="")[0]
    translated.pop("bootstrap.servers", None)  # -b wins; main() falls back to the file's
    return {**conf, **translated}


def check_connection(bootstrap: str, timeout: float) -> None:
    """One metadata request (no topics) before the command: a failed authentication is not retried
    and comes back at once as one line with Kafka's error name (SASL_AUTHENTICATION_FAILED), and an
    unreachable bootstrap fails after `timeout`, where librdkafka retries both until its own timeout
    and then reports a generic transport failure."""
    from kafka_wire.client import KafkaClientError
    from kafka_wire.client.kafka_client import ClientAuthenticationError
    from kafka_wire.client.security import SecurityConfigError

    try:
        client = kafka_client(bootstrap, timeout)
    except (SecurityConfigError, ValueError) as e:
        raise CliError(str(e)) from None
    try:
        client.metadata([])
    except KafkaClientError as e:
        name = getattr(getattr(e, "code", None), "name", None) or "error"
        if isinstance(e, ClientAuthenticationError):
            text = str(e)
        else:  # retried until the deadline: the last attempt's failure says why
            text = f"cannot reach {bootstrap} within {timeout:g} s (--timeout): {e.__cause__ or e}"
        raise CliError(text if name in text else f"{name}: {text}") from None
    finally:
        client.close()


def admin(bootstrap: str, extra: dict[str, str] | None = None) -> Any:
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap, **librdkafka_config(), **(extra or {})})


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


def kafka_client(bootstrap: str, timeout: float) -> Any:
    from kafka_wire.client import ClientConfig, KafkaClient
    from kafka_wire.client.security import SecurityConfig

    ms = max(1, int(timeout * 1000))
    config = ClientConfig(
        bootstrap_servers=bootstrap,
        client_id="pykafka-cli",
        default_api_timeout_ms=ms,
        request_timeout_ms=ms,
        security=SecurityConfig.from_params(CLIENT_PROPERTIES, prefix=""),
    )
    return KafkaClient(config)


def list_offsets(bootstrap: str, requests: dict[tuple[str, int], int], timeout: float) -> dict[tuple[str, int], int]:
    """ListOffsets: -2 earliest, -1 latest, else a timestamp (ms; -1 back when no record is that new)."""
    from kafka_wire.client import KafkaClientError
    from kafka_wire.types import TopicPartition

    client = kafka_client(bootstrap, timeout)
    try:
        got = client.list_offsets({TopicPartition(t, p): ts for (t, p), ts in requests.items()}, retries=1)
    except KafkaClientError as e:
        raise CliError(str(e)) from e
    finally:
        client.close()
    return {(tp[0], tp[1]): offset for tp, (offset, _ts) in got.items()}


def watermarks(bootstrap: str, partitions: list[tuple[str, int]], timeout: float) -> dict[tuple[str, int], int]:
    """The latest offset (high watermark) of each partition, from the partition leaders."""
    return list_offsets(bootstrap, {tp: -1 for tp in partitions}, timeout)


def commit_offsets(bootstrap: str, group: str, offsets: dict[tuple[str, int], int], timeout: float) -> None:
    """OffsetCommit without membership (the group must have no live members, as Kafka's tool needs)."""
    from kafka_wire.client import KafkaClientError
    from kafka_wire.types import TopicPartition

    client = kafka_client(bootstrap, timeout)
    try:
        client.commit_offsets(group, {TopicPartition(t, p): o for (t, p), o in offsets.items()})
    except KafkaClientError as e:
        raise CliError(str(e)) from e
    finally:
        client.close()


def partitions_of(bootstrap: str, topics: list[str], timeout: float) -> list[tuple[str, int]]:
    from kafka_wire.client import KafkaClientError

    client = kafka_client(bootstrap, timeout)
    try:
        md = client.metadata(topics)
    except KafkaClientError as e:
        raise CliError(str(e)) from e
    finally:
        client.close()
    out = []
    for t in topics:
        info = md.topics.get(t)
        if info is None or not info.partitions:
            raise CliError(f"topic {t!r} not found")
        out += [(t, p) for p in sorted(info.partitions)]
    return out
