"""A deterministic simulator for the sans-IO Raft core (issue 32), shared by tests/unit/test_raft_sim.py and
`python -m bench.raft_sim`.

One seeded `random.Random` drives everything: the network (loss, delay, duplication, reordering through
random delays, symmetric and asymmetric partitions, isolating the leader, bridges), crashes and restarts
(a crash loses what the log never flushed; the quorum-state store is durable), client appends and
snapshots. Invariants are checked as the run goes:

- election safety: at most one leader per epoch;
- log matching: an (offset, epoch) names one value everywhere, and the entry before it has the same epoch
  on every log that holds it (checked on every append, which by induction is the whole prefix property);
- leader completeness: every committed entry is in the log (or snapshot) of every new leader;
- state machine safety: every node applies a prefix of one committed sequence (snapshots included);
- liveness: once the network heals and every node is up, a leader is elected and a fresh append is
  applied on every node within `liveness_bound_ms` of simulated time.

A failure raises SimulationFailure naming the seed; `Simulation(seed).run()` replays it exactly.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import pickle
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from broker_embedded.raft import (
    Apply,
    LeaderChange,
    LoadSnapshot,
    LogEntry,
    MemoryQuorumStateStore,
    MemoryRaftLog,
    NotLeaderError,
    RaftConfig,
    RaftNode,
    Role,
    Send,
    VoterChangeError,
)
from broker_embedded.raft.messages import Message

# Kafka's defaults divided by 10: the ratios between the timeouts are what matter to the protocol
SIM_RAFT_CONFIG = RaftConfig(
    election_timeout_ms=100,
    election_backoff_max_ms=100,
    fetch_timeout_ms=200,
    fetch_max_wait_ms=50,
    request_timeout_ms=120,
    retry_backoff_ms=10,
    flush_linger_ms=3,
    fetch_max_records=20,
    snapshot_chunk_bytes=512,
)


class SimulationFailure(AssertionError):
    pass


@dataclass
class SimConfig:
    nodes: int = 3  # voters
    observers: int = 0  # non-voters fetching the log (brokers reading __cluster_metadata)
    reconfig: bool = False  # the leader adds and removes voters (KIP-853) among all nodes
    chaos_ms: int = 2500  # faults happen during this much simulated time
    liveness_bound_ms: int = 4000  # after healing, a new append must be applied everywhere within this
    max_delay_ms: int = 15
    loss: float = 0.05
    duplicate: float = 0.02
    append_interval_ms: int = 15
    fault_interval_ms: int = 250
    snapshot_interval_ms: int = 300
    raft: RaftConfig = SIM_RAFT_CONFIG
    # per seed, pick the fetch batch size and the leader's fsync linger (small batches and a long linger
    # make the rarer schedules: a follower holding an old epoch's entry without the new LeaderChange, a
    # leader crashing with appends not yet on disk)
    vary_raft: bool = True


class CheckedLog(MemoryRaftLog):
    """A MemoryRaftLog that reports every append to the simulation's log-matching check."""

    def __init__(self, on_append: Callable[[CheckedLog, LogEntry], None]) -> None:
        super().__init__()
        self._on_append = on_append
        self.truncations = 0

    def truncate_to(self, offset: int) -> None:
        if offset < self.end_offset:
            self.truncations += 1
        super().truncate_to(offset)

    def append(self, entries: tuple[LogEntry, ...] | list[LogEntry]) -> None:
        for e in entries:
            self._on_append(self, e)
            super().append([e])


@dataclass
class SimNode:
    node_id: int
    log: CheckedLog
    store: MemoryQuorumStateStore
    raft: RaftNode | None = None
    incarnation: int = 0
    timer_at: int | None = None
    # the application: applied[i] = (epoch, value, control) of offset i
    applied: list[tuple[int, Any, bool]] = field(default_factory=list)


@dataclass
class SimResult:
    seed: int
    nodes: int
    sim_ms: int
    events: int
    messages: int
    committed: int
    elections: int
    crashes: int
    partitions: int
    snapshots_installed: int
    voter_changes: int
    truncations: int
    liveness_ms: int


