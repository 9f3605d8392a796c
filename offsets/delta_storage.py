"""Where a Delta table lives: a local directory or an S3(-compatible) prefix, and how to reach it.

One description of a table's location serves every reader and writer of it: the ``pykafka-delta``
sink (executors write Parquet through a pyarrow file system, the driver commits with delta-rs),
`DeltaOffsetStore`, and the ``pykafka offsets`` / ``lag`` commands.

Storage options use delta-rs's own names (``AWS_ENDPOINT_URL``, ``AWS_REGION``,
``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_SESSION_TOKEN``, ``AWS_ALLOW_HTTP``,
``AWS_VIRTUAL_HOSTED_STYLE_REQUEST``, ...): they go to delta-rs unchanged, and the ones a pyarrow
``S3FileSystem`` understands are translated for the Parquet files. Keys are upper-cased, because
Spark lower-cases option names and delta-rs documents its names in upper case. Whatever is not
given falls back to the usual AWS environment (``AWS_ACCESS_KEY_ID``, ``AWS_ENDPOINT_URL``, ...,
profiles, instance roles), which delta-rs and pyarrow both read.

Safe commits on S3: delta-rs >= 1.0 creates ``_delta_log/<version>.json`` with a conditional PUT
(``If-None-Match: *``), so of two writers racing for one version exactly one succeeds; no locking
provider (DynamoDB) is needed or supported any more. The store must implement conditional writes
(AWS S3 since 2024, MinIO, R2, versitygw, ...). ``AWS_S3_ALLOW_UNSAFE_RENAME`` is refused here:
it would let two writers overwrite each other's commit.

Secrets: a `TableLocation` keeps its options out of ``repr``, and no message raised here includes
an option's value.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

from kafka_wire.errors import PykafkaError

S3_SCHEMES = ("s3", "s3a")
ACCEPTED_LOCATIONS = "a local path, a file:// URI, or s3://bucket/prefix (s3a:// is read as s3://)"
# delta-rs's name -> how Spark users already spell it in their Hadoop configuration (fs.s3a.*).
_S3A_KEYS = {
    "fs.s3a.access.key": "AWS_ACCESS_KEY_ID",
    "fs.s3a.secret.key": "AWS_SECRET_ACCESS_KEY",
    "fs.s3a.session.token": "AWS_SESSION_TOKEN",
    "fs.s3a.endpoint.region": "AWS_REGION",
}
_UNSAFE = "AWS_S3_ALLOW_UNSAFE_RENAME"
# read from the environment for pyarrow when the options lack them (delta-rs reads them itself)
_ENV_FALLBACK = (
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_S3",
    "AWS_ENDPOINT",
    "AWS_ALLOW_HTTP",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_VIRTUAL_HOSTED_STYLE_REQUEST",
)


class StorageOptionError(PykafkaError, ValueError):
    """A table location or storage option that cannot be used (the message names it)."""


def normalize_storage_options(options: Mapping[str, Any] | None) -> dict[str, str]:
    """delta-rs storage options with upper-case keys and string values; refuses unsafe commits."""
    out = {str(k).strip().upper(): str(v) for k, v in (options or {}).items() if v is not None}
    if out.get(_UNSAFE, "").strip().lower() == "true":
        raise StorageOptionError(
            f"storage option {_UNSAFE}=true lets two writers overwrite each other's Delta commit; the "
            "pykafka Delta sink needs a store with conditional writes (If-None-Match), which delta-rs uses by "
            f"default: remove {_UNSAFE}"
        )
    return out


def storage_options_from_s3a(conf: Mapping[str, str]) -> dict[str, str]:
    """delta-rs storage options from Hadoop's S3A settings, as Spark users set them
    (``spark.hadoop.fs.s3a.endpoint``, ``.access.key``, ``.secret.key``, ``.path.style.access``, ...;
    with or without the ``spark.hadoop.`` prefix). For example, on the driver::

        opts = storage_options_from_s3a(dict(spark.sparkContext.getConf().getAll()))
        df.writeStream.format("pykafka-delta").options(**sink_storage_options(opts))
    """
    s3a = {}
    for key, value in conf.items():
        k = str(key)
        if k.startswith("spark.hadoop."):
            k = k[len("spark.hadoop.") :]
        if k.startswith("fs.s3a."):
            s3a[k] = str(value).strip()
    out = {name: s3a[key] for key, name in _S3A_KEYS.items() if s3a.get(key)}
    endpoint = s3a.get("fs.s3a.endpoint")
    if endpoint:
        if "://" not in endpoint:
            ssl = s3a.get("fs.s3a.connection.ssl.enabled", "true").lower() != "false"
            endpoint = ("https://" if ssl else "http://") + endpoint
        out["AWS_ENDPOINT_URL"] = endpoint
        if endpoint.startswith("http://"):
            out["AWS_ALLOW_HTTP"] = "true"
    if "fs.s3a.path.style.access" in s3a:
        path_style = s3a["fs.s3a.path.style.access"].lower() == "true"
        out["AWS_VIRTUAL_HOSTED_STYLE_REQUEST"] = "false" if path_style else "true"
    return out


def sink_storage_options(storage_options: Mapping[str, str]) -> dict[str, str]:
    """The ``pykafka-delta`` sink options (``storage.<NAME>``) that carry these storage options."""
    return {f"storage.{k}": v for k, v in normalize_storage_options(storage_options).items()}


@dataclass(frozen=True)
class TableLocation:
    """A Delta table's location: ``uri`` is what delta-rs opens (an absolute local path or
    ``s3://bucket/prefix``); ``storage_options`` (not in repr: they may hold secrets) configure it."""

    uri: str
    scheme: str  # "file" or "s3" (or another URI scheme, kept only for delta-rs: see parse_table_location)
    storage_options: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def is_local(self) -> bool:
        return self.scheme == "file"

    @property
    def delta_storage_options(self) -> dict[str, str] | None:
        """What to pass as delta-rs's ``storage_options`` (None for a local table without any)."""
        return dict(self.storage_options) if self.storage_options else None

    def fs_path(self, rel: str = "") -> str:
        """The path of ``rel`` (a table-relative, '/'-separated path) in `filesystem()`'s namespace."""
        base = self.uri if self.is_local else self.uri[len("s3://") :]
        if not rel:
            return base
        return os.path.join(base, *rel.split("/")) if self.is_local else f"{base.rstrip('/')}/{rel}"

    def filesystem(self) -> Any:
        """A pyarrow file system for this location (executors write the Parquet files through it)."""
        import pyarrow.fs as pafs

        if self.is_local:
            return pafs.LocalFileSystem()
        if self.scheme != "s3":
            raise StorageOptionError(f"table location {self.uri!r}: accepted here: {ACCEPTED_LOCATIONS}")
        return pafs.S3FileSystem(**pyarrow_s3_options(self.storage_options), **pyarrow_s3_patience())


