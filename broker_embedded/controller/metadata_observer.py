"""A broker's copy of `__cluster_metadata` as a Raft observer (issue 32; KRaft's broker metadata listener).

The observer fetches the metadata log from the quorum leader (Fetch of `__cluster_metadata`-0 with its replica
id, never voting: `RaftDriver` in observer mode), replays what is committed -- snapshots, whole images and
per-change records (`metadata_records.py`), exactly as the controllers do (`MetadataImage`) -- and hands each
new image to `on_image` in the shape the active controller pushes (`ControllerState.image()`: the message a
broker's `ControllerClient` applies), so a broker can take its metadata from the log instead of the push.

Wired in `ControllerClient` when a broker has controller.quorum.voters (EmbeddedCluster quorum="raft" sets it);
with controller.metadata.push.enable=false on the controllers it is the brokers' only source of metadata.
Replica ids: an observer's id must not be a voter's. EmbeddedCluster's controllers are 0..2 and its brokers
1..N, so a broker observes as `OBSERVER_ID_BASE + node_id`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.quorum_controller import MetadataImage
from broker_embedded.controller.state import ControllerState
from broker_embedded.raft import LogEntry, OffsetAndEpoch, RaftConfig
from broker_embedded.raft.driver import RaftDriver
from broker_embedded.security.client import controller_client_context

log = logging.getLogger(__name__)

OBSERVER_ID_BASE = 1000


class MetadataObserver:
    def __init__(
        self,
        observer_id: int,
        voters: dict[int, tuple[str, int]],
        directory: Path,
        config: BrokerConfig,
        on_image: Callable[[dict[str, Any]], None],
        raft_config: RaftConfig | None = None,
    ) -> None:
        if observer_id in voters:
            raise ValueError(f"observer id {observer_id} is a voter's id ({sorted(voters)})")
        self.config = config
        self.on_image = on_image
        self.image_dir = directory / "metadata-image"
        self.image_dir.mkdir(parents=True, exist_ok=True)
        self.image = MetadataImage(self.image_dir)
        self.images_delivered = 0
        self.snapshots_loaded = 0
        self.last_version = -1
        self.driver = RaftDriver(
            observer_id,
            voters,
            directory / "__cluster_metadata-0",
            config=raft_config,
            cluster_id=config["cluster.id"],
            on_apply=self._on_apply,
            on_load_snapshot=self._on_load_snapshot,
            client_tls=controller_client_context(config),  # the controllers' listener on SSL: fetch over TLS
        )

    async def start(self) -> None:
        await self.driver.start()

    async def stop(self) -> None:
        await self.driver.stop(graceful=False)

    def _on_load_snapshot(self, _snapshot_id: OffsetAndEpoch, data: bytes) -> None:
        self.snapshots_loaded += 1
        if data:
            self.image.replay(data)
            self._deliver()

    def _on_apply(self, entries: tuple[LogEntry, ...]) -> None:
        changed = False
        for e in entries:
            if e.control:
                continue
            self.image.replay(e.value)
            changed = True
        if changed:
            self._deliver()

    def _deliver(self) -> None:
        """The committed image in the push's shape (refused stored topics and all, as the controller loads it)."""
        if self.image.image is None:
            return
        self.image.persist()
        msg = ControllerState(self.config, self.image_dir).image()
        if msg["version"] <= self.last_version:
            return
        self.last_version = msg["version"]
        self.images_delivered += 1
        try:
            self.on_image(msg)
        except Exception:
            log.exception("a metadata image from the log could not be applied")


__all__ = ["OBSERVER_ID_BASE", "MetadataObserver"]
