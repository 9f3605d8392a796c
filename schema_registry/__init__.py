"""A Confluent-compatible schema registry (Avro) keeping its state in a compacted Kafka topic.

A Kafka client application with an HTTP API, not part of the broker: ``core`` is the sans-IO state
machine, ``compatibility`` the Avro schema-resolution rules, ``store`` the ``_schemas`` topic,
``http`` the REST API, ``server`` the ``SchemaRegistry`` entry point.
"""

from .server import SchemaRegistry

__all__ = ["SchemaRegistry"]
