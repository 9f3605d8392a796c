"""Class-data-sharing (AppCDS) archives for the test suite's JVMs: Spark's and Apache Kafka's.

The suite starts dozens of short-lived JVMs on 2 cores (every child Spark driver, notebook kernel,
spark-submit, Kafka broker and Kafka tool), and much of a short JVM's CPU goes into loading and
verifying the same classes again. A static CDS archive holds them pre-parsed: measured on this
2-core machine (session 17), a PySpark session start + one job + stop took 14.4-16.9 s of CPU
without the archive and 8.3-9.5 s with it; a Kafka tool run 1.23-1.32 s against 0.88-0.95 s.

``python -m peers.cds build`` (run by scripts/test.sh beside the unit tests, by scripts/setup.sh
otherwise) builds each archive once: it runs a small representative workload with
``-XX:DumpLoadedClassList``, then ``java -Xshare:dump`` over that list with the exact classpath the
workload's JVM had, and writes a stamp of what the archive was built for (java, and the jars' names
and sizes). ``python -m peers.cds opts spark``
prints the JVM option that uses it (nothing when the archive is missing or stale), for
SPARK_SUBMIT_OPTS; :func:`kafka_jvm_opts` is used by peers/jvm.py for every Kafka JVM.

A JVM whose classpath does not match the archive's (another SPARK_HOME, say delta-spark's venv)
silently runs without any CDS, JDK classes included: correct, only slower. So the option is handed
only where the classpath is the archive's.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from peers.jvm import KAFKA_LIB, PEERS_DIR, java_executable

CDS_DIR = PEERS_DIR / "target" / "cds"
# Spark's launcher passes these; a dump without the same module options would not match them
_MODULE_OPTION_PREFIXES = ("--add-modules", "--add-opens", "--add-exports")


def _archive(name: str) -> Path:
    return CDS_DIR / f"{name}.jsa"


def _stamp_file(name: str) -> Path:
    return CDS_DIR / f"{name}.stamp"


def _jar_listing(folder: Path) -> str:
    return "\n".join(sorted(f"{p.name}:{p.stat().st_size}" for p in folder.glob("*.jar")))


def _stamp(name: str) -> str | None:
    """What an archive must have been built for (java, and the jars it loads from); None if unknown."""
    java = os.path.realpath(java_executable())
    if name == "kafka":
        if not KAFKA_LIB.is_dir():
            return None
        jars = _jar_listing(KAFKA_LIB)
    elif name == "spark":
        try:
            import pyspark
        except ImportError:
            return None
        spark_home = Path(pyspark.__file__).parent
        jars = f"{spark_home}\n{_jar_listing(spark_home / 'jars')}"
    else:
        raise ValueError(f"unknown archive {name!r}: 'spark' or 'kafka'")
    return hashlib.sha256(f"{java}\n{jars}".encode()).hexdigest()


def archive_option(name: str) -> str | None:
    """``-XX:SharedArchiveFile=...`` for the archive `name` ('spark' or 'kafka') when it exists and was
    built for this java and these jars; None otherwise."""
    archive, stamp_file = _archive(name), _stamp_file(name)
    if not archive.is_file() or not stamp_file.is_file():
        return None
    if stamp_file.read_text().strip() != _stamp(name):
        return None
    return f"-XX:SharedArchiveFile={archive}"


_kafka_option: tuple[str, ...] = ()
_kafka_checked_at = float("-inf")


def kafka_jvm_opts() -> tuple[str, ...]:
    """The option for Kafka's JVMs (classpath peers/target/kafka-lib/*). Once found it is kept; while
    missing it is looked for again every 5 s (scripts/test.sh builds it beside the first tests)."""
    global _kafka_option, _kafka_checked_at
    now = time.monotonic()
    if not _kafka_option and now - _kafka_checked_at >= 5.0:
        _kafka_checked_at = now
        option = archive_option("kafka")
        _kafka_option = (option,) if option else ()
    return _kafka_option


def _dump(name: str, classpath: str, module_options: list[str], class_lists: list[Path], log: Path) -> None:
    """``java -Xshare:dump`` of the classes in `class_lists` (merged, in order, each line once)."""
    merged = CDS_DIR / f"{name}.classlist"
    seen: set[str] = set()
    lines: list[str] = []
    for path in class_lists:
        if not path.is_file():
            continue
        for line in path.read_text(errors="replace").splitlines():
            if line and not line.startswith("#") and line not in seen:
                seen.add(line)
                lines.append(line)
    if not lines:
        raise RuntimeError(f"the {name} workload loaded no classes (see {log})")
    merged.write_text("\n".join(lines) + "\n")
    tmp = _archive(name).with_suffix(".jsa.tmp")
    tmp.unlink(missing_ok=True)
    cmd = [
        java_executable(),
        "-Xshare:dump",
        f"-XX:SharedClassListFile={merged}",
        f"-XX:SharedArchiveFile={tmp}",
        *module_options,
        "-cp",
        classpath,
    ]
    with log.open("a") as out:
        out.write(f"$ {shlex.join(cmd)}\n")
        out.flush()
        # the dump warns about every class it skips (signed jars, ...): those lines go to the log
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=600)
    if proc.returncode != 0 or not tmp.is_file():
        raise RuntimeError(f"java -Xshare:dump for {name} exited {proc.returncode} (see {log})")
    tmp.replace(_archive(name))


def build_spark(log: Path) -> None:
    """Run peers/cds_spark_workload.py under spark-submit's own launcher, record its classes and its
    java command line, and dump them with that command's classpath."""
    with tempfile.TemporaryDirectory(prefix="pykafka-cds-") as tmp:
        class_list = Path(tmp) / "spark.classlist"
        env = dict(os.environ)
        env["SPARK_SUBMIT_OPTS"] = f"-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:DumpLoadedClassList={class_list}"
        env["SPARK_PRINT_LAUNCH_COMMAND"] = "1"
        env.pop("SPARK_HOME", None)
        with log.open("a") as out:
            proc = subprocess.run(
                [sys.executable, "-m", "peers.cds_spark_workload", tmp],
                cwd=PEERS_DIR.parent,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                timeout=600,
            )
        text = log.read_text(errors="replace")
        if proc.returncode != 0:
            raise RuntimeError(f"the Spark workload exited {proc.returncode} (see {log})")
        launch = [line for line in text.splitlines() if line.startswith("Spark Command: ")]
        if not launch:
            raise RuntimeError(f"spark-submit printed no launch command (see {log})")
        argv = shlex.split(launch[-1].removeprefix("Spark Command: "))
        classpath = argv[argv.index("-cp") + 1]
        modules = [a for a in argv if a.startswith(_MODULE_OPTION_PREFIXES)]
        _dump("spark", classpath, modules, [class_list], log)


