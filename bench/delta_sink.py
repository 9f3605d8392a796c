"""Rows/s into Delta through the ``pykafka-delta`` sink vs Spark's own Parquet writer, same data.

Run from the repository root::

    .venv/bin/python -m bench.delta_sink                          # table on stdout
    .venv/bin/python -m bench.delta_sink --out bench/RESULTS.md   # also rewrite our section

The DataFrame has the Kafka source's columns (topic, partition, offset, key, value, timestamp,
timestampType), values of N bytes, 4 Kafka partitions in contiguous offset runs, 2 per task, as
the pykafka source's tasks hold them (the sink writes one file per partition per task and records
per-partition offsets). It is cached with
``--tasks`` partitions, so row generation is not timed. For each value size and repeat, back to
back (order alternating):

* ``pykafka-delta``: ``df.write.format("pykafka-delta").mode("append").save(path)`` into a new
  table: executors write Parquet (pyarrow, snappy), the driver makes one Delta commit with the
  per-partition app transactions;
* ``spark parquet``: ``df.write.mode("overwrite").parquet(path)`` (Spark's JVM writer, snappy);
* ``null``: an Arrow data source writer that only receives the batches (the ceiling of Spark's
  Python data source path);
* ``delta-spark``: ``df.write.format("delta").mode("append").save(path)`` into a new table, the same
  DataFrame built and cached in delta-spark's own pyspark (``peers/target/delta-venv``: delta-spark
  cannot load in this pyspark, see ``peers/delta_spark.py``), a second SparkSession kept warm in a
  worker process on the same machine and driven command by command, so its runs interleave with
  the others (``--no-delta-spark`` leaves it out).

All are checked by counting the rows written. The median of ``--repeat`` runs is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

SECTION_BEGIN = "<!-- BEGIN delta_sink -->"
SECTION_END = "<!-- END delta_sink -->"
# prefix of the delta-spark worker's replies on its stdout (Spark and py4j may print there too)
_REPLY = "@@delta-spark "


def _null_source_class() -> type:
    """An Arrow writer that only receives the batches: the ceiling of Spark's Python data source path."""
    from pyspark.sql.datasource import DataSource, DataSourceArrowWriter, WriterCommitMessage

    class NullArrowWriter(DataSourceArrowWriter):
        def write(self, iterator: Any) -> WriterCommitMessage:
            for _batch in iterator:
                pass
            return WriterCommitMessage()

    class BenchNullDelta(DataSource):
        @classmethod
        def name(cls) -> str:
            return "bench_null_delta"

        def writer(self, schema: Any, overwrite: bool) -> NullArrowWriter:
            return NullArrowWriter()

    return BenchNullDelta


def _session_conf(tasks: int) -> dict[str, str]:
    return {
        "spark.app.name": "bench-delta-sink",
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": str(tasks),
        "spark.driver.memory": "3g",
        "spark.sql.parquet.compression.codec": "snappy",
    }


def _session(tasks: int) -> Any:
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = SparkSession.builder.master(f"local[{tasks}]")
    for key, value in _session_conf(tasks).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    return spark


def _frame(spark: Any, rows: int, size: int, tasks: int) -> Any:
    # value: the row number padded to `size` bytes (compressible like real payloads, not constant)
    df = spark.range(0, rows, 1, tasks).selectExpr(
        "'bench-events' AS topic",
        f"CAST(id * 4 DIV {rows} AS INT) AS partition",  # contiguous runs, as the pykafka source's tasks hold
        f"id - (id * 4 DIV {rows}) * ({rows} DIV 4) AS offset",
        "CAST(CAST(id AS STRING) AS BINARY) AS key",
        f"CAST(rpad(CAST(id AS STRING), {size}, 'x') AS BINARY) AS value",
        "timestamp_millis(1700000000000 + id) AS timestamp",
        "0 AS timestampType",
    )
    df = df.cache()
    assert df.count() == rows
    return df


