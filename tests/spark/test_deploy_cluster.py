"""The README's Spark examples (examples/readme_examples.py) on Spark deployments beyond local mode:
a standalone cluster (a master and two workers, separate JVMs started from pyspark's own jars with
`spark-class`) through `spark-submit --py-files`, and a Spark Connect server with an `sc://` client. Each
run's tables must hold exactly the records the broker acknowledged: the reference digests are computed
from the producer's acknowledgements (checked equal to a `local[2]` run of the script), not from a
third Spark application.

Shipping is what is under test, so the executors' Python workers must not find the project any other
way: the shared venv has an editable install (a `.pth` pointing at the repo) and the tests run with
`PYTHONPATH` set. The workers therefore run an *isolated* Python — a fresh venv whose only addition is a
`.pth` line naming the shared venv's site-packages. A path listed in a `.pth` line is added to
`sys.path`, but the `.pth` files inside it are not processed, so the third-party dependencies (pyarrow,
deltalake, confluent-kafka, pyspark) are importable and the project is not (checked below). The master
and workers start with `PYTHONPATH` removed from their environment, and the test asserts that the
executors imported `connector` from the shipped zip.

The driver side (spark-submit's driver and its planner/stream-reader Python workers) gets the
package the way the README says a user installs it on the machine running the driver
(see README, "Running on a Spark cluster").
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from examples.readme_examples import digest
from scripts.pack_pyfiles import pack
from tests.spark.source_helpers import Rec, create_topic, produce

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPT = REPO_ROOT / "examples" / "readme_examples.py"
RECORDS = 600
COMMON_CONF: tuple[str, ...] = (
    "spark.ui.enabled=false",
    "spark.sql.shuffle.partitions=2",
    "spark.sql.streaming.stopTimeout=10s",
    "spark.driver.host=127.0.0.1",
    "spark.driver.bindAddress=127.0.0.1",
    "spark.executor.memory=640m",
    "spark.driver.memory=640m",
)
# scripts/test.sh gives every spark-submit JVM C1-only JIT and the serial GC (SPARK_SUBMIT_OPTS): the
# cluster's daemons and executors are started otherwise, so they get the same options here
TEST_JVM_OPTS = os.environ.get("SPARK_SUBMIT_OPTS", "").strip()
if TEST_JVM_OPTS:
    COMMON_CONF += (f"spark.executor.extraJavaOptions={TEST_JVM_OPTS}",)


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def conf_args(extra: tuple[str, ...] = ()) -> list[str]:
    return [arg for item in (*COMMON_CONF, *extra) for arg in ("--conf", item)]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would put the project on a Python worker's path."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON"}}
    env.update(SPARK_HOME=str(spark_home()), SPARK_LOCAL_IP="127.0.0.1", **extra)
    return env


class Daemon:
    """A Spark JVM started in its own process group, logging to a file."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name, self.log = name, log_dir / f"{name}.log"
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                cmd,
                env=env,
                cwd=log_dir,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_for(self, text: str, count: int = 1, timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log.read_text(errors="replace").count(text) >= count:
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.5)
        tail = self.log.read_text(errors="replace")[-3000:]
        raise AssertionError(f"{self.name}: {text!r} x{count} not logged (exit {self.proc.poll()}):\n{tail}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("deploy")


@pytest.fixture(scope="module")
def shipped(work: Path) -> Path:
    """The project zip, built the documented way (scripts/pack_pyfiles.py)."""
    return pack(work / "dist" / "pykafka_suite.zip")


@pytest.fixture(scope="module")
def isolated_python(work: Path) -> str:
    """A Python that has the project's dependencies but not the project (see the module docstring)."""
    venv = work / "isolated-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
        env=clean_env(),
    ).stdout.strip()
    (Path(site) / "shared-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    probe = "import importlib.util as u; import pyarrow, deltalake, pyspark; print(u.find_spec('connector'))"
    out = subprocess.run(
        [str(python), "-c", probe], check=True, capture_output=True, text=True, env=clean_env(), cwd=work
    ).stdout.strip()
    assert out == "None", f"the isolated Python still finds the project: {out}"
    return str(python)


@pytest.fixture(scope="module")
def deployed_records() -> Iterator[tuple[str, str, list[Rec]]]:
    with EmbeddedBroker(num_partitions=3) as b:
        create_topic(b, "events", 3)
        acked = produce(
            b, "events", [(i % 3, f"k{i % 17}".encode(), f"value-{i}".encode(), None) for i in range(RECORDS)]
        )
        yield b.bootstrap_servers, "events", acked


@pytest.fixture(scope="module")
def deploy_topic(deployed_records: tuple[str, str, list[Rec]]) -> tuple[str, str]:
    servers, topic, _ = deployed_records
    return servers, topic


@pytest.fixture(scope="module")
def standalone(work: Path) -> Iterator[str]:
    """A master and two workers (1 core, 1 GB each) as separate processes."""
    logs = work / "cluster-logs"
    logs.mkdir()
    spark_class = str(spark_home() / "bin" / "spark-class")
    port = free_port()
    master_url = f"spark://127.0.0.1:{port}"
    env = clean_env(SPARK_MASTER_OPTS="-Dspark.master.rest.enabled=false", SPARK_DAEMON_JAVA_OPTS=TEST_JVM_OPTS)
    daemons = [
        Daemon(
            "master",
            [
                spark_class,
                "org.apache.spark.deploy.master.Master",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--webui-port",
                "0",
            ],
            env,
            logs,
        )
    ]
    try:
        daemons[0].wait_for("I have been elected leader")
        for i in (1, 2):
            worker_dir = work / f"worker-{i}"
            daemons.append(
                Daemon(
                    f"worker-{i}",
                    [
                        spark_class,
                        "org.apache.spark.deploy.worker.Worker",
                        "--host",
                        "127.0.0.1",
                        "--cores",
                        "1",
                        "--memory",
                        "1g",
                        "--webui-port",
                        "0",
                        "--work-dir",
                        str(worker_dir),
                        master_url,
                    ],
                    env,
                    logs,
                )
            )
        daemons[0].wait_for("Registering worker", count=2)
        yield master_url
    finally:
        for d in reversed(daemons):
            d.stop()


def last_json(out: str, err: str) -> dict[str, Any]:
    for line in reversed(out.splitlines()):
        if line.startswith("{") and '"run"' in line:
            return json.loads(line)
    raise AssertionError(f"no result line\n--- stdout\n{out[-4000:]}\n--- stderr\n{err[-6000:]}")


def run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 420) -> dict[str, Any]:
    proc = subprocess.Popen(
        cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"timed out: {cmd}\n{err[-6000:]}") from None
    assert proc.returncode == 0, f"exit {proc.returncode}\n--- stdout\n{out[-4000:]}\n--- stderr\n{err[-6000:]}"
    return last_json(out, err)


