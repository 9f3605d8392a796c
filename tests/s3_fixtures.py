"""The ``s3_server`` fixture: one real S3-compatible server (versitygw, ``peers/s3.py``) for the test
session, on a free 127.0.0.1 port, with a bucket; stopped when the session ends.

Without the server binary (``./scripts/setup.sh`` builds it with Go) the tests that use it skip,
except under ``CI=true``, where a missing server is a failure (as for the JVM peers).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from peers.s3 import FAILED_MARKER, VERSITYGW_BIN, S3Server, s3_server_available, wait_for_build


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    wait_for_build()
    if not s3_server_available():
        message = f"the S3 server is not built ({VERSITYGW_BIN}): run ./scripts/setup.sh (needs Go)"
        if FAILED_MARKER.exists():
            message += f"; its build failed: see {FAILED_MARKER.parent / 'build.log'}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    pytest.importorskip("boto3", reason="boto3 is not installed (the `s3` extra)")
    with S3Server(bucket="pykafka-test") as server:
        yield server


@pytest.fixture
def s3_prefix(s3_server: S3Server, request: pytest.FixtureRequest) -> str:
    """A fresh ``s3://<bucket>/<test name>-<random>`` prefix per test (tests share the bucket)."""
    name = "".join(c if c.isalnum() else "-" for c in request.node.name)[:60].strip("-")
    return f"s3://{s3_server.bucket}/{name}-{uuid.uuid4().hex[:8]}"


def duckdb_s3_query(server: S3Server, table_uri: str, sql: str) -> Any:
    """Run `sql` over the Delta table at `table_uri` (as view `t`) with DuckDB's delta extension, S3
    reached through its httpfs extension and a secret for `server`. Both extensions are loaded from
    their wheels (duckdb-extension-delta / -httpfs): nothing is downloaded."""
    import glob

    import duckdb
    import duckdb_extension_httpfs

    from examples.delta_check import delta_extension_path

    root = os.path.dirname(duckdb_extension_httpfs.__file__)
    httpfs = glob.glob(os.path.join(root, "extensions", f"v{duckdb.__version__}", "httpfs.duckdb_extension"))
    if not httpfs:
        raise RuntimeError(f"duckdb-extension-httpfs has no extension for duckdb {duckdb.__version__} under {root}")
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    try:
        con.execute(f"LOAD '{httpfs[0]}'")
        con.execute(f"LOAD '{delta_extension_path()}'")
        host = server.endpoint.split("://", 1)[1]
        key, secret, region = (v.replace("'", "''") for v in (server.access_key, server.secret_key, server.region))
        con.execute(
            f"CREATE SECRET pykafka_s3 (TYPE s3, KEY_ID '{key}', SECRET '{secret}', REGION '{region}', "
            f"ENDPOINT '{host}', URL_STYLE 'path', USE_SSL false)"
        )
        con.execute(f"CREATE VIEW t AS SELECT * FROM delta_scan('{table_uri}')")
        return con.execute(sql).to_arrow_table()
    finally:
        con.close()
