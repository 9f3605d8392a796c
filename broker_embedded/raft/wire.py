"""The KRaft RPCs on the wire: framing of the controller listener's requests and responses, the
`__cluster_metadata` partition's identity, and log entries as record batches.

Codecs: Vote / BeginQuorumEpoch / EndQuorumEpoch / FetchSnapshot from `raft/codecs` (generated from Kafka
4.3.1's specs by `raft/gen_codecs.py`), Fetch / DescribeQuorum / ApiVersions from
`kafka_wire.protocol.messages`. The per-API mapping to the core's dataclasses is one module per API key
in `broker_embedded/apis/` (vote.py, begin_quorum_epoch.py, ...).

An entry is one v2 record batch: base offset = the entry's offset, partition leader epoch = its epoch,
the control flag for LeaderChange / VotersRecord, one record whose value is the entry's bytes (control
values as JSON). The CRC lets the file log find a torn tail.
"""

from __future__ import annotations

import json
import struct
from types import ModuleType
from typing import Any

from broker_embedded.raft.codecs import (
    add_raft_voter_request,
    add_raft_voter_response,
    begin_quorum_epoch_request,
    begin_quorum_epoch_response,
    broker_heartbeat_request,
    broker_heartbeat_response,
    broker_registration_request,
    broker_registration_response,
    end_quorum_epoch_request,
    end_quorum_epoch_response,
    fetch_snapshot_request,
    fetch_snapshot_response,
    remove_raft_voter_request,
    remove_raft_voter_response,
    update_raft_voter_request,
    update_raft_voter_response,
    vote_request,
    vote_response,
)
from broker_embedded.raft.messages import LogEntry
from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol import messages
from kafka_wire.protocol.messages import request_header, response_header
from kafka_wire.protocol.primitives import read_string, skip_tagged_fields
from kafka_wire.records import build_batch, decode_batch, iter_batches

METADATA_TOPIC = "__cluster_metadata"
METADATA_TOPIC_ID = b"\x00" * 15 + b"\x01"  # Kafka's Uuid.METADATA_TOPIC_ID (0, 1)
METADATA_PARTITION = 0

VOTE, BEGIN_QUORUM_EPOCH, END_QUORUM_EPOCH, DESCRIBE_QUORUM, FETCH_SNAPSHOT = 52, 53, 54, 55, 59
FETCH, API_VERSIONS, DESCRIBE_CLUSTER = 1, 18, 60
ADD_RAFT_VOTER, REMOVE_RAFT_VOTER, UPDATE_RAFT_VOTER = 80, 81, 82  # KIP-853
BROKER_REGISTRATION, BROKER_HEARTBEAT = 62, 63  # KIP-631: brokers to the active controller

REQUESTS: dict[int, ModuleType] = {
    VOTE: vote_request,
    BEGIN_QUORUM_EPOCH: begin_quorum_epoch_request,
    END_QUORUM_EPOCH: end_quorum_epoch_request,
    FETCH_SNAPSHOT: fetch_snapshot_request,
    ADD_RAFT_VOTER: add_raft_voter_request,
    REMOVE_RAFT_VOTER: remove_raft_voter_request,
    UPDATE_RAFT_VOTER: update_raft_voter_request,
    BROKER_REGISTRATION: broker_registration_request,
    BROKER_HEARTBEAT: broker_heartbeat_request,
}
RESPONSES: dict[int, ModuleType] = {
    VOTE: vote_response,
    BEGIN_QUORUM_EPOCH: begin_quorum_epoch_response,
    END_QUORUM_EPOCH: end_quorum_epoch_response,
    FETCH_SNAPSHOT: fetch_snapshot_response,
    ADD_RAFT_VOTER: add_raft_voter_response,
    REMOVE_RAFT_VOTER: remove_raft_voter_response,
    UPDATE_RAFT_VOTER: update_raft_voter_response,
    BROKER_REGISTRATION: broker_registration_response,
    BROKER_HEARTBEAT: broker_heartbeat_response,
}
# the versions this controller listener sends (the newest both sides know) and serves
SEND_VERSIONS = {VOTE: 2, BEGIN_QUORUM_EPOCH: 1, END_QUORUM_EPOCH: 1, FETCH_SNAPSHOT: 1, FETCH: 18}

_i32 = struct.Struct(">i")
_header = struct.Struct(">hhi")


def request_module(api_key: int) -> ModuleType | None:
    return REQUESTS.get(api_key) or messages.REQUESTS.get(api_key)


def response_module(api_key: int) -> ModuleType | None:
    return RESPONSES.get(api_key) or messages.RESPONSES.get(api_key)


