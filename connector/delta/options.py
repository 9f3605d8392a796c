"""Options of the ``pykafka-delta`` sink, validated on the driver before any task runs.

Options (case-insensitive):

==================  ======================================================================
path                table location (``save(path)``/``start(path)``): a local path, ``file://``, or
                    ``s3://bucket/prefix`` (``s3a://`` is read as ``s3://``)
storage.<NAME>      delta-rs storage options for object stores, in delta-rs's names (any case):
                    ``storage.AWS_ENDPOINT_URL``, ``storage.AWS_REGION``, ``storage.AWS_ACCESS_KEY_ID``,
                    ``storage.AWS_SECRET_ACCESS_KEY``, ``storage.AWS_SESSION_TOKEN``,
                    ``storage.AWS_ALLOW_HTTP``, ``storage.AWS_VIRTUAL_HOSTED_STYLE_REQUEST``, ...; unset
                    ones come from the AWS environment. Executors write Parquet through pyarrow's
                    S3 file system, the driver commits with delta-rs (a conditional PUT: see
                    ``offsets.delta_storage``). ``offsets.delta_storage.storage_options_from_s3a``
                    maps Spark's ``spark.hadoop.fs.s3a.*`` settings to these
checkpointLocation  (streaming) Spark's; the query id is read from ``<it>/metadata``
offsetsOwner        owner of the per-partition offsets (default: the streaming query id; for a
                    batch ``df.write`` none, i.e. no offsets, unless set); group mode: group id
partitionBy         Delta partition columns: ``"a,b"`` or a JSON list ``'["a","b"]'``.
                    pyspark's ``DataFrameWriter.partitionBy`` cannot be used with Python data
                    sources (Spark refuses it for batch writes and drops it for streams)
mergeSchema         ``false`` (default): the input must match the table; ``true``: new input
                    columns are added to the table as nullable columns
kafkaOffsets        ``auto`` (default): per-partition offsets when the input has ``topic``
                    (string), ``partition`` (int) and ``offset`` (bigint) columns; ``true``:
                    require them; ``false``: ignore them
compression         Parquet codec: ``snappy`` (default), ``zstd``, ``gzip``, ``lz4``, ``none``
kafka.bootstrap.servers  optional: also mirror committed offsets to the broker's offsets of the
                    group ``offsetsOwner`` (for Kafka tooling; never read back)
==================  ======================================================================
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from connector.delta.errors import DeltaSinkOptionError
from kafka_wire.client.security import SecurityConfig, SecurityConfigError
from offsets.delta_storage import StorageOptionError, parse_table_location
from offsets.delta_store import query_id_from_checkpoint

_COMPRESSIONS = {"snappy": "snappy", "zstd": "zstd", "gzip": "gzip", "lz4": "lz4", "none": "none"}
_KAFKA_OFFSETS_MODES = ("auto", "true", "false")


def _bool_option(opts: Mapping[str, str], key: str, name: str, default: bool) -> bool:
    if key not in opts:
        return default
    value = opts[key].strip().lower()
    if value in ("true", "false"):
        return value == "true"
    raise DeltaSinkOptionError(f"option '{name}' must be 'true' or 'false', got {opts[key]!r}")


STORAGE_PREFIX = "storage."


def _table_location(location: str, storage_options: Mapping[str, str]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(table URI for delta-rs, normalized storage options) — raises DeltaSinkOptionError."""
    try:
        loc = parse_table_location(location, storage_options)
    except StorageOptionError as e:
        # the message names the option but never a storage option's value (it may be a secret)
        name = "path" if str(e).startswith("table location") else "storage.*"
        raise DeltaSinkOptionError(f"option '{name}': {e}") from None
    if loc.is_local and loc.storage_options:
        raise DeltaSinkOptionError(
            f"option(s) {', '.join(STORAGE_PREFIX + k for k in sorted(loc.storage_options))} apply to object "
            f"storage, but 'path' is a local path; accepted: an s3://bucket/prefix path, or no storage.* options"
        )
    return loc.uri, tuple(sorted(loc.storage_options.items()))


def parse_partition_by(value: str) -> tuple[str, ...]:
    text = value.strip()
    if not text:
        return ()
    if text.startswith("["):
        try:
            names = json.loads(text)
        except ValueError:
            names = None
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise DeltaSinkOptionError(
                f"option 'partitionBy' = {value!r} is not a JSON list of column names; accepted: "
                "'col1,col2' or '[\"col1\", \"col2\"]'"
            )
        out = tuple(n.strip() for n in names)
    else:
        out = tuple(n.strip() for n in text.split(","))
        if not all(out):
            raise DeltaSinkOptionError(
                f"option 'partitionBy' = {value!r} has an empty column name; accepted: 'col1,col2' or "
                '\'["col1", "col2"]\''
            )
    if len(set(out)) != len(out):
        raise DeltaSinkOptionError(f"option 'partitionBy' = {value!r} names a column more than once")
    return out


