"""Where this broker serves the share coordinator's RPCs (83-87) from: the single broker's persister
(``ShareCoordinator.persist_to``), or in a cluster the ``ClusterShareState`` of the
``__share_group_state`` partitions it leads (created on first use, so nothing changes for clusters
that never see a share-state RPC)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.share.cluster_state import ClusterShareState
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult, not_coordinator
from kafka_wire.errors import ErrorCode

if TYPE_CHECKING:
    from broker_embedded.group.share_coordinator import ShareCoordinator
    from broker_embedded.replication.controller_client import ControllerClient

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
        if persister is None:
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
