"""The controller's state machine: registered brokers, topics, replica assignments, leaders, ISRs.

Sans-IO: every method is a pure state transition (plus an atomic save to disk), called by the
controller server on its event loop. Each transition that changes partitions returns nothing; the
server pushes the whole image to the brokers afterwards.

Rules (Kafka's KRaft controller, simplified to one controller):
- Leaders are elected from the ISR only, in replica order, among unfenced brokers; with
  `unclean.leader.election.enable=true` (topic override or broker default) any unfenced replica may
  lead when no ISR member can, and the ISR restarts as that replica alone.
- Every leader change bumps the leader epoch; every leader or ISR change bumps the partition epoch
  (KIP-497's AlterPartition optimistic concurrency).
- Fencing a broker removes it from every ISR, except that the last member of an ISR stays (so the
  partition can come back with no acknowledged record lost when that broker returns); a partition
  whose leader was fenced and has no eligible successor goes offline (leader -1).
- A broker that registers with a new incarnation id (a restarted process) is treated as an unclean
  shutdown of the old incarnation: it is fenced first (KIP-966's handling), then registered anew.
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from broker_embedded.config import BrokerConfig, ConfigError, effective_topic_configs, validate_topic_configs
from broker_embedded.features import FeatureLevels
from broker_embedded.group.group_configs import GroupConfigStore
from broker_embedded.log.config import LogConfig
from broker_embedded.quotas.store import ClientQuotaStore, QuotaOp, entity_of
from broker_embedded.security.authorizer import AclBinding, Authorizer, acl_filter_from_json
from broker_embedded.security.scram import ScramCredential, ScramCredentialStore
from broker_embedded.topic_registry import validate_topic_name
from kafka_wire.errors import ErrorCode, KafkaError

log = logging.getLogger(__name__)

NO_LEADER = -1
PRODUCER_ID_BLOCK_SIZE = 1000


@dataclass(slots=True)
class BrokerRegistration:
    node_id: int
    host: str
    port: int
    rack: str | None
    incarnation: str
    broker_epoch: int
    fenced: bool = False
    # every advertised listener, NAME -> [host, port] (host/port: the inter-broker one)
    listeners: dict[str, list[Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "node_id": self.node_id,
            "host": self.host,
            "port": self.port,
            "rack": self.rack,
            "incarnation": self.incarnation,
            "broker_epoch": self.broker_epoch,
            "fenced": self.fenced,
            "listeners": self.listeners,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> BrokerRegistration:
        return cls(
            int(d["node_id"]),
            d["host"],
            int(d["port"]),
            d.get("rack"),
            d["incarnation"],
            int(d["broker_epoch"]),
            bool(d.get("fenced", False)),
            dict(d.get("listeners") or {}),
        )


@dataclass(slots=True)
class PartitionRecord:
    partition: int
    replicas: list[int]
    isr: list[int]
    leader: int
    leader_epoch: int = 0
    partition_epoch: int = 0
    # an ongoing reassignment (Kafka's PartitionRegistration addingReplicas / removingReplicas;
    # controller/reassignment.py): `replicas` is then the target followed by the removing ones
    adding_replicas: list[int] = field(default_factory=list)
    removing_replicas: list[int] = field(default_factory=list)
    # replicas in a failed log dir of their broker (KIP-858; controller/log_dir_failures.py)
    offline_replicas: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "partition": self.partition,
            "replicas": list(self.replicas),
            "isr": list(self.isr),
            "leader": self.leader,
            "leader_epoch": self.leader_epoch,
            "partition_epoch": self.partition_epoch,
        }
        if self.adding_replicas or self.removing_replicas:
            out["adding_replicas"] = list(self.adding_replicas)
            out["removing_replicas"] = list(self.removing_replicas)
        if self.offline_replicas:
            out["offline_replicas"] = list(self.offline_replicas)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> PartitionRecord:
        return cls(
            int(d["partition"]),
            [int(x) for x in d["replicas"]],
            [int(x) for x in d["isr"]],
            int(d["leader"]),
            int(d["leader_epoch"]),
            int(d["partition_epoch"]),
            [int(x) for x in d.get("adding_replicas") or ()],
            [int(x) for x in d.get("removing_replicas") or ()],
            [int(x) for x in d.get("offline_replicas") or ()],
        )


@dataclass(slots=True)
class TopicRecord:
    name: str
    topic_id: bytes
    configs: dict[str, Any]
    partitions: list[PartitionRecord] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "topic_id": str(uuid.UUID(bytes=self.topic_id)),
            "configs": self.configs,
            "partitions": [p.to_json() for p in self.partitions],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TopicRecord:
        return cls(
            d["name"],
            uuid.UUID(d["topic_id"]).bytes,
            dict(d.get("configs", {})),
            [PartitionRecord.from_json(p) for p in d["partitions"]],
        )


class ControllerState:
    """The cluster's metadata, persisted as one JSON file written atomically (tmp + fsync + rename)."""

    FILE_NAME = "controller-state.json"

    def __init__(self, config: BrokerConfig, directory: Path) -> None:
        self.config = config
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / self.FILE_NAME
        self.cluster_id: str = config["cluster.id"] or uuid.uuid4().hex[:22]
        self.brokers: dict[int, BrokerRegistration] = {}
        self.topics: dict[str, TopicRecord] = {}
        self.next_broker_epoch = 1
        # producer ids are handed to brokers in blocks (Kafka's AllocateProducerIds): unique
        # cluster-wide, and never handed out twice since the bound is persisted first
        self.next_producer_id = 0
        # bumped on every change; brokers apply images in order and ignore older ones
        self.metadata_version = 0
        # stored topics refused on load: written back unchanged so that fixing the entry (or the
        # limit) and restarting brings the topic back; nothing is silently forgotten
        self.refused_topics: list[Any] = []
        # SCRAM credentials and ACLs (issue 13): cluster metadata like topics, pushed in the image
        self.scram = ScramCredentialStore()
        self.acls = Authorizer((), False, lambda: None)
        # client quotas (AlterClientQuotas): cluster metadata too, pushed in the image
        self.client_quotas = ClientQuotaStore()
        # per-group configs (IncrementalAlterConfigs on GROUP resources): Kafka's ConfigRecords
        self.group_configs = GroupConfigStore(config)
        # dynamic broker configs: resource name ("" = cluster default) -> raw values
        self.broker_configs: dict[str, dict[str, str]] = {}
        # finalized feature levels set by UpdateFeatures (broker_embedded/features.py), pushed in the image
        self.features = FeatureLevels()
        if self.path.exists():
            self._load()

    # --- persistence -----------------------------------------------------------------------
    def _load(self) -> None:
        d = json.loads(self.path.read_text())
        self.cluster_id = d["cluster_id"]
        self.next_broker_epoch = int(d.get("next_broker_epoch", 1))
        self.next_producer_id = int(d.get("next_producer_id", 0))
        self.metadata_version = int(d.get("metadata_version", 0))
        self.brokers = {int(b["node_id"]): BrokerRegistration.from_json(b) for b in d.get("brokers", [])}
        security = d.get("security") or {}
        self.scram.load_json(security.get("scram", {}))
        self.acls.load_json(security.get("acls", []))
        self.client_quotas.load_json(d.get("client_quotas", []))
        self.group_configs.load_json(d.get("group_configs", {}))
        self.broker_configs = {str(k): dict(v) for k, v in (d.get("broker_configs") or {}).items()}
        self.features.load_json(d.get("features"))
        self.topics = {}
        seen_ids: set[bytes] = set()
        entries = d.get("topics", [])
        for entry in entries if isinstance(entries, list) else []:
            try:
                topic = TopicRecord.from_json(entry)
                self._check_stored_topic(topic, seen_ids)
            except (KeyError, TypeError, ValueError, AttributeError, KafkaError) as e:
                # one impossible entry (a flipped bit, a hand edit) must not keep the controller,
                # and so the whole cluster, from starting: that topic stays offline until fixed
                name = entry.get("name") if isinstance(entry, dict) else None
                log.error("refusing stored topic %r from %s: %s; the topic is offline until fixed", name, self.path, e)
                self.refused_topics.append(entry)
                continue
            self.topics[topic.name] = topic
            seen_ids.add(topic.topic_id)

    def _check_stored_topic(self, topic: TopicRecord, seen_ids: set[bytes]) -> None:
        """What the controller itself could never have stored: a partition count no cluster of
        this size can host (max.broker.partitions x registered brokers), partition ids other
        than 0..n-1, replica lists that are empty, repeat a broker or name an unregistered one, an
        ISR outside the replicas, a leader that is not a replica, negative epochs."""
        validate_topic_name(topic.name)
        if topic.name in self.topics or topic.topic_id in seen_ids:
            raise ValueError("duplicate topic name or id")
        limit = self.config["max.broker.partitions"] * max(1, len(self.brokers))
        n = len(topic.partitions)
        if not 1 <= n <= limit:
            raise ValueError(
                f"partition count {n} is outside 1..{limit} (max.broker.partitions x {len(self.brokers)} brokers)"
            )
        replicas_total = sum(len(p.replicas) for p in topic.partitions)
        if replicas_total > limit:
            raise ValueError(f"{replicas_total} partition replicas exceed {limit} (max.broker.partitions x brokers)")
        if sorted(p.partition for p in topic.partitions) != list(range(n)):
            raise ValueError(f"partition ids are not 0..{n - 1}")
        for p in topic.partitions:
            where = f"partition {p.partition}"
            if not p.replicas or len(set(p.replicas)) != len(p.replicas):
                raise ValueError(f"{where}: replicas {p.replicas} are empty or repeat a broker")
            unknown = [r for r in p.replicas if r not in self.brokers]
            if unknown:
                raise ValueError(f"{where}: replicas {unknown} are not registered brokers")
            if not p.isr or len(set(p.isr)) != len(p.isr) or not set(p.isr) <= set(p.replicas):
                raise ValueError(f"{where}: ISR {p.isr} is empty, repeats a broker or is not within {p.replicas}")
            if p.leader != NO_LEADER and p.leader not in p.replicas:
                raise ValueError(f"{where}: leader {p.leader} is not a replica {p.replicas}")
            if p.leader_epoch < 0 or p.partition_epoch < 0:
                raise ValueError(f"{where}: negative epoch")

    def save(self) -> None:
        self.metadata_version += 1
        data = json.dumps(
            {
                "version": 1,
                "cluster_id": self.cluster_id,
                "next_broker_epoch": self.next_broker_epoch,
                "next_producer_id": self.next_producer_id,
                "metadata_version": self.metadata_version,
                "brokers": [b.to_json() for b in self.brokers.values()],
                "topics": [t.to_json() for t in self.topics.values()] + self.refused_topics,
                "security": self.security_json(),
                "client_quotas": self.client_quotas.to_json(),
                "group_configs": self.group_configs.to_json(),
                "broker_configs": self.broker_configs,
                "features": self.features.to_json(),
            },
            indent=1,
        )
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        dir_fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)

    # --- helpers -----------------------------------------------------------------------------
    def live_broker_ids(self) -> list[int]:
        return sorted(b.node_id for b in self.brokers.values() if not b.fenced)

    def is_live(self, node_id: int) -> bool:
        b = self.brokers.get(node_id)
        return b is not None and not b.fenced

    def _unclean_allowed(self, topic: TopicRecord) -> bool:
        if "unclean.leader.election.enable" in topic.configs:
            return bool(topic.configs["unclean.leader.election.enable"])
        return bool(self.config["unclean.leader.election.enable"])

    def _elect(self, topic: TopicRecord, p: PartitionRecord, isr: list[int]) -> tuple[int, list[int]]:
        """(leader, isr) for a partition that needs a leader: ISR members first, in replica order."""
        for r in p.replicas:
            if r in isr and self.is_live(r):
                return r, isr
        if self._unclean_allowed(topic):
            for r in p.replicas:
                if self.is_live(r):
                    log.warning(
                        "unclean leader election of %s-%d: broker %d was not in the ISR %s; records may be lost",
                        topic.name,
                        p.partition,
                        r,
                        isr,
                    )
                    return r, [r]
        return NO_LEADER, isr

    @staticmethod
    def _set(p: PartitionRecord, leader: int, isr: list[int]) -> bool:
        changed = False
        if leader != p.leader:
            p.leader = leader
            p.leader_epoch += 1
            changed = True
        if isr != p.isr:
            p.isr = isr
            changed = True
        if changed:
            p.partition_epoch += 1
        return changed

    # --- brokers --------------------------------------------------------------------------------
    def register_broker(
        self,
        node_id: int,
        host: str,
        port: int,
        rack: str | None,
        incarnation: str,
        listeners: dict[str, Any] | None = None,
        *,
        fenced: bool = False,
        epoch: int | None = None,
    ) -> int:
        """Register (or re-register) a broker; returns its broker epoch.

        `fenced`/`epoch` (raft mode, BrokerRegistration): KRaft registers a broker fenced, in the same record,
        with the offset of its RegisterBrokerRecord as the epoch; the lock mode counts epochs and registers live.
        """
        old = self.brokers.get(node_id)
        if old is not None and old.incarnation != incarnation and not old.fenced:
            # a new process under the same id: the old one died without a controlled shutdown
            self._fence(node_id)
        if epoch is None:
            epoch = self.next_broker_epoch
        self.next_broker_epoch = max(self.next_broker_epoch, epoch) + 1
        self.brokers[node_id] = BrokerRegistration(
            node_id, host, port, rack, incarnation, epoch, fenced=fenced, listeners=dict(listeners or {})
        )
        if not fenced:
            self._on_broker_live(node_id)
        self.save()
        log.info("broker %d registered at %s:%d (epoch %d)", node_id, host, port, epoch)
        return epoch

    def unfence(self, node_id: int) -> bool:
        """A fenced broker whose session is alive again (it heartbeats) becomes live."""
        b = self.brokers.get(node_id)
        if b is None or not b.fenced:
            return False
        b.fenced = False
        self._on_broker_live(node_id)
        self.save()
        return True

    def _on_broker_live(self, node_id: int) -> None:
        # offline partitions this broker can lead now (it is their last ISR member, or unclean is on)
        for topic in self.topics.values():
            for p in topic.partitions:
                if p.leader == NO_LEADER and node_id in p.replicas:
                    leader, isr = self._elect(topic, p, p.isr)
                    if leader != NO_LEADER:
                        self._set(p, leader, isr)

    def fence_broker(self, node_id: int) -> bool:
        """Session expired or controlled shutdown: the broker leads nothing and leaves every ISR."""
        b = self.brokers.get(node_id)
        if b is None or b.fenced:
            return False
        self._fence(node_id)
        self.save()
        return True

    def _fence(self, node_id: int) -> None:
        self.brokers[node_id].fenced = True
        for topic in self.topics.values():
            for p in topic.partitions:
                if node_id not in p.isr and p.leader != node_id:
                    continue
                isr = [r for r in p.isr if r != node_id]
                if p.leader == node_id or p.leader == NO_LEADER:
                    leader, new_isr = self._elect(topic, p, isr)
                    if leader == NO_LEADER:
                        # keep the last ISR member: it holds every acknowledged record
                        new_isr = isr or [node_id]
                    self._set(p, leader, new_isr)
                else:
                    self._set(p, p.leader, isr)
        log.info("broker %d fenced", node_id)

    def allocate_producer_ids(self, size: int = PRODUCER_ID_BLOCK_SIZE) -> tuple[int, int]:
        """A block [start, start + size) of producer ids no broker has had (persisted first)."""
        start = self.next_producer_id
        self.next_producer_id += size
        self.save()
        return start, size

    # --- topics ---------------------------------------------------------------------------------
    def _resolve_configs(self, configs: dict[str, Any]) -> dict[str, Any]:
        try:
            parsed = validate_topic_configs(configs)
        except ConfigError as e:
            raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None
        effective = effective_topic_configs(self.config, parsed)
        try:
            LogConfig.from_dict({k: _to_prop(v) for k, v in effective.items()})
        except ValueError as e:
            raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None
        return parsed

    def _assign(self, num_partitions: int, replication_factor: int, first_partition: int = 0) -> list[list[int]]:
        live = self.live_broker_ids()
        if replication_factor <= 0:
            raise KafkaError("Replication factor must be larger than 0.", ErrorCode.INVALID_REPLICATION_FACTOR)
        if replication_factor > len(live):
            raise KafkaError(
                f"Unable to replicate the partition {replication_factor} time(s): The target replication factor "
                f"of {replication_factor} cannot be reached because only {len(live)} broker(s) are registered "
                "or some brokers have all their log directories cordoned.",  # Kafka 4.3's words
                ErrorCode.INVALID_REPLICATION_FACTOR,
            )
        # round-robin leaders (Kafka's rack-unaware assignment without the random start): the
        # start shifts with the cluster's partition count so leaders of many topics spread too
        start = sum(len(t.partitions) for t in self.topics.values())
        n = len(live)
        out = []
        for p in range(first_partition, first_partition + num_partitions):
            first = (start + p) % n
            out.append([live[(first + j) % n] for j in range(replication_factor)])
        return out

    def _check_assignments(self, assignments: list[list[int]]) -> None:
        rfs = {len(a) for a in assignments}
        if len(rfs) != 1:
            raise KafkaError(
                "All partitions should have the same number of replicas", ErrorCode.INVALID_REPLICA_ASSIGNMENT
            )
        for a in assignments:
            if len(set(a)) != len(a):
                raise KafkaError(f"Duplicate brokers in replica assignment {a}", ErrorCode.INVALID_REPLICA_ASSIGNMENT)
            for b in a:
                if b not in self.brokers:
                    raise KafkaError(f"Unknown broker {b} in replica assignment", ErrorCode.INVALID_REPLICA_ASSIGNMENT)

    def check_broker_partition_limit(self, assignments: list[list[int]]) -> None:
        """max.broker.partitions (ours; KIP-578's name) per broker, counting replicas: refused with
        POLICY_VIOLATION before anything is stored, like the single-node check."""
        limit = self.config["max.broker.partitions"]
        hosted: dict[int, int] = {}
        for t in self.topics.values():
            for p in t.partitions:
                for r in p.replicas:
                    hosted[r] = hosted.get(r, 0) + 1
        for replicas in assignments:
            for r in replicas:
                hosted[r] = hosted.get(r, 0) + 1
        over = {b: n for b, n in hosted.items() if n > limit}
        if over:
            broker, n = max(over.items(), key=lambda kv: kv[1])
            raise KafkaError(
                f"The assignment would bring broker {broker} to {n} partition replicas, more than "
                f"max.broker.partitions={limit}.",
                ErrorCode.POLICY_VIOLATION,
            )

    def _new_partitions(self, assignments: list[list[int]], first_partition: int) -> list[PartitionRecord]:
        parts = []
        for i, replicas in enumerate(assignments):
            isr = [r for r in replicas if self.is_live(r)]
            leader = isr[0] if isr else NO_LEADER
            parts.append(PartitionRecord(first_partition + i, list(replicas), isr or list(replicas[:1]), leader))
        return parts

    def create_topic(
        self,
        name: str,
        num_partitions: int,
        replication_factor: int,
        configs: dict[str, Any],
        assignments: list[list[int]] | None = None,
        validate_only: bool = False,
    ) -> TopicRecord:
        validate_topic_name(name)
        if name in self.topics:
            raise KafkaError(f"Topic '{name}' already exists.", ErrorCode.TOPIC_ALREADY_EXISTS)
        if name in self.refused_topic_names():
            # it exists, offline: brokers still hold its logs, which a new topic must not adopt
            raise KafkaError(
                f"Topic '{name}' already exists (its stored state was refused on load; it is offline until fixed).",
                ErrorCode.TOPIC_ALREADY_EXISTS,
            )
        parsed = self._resolve_configs(configs)
        if assignments:
            if num_partitions != -1 or replication_factor != -1:
                raise KafkaError(
                    "Both numPartitions or replicationFactor and replicasAssignments were set.",
                    ErrorCode.INVALID_REQUEST,
                )
            self._check_assignments(assignments)
        else:
            if num_partitions == -1:
                num_partitions = self.config["num.partitions"]
            if num_partitions <= 0:
                raise KafkaError("Number of partitions must be larger than 0.", ErrorCode.INVALID_PARTITIONS)
            if replication_factor == -1:
                replication_factor = self.config["default.replication.factor"]
            assignments = self._assign(num_partitions, replication_factor)
        self.check_broker_partition_limit(assignments)
        topic = TopicRecord(name, uuid.uuid4().bytes, parsed, self._new_partitions(assignments, 0))
        if validate_only:
            return topic
        self.topics[name] = topic
        self.save()
        log.info("created topic %s: %s", name, [p.replicas for p in topic.partitions])
        return topic

    def delete_topic(self, name: str) -> TopicRecord:
        if not self.config["delete.topic.enable"]:
            raise KafkaError("Topic deletion is disabled.", ErrorCode.TOPIC_DELETION_DISABLED)
        topic = self.topics.pop(name, None)
        if topic is None:
            raise KafkaError(f"Topic {name} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        self.save()
        return topic

    def create_partitions(
        self, name: str, count: int, assignments: list[list[int]] | None = None, validate_only: bool = False
    ) -> None:
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"The topic '{name}' does not exist.", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        old = len(topic.partitions)
        if count < old:
            raise KafkaError(
                f"Topic currently has {old} partitions, which is higher than the requested {count}.",
                ErrorCode.INVALID_PARTITIONS,
            )
        if count == old:
            raise KafkaError(f"Topic already has {count} partitions.", ErrorCode.INVALID_PARTITIONS)
        rf = len(topic.partitions[0].replicas)
        if assignments is not None:
            if len(assignments) != count - old:
                raise KafkaError(
                    f"Increasing the number of partitions by {count - old} "
                    f"but {len(assignments)} assignments provided.",
                    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                )
            self._check_assignments(assignments)
            if len(assignments[0]) != rf:
                raise KafkaError(
                    f"Inconsistent replication factor between partitions, partition 0 has {rf} "
                    f"while partitions [{old}] have replication factors [{len(assignments[0])}], respectively.",
                    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                )
        else:
            assignments = self._assign(count - old, rf, old)
        self.check_broker_partition_limit(assignments)
        if validate_only:
            return
        topic.partitions.extend(self._new_partitions(assignments, old))
        self.save()

    def set_topic_configs(self, name: str, configs: dict[str, Any], validate_only: bool = False) -> None:
        """Replace a topic's overrides (the brokers resolve and apply them on the next image)."""
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"Topic {name} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        parsed = self._resolve_configs(configs)
        if validate_only:
            return
        before_unclean = self._unclean_allowed(topic)
        topic.configs = parsed
        if not before_unclean and self._unclean_allowed(topic):
            # turning unclean election on elects leaders for offline partitions now (as Kafka does)
            for p in topic.partitions:
                if p.leader == NO_LEADER:
                    leader, isr = self._elect(topic, p, p.isr)
                    self._set(p, leader, isr)
        self.save()

    def elect_preferred_leaders(self) -> int:
        """Move leadership back to each partition's preferred replica (the first one) when it is live
        and in the ISR (Kafka's auto leader rebalance; without its per-broker imbalance threshold).
        Returns how many partitions changed leader."""
        moved = 0
        for topic in self.topics.values():
            for p in topic.partitions:
                preferred = p.replicas[0]
                if p.leader != preferred and preferred in p.isr and self.is_live(preferred):
                    self._set(p, preferred, p.isr)
                    moved += 1
        if moved:
            self.save()
        return moved

    # --- AlterPartition --------------------------------------------------------------------------
    def alter_partition(
        self,
        broker_id: int,
        topic_name: str,
        index: int,
        leader_epoch: int,
        new_isr: Iterable[int],
        partition_epoch: int,
    ) -> tuple[TopicRecord, PartitionRecord]:
        """A leader's ISR change, validated against the committed state (KIP-497)."""
        topic = self.topics.get(topic_name)
        if topic is None or not 0 <= index < len(topic.partitions):
            raise KafkaError(f"{topic_name}-{index} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        p = topic.partitions[index]
        isr = list(dict.fromkeys(int(r) for r in new_isr))
        if leader_epoch != p.leader_epoch:
            raise KafkaError(
                f"leader epoch {leader_epoch} of {topic_name}-{index} is not the current {p.leader_epoch}",
                ErrorCode.FENCED_LEADER_EPOCH,
            )
        if broker_id != p.leader:
            raise KafkaError(
                f"broker {broker_id} is not the leader of {topic_name}-{index} (leader {p.leader})",
                ErrorCode.INVALID_REQUEST,
            )
        if partition_epoch != p.partition_epoch:
            raise KafkaError(
                f"partition epoch {partition_epoch} of {topic_name}-{index} is not the current {p.partition_epoch}",
                ErrorCode.INVALID_UPDATE_VERSION,
            )
        if p.leader not in isr:
            raise KafkaError("the leader must stay in the ISR", ErrorCode.INVALID_REQUEST)
        for r in isr:
            if r not in p.replicas:
                raise KafkaError(f"broker {r} is not a replica of {topic_name}-{index}", ErrorCode.INVALID_REQUEST)
            if r not in p.isr and not self.is_live(r):
                raise KafkaError(f"broker {r} is fenced or not registered", ErrorCode.INELIGIBLE_REPLICA)
        if self._set(p, p.leader, isr):
            self.save()
        return topic, p

    # --- SCRAM credentials and ACLs -------------------------------------------------------------
    def security_json(self) -> dict[str, Any]:
        return {"scram": self.scram.to_json(), "acls": self.acls.to_json()}

    def alter_scram(self, deletions: list[list[str]], upserts: list[list[Any]]) -> None:
        """Credentials validated by the broker that received AlterUserScramCredentials."""
        for user, mechanism in deletions:
            self.scram.delete(user, mechanism)
        for user, mechanism, credential in upserts:
            self.scram.upsert(user, mechanism, ScramCredential.from_json(credential))
        self.save()

    def create_acls(self, bindings: list[list[Any]]) -> None:
        self.acls.create([AclBinding.from_json(b) for b in bindings])
        self.save()

    def delete_acls(self, filters: list[list[Any]]) -> list[list[list[Any]]]:
        deleted = [[b.to_json() for b in self.acls.delete(acl_filter_from_json(f))] for f in filters]
        self.save()
        return deleted

    # --- client quotas ---------------------------------------------------------------------------
    def alter_client_quotas(self, entries: list[dict[str, Any]], validate_only: bool) -> list[list[Any]]:
        """AlterClientQuotas as Kafka's controller decides it: entries [{"entity": [[type, name]],
        "ops": [[key, value | None]]}] -> [[entity pairs, error, message]] (saved when changed)."""
        alterations = [
            (
                entity_of((str(t), None if n is None else str(n)) for t, n in e["entity"]),
                [QuotaOp(str(k), None if v is None else float(v)) for k, v in e["ops"]],
            )
            for e in entries
        ]
        before = self.client_quotas.to_json()
        results = self.client_quotas.alter(alterations, validate_only)
        if self.client_quotas.to_json() != before:
            self.save()
        return [[[list(p) for p in entity], int(r.code), r.message] for entity, r in results]

    # --- group configs ----------------------------------------------------------------------------
    def set_group_configs(self, group_id: str, raw: dict[str, str], validate_only: bool) -> None:
        """Replace a group's config overrides (validated against this controller's bounds; raises
        ConfigError); saved, and pushed in the image, when not validate_only."""
        before = self.group_configs.to_json()
        self.group_configs.set(group_id, raw, validate_only)
        if self.group_configs.to_json() != before:
            self.save()

    def set_broker_configs(self, resource_name: str, configs: dict[str, str], validate_only: bool) -> None:
        """One BROKER resource's whole dynamic config set ("" = the cluster default)."""
        from broker_embedded.dynamic_config import validate_broker_configs

        if resource_name and not resource_name.lstrip("-").isdigit():
            raise KafkaError("Unable to parse broker name as a base 10 number.", ErrorCode.INVALID_REQUEST)
        validate_broker_configs(configs)
        if validate_only:
            return
        if configs:
            self.broker_configs[resource_name] = {str(k): str(v) for k, v in configs.items()}
        else:
            self.broker_configs.pop(resource_name, None)
        self.save()

    # --- the image pushed to brokers -------------------------------------------------------------
    def refused_topic_names(self) -> set[str]:
        """Names of refused stored topics that no loaded topic also has (brokers may hold their logs)."""
        return {d["name"] for d in self.refused_topics if _stored_name(d)} - set(self.topics)

    def image(self) -> dict[str, Any]:
        return {
            "op": "metadata",
            "version": self.metadata_version,
            "cluster_id": self.cluster_id,
            "brokers": [b.to_json() for b in sorted(self.brokers.values(), key=lambda b: b.node_id)],
            "topics": [t.to_json() for t in self.topics.values()],
            # brokers delete topics missing from the image: these they must only stop serving
            "refused_topics": sorted(self.refused_topic_names()),
            "security": self.security_json(),
            "client_quotas": self.client_quotas.to_json(),
            "group_configs": self.group_configs.to_json(),
            "broker_configs": self.broker_configs,
            "features": self.features.to_json(),
        }


def _stored_name(entry: Any) -> bool:
    """A refused entry that still names a topic (brokers may hold logs under that name)."""
    return isinstance(entry, dict) and isinstance(entry.get("name"), str)


def _to_prop(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(v)
    return str(v)
