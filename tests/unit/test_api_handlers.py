"""Lazy handler and codec loading (issue 17, broker start): the tables that replace eager imports
cannot go stale, ApiVersions advertises exactly what it did when every module was imported at
start, and a started broker has imported neither handlers nor codecs it has not been asked for.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from broker_embedded import apis
from broker_embedded.versions import (
    CONSUMER_PROTOCOL,
    KAFKA_4_0,
    SHARE_GROUPS,
    STREAMS_PROTOCOL,
    TOPIC_ID_OFFSETS,
    advertised_versions,
)
from kafka_wire.protocol import encode_request, messages
from kafka_wire.protocol.lazy import LazyModules

ROOT = Path(__file__).resolve().parents[2]

# What ApiVersions advertised before lazy loading (every handler and codec imported at start),
# captured from that code: a lazy table must not change a single range. (A new API or a new
# release profile changes it on purpose: update this table in the same change.)
ADVERTISED_BEFORE_LAZY_LOADING: dict[int, tuple[int, int]] = {
    0: (3, 12), 1: (4, 17), 2: (1, 10), 3: (0, 13),
    8: (2, 10), 9: (1, 10),  # OffsetCommit/OffsetFetch v10 (topic ids), as Kafka 4.3.1
    10: (0, 6), 11: (2, 9),
    12: (0, 4), 13: (0, 5), 14: (0, 5), 15: (0, 6), 16: (0, 5), 17: (0, 1), 18: (0, 4), 19: (2, 7),
    20: (1, 6), 21: (0, 2), 22: (0, 5), 23: (2, 4), 24: (0, 5), 25: (0, 4), 26: (0, 5), 27: (1, 1),
    28: (0, 5), 29: (1, 3), 30: (1, 3), 31: (1, 3), 32: (1, 4), 33: (0, 2), 34: (1, 2), 35: (1, 4), 36: (0, 2),
    37: (0, 3), 42: (0, 2), 43: (0, 2), 44: (0, 1), 45: (0, 0), 46: (0, 0), 47: (0, 0), 48: (0, 1), 49: (0, 1),
    50: (0, 0), 51: (0, 0), 57: (0, 2), 60: (0, 2),
    61: (0, 0), 65: (0, 0),
    66: (0, 1),
    68: (0, 1), 69: (0, 1),  # the consumer group protocol (KIP-848): on by default, as in Kafka 4
    75: (0, 0),  # DescribeTopicPartitions (KIP-966)
    76: (1, 1), 77: (1, 1), 78: (1, 2), 79: (1, 2),  # share groups (KIP-932), as Kafka 4.3.1
    83: (0, 0), 84: (0, 0), 85: (0, 1), 86: (0, 0), 87: (0, 1),  # the share coordinator's RPCs
    88: (0, 0), 89: (0, 0),  # streams groups (KIP-1071): on by default, as in Kafka 4.3
    90: (0, 1), 91: (0, 0), 92: (0, 0),  # share-group offsets admin, as Kafka 4.3.1
}  # fmt: skip


def test_handler_table_matches_the_modules() -> None:
    scanned = apis.scan_handlers()  # raises on a duplicate key or a module without handle()
    found = {key: module.__name__.rsplit(".", 1)[1] for key, module in scanned.items()}
    table = "\n".join(f"    {k}: {found[k]!r}," for k in sorted(found))
    assert found == apis.HANDLER_MODULES, f"HANDLER_MODULES in broker_embedded/apis/__init__.py must be:\n{table}"
    for key, module in scanned.items():
        assert apis.HANDLERS[key] is module


def test_codec_tables_match_the_modules() -> None:
    on_disk = {p.stem for p in (ROOT / "kafka_wire/protocol/messages").glob("*.py") if p.stem != "__init__"}
    assert set(messages.MODULES) == on_disk
    for table, versions, flexible, kind in (
        (messages.REQUESTS, messages.REQUEST_VERSIONS, messages.REQUEST_FLEXIBLE_VERSIONS, "request"),
        (messages.RESPONSES, messages.RESPONSE_VERSIONS, messages.RESPONSE_FLEXIBLE_VERSIONS, "response"),
    ):
        assert set(table) == set(versions) == set(flexible)
        for key, module in table.items():
            assert module.API_KEY == key and module.__name__.endswith(f"_{kind}")
            assert versions[key] == module.VALID_VERSIONS
            assert flexible[key] == module.FLEXIBLE_VERSIONS
    assert messages.fetch_request is messages.REQUESTS[1]  # PEP 562 attribute access
    with pytest.raises(AttributeError):
        _ = messages.no_such_codec


def test_advertised_ranges_are_unchanged() -> None:
    assert advertised_versions(set(apis.HANDLERS)) == ADVERTISED_BEFORE_LAZY_LOADING
    # ... and equal to the formula on the modules' own attributes
    from_modules: dict[int, tuple[int, int]] = {}
    for key in sorted(apis.HANDLERS):
        profile = KAFKA_4_0 | SHARE_GROUPS | TOPIC_ID_OFFSETS | CONSUMER_PROTOCOL | STREAMS_PROTOCOL
        if key not in profile:  # implemented, not advertised (yet)
            continue
        rq, rs = messages.REQUESTS[key].VALID_VERSIONS, messages.RESPONSES[key].VALID_VERSIONS
        lo, hi = max(profile[key][0], rq[0], rs[0]), min(profile[key][1], rq[1], rs[1])
        if lo <= hi:
            from_modules[key] = (lo, hi)
    assert from_modules == ADVERTISED_BEFORE_LAZY_LOADING


def test_lazy_modules_mapping() -> None:
    table: LazyModules[int] = LazyModules("kafka_wire.protocol.messages", {3: "metadata_request"})
    assert 3 in table and 4 not in table and list(table) == [3] and len(table) == 1
    assert table.loaded() == {}
    assert table.get(4) is None and table.get(4, "x") == "x"
    assert table.loaded() == {}
    assert table.get(3) is messages.metadata_request is table[3]
    assert table.loaded() == {3: messages.metadata_request}
    with pytest.raises(KeyError):
        table[4]


# Run in a fresh interpreter: what the CLI's start imports, then what one ApiVersions and one
# Metadata request add. Prints the handler and codec modules that have run their code at each point.
_START_SCRIPT = r"""
import json, socket, struct, sys, tempfile, threading
from pathlib import Path
import broker_embedded.__main__  # everything `python -m broker_embedded` imports before it listens
from broker_embedded.config import BrokerConfig
from broker_embedded.embedded import BrokerRunner, new_event_loop
from kafka_wire.protocol.lazy import is_executed

