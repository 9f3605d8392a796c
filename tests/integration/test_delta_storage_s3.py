"""Delta tables on a real S3-compatible server (versitygw, the `s3_server` fixture), below Spark:
delta-rs's commit on S3 is a conditional PUT, so of writers racing for one version exactly one wins
and the log stays whole; the offsets store and the ``pykafka offsets`` / ``lag`` commands read
s3:// tables with the sink's storage options; option parsing and mapping (storage.*, s3a, pyarrow)."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from offsets.delta_storage import (
    StorageOptionError,
    parse_table_location,
    pyarrow_s3_options,
    sink_storage_options,
    storage_options_from_s3a,
)
from offsets.delta_store import DeltaOffsetStore, app_id, query_app_id
from peers.s3 import S3Server

pa = pytest.importorskip("pyarrow")
deltalake = pytest.importorskip("deltalake")
pytestmark = pytest.mark.timeout(120)


def test_racing_commits_on_s3_exactly_one_wins(s3_server: S3Server, s3_prefix: str) -> None:
    opts = s3_server.storage_options()
    deltalake.write_deltalake(s3_prefix, pa.table({"x": [0]}), storage_options=opts)
    writers = 6
    barrier = threading.Barrier(writers)
    outcomes: list[tuple[int, str]] = []

    def commit(i: int) -> None:
        table = deltalake.DeltaTable(s3_prefix, storage_options=opts)  # all at version 0
        txn = deltalake.Transaction(app_id("g", "t", 0), 100 + i)
        barrier.wait()
        try:
            deltalake.write_deltalake(
                table,
                pa.table({"x": [100 + i]}),
                mode="append",
                # no retry: a writer that lost the race for version 1 must fail, not rebase
                commit_properties=deltalake.CommitProperties(max_commit_retries=0, app_transactions=[txn]),
            )
            outcomes.append((i, "ok"))
        except Exception as e:  # CommitFailedError: the version exists
            outcomes.append((i, type(e).__name__))

    threads = [threading.Thread(target=commit, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    winners = [i for i, what in outcomes if what == "ok"]
    assert len(outcomes) == writers and len(winners) == 1, outcomes
    assert {what for _, what in outcomes if what != "ok"} == {"CommitFailedError"}
    table = deltalake.DeltaTable(s3_prefix, storage_options=opts)
    assert table.version() == 1
    assert sorted(table.to_pyarrow_table().column("x").to_pylist()) == [0, 100 + winners[0]]
    # the committed log entry is the winner's, whole: its offset is the one the table reports
    assert DeltaOffsetStore(s3_prefix, "g", opts).committed([("t", 0)]) == {("t", 0): 100 + winners[0]}
    client = s3_server.client()
    try:
        key = s3_prefix.split("/", 3)[3] + "/_delta_log/00000000000000000001.json"
        body = client.get_object(Bucket=s3_server.bucket, Key=key)["Body"].read().decode()
    finally:
        client.close()
    txns = [json.loads(line)["txn"] for line in body.splitlines() if '"txn"' in line]
    assert [(t["appId"], t["version"]) for t in txns] == [(app_id("g", "t", 0), 100 + winners[0])]


def test_unsafe_rename_is_refused_and_locations_are_checked() -> None:
    with pytest.raises(StorageOptionError, match="AWS_S3_ALLOW_UNSAFE_RENAME"):
        parse_table_location("s3://b/t", {"aws_s3_allow_unsafe_rename": "true"})
    for bad, what in (("s3://bucket", "bucket root"), ("s3:///t", "names no bucket"), ("gs://b/t", "accepted")):
        with pytest.raises(StorageOptionError, match=what):
            parse_table_location(bad)
    loc = parse_table_location("s3a://b/tables/events/", {"aws_region": "eu-west-1", "AWS_SECRET_ACCESS_KEY": "s3cr3t"})
    assert (loc.uri, loc.scheme, loc.fs_path("p=1/f.parquet")) == (
        "s3://b/tables/events",
        "s3",
        "b/tables/events/p=1/f.parquet",
    )
    assert loc.storage_options == {"AWS_REGION": "eu-west-1", "AWS_SECRET_ACCESS_KEY": "s3cr3t"}
    assert "s3cr3t" not in repr(loc)
    with pytest.raises(StorageOptionError, match="AWS_ALLOW_HTTP") as e:
        pyarrow_s3_options({"AWS_ENDPOINT_URL": "http://10.0.0.1:9000/?secret-ish"})
    assert "secret-ish" not in str(e.value)
    assert parse_table_location("gs://b/t", other_schemes=True).uri == "gs://b/t"


def test_s3a_settings_map_to_delta_rs_and_pyarrow_names() -> None:
    conf = {
        "spark.hadoop.fs.s3a.endpoint": "127.0.0.1:9000",
        "spark.hadoop.fs.s3a.connection.ssl.enabled": "false",
        "spark.hadoop.fs.s3a.access.key": "AK",
        "spark.hadoop.fs.s3a.secret.key": "SK",
        "spark.hadoop.fs.s3a.path.style.access": "true",
        "fs.s3a.endpoint.region": "us-west-2",
        "spark.sql.shuffle.partitions": "2",
    }
    opts = storage_options_from_s3a(conf)
    assert opts == {
        "AWS_ACCESS_KEY_ID": "AK",
        "AWS_SECRET_ACCESS_KEY": "SK",
        "AWS_REGION": "us-west-2",
        "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
        "AWS_ALLOW_HTTP": "true",
        "AWS_VIRTUAL_HOSTED_STYLE_REQUEST": "false",
    }
    assert sink_storage_options(opts)["storage.AWS_REGION"] == "us-west-2"
    assert pyarrow_s3_options(opts) == {
        "access_key": "AK",
        "secret_key": "SK",
        "region": "us-west-2",
        "endpoint_override": "127.0.0.1:9000",
        "scheme": "http",
        "force_virtual_addressing": False,
    }


def _table_with_offsets(uri: str, opts: dict[str, str], query_id: str, topic: str) -> None:
    txns = [deltalake.Transaction(app_id(query_id, topic, 0), 6), deltalake.Transaction(query_app_id(query_id), 1)]
    txns.append(deltalake.Transaction(app_id("other-group", topic, 1), 8))
    deltalake.write_deltalake(
        uri,
        pa.table({"value": ["x"]}),
        storage_options=opts,
        commit_properties=deltalake.CommitProperties(app_transactions=txns),
    )


def test_offset_store_and_cli_read_s3_tables(
    s3_server: S3Server, s3_prefix: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pykafka_cli.main import main

    opts = s3_server.storage_options()
    query_id = "3f1b0c52-0000-4000-8000-000000000002"
    _table_with_offsets(s3_prefix, opts, query_id, "events")
    # lower-case keys (as Spark hands the sink's storage.* options over) work the same
    lower = {k.lower(): v for k, v in opts.items()}
    store = DeltaOffsetStore(s3_prefix.replace("s3://", "s3a://"), query_id, lower)
    assert store.committed([("events", 0), ("events", 1)]) == {("events", 0): 6}
    assert store.batch_id(query_id) == 1

    # the AWS_* environment is the fallback for what --storage-option does not give
    for key in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(key, opts[key])
    flags = [
        x for k in ("AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ALLOW_HTTP") for x in ("--storage-option", f"{k}={opts[k]}")
    ]
    capsys.readouterr()
    assert main(["--json", "offsets", s3_prefix, *flags]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    assert sorted((r["owner"], r["partition"], r["next_offset"], r["batch"]) for r in rows) == [
        (query_id, 0, 6, 1),
        ("other-group", 1, 8, None),
    ]
    assert main(["offsets", s3_prefix + "-missing", *flags]) == 1
    assert "not a Delta table" in capsys.readouterr().err
    assert main(["offsets", s3_prefix, "--storage-option", "no-equals-sign"]) == 1
    assert "KEY=VALUE" in capsys.readouterr().err
    # a wrong secret: an error, and the secret given is not printed
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wrong-secret-value")
    rc = main(["offsets", s3_prefix, *flags])
    out, err = capsys.readouterr()
    assert rc != 0 and "wrong-secret-value" not in out + err
