"""Where this broker serves the share coordinator's RPCs (83-87) from: the single broker's persister
(``ShareCoordinator.persist_to``), or in a cluster the ``ClusterShareState`` of the
``__share_group_state`` partitions it leads (created on first use, so nothing changes for clusters
that never see a share-state RPC)."""

from __future__ import annotations

import asyncio
import base64
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.share.cluster_state import ClusterShareState
from broker_embedded.share.manager import share_key
from broker_embedded.share.persister import SharePersister
from broker_embedded.share.remote_persister import DEFAULT_RETRY_TIMEOUT_MS, RemotePersister
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult, not_coordinator
from kafka_wire.client import BrokerConnection
from kafka_wire.client.security import SecurityConfig
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import find_coordinator_request as fc

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ControllerClient
    from broker_embedded.group.share_coordinator import ShareCoordinator
    from broker_embedded.security.client import InterBrokerSecurity

_create_lock = threading.Lock()


def cluster_share_state(
    share: ShareCoordinator,
    controller_client: ControllerClient | None,
    create: Callable[[ControllerClient], ClusterShareState],
) -> ClusterShareState | None:
    """The share coordinator's cluster side, created on first use (None on a single broker)."""
    if controller_client is None:
        return None
    with _create_lock:
        if share.cluster_state is None:
            share.cluster_state = create(controller_client)
        return share.cluster_state


def serve(
    share: ShareCoordinator,
    cluster: ClusterShareState | None,
    operation: str,
    keys: list[ShareGroupStateKey],
    call: Callable[[ShareStateService, int], StateResult],
    writes: bool,
) -> list[StateResult] | asyncio.Future[list[StateResult]]:
    """Results for `keys` (call(service, i) for the i-th); in a cluster a write is answered once
    replicated (a future then)."""
    if cluster is None:
        persister = share.partitions.persister
        if not isinstance(persister, SharePersister):  # a single broker's own state, or none
            return [not_coordinator(operation) for _ in keys]
        service = ShareStateService(persister)
        return [call(service, i) for i in range(len(keys))]
    results: list[StateResult] = []
    waits: dict[int, asyncio.Future[ErrorCode]] = {}
    for i, key in enumerate(keys):
        found = cluster.service_for(key)
        if found is None:
            results.append(not_coordinator(operation))
            continue
        r = call(found, i)
        results.append(r)
        if writes and r.error == ErrorCode.NONE:
            wait = cluster.replicated(key)
            if wait is not None:
                waits[i] = wait
    if not waits:
        return results

    async def finish() -> list[StateResult]:
        for i, wait in waits.items():
            code = await wait
            if code != ErrorCode.NONE:
                results[i] = StateResult(code, f"Unable to {operation}: the write was not replicated ({code.name}).")
        return results

    return asyncio.ensure_future(finish())


def respond(
    results: list[StateResult] | asyncio.Future[list[StateResult]], build: Callable[[list[StateResult]], Any]
) -> Any:
    """The response now, or a future of it."""
    if isinstance(results, asyncio.Future):

        async def later() -> Any:
            return build(await results)

        return asyncio.ensure_future(later())
    return build(results)


# group.share.persister.class.name: Kafka's default persister sends share-partition state to the share
# coordinator (RPCs 83-86); the default in our clusters too ("": state stays in the leader's memory)
DEFAULT_STATE_PERSISTER = "org.apache.kafka.server.share.persister.DefaultStatePersister"


def remote_persister_wanted(config: Any) -> bool:
    """Kafka's default persister (over the inter-broker listener, TLS and SASL included)."""
    return bool(config.get("group.share.persister.class.name", DEFAULT_STATE_PERSISTER) == DEFAULT_STATE_PERSISTER)


class InterBrokerConnection(BrokerConnection):
    """A blocking connection on the inter-broker listener with the broker's own TLS context and
    SASL login (``InterBrokerSecurity``, as the replication fetchers use), not a client's settings."""

    def __init__(self, host: str, port: int, timeout: float, security: InterBrokerSecurity) -> None:
        self.inter_broker_security = security  # before the handshake: _tls and authenticate read it
        tls, sasl = security.listener.uses_tls, security.listener.uses_sasl
        protocol = ("SASL_SSL" if tls else "SASL_PLAINTEXT") if sasl else ("SSL" if tls else "PLAINTEXT")
        super().__init__(
            host, port, client_id="pykafka-share-persister", timeout=timeout, security=SecurityConfig(protocol)
        )

    def _tls(self, sock: Any) -> Any:
        context = self.inter_broker_security.ssl_context
        assert context is not None  # uses_tls
        return context.wrap_socket(sock, server_hostname=self.host)

    def authenticate(self) -> None:
        async def request(api_key: int, body: Any, version: int) -> Any:
            return self.request(api_key, body, version)

        # this worker thread has no event loop; the exchange is the blocking requests above
        asyncio.run(self.inter_broker_security.authenticate(request))


