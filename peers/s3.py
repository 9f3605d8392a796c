"""A real S3-compatible server for the object-storage tests: versitygw (Versity S3 Gateway).

Why versitygw: it is a complete S3 server in Go (Apache-2.0) whose posix backend keeps objects as
plain files, it builds from the Go module proxy with one ``go install`` (``scripts/setup.sh``, into
``peers/target/s3/``, about two minutes on two cores, cached afterwards), and it implements S3
conditional writes atomically (``If-None-Match: *`` / ``If-Match``, checked and published under a
per-key lock), which is what delta-rs relies on to let only one of two writers create the same
``_delta_log/<version>.json``. An in-process mock (moto) would prove nothing about HTTP, signing or
that atomicity; MinIO and SeaweedFS take far longer to build.

:class:`S3Server` starts one gateway on a free 127.0.0.1 port over a temporary directory, with
static root credentials, and creates a bucket. It is used by ``tests/s3_fixtures.py``; the product
never imports it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
# scripts/setup.sh reads this line (sed) to know which version to build.
VERSITYGW_VERSION = "v1.8.0"
S3_DIR = REPO_ROOT / "peers" / "target" / "s3"
VERSITYGW_BIN = S3_DIR / f"versitygw-{VERSITYGW_VERSION}" / "versitygw"
LOOPBACK = "127.0.0.1"
REGION = "us-east-1"


class S3ServerMissing(RuntimeError):
    """The versitygw binary is not built (run ./scripts/setup.sh; it needs Go)."""


BUILDING_MARKER = S3_DIR / ".building"  # holds the pid of a detached first build (scripts/setup_peers.sh)
FAILED_MARKER = S3_DIR / ".failed"


def _builder_alive() -> bool:
    try:
        os.kill(int(BUILDING_MARKER.read_text().strip()), 0)
    except (OSError, ValueError):
        return False
    return True


def wait_for_build(timeout: float = 600.0) -> None:
    """Wait while the setup's detached first build of the server runs (the whole suite starts its tests
    without waiting for it); returns at once when no build is running."""
    deadline = time.monotonic() + timeout
    while not s3_server_available() and BUILDING_MARKER.exists() and _builder_alive():
        if time.monotonic() > deadline:
            raise S3ServerMissing(f"the S3 server's build ({S3_DIR / 'build.log'}) did not finish in {timeout:.0f} s")
        time.sleep(1.0)


def s3_server_available() -> bool:
    return VERSITYGW_BIN.is_file() and os.access(VERSITYGW_BIN, os.X_OK)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return int(s.getsockname()[1])


class S3Server:
    """One versitygw process serving ``root`` (a temporary directory unless given) on 127.0.0.1."""

    def __init__(self, bucket: str = "pykafka", root: Path | None = None) -> None:
        if not s3_server_available():
            raise S3ServerMissing(f"{VERSITYGW_BIN} is missing: run ./scripts/setup.sh (builds it with Go)")
        self.bucket = bucket
        self._own_root = root is None
        self.root = Path(tempfile.mkdtemp(prefix="pykafka-s3-")) if root is None else root
        self.port = _free_port()
        self.endpoint = f"http://{LOOPBACK}:{self.port}"
        self.region = REGION
        # Test-only credentials of the gateway's root account.
        self.access_key = "pykafka-test-access"
        self.secret_key = "pykafka-test-secret-" + os.urandom(6).hex()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.root.parent / f"{self.root.name}.log"

    # ------------------------------------------------------------------ lifecycle
    def start(self, timeout: float = 30.0) -> S3Server:
        data = self.root / "data"
        sidecar = self.root / "meta"  # object metadata in a sidecar dir: no xattr support needed
        data.mkdir(parents=True, exist_ok=True)
        sidecar.mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "ROOT_ACCESS_KEY_ID": self.access_key,
            "ROOT_SECRET_ACCESS_KEY": self.secret_key,
        }
        argv = [
            str(VERSITYGW_BIN),
            "--port",
            f"{LOOPBACK}:{self.port}",
            "--region",
            self.region,
            "--quiet",
            "posix",
            "--sidecar",
            str(sidecar),
            str(data),
        ]
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"versitygw exited with {self.proc.returncode}: {self.log_tail()}")
            try:
                with socket.create_connection((LOOPBACK, self.port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"versitygw did not listen on {self.endpoint}: {self.log_tail()}") from None
                time.sleep(0.05)
        self.create_bucket(self.bucket)
        return self

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)
            with contextlib.suppress(FileNotFoundError):
                self.log_path.unlink()

    def __enter__(self) -> S3Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except FileNotFoundError:
            return ""

    # ------------------------------------------------------------------ clients and settings
    def client(self) -> Any:
        """A boto3 S3 client for this server (path-style addressing, as S3-compatible servers want)."""
        import boto3
        from botocore.config import Config

        return boto3.session.Session().client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=self.region,
            aws_access_key_id=self.access_key,
            aws_secret_access_key=self.secret_key,
            config=Config(s3={"addressing_style": "path"}),
        )

    def create_bucket(self, name: str) -> None:
        client = self.client()
        try:
            client.create_bucket(Bucket=name)
        except client.exceptions.BucketAlreadyOwnedByYou:
            pass
        finally:
            client.close()

    def storage_options(self) -> dict[str, str]:
        """delta-rs ``storage_options`` (its own names) for this server."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_REGION": self.region,
            "AWS_ACCESS_KEY_ID": self.access_key,
            "AWS_SECRET_ACCESS_KEY": self.secret_key,
            "AWS_ALLOW_HTTP": "true",
        }

    def rsm_configs(self, bucket: str | None = None, prefix: str = "") -> dict[str, str]:
        """Broker configs for ``broker_embedded.tiered.s3.S3RemoteStorageManager`` on this server."""
        return {
            "remote.log.storage.manager.class.name": "broker_embedded.tiered.s3.S3RemoteStorageManager",
            "rsm.config.s3.bucket.name": bucket or self.bucket,
            "rsm.config.s3.region": self.region,
            "rsm.config.s3.endpoint.url": self.endpoint,
            "rsm.config.s3.path.style.access.enabled": "true",
            "rsm.config.aws.access.key.id": self.access_key,
            "rsm.config.aws.secret.access.key": self.secret_key,
            "rsm.config.key.prefix": prefix,
        }


__all__ = ["S3Server", "S3ServerMissing", "VERSITYGW_BIN", "VERSITYGW_VERSION", "s3_server_available"]
