"""What the broker costs the machine, next to Tansu and Apache Kafka (issue 17), in one run:

    .venv/bin/python -m bench.broker_cost                          # tables on stdout
    .venv/bin/python -m bench.broker_cost --out bench/RESULTS.md   # also rewrite our section

* **start**: ``python -m broker_embedded`` (the CLI, imports included) from spawn to the first
  Metadata answer, median of ``--start-runs``; Tansu the same way; Apache Kafka's start (spawn to
  a Metadata answer, storage formatted before) from the cost run. ``--start-baseline DIR`` also
  measures another checkout (e.g. ``git archive`` of the commit before a change), interleaved;
  ``--start-compare LABEL=DIR`` (repeatable) more of them, e.g. an experiment.
* **cpu**: CPU seconds of the broker process (utime + stime of every thread, /proc/<pid>/stat)
  per GB of record values produced and per GB consumed, with bench/workload.py's confluent-kafka
  measurements unchanged (the same clients and settings as ``bench.broker_throughput``). The
  window is exactly their timed window (first produce() to the end of flush(); assign() to the
  last record): the worker reads the broker's CPU counters when the measurement reads its clock.
  Targets take turns (order rotated every round), one warm-up pair per size first (JIT), median
  of ``--repeat``; each topic is deleted after its pair (Tansu keeps memory:// logs in RAM).
  Also the CPU a target burns idle.
* **rss**: resident memory idle (fresh process, 3 s after ready), with ``--connections`` open idle
  client connections (plain sockets that each sent ApiVersions v0 + Metadata v1 and stay open),
  and, on a fresh process, with ``--topics`` x ``--partitions-per-topic`` partitions created
  and each written once (one 100 B record).

Ratios are ours/peer: below 1 means ours costs less. Everything is bounded: a default run takes
about 4-6 minutes on 2 cores (Apache Kafka's starts and JIT warm-up are most of it).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import resource
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import types
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import report, workload
from bench.peers_side_by_side import rss_mib
from bench.report import cpu_seconds
from bench.targets import REPO_ROOT, BrokerProcess, TargetStartError, die_with_parent, free_loopback_port
from peers import jvm

SECTION_BEGIN = "<!-- BEGIN bench.broker_cost -->"
SECTION_END = "<!-- END bench.broker_cost -->"
TARGETS = ("pykafka", "tansu", "apache")
GB = 1_000_000_000  # CPU-s per GB of record values, 1 GB = 10^9 bytes (the bench's MB is 10^6)


# --------------------------------------------------------------------------------------------
# process counters
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# a raw Metadata probe (no client library start-up in the measured time)
# --------------------------------------------------------------------------------------------


def _frame(api_key: int, version: int, correlation_id: int, body: bytes) -> bytes:
    client = b"broker-cost"
    payload = struct.pack(">hhih", api_key, version, correlation_id, len(client)) + client + body
    return struct.pack(">i", len(payload)) + payload


API_VERSIONS_V0 = _frame(18, 0, 1, b"")
METADATA_V1_ALL = _frame(3, 1, 2, struct.pack(">i", -1))  # topics = null: every topic


def _recv_exactly(s: socket.socket, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise ConnectionError("connection closed by the broker")
        out += chunk
    return bytes(out)


def request(s: socket.socket, frame: bytes) -> bytes:
    s.sendall(frame)
    return _recv_exactly(s, struct.unpack(">i", _recv_exactly(s, 4))[0])


def metadata_answered(host: str, port: int, timeout: float) -> None:
    """Connect (retrying while refused) and get one Metadata answer."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=2.0) as s:
                request(s, METADATA_V1_ALL)
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.005)


# --------------------------------------------------------------------------------------------
# start -> ready
# --------------------------------------------------------------------------------------------


