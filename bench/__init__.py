"""Benchmarks that compare the embedded broker with peer Kafka-compatible brokers.

Entry point: ``python -m bench.broker_throughput --help``.
"""