# How long the Parquet writer waits out a slow or stalled object store before a request fails: as
# long as delta-rs (object_store: 5 s connect, 30 s without progress per request, retries for up to
# 3 min). pyarrow's own defaults (the AWS SDK's: 1 s connect, 3 s without a byte, 3 attempts) give
# up after ~10 s of stall, and an executor task that fails there fails the micro-batch (and the
# query, where Spark does not retry tasks: local mode), while the driver's commit would have waited.
S3_CONNECT_TIMEOUT_S = 5.0
S3_REQUEST_TIMEOUT_S = 30.0
S3_MAX_ATTEMPTS = 6


def pyarrow_s3_patience() -> dict[str, Any]:
    """``pyarrow.fs.S3FileSystem`` timeout and retry keyword arguments (see S3_REQUEST_TIMEOUT_S)."""
    import pyarrow.fs as pafs

    return {
        "connect_timeout": S3_CONNECT_TIMEOUT_S,
        "request_timeout": S3_REQUEST_TIMEOUT_S,
        "retry_strategy": pafs.AwsStandardS3RetryStrategy(max_attempts=S3_MAX_ATTEMPTS),
    }


def pyarrow_s3_options(storage_options: Mapping[str, str]) -> dict[str, Any]:
    """``pyarrow.fs.S3FileSystem`` keyword arguments for delta-rs storage options. Credentials that
    are absent are left to pyarrow (the AWS SDK's chain: ``AWS_*`` variables, profiles, roles); the
    endpoint, region and addressing settings fall back to the same ``AWS_*`` environment variables
    delta-rs reads, which pyarrow itself ignores, so both writers of a table go to the same place."""
    opts = {k: os.environ[k] for k in _ENV_FALLBACK if os.environ.get(k)}
    opts.update(normalize_storage_options(storage_options))
    kwargs: dict[str, Any] = {}
    if opts.get("AWS_ACCESS_KEY_ID"):
        kwargs["access_key"] = opts["AWS_ACCESS_KEY_ID"]
        kwargs["secret_key"] = opts.get("AWS_SECRET_ACCESS_KEY", "")
        if opts.get("AWS_SESSION_TOKEN"):
            kwargs["session_token"] = opts["AWS_SESSION_TOKEN"]
    region = opts.get("AWS_REGION") or opts.get("AWS_DEFAULT_REGION")
    if region:
        kwargs["region"] = region
    endpoint = opts.get("AWS_ENDPOINT_URL") or opts.get("AWS_ENDPOINT") or opts.get("AWS_ENDPOINT_URL_S3")
    if endpoint:
        parsed = urlparse(endpoint if "://" in endpoint else "https://" + endpoint)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise StorageOptionError(
                "storage option AWS_ENDPOINT_URL must be http(s)://host[:port] (the value is not shown: it may "
                "be sensitive)"
            )
        if parsed.scheme == "http" and opts.get("AWS_ALLOW_HTTP", "false").lower() != "true":
            raise StorageOptionError(
                "storage option AWS_ENDPOINT_URL is http:// but AWS_ALLOW_HTTP is not 'true'; accepted: set "
                "AWS_ALLOW_HTTP=true, or use an https:// endpoint"
            )
        kwargs["endpoint_override"] = parsed.netloc
        kwargs["scheme"] = parsed.scheme
    virtual = opts.get("AWS_VIRTUAL_HOSTED_STYLE_REQUEST")
    if virtual is not None:
        if virtual.lower() not in ("true", "false"):
            raise StorageOptionError(
                f"storage option AWS_VIRTUAL_HOSTED_STYLE_REQUEST = {virtual!r}; accepted: true, false"
            )
        kwargs["force_virtual_addressing"] = virtual.lower() == "true"
    return kwargs