def start_pykafka_once(root: Path, pycache: Path | None = None) -> dict[str, float]:
    """Spawn ``python -m broker_embedded`` from ``root``; seconds to the first Metadata answer.

    ``pycache``: let Python write and read bytecode there (``PYTHONPYCACHEPREFIX``), as an installed
    package has it; otherwise the environment decides (``PYTHONDONTWRITEBYTECODE=1`` here: every
    module of the checkout is compiled at every start).
    """
    env = {**os.environ, "PYTHONPATH": str(root)}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    with tempfile.TemporaryDirectory(prefix="broker-cost-") as log_dir:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "broker_embedded", "--port", "0", "--log-dir", log_dir],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=die_with_parent,  # noqa: PLW1509 - no threads of ours run yet
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline().decode().strip()
            if not line.startswith("bootstrap.servers="):
                raise TargetStartError(f"pykafka from {root} printed {line!r}")
            host, port = line.split("=", 1)[1].split(",")[0].rsplit(":", 1)
            return _ready(proc, t0, host, int(port))
        finally:
            _stop(proc)


def start_tansu_once(workdir: Path) -> dict[str, float]:
    port = free_loopback_port()
    url = f"tcp://127.0.0.1:{port}"
    from bench.targets import tansu_binary

    argv = [str(tansu_binary()), "broker", "--listener-url", url, "--advertised-listener-url", url,
            "--storage-engine", "memory://tansu/"]  # fmt: skip
    with open(workdir / "tansu-start.log", "ab") as log:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, preexec_fn=die_with_parent
        )  # noqa: PLW1509
        try:
            return _ready(proc, t0, "127.0.0.1", port)
        finally:
            _stop(proc)


def _ready(proc: subprocess.Popen[bytes], t0: float, host: str, port: int) -> dict[str, float]:
    """Once the first Metadata is answered: seconds since `t0`, the process's CPU-s and RSS then."""
    metadata_answered(host, port, 30)
    ready = time.perf_counter() - t0
    return {"ready_s": ready, "cpu_s": cpu_seconds(proc.pid), "rss_mib": rss_mib(proc.pid)}


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, 15)
    proc.wait(10)


