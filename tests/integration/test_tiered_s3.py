"""Tiered storage on a real S3-compatible server (versitygw on 127.0.0.1, the `s3_server` fixture)
through `broker_embedded.tiered.s3.S3RemoteStorageManager`: rolled segments are uploaded as objects,
local retention deletes the local copies, and a confluent-kafka consumer reads the whole log from
offset 0 (ranged GETs below the local log start); DeleteRecords and topic deletion remove the
objects. The plugin's own contract (ranges, missing objects, idempotent deletes, config errors, no
secret in error messages) is checked directly against the same server."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from broker_embedded.tiered import (
    IndexType,
    LogSegmentData,
    RemoteLogSegmentId,
    RemoteLogSegmentMetadata,
    RemoteResourceNotFoundException,
    RemoteStorageException,
    TopicIdPartition,
)
from broker_embedded.tiered.s3 import S3RemoteStorageManager
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_records_request as drq
from peers.s3 import S3Server
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.test_tiered_fetch import (
    TOPIC_CONFIGS,
    broker_configs,
    check_all,
    ck_read_all,
    produce,
    status,
    tip,
    wait_tiered,
)

pytest.importorskip("boto3")
pytestmark = pytest.mark.timeout(120)


def s3_keys(server: S3Server, prefix: str) -> list[str]:
    client = server.client()
    try:
        pages = client.get_paginator("list_objects_v2").paginate(Bucket=server.bucket, Prefix=prefix)
        return sorted(obj["Key"][len(prefix) :] for page in pages for obj in page.get("Contents", []))
    finally:
        client.close()


def s3_broker_configs(tmp_path: Path, server: S3Server, prefix: str) -> dict[str, Any]:
    cfg = broker_configs(tmp_path, **server.rsm_configs(prefix=prefix))
    del cfg["rsm.config.dir"]  # nothing is stored locally but the metadata log
    return cfg


def test_consumer_reads_from_offset_0_through_s3(tmp_path: Path, s3_server: S3Server) -> None:
    n = 3000
    prefix = f"fetch-{uuid.uuid4().hex[:8]}/"
    with EmbeddedBroker(tmp_path / "logs", **s3_broker_configs(tmp_path, s3_server, prefix)) as b:
        assert isinstance(b.call(lambda br: br.remote_log_manager.rsm), S3RemoteStorageManager)
        w.create_topic(w.connect(b.bootstrap_servers), "t", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "t", n)
        s = wait_tiered(b, "t", n // 2)
        assert s["log_start_offset"] == 0 and s["remote_segments"] >= 10, s
        # the local copies of the uploaded segments are gone
        local_bases = sorted(int(p.name[:-4]) for p in (tmp_path / "logs" / "t-0").glob("*.log"))
        assert local_bases[0] == s["local_log_start_offset"] > 0
        assert not (tmp_path / "remote").exists()
        # one .log object per COPY_SEGMENT_FINISHED segment, each with its indexes (copies may still run)
        folder = f"{prefix}t-0-{b.call(lambda br: tip(br, 't')).topic_id_base64}/"
        wait_until(
            lambda: (
                len([k for k in s3_keys(s3_server, folder) if k.endswith(".log")]) == status(b, "t")["remote_segments"]
            ),
            what="S3 objects match the remote metadata",
        )
        keys = set(s3_keys(s3_server, folder))
        for key in (k for k in keys if k.endswith(".log")):
            for suffix in (".index", ".timeindex", ".snapshot", ".leader_epoch_checkpoint"):
                assert key[:-4] + suffix in keys, key
        check_all(ck_read_all(b.bootstrap_servers, "t", n), n)
        # a fetch starting inside a remote batch: a ranged GET from the batch holding the offset
        check_all(ck_read_all(b.bootstrap_servers, "t", n - 777, start=777), n, start=777)
        assert status(b, "t")["failures"] == 0

        # DeleteRecords into the remote range deletes the objects of the segments wholly below it
        conn = w.connect(b.bootstrap_servers)
        target = 1100
        req = drq.DeleteRecordsRequest(
            topics=[drq.DeleteRecordsTopic(name="t", partitions=[drq.DeleteRecordsPartition(0, target)])],
            timeout_ms=5000,
        )
        assert conn.request(21, req).topics[0].partitions[0].error_code == ErrorCode.NONE
        t_tip = b.call(lambda br: tip(br, "t"))
        wait_until(
            lambda: all(
                m.end_offset >= target
                for m in b.call(lambda br: list(br.remote_log_manager.rlmm.list_remote_log_segments(t_tip)))
            ),
            what="remote segments below the new log start offset deleted",
        )
        first_kept = min(
            m.start_offset for m in b.call(lambda br: list(br.remote_log_manager.rlmm.list_remote_log_segments(t_tip)))
        )
        assert all(int(k[:20]) >= first_kept for k in s3_keys(s3_server, folder)), "objects of deleted segments remain"
        check_all(ck_read_all(b.bootstrap_servers, "t", n - target, start=target), n, start=target)

        # topic deletion removes every object of the partition
        b.call(lambda br: br.delete_topic("t"))
        wait_until(lambda: s3_keys(s3_server, folder) == [], timeout=30, what="objects of the deleted topic removed")


# ---------------------------------------------------------------------- the plugin's own contract


def _segment(tmp_path: Path, size: int = 5000) -> tuple[RemoteLogSegmentMetadata, LogSegmentData, bytes]:
    body = bytes(i % 251 for i in range(size))
    files = {}
    for suffix, content in ((".log", body), (".index", b"I" * 80), (".timeindex", b"T" * 120), (".snapshot", b"S")):
        files[suffix] = tmp_path / f"00000000000000000000{suffix}"
        files[suffix].write_bytes(content)
    tip_ = TopicIdPartition(uuid.uuid4().bytes, "contract", 3)
    md = RemoteLogSegmentMetadata(
        RemoteLogSegmentId.generate_new(tip_),
        start_offset=0,
        end_offset=99,
        max_timestamp_ms=1,
        broker_id=0,
        event_timestamp_ms=1,
        segment_size_in_bytes=size,
        segment_leader_epochs=((0, 0),),
    )
    data = LogSegmentData(files[".log"], files[".index"], files[".timeindex"], None, files[".snapshot"], b"0\n1\n0 0\n")
    return md, data, body


def _rsm(server: S3Server, **overrides: str) -> S3RemoteStorageManager:
    rsm = S3RemoteStorageManager()
    configs = {k[len("rsm.config.") :]: v for k, v in server.rsm_configs(prefix="contract/").items() if "rsm." in k}
    rsm.configure({"dir": "/ignored", **configs, **overrides})  # the broker always passes `dir`
    return rsm


def test_rsm_contract(tmp_path: Path, s3_server: S3Server) -> None:
    rsm = _rsm(s3_server)
    try:
        md, data, body = _segment(tmp_path)
        assert rsm.copy_log_segment_data(md, data) is None
        assert rsm.copy_log_segment_data(md, data) is None  # a retry overwrites: idempotent
        assert rsm.fetch_log_segment(md, 0).read() == body
        assert rsm.fetch_log_segment(md, 100, 199).read() == body[100:200]  # inclusive end
        assert rsm.fetch_log_segment(md, 4990, 10_000).read() == body[4990:]  # clipped at the end
        assert rsm.fetch_log_segment(md, 5000).read() == b""  # at the end: nothing, as a file read
        assert rsm.fetch_index(md, IndexType.OFFSET).read() == b"I" * 80
        assert rsm.fetch_index(md, IndexType.LEADER_EPOCH).read() == b"0\n1\n0 0\n"
        with pytest.raises(RemoteResourceNotFoundException):
            rsm.fetch_index(md, IndexType.TRANSACTION)  # never copied (no transaction index)
        with pytest.raises(ValueError, match="bad byte range"):
            rsm.fetch_log_segment(md, 10, 5)
        names = rsm.list_keys(md.topic_id_partition)
        assert len(names) == 5 and all(n.startswith(f"{0:020d}-{md.remote_log_segment_id.id}") for n in names)
        rsm.delete_log_segment_data(md)
        rsm.delete_log_segment_data(md)  # idempotent
        assert rsm.list_keys(md.topic_id_partition) == []
        with pytest.raises(RemoteResourceNotFoundException):
            rsm.fetch_log_segment(md, 0, 10)
    finally:
        rsm.close()


def test_rsm_errors_name_the_config_and_hide_the_secret(tmp_path: Path, s3_server: S3Server) -> None:
    with pytest.raises(ValueError, match=r"rsm\.config\.s3\.bucket\.name"):
        S3RemoteStorageManager().configure({"s3.endpoint.url": s3_server.endpoint})
    with pytest.raises(ValueError, match=r"rsm\.config\.s3\.path\.style\.access\.enabled.*true, false"):
        _rsm(s3_server, **{"s3.path.style.access.enabled": "yes"})
    with pytest.raises(ValueError, match=r"aws\.secret\.access\.key"):
        S3RemoteStorageManager().configure({"s3.bucket.name": "b", "aws.access.key.id": "x"})
    wrong_secret = "not-the-secret-" + uuid.uuid4().hex
    rsm = _rsm(s3_server, **{"aws.secret.access.key": wrong_secret})
    try:
        md, data, _ = _segment(tmp_path)
        with pytest.raises(RemoteStorageException) as e:
            rsm.copy_log_segment_data(md, data)
        assert "s3://pykafka-test/contract/" in str(e.value)
        assert wrong_secret not in str(e.value) and s3_server.secret_key not in str(e.value)
    finally:
        rsm.close()
    missing_bucket = _rsm(s3_server, **{"s3.bucket.name": "no-such-bucket"})
    try:
        md, data, _ = _segment(tmp_path)
        with pytest.raises(RemoteStorageException, match="NoSuchBucket"):
            missing_bucket.copy_log_segment_data(md, data)
    finally:
        missing_bucket.close()