class CoordinatorChannel:
    """Blocking connections of ``RemotePersister``'s worker threads: FindCoordinator key type 2 asked
    of this broker itself (it creates ``__share_group_state`` on first use and names the leader of
    the key's partition), then one cached connection per coordinator address. `security`: the
    inter-broker listener's TLS/SASL when it has them (None: plaintext), asked at each connect
    (the broker learns it once its listeners are up)."""

    def __init__(
        self,
        own_address: Callable[[], tuple[str, int]],
        timeout_s: float = 10.0,
        security: Callable[[], InterBrokerSecurity | None] = lambda: None,
    ) -> None:
        self.own_address = own_address
        self.timeout_s = timeout_s
        self.security = security
        # the persister's workers send at the same time: each thread its own connections
        self._local = threading.local()

    @property
    def _connections(self) -> dict[tuple[str, int], BrokerConnection]:
        connections: dict[tuple[str, int], BrokerConnection] | None = getattr(self._local, "connections", None)
        if connections is None:
            connections = self._local.connections = {}
        return connections

    def _connect(self, address: tuple[str, int]) -> BrokerConnection:
        security = self.security()
        if security is None:
            return BrokerConnection(*address, timeout=self.timeout_s)
        return InterBrokerConnection(*address, timeout=self.timeout_s, security=security)

    def locate(self, key: ShareGroupStateKey) -> tuple[str, int] | None:
        tid = base64.urlsafe_b64encode(uuid.UUID(key.topic_id).bytes).decode().rstrip("=")
        body = fc.FindCoordinatorRequest(key_type=2, coordinator_keys=[f"{key.group_id}:{tid}:{key.partition}"])
        try:
            found = self.send(self.own_address(), 10, body, 6).coordinators[0]
        except OSError:
            return None
        if found.error_code != ErrorCode.NONE:
            return None
        return found.host, found.port

    def send(self, address: tuple[str, int], api_key: int, body: Any, version: int) -> Any:
        try:
            conn = self._connections.get(address)
            if conn is None:
                conn = self._connections[address] = self._connect(address)
            return conn.request(api_key, body, version)
        except Exception as e:  # noqa: BLE001  # any failure: a new connection next time
            dropped = self._connections.pop(address, None)
            if dropped is not None:
                dropped.close()
            raise OSError(f"share coordinator {address[0]}:{address[1]}: {e}") from e


def persist_remotely(
    share: ShareCoordinator,
    own_address: Callable[[], tuple[str, int]],
    call_soon_threadsafe: Callable[..., Any] | None = None,
    security: Callable[[], InterBrokerSecurity | None] = lambda: None,
    config_get: Callable[[str, Any], Any] = lambda _key, default: default,
) -> RemotePersister:
    """A cluster: this broker's share-partitions keep their state through the share coordinators.
    ``group.share.persister.retry.timeout.ms`` (ours) bounds how long an operation is retried
    while its coordinator cannot be reached (plus one request's wait, at most 10 s and at most it)."""
    retry_timeout_s = int(config_get("group.share.persister.retry.timeout.ms", DEFAULT_RETRY_TIMEOUT_MS)) / 1000
    channel = CoordinatorChannel(own_address, timeout_s=min(10.0, retry_timeout_s), security=security)

    def on_read(key: ShareGroupStateKey) -> None:
        # wake the share fetches parked on the partition (on the event loop)
        if call_soon_threadsafe is None:
            return
        for meta in list(share.topics):
            if str(uuid.UUID(bytes=bytes(meta.topic_id))) == key.topic_id:
                call_soon_threadsafe(share.wake, share_key(meta.name, key.partition))

    persister = RemotePersister(channel.locate, channel.send, on_read, retry_timeout_s=retry_timeout_s)
    share.partitions.persister = persister
    return persister
