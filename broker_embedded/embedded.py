"""EmbeddedBroker: a broker on a free port of 127.0.0.1, in a background thread of this process.

    with EmbeddedBroker(num_partitions=4) as b:
        producer = Producer({"bootstrap.servers": b.bootstrap_servers})

A temporary log dir is removed on exit; a given ``log_dir`` is kept, and a broker started again on
it finds every acknowledged record where it was.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import threading
import weakref
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broker_embedded.broker import Broker
from broker_embedded.config import BrokerConfig
from broker_embedded.dynamic_config import listener_keystores
from broker_embedded.loop_watchdog import LoopStallWatchdog
from broker_embedded.network.server import KafkaServer, Listener
from broker_embedded.quotas.connections import ConnectionQuotas
from broker_embedded.quotas.enforce import monotonic_ms
from broker_embedded.security.client import InterBrokerSecurity
from broker_embedded.security.listeners import Endpoint
from broker_embedded.security.manager import SecurityManager

if TYPE_CHECKING:  # imported with secure=True only: it generates certificates with cryptography
    from broker_embedded.security.secure_setup import SecureSetup

log = logging.getLogger(__name__)


def new_event_loop() -> asyncio.AbstractEventLoop:
    try:
        import uvloop

        return uvloop.new_event_loop()
    except ImportError:  # uvloop is optional (the `fast` extra)
        return asyncio.new_event_loop()


class BrokerRunner:
    """Owns a Broker and its server on a given event loop (shared by the CLI and EmbeddedBroker)."""

    def __init__(self, config: BrokerConfig, log_dir: Path) -> None:
        self.config = config
        self.log_dir = log_dir
        self.broker: Broker | None = None
        self.server: KafkaServer | None = None
        self.security: SecurityManager | None = None
        # each listener as bound (port 0 replaced by the port picked), in `listeners` order
        self.endpoints: list[Endpoint] = []
        self.advertised: dict[str, tuple[str, int]] = {}
        self.watchdog: LoopStallWatchdog | None = None

    async def start(self) -> int:
        loop = asyncio.get_running_loop()
        # listeners, TLS contexts, SASL users, SCRAM credentials and ACLs (config errors surface here)
        self.security = await loop.run_in_executor(None, SecurityManager, self.config, self.log_dir)
        # opening logs may scan segments after a crash: keep it off the loop's critical path
        self.broker = await loop.run_in_executor(None, Broker, self.config, self.log_dir)
        # dynamic listener keystores (KIP-226): the stored ones apply before the listeners open
        dynamic = self.broker.dynamic_config
        dynamic.keystore_validator = self.security.validate_keystores
        dynamic.keystore_reloader = self.security.reload_keystores
        stored = listener_keystores(dynamic.current(str(self.broker.node_id)))
        if stored:
            self.security.reload_keystores(stored)
        if self.broker.controller_client is not None:
            # cluster mode: SCRAM credentials and ACLs come with the controller's images, and
            # followers reach leaders over the inter-broker listener's TLS/SASL
            self.broker.controller_client.security_listeners.append(self.security.apply_cluster_security)
            inter = InterBrokerSecurity(self.config)
            if inter.listener.uses_tls or inter.listener.uses_sasl:
                self.broker.replica_manager.inter_broker_security = inter
        self.server = KafkaServer(
            self.broker.dispatch,
            self.config["socket.request.max.bytes"],
            self.config["connections.max.idle.ms"],
            queued_max_request_bytes=self.config["queued.max.request.bytes"],
            queued_max_response_bytes=self.config["queued.max.response.bytes"],
            request_read_timeout_ms=self.config["socket.request.read.timeout.ms"],
            security=self.security,
        )
        self.server.disconnect_listeners.append(self.broker.share_coordinator.on_disconnect)
        # ip entities' connection_creation_rate (kafka-configs --entity-type ips), Kafka's ConnectionQuotas
        self.server.connection_quotas = ConnectionQuotas(
            self.broker.client_quotas.store,
            self.config["quota.window.num"],
            self.config["quota.window.size.seconds"],
            monotonic_ms,
        )
        self.endpoints = []
        for e in self.security.listeners.listeners:
            bound = await self.server.start(
                e.host, e.port, Listener(e.name, e.security_protocol), self.security.ssl_context(e.name)
            )
            self.endpoints.append(Endpoint(e.name, e.security_protocol, e.host, bound))
        # what clients are told per listener (advertised.listeners, port 0 there: the bound port)
        for e in self.endpoints:
            adv = self.security.listeners.advertised.get(e.name)
            host = adv.host if adv is not None else e.host
            host = self.config["host.name"] if host in ("0.0.0.0", "::") else host
            self.advertised[e.name] = (host, adv.port if adv is not None and adv.port else e.port)
        # Metadata/FindCoordinator/DescribeCluster tell each client its own listener's address
        self.security.advertised = dict(self.advertised)
        # the broker's own address (registration, replication): the inter-broker listener's
        port = self.endpoints[0].port
        self.broker.host, self.broker.port = self.advertised[self.security.listeners.inter_broker]
        self.broker.start(loop)
        # a blocked loop freezes every client of this broker: say so in the log, with where it stands
        self.watchdog = LoopStallWatchdog(loop, threading.get_ident())
        self.watchdog.start()
        if self.broker.controller_client is not None:
            # every advertised listener goes to the controller, so each broker's Metadata can name
            # the others on the listener a client connected on
            self.broker.controller_client.listeners = dict(self.advertised)
            # cluster mode: registered, and the controller's image applied, before clients are told
            await self.broker.controller_client.start()
        return port

    async def stop(self) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()
        if self.broker is not None and self.broker.controller_client is not None:
            # controlled shutdown: leadership moves away while this broker still answers
            await self.broker.controller_client.controlled_shutdown()
        if self.server is not None:
            await self.server.stop()
        if self.broker is not None:
            await self.broker.replica_manager.stop_fetchers()  # follower fetch tasks end cleanly
            self.broker.shutdown()


class EmbeddedBroker:
    """``secure=True``: TLS and SASL listeners with a fresh CA, certificates and users (see
    `security.secure_setup.SecureSetup`, exposed as ``self.secure``); ``acls=True`` also enables
    the StandardAuthorizer with ``admin`` as super user. Explicit configs win over both."""

    def __init__(
        self, log_dir: str | Path | None = None, port: int = 0, secure: bool = False, acls: bool = False, **configs: Any
    ) -> None:
        self._temp_dir = log_dir is None
        self.log_dir = Path(tempfile.mkdtemp(prefix="pykafka-broker-")) if log_dir is None else Path(log_dir)
        values: dict[str, Any] = {}
        self.secure: SecureSetup | None = None
        if secure:
            from broker_embedded.security.secure_setup import SecureSetup

            self._secrets_dir = Path(tempfile.mkdtemp(prefix="pykafka-secure-"))
            self.secure = SecureSetup.create(self._secrets_dir)
            # the certificates outlive a stop(): the broker may be started again with them
            weakref.finalize(self, shutil.rmtree, self._secrets_dir, True)
            values.update(self.secure.broker_configs(authorizer=acls))
        for k, v in configs.items():
            values[k] = v
        values["port"] = port
        self.config = BrokerConfig(values)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: BrokerRunner | None = None
        self.port: int | None = None

    @property
    def bootstrap_servers(self) -> str:
        if self.port is None:
            raise RuntimeError("the broker is not running")
        if self._runner is not None and self._runner.endpoints:
            return self.bootstrap(self._runner.endpoints[0].name)
        return f"{self.config['host.name']}:{self.port}"

    def bootstrap(self, listener: str) -> str:
        """HOST:PORT of one listener (`listeners=...`), e.g. ``b.bootstrap("SASL_SSL")``."""
        if self._runner is None or self.port is None:
            raise RuntimeError("the broker is not running")
        for e in self._runner.endpoints:
            if e.name == listener.upper():
                return f"{'127.0.0.1' if e.host in ('0.0.0.0', '::') else e.host}:{e.port}"
        names = ", ".join(e.name for e in self._runner.endpoints)
        raise ValueError(f"no listener {listener!r}; the listeners are {names}")

    @property
    def security(self) -> SecurityManager:
        assert self._runner is not None and self._runner.security is not None
        return self._runner.security

    @property
    def broker(self) -> Broker:
        assert self._runner is not None and self._runner.broker is not None
        return self._runner.broker

    @property
    def loop_stalls(self) -> int:
        """How many times the broker's event loop stood still 5 s or more (each logged with the loop
        thread's stack): while it stands, no request, timer or fetch is served."""
        runner = self._runner
        return runner.watchdog.stalls if runner is not None and runner.watchdog is not None else 0

    def start(self) -> EmbeddedBroker:
        ready: Future[int] = Future()
        loop = new_event_loop()
        self._loop = loop
        self._runner = BrokerRunner(self.config, self.log_dir)

        def run() -> None:
            asyncio.set_event_loop(loop)

            async def boot() -> None:
                try:
                    # _runner is set before boot() is scheduled
                    ready.set_result(await self._runner.start())  # type: ignore[union-attr]
                except BaseException as e:  # surface startup errors in the caller's thread
                    ready.set_exception(e)

            loop.create_task(boot())
            loop.run_forever()

        self._thread = threading.Thread(target=run, name="pykafka-broker", daemon=True)
        self._thread.start()
        try:
            self.port = ready.result(timeout=60)
        except BaseException:
            self._stop_loop()
            raise
        if self.secure is not None:
            for user, password in self.secure.users.items():
                self.call(lambda _b, u=user, pw=password: self.security.add_scram_user(u, pw))
        return self

    def call(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(broker, *args)`` on the broker's loop thread and return its result."""
        assert self._loop is not None

        async def run() -> Any:
            return fn(self.broker, *args)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout=60)

    def _stop_loop(self) -> None:
        loop = self._loop
        if loop is None:
            return
        if loop.is_running():
            loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=30)
        loop.close()
        self._loop = None

    def stop(self) -> None:
        if self._loop is not None and self._runner is not None and self._loop.is_running():
            fut = asyncio.run_coroutine_threadsafe(self._runner.stop(), self._loop)
            try:
                fut.result(timeout=30)
            except Exception:
                log.exception("broker shutdown failed")
        self._stop_loop()
        self.port = None
        if self._temp_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)

    def __enter__(self) -> EmbeddedBroker:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