def _flexible(module: ModuleType, version: int) -> bool:
    lo, hi = module.FLEXIBLE_VERSIONS
    return lo <= version <= hi


def served_range(api_key: int) -> tuple[int, int] | None:
    rq, rs = request_module(api_key), response_module(api_key)
    if rq is None or rs is None:
        return None
    return max(rq.VALID_VERSIONS[0], rs.VALID_VERSIONS[0]), min(rq.VALID_VERSIONS[1], rs.VALID_VERSIONS[1])


def encode_request(api_key: int, version: int, correlation_id: int, client_id: str, body: Any) -> bytes:
    module = request_module(api_key)
    assert module is not None
    hdr = request_header.RequestHeader(
        request_api_key=api_key, request_api_version=version, correlation_id=correlation_id, client_id=client_id
    )
    chunks: list[Any] = []
    request_header.ENCODERS[2 if _flexible(module, version) else 1](hdr, chunks)
    module.ENCODERS[version](body, chunks)
    payload = b"".join(bytes(c) for c in chunks)
    return _i32.pack(len(payload)) + payload


def decode_request(frame: bytes) -> tuple[int, int, int, Any]:
    """(api key, version, correlation id, body); ProtocolDecodeError / KeyError for what is not served."""
    try:
        api_key, version, correlation_id = _header.unpack_from(frame, 0)
        _client_id, pos = read_string(frame, 8)
        module = request_module(api_key)
        if module is None or version not in module.DECODERS:
            raise KeyError((api_key, version))
        if _flexible(module, version):  # request header v2
            pos = skip_tagged_fields(frame, pos)
        body, end = module.DECODERS[version](frame, pos)
    except (struct.error, IndexError, UnicodeDecodeError, ValueError) as e:
        raise ProtocolDecodeError(f"malformed request: {e}") from e
    if end > len(frame):
        raise ProtocolDecodeError("request runs past its frame")
    return api_key, version, correlation_id, body


def encode_response(api_key: int, version: int, correlation_id: int, body: Any) -> bytes:
    module = response_module(api_key)
    assert module is not None
    chunks: list[Any] = [_i32.pack(correlation_id)]
    # ApiVersions answers with header v0 whatever its version (so an old client can read the error)
    if api_key != API_VERSIONS and _flexible(module, version):
        chunks.append(b"\x00")
    module.ENCODERS[version](body, chunks)
    payload = b"".join(bytes(c) for c in chunks)
    return _i32.pack(len(payload)) + payload


def decode_response(api_key: int, version: int, frame: bytes) -> tuple[int, Any]:
    module = response_module(api_key)
    assert module is not None
    try:
        hv = 1 if api_key != API_VERSIONS and _flexible(module, version) else 0
        header, pos = response_header.DECODERS[hv](frame, 0)
        body, _end = module.DECODERS[version](frame, pos)
    except (struct.error, IndexError, UnicodeDecodeError, ValueError) as e:
        raise ProtocolDecodeError(f"malformed response for API {api_key} v{version}: {e}") from e
    return header.correlation_id, body


# --- entries <-> record batches


def entry_value_bytes(entry: LogEntry) -> bytes:
    if entry.control:
        return json.dumps(entry.value).encode()
    if not isinstance(entry.value, bytes | bytearray):
        raise TypeError(f"a metadata log value must be bytes, not {type(entry.value).__name__}")
    return bytes(entry.value)


def _control_value(raw: bytes) -> Any:
    # the core's control values are tuples (("LeaderChange", leader, epoch), ("VotersRecord", (ids...)))
    def tup(v: Any) -> Any:
        return tuple(tup(x) for x in v) if isinstance(v, list) else v

    return tup(json.loads(raw))


def encode_entry(entry: LogEntry) -> bytes:
    return build_batch(
        [(0, None, entry_value_bytes(entry), None)],
        base_offset=entry.offset,
        is_control=entry.control,
        partition_leader_epoch=entry.epoch,
    )


def encode_entries(entries: tuple[LogEntry, ...] | list[LogEntry]) -> bytes:
    return b"".join(encode_entry(e) for e in entries)


def decode_entries(buf: bytes | memoryview | None) -> tuple[LogEntry, ...]:
    if not buf:
        return ()
    out = []
    for pos, _h in iter_batches(buf):
        h, records = decode_batch(buf, pos)
        for r in records:
            raw = r.value or b""
            value = _control_value(raw) if h.is_control else bytes(raw)
            out.append(LogEntry(r.offset, h.partition_leader_epoch, value, control=h.is_control))
    return tuple(out)