def loaded():
    return sorted(
        name for name, module in list(sys.modules.items())
        if name.startswith(("broker_embedded.apis.", "kafka_wire.protocol.messages.")) and is_executed(module)
    )

out = {"imported": loaded()}
loop = new_event_loop()
runner = BrokerRunner(BrokerConfig({"port": "0"}), Path(tempfile.mkdtemp()))
port = loop.run_until_complete(runner.start())
out["started"] = loaded()
threading.Thread(target=loop.run_forever, daemon=True).start()
s = socket.create_connection(("127.0.0.1", port), timeout=10)
out["responses"] = []
for frame in sys.argv[1:]:
    s.sendall(bytes.fromhex(frame))
    n = struct.unpack(">i", s.recv(4, socket.MSG_WAITALL))[0]
    out["responses"].append(s.recv(n, socket.MSG_WAITALL).hex())
out["served"] = loaded()
print(json.dumps(out))
"""


def test_start_imports_only_what_is_asked_for_and_advertises_every_api() -> None:
    from kafka_wire.protocol.messages import metadata_request

    metadata = encode_request(3, 12, 2, "t", metadata_request.MetadataRequest(topics=None))
    api_versions = encode_request(18, 0, 1, "t", messages.api_versions_request.ApiVersionsRequest())
    proc = subprocess.run(
        [sys.executable, "-c", _START_SCRIPT, api_versions.hex(), metadata.hex()],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    # ApiVersions on the wire (v0: a v0 header, the correlation id only) lists every API at its range
    body, _ = messages.api_versions_response.DECODERS[0](bytes.fromhex(out["responses"][0]), 4)
    assert body.error_code == 0
    assert {k.api_key: (k.min_version, k.max_version) for k in body.api_keys} == ADVERTISED_BEFORE_LAZY_LOADING
    for when in ("imported", "started"):
        handlers = [m for m in out[when] if m.startswith("broker_embedded.apis.")]
        assert handlers == [], f"handlers imported before their first request: {handlers}"
        # none today: parts that keep a codec module bind it deferred (all 109 ran at start before)
        assert len(out[when]) <= 4, f"codecs run at start: {out[when]}"
    served = set(out["served"])
    assert {"broker_embedded.apis.api_versions", "broker_embedded.apis.metadata"} <= served
    assert {f"kafka_wire.protocol.messages.{m}" for m in ("metadata_request", "metadata_response")} <= served
    assert not any(m.startswith("broker_embedded.apis.") for m in served - set(out["started"]) - {
        "broker_embedded.apis.api_versions",
        "broker_embedded.apis.metadata",
    })  # fmt: skip


_DEFERRED_SCRIPT = r"""
import sys, threading
from kafka_wire.protocol import messages
from kafka_wire.protocol.lazy import is_executed
from kafka_wire.protocol.messages import describe_quorum_response as bound

name = "kafka_wire.protocol.messages.describe_quorum_response"
assert sys.modules[name] is bound is messages.describe_quorum_response, "one module object"
assert not is_executed(bound), "bound but not run"
assert messages.RESPONSES[55] is bound and not is_executed(bound), "the table hands out the same object"
barrier = threading.Barrier(8)
seen, errors = [], []
def first_use():
    barrier.wait()
    try:
        seen.append(bound.DECODERS)
    except BaseException as e:
        errors.append(repr(e))
threads = [threading.Thread(target=first_use) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert not errors, errors
assert len(seen) == 8 and all(d is seen[0] for d in seen), "ran once, the same DECODERS everywhere"
assert is_executed(bound) and type(bound) is type(sys), "a plain module once run"
import kafka_wire.protocol.messages.describe_quorum_response as again
assert again is bound
try:
    bound.no_such_name
except AttributeError:
    pass
else:
    raise AssertionError("missing attribute")
print("ok")
"""


def test_deferred_codec_modules_run_once_and_keep_their_identity() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _DEFERRED_SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
