"""Kafka wire protocol: message codecs, framing, record batches and a client."""