def _delta_spark_worker(tasks: int) -> int:
    """Inside delta-spark's venv: one warm SparkSession with delta-spark, driven over stdin/stdout
    (one JSON command per line, one reply per command) by :class:`DeltaSparkPeer`."""
    from peers import jvm

    conf = _session_conf(tasks) | {"spark.app.name": "bench-delta-sink-delta-spark"}
    spark = jvm.spark_with(kafka=False, delta=True, master=f"local[{tasks}]", **conf)
    spark.sparkContext.setLogLevel("WARN")
    df: Any = None
    rows = 0
    for line in sys.stdin:
        cmd = json.loads(line)
        reply: dict[str, Any] = {}
        if cmd["op"] == "frame":
            if df is not None:
                df.unpersist()
            rows = cmd["rows"]
            df = _frame(spark, rows, cmd["size"], tasks)
            # warm-up of delta-spark's write path (not timed)
            df.limit(1000).write.format("delta").mode("append").save(cmd["warm_path"])
        elif cmd["op"] == "write":
            path = cmd["path"]
            t0 = time.perf_counter()
            df.write.format("delta").mode("append").save(path)
            reply["seconds"] = time.perf_counter() - t0
            reply["rows"] = spark.read.format("delta").load(path).count()
            reply["bytes"] = sum(p.stat().st_size for p in Path(path).rglob("*.parquet"))
        elif cmd["op"] == "stop":
            break
        print(_REPLY + json.dumps(reply), flush=True)
    spark.stop()
    return 0


class DeltaSparkPeer:
    """delta-spark's writer in its own pyspark (``peers/target/delta-venv``), one warm worker process."""

    def __init__(self, tasks: int, log: Path) -> None:
        from peers import delta_spark

        env = dict(os.environ, PYTHONPATH=str(delta_spark.REPO_ROOT))
        env["PYSPARK_PYTHON"] = env["PYSPARK_DRIVER_PYTHON"] = str(delta_spark.DELTA_PYTHON)
        env.pop("SPARK_HOME", None)
        self._log: IO[str] = log.open("w")
        self._proc = subprocess.Popen(
            [str(delta_spark.DELTA_PYTHON), "-m", "bench.delta_sink", "--delta-spark-worker", "--tasks", str(tasks)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            env=env,
            cwd=str(delta_spark.REPO_ROOT),
        )
        self.log_path = log

    def _call(self, **cmd: Any) -> dict[str, Any]:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(cmd) + "\n")
        self._proc.stdin.flush()
        for line in self._proc.stdout:
            if line.startswith(_REPLY):
                return dict(json.loads(line[len(_REPLY) :]))
        raise RuntimeError(f"the delta-spark worker exited ({self._proc.wait()}); see {self.log_path}")

    def frame(self, rows: int, size: int, warm_path: str) -> None:
        self._call(op="frame", rows=rows, size=size, warm_path=warm_path)

    def write(self, path: str) -> dict[str, Any]:
        return self._call(op="write", path=path)

    def close(self) -> None:
        try:
            if self._proc.poll() is None:
                self._call(op="stop")
            self._proc.wait(timeout=120)
        except Exception:  # noqa: BLE001 - stop it the hard way
            self._proc.kill()
            self._proc.wait()
        finally:
            self._log.close()


def _delta_rows(path: str) -> int:
    from deltalake import DeltaTable

    return DeltaTable(path).to_pyarrow_dataset().count_rows()


def _timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def measure(
    spark: Any, df: Any, rows: int, workdir: Path, repeat: int, peer: DeltaSparkPeer | None = None
) -> dict[str, Any]:
    delta_s: list[float] = []
    parquet_s: list[float] = []
    null_s: list[float] = []
    peer_s: list[float] = []
    peer_bytes = 0
    for i in range(repeat):
        delta_path, parquet_path = str(workdir / f"delta-{i}"), str(workdir / f"parquet-{i}")
        peer_path = str(workdir / f"delta-spark-{i}")

        def delta(path: str = delta_path) -> None:
            df.write.format("pykafka-delta").mode("append").save(path)

        def parquet(path: str = parquet_path) -> None:
            df.write.mode("overwrite").parquet(path)

        def null() -> None:
            df.write.format("bench_null_delta").mode("append").save()

        def delta_spark(path: str = peer_path) -> None:
            nonlocal peer_bytes
            assert peer is not None
            r = peer.write(path)  # timed inside the worker: the write alone, as the others
            if r["rows"] != rows:
                raise AssertionError(f"rows written: delta-spark {r['rows']}, expected {rows}")
            peer_s.append(r["seconds"])
            peer_bytes = r["bytes"]
            shutil.rmtree(path)

        order: list[tuple[Any, list[float] | None]] = [(delta, delta_s), (parquet, parquet_s), (null, null_s)]
        if peer is not None:
            order.append((delta_spark, None))
        for fn, out in order if i % 2 == 0 else reversed(order):
            if out is None:
                fn()
            else:
                out.append(_timed(fn))
        got_delta, got_parquet = _delta_rows(delta_path), spark.read.parquet(parquet_path).count()
        if got_delta != rows or got_parquet != rows:
            raise AssertionError(f"rows written: delta {got_delta}, parquet {got_parquet}, expected {rows}")
        sizes = {
            "delta_bytes": sum(p.stat().st_size for p in Path(delta_path).rglob("*.parquet")),
            "parquet_bytes": sum(p.stat().st_size for p in Path(parquet_path).rglob("*.parquet")),
        }
        shutil.rmtree(delta_path)
        shutil.rmtree(parquet_path)
    d, p, z = statistics.median(delta_s), statistics.median(parquet_s), statistics.median(null_s)
    out = {
        "delta_rows_per_s": rows / d,
        "parquet_rows_per_s": rows / p,
        "null_rows_per_s": rows / z,
        "ratio": p / d,
        "delta_s": delta_s,
        "parquet_s": parquet_s,
        "null_s": null_s,
        **sizes,
    }
    if peer_s:
        k = statistics.median(peer_s)
        out |= {"delta_spark_rows_per_s": rows / k, "delta_spark_ratio": k / d, "delta_spark_s": peer_s}
        out["delta_spark_bytes"] = peer_bytes
    return out


