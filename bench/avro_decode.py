"""Avro decode throughput: ``connector.avro``'s batch decoder (the body of ``from_confluent_avro``'s
Arrow UDF: fastavro per record, one ``pyarrow.array`` per batch) vs a plain confluent-kafka
``AvroDeserializer`` loop (dicts), on the same Confluent-framed records produced by confluent-kafka's
``AvroSerializer`` against our registry. Both single-threaded in this process.

    python -m bench.avro_decode [--records 100000] [--batch 10000]
"""

from __future__ import annotations

import argparse
import json
import time

from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

from broker_embedded import EmbeddedBroker
from connector import avro
from schema_registry import SchemaRegistry

SCHEMA = {
    "type": "record",
    "name": "Event",
    "namespace": "bench",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "user", "type": "string"},
        {"name": "amount", "type": "double"},
        {"name": "ok", "type": "boolean"},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "note", "type": ["null", "string"], "default": None},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    ],
}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=10_000)
    a = p.parse_args()
    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as sr:
        client = SchemaRegistryClient({"url": sr.url})
        ctx = SerializationContext("bench", MessageField.VALUE)
        ser = AvroSerializer(client, json.dumps(SCHEMA), conf={"auto.register.schemas": True})
        import datetime as dt

        base = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
        values = [
            ser(
                {
                    "id": i,
                    "user": f"user-{i % 1000}",
                    "amount": i * 0.5,
                    "ok": i % 2 == 0,
                    "tags": ["a", "b"][: i % 3],
                    "note": None if i % 4 else "n",
                    "ts": base + dt.timedelta(microseconds=i),
                },
                ctx,
            )
            for i in range(a.records)
        ]
        deser = AvroDeserializer(SchemaRegistryClient({"url": sr.url}))
        deser(values[0], ctx)  # warm the schema cache of both sides
        reader, names = avro.parse(json.dumps(SCHEMA))
        lookup = avro.RegistryLookup(sr.url)
        avro.decode_confluent(values[:10], lookup, reader, names, "FAILFAST")

        t = time.perf_counter()
        for v in values:
            deser(v, ctx)
        loop_s = time.perf_counter() - t
        t = time.perf_counter()
        n = 0
        for i in range(0, len(values), a.batch):
            n += len(avro.decode_confluent(values[i : i + a.batch], lookup, reader, names, "FAILFAST"))
        ours_s = time.perf_counter() - t
        assert n == a.records
    print(f"records={a.records} batch={a.batch}")
    print(f"confluent AvroDeserializer loop: {a.records / loop_s:,.0f} rows/s")
    print(f"connector.avro decode_confluent (Arrow column): {a.records / ours_s:,.0f} rows/s")
    print(f"ratio: {loop_s / ours_s:.2f}x")


if __name__ == "__main__":
    main()
