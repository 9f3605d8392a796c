"""The `pykafka` sinks: `writer` (at-least-once, idempotent producer) and `transactional` (exactly once
with Kafka transactions, `exactlyOnce=true`). Modules are imported by their full path."""