def bench_start(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Interleaved runs: ours (and the baseline checkout, and Tansu) take turns."""
    pyc = tmp / "pycache"
    roots = {"pykafka": REPO_ROOT}
    if args.start_baseline:
        roots["pykafka (before)"] = Path(args.start_baseline).resolve()
    for item in args.start_compare:
        label, _, directory = item.partition("=")
        roots[f"pykafka ({label})"] = Path(directory).resolve()
    runners: dict[str, Callable[[], dict[str, float]]] = {}
    for name, root in roots.items():
        runners[name] = functools.partial(start_pykafka_once, root)
        runners[f"{name}, .pyc cached"] = functools.partial(start_pykafka_once, root, pyc)
        start_pykafka_once(root, pyc)  # writes the bytecode cache; not counted
    if "tansu" in args.targets:
        runners["tansu"] = lambda: start_tansu_once(tmp)
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in runners}
    errors: dict[str, str] = {}
    names = list(runners)
    for i in range(args.start_runs):
        order = names if i % 2 == 0 else names[::-1]
        for name in order:
            if name in errors:
                continue
            try:
                runs[name].append(runners[name]())
            except (OSError, TargetStartError, subprocess.SubprocessError) as e:
                errors[name] = f"{type(e).__name__}: {e}"
    out: dict[str, Any] = {}
    for name, values in runs.items():
        ready = [v["ready_s"] for v in values]
        out[name] = {
            "runs": values,
            "ready_s": statistics.median(ready) if ready else None,
            "ready_min_s": min(ready) if ready else None,
            "ready_max_s": max(ready) if ready else None,
            "cpu_s": statistics.median(v["cpu_s"] for v in values) if values else None,
            "rss_mib": statistics.median(v["rss_mib"] for v in values) if values else None,
            "error": errors.get(name),
        }
        print(f"[start] {name}: {out[name]['ready_s']} s (runs {[round(r, 3) for r in ready]})", file=sys.stderr)
    return out


# --------------------------------------------------------------------------------------------
# targets for the cost and memory parts
# --------------------------------------------------------------------------------------------


class Target:
    """One running broker: bootstrap address, pid, seconds from spawn to ready."""

    def __init__(self, name: str, workdir: Path) -> None:
        self.name = name
        self.workdir = workdir / f"{name}-{uuid.uuid4().hex[:6]}"
        self.workdir.mkdir(parents=True)
        self._proc: BrokerProcess | None = None
        self._kafka: jvm.ApacheKafka | None = None
        self.bootstrap = ""
        self.pid = 0
        self.start_s = 0.0

    def start(self) -> Target:
        t0 = time.monotonic()
        if self.name == "apache":
            # as bench.peers_side_by_side starts it: KRaft combined mode, -Xmx1g, default GC
            self._kafka = jvm.ApacheKafka(1, num_partitions=1, heap="-Xmx1g", jvm_opts=())
            self._kafka.start()
            self.bootstrap, self.pid = self._kafka.bootstrap_servers, self._kafka.pid(0)
            self.start_s = self._kafka.start_seconds or 0.0
            return self
        self._proc = BrokerProcess(self.name, self.workdir)
        self.bootstrap = self._proc.start(60)
        assert self._proc._proc is not None
        self.pid = self._proc._proc.pid
        host, port = self.bootstrap.rsplit(":", 1)
        metadata_answered(host, int(port), 30)
        self.start_s = time.monotonic() - t0
        return self

    def stop(self) -> None:
        if self._kafka is not None:
            self._kafka.close()
            self._kafka = None
        if self._proc is not None:
            self._proc.stop()
            self._proc = None

    def __enter__(self) -> Target:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _admin(bootstrap: str) -> Any:
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": bootstrap, "log_level": 0})


def delete_topic(bootstrap: str, topic: str) -> None:
    with contextlib.suppress(Exception):
        for f in _admin(bootstrap).delete_topics([topic], operation_timeout=10).values():
            f.result(15)


# --------------------------------------------------------------------------------------------
# CPU per GB: bench/workload.py's measurements, with the broker's CPU read at their clock reads
# --------------------------------------------------------------------------------------------


class _ClockHook(types.ModuleType):
    """Stands in for ``time`` inside bench.workload: ``perf_counter()`` also snapshots the broker's
    CPU. measure_produce/measure_consume read that clock exactly twice, at the start and the end of
    their timed window, so the CPU between the first and last snapshot is the window's."""

    def __init__(self, pid: int) -> None:
        super().__init__("time")
        self.pid = pid
        self.snapshots: list[float] = []

    def perf_counter(self) -> float:
        self.snapshots.append(cpu_seconds(self.pid))
        return time.perf_counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def measure_with_cpu(stack: contextlib.ExitStack, *, kind: str, broker_pid: int, **kwargs: Any) -> workload.Result:
    """Runs in run_isolated's worker process: the unchanged workload measurement plus broker CPU."""
    hook = _ClockHook(broker_pid)
    workload.time = hook  # type: ignore[attr-defined]  # only this worker process's copy
    func = workload.measure_produce if kind == "produce" else workload.measure_consume
    result = func(stack, **kwargs)
    if len(hook.snapshots) != 2:
        raise workload.BenchError(f"expected 2 clock reads in {func.__name__}, saw {len(hook.snapshots)}")
    result["broker_cpu_s"] = hook.snapshots[1] - hook.snapshots[0]
    return result


def _per_gb(result: workload.Result) -> float | None:
    if not result.get("ok") or not result.get("bytes"):
        return None
    return float(result["broker_cpu_s"]) / (result["bytes"] / GB)


def bench_cpu(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    targets: list[Target] = []
    try:
        for name in args.targets:
            try:
                t = Target(name, tmp).start()
            except Exception as e:  # noqa: BLE001 - a peer that cannot start is a table cell
                out[name] = {"error": f"did not start: {type(e).__name__}: {e}"[:300]}
                continue
            targets.append(t)
            time.sleep(2.0)
            c0, t0 = cpu_seconds(t.pid), time.monotonic()
            time.sleep(args.idle_seconds)
            idle = (cpu_seconds(t.pid) - c0) / (time.monotonic() - t0)
            out[name] = {"start_s": t.start_s, "idle_cpu_ms_per_s": idle * 1000, "sizes": {}, "rss_load_mib": 0.0}
            print(f"[cpu] {name} ready in {t.start_s:.2f}s, idle {idle * 1000:.1f} ms CPU/s", file=sys.stderr)

        def pair(t: Target, size: int, records: int) -> tuple[workload.Result, workload.Result]:
            topic = f"cost-{size}-{uuid.uuid4().hex[:8]}"
            common = {"bootstrap": t.bootstrap, "topic": topic, "size": size, "records": records, "broker_pid": t.pid}
            p = workload.run_isolated(measure_with_cpu, {**common, "kind": "produce", "create_topic": True}, 180)
            c = workload.run_isolated(measure_with_cpu, {**common, "kind": "consume"}, 180) if p.get("ok") else p
            out[t.name]["rss_load_mib"] = max(out[t.name]["rss_load_mib"], rss_mib(t.pid))
            delete_topic(t.bootstrap, topic)
            return p, c

        for size in args.sizes:
            records = args.records_small if size < 1024 else args.records_large
            for t in targets:  # warm-up (JIT, page cache, first-use imports), not counted
                pair(t, size, max(1000, records // 5))
            runs: dict[str, dict[str, list[workload.Result]]] = {t.name: {"p": [], "c": []} for t in targets}
            for r in range(args.repeat):
                order = targets[r % len(targets) :] + targets[: r % len(targets)] if targets else []
                for t in order:
                    p, c = pair(t, size, records)
                    runs[t.name]["p"].append(p)
                    runs[t.name]["c"].append(c)
                    print(
                        f"[cpu] {t.name} {size} B round {r}: produce {_per_gb(p)} CPU-s/GB ({p.get('mb_per_s')} MB/s"
                        f"{'' if p.get('ok') else ', ' + str(p.get('error'))}), consume {_per_gb(c)} CPU-s/GB "
                        f"({c.get('mb_per_s')} MB/s)",
                        file=sys.stderr,
                    )
            for t in targets:
                cell: dict[str, Any] = {"records": records}
                for key, label in (("p", "produce"), ("c", "consume")):
                    ok = [x for x in runs[t.name][key] if x.get("ok")]
                    cell[f"{label}_cpu_s_per_gb"] = _median([_per_gb(x) for x in ok])
                    cell[f"{label}_mb_s"] = _median([x["mb_per_s"] for x in ok])
                    cell[f"{label}_runs_cpu_s_per_gb"] = [_per_gb(x) for x in ok]
                    errors = [str(x.get("error")) for x in runs[t.name][key] if not x.get("ok")]
                    if errors:
                        cell[f"{label}_errors"] = errors[:2]
                out[t.name]["sizes"][str(size)] = cell
    finally:
        for t in targets:
            t.stop()
    return out


def _median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


# --------------------------------------------------------------------------------------------
# memory: idle, with N connections, with N partitions
# --------------------------------------------------------------------------------------------


def _raise_nofile(want: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def _open_fds(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def open_idle_connections(bootstrap: str, n: int) -> list[socket.socket]:
    """n client connections that each did what a client does first (ApiVersions, Metadata)."""
    host, port = bootstrap.split(",")[0].rsplit(":", 1)
    socks: list[socket.socket] = []
    try:
        for _ in range(n):
            s = socket.create_connection((host, int(port)), timeout=10)
            socks.append(s)
            request(s, API_VERSIONS_V0)
            request(s, METADATA_V1_ALL)
    except BaseException:
        for s in socks:
            s.close()
        raise
    return socks


def create_partitions(bootstrap: str, topics: int, per_topic: int) -> None:
    from confluent_kafka import Producer
    from confluent_kafka.admin import NewTopic

    admin = _admin(bootstrap)
    names = [f"parts-{i:03d}-{uuid.uuid4().hex[:6]}" for i in range(topics)]
    for f in admin.create_topics([NewTopic(n, per_topic, 1) for n in names], operation_timeout=60).values():
        f.result(120)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "log_level": 0})
    value = b"x" * 100
    deadline = time.monotonic() + 120
    for name in names:
        for p in range(per_topic):
            while True:
                try:
                    producer.produce(name, value, partition=p)
                    break
                except BufferError:
                    producer.poll(0.01)
    while producer.flush(1.0) > 0:
        if time.monotonic() > deadline:
            raise TimeoutError("the 1-record-per-partition writes were not all delivered")


def bench_rss(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    _raise_nofile(args.connections + 1024)
    out: dict[str, Any] = {}
    for name in args.targets:
        cell: dict[str, Any] = {}
        out[name] = cell
        try:
            with Target(name, tmp) as t:
                time.sleep(3.0)
                cell["idle_mib"] = rss_mib(t.pid)
                t0 = time.monotonic()
                socks = open_idle_connections(t.bootstrap, args.connections)
                try:
                    cell["connect_s"] = time.monotonic() - t0
                    time.sleep(2.0)
                    cell["connections_mib"] = rss_mib(t.pid)
                    cell["connections_fds"] = _open_fds(t.pid)  # proof the broker holds them
                finally:
                    for s in socks:
                        s.close()
        except Exception as e:  # noqa: BLE001
            cell["connections_error"] = f"{type(e).__name__}: {e}"[:300]
        try:
            with Target(name, tmp) as t:
                time.sleep(1.0)
                t0 = time.monotonic()
                create_partitions(t.bootstrap, args.topics, args.partitions_per_topic)
                cell["create_partitions_s"] = time.monotonic() - t0
                time.sleep(3.0)
                cell["partitions_mib"] = rss_mib(t.pid)
        except Exception as e:  # noqa: BLE001
            cell["partitions_error"] = f"{type(e).__name__}: {e}"[:300]
        print(f"[rss] {name}: {cell}", file=sys.stderr)
    return out


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------


def _f(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:,.{digits}f}"


def _ratio(ours: float | None, peer: float | None) -> str:
    return "—" if ours is None or not peer else f"{ours / peer:.2f}"


def render(results: dict[str, Any], notes: list[str]) -> str:
    m = results["machine"]
    peers = [t for t in ("tansu", "apache") if t in results["targets"]]
    lines = [
        SECTION_BEGIN,
        "## Broker cost: start, CPU per GB, memory (`python -m bench.broker_cost`)",
        "",
        f"Run {m['date_utc']} with `{results['command']}`.",
        "",
        f"- **Machine:** {m['cpu_model']}; {m['usable_cores']} usable cores; {m['memory']}; {m['os']}",
        f"- **Versions:** Python {m['python']}, pykafka at {m['repo_commit']}; Tansu {m['tansu']} (`memory://`); "
        f"Apache Kafka {results.get('apache_version')} (KRaft combined, -Xmx1g, default GC, "
        f"{results.get('java_version')}); confluent-kafka {m['confluent_kafka']}, librdkafka {m['librdkafka']}",
        f"- **Load average (1/5/15 min):** {m['load_avg_start']} at start, {results.get('load_avg_end')} at end",
        "",
    ]
    start = results.get("start")
    if start:
        ours = start.get("pykafka", {})
        lines += [
            f"**Process start → ready** (`python -m broker_embedded`, spawn to the first Metadata answer on a raw "
            f"socket, median of {results['args']['start_runs']} interleaved runs; CPU-s = the process's CPU time "
            "at that moment). Plain rows run with this environment's `PYTHONDONTWRITEBYTECODE=1` (the checkout's "
            "modules are compiled at every start); `.pyc cached` rows with a bytecode cache, as an installed "
            "package has. The ratio compares this commit with the row (same bytecode mode):",
            "",
            "| target | start → ready (s) | min–max (s) | CPU-s at ready | RSS at ready (MiB) | this commit/row |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for name, cell in start.items():
            label = name.replace("pykafka,", "pykafka (this commit),") if name.startswith("pykafka,") else name
            label = "pykafka (this commit)" if name == "pykafka" else label
            err = f" error: {cell['error']}" if cell.get("error") else ""
            mine = start.get("pykafka, .pyc cached", {}) if name.endswith(".pyc cached") else ours
            ratio = "—" if name in ("pykafka", "pykafka, .pyc cached") else _ratio(mine.get("ready_s"), cell["ready_s"])
            lines.append(
                f"| {label}{err} | {_f(cell['ready_s'], 3)} | {_f(cell['ready_min_s'], 3)}–{_f(cell['ready_max_s'], 3)}"
                f" | {_f(cell['cpu_s'], 2)} | {_f(cell.get('rss_mib'), 1)} | {ratio} |"
            )
        apache = results.get("cpu", {}).get("apache", {})
        if apache.get("start_s"):
            lines.append(
                f"| apache (one start, storage formatted before) | {_f(apache['start_s'], 3)} | | | | "
                f"{_ratio(ours.get('ready_s'), apache['start_s'])} |"
            )
        lines.append("")
    cpu = results.get("cpu")
    if cpu:
        names = [n for n in results["targets"] if n in cpu]
        head = "| size | metric | " + " | ".join(names) + " | " + " | ".join(f"pykafka/{p}" for p in peers) + " |"
        lines += [
            f"**Broker CPU per GB of record values** (utime+stime of the broker process over the workload's "
            f"timed window; confluent-kafka, bench/workload.py settings; median of {results['args']['repeat']} "
            "after a warm-up pair; MB/s for context):",
            "",
            head,
            "|---|---|" + "---:|" * (len(names) + len(peers)),
        ]
        for size in results["args"]["sizes"]:
            for metric, key, digits in (
                ("produce CPU-s/GB", "produce_cpu_s_per_gb", 2),
                ("consume CPU-s/GB", "consume_cpu_s_per_gb", 2),
                ("produce MB/s", "produce_mb_s", 1),
                ("consume MB/s", "consume_mb_s", 1),
            ):
                vals = {n: cpu[n].get("sizes", {}).get(str(size), {}).get(key) for n in names}
                row = f"| {size} B | {metric} | " + " | ".join(_f(vals[n], digits) for n in names)
                row += " | " + " | ".join(_ratio(vals.get("pykafka"), vals.get(p)) for p in peers) + " |"
                lines.append(row)
        idle = {n: cpu[n].get("idle_cpu_ms_per_s") for n in names}
        lines.append(
            "| — | idle CPU (ms per s) | "
            + " | ".join(_f(idle[n], 1) for n in names)
            + " | "
            + " | ".join(_ratio(idle.get("pykafka"), idle.get(p)) for p in peers)
            + " |"
        )
        load = {n: cpu[n].get("rss_load_mib") for n in names}
        lines.append(
            "| — | RSS after the load (MiB) | "
            + " | ".join(_f(load[n], 0) for n in names)
            + " | "
            + " | ".join(_ratio(load.get("pykafka"), load.get(p)) for p in peers)
            + " |"
        )
        errs = [
            f"{n} {s} B: {e}"
            for n in names
            for s, cell in cpu[n].get("sizes", {}).items()
            for e in cell.get("produce_errors", []) + cell.get("consume_errors", [])
        ]
        errs += [f"{n}: {cpu[n]['error']}" for n in names if cpu[n].get("error")]
        if errs:
            lines += ["", *[f"- error: {e[:300]}" for e in errs]]
        lines.append("")
    rss = results.get("rss")
    if rss:
        names = [n for n in results["targets"] if n in rss]
        a = results["args"]
        lines += [
            f"**Resident memory (MiB)**: idle = fresh process 3 s after ready; connections = the same process "
            f"with {a['connections']:,} open idle connections (each sent ApiVersions v0 + Metadata v1); "
            f"partitions = a fresh process with {a['topics']} topics × {a['partitions_per_topic']} partitions, "
            "each written once (one 100 B record):",
            "",
            "| state | " + " | ".join(names) + " | " + " | ".join(f"pykafka/{p}" for p in peers) + " |",
            "|---|" + "---:|" * (len(names) + len(peers)),
        ]
        for label, key in (
            ("idle", "idle_mib"),
            (f"{a['connections']:,} connections", "connections_mib"),
            (f"{a['topics'] * a['partitions_per_topic']:,} partitions", "partitions_mib"),
        ):
            vals = {n: rss[n].get(key) for n in names}
            lines.append(
                f"| {label} | "
                + " | ".join(_f(vals[n], 0) for n in names)
                + " | "
                + " | ".join(_ratio(vals.get("pykafka"), vals.get(p)) for p in peers)
                + " |"
            )
        timing = {n: (rss[n].get("connect_s"), rss[n].get("create_partitions_s")) for n in names}
        lines.append(
            "| (seconds to open the connections / create and write the partitions) | "
            + " | ".join(f"{_f(c, 1)} / {_f(p, 1)}" for c, p in timing.values())
            + " |"
            + " |" * len(peers)
        )
        fds = {n: rss[n].get("connections_fds") for n in names}
        lines.append(
            "| (open file descriptors while connected) | "
            + " | ".join("—" if v is None else str(v) for v in fds.values())
            + " |"
            + " |" * len(peers)
        )
        errs = [f"{n}: {rss[n][k]}" for n in names for k in ("connections_error", "partitions_error") if rss[n].get(k)]
        if errs:
            lines += ["", *[f"- error: {e}" for e in errs]]
        lines.append("")
    if notes:
        lines += ["**Notes:**", "", *[f"- {n}" for n in notes], ""]
    lines.append(SECTION_END)
    return "\n".join(lines) + "\n"


def _java_version() -> str:
    try:
        text = subprocess.run([jvm.java_executable(), "-version"], capture_output=True, text=True, timeout=30).stderr
        return text.splitlines()[0].replace('"', "")
    except (OSError, subprocess.SubprocessError, IndexError, jvm.PeersMissing):
        return "unknown"


def _apache_version() -> str:
    jars = sorted(jvm.KAFKA_LIB.glob("kafka_2.13-*.jar"))
    return jars[0].name.removeprefix("kafka_2.13-").removesuffix(".jar") if jars else "unknown"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.broker_cost", description=__doc__.splitlines()[0])
    p.add_argument("--parts", default="start,cpu,rss", help="comma-separated: start, cpu, rss")
    p.add_argument("--targets", default=",".join(TARGETS), help="pykafka,tansu,apache (pykafka first)")
    p.add_argument("--sizes", default="100,1024")
    p.add_argument("--records-small", type=int, default=1_000_000, help="records per run below 1 KiB (100 MB)")
    p.add_argument("--records-large", type=int, default=200_000, help="records per run from 1 KiB (205 MB)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--idle-seconds", type=float, default=5.0)
    p.add_argument("--start-runs", type=int, default=7)
    p.add_argument("--start-baseline", default=None, metavar="DIR", help="another checkout to time, interleaved")
    p.add_argument(
        "--start-compare", action="append", default=[], metavar="LABEL=DIR", help="more checkouts to time (repeatable)"
    )
    p.add_argument("--connections", type=int, default=1000)
    p.add_argument("--topics", type=int, default=100)
    p.add_argument("--partitions-per-topic", type=int, default=10)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--json", type=Path, default=None)
    p.add_argument("--from-json", type=Path, default=None, help="re-render a saved --json run")
    p.add_argument("--note", action="append", default=[])
    args = p.parse_args(argv)
    if args.from_json:
        results = json.loads(args.from_json.read_text())
    else:
        args.targets = [t.strip() for t in args.targets.split(",") if t.strip()]
        args.sizes = [int(s) for s in args.sizes.split(",")]
        parts = {s.strip() for s in args.parts.split(",")}
        results = {
            "command": "python -m bench.broker_cost " + " ".join(argv if argv is not None else sys.argv[1:]),
            "machine": report.machine_info(),
            "targets": args.targets,
            "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "apache_version": _apache_version(),
            "java_version": _java_version(),
        }
        with tempfile.TemporaryDirectory(prefix="broker-cost-") as d:
            tmp = Path(d)
            if "start" in parts:
                results["start"] = bench_start(args, tmp)
            if "cpu" in parts:
                results["cpu"] = bench_cpu(args, tmp)
            if "rss" in parts:
                results["rss"] = bench_rss(args, tmp)
        results["load_avg_end"] = report.load_average()
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            args.json.write_text(json.dumps(results, indent=1))
    section = render(results, list(results.get("notes", [])) + args.note)
    print(section)
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