def parse_table_location(
    location: str, storage_options: Mapping[str, Any] | None = None, other_schemes: bool = False
) -> TableLocation:
    """A `TableLocation` for a path or URI. Raises StorageOptionError naming the accepted forms.

    ``other_schemes``: keep any other URI (``gs://``, ``abfss://``, ...) as it is, for readers that
    only hand it to delta-rs (its `filesystem()` then raises)."""
    text = location.strip()
    options = normalize_storage_options(storage_options)
    parsed = urlparse(text)
    scheme = parsed.scheme.lower()
    if scheme == "file" or scheme == "" or len(scheme) == 1:  # len 1: a Windows drive letter
        path = unquote(parsed.path) if scheme == "file" else text
        return TableLocation(os.path.abspath(path), "file", options)
    if scheme in S3_SCHEMES:
        if not parsed.netloc:
            raise StorageOptionError(f"table location {location!r} names no bucket; accepted: {ACCEPTED_LOCATIONS}")
        key = parsed.path.strip("/")
        if not key:
            # A table needs its own prefix: the bucket root would mix _delta_log with anything else stored there.
            raise StorageOptionError(
                f"table location {location!r} is a bucket root; accepted: s3://bucket/prefix (a prefix per table)"
            )
        return TableLocation(f"s3://{parsed.netloc}/{key}", "s3", options)
    if other_schemes:
        return TableLocation(text, scheme, options)
    raise StorageOptionError(f"table location {location!r} is not supported; accepted: {ACCEPTED_LOCATIONS}")


__all__ = [
    "ACCEPTED_LOCATIONS",
    "StorageOptionError",
    "TableLocation",
    "normalize_storage_options",
    "parse_table_location",
    "pyarrow_s3_options",
    "pyarrow_s3_patience",
    "sink_storage_options",
    "storage_options_from_s3a",
]