class Simulation:
    def __init__(self, seed: int, config: SimConfig | None = None) -> None:
        self.seed = seed
        self.cfg = config or SimConfig()
        self.rng = random.Random(seed)
        if self.cfg.vary_raft:
            self.cfg = dataclasses.replace(
                self.cfg,
                raft=dataclasses.replace(
                    self.cfg.raft,
                    fetch_max_records=self.rng.choice([2, 20, 20]),
                    flush_linger_ms=self.rng.choice([0, 3, 10]),
                ),
            )
        self.now = 0
        self._seq = itertools.count()
        self._queue: list[tuple[int, int, str, tuple[Any, ...]]] = []
        self.trace: deque[tuple[Any, ...]] = deque(maxlen=60)
        ids = list(range(1, self.cfg.nodes + self.cfg.observers + 1))
        self.voters = frozenset(ids[: self.cfg.nodes])
        self.nodes = {i: SimNode(i, CheckedLog(self._check_append), MemoryQuorumStateStore()) for i in ids}
        self.blocked: set[tuple[int, int]] = set()  # (source, destination) pairs the network drops
        self.loss = self.cfg.loss
        self.duplicate = self.cfg.duplicate
        # what the checks know
        self.committed: dict[int, tuple[int, Any, bool]] = {}
        self.epoch_leaders: dict[int, int] = {}
        self.entry_values: dict[tuple[int, int], tuple[Any, int]] = {}  # (offset, epoch) -> (value, prev epoch)
        self.next_value = 0
        self.stats = dict(
            events=0,
            messages=0,
            crashes=0,
            partitions=0,
            snapshots_installed=0,
            voter_changes=0,
        )
        self.healed = False
        self.liveness_marker: int | None = None

    # ------------------------------------------------------------------ running

    def run(self) -> SimResult:
        try:
            return self._run()
        except SimulationFailure:
            raise
        except Exception as e:  # an assertion inside the core is as much a finding as one here
            raise SimulationFailure(self._describe(f"{type(e).__name__}: {e}")) from e

    def start(self) -> None:
        """Start every node (the scenario tests then drive time with run_for and faults by hand)."""
        for n in self.nodes.values():
            self._start_node(n)

    def run_for(self, ms: int) -> None:
        """Process every event up to now + ms (scenario tests; the invariants are checked all along)."""
        until = self.now + ms
        while self._queue and self._queue[0][0] <= until:
            t, _, kind, args = heapq.heappop(self._queue)
            self.now = t
            self.stats["events"] += 1
            getattr(self, "_ev_" + kind)(*args)
        self.now = until

    def _run(self) -> SimResult:
        self.start()
        self._schedule(self.rng.randrange(self.cfg.append_interval_ms), "append", ())
        self._schedule(self.rng.randrange(self.cfg.fault_interval_ms), "fault", ())
        self._schedule(self.rng.randrange(self.cfg.snapshot_interval_ms), "snapshot", ())
        self._schedule(self.cfg.chaos_ms, "heal", ())
        if self.cfg.reconfig:
            self._schedule(self.rng.randrange(100), "reconfig", ())
        deadline = self.cfg.chaos_ms + self.cfg.liveness_bound_ms
        while self._queue:
            t, _, kind, args = heapq.heappop(self._queue)
            if t > deadline:
                break
            self.now = t
            self.stats["events"] += 1
            getattr(self, "_ev_" + kind)(*args)
            if self.healed and self._live():
                return self._result()
        self._fail(f"liveness: no append applied on every node within {self.cfg.liveness_bound_ms} ms of healing")
        raise AssertionError("unreachable")

    def _result(self) -> SimResult:
        self._check_final()
        return SimResult(
            seed=self.seed,
            nodes=self.cfg.nodes,
            sim_ms=self.now,
            committed=len(self.committed),
            elections=len(self.epoch_leaders),
            liveness_ms=self.now - self.cfg.chaos_ms,
            truncations=sum(n.log.truncations for n in self.nodes.values()),
            **self.stats,
        )

    def _schedule(self, delay: int, kind: str, args: tuple[Any, ...]) -> None:
        heapq.heappush(self._queue, (self.now + max(delay, 0), next(self._seq), kind, args))

    def _fail(self, what: str) -> None:
        raise SimulationFailure(self._describe(what))

    def _describe(self, what: str) -> str:
        lines = [f"seed {self.seed} ({self.cfg.nodes} voters, {self.cfg.observers} observers) at {self.now} ms: {what}"]
        for n in self.nodes.values():
            r = n.raft
            state = (
                "down" if r is None else f"{r.role.value} epoch={r.epoch} leader={r.leader_id} hw={r.high_watermark}"
            )
            lines.append(
                f"  node {n.node_id}: {state} log=[{n.log.start_offset},{n.log.end_offset}) applied={len(n.applied)}"
            )
        lines.append("  last events:")
        lines.extend(f"    {e}" for e in self.trace)
        lines.append(
            f"  replay: Simulation({self.seed}, SimConfig(nodes={self.cfg.nodes}, "
            f"observers={self.cfg.observers})).run()"
        )
        return "\n".join(lines)

    # ------------------------------------------------------------------ nodes

    def _start_node(self, n: SimNode) -> None:
        n.incarnation += 1
        n.applied = []
        n.raft = RaftNode(
            n.node_id,
            self.voters,
            n.log,
            n.store,
            clock=lambda: self.now,
            rng=random.Random(self.rng.getrandbits(64)),
            config=self.cfg.raft,
        )
        self._process(n, n.raft.start())

    def _process(self, n: SimNode, actions: list[Any]) -> None:
        for a in actions:
            if isinstance(a, Send):
                self._transmit(n.node_id, a.destination, a.message)
            elif isinstance(a, Apply):
                self._on_apply(n, a)
            elif isinstance(a, LoadSnapshot):
                self._on_load_snapshot(n, a)
            elif isinstance(a, LeaderChange):
                self._on_leader_change(n, a)
        self._reschedule_timer(n)

    def _reschedule_timer(self, n: SimNode) -> None:
        if n.raft is None:
            return
        at = max(n.raft.next_deadline_ms(), self.now + 1)
        if n.timer_at != at:
            n.timer_at = at
            heapq.heappush(self._queue, (at, next(self._seq), "timer", (n.node_id, n.incarnation, at)))

    def _ev_timer(self, node_id: int, incarnation: int, at: int) -> None:
        n = self.nodes[node_id]
        if n.raft is None or n.incarnation != incarnation or n.timer_at != at:
            return  # superseded
        n.timer_at = None
        self._process(n, n.raft.tick())

    # ------------------------------------------------------------------ network

    def _transmit(self, source: int, destination: int, message: Message) -> None:
        self.stats["messages"] += 1
        if (source, destination) in self.blocked or self.rng.random() < self.loss:
            return
        copies = 2 if self.rng.random() < self.duplicate else 1
        for _ in range(copies):
            delay = 1 + self.rng.randrange(self.cfg.max_delay_ms)
            if self.rng.random() < 0.01:
                delay += self.rng.randrange(10 * self.cfg.max_delay_ms)  # a straggler, reordered past many
            self._schedule(delay, "deliver", (source, destination, message))

    def _ev_deliver(self, source: int, destination: int, message: Message) -> None:
        n = self.nodes[destination]
        if n.raft is None or (source, destination) in self.blocked:
            return
        self.trace.append((self.now, source, "->", destination, message))
        self._process(n, n.raft.handle(source, message))

    # ------------------------------------------------------------------ faults and workload

    def _leader_ids(self) -> list[int]:
        return [i for i, n in self.nodes.items() if n.raft is not None and n.raft.role is Role.LEADER]

    def _ev_fault(self) -> None:
        if self.healed:
            return
        self._schedule(self.rng.randrange(1, 2 * self.cfg.fault_interval_ms), "fault", ())
        ids = sorted(self.nodes)
        kinds = ["reconfig", "reconfig"] if self.cfg.reconfig else []
        kind = self.rng.choice(
            kinds
            + ["isolate", "isolate_leader", "split", "asymmetric", "bridge", "crash", "crash_leader", "heal", "lossy"]
        )
        self.trace.append((self.now, "fault", kind))
        if kind in ("isolate", "isolate_leader"):
            leaders = self._leader_ids()
            victim = self.rng.choice(leaders) if kind == "isolate_leader" and leaders else self.rng.choice(ids)
            self._partition([victim], [i for i in ids if i != victim])
        elif kind == "split":
            k = self.rng.randrange(1, len(ids))
            shuffled = self.rng.sample(ids, len(ids))
            self._partition(shuffled[:k], shuffled[k:])
        elif kind == "asymmetric":
            a, b = self.rng.sample(ids, 2)
            self.blocked.add((a, b))  # a cannot reach b; b still reaches a
            self.stats["partitions"] += 1
            self._schedule(self.rng.randrange(50, 800), "unblock", ((a, b),))
        elif kind == "bridge":
            # two sides that only one node can talk to (Jepsen's bridge)
            shuffled = self.rng.sample(ids, len(ids))
            bridge, rest = shuffled[0], shuffled[1:]
            half = len(rest) // 2
            self._partition(rest[:half], rest[half:])
            del bridge  # the bridge keeps both directions to everyone
        elif kind in ("crash", "crash_leader"):
            leaders = self._leader_ids()
            victim = self.rng.choice(leaders) if kind == "crash_leader" and leaders else self.rng.choice(ids)
            self._crash(victim)
        elif kind == "heal":
            self.blocked.clear()
        elif kind == "reconfig":
            self._reconfigure()
        elif kind == "lossy":
            self.loss = self.rng.choice([0.0, 0.02, 0.1, 0.3])
            self.duplicate = self.rng.choice([0.0, 0.05, 0.2])

    def _ev_reconfig(self) -> None:
        if not self.healed:
            self._schedule(1 + self.rng.randrange(150), "reconfig", ())
            self._reconfigure()

    def _reconfigure(self) -> None:
        leaders = self._leader_ids()
        if not leaders:
            return
        r = self.nodes[self.rng.choice(leaders)].raft
        assert r is not None
        try:
            if self.rng.random() < 0.5:
                candidates = sorted(set(self.nodes) - r.voters)
                if not candidates:
                    return
                target = self.rng.choice(candidates)
                _, actions = r.add_voter(target)
            else:
                target = self.rng.choice(sorted(r.voters))
                _, actions = r.remove_voter(target)
        except (VoterChangeError, NotLeaderError) as e:
            self.trace.append((self.now, "reconfig refused", str(e)))
            return
        self.stats["voter_changes"] += 1
        self.trace.append((self.now, "reconfig", sorted(r.voters)))
        self._process(self.nodes[r.node_id], actions)

    def _partition(self, side_a: list[int], side_b: list[int]) -> None:
        pairs = {(a, b) for a in side_a for b in side_b} | {(b, a) for a in side_a for b in side_b}
        self.blocked |= pairs
        self.stats["partitions"] += 1
        self._schedule(self.rng.randrange(100, 1500), "unblock", tuple(sorted(pairs)))

    def _ev_unblock(self, *pairs: tuple[int, int]) -> None:
        self.blocked.difference_update(pairs)

    def _crash(self, node_id: int) -> None:
        n = self.nodes[node_id]
        if n.raft is None:
            return
        self.stats["crashes"] += 1
        n.raft = None
        n.timer_at = None
        n.log.crash()  # the page cache is gone: only what was flushed survives
        self._schedule(self.rng.randrange(20, 600), "restart", (node_id,))

    def _ev_restart(self, node_id: int) -> None:
        n = self.nodes[node_id]
        if n.raft is None:
            self.trace.append((self.now, "restart", node_id))
            self._start_node(n)

    def _ev_append(self) -> None:
        self._schedule(1 + self.rng.randrange(2 * self.cfg.append_interval_ms), "append", ())
        leaders = self._leader_ids()
        if not leaders:
            return
        n = self.nodes[self.rng.choice(leaders)]
        assert n.raft is not None
        self.next_value += 1
        try:
            _, actions = n.raft.append([self.next_value])
        except NotLeaderError:
            return
        self._process(n, actions)

    def _ev_snapshot(self) -> None:
        self._schedule(1 + self.rng.randrange(2 * self.cfg.snapshot_interval_ms), "snapshot", ())
        up = [n for n in self.nodes.values() if n.raft is not None]
        if not up:
            return
        n = self.rng.choice(up)
        assert n.raft is not None
        offset = min(len(n.applied), n.log.flushed_offset)
        if offset <= n.log.start_offset:
            return
        n.raft.create_snapshot(offset, pickle.dumps(n.applied[:offset]))

    def _ev_heal(self) -> None:
        """End of chaos: the network is whole and reliable again, every node up."""
        self.healed = True
        self.blocked.clear()
        self.loss = 0.0
        self.duplicate = 0.0
        for n in self.nodes.values():
            if n.raft is None:
                self._start_node(n)
        self._schedule(1, "liveness", ())

    def _ev_liveness(self) -> None:
        self._schedule(20, "liveness", ())
        leaders = self._leader_ids()
        if len(leaders) != 1:
            return
        n = self.nodes[leaders[0]]
        assert n.raft is not None
        if self.liveness_marker is not None and self.liveness_marker >= n.log.start_offset:
            if self.liveness_marker < n.log.end_offset and n.log.entry(self.liveness_marker).epoch == n.raft.epoch:
                return  # our marker is in this leader's epoch: wait for it
        self.next_value += 1
        try:
            offset, actions = n.raft.append([("liveness", self.next_value)])
        except NotLeaderError:
            return
        self.liveness_marker = offset
        self._process(n, actions)

    def _live(self) -> bool:
        m = self.liveness_marker
        return m is not None and all(len(n.applied) > m for n in self.nodes.values())

    # ------------------------------------------------------------------ scenario helpers

    def leaders(self) -> list[int]:
        return self._leader_ids()

    def raft(self, node_id: int) -> RaftNode:
        r = self.nodes[node_id].raft
        assert r is not None, f"node {node_id} is down"
        return r

    def isolate(self, node_id: int) -> None:
        others = [i for i in self.nodes if i != node_id]
        self.blocked |= {(node_id, o) for o in others} | {(o, node_id) for o in others}

    def heal_network(self) -> None:
        self.blocked.clear()

    def crash(self, node_id: int) -> None:
        """Crash without the automatic restart the chaos schedule uses."""
        n = self.nodes[node_id]
        n.raft = None
        n.timer_at = None
        n.log.crash()

    def restart(self, node_id: int) -> None:
        self._start_node(self.nodes[node_id])

    def append(self, node_id: int, value: Any) -> int:
        n = self.nodes[node_id]
        assert n.raft is not None
        offset, actions = n.raft.append([value])
        self._process(n, actions)
        return offset

    def snapshot(self, node_id: int) -> None:
        n = self.nodes[node_id]
        assert n.raft is not None
        offset = min(len(n.applied), n.log.flushed_offset)
        n.raft.create_snapshot(offset, pickle.dumps(n.applied[:offset]))

    def check_final(self) -> None:
        self._check_final()

    # ------------------------------------------------------------------ invariants

    def _check_append(self, log: CheckedLog, e: LogEntry) -> None:
        if e.offset > log.start_offset:
            prev_epoch = log.entry(e.offset - 1).epoch
        else:
            snap = log.latest_snapshot_id
            prev_epoch = snap.epoch if snap is not None else -1
        key = (e.offset, e.epoch)
        known = self.entry_values.get(key)
        if known is None:
            self.entry_values[key] = (e.value, prev_epoch)
        elif known != (e.value, prev_epoch):
            self._fail(f"log matching: {key} holds {(e.value, prev_epoch)} here, {known} elsewhere")

    def _on_apply(self, n: SimNode, a: Apply) -> None:
        for e in a.entries:
            if e.offset != len(n.applied):
                self._fail(f"node {n.node_id} applied offset {e.offset} after {len(n.applied)} entries")
            rec = (e.epoch, e.value, e.control)
            if e.offset not in self.committed:
                self._check_majority_holds(n, e)
            known = self.committed.setdefault(e.offset, rec)
            if known != rec:
                self._fail(f"node {n.node_id} applied {rec} at {e.offset}; committed there: {known}")
            n.applied.append(rec)

    def _check_majority_holds(self, n: SimNode, e: LogEntry) -> None:
        """At its first commit an entry is durable (flushed, or inside a snapshot) on a majority of the voter
        set the committing node counts with: after a KIP-853 change that is the new set, in force on append."""
        if n.raft is None or n.raft.role is not Role.LEADER:
            return  # a follower or observer applies what a leader already committed (checked there)
        voters = n.raft.voters
        holders = []
        for v in voters:
            log = self.nodes[v].log
            if e.offset < log.start_offset:
                holders.append(v)
            elif e.offset < log.flushed_offset and log.entry(e.offset).epoch == e.epoch:
                holders.append(v)
        if len(holders) * 2 <= len(voters):
            self._fail(
                f"commit without a majority: {e.offset}@{e.epoch} on {sorted(holders)} of voters {sorted(voters)}"
            )

    def _on_load_snapshot(self, n: SimNode, a: LoadSnapshot) -> None:
        self.stats["snapshots_installed"] += 1
        state: list[tuple[int, Any, bool]] = pickle.loads(a.data)
        if len(state) != a.snapshot_id.offset or (state and state[-1][0] != a.snapshot_id.epoch):
            self._fail(f"node {n.node_id}: snapshot {a.snapshot_id} does not match its {len(state)} entries")
        for offset, rec in enumerate(state):
            known = self.committed.setdefault(offset, rec)
            if known != rec:
                self._fail(f"node {n.node_id} loaded {rec} at {offset} from a snapshot; committed: {known}")
        n.applied = list(state)

    def _on_leader_change(self, n: SimNode, a: LeaderChange) -> None:
        self.trace.append((self.now, "leader-change", n.node_id, a.epoch, a.leader_id))
        if a.leader_id is None:
            return
        known = self.epoch_leaders.setdefault(a.epoch, a.leader_id)
        if known != a.leader_id:
            self._fail(f"election safety: epoch {a.epoch} has leaders {known} and {a.leader_id}")
        if a.leader_id == n.node_id:
            self._check_leader_complete(n)

    def _check_leader_complete(self, n: SimNode) -> None:
        log = n.log
        for offset, (epoch, value, _) in self.committed.items():
            if offset < log.start_offset:
                continue  # inside its snapshot, which the snapshot checks cover
            if offset >= log.end_offset:
                self._fail(f"leader completeness: new leader {n.node_id} lacks committed offset {offset}")
            e = log.entry(offset)
            if (e.epoch, e.value) != (epoch, value):
                self._fail(f"leader completeness: leader {n.node_id} has {(e.epoch, e.value)} at committed {offset}")

    def _check_final(self) -> None:
        leader = self.nodes[self._leader_ids()[0]]
        self._check_leader_complete(leader)
        for n in self.nodes.values():
            for offset, rec in enumerate(n.applied):
                if self.committed.get(offset) != rec:
                    self._fail(f"node {n.node_id} applied {rec} at {offset}, committed {self.committed.get(offset)}")


def config_for_seed(seed: int, nodes: int | None = None, chaos_ms: int | None = None) -> SimConfig:
    """The suite's mix: 3 voters for even seeds, 5 for odd ones (unless `nodes`), one observer every 4th seed."""
    extra = 1 if seed % 4 == 3 else 0  # every 4th seed: one more node, and voters come and go (KIP-853)
    cfg = SimConfig(nodes=nodes or (3 if seed % 2 == 0 else 5), observers=extra, reconfig=bool(extra))
    return dataclasses.replace(cfg, chaos_ms=chaos_ms) if chaos_ms is not None else cfg


def run_seeds(seeds: range | list[int], nodes: int | None = None) -> list[SimResult]:
    return [Simulation(seed, config_for_seed(seed, nodes)).run() for seed in seeds]
