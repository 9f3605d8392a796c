"""EmbeddedCluster: controllers (one active, the others standbys) and N brokers, each its own OS process
on 127.0.0.1.

    with EmbeddedCluster(brokers=3, **{"min.insync.replicas": 2}) as c:
        producer = Producer({"bootstrap.servers": c.bootstrap_servers})
        c.kill(c.leader("t", 0))          # SIGKILL: a crash
        c.start(old_leader)              # same node id, port and log dir
        c.kill_controller()              # the active controller: a standby takes over

Separate processes so a test can really kill one. Every child watches its stdin: when this process
goes away (even by SIGKILL) the pipe closes and the children exit, so nothing is left running.
A temporary `log_dir` is removed on exit; a given one is kept (`controller/`, `broker-<id>/`).
"""

from __future__ import annotations

import base64
import json
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from broker_embedded.security.secure_setup import SecureSetup

_LEN = struct.Struct(">I")


def _format(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return ",".join(str(x) for x in v)
    return str(v)


def _normalize(key: str) -> str:
    return key.replace("_", ".") if "." not in key else key


class _Child:
    """One child process and the line it prints when ready."""

    def __init__(self, name: str, argv: list[str], log_path: Path, ready_prefix: str, timeout: float) -> None:
        self.name = name
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self._stderr: IO[bytes] = open(log_path, "ab")  # noqa: SIM115 - closed in wait()
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            start_new_session=True,
        )
        self.line = self._read_ready_line(ready_prefix, timeout, log_path)
        # keep draining stdout so the child never blocks on a full pipe
        threading.Thread(target=self._drain, daemon=True).start()

    def _read_ready_line(self, prefix: str, timeout: float, log_path: Path) -> str:
        assert self.proc.stdout is not None
        result: list[str] = []

        def read() -> None:
            assert self.proc.stdout is not None
            for raw in self.proc.stdout:
                line = raw.decode().strip()
                if line.startswith(prefix):
                    result.append(line[len(prefix) :])
                    return

        t = threading.Thread(target=read, daemon=True)
        t.start()
        t.join(timeout)
        if not result:
            self.kill()
            tail = log_path.read_text(errors="replace")[-3000:] if log_path.exists() else ""
            raise RuntimeError(f"{self.name} did not become ready in {timeout}s; its log ends with:\n{tail}")
        return result[0]

    def _drain(self) -> None:
        with_stdout = self.proc.stdout
        if with_stdout is None:
            return
        try:
            for _ in with_stdout:
                pass
        except (OSError, ValueError):
            pass

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.wait(10)

    def terminate(self, timeout: float = 30.0) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.wait(10)

    def wait(self, timeout: float) -> None:
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout)
        for f in (self.proc.stdin, self._stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


class ControllerHost(NamedTuple):
    """Where a controller (or a broker: `broker_hosts`) runs when it is not on 127.0.0.1: its own address, and
    the argv prefix that starts a process there (a network namespace: `ip netns exec NAME`; testsupport/netns.py
    makes them)."""

    address: str
    argv_prefix: tuple[str, ...] = ()


class EmbeddedCluster:
    """`controllers` controller processes plus `brokers` broker processes (node ids 1..N) on 127.0.0.1. With
    `quorum="lock"` (the default for 1 or 2 controllers) the controllers share one state directory (the one
    holding its flock is active, the others are standbys); with `quorum="raft"` (the default for 3 or more) they
    form a Raft quorum on the `__cluster_metadata` log, each with its own directory, as KRaft's do."""

    def __init__(
        self,
        brokers: int = 3,
        log_dir: str | Path | None = None,
        startup_timeout: float = 60.0,
        log_level: str = "WARNING",
        controllers: int = 2,
        secure: bool = False,
        acls: bool = False,
        quorum: str | None = None,
        controller_hosts: dict[int, ControllerHost] | None = None,
        log_dirs_per_broker: int = 1,
        broker_hosts: dict[int, ControllerHost] | None = None,
        **configs: Any,
    ) -> None:
        if quorum is None:  # three or more controllers form a Raft quorum, as KRaft's do (issue 32)
            quorum = "raft" if controllers >= 3 else "lock"
        if quorum not in ("lock", "raft"):
            raise ValueError(f"quorum must be 'lock' (shared directory + flock) or 'raft', got {quorum!r}")
        # quorum="raft" runs the controllers as a Raft quorum, each with its own directory (issue 32)
        self.quorum = quorum
        if brokers < 1:
            raise ValueError(f"brokers must be at least 1, got {brokers}")
        if controllers < 1:
            raise ValueError(f"controllers must be at least 1, got {controllers}")
        self.num_brokers = brokers
        if log_dirs_per_broker < 1:
            raise ValueError(f"log_dirs_per_broker must be at least 1, got {log_dirs_per_broker}")
        # several log dirs per broker (JBOD, log.dirs): broker-<id>/dir-0 ... (broker_log_dirs)
        self.log_dirs_per_broker = log_dirs_per_broker
        self._temp_dir = log_dir is None
        self.log_dir = Path(tempfile.mkdtemp(prefix="pykafka-cluster-")) if log_dir is None else Path(log_dir)
        # secure=True: SASL_SSL brokers (PLAIN between them), the controller on mutual TLS, users and
        # certificates for clients in `self.secure` (acls=True: StandardAuthorizer, admin super user)
        self.secure: SecureSetup | None = None
        base: dict[str, Any] = {}
        if secure:
            from broker_embedded.security.secure_setup import SecureSetup

            self.secure = SecureSetup.create(self.log_dir / "secure")
            base = self.secure.cluster_configs(authorizer=acls)
        if quorum == "raft":
            # brokers observe __cluster_metadata (controller.quorum.voters, see _spawn_broker): they take their
            # metadata from the log, as KRaft brokers do, not from a push by the active controller
            base = {"controller.metadata.push.enable": "false", **base}
            # every node formatted with one cluster id, as kafka-storage format does: the controllers' Raft
            # listeners then refuse requests naming another cluster (INCONSISTENT_CLUSTER_ID)
            base["cluster.id"] = _cluster_id_of(self.log_dir)
        self.configs = {_normalize(k): _format(v) for k, v in {**base, **configs}.items()}
        self.startup_timeout = startup_timeout
        self.log_level = log_level
        self.broker_ids = list(range(1, brokers + 1))
        self.ports: dict[int, int] = {}
        self.controller_ids = list(range(controllers))
        self.controller_ports: dict[int, int] = {}
        self._brokers: dict[int, _Child] = {}
        self._controllers: dict[int, _Child] = {}
        self.raft_ports: dict[int, int] = {}
        self._answered_last: int | None = None  # the controller that last answered a request (_controller_request)
        # controller index -> its own host (issue 32: controllers on separate test hosts); default 127.0.0.1
        self.controller_hosts = dict(controller_hosts or {})
        if set(self.controller_hosts) - set(self.controller_ids):
            raise ValueError(f"controller_hosts names unknown controllers: {sorted(self.controller_hosts)}")
        if quorum == "raft":
            self.raft_ports = {i: _free_port() for i in self.controller_ids}
        # broker id -> its own host (issue 32: brokers on separate test hosts too); default 127.0.0.1
        self.broker_hosts = dict(broker_hosts or {})
        if set(self.broker_hosts) - set(self.broker_ids):
            raise ValueError(f"broker_hosts names unknown brokers: {sorted(self.broker_hosts)}")

    # --- processes -------------------------------------------------------------------------------
    def _overrides(self) -> list[str]:
        out: list[str] = []
        for k, v in self.configs.items():
            out += ["--override", f"{k}={v}"]
        return out

    def _base_argv(self) -> list[str]:
        return [sys.executable, "-m", "broker_embedded"]

    @property
    def controller_address(self) -> str:
        """Every controller's HOST:PORT, comma-separated (controller.quorum.bootstrap.servers)."""
        if not self.controller_ports:
            raise RuntimeError("no controller has been started")
        return ",".join(f"{self.controller_host(i)}:{self.controller_ports[i]}" for i in sorted(self.controller_ports))

    def controller_host(self, i: int) -> str:
        """The address controller `i` listens on (its Raft listener too)."""
        host = self.controller_hosts.get(i)
        return "127.0.0.1" if host is None else host.address

    @property
    def controller_port(self) -> int | None:
        """The active controller's port (None when none is active)."""
        i = self.active_controller()
        return None if i is None else self.controller_ports[i]

    @property
    def _controller(self) -> _Child | None:
        return self._controllers.get(self.controller_ids[0])

    def controller_pid(self, i: int) -> int:
        return self._controllers[i].proc.pid

    def start_controller(self, i: int | None = None) -> None:
        """Start controller `i` (same port and state dir as before), or, with no index, every one not running."""
        if i is None:
            for j in self.controller_ids:
                child = self._controllers.get(j)
                if child is None or not child.alive:
                    self.start_controller(j)
            return
        if i not in self.controller_ids:
            raise ValueError(f"unknown controller {i}; the controllers are {self.controller_ids}")
        old = self._controllers.get(i)
        if old is not None and old.alive:
            raise RuntimeError(f"controller {i} is already running")
        host = self.controller_hosts.get(i)
        argv = (
            [*(host.argv_prefix if host else ())]
            + self._base_argv()
            + [
                "controller",
                "--host",
                self.controller_host(i),
                "--port",
                str(self.controller_ports.get(i, 0)),
                "--log-dir",
                str(self.log_dir / ("controller" if self.quorum == "lock" else f"controller-{i}")),
                "--log-level",
                self.log_level,
                "--exit-on-stdin-eof",
                *self._overrides(),
            ]
        )
        if self.quorum == "raft":  # Raft node ids = controller indexes (brokers are 1..N on other ports)
            argv += ["--node-id", str(i), "--quorum-voters", self._raft_voters()]
        name = "controller.log" if i == 0 else f"controller-{i}.log"
        child = _Child(f"controller {i}", argv, self.log_dir / name, "controller=", self.startup_timeout)
        self.controller_ports[i] = int(child.line.rsplit(":", 1)[1])
        self._controllers[i] = child

    def controller_running(self, i: int) -> bool:
        child = self._controllers.get(i)
        return child is not None and child.alive

    def active_controller(self, timeout: float = 2.0) -> int | None:
        """The index of the controller that serves (holds the lock), or None when none does."""
        for i in self.controller_ids:
            if not self.controller_running(i):
                continue
            try:
                self._request_to(self.controller_ports[i], "describe", timeout, host=self.controller_host(i))
            except (OSError, RuntimeError):
                continue
            self._answered_last = i
            return i
        return None

    def kill_controller(self, i: int | None = None) -> int | None:
        """SIGKILL controller `i` (default: the active one); returns the index killed."""
        if i is None:
            i = self.active_controller()
            if i is None:
                return None
        child = self._controllers.get(i)
        if child is not None:
            child.kill()
        return i

    def stop_controller(self, i: int | None = None) -> None:
        """SIGTERM controller `i`, or, with no index, every controller."""
        for j in self.controller_ids if i is None else [i]:
            child = self._controllers.get(j)
            if child is not None:
                child.terminate()

    def _raft_voters(self) -> str:
        return ",".join(f"{j}@{self.controller_host(j)}:{p}" for j, p in sorted(self.raft_ports.items()))

    def _spawn_broker(self, broker_id: int) -> _Child:
        # quorum="raft": each broker also observes __cluster_metadata (fetches it from the quorum leader)
        observe = ["--override", f"controller.quorum.voters={self._raft_voters()}"] if self.raft_ports else []
        host = self.broker_hosts.get(broker_id)
        placed = [*host.argv_prefix] if host else []
        placed_on = ["--host", host.address] if host else []
        argv = (
            placed
            + self._base_argv()
            + [
                "--node-id",
                str(broker_id),
                "--controller",
                self.controller_address,
                "--port",
                str(self.ports.get(broker_id, 0)),
                "--log-dir",
                str(self.log_dir / f"broker-{broker_id}"),
                "--log-level",
                self.log_level,
                "--exit-on-stdin-eof",
                *placed_on,
                *self._overrides(),
                *observe,
            ]
        )
        if self.log_dirs_per_broker > 1:
            argv += ["--override", "log.dirs=" + ",".join(str(d) for d in self.broker_log_dirs(broker_id))]
        return _Child(
            f"broker {broker_id}",
            argv,
            self.log_dir / f"broker-{broker_id}.log",
            "bootstrap.servers=",
            self.startup_timeout,
        )

    def start(self, broker_id: int | None = None) -> EmbeddedCluster:
        """Start one broker (restart after kill/stop: same port and log dir), or, with no id, everything."""
        if broker_id is None:
            return self._start_all()
        if broker_id not in self.broker_ids:
            raise ValueError(f"unknown broker id {broker_id}; the brokers are {self.broker_ids}")
        old = self._brokers.get(broker_id)
        if old is not None and old.alive:
            raise RuntimeError(f"broker {broker_id} is already running")
        child = self._spawn_broker(broker_id)
        self.ports[broker_id] = int(child.line.rsplit(":", 1)[1])
        self._brokers[broker_id] = child
        return self

    def _start_all(self) -> EmbeddedCluster:
        try:
            self.start_controller()  # the first one takes the lock: it is the active one
            # started one after the other: each needs its port; startup is well under a second
            for broker_id in self.broker_ids:
                self.start(broker_id)
            self.wait_for(lambda: len(self.live_brokers()) == self.num_brokers, what="all brokers registered")
            if self.secure is not None:
                self._seed_scram_users()
        except BaseException:
            self.close()
            raise
        return self

    def _seed_scram_users(self) -> None:
        """The secure setup's users for both SCRAM mechanisms, as controller metadata (every broker
        gets them with the next image)."""
        from broker_embedded.security.scram import MECHANISMS, credential_from_password

        assert self.secure is not None
        upserts = [
            [user, m, credential_from_password(m, password).to_json()]
            for user, password in self.secure.users.items()
            for m in MECHANISMS
        ]
        for i in self.controller_ids:
            if self.controller_running(i):
                try:
                    self._request_to(
                        self.controller_ports[i],
                        "alter_scram",
                        10.0,
                        host=self.controller_host(i),
                        deletions=[],
                        upserts=upserts,
                    )
                    return
                except (OSError, RuntimeError):
                    continue
        raise RuntimeError("no active controller took the SCRAM users")

    def kill(self, broker_id: int) -> None:
        """SIGKILL: the broker dies without a controlled shutdown (the controller notices by its session)."""
        self._brokers[broker_id].kill()

    def stop(self, broker_id: int) -> None:
        """SIGTERM: a controlled shutdown (leadership moves away first), then the process exits."""
        self._brokers[broker_id].terminate()

    def is_running(self, broker_id: int) -> bool:
        child = self._brokers.get(broker_id)
        return child is not None and child.alive

    def pid(self, broker_id: int) -> int:
        return self._brokers[broker_id].proc.pid

    def broker_log_dir(self, broker_id: int) -> Path:
        return self.log_dir / f"broker-{broker_id}"

    def broker_log_dirs(self, broker_id: int) -> list[Path]:
        """The broker's `log.dirs` (its partitions' dirs): the broker dir itself, or with
        `log_dirs_per_broker` > 1 that many dirs in it (created by the broker; a test may mount them first)."""
        if self.log_dirs_per_broker == 1:
            return [self.broker_log_dir(broker_id)]
        return [self.broker_log_dir(broker_id) / f"dir-{i}" for i in range(self.log_dirs_per_broker)]

    def close(self) -> None:
        for child in list(self._brokers.values()):
            child.kill()
        for child in list(self._controllers.values()):
            child.kill()
        self._brokers.clear()
        self._controllers.clear()
        if self._temp_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- addresses and the controller's view ------------------------------------------------------
    @property
    def bootstrap_servers(self) -> str:
        return ",".join(self.bootstrap(b) for b in self.broker_ids if b in self.ports)

    def bootstrap(self, broker_id: int) -> str:
        host = self.broker_hosts.get(broker_id)
        return f"{'127.0.0.1' if host is None else host.address}:{self.ports[broker_id]}"

    def _controller_request(self, op: str, timeout: float = 5.0) -> dict[str, Any]:
        """Ask the active controller (standbys answer NOT_CONTROLLER and are skipped). The one that answered last
        is asked first: a paused controller (SIGSTOP) before it in order would cost a whole timeout each time."""
        last: Exception = RuntimeError("no controller is running")
        known = self._answered_last
        for i in sorted(self.controller_ids, key=lambda j: j != known):
            if not self.controller_running(i):
                continue
            try:
                answer = self._request_to(self.controller_ports[i], op, timeout, host=self.controller_host(i))
            except (OSError, RuntimeError) as e:
                last = e
                continue
            self._answered_last = i
            return answer
        if isinstance(last, OSError):
            raise last
        raise ConnectionError(f"no active controller: {last}")

    def _request_to(self, port: int, op: str, timeout: float, host: str = "127.0.0.1", **fields: Any) -> dict[str, Any]:
        with socket.create_connection((host, port), timeout) as raw:
            s = raw
            if self.secure is not None:  # the controller accepts only certificates of the cluster's CA
                s = self.secure.controller_client_context().wrap_socket(raw, server_hostname=host)
            body = json.dumps({"op": op, "id": 1, **fields}).encode()
            s.sendall(_LEN.pack(len(body)) + body)
            (size,) = _LEN.unpack(_recv_exact(s, 4))
            msg: dict[str, Any] = json.loads(_recv_exact(s, size))
        if msg.get("error"):
            raise RuntimeError(f"controller {op} failed: {msg.get('message')}")
        return msg

    def describe(self, timeout: float = 5.0) -> dict[str, Any]:
        """The controller's current image (brokers, topics, partition states)."""
        return self._controller_request("describe", timeout)["image"]

    def elect_preferred_leaders(self) -> int:
        """Run the controller's preferred leader election now; returns how many leaders moved."""
        return int(self._controller_request("elect_preferred_leaders")["moved"])

    def partition_count(self, topic: str) -> int:
        for t in self.describe()["topics"]:
            if t["name"] == topic:
                return len(t["partitions"])
        raise KeyError(f"{topic} is not in the controller's image")

    def partition_state(self, topic: str, partition: int) -> dict[str, Any]:
        for t in self.describe()["topics"]:
            if t["name"] == topic:
                if 0 <= partition < len(t["partitions"]):
                    return t["partitions"][partition]
        raise KeyError(f"{topic}-{partition} is not in the controller's image")

    def leader(self, topic: str, partition: int) -> int:
        """The partition's leader as the controller sees it (-1: offline)."""
        return int(self.partition_state(topic, partition)["leader"])

    def isr(self, topic: str, partition: int) -> list[int]:
        return [int(r) for r in self.partition_state(topic, partition)["isr"]]

    def live_brokers(self) -> list[int]:
        return sorted(int(b["node_id"]) for b in self.describe()["brokers"] if not b["fenced"])

    def wait_for(self, condition: Any, timeout: float = 30.0, interval: float = 0.05, what: str = "condition") -> Any:
        """Poll `condition()` until it returns something truthy; raises TimeoutError naming `what`."""
        deadline = time.monotonic() + timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            try:
                result = condition()
                if result:
                    return result
            except (OSError, KeyError, ValueError) as e:
                last_error = e
            time.sleep(interval)
        raise TimeoutError(
            f"timed out after {timeout}s waiting for {what}" + (f" ({last_error!r})" if last_error else "")
        )


def _recv_exact(s: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("the controller closed the connection")
        buf += chunk
    return bytes(buf)


def run_cluster_cli(
    brokers: int,
    log_dir: str | None,
    overrides: dict[str, str],
    log_level: str,
    controllers: int = 2,
    quorum: str | None = None,
) -> int:
    """`python -m broker_embedded cluster`: start everything, print the bootstrap line, wait for SIGTERM."""
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    cluster = EmbeddedCluster(
        brokers=brokers,
        log_dir=log_dir,
        log_level=log_level,
        controllers=controllers,
        quorum=quorum,
        # Kafka config names (dotted) never name one of the parameters above
        **overrides,  # type: ignore[arg-type]
    )
    try:
        cluster.start()
        sys.stdout.write(f"bootstrap.servers={cluster.bootstrap_servers}\n")
        sys.stdout.flush()
        while not stop.wait(0.5):
            pass
        for b in cluster.broker_ids:
            if cluster.is_running(b):
                cluster.stop(b)
        cluster.stop_controller()
    finally:
        cluster.close()
    return 0


__all__ = ["ControllerHost", "EmbeddedCluster", "run_cluster_cli"]


def _cluster_id_of(log_dir: Path) -> str:
    """The cluster id of the cluster in `log_dir`: a new one in Kafka's format (Uuid.randomUuid().toString(),
    22 characters of URL-safe base64), kept in the dir so a cluster started again on it keeps its id."""
    path = log_dir / "cluster.id"
    if path.exists():
        return path.read_text().strip()
    cluster_id = base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()
    log_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(cluster_id + "\n")
    return cluster_id


def _free_port() -> int:
    """A port for a controller's Raft listener (the voters must know each other's before they start)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
