"""Option names the pykafka source knows, and "did you mean" for the ones a letter or two off.

Spark's Kafka source ignores options it does not know, so a typo (`startingOffset`,
`maxOffsetPerTrigger`, `kafka.isolaton.level`) silently reads with the default. Here a name close to
a known one (difflib ratio >= 0.85) is an error naming the option meant and what it accepts; names far
from every known one keep Spark's behaviour (ignored, or passed to the client for `kafka.*`).
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping

from kafka_wire.errors import PykafkaError


class SourceOptionError(PykafkaError, ValueError):
    """An invalid source option (Spark raises IllegalArgumentException for these)."""


# What each source option accepts, by its documented name (for "did you mean" errors).
_OPTION_HELP: dict[str, tuple[str, str]] = {
    "assign": ("assign", 'a JSON object of partitions per topic, e.g. {"topicA":[0,1]}'),
    "subscribe": ("subscribe", "a comma-separated list of topics"),
    "subscribepattern": ("subscribePattern", "a Java/Python regular expression of topic names"),
    "startingoffsets": (
        "startingOffsets",
        '\'earliest\', \'latest\' (streams only) or a JSON object of offsets, e.g. {"topicA":{"0":23,"1":-2}}',
    ),
    "endingoffsets": ("endingOffsets", '\'latest\' or a JSON object of offsets, e.g. {"topicA":{"0":50,"1":-1}}'),
    "startingtimestamp": ("startingTimestamp", "a timestamp in milliseconds since the epoch"),
    "endingtimestamp": ("endingTimestamp", "a timestamp in milliseconds since the epoch"),
    "startingoffsetsbytimestamp": ("startingOffsetsByTimestamp", "a JSON object of timestamps per partition"),
    "endingoffsetsbytimestamp": ("endingOffsetsByTimestamp", "a JSON object of timestamps per partition"),
    "startingoffsetsbytimestampstrategy": ("startingOffsetsByTimestampStrategy", "'error' or 'latest'"),
    "failondataloss": ("failOnDataLoss", "'true' or 'false'"),
    "maxoffsetspertrigger": ("maxOffsetsPerTrigger", "a positive integer"),
    "minoffsetspertrigger": ("minOffsetsPerTrigger", "a positive integer"),
    "maxtriggerdelay": ("maxTriggerDelay", "a duration like '15m', '30s' or '500ms'"),
    "minpartitions": ("minPartitions", "a positive integer"),
    "maxrecordsperpartition": ("maxRecordsPerPartition", "a positive integer"),
    "maxpartitions": ("maxPartitions", "a positive integer"),
    "includeheaders": ("includeHeaders", "'true' or 'false'"),
    "kafkaconsumer.polltimeoutms": ("kafkaConsumer.pollTimeoutMs", "a positive number of milliseconds"),
    "fetchoffset.numretries": ("fetchOffset.numRetries", "a non-negative integer"),
    "fetchoffset.retryintervalms": ("fetchOffset.retryIntervalMs", "a non-negative number of milliseconds"),
    "groupidprefix": ("groupIdPrefix", "a string"),
    "groupmode": ("groupMode", "'true' or 'false'"),
    "offsetstable": ("offsetsTable", "the path (or URI) of a Delta table"),
    "groupplanlog": ("groupPlanLog", "a local file path"),
    "commitoffsetstogroup": ("commitOffsetsToGroup", "a consumer group id"),
}

# The Kafka consumer's config names (Kafka 4.3.1's ConsumerConfig.configNames(); a peer test compares):
# a `kafka.*` option close to one of them but not equal is a typo ("did you mean"); one far from all
# of them passes through as before (Spark hands it to its consumer, which only logs it as unknown).
KAFKA_CONSUMER_CONFIGS: frozenset[str] = frozenset({
    "allow.auto.create.topics",
    "auto.commit.interval.ms",
    "auto.offset.reset",
    "bootstrap.servers",
    "check.crcs",
    "client.dns.lookup",
    "client.id",
    "client.rack",
    "config.providers",
    "connections.max.idle.ms",
    "default.api.timeout.ms",
    "enable.auto.commit",
    "enable.metrics.push",
    "exclude.internal.topics",
    "fetch.max.bytes",
    "fetch.max.wait.ms",
    "fetch.min.bytes",
    "group.id",
    "group.instance.id",
    "group.protocol",
    "group.remote.assignor",
    "heartbeat.interval.ms",
    "interceptor.classes",
    "internal.throw.on.fetch.stable.offset.unsupported",
    "isolation.level",
    "key.deserializer",
    "max.partition.fetch.bytes",
    "max.poll.interval.ms",
    "max.poll.records",
    "metadata.max.age.ms",
    "metadata.recovery.rebootstrap.trigger.ms",
    "metadata.recovery.strategy",
    "metric.reporters",
    "metrics.num.samples",
    "metrics.recording.level",
    "metrics.sample.window.ms",
    "partition.assignment.strategy",
    "receive.buffer.bytes",
    "reconnect.backoff.max.ms",
    "reconnect.backoff.ms",
    "request.timeout.ms",
    "retry.backoff.max.ms",
    "retry.backoff.ms",
    "sasl.client.callback.handler.class",
    "sasl.jaas.config",
    "sasl.kerberos.kinit.cmd",
    "sasl.kerberos.min.time.before.relogin",
    "sasl.kerberos.service.name",
    "sasl.kerberos.ticket.renew.jitter",
    "sasl.kerberos.ticket.renew.window.factor",
    "sasl.login.callback.handler.class",
    "sasl.login.class",
    "sasl.login.connect.timeout.ms",
    "sasl.login.read.timeout.ms",
    "sasl.login.refresh.buffer.seconds",
    "sasl.login.refresh.min.period.seconds",
    "sasl.login.refresh.window.factor",
    "sasl.login.refresh.window.jitter",
    "sasl.login.retry.backoff.max.ms",
    "sasl.login.retry.backoff.ms",
    "sasl.mechanism",
    "sasl.oauthbearer.assertion.algorithm",
    "sasl.oauthbearer.assertion.claim.aud",
    "sasl.oauthbearer.assertion.claim.exp.seconds",
    "sasl.oauthbearer.assertion.claim.iss",
    "sasl.oauthbearer.assertion.claim.jti.include",
    "sasl.oauthbearer.assertion.claim.nbf.seconds",
    "sasl.oauthbearer.assertion.claim.sub",
    "sasl.oauthbearer.assertion.file",
    "sasl.oauthbearer.assertion.private.key.file",
    "sasl.oauthbearer.assertion.private.key.passphrase",
    "sasl.oauthbearer.assertion.template.file",
    "sasl.oauthbearer.client.credentials.client.id",
    "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.clock.skew.seconds",
    "sasl.oauthbearer.expected.audience",
    "sasl.oauthbearer.expected.issuer",
    "sasl.oauthbearer.header.urlencode",
    "sasl.oauthbearer.jwks.endpoint.refresh.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
    "sasl.oauthbearer.jwks.endpoint.url",
    "sasl.oauthbearer.jwt.retriever.class",
    "sasl.oauthbearer.jwt.validator.class",
    "sasl.oauthbearer.scope",
    "sasl.oauthbearer.scope.claim.name",
    "sasl.oauthbearer.sub.claim.name",
    "sasl.oauthbearer.token.endpoint.url",
    "security.protocol",
    "security.providers",
    "send.buffer.bytes",
    "session.timeout.ms",
    "share.acknowledgement.mode",
    "share.acquire.mode",
    "socket.connection.setup.timeout.max.ms",
    "socket.connection.setup.timeout.ms",
    "ssl.cipher.suites",
    "ssl.enabled.protocols",
    "ssl.endpoint.identification.algorithm",
    "ssl.engine.factory.class",
    "ssl.key.password",
    "ssl.keymanager.algorithm",
    "ssl.keystore.certificate.chain",
    "ssl.keystore.key",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.keystore.type",
    "ssl.protocol",
    "ssl.provider",
    "ssl.secure.random.implementation",
    "ssl.trustmanager.algorithm",
    "ssl.truststore.certificates",
    "ssl.truststore.location",
    "ssl.truststore.password",
    "ssl.truststore.type",
    "value.deserializer",
})  # fmt: skip
# Producer-only config names (ProducerConfig.configNames() less the consumer's): not typos of consumer
# configs (an options dict shared with a sink); key/value.serializer are refused with their own reason.
KAFKA_PRODUCER_ONLY_CONFIGS: frozenset[str] = frozenset({
    "acks",
    "batch.size",
    "buffer.memory",
    "compression.gzip.level",
    "compression.lz4.level",
    "compression.type",
    "compression.zstd.level",
    "delivery.timeout.ms",
    "enable.idempotence",
    "key.serializer",
    "linger.ms",
    "max.block.ms",
    "max.in.flight.requests.per.connection",
    "max.request.size",
    "metadata.max.idle.ms",
    "partitioner.adaptive.partitioning.enable",
    "partitioner.availability.timeout.ms",
    "partitioner.class",
    "partitioner.ignore.keys",
    "retries",
    "transaction.timeout.ms",
    "transaction.two.phase.commit.enable",
    "transactional.id",
    "value.serializer",
})  # fmt: skip
_KAFKA_VALUE_HELP: dict[str, str] = {
    "isolation.level": "'read_uncommitted' or 'read_committed'",
    "security.protocol": "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL",
    "sasl.mechanism": "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER",
    "check.crcs": "'true' or 'false'",
    "group.protocol": "'classic' or 'consumer'",
    "bootstrap.servers": "a comma-separated list of host:port",
}
_CLOSE = 0.85  # difflib ratio: one or two letters off in names of this length


def check_option_names(opts: Mapping[str, str], source_options: Collection[str]) -> None:
    """A misspelled option name close to a known one is an error naming both (Spark ignores unknown
    options: a typo in 'startingOffsets' silently read from the default)."""
    for key in sorted(opts):
        if key.startswith("kafka."):
            name = key[len("kafka.") :]
            if name in KAFKA_CONSUMER_CONFIGS or name in KAFKA_PRODUCER_ONLY_CONFIGS:
                continue
            close = difflib.get_close_matches(name, KAFKA_CONSUMER_CONFIGS, n=1, cutoff=_CLOSE)
            if close:
                values = _KAFKA_VALUE_HELP.get(close[0])
                accepts = f" ({values})" if values else ""
                raise SourceOptionError(
                    f"Unknown option '{key}': did you mean 'kafka.{close[0]}'{accepts}? Options named kafka.* "
                    "are Kafka consumer configs"
                )
            continue
        if key in source_options:
            continue
        close = difflib.get_close_matches(key, _OPTION_HELP, n=1, cutoff=_CLOSE)
        if close:
            name, accepts = _OPTION_HELP[close[0]]
            raise SourceOptionError(
                f"Unknown option '{key}' of the pykafka source: did you mean '{name}'? It accepts {accepts}"
            )


__all__ = ["KAFKA_CONSUMER_CONFIGS", "KAFKA_PRODUCER_ONLY_CONFIGS", "SourceOptionError", "check_option_names"]
