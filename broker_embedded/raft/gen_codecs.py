"""Generate `broker_embedded/raft/codecs/*.py`: the KRaft RPCs' codecs (Vote 52, BeginQuorumEpoch 53,
EndQuorumEpoch 54, FetchSnapshot 59, AddRaftVoter 80, RemoveRaftVoter 81, UpdateRaftVoter 82; BrokerRegistration
62, BrokerHeartbeat 63) from Kafka
4.3.1's own JSON specs in the kafka-clients jar, with the project's
generator (`kafka_wire.protocol.generator`). They live here, not in
`kafka_wire/protocol/messages`, because only the controller listener speaks them: the broker's
ApiVersions and codec tables stay as they are. Fetch (1) and DescribeQuorum (55) are already in
`kafka_wire.protocol.messages` at Kafka 4.3.1's ranges.

Usage: ``python -m broker_embedded.raft.gen_codecs [--check]``
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

from kafka_wire.protocol.generator import ModuleWriter, SpecModel, default_clients_jar, module_name, parse_spec

OUT_DIR = Path(__file__).parent / "codecs"
SPECS = (
    "VoteRequest",
    "VoteResponse",
    "BeginQuorumEpochRequest",
    "BeginQuorumEpochResponse",
    "EndQuorumEpochRequest",
    "EndQuorumEpochResponse",
    "FetchSnapshotRequest",
    "FetchSnapshotResponse",
    "AddRaftVoterRequest",
    "AddRaftVoterResponse",
    "RemoveRaftVoterRequest",
    "RemoveRaftVoterResponse",
    "UpdateRaftVoterRequest",
    "UpdateRaftVoterResponse",
    "BrokerRegistrationRequest",
    "BrokerRegistrationResponse",
    "BrokerHeartbeatRequest",
    "BrokerHeartbeatResponse",
)


def generate(jar: Path) -> dict[str, str]:
    files: dict[str, str] = {}
    with zipfile.ZipFile(jar) as z:
        for name in SPECS:
            model = SpecModel(parse_spec(z.read(f"common/message/{name}.json").decode()))
            files[f"{module_name(name)}.py"] = ModuleWriter(model).render()
    files["__init__.py"] = '"""Generated KRaft RPC codecs (broker_embedded.raft.gen_codecs): do not edit."""\n'
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients-jar", type=Path, default=None)
    parser.add_argument("--check", action="store_true", help="fail if the committed output differs")
    args = parser.parse_args(argv)
    jar = args.clients_jar or default_clients_jar()
    if jar is None:
        print("kafka-clients jar not found", file=sys.stderr)
        return 2
    files = generate(jar)
    if args.check:
        stale = [n for n, t in files.items() if not (OUT_DIR / n).exists() or (OUT_DIR / n).read_text() != t]
        if stale:
            print(f"generated codecs are stale: {sorted(stale)}", file=sys.stderr)
            return 1
        return 0
    OUT_DIR.mkdir(exist_ok=True)
    for name, text in files.items():
        (OUT_DIR / name).write_text(text)
    print(f"wrote {len(files)} modules to {OUT_DIR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