@dataclass(frozen=True)
class DeltaSinkOptions:
    table_path: str
    partition_by: tuple[str, ...] | None  # None: not given (use the table's, or none for a new table)
    merge_schema: bool
    owner: str | None
    query_id: str | None
    kafka_offsets: str
    compression: str
    # kafka.* options without the prefix; empty = no mirror; kept out of repr: SASL/TLS secrets
    mirror_config: tuple[tuple[str, str], ...] = field(repr=False)
    # storage.* options without the prefix, upper-cased (delta-rs names); kept out of repr: secrets
    storage_options: tuple[tuple[str, str], ...] = field(default=(), repr=False)


def parse_delta_options(options: Mapping[str, str], streaming: bool) -> DeltaSinkOptions:
    """Validate the sink's options (Spark lower-cases the keys). Raises DeltaSinkOptionError."""
    opts = {str(k).lower(): str(v) for k, v in options.items() if v is not None}
    location = opts.get("path", "").strip()
    if not location:
        how = "writeStream...start(path)" if streaming else "df.write.format('pykafka-delta').save(path)"
        raise DeltaSinkOptionError(
            f"option 'path' (the Delta table directory) must be given: {how} or .option('path', ...)"
        )
    storage = {k[len(STORAGE_PREFIX) :]: v for k, v in opts.items() if k.startswith(STORAGE_PREFIX)}
    table_path, storage_options = _table_location(location, storage)

    partition_by = parse_partition_by(opts["partitionby"]) if "partitionby" in opts else None
    merge_schema = _bool_option(opts, "mergeschema", "mergeSchema", False)
    kafka_offsets = opts.get("kafkaoffsets", "auto").strip().lower()
    if kafka_offsets not in _KAFKA_OFFSETS_MODES:
        raise DeltaSinkOptionError(
            f"option 'kafkaOffsets' = {opts['kafkaoffsets']!r} is not accepted; accepted: "
            f"{', '.join(_KAFKA_OFFSETS_MODES)}"
        )
    compression = opts.get("compression", "snappy").strip().lower()
    if compression == "uncompressed":
        compression = "none"
    if compression not in _COMPRESSIONS:
        raise DeltaSinkOptionError(
            f"option 'compression' = {opts['compression']!r} is not accepted; accepted: {', '.join(_COMPRESSIONS)}"
        )

    owner: str | None = None
    if "offsetsowner" in opts:
        owner = opts["offsetsowner"].strip()
        if not owner:
            raise DeltaSinkOptionError(
                "option 'offsetsOwner' must be a non-empty name (a query or consumer group id), or left unset"
            )
    query_id: str | None = None
    if streaming:
        checkpoint = opts.get("checkpointlocation", "").strip()
        query_id = query_id_from_checkpoint(checkpoint) if checkpoint else None
        if query_id is None:
            raise DeltaSinkOptionError(
                "the pykafka-delta sink needs the streaming query id, which it reads from "
                "<checkpointLocation>/metadata: set option 'checkpointLocation' on the writeStream to a local "
                f"(or file://) directory (got {checkpoint!r}; the spark.sql.streaming.checkpointLocation "
                "session setting is not visible to Python sinks)"
            )
        owner = owner or query_id

    mirror: dict[str, str] = {}
    for key, value in opts.items():
        if key.startswith("kafka.") and key != "kafka.bootstrap.servers":
            mirror[key[len("kafka.") :]] = value
    bootstrap = opts.get("kafka.bootstrap.servers", "").strip()
    if mirror and not bootstrap:
        raise DeltaSinkOptionError(
            f"option(s) {', '.join('kafka.' + k for k in sorted(mirror))} need 'kafka.bootstrap.servers': the "
            "kafka.* options of the pykafka-delta sink only configure the optional offset mirror to Kafka"
        )
    if bootstrap:
        if owner is None:
            raise DeltaSinkOptionError(
                "option 'kafka.bootstrap.servers' mirrors committed offsets to the consumer group 'offsetsOwner', "
                "which a batch write must set"
            )
        mirror["bootstrap.servers"] = bootstrap
        try:  # the mirror's security settings fail here, naming the option, not at every commit
            SecurityConfig.from_params(mirror, prefix="kafka.")
        except SecurityConfigError as e:
            raise DeltaSinkOptionError(str(e)) from None
    return DeltaSinkOptions(
        table_path=table_path,
        partition_by=partition_by,
        merge_schema=merge_schema,
        owner=owner,
        query_id=query_id,
        kafka_offsets=kafka_offsets,
        compression=_COMPRESSIONS[compression],
        mirror_config=tuple(sorted(mirror.items())),
        storage_options=storage_options,
    )


__all__ = ["DeltaSinkOptions", "parse_delta_options", "parse_partition_by"]
