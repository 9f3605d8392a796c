"""Avro decode throughput: ``connector.avro``'s batch decoder (the body of ``from_confluent_avro``'s
Arrow UDF: fastavro per record, one ``pyarrow.array`` per field per batch) vs a plain confluent-kafka
``AvroDeserializer`` loop (dicts), on the same Confluent-framed records produced by confluent-kafka's
``AvroSerializer`` against our registry. Both single-threaded in this process.

The two run interleaved, ``--rounds`` times each, and the best round of each counts: on a shared
machine other processes steal CPU at random, and the best round is the one least disturbed. Both
wall-clock and the decoding thread's CPU time are reported (CPU time moves less with the machine's
load). The broker and the registry are stopped before timing (both decoders have the schema cached).

    python -m bench.avro_decode [--records 100000] [--batch 10000] [--rounds 5] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

from bench import report
from broker_embedded import EmbeddedBroker
from connector import avro
from schema_registry import SchemaRegistry

SECTION_BEGIN = "<!-- BEGIN bench.avro_decode -->"
SECTION_END = "<!-- END bench.avro_decode -->"
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
BASE_TS = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)


def record(i: int) -> dict[str, Any]:
    return {
        "id": i,
        "user": f"user-{i % 1000}",
        "amount": i * 0.5,
        "ok": i % 2 == 0,
        "tags": ["a", "b"][: i % 3],
        "note": None if i % 4 else "n",
        "ts": BASE_TS + dt.timedelta(microseconds=i),
    }


def _timed(fn: Any) -> tuple[float, float]:
    w, c = time.perf_counter(), time.thread_time()
    fn()
    return time.perf_counter() - w, time.thread_time() - c


def prepare(url: str, values: list[bytes], batch: int) -> tuple[Any, Any]:
    """The two decoders, warm (writer schemas cached) and agreeing on every row."""
    ctx = SerializationContext("bench", MessageField.VALUE)
    deser = AvroDeserializer(SchemaRegistryClient({"url": url}))
    reader, names = avro.parse(json.dumps(SCHEMA))
    lookup = avro.RegistryLookup(url)

    def loop() -> None:
        for v in values:
            deser(v, ctx)

    def batches() -> list[Any]:
        return [
            avro.decode_confluent(values[i : i + batch], lookup, reader, names, "FAILFAST")
            for i in range(0, len(values), batch)
        ]

    decoded = [row for col in batches() for row in col.to_pylist()]
    assert decoded == [deser(v, ctx) for v in values], "connector.avro and AvroDeserializer disagree"
    return loop, batches


def measure(loop: Any, batches: Any, n: int, batch: int, rounds: int) -> dict[str, Any]:
    best: dict[str, list[float]] = {"loop": [1e9, 1e9], "ours": [1e9, 1e9]}
    pairs: list[tuple[float, float]] = []  # (wall, CPU) ratio of each round's loop to its batches
    for _ in range(rounds):
        took = {}
        for name, fn in (("loop", loop), ("ours", batches)):
            took[name] = _timed(fn)
            best[name] = [min(best[name][0], took[name][0]), min(best[name][1], took[name][1])]
        pairs.append((took["loop"][0] / took["ours"][0], took["loop"][1] / took["ours"][1]))
    return {
        "records": n,
        "batch": batch,
        "rounds": rounds,
        "loop_wall": n / best["loop"][0],
        "loop_cpu": n / best["loop"][1],
        "ours_wall": n / best["ours"][0],
        "ours_cpu": n / best["ours"][1],
        "ratio_wall": best["loop"][0] / best["ours"][0],
        "ratio_cpu": best["loop"][1] / best["ours"][1],
        "median_pair_wall": statistics.median(w for w, _ in pairs),
        "median_pair_cpu": statistics.median(c for _, c in pairs),
    }


def render(r: dict[str, Any], machine: dict[str, Any], argv: str) -> str:
    return "\n".join(
        [
            SECTION_BEGIN,
            "## Avro decode: `connector.avro` vs confluent-kafka's `AvroDeserializer` (`python -m bench.avro_decode`)",
            "",
            f"Command: `python -m bench.avro_decode{argv}` — {r['records']:,} Confluent-framed records of a",
            "7-field schema (long, string, double, boolean, array<string>, [null, string], timestamp-micros)",
            "written by confluent-kafka's `AvroSerializer` against our registry; single-threaded, in-process.",
            f"The two run interleaved, {r['rounds']} rounds each; the best round of each counts.",
            f"Machine: {machine['cpu_model']}, {machine['usable_cores']} usable cores, {machine['memory']},",
            f"Python {machine['python']}, confluent-kafka {machine['confluent_kafka']},",
            f"commit {machine['repo_commit']},",
            f"{machine['date_utc']}; load average (1/5/15 min) at the start: {machine['load_avg_start']},",
            f"at the end: {report.load_average()} (other jobs were running on the machine).",
            "",
            "| decoder | rows/s (wall) | rows/s (CPU time) |",
            "|---|---|---|",
            f"| confluent-kafka `AvroDeserializer`, a loop of dicts | {r['loop_wall']:,.0f} | {r['loop_cpu']:,.0f} |",
            f"| `connector.avro.decode_confluent`, Arrow column, batches of {r['batch']:,} "
            f"| {r['ours_wall']:,.0f} | {r['ours_cpu']:,.0f} |",
            f"| ratio of the best rounds | **{r['ratio_wall']:.2f}×** | **{r['ratio_cpu']:.2f}×** |",
            f"| median of the {r['rounds']} rounds' own ratios "
            f"| {r['median_pair_wall']:.2f}× | {r['median_pair_cpu']:.2f}× |",
            "",
            "Ours decodes into a Spark-ready Arrow struct column (timestamps as Arrow timestamps); the loop only",
            "produces Python dicts. Every row of both is compared before timing; the broker and registry are",
            "stopped while timing (both sides have the writer schema cached). CPU time is the decoding thread's.",
            SECTION_END,
            "",
        ]
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--batch", type=int, default=10_000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--out", type=Path, default=None, help="write the section of this results file")
    a = p.parse_args(argv)
    machine = report.machine_info()
    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as sr:
        ser = AvroSerializer(SchemaRegistryClient({"url": sr.url}), json.dumps(SCHEMA))
        ctx = SerializationContext("bench", MessageField.VALUE)
        values = [ser(record(i), ctx) for i in range(a.records)]
        loop, batches = prepare(sr.url, values, a.batch)
    # timed with the broker and registry stopped (both decoders have the schema cached): their
    # threads would otherwise share this process's CPU and GIL with the decoders
    r = measure(loop, batches, len(values), a.batch, a.rounds)
    print(f"records={r['records']} batch={r['batch']} rounds={r['rounds']} load={os.getloadavg()}")
    print(f"confluent AvroDeserializer loop: {r['loop_wall']:,.0f} rows/s wall, {r['loop_cpu']:,.0f} rows/s CPU")
    print(f"connector.avro decode_confluent: {r['ours_wall']:,.0f} rows/s wall, {r['ours_cpu']:,.0f} rows/s CPU")
    print(f"ratio: {r['ratio_wall']:.2f}x wall, {r['ratio_cpu']:.2f}x CPU (best rounds)")
    print(f"median of per-round ratios: {r['median_pair_wall']:.2f}x wall, {r['median_pair_cpu']:.2f}x CPU")
    if a.out is not None:
        args = " ".join(argv) if argv is not None else " ".join(sys.argv[1:])
        report.update_results_file(a.out, render(r, machine, f" {args}" if args else ""), SECTION_BEGIN, SECTION_END)


if __name__ == "__main__":
    main()
