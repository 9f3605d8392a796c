"""A RemoteStorageManager for S3 and S3-compatible object stores (MinIO, versitygw, R2, Ceph, ...).

Enable it on the broker (`pip install 'pykafka-suite[s3]'`, which brings boto3)::

    remote.log.storage.system.enable=true
    remote.log.storage.manager.class.name=broker_embedded.tiered.s3.S3RemoteStorageManager
    rsm.config.s3.bucket.name=kafka-tiered
    rsm.config.s3.region=us-east-1
    rsm.config.s3.endpoint.url=http://127.0.0.1:7070     # omit for AWS S3
    rsm.config.s3.path.style.access.enabled=true         # most S3-compatible servers want it
    rsm.config.aws.access.key.id=...                      # omit both to use boto3's own chain
    rsm.config.aws.secret.access.key=...                  # (env vars, ~/.aws, instance roles)
    rsm.config.key.prefix=cluster-a/                      # optional

The names follow the S3 backend of Aiven's tiered storage plugin for Apache Kafka, so a Kafka
operator's `rsm.config.*` lines carry over. Object keys mirror the local store's file names::

    <key.prefix><topic>-<partition>-<topic id>/<start offset, 20 digits>-<segment uuid>.log
                                                                         .index .timeindex ...

The topic id keeps a re-created topic apart from the old data. Only put, ranged get and delete by
key are used, never a listing: the metadata manager (by default the file-based one under the log
directory, `FileBasedRemoteLogMetadataManager`) is the source of truth for which segments exist.
A PUT is atomic on S3 (an object is either absent or whole), so a broker killed mid-copy leaves at
most some objects of a COPY_SEGMENT_STARTED segment, which the RemoteLogManager deletes later.

The client library is boto3: the reference S3 SDK for Python, thread-safe clients (the manager
calls from several worker threads), automatic multipart upload for large segments, and the
standard credential chain. Secrets are held only by the boto3 client; they never appear in the
messages of the exceptions raised here (those name the bucket, the key and the S3 error code).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from .storage import (
    IndexType,
    LogSegmentData,
    RemoteLogSegmentMetadata,
    RemoteResourceNotFoundException,
    RemoteStorageException,
    RemoteStorageManager,
    TopicIdPartition,
)

_INDEX_SUFFIXES: dict[IndexType, str] = {
    IndexType.OFFSET: ".index",
    IndexType.TIMESTAMP: ".timeindex",
    IndexType.PRODUCER_SNAPSHOT: ".snapshot",
    IndexType.TRANSACTION: ".txnindex",
    IndexType.LEADER_EPOCH: ".leader_epoch_checkpoint",
}
_SEGMENT_SUFFIX = ".log"
_NOT_FOUND_CODES = frozenset({"NoSuchKey", "404", "NotFound"})

BUCKET = "s3.bucket.name"
REGION = "s3.region"
ENDPOINT = "s3.endpoint.url"
PATH_STYLE = "s3.path.style.access.enabled"
ACCESS_KEY = "aws.access.key.id"
SECRET_KEY = "aws.secret.access.key"
KEY_PREFIX = "key.prefix"
MULTIPART_THRESHOLD = "s3.multipart.upload.part.size"
MAX_CONNECTIONS = "s3.max.connections"
KNOWN_CONFIGS = frozenset(
    {BUCKET, REGION, ENDPOINT, PATH_STYLE, ACCESS_KEY, SECRET_KEY, KEY_PREFIX, MULTIPART_THRESHOLD, MAX_CONNECTIONS}
)


def _bool(configs: Mapping[str, Any], key: str, default: bool) -> bool:
    value = configs.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "false"):
        return text == "true"
    raise ValueError(f"rsm.config.{key} = {value!r}: accepted values are true, false")


def _positive_int(configs: Mapping[str, Any], key: str, default: int) -> int:
    value = configs.get(key)
    if value is None or value == "":
        return default
    try:
        n = int(value)
    except (TypeError, ValueError):
        n = 0
    if n <= 0:
        raise ValueError(f"rsm.config.{key} = {value!r}: accepted values are positive integers")
    return n


class S3RemoteStorageManager(RemoteStorageManager):
    """RSM over an S3 bucket. Configs (under `rsm.config.`): see the module docstring."""

    def __init__(self) -> None:
        self.bucket: str | None = None
        self.prefix = ""
        self._client: Any = None
        self._transfer_config: Any = None
        self._lock = threading.Lock()

    def configure(self, configs: Mapping[str, Any]) -> None:
        try:
            import boto3
            from boto3.s3.transfer import TransferConfig
            from botocore.config import Config
        except ImportError as e:
            raise ValueError("S3RemoteStorageManager needs boto3: pip install 'pykafka-suite[s3]' (or boto3)") from e
        bucket = str(configs.get(BUCKET) or "").strip()
        if not bucket:
            raise ValueError(f"S3RemoteStorageManager needs a bucket: set rsm.config.{BUCKET}")
        access_key, secret_key = configs.get(ACCESS_KEY), configs.get(SECRET_KEY)
        if bool(access_key) != bool(secret_key):
            raise ValueError(
                f"set both rsm.config.{ACCESS_KEY} and rsm.config.{SECRET_KEY}, or neither (boto3's credential chain)"
            )
        path_style = _bool(configs, PATH_STYLE, default=bool(configs.get(ENDPOINT)))
        part_size = _positive_int(configs, MULTIPART_THRESHOLD, 25 * 1024 * 1024)
        max_connections = _positive_int(configs, MAX_CONNECTIONS, 32)
        self.bucket = bucket
        self.prefix = str(configs.get(KEY_PREFIX) or "")
        self._transfer_config = TransferConfig(multipart_threshold=part_size, multipart_chunksize=part_size)
        client_config = Config(
            s3={"addressing_style": "path" if path_style else "auto"},
            max_pool_connections=max_connections,
            retries={"max_attempts": 3, "mode": "standard"},
        )
        # A session of our own: boto3's default session is shared process state.
        session = boto3.session.Session()
        self._client = session.client(
            "s3",
            endpoint_url=str(configs[ENDPOINT]) if configs.get(ENDPOINT) else None,
            region_name=str(configs.get(REGION) or "us-east-1"),
            aws_access_key_id=str(access_key) if access_key else None,
            aws_secret_access_key=str(secret_key) if secret_key else None,
            config=client_config,
        )

    # ------------------------------------------------------------------ keys
    @property
    def client(self) -> Any:
        if self._client is None:
            raise RemoteStorageException("S3RemoteStorageManager is not configured (or closed)")
        return self._client

    def partition_prefix(self, tip: TopicIdPartition) -> str:
        return f"{self.prefix}{tip.topic}-{tip.partition}-{tip.topic_id_base64}/"

    def key(self, md: RemoteLogSegmentMetadata, suffix: str) -> str:
        sid = md.remote_log_segment_id
        return f"{self.partition_prefix(sid.topic_id_partition)}{md.start_offset:020d}-{sid.id}{suffix}"

    # ------------------------------------------------------------------ errors
    def _error(self, action: str, key: str, e: Exception) -> RemoteStorageException:
        """Our exception for a boto3 one: the S3 error code and the key, never the request (whose
        signature headers derive from the secret)."""
        code = _error_code(e)
        text = f"S3 {action} s3://{self.bucket}/{key} failed: {code or type(e).__name__}"
        if code in _NOT_FOUND_CODES:
            return RemoteResourceNotFoundException(text)
        return RemoteStorageException(text)

    # ------------------------------------------------------------------ RSM
    def copy_log_segment_data(self, metadata: RemoteLogSegmentMetadata, data: LogSegmentData) -> bytes | None:
        files: list[tuple[Path | bytes, str]] = [
            (data.offset_index, _INDEX_SUFFIXES[IndexType.OFFSET]),
            (data.time_index, _INDEX_SUFFIXES[IndexType.TIMESTAMP]),
            (data.producer_snapshot_index, _INDEX_SUFFIXES[IndexType.PRODUCER_SNAPSHOT]),
        ]
        if data.transaction_index is not None:
            files.append((data.transaction_index, _INDEX_SUFFIXES[IndexType.TRANSACTION]))
        files.append((data.leader_epoch_index, _INDEX_SUFFIXES[IndexType.LEADER_EPOCH]))
        # The segment last, as in the local store: its presence means the indexes are there too.
        files.append((data.log_segment, _SEGMENT_SUFFIX))
        for source, suffix in files:
            key = self.key(metadata, suffix)
            try:
                if isinstance(source, bytes):
                    self.client.put_object(Bucket=self.bucket, Key=key, Body=source)
                else:
                    self.client.upload_file(str(source), self.bucket, key, Config=self._transfer_config)
            except OSError as e:  # the local file vanished or could not be read
                # NOTE: for in-memory indexes `source` is bytes and lands in the message whole (noticed, left)
                raise RemoteStorageException(f"copying {source} to s3://{self.bucket}/{key} failed: {e}") from e  # type: ignore[str-bytes-safe]
            except Exception as e:  # botocore's ClientError / BotoCoreError / S3UploadFailedError
                raise self._error("put", key, e) from None
        return None

    def _get(self, key: str, byte_range: str | None = None) -> bytes:
        kwargs: dict[str, Any] = {"Bucket": self.bucket, "Key": key}
        if byte_range is not None:
            kwargs["Range"] = byte_range
        try:
            response = self.client.get_object(**kwargs)
            with response["Body"] as body:
                return body.read()
        except Exception as e:
            if byte_range is not None and _error_code(e) == "InvalidRange":
                return b""  # the range starts at or past the end: no bytes, as a local read gives
            raise self._error("get", key, e) from None

    def fetch_log_segment(
        self, metadata: RemoteLogSegmentMetadata, start_position: int, end_position: int | None = None
    ) -> BinaryIO:
        if start_position < 0 or (end_position is not None and end_position < start_position):
            raise ValueError(f"bad byte range [{start_position}, {end_position}]")
        # An HTTP Range (inclusive end, as this method's): only the bytes asked for cross the wire.
        byte_range = f"bytes={start_position}-{'' if end_position is None else end_position}"
        return io.BytesIO(self._get(self.key(metadata, _SEGMENT_SUFFIX), byte_range))

    def fetch_index(self, metadata: RemoteLogSegmentMetadata, index_type: IndexType) -> BinaryIO:
        return io.BytesIO(self._get(self.key(metadata, _INDEX_SUFFIXES[index_type])))

    def delete_log_segment_data(self, metadata: RemoteLogSegmentMetadata) -> None:
        keys = [self.key(metadata, s) for s in (_SEGMENT_SUFFIX, *_INDEX_SUFFIXES.values())]
        try:
            # One DeleteObjects call; S3 reports a missing key as deleted, so this is idempotent.
            response = self.client.delete_objects(
                Bucket=self.bucket, Delete={"Objects": [{"Key": k} for k in keys], "Quiet": True}
            )
        except Exception as e:
            raise self._error("delete", keys[0], e) from None
        errors = [err for err in response.get("Errors", []) if err.get("Code") not in _NOT_FOUND_CODES]
        if errors:
            first = errors[0]
            raise RemoteStorageException(
                f"S3 delete s3://{self.bucket}/{first.get('Key')} failed: {first.get('Code')} "
                f"({len(errors)} of {len(keys)} objects)"
            )

    def list_keys(self, tip: TopicIdPartition) -> list[str]:
        """Names of the objects stored for a partition, relative to its prefix (for tests and
        debugging; reads never LIST)."""
        prefix = self.partition_prefix(tip)
        names: list[str] = []
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=prefix):
            names.extend(obj["Key"][len(prefix) :] for obj in page.get("Contents", []))
        return sorted(names)

    def close(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()


def _error_code(e: BaseException) -> str | None:
    """S3's error code of a botocore ClientError, also when boto3's transfer manager wrapped it
    (S3UploadFailedError chains the ClientError)."""
    seen = 0
    cur: BaseException | None = e
    while cur is not None and seen < 5:
        response = getattr(cur, "response", None)
        if isinstance(response, dict):
            code = response.get("Error", {}).get("Code")
            return str(code) if code is not None else None
        cur, seen = cur.__cause__ or cur.__context__, seen + 1
    return None


__all__ = ["S3RemoteStorageManager"]