def script_args(deploy_topic: tuple[str, str], work: Path, run_name: str) -> list[str]:
    servers, topic = deploy_topic
    return ["--bootstrap-servers", servers, "--topic", topic, "--workdir", str(work / "tables"), "--run", run_name]


RESULT_KEYS = ("source_batch", "sink_stream", "delta_stream", "delta_batch", "group_delta")


def expected_digests(acked: list[Rec]) -> dict[str, Any]:
    """Each example's digest as the script computes it (readme_examples.digest over the rows it reads
    back), built from what the broker acknowledged: the source's rows, the sink's upper-cased
    (key, value) strings, and the Delta tables' (partition, offset, value bytes)."""
    assert len(acked) == RECORDS
    text = [(r.partition, r.offset, r.key.decode(), r.value.decode()) for r in acked]  # type: ignore[union-attr]
    delta = [(p, o, v.encode()) for p, o, _, v in text]
    return {
        "source_batch": digest(text),
        "sink_stream": digest([(k, v.upper()) for _, _, k, v in text]),
        "delta_stream": digest(delta),
        "delta_batch": digest(delta),
        "group_delta": digest(delta),
    }


@pytest.fixture(scope="module")
def expected_tables(deployed_records: tuple[str, str, list[Rec]]) -> dict[str, Any]:
    """The reference every deployment must produce (see expected_digests)."""
    return expected_digests(deployed_records[2])


def assert_same_tables(result: dict[str, Any], reference: dict[str, Any]) -> None:
    assert {k: result[k] for k in RESULT_KEYS} == {k: reference[k] for k in RESULT_KEYS}


def test_standalone_cluster_spark_submit_py_files(
    standalone: str,
    shipped: Path,
    isolated_python: str,
    deploy_topic: tuple[str, str],
    work: Path,
    expected_tables: dict[str, Any],
) -> None:
    # executors: only --py-files; the driver machine: the package installed (here: the zip on its path)
    env = clean_env(PYSPARK_PYTHON=isolated_python, PYSPARK_DRIVER_PYTHON=isolated_python, PYTHONPATH=str(shipped))
    cmd = [str(spark_home() / "bin" / "spark-submit"), "--master", standalone, "--py-files", str(shipped)]
    cmd += [*conf_args(), str(SCRIPT), *script_args(deploy_topic, work, "standalone")]
    result = run(cmd, env, work)
    # the executors' Python workers imported the package from the shipped zip (in their work dir)
    assert result["executor_connector_file"] == f"./{shipped.name}/connector/__init__.py", result
    assert_same_tables(result, expected_tables)


def test_spark_connect_server(
    shipped: Path, isolated_python: str, deploy_topic: tuple[str, str], work: Path, expected_tables: dict[str, Any]
) -> None:
    """A Spark Connect server (local[2], pyspark's spark-connect jar) and an sc:// client that ships the
    zip as a session artifact and registers the formats. The server's own Python workers get the package
    as installed on the server (PYTHONPATH), so this checks the artifact path by where executors import
    `connector` from, not by isolation."""
    port = free_port()
    logs = work / "connect-logs"
    logs.mkdir()
    env = clean_env(PYSPARK_PYTHON=isolated_python, PYTHONPATH=str(shipped))
    cmd = [str(spark_home() / "bin" / "spark-submit"), "--master", "local[2]"]
    cmd += ["--class", "org.apache.spark.sql.connect.service.SparkConnectServer"]
    cmd += conf_args((f"spark.connect.grpc.binding.port={port}", "spark.connect.grpc.binding.address=127.0.0.1"))
    cmd += ["spark-internal"]
    server = Daemon("connect-server", cmd, env, logs)
    try:
        server.wait_for("Spark Connect server started")
        client_env = {**os.environ, "PYSPARK_PYTHON": sys.executable}
        client = [sys.executable, str(SCRIPT), "--remote", f"sc://127.0.0.1:{port}", "--pyfiles", str(shipped)]
        client += ["--register", *script_args(deploy_topic, work, "connect")]
        result = run(client, client_env, work)
    finally:
        server.stop()
    # the executors' workers import the session artifact (in the server's userFiles/<session>/ dir)
    assert "/userFiles-" in result["executor_connector_file"], result
    assert result["executor_connector_file"].endswith(f"/{shipped.name}/connector/__init__.py"), result
    assert_same_tables(result, expected_tables)
