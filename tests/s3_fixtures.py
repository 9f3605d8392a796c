"""The ``s3_server`` fixture: one real S3-compatible server (versitygw, ``peers/s3.py``) for the test
session, on a free 127.0.0.1 port, with a bucket; stopped when the session ends.

Without the server binary (``./scripts/setup.sh`` builds it with Go) the tests that use it skip,
except under ``CI=true``, where a missing server is a failure (as for the JVM peers).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

from peers.s3 import VERSITYGW_BIN, S3Server, s3_server_available


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    if not s3_server_available():
        message = f"the S3 server is not built ({VERSITYGW_BIN}): run ./scripts/setup.sh (needs Go)"
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