def build_kafka(log: Path) -> None:
    """Start a one-node Apache Kafka and run the tools the tests run, each JVM recording its classes."""
    from peers import jvm

    with tempfile.TemporaryDirectory(prefix="pykafka-cds-") as tmp:
        lists: list[Path] = []

        def record(step: str) -> None:
            path = Path(tmp) / f"{step}.classlist"
            lists.append(path)
            # JAVA_TOOL_OPTIONS reaches every JVM started from here on, one step at a time
            os.environ["JAVA_TOOL_OPTIONS"] = f"-XX:DumpLoadedClassList={path}"

        saved = os.environ.get("JAVA_TOOL_OPTIONS")
        try:
            record("broker")  # (the storage format runs first and is overwritten: the broker loads its classes)
            with jvm.ApacheKafka(nodes=1) as kafka:
                bootstrap = kafka.bootstrap_servers
                steps: list[tuple[str, str, list[str]]] = [
                    ("topics", jvm.TOPICS, ["--bootstrap-server", bootstrap, "--create", "--topic", "cds",
                                            "--partitions", "2"]),
                    ("topics-describe", jvm.TOPICS, ["--bootstrap-server", bootstrap, "--describe", "--topic", "cds"]),
                    ("producer", jvm.VERIFIABLE_PRODUCER, ["--bootstrap-server", bootstrap, "--topic", "cds",
                                                          "--max-messages", "20"]),
                    ("consumer", jvm.VERIFIABLE_CONSUMER, ["--bootstrap-server", bootstrap, "--topic", "cds",
                                                          "--group-id", "cds", "--max-messages", "20"]),
                    ("groups", jvm.CONSUMER_GROUPS, ["--bootstrap-server", bootstrap, "--describe", "--all-groups"]),
                    ("configs", jvm.CONFIGS, ["--bootstrap-server", bootstrap, "--describe", "--entity-type",
                                              "topics", "--entity-name", "cds"]),
                ]  # fmt: skip
                for step, main_class, args in steps:
                    record(step)
                    proc = jvm.java_tool(main_class, *args, check=False, timeout=120)
                    with log.open("a") as out:
                        out.write(f"{step}: exit {proc.returncode}\n{proc.stderr[-2000:]}\n")
                kafka.stop(0)  # a clean exit: the broker's list is complete
        finally:
            if saved is None:
                os.environ.pop("JAVA_TOOL_OPTIONS", None)
            else:
                os.environ["JAVA_TOOL_OPTIONS"] = saved
        _dump("kafka", jvm.classpath(), [], lists, log)


def build(names: list[str]) -> int:
    """Build each archive that is missing or stale; 0 if every one is usable afterwards."""
    CDS_DIR.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in names:
        stamp = _stamp(name)
        if stamp is None:
            print(f"peers.cds: no {name} jars here: no archive", file=sys.stderr)
            continue
        if archive_option(name) is not None:
            continue  # built for these jars and this java already
        log = CDS_DIR / f"{name}.log"
        log.write_text("")
        t0 = time.monotonic()
        try:
            (build_spark if name == "spark" else build_kafka)(log)
        except (RuntimeError, OSError, subprocess.SubprocessError) as e:
            print(f"peers.cds: the {name} archive was not built ({e}); its JVMs run without it", file=sys.stderr)
            status = 1
            continue
        _stamp_file(name).write_text(stamp + "\n")
        print(f"peers.cds: {name} archive built in {time.monotonic() - t0:.0f} s ({_archive(name)})")
    return status


def main(argv: list[str]) -> int:
    if len(argv) >= 1 and argv[0] == "build":
        return build(argv[1:] or ["spark", "kafka"])
    if len(argv) == 2 and argv[0] == "opts":
        option = archive_option(argv[1])
        if option:
            print(option)
        return 0
    print("usage: python -m peers.cds build [spark|kafka ...] | opts spark|kafka", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