def _start_peer(args: argparse.Namespace, workdir: Path, results: dict[str, Any]) -> DeltaSparkPeer | None:
    if args.no_delta_spark:
        return None
    from peers import delta_spark, jvm

    reason = delta_spark.available()
    if reason:
        print(f"delta-spark left out: {reason}", file=sys.stderr)
        results["delta_spark_missing"] = reason
        return None
    versions = jvm.spark_peer_versions()
    results["machine"]["delta_spark"] = f"delta-spark {versions['delta']} on Spark {versions['spark']}"
    return DeltaSparkPeer(args.tasks, workdir / "delta-spark-worker.log")


def run(args: argparse.Namespace) -> dict[str, Any]:
    import pyspark

    from bench.report import load_average, machine_info

    results: dict[str, Any] = {"machine": machine_info(), "config": vars(args) | {"out": str(args.out)}, "runs": {}}
    results["machine"]["pyspark"] = pyspark.__version__
    workdir = Path(tempfile.mkdtemp(prefix="bench-delta-"))
    peer = _start_peer(args, workdir, results)
    spark = _session(args.tasks)
    spark.dataSource.register(_null_source_class())
    try:
        for batch_rows in args.arrow_batch_rows:
            spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(batch_rows))
            for size in args.sizes:
                rows = args.rows if size < 1024 else max(1, args.rows * 3 // 10)
                df = _frame(spark, rows, size, args.tasks)
                # warm-up: Python workers, imports, JIT of both paths (not timed)
                df.limit(1000).write.format("pykafka-delta").mode("append").save(str(workdir / "warm-delta"))
                df.limit(1000).write.mode("overwrite").parquet(str(workdir / "warm-parquet"))
                if peer is not None:
                    peer.frame(rows, size, str(workdir / f"warm-delta-spark-{size}-{batch_rows}"))
                r = measure(spark, df, rows, workdir, args.repeat, peer)
                r["rows"] = rows
                r["size"], r["arrow_batch_rows"] = size, batch_rows
                results["runs"][f"{size}/{batch_rows}"] = r
                df.unpersist()
                print(
                    f"{size:>6} B  arrow batch {batch_rows:>7}  pykafka-delta {r['delta_rows_per_s']:>12,.0f} rows/s"
                    f"   spark parquet {r['parquet_rows_per_s']:>12,.0f} rows/s   delta/parquet {r['ratio']:.2f}"
                    f"   null writer {r['null_rows_per_s']:>12,.0f} rows/s"
                    + (
                        f"   delta-spark {r['delta_spark_rows_per_s']:>12,.0f} rows/s   "
                        f"pykafka-delta/delta-spark {r['delta_spark_ratio']:.2f}"
                        if "delta_spark_ratio" in r
                        else ""
                    ),
                    flush=True,
                )
    finally:
        spark.stop()
        if peer is not None:
            peer.close()
        shutil.rmtree(workdir, ignore_errors=True)
    results["machine"]["load_avg_end"] = load_average()
    return results


def render_section(results: dict[str, Any]) -> str:
    m, c = results["machine"], results["config"]
    lines = [
        SECTION_BEGIN,
        "## Delta sink throughput (`python -m bench.delta_sink`)",
        "",
        f"Run {m['date_utc']} with `{' '.join(['python -m bench.delta_sink', *results.get('argv', [])])}`.",
        "",
        f"- **CPU:** {m['cpu_model']}; cores: {m['logical_cores']} logical ({m['usable_cores']} usable); "
        f"memory: {m['memory']}",
        f"- **OS / Python:** {m['os']}; Python {m['python']}; pyspark {m['pyspark']} (local[{c['tasks']}])",
        f"- **Load average (1/5/15 min):** {m['load_avg_start']} at start, {m['load_avg_end']} at end",
        f"- **pykafka** at commit {m['repo_commit']}",
        f"- **Workload:** the Kafka source's columns (topic, partition, offset, key, value, timestamp, "
        f"timestampType); {c['rows']:,} rows below 1 KiB, {c['rows'] * 3 // 10:,} from 1 KiB; 4 Kafka partitions "
        f"in contiguous offset runs over {c['tasks']} tasks (as the pykafka source hands them over); "
        f"DataFrame cached; snappy on both sides; median of "
        f"{c['repeat']} runs, the writers back to back in alternating order",
        "",
        "| value size | Arrow batch rows | pykafka-delta rows/s | spark parquet rows/s | **delta / parquet** | "
        "null Arrow writer rows/s | delta-spark rows/s | **pykafka-delta / delta-spark** | "
        "files' bytes delta / parquet | files' bytes delta / delta-spark |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results["runs"].values():
        size = r["size"]
        label = f"{size // 1024} KiB" if size >= 1024 else f"{size} B"
        default = " (default)" if r["arrow_batch_rows"] == 10_000 else ""
        if "delta_spark_ratio" in r:
            peer = (
                f"{r['delta_spark_rows_per_s']:,.0f} | **{r['delta_spark_ratio']:.2f}** | "
                f"{r['delta_bytes'] / max(1, r['parquet_bytes']):.2f} | "
                f"{r['delta_bytes'] / max(1, r['delta_spark_bytes']):.2f}"
            )
        else:
            peer = f"n/a | n/a | {r['delta_bytes'] / max(1, r['parquet_bytes']):.2f} | n/a"
        lines.append(
            f"| {label} | {r['arrow_batch_rows']:,}{default} | {r['delta_rows_per_s']:,.0f} | "
            f"{r['parquet_rows_per_s']:,.0f} | **{r['ratio']:.2f}** | {r['null_rows_per_s']:,.0f} | {peer} |"
        )
    peer_line = m.get("delta_spark") or f"not run: {results.get('delta_spark_missing', '--no-delta-spark')}"
    lines += [
        "",
        '`pykafka-delta` is `df.write.format("pykafka-delta").mode("append").save(path)` end to end: JVM → '
        "Arrow → Python workers writing one Parquet file per Kafka partition per task with pyarrow, then one Delta "
        "commit (delta-rs) with the per-partition offsets as app transactions. `spark parquet` is "
        "`df.write.parquet(path)`, Spark's own JVM writer with no transaction log. `null Arrow writer` receives "
        "the Arrow batches in Python and drops them: the ceiling of Spark's Python data source path. "
        '`delta-spark` is `df.write.format("delta").mode("append").save(path)` into a new table '
        f"({peer_line}, its own pyspark in `peers/target/delta-venv`, local[{c['tasks']}]), the same DataFrame "
        "built and cached there, its runs interleaved with the others from a second warm SparkSession on the "
        "same machine. Bars: delta / parquet ≥ 1.0 and pykafka-delta / delta-spark ≥ 1.0.",
    ]
    if results.get("notes"):
        lines += ["", "**Notes:**", "", *[f"- {n}" for n in results["notes"]]]
    lines.append(SECTION_END)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1024])
    ap.add_argument("--tasks", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--arrow-batch-rows",
        type=int,
        nargs="+",
        default=[10_000, 100_000],
        help="spark.sql.execution.arrow.maxRecordsPerBatch values to run (Spark's default is 10000)",
    )
    ap.add_argument("--no-delta-spark", action="store_true", help="leave delta-spark's writer out")
    ap.add_argument("--delta-spark-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--note", action="append", default=[], help="a note to add under the table")
    ap.add_argument("--out", type=Path, help="rewrite the delta_sink section of this RESULTS.md")
    ap.add_argument("--json", type=Path, help="also write the raw results here")
    args = ap.parse_args(argv)
    if args.delta_spark_worker:  # inside peers/target/delta-venv, driven by DeltaSparkPeer
        return _delta_spark_worker(args.tasks)
    results = run(args)
    results["notes"] = args.note
    # the command as run, as the other benches show it; the notes are printed under the table
    given = sys.argv[1:] if argv is None else argv
    results["argv"] = [
        a for i, a in enumerate(given) if not a.startswith("--note") and (i == 0 or given[i - 1] != "--note")
    ]
    section = render_section(results)
    print(section)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2, default=str))
    if args.out:
        from bench import report

        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
