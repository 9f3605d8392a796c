"""The cluster controller: a dedicated process with standbys, or a Raft quorum of controllers (KRaft's
dedicated-controller shape).

What it does
------------
- Hands out producer id blocks, so idempotent producers get cluster-wide unique ids.
- Persists the cluster's metadata in its own directory (`controller-state.json`, written atomically:
  tmp file + fsync + rename + directory fsync): cluster id, registered brokers (endpoint, incarnation,
  broker epoch, fenced), topics (topic id, config overrides) and per partition the replicas, leader,
  leader epoch, ISR and partition epoch.
- Tracks broker liveness: a broker registers, then heartbeats every `broker.heartbeat.interval.ms`;
  without a heartbeat for `broker.session.timeout.ms` (Kafka's name, default 9000) it is fenced:
  it leaves every ISR (the last member of an ISR stays, so no acknowledged record is lost), and the
  partitions it led get a new leader from the remaining ISR, or go offline (leader -1) when none is
  left and `unclean.leader.election.enable` is false. A clean broker stop is a controlled shutdown
  (fenced at once). A broker that registers with a new incarnation (a restarted process) is treated
  as an unclean shutdown of the old one (fenced first), then registered afresh; it then catches up as a
  follower and its leader adds it back to the ISR with AlterPartition.
- Assigns replicas to new topics (round-robin over the live brokers; INVALID_REPLICATION_FACTOR when
  `replication.factor` exceeds them), elects leaders from the ISR only (or any live replica with
  unclean election), bumps the leader epoch on every leader change and the partition epoch on every
  leader or ISR change, and validates AlterPartition requests (leader epoch, partition epoch, only
  live brokers may join the ISR).
- Pushes the whole image (brokers + every partition's state + topic configs) to every connected
  broker after each change; brokers apply it through `ReplicaManager.apply_partition_states`.

Not implemented (said plainly)
------------------------------
- Two quorum modes. `EmbeddedCluster(quorum="raft")` (issue 32) runs the controllers as a Raft quorum
  (`broker_embedded/raft/`: the replicated `__cluster_metadata` log, Vote/BeginQuorumEpoch/Fetch, snapshots),
  with brokers registering and heartbeating through BrokerRegistration/BrokerHeartbeat
  (`controller/broker_lifecycle.py`). The default mode has no Raft: failover is active/standby on one machine:
  several controller processes share the state directory, each on its own port; the one holding an exclusive
  `flock` on `controller.lock` there is active (the OS releases it when the process dies, even by SIGKILL). A
  standby answers every request with NOT_CONTROLLER and closes the connection, and polls the lock every 75 ms;
  once it has it, it reloads the persisted state, gives every registered broker a fresh session, and resumes
  elections and admin. Brokers get every controller address in `controller.quorum.bootstrap.servers` and move
  to the next one on connection loss or NOT_CONTROLLER, re-registering there. The shared directory plus the
  lock is what makes this safe without a replicated metadata log (only the lock holder writes); it does not
  span machines. With no controller at all the brokers keep serving with their last image (leaders stay
  leaders, followers keep fetching, acks=all keeps working as long as the ISR does not need to change); ISR
  changes, elections and topic admin wait (admin requests answer REQUEST_TIMED_OUT / NOT_CONTROLLER).
- AlterPartition does not carry broker epochs (KIP-903); it is not needed for process kills on one
  machine (the page cache survives a SIGKILL), only for disk loss.
- Partition reassignment is Kafka's (`controller/reassignment.py`: adding replicas join, catch up and
  enter the ISR, then the removing ones leave; cancel reverts). Automatic preferred leader election is Kafka 4's
  `auto.leader.rebalance.enable` (default true): after a metadata change leaves some partition led
  by another than its first replica, a balance runs `leader.imbalance.check.interval.seconds`
  (default 300) later and gives every such partition whose first replica is live and in the ISR back
  to it, at most 1000 per run (the rest 10 ms later); `controller/election.py`'s
  LeaderBalanceSchedule, on the server's injectable clock. Kafka 4 has no
  `leader.imbalance.per.broker.percentage` (the ZooKeeper controller's threshold), nor do we.

Protocol (TCP on the controller port; each message = 4-byte big-endian length + a JSON object)
--------------------------------------------------------------------------------------------
Broker -> controller (requests carry an integer "id"; the answer is
``{"op": "response", "id": N, "error": <Kafka error code>, "message": str|None, ...}``):

- ``{"op": "register", "id", "node_id", "host", "port", "rack", "incarnation"}`` ->
  ``{"broker_epoch", "cluster_id"}``; must be the first message of a broker connection.
- ``{"op": "attach", "id", "node_id", "incarnation"}`` -> ``{"cluster_id", "controller_id"}``: raft mode, instead
  of register/heartbeat (the broker registers and heartbeats by BrokerRegistration/BrokerHeartbeat, 62/63, on
  the Raft listener); the connection then carries that registration's other requests.
- ``{"op": "heartbeat"}``: no answer; keeps the session alive (a fenced broker that heartbeats again
  on its current registration is unfenced).
- ``{"op": "alter_partition", "id", "topic", "partition", "leader_epoch", "isr", "partition_epoch"}``
  -> ``{"state": <partition state>}``; errors FENCED_LEADER_EPOCH, INVALID_UPDATE_VERSION,
  INELIGIBLE_REPLICA, INVALID_REQUEST, UNKNOWN_TOPIC_OR_PARTITION.
- ``{"op": "create_topics", "id", "topics": [{"name", "num_partitions", "replication_factor",
  "configs", "assignments"}], "validate_only"}`` -> ``{"results": [{"name", "error", "message",
  "topic_id", "num_partitions", "replication_factor", "configs"}]}``.
- ``{"op": "delete_topics", "id", "names": [...]}`` -> ``{"results": [{"name", "error", "message",
  "topic_id"}]}``.
- ``{"op": "create_partitions", "id", "topics": [{"name", "count", "assignments"}], "validate_only"}``
  -> ``{"results": [...]}``.
- ``{"op": "alter_configs", "id", "topic", "configs", "validate_only"}`` -> ``{}`` (replaces the
  topic's overrides).
- ``{"op": "elect_leaders", "id", "election_type", "partitions": {topic: [index, ...]} | null}`` ->
  ``{"results": {topic: [[index, error, message], ...]}}``: ElectLeaders (preferred 0, unclean 1;
  null = every partition, those not needing an election left out); see ``controller/election.py``.
- ``{"op": "alter_client_quotas", "id", "entries": [{"entity": [[type, name|null]], "ops": [[key,
  value|null]]}], "validate_only"}`` -> ``{"results": [[entity, error, message]]}``: AlterClientQuotas,
  validated here (``quotas/store.py``); the quotas travel in every image as ``"client_quotas"``.
- ``{"op": "alter_partition_reassignments", "id", "topics": [[topic, [[index, replicas | null]]]],
  "allow_replication_factor_change"}`` -> ``{"results": {topic: [[index, error, message]]}}``; partitions
  carry ``adding_replicas`` / ``removing_replicas`` in the image while a move is in progress.
- ``{"op": "list_partition_reassignments", "id", "topics": [[topic, [index...]]] | null}`` ->
  ``{"topics": [[topic, [[index, replicas, adding, removing]]]]}``.
- ``{"op": "alter_broker_configs", "id", "resource", "configs", "validate_only"}`` -> ``{}``: a BROKER
  resource's whole dynamic config set ("" = cluster default; ``dynamic_config.py``); the sets travel
  in every image as ``"broker_configs"``.
- ``{"op": "shutdown", "id"}`` -> ``{}``: controlled shutdown.
- ``{"op": "allocate_producer_ids", "id"}`` -> ``{"start", "size"}``: a block of producer ids unique in
  the cluster (Kafka's AllocateProducerIds); the bound is persisted before the answer.
- ``{"op": "describe", "id"}`` -> ``{"image": <image>}`` (tools and tests; no registration needed).
- ``{"op": "elect_preferred_leaders", "id"}`` -> ``{"moved": n}`` (tools and tests; no registration).

Controller -> broker, unsolicited: ``{"op": "metadata", "version", "cluster_id", "brokers": [{"node_id",
"host", "port", "rack", "incarnation", "broker_epoch", "fenced"}], "topics": [{"name", "topic_id",
"configs", "partitions": [{"partition", "replicas", "isr", "leader", "leader_epoch",
"partition_epoch"}]}]}`` — the whole image, sent after every change and before the answer to the
request that caused it.
"""

from broker_embedded.controller.server import ControllerServer
from broker_embedded.controller.state import ControllerState

__all__ = ["ControllerServer", "ControllerState"]
